"""Helpers to write scripted-model steps that read what the tools returned (attack scripts)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from bot.llm import claims_message
from bot.llm.events import result_text
from tools import FencedPassage, parse_passages


def passages_seen(messages: list[dict[str, Any]]) -> list[FencedPassage]:
    """Every fenced passage in the conversation so far (tool results and seeded prompt blocks)."""
    texts: list[str] = []
    for m in messages:
        for b in m.get("content", []):
            if "toolResult" in b:
                texts.append(result_text(b["toolResult"]))
            elif "text" in b:
                texts.append(b["text"])
    return [p for t in texts for p in parse_passages(t)]


def sentence_with(text: str, needle: str) -> str:
    """The sentence-like span of ``text`` around ``needle`` (verbatim substring of ``text``)."""
    i = text.find(needle)
    assert i >= 0, f"{needle!r} not in passage"
    starts = [m.end() for m in re.finditer(r"[.;:\n]\s*", text[:i])]
    start = starts[-1] if starts else 0
    m = re.search(r"[.;\n]", text[i + len(needle) :])
    end = i + len(needle) + (m.start() + 1 if m else len(text) - i - len(needle))
    return text[start:end].strip()


def obey(
    build: Callable[[list[FencedPassage]], list[dict[str, Any]]],
) -> Callable[[list[dict[str, Any]]], dict[str, Any]]:
    """A step that answers with claims computed from the passages it was shown."""

    def step(messages: list[dict[str, Any]]) -> dict[str, Any]:
        return claims_message(build(passages_seen(messages)), 0.95)

    return step


def first_with(passages: list[FencedPassage], needle: str) -> FencedPassage:
    for p in passages:
        if needle in p.text:
            return p
    raise AssertionError(f"no passage contains {needle!r}: {[p.id for p in passages]}")


def answer_with(model: Any, question: str, principal: Any, deps: Any, *, as_of: Any = None) -> Any:
    """The pipeline's answer with ``model`` in the agent loop: the one verification decides what is shown."""
    import datetime as dt
    from types import SimpleNamespace

    from bot.agent import AgentComposer
    from bot.answer.pipeline import answer_question
    from kb.query import AliasDictionary

    services = SimpleNamespace(store=deps.store, retriever=deps.retriever, aliases=AliasDictionary.load())
    when = as_of or deps.default_as_of or dt.date(2026, 3, 1)
    return answer_question(
        question, principal, services, composer=AgentComposer(model, principal, deps), as_of=when
    )
