"""``OpenAICompatModel``: a strands Model over any OpenAI-compatible ``/chat/completions`` endpoint (httpx).

WHY our own: strands' ``OpenAIModel`` needs the ``openai`` package, which is not a dependency of dasar;
a small non-streaming client over httpx covers vLLM, Ollama, LiteLLM proxies, Azure-style gateways and
OpenAI itself.  The conversation is converted from strands content blocks (text, toolUse, toolResult) to
chat messages with ``tool_calls``/``role: tool``; the reply is converted back into stream events.
"""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncGenerator
from typing import Any, TypeVar

import httpx
from pydantic import BaseModel
from strands.models import Model
from strands.types.content import ContentBlock, Message, Messages
from strands.types.exceptions import ModelThrottledException
from strands.types.tools import ToolSpec

from bot.llm.errors import LlmConfigError, LlmResponseError
from bot.llm.events import message_events, result_text

logger = logging.getLogger(__name__)

T = TypeVar("T", bound=BaseModel)

DEFAULT_TIMEOUT_S = 60.0
DEFAULT_CONTEXT_WINDOW = 128_000


def to_chat_messages(messages: Messages, system_prompt: str | None) -> list[dict[str, Any]]:
    """strands messages -> OpenAI chat messages."""
    out: list[dict[str, Any]] = []
    if system_prompt:
        out.append({"role": "system", "content": system_prompt})
    for m in messages:
        texts = [b["text"] for b in m["content"] if "text" in b]
        if m["role"] == "assistant":
            calls = [
                {
                    "id": b["toolUse"]["toolUseId"],
                    "type": "function",
                    "function": {
                        "name": b["toolUse"]["name"],
                        "arguments": json.dumps(b["toolUse"].get("input", {}), ensure_ascii=False),
                    },
                }
                for b in m["content"]
                if "toolUse" in b
            ]
            msg: dict[str, Any] = {"role": "assistant", "content": "\n".join(texts) if texts else None}
            if calls:
                msg["tool_calls"] = calls
            out.append(msg)
            continue
        for b in m["content"]:
            if "toolResult" in b:
                res = b["toolResult"]
                text = result_text(res)
                if res.get("status") == "error" and not text.startswith("Error"):
                    text = f"Error: {text}"
                out.append({"role": "tool", "tool_call_id": res["toolUseId"], "content": text})
        if texts:
            out.append({"role": "user", "content": "\n".join(texts)})
    return out


def to_chat_tools(tool_specs: list[ToolSpec] | None) -> list[dict[str, Any]]:
    return [
        {
            "type": "function",
            "function": {
                "name": s["name"],
                "description": s["description"],
                "parameters": s["inputSchema"]["json"],
            },
        }
        for s in tool_specs or []
    ]


def from_chat_completion(body: Any) -> tuple[Message, dict[str, int]]:
    """OpenAI chat completion JSON -> (strands assistant message, usage).

    Raises:
        LlmResponseError: the body is not a chat completion.
    """
    try:
        message = body["choices"][0]["message"]
    except (KeyError, IndexError, TypeError) as exc:
        raise LlmResponseError(
            "endpoint answered without choices[0].message; is it OpenAI-compatible?"
        ) from exc
    content: list[ContentBlock] = []
    if message.get("content"):
        content.append({"text": str(message["content"])})
    for call in message.get("tool_calls") or []:
        fn = call.get("function") or {}
        try:
            args = json.loads(fn.get("arguments") or "{}")
        except json.JSONDecodeError:
            args = {"<unparseable arguments>": True}  # the strict tool refuses it with a readable error
        content.append(
            {
                "toolUse": {
                    "toolUseId": str(call.get("id") or f"call-{len(content)}"),
                    "name": str(fn.get("name", "")),
                    "input": args,
                }
            }
        )
    if not content:
        content.append({"text": ""})
    usage = body.get("usage") or {}
    return {"role": "assistant", "content": content}, {
        "inputTokens": int(usage.get("prompt_tokens", 0)),
        "outputTokens": int(usage.get("completion_tokens", 0)),
        "totalTokens": int(usage.get("total_tokens", 0)),
    }


class OpenAICompatModel(Model):
    """Chat-completions client for an OpenAI-compatible endpoint (non-streaming request, streamed events)."""

    def __init__(
        self,
        *,
        model_id: str,
        base_url: str,
        api_key: str | None = None,
        timeout_s: float = DEFAULT_TIMEOUT_S,
        params: dict[str, Any] | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        if not model_id:
            raise LlmConfigError("an OpenAI-compatible composer needs a model id (DASAR_LLM_MODEL)")
        if not base_url:
            raise LlmConfigError("an OpenAI-compatible composer needs a base URL (DASAR_LLM_BASE_URL)")
        self.config: dict[str, Any] = {
            "model_id": model_id,
            "base_url": base_url.rstrip("/"),
            "params": dict(params or {"temperature": 0}),
            "context_window_limit": DEFAULT_CONTEXT_WINDOW,
        }
        self._api_key = api_key
        self._timeout = timeout_s
        self._transport = transport

    def get_config(self) -> dict[str, Any]:
        return self.config

    def update_config(self, **model_config: Any) -> None:
        self.config.update(model_config)

    def request_body(
        self, messages: Messages, tool_specs: list[ToolSpec] | None, system_prompt: str | None
    ) -> dict[str, Any]:
        body: dict[str, Any] = {
            "model": self.config["model_id"],
            "messages": to_chat_messages(messages, system_prompt),
            **self.config["params"],
        }
        tools = to_chat_tools(tool_specs)
        if tools:
            body["tools"] = tools
        return body

    async def complete(self, body: dict[str, Any]) -> Any:
        headers = {"Content-Type": "application/json"}
        if self._api_key:
            headers["Authorization"] = f"Bearer {self._api_key}"
        url = f"{self.config['base_url']}/chat/completions"
        async with httpx.AsyncClient(timeout=self._timeout, transport=self._transport) as client:
            try:
                resp = await client.post(url, json=body, headers=headers)
            except httpx.HTTPError as exc:
                raise LlmResponseError(
                    f"cannot reach the model endpoint ({type(exc).__name__}); check DASAR_LLM_BASE_URL"
                ) from exc
        if resp.status_code == 429:
            raise ModelThrottledException("model endpoint is throttling (HTTP 429)")
        if resp.status_code >= 400:
            logger.warning("status=%s | model endpoint error", resp.status_code)
            raise LlmResponseError(f"model endpoint answered HTTP {resp.status_code}; check model id and key")
        try:
            return resp.json()
        except ValueError as exc:
            raise LlmResponseError("model endpoint answered non-JSON") from exc

    async def stream(
        self,
        messages: Messages,
        tool_specs: list[ToolSpec] | None = None,
        system_prompt: str | None = None,
        *,
        tool_choice: Any = None,
        **kwargs: Any,
    ) -> AsyncGenerator[Any, None]:
        body = await self.complete(self.request_body(messages, tool_specs, system_prompt))
        message, usage = from_chat_completion(body)
        for event in message_events(message, usage):
            yield event

    async def structured_output(
        self, output_model: type[T], prompt: Messages, system_prompt: str | None = None, **kwargs: Any
    ) -> AsyncGenerator[dict[str, T | Any], None]:
        body = self.request_body(prompt, None, system_prompt)
        body["response_format"] = {"type": "json_object"}
        message, _ = from_chat_completion(await self.complete(body))
        text = "".join(b.get("text", "") for b in message["content"])
        yield {"output": output_model.model_validate_json(text)}
