"""Turn a complete assistant message into the strands stream events a provider must yield.

Our offline providers (scripted, extractive) and the small OpenAI-compatible client produce whole
messages; strands' event loop consumes ``messageStart / contentBlock* / messageStop`` events.  Same shape
as strands' own test fixture (``tests/fixtures/mocked_model_provider.py``).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

#: Context window our offline models report (strands warns when a model reports none).
OFFLINE_CONTEXT_WINDOW = 200_000


def message_events(
    message: Mapping[str, Any], usage: Mapping[str, int] | None = None
) -> Iterator[dict[str, Any]]:
    """Stream events for ``message`` (content blocks: text, toolUse); stop reason follows the content."""
    stop_reason = "end_turn"
    yield {"messageStart": {"role": "assistant"}}
    for block in message.get("content", []):
        if "text" in block:
            yield {"contentBlockStart": {"start": {}}}
            yield {"contentBlockDelta": {"delta": {"text": block["text"]}}}
            yield {"contentBlockStop": {}}
        elif "toolUse" in block:
            stop_reason = "tool_use"
            use = block["toolUse"]
            yield {
                "contentBlockStart": {
                    "start": {"toolUse": {"name": use["name"], "toolUseId": use["toolUseId"]}}
                }
            }
            yield {"contentBlockDelta": {"delta": {"toolUse": {"input": json.dumps(use.get("input", {}))}}}}
            yield {"contentBlockStop": {}}
    yield {"messageStop": {"stopReason": stop_reason}}
    if usage is not None:
        yield {
            "metadata": {
                "usage": {
                    "inputTokens": usage.get("inputTokens", 0),
                    "outputTokens": usage.get("outputTokens", 0),
                    "totalTokens": usage.get("totalTokens", 0),
                },
                "metrics": {"latencyMs": 0},
            }
        }


def tool_results(messages: list[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """Every toolResult block in ``messages``, in order."""
    return [b["toolResult"] for m in messages for b in m.get("content", []) if "toolResult" in b]


def result_text(result: Mapping[str, Any]) -> str:
    """Concatenated text items of one tool result."""
    return "\n".join(item["text"] for item in result.get("content", []) if "text" in item)


def last_user_text(messages: list[Mapping[str, Any]]) -> str:
    """Text of the last user message that carries text (the question), '' if none."""
    for m in reversed(messages):
        if m.get("role") != "user":
            continue
        texts = [b["text"] for b in m.get("content", []) if "text" in b]
        if texts:
            return "\n".join(texts)
    return ""
