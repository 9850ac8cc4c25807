"""``ScriptedModel``: a strands Model that replays scripted assistant messages (tests and demos).

Modelled on strands' own ``MockedModelProvider``: each call to :meth:`stream` yields the next scripted
message (text and/or ``toolUse`` blocks) as stream events.  A step may also be a callable receiving the
conversation so far, so a script can "obey" whatever a tool returned (e.g. copy a passage id or follow an
injected instruction) -- that is how the attack tests drive the real agent loop.  Every call is recorded
(messages, tool specs, system prompt) so tests can assert what the model was shown.
"""

from __future__ import annotations

import copy
import json
from collections.abc import AsyncGenerator, Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from pydantic import BaseModel
from strands.models import Model
from strands.types.content import Message, Messages
from strands.types.tools import ToolSpec

from bot.llm.errors import ScriptExhausted
from bot.llm.events import OFFLINE_CONTEXT_WINDOW, message_events

T = TypeVar("T", bound=BaseModel)

Step = Message | str | Callable[[Messages], Message | str]


@dataclass(frozen=True)
class ScriptedCall:
    """What the model was given on one call (deep copies, safe to inspect later)."""

    messages: list[Message]
    tool_specs: list[ToolSpec]
    system_prompt: str | None


def text_message(text: str) -> Message:
    return {"role": "assistant", "content": [{"text": text}]}


def tool_call(name: str, tool_input: dict[str, Any], tool_use_id: str = "t1") -> Message:
    """An assistant message that calls one tool."""
    return {
        "role": "assistant",
        "content": [{"toolUse": {"toolUseId": tool_use_id, "name": name, "input": tool_input}}],
    }


def claims_message(claims: Sequence[dict[str, Any]], self_assessment: float = 0.8) -> Message:
    """An assistant message with the structured final answer (JSON claims)."""
    return text_message(
        json.dumps({"claims": list(claims), "self_assessment": self_assessment}, ensure_ascii=False)
    )


class ScriptedModel(Model):
    """Replays ``steps`` in order; raises :class:`ScriptExhausted` when asked for more."""

    def __init__(self, steps: Sequence[Step]) -> None:
        self.steps = list(steps)
        self.index = 0
        self.calls: list[ScriptedCall] = []
        self.config: dict[str, Any] = {"model_id": "scripted", "context_window_limit": OFFLINE_CONTEXT_WINDOW}

    def get_config(self) -> dict[str, Any]:
        return self.config

    def update_config(self, **model_config: Any) -> None:
        self.config.update(model_config)

    def _next(self, messages: Messages) -> Message:
        if self.index >= len(self.steps):
            raise ScriptExhausted(f"script has {len(self.steps)} steps; call {self.index + 1} has none")
        step = self.steps[self.index]
        self.index += 1
        if callable(step):
            step = step(messages)
        return text_message(step) if isinstance(step, str) else step

    async def stream(
        self,
        messages: Messages,
        tool_specs: list[ToolSpec] | None = None,
        system_prompt: str | None = None,
        *,
        tool_choice: Any = None,
        **kwargs: Any,
    ) -> AsyncGenerator[Any, None]:
        self.calls.append(
            ScriptedCall(copy.deepcopy(list(messages)), copy.deepcopy(list(tool_specs or [])), system_prompt)
        )
        for event in message_events(self._next(messages)):
            yield event

    async def structured_output(
        self, output_model: type[T], prompt: Messages, system_prompt: str | None = None, **kwargs: Any
    ) -> AsyncGenerator[dict[str, T | Any], None]:
        message = self._next(prompt)
        text = "".join(b.get("text", "") for b in message["content"])
        yield {"output": output_model.model_validate_json(text)}
