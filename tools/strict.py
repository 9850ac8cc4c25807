"""Strict tools: a closure plus a pydantic argument model that forbids unknown keys.

WHY not plain ``@strands.tool``: strands validates tool input with a pydantic model built from the
function signature and *ignores* extra keys, so a model could send ``{"query": ..., "user_email": ...}``
and the call would run.  Here the argument model has ``extra="forbid"``; a call with any key outside the
documented schema is refused with an error tool result the model can read (and that the ledger records),
and the published JSON schema says ``additionalProperties: false``.  The tool's docstring is its prompt.

Tools never raise into the agent loop: bad input, refusals and internal failures all come back as
``status: error`` results.
"""

from __future__ import annotations

import inspect
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ValidationError
from strands.tools.tools import PythonAgentTool
from strands.types.tools import ToolResult, ToolSpec, ToolUse

from kb.model import Hit
from tools.ledger import Ledger

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class ToolOutcome:
    """What a tool implementation returns: text for the model, success flag, ledger outcome code."""

    text: str
    ok: bool = True
    outcome: str = "ok"
    hits: tuple[Hit, ...] = ()  # passages shown to the model (recorded in the ledger under this call)

    @classmethod
    def error(cls, text: str, outcome: str) -> ToolOutcome:
        return cls(text, ok=False, outcome=outcome)


def _clean(schema: dict[str, Any]) -> dict[str, Any]:
    """Pydantic JSON schema -> the plain schema a model sees (no titles, optional = not required)."""
    schema = {k: v for k, v in schema.items() if k != "title"}
    required = set(schema.get("required", ()))
    props: dict[str, Any] = {}
    for name, prop in schema.get("properties", {}).items():
        prop = {k: v for k, v in prop.items() if k != "title"}
        any_of = prop.pop("anyOf", None)
        if any_of is not None:
            non_null = [p for p in any_of if p.get("type") != "null"]
            if len(non_null) == 1 and name not in required:
                prop.update(non_null[0])
            else:
                prop["anyOf"] = any_of
        if prop.get("default", "x") is None:
            prop.pop("default")
        props[name] = prop
    schema["properties"] = props
    schema["additionalProperties"] = False
    schema["type"] = "object"
    return schema


def _describe(err: ValidationError, allowed: list[str]) -> str:
    """A refusal the model can act on, without echoing argument values back."""
    unknown = sorted(str(e["loc"][0]) for e in err.errors() if e["type"] == "extra_forbidden" and e["loc"])
    problems = sorted(
        f"{'.'.join(str(p) for p in e['loc']) or 'input'}: {e['msg']}"
        for e in err.errors()
        if e["type"] != "extra_forbidden"
    )
    parts = []
    if unknown:
        parts.append(f"argument(s) not accepted: {', '.join(unknown)}")
    parts.extend(problems)
    takes = ", ".join(allowed) or "(nothing)"
    return f"Error: call rejected ({'; '.join(parts)}). This tool takes only: {takes}."


class StrictTool(PythonAgentTool):
    """A strands tool whose input must match ``args_model`` exactly (extra keys are refused)."""

    def __init__(
        self,
        name: str,
        args_model: type[BaseModel],
        impl: Callable[[Any], ToolOutcome],
        ledger: Ledger,
    ) -> None:
        if args_model.model_config.get("extra") != "forbid":
            raise TypeError(f"{args_model.__name__} must set model_config extra='forbid'")
        description = inspect.cleandoc(impl.__doc__ or "").strip()
        if not description:
            raise TypeError(f"tool {name} needs a docstring: it is the tool's prompt")
        spec: ToolSpec = {
            "name": name,
            "description": description,
            "inputSchema": {"json": _clean(args_model.model_json_schema())},
        }
        self._args_model = args_model
        self._impl = impl
        self._ledger = ledger
        self.allowed_args: tuple[str, ...] = tuple(args_model.model_fields)
        super().__init__(name, spec, self._run)

    def _run(self, tool_use: ToolUse, **_invocation_state: Any) -> ToolResult:
        tool_use_id = tool_use.get("toolUseId", "unknown")
        raw = tool_use.get("input")
        raw = raw if isinstance(raw, dict) else {"<non-object input>": True}
        outcome = self.invoke(raw)
        return {
            "toolUseId": tool_use_id,
            "status": "success" if outcome.ok else "error",
            "content": [{"text": outcome.text}],
        }

    def invoke(self, raw: dict[str, Any]) -> ToolOutcome:
        """Validate ``raw`` strictly, run the closure, record the call; never raises."""
        try:
            args = self._args_model.model_validate(raw)
        except ValidationError as err:
            self._ledger.record_call(self.tool_name, raw, ok=False, outcome="rejected_arguments")
            logger.info(
                "tool=%s, errors=%d | tool call rejected by schema", self.tool_name, err.error_count()
            )
            return ToolOutcome.error(_describe(err, list(self.allowed_args)), "rejected_arguments")
        try:
            outcome = self._impl(args)
        except Exception as exc:
            logger.warning("tool=%s, error=%s | tool failed", self.tool_name, type(exc).__name__)
            outcome = ToolOutcome.error("Error: the tool failed; answer without it or escalate.", "failed")
        seq = self._ledger.record_call(self.tool_name, raw, ok=outcome.ok, outcome=outcome.outcome)
        if outcome.hits:
            self._ledger.record_hits(outcome.hits, seq)
        return outcome
