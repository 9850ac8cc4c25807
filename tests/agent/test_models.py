"""Model providers: make_model by config, the OpenAI-compatible client against a loopback server."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from bot.agent import run_agent
from bot.llm import ExtractiveModel, LlmConfigError, make_model
from bot.llm.openai_compat import OpenAICompatModel
from bot.settings import Settings
from identity.principal import Principal
from tools import FENCE_HEADER, TOOL_NAMES, ToolDeps, parse_passages

GUEST = Principal.guest("cli", "local", "anonymous")


def test_make_model_by_composer_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    assert isinstance(make_model(Settings()), ExtractiveModel)
    with pytest.raises(LlmConfigError, match="DASAR_LLM_MODEL"):
        make_model(Settings(composer="bedrock"))
    with pytest.raises(LlmConfigError, match="DASAR_LLM_BASE_URL"):
        make_model(Settings(composer="openai", llm_model="m"))
    openai = make_model(
        Settings(
            composer="openai", llm_model="qwen", llm_base_url="http://127.0.0.1:9/v1/", llm_api_key="sk-test"
        )
    )
    assert isinstance(openai, OpenAICompatModel)
    assert openai.get_config()["base_url"] == "http://127.0.0.1:9/v1"
    monkeypatch.setenv("AWS_REGION", "ap-southeast-3")
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "test")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "test")
    from strands.models.bedrock import BedrockModel

    bedrock = make_model(Settings(composer="bedrock", llm_model="anthropic.claude-3-5-haiku-20241022-v1:0"))
    assert isinstance(bedrock, BedrockModel)
    assert bedrock.get_config()["model_id"] == "anthropic.claude-3-5-haiku-20241022-v1:0"


class _Server:
    """A loopback OpenAI-compatible endpoint replaying canned chat completions and recording requests."""

    def __init__(self, replies: list[Any]) -> None:
        """``replies``: (status, payload) pairs, or callables taking the request body and returning one."""
        self.replies = list(replies)
        self.requests: list[tuple[dict[str, str], dict[str, Any]]] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                outer.requests.append((dict(self.headers), body | {"_path": self.path}))
                reply = outer.replies.pop(0)
                status, payload = reply(body) if callable(reply) else reply
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: Any) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self) -> _Server:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join()


def _completion(content: str | None = None, tool_calls: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if tool_calls:
        message["tool_calls"] = tool_calls
    return {
        "id": "c1",
        "object": "chat.completion",
        "choices": [
            {"index": 0, "message": message, "finish_reason": "tool_calls" if tool_calls else "stop"}
        ],
        "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
    }


def _final_answer(body: dict[str, Any]) -> tuple[int, Any]:
    """Answer with a claim quoting the passage the tool returned (as a well-behaved model would)."""
    tool_msg = next(m for m in body["messages"] if m["role"] == "tool")
    p = next(p for p in parse_passages(tool_msg["content"]) if "11%" in p.text)
    quote = "Tarif PPN yang dipungut atas penyerahan dalam negeri adalah 11% sesuai Undang-Undang HPP."
    return 200, _completion(
        json.dumps(
            {
                "claims": [
                    {"text": quote, "quote": quote, "source_id": p.id, "layer": "policy", "assumption": None}
                ],
                "self_assessment": 0.8,
            }
        )
    )


@pytest.fixture()
def chat_server() -> Iterator[_Server]:
    search = {
        "id": "call_1",
        "type": "function",
        "function": {"name": "search_kb", "arguments": json.dumps({"query": "tarif PPN penyerahan"})},
    }
    with _Server([(200, _completion(tool_calls=[search])), _final_answer]) as server:
        yield server


def test_openai_compatible_model_runs_the_agent_loop(chat_server: _Server, planted_deps: ToolDeps) -> None:
    model = OpenAICompatModel(model_id="qwen2.5-7b", base_url=chat_server.url, api_key="sk-test")
    outcome = run_agent("Berapa tarif PPN?", GUEST, planted_deps, model)

    (h1, first), (_h2, second) = chat_server.requests
    assert h1["Authorization"] == "Bearer sk-test" and first["_path"] == "/v1/chat/completions"
    assert first["model"] == "qwen2.5-7b" and first["temperature"] == 0
    assert [m["role"] for m in first["messages"]] == ["system", "user"]
    assert first["messages"][1]["content"] == "Berapa tarif PPN?"
    assert sorted(t["function"]["name"] for t in first["tools"]) == sorted(TOOL_NAMES)
    assert all(t["function"]["parameters"]["additionalProperties"] is False for t in first["tools"])
    assert [m["role"] for m in second["messages"]] == ["system", "user", "assistant", "tool"]
    assert second["messages"][2]["tool_calls"][0]["id"] == "call_1"
    tool_msg = second["messages"][3]
    assert tool_msg["tool_call_id"] == "call_1" and tool_msg["content"].startswith(FENCE_HEADER)

    assert outcome.stop_reason == "end_turn" and len(outcome.composed.claims) == 1


def test_openai_compatible_endpoint_error_fails_closed(planted_deps: ToolDeps) -> None:
    with _Server([(500, {"error": "boom"})]) as server:
        model = OpenAICompatModel(model_id="m", base_url=server.url)
        outcome = run_agent("Berapa tarif PPN?", GUEST, planted_deps, model)
    assert outcome.stop_reason == "error"
    assert outcome.composed.notes == ("model_failed:LlmResponseError",)
    assert outcome.ledger.calls == ()


def test_openai_compatible_model_answer_passes_the_pipeline_verification(
    chat_server: _Server, planted_deps: ToolDeps
) -> None:
    from tests.agent.scripts import answer_with

    model = OpenAICompatModel(model_id="qwen2.5-7b", base_url=chat_server.url, api_key="sk-test")
    answer = answer_with(model, "Berapa tarif PPN atas penyerahan dalam negeri?", GUEST, planted_deps)
    assert answer.status == "answered", answer.status
    assert [c.quote for c in answer.claims] == [
        "Tarif PPN yang dipungut atas penyerahan dalam negeri adalah 11% sesuai Undang-Undang HPP."
    ]
    assert not answer.unsupported_claims
