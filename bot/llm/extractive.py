"""``ExtractiveModel``: the default, offline, deterministic "model" of the agent loop.

It behaves like a well-behaved LLM restricted to the same tools: on a new question it calls
``search_kb`` with the question; once passages came back it answers with the structured claims JSON
(``{"claims": [...], "self_assessment": x}``) built only from verbatim sentences of those passages.
Nothing it says can come from outside the fenced passages, and instructions inside passages are never
executed (it does not interpret text at all) -- immune to prompt injection by construction.

Composition uses the grounded-answer pipeline's ``bot.answer.extractive.ExtractiveComposer`` over the
retrieved :class:`~kb.model.Hit` records when that module and the turn's ledger are available (the agent
passes the ledger through ``invocation_state``), else a minimal verbatim-sentence composer of its own.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import re
from collections.abc import AsyncGenerator, Mapping
from typing import Any, TypeVar

from pydantic import BaseModel
from strands.models import Model
from strands.types.content import Message, Messages
from strands.types.tools import ToolSpec

from bot.llm.events import OFFLINE_CONTEXT_WINDOW, message_events, result_text
from guardrails.injection import scan_injection
from tools.fence import FencedPassage, parse_passages

T = TypeVar("T", bound=BaseModel)

#: invocation_state keys the agent fills for the extractive model.
STATE_LEDGER = "dasar_ledger"
STATE_AS_OF = "dasar_as_of"
#: The pipeline's ComposeRequest (plan, ranked hits, graph context) when the loop composes for it.
STATE_REQUEST = "dasar_request"

MAX_CLAIMS = 3
MIN_SENTENCE_CHARS = 20
_WORD = re.compile(r"[0-9A-Za-z][0-9A-Za-z%/.-]*")
_SENTENCE_SPLIT = re.compile(r"(?<=[.;:])\s+(?=[A-Z0-9(\"'])|\n+")
_STOP = frozenset(
    [
        "yang",
        "dan",
        "atau",
        "di",
        "ke",
        "dari",
        "untuk",
        "dengan",
        "pada",
        "dalam",
        "adalah",
        "ini",
        "itu",
        "apa",
        "apakah",
        "berapa",
        "bagaimana",
        "kapan",
        "siapa",
        "tidak",
        "atas",
        "oleh",
        "sebagai",
        "juga",
        "the",
        "and",
        "for",
        "with",
        "what",
        "when",
        "which",
        "how",
        "is",
        "are",
        "does",
        "do",
        "of",
        "to",
        "in",
        "on",
        "a",
        "an",
    ]
)


def _terms(text: str) -> set[str]:
    return {w.lower().strip(".-/") for w in _WORD.findall(text) if len(w) >= 3} - _STOP


def _question_index(messages: Messages) -> int:
    """Index of the last user message carrying text: the current question (toolResult turns have none)."""
    for i in range(len(messages) - 1, -1, -1):
        m = messages[i]
        if m.get("role") == "user" and any("text" in b for b in m.get("content", [])):
            return i
    return -1


def _sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE_SPLIT.split(text) if len(s.strip()) >= MIN_SENTENCE_CHARS]


def minimal_claims(question: str, passages: list[FencedPassage]) -> list[dict[str, Any]]:
    """Per passage (in rank order) the sentence sharing most terms with the question, quoted verbatim.

    The claim text *is* the quote, so the number and support gates hold trivially; ties break by position.
    """
    q = _terms(question)
    claims: list[dict[str, Any]] = []
    seen: set[str] = set()
    for p in passages:
        if p.id in seen:
            continue
        seen.add(p.id)
        best: tuple[int, int, str] | None = None
        for pos, sentence in enumerate(_sentences(p.text)):
            if sentence not in p.text or scan_injection(sentence).flagged:  # never quote instructions
                continue
            score = len(q & _terms(sentence))
            if score and (best is None or score > best[0]):
                best = (score, pos, sentence)
        if best is None:
            continue
        claims.append(
            {
                "text": best[2],
                "quote": best[2],
                "source_id": p.id,
                "layer": p.attrs.get("layer", "unknown"),
                "assumption": None,
            }
        )
        if len(claims) >= MAX_CLAIMS:
            break
    return claims


class ExtractiveModel(Model):
    """Deterministic search-then-quote model (see module docstring)."""

    def __init__(self, *, use_pipeline_composer: bool = True) -> None:
        self.use_pipeline_composer = use_pipeline_composer
        self.config: dict[str, Any] = {
            "model_id": "extractive",
            "context_window_limit": OFFLINE_CONTEXT_WINDOW,
        }

    def get_config(self) -> dict[str, Any]:
        return self.config

    def update_config(self, **model_config: Any) -> None:
        self.config.update(model_config)

    def respond(
        self, messages: Messages, tool_names: set[str], state: Mapping[str, Any] | None = None
    ) -> Message:
        """The next assistant message for ``messages`` (pure function of its inputs)."""
        qi = _question_index(messages)
        # The question is the first text block; further blocks may carry seeded (fenced) passages.
        blocks = [b["text"] for b in messages[qi]["content"] if "text" in b] if qi >= 0 else []
        question = blocks[0] if blocks else ""
        tail = messages[qi + 1 :] if qi >= 0 else list(messages)
        searched = any(
            "toolUse" in b and b["toolUse"]["name"] == "search_kb" for m in tail for b in m.get("content", [])
        )
        request = (state or {}).get(STATE_REQUEST)
        if request is not None and self.use_pipeline_composer and len(blocks) > 1 and not searched:
            # the pipeline already retrieved and fenced the passages into the prompt: a well-behaved model
            # answers from them instead of searching again, and composes exactly what the pipeline would
            return _message(_request_claims(request, blocks[1:]))
        if not searched and "search_kb" in tool_names and question.strip():
            return {
                "role": "assistant",
                "content": [
                    {
                        "toolUse": {
                            "toolUseId": f"extractive-search-{len(messages)}",
                            "name": "search_kb",
                            "input": {"query": question.strip()[:1000]},
                        }
                    }
                ],
            }
        texts = blocks[1:] + [
            result_text(b["toolResult"])
            for m in tail
            for b in m.get("content", [])
            if "toolResult" in b and b["toolResult"].get("status") == "success"
        ]
        passages = [p for t in texts for p in parse_passages(t)]
        claims = self._compose(question, passages, state or {})
        score = round(min(0.9, 0.3 + 0.2 * len(claims)), 2) if claims else 0.0
        return _message({"claims": claims, "self_assessment": score})

    def _compose(
        self, question: str, passages: list[FencedPassage], state: Mapping[str, Any]
    ) -> list[dict[str, Any]]:
        ledger = state.get(STATE_LEDGER)
        if self.use_pipeline_composer and ledger is not None and passages:
            composed = _pipeline_claims(question, passages, ledger, state.get(STATE_AS_OF))
            if composed is not None:
                return composed
        return minimal_claims(question, passages)

    async def stream(
        self,
        messages: Messages,
        tool_specs: list[ToolSpec] | None = None,
        system_prompt: str | None = None,
        *,
        tool_choice: Any = None,
        invocation_state: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> AsyncGenerator[Any, None]:
        names = {s["name"] for s in tool_specs or []}
        for event in message_events(self.respond(messages, names, invocation_state)):
            yield event

    async def structured_output(
        self, output_model: type[T], prompt: Messages, system_prompt: str | None = None, **kwargs: Any
    ) -> AsyncGenerator[dict[str, T | Any], None]:
        message = self.respond(prompt, set())
        yield {"output": output_model.model_validate_json(message["content"][0]["text"])}


def _message(body: Mapping[str, Any]) -> Message:
    return {"role": "assistant", "content": [{"text": json.dumps(body, ensure_ascii=False)}]}


def _claim_json(c: Any) -> dict[str, Any]:
    return {
        "text": c.text,
        "quote": c.quote,
        "source_id": c.source_chunk_id,
        "layer": c.layer,
        "assumption": c.assumption,
        "role": c.role,
        "is_example": c.is_example,
    }


def _request_claims(request: Any, fenced: list[str]) -> dict[str, Any]:
    """The extractive composer over the pipeline's request, restricted to the passages fenced into the
    prompt (the model may cite nothing it was not shown); claims, self-assessment and notes as JSON."""
    from bot.answer.extractive import ExtractiveComposer

    shown = {p.id for t in fenced for p in parse_passages(t)}
    hits = tuple(h for h in request.hits if h.chunk.id in shown)
    context = tuple(h for h in request.context if h.chunk.id in shown)
    composed = ExtractiveComposer().compose(dataclasses.replace(request, hits=hits, context=context))
    return {
        "claims": [_claim_json(c) for c in composed.claims],
        "self_assessment": composed.self_assessment,
        "notes": list(composed.notes),
    }


def _pipeline_claims(
    question: str, passages: list[FencedPassage], ledger: Any, as_of: dt.date | None
) -> list[dict[str, Any]] | None:
    """Claims of ``bot.answer.extractive.ExtractiveComposer`` over the ledger hits; None if unavailable."""
    try:
        from bot.answer.extractive import ExtractiveComposer  # the pipeline helper's module (optional)
        from bot.answer.protocol import ComposeRequest
        from kb.query import understand
    except ImportError:
        return None
    hits = []
    for p in passages:
        hit = ledger.hit(p.id)
        if hit is not None and hit not in hits:
            hits.append(hit)
    if not hits:
        return None
    plan = understand(question)
    request = ComposeRequest(
        question=question, language=plan.language, as_of=as_of or dt.date.today(), plan=plan, hits=tuple(hits)
    )
    composed = ExtractiveComposer().compose(request)
    return [_claim_json(c) for c in composed.claims]
