"""Scope and advice checks: what dasar answers, what it explains and escalates, what it never decides.

dasar states what the rules say.  It does not give tax advice or planning, and some determinations
(beneficial ownership, the final treaty position) belong to the tax team whatever the sources say.
The patterns are tax knowledge and live in the reviewed ``kb/data/scope.yaml``; this module only
compiles and applies them.  Out of scope means *no* tax/finance signal at all (no tax type, no
regulation, no topic word), or a question about a levy the knowledge base does not hold although it shares tax
words (the ``out_of_scope`` topics: customs duty rates by tariff heading, regional taxes); anything else is
retrieved and, if nothing verifiable is found, abstained.

Errors: :class:`bot.answer.errors.AnswerConfigError` (file and entry named).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from bot.answer.clarify import compile_patterns
from bot.answer.errors import AnswerConfigError
from kb.lexicon import formal_spelling

DEFAULT_PATH = Path(__file__).resolve().parents[2] / "kb" / "data" / "scope.yaml"


@dataclass(frozen=True)
class OutOfScopeTopic:
    """A levy the knowledge base does not hold: ``pattern`` names it, ``unless`` what the KB does hold."""

    id: str
    pattern: re.Pattern[str]
    unless: tuple[re.Pattern[str], ...]
    #: what the knowledge base lacks, for a reply that says why it cannot answer
    note: str = ""
    #: what the user reads instead of the generic decline, per language (``id``, ``en``); empty: the generic
    reply: Mapping[str, str] = field(default_factory=dict)
    #: the verdict decides every part of a multi-part message (a request for a person's data is not answered
    #: part by part: the other parts ask about the same person)
    whole_message: bool = False
    #: the escalation reason of the decline: ``out_of_scope`` (the turn files it for the tax team to see what
    #: the knowledge base lacks) or ``personal_data`` (never sent on: nothing for the tax team to answer)
    reason: str = "out_of_scope"

    def reply_in(self, language: str) -> str | None:
        """The reply in ``language`` (else Indonesian), or None when the topic has none."""
        return (self.reply.get(language) or self.reply["id"]) if self.reply else None


@dataclass(frozen=True)
class BrokenRule:
    """A rule a scheme of this shape would break: an exact sentence of a document the reply can quote.

    An advice refusal that only says "ask the tax team" teaches nothing; one that quotes the Rp50 juta review
    rule to a request to split an invoice tells the clerk why.  ``when``: groups of patterns, every group must
    match the question (as in ``clarify.yaml`` triggers).
    """

    id: str
    doc_id: str
    contains: str
    when: tuple[tuple[re.Pattern[str], ...], ...]


@dataclass(frozen=True)
class ScopeRules:
    in_scope: tuple[re.Pattern[str], ...]
    advice: tuple[re.Pattern[str], ...]
    protected: tuple[re.Pattern[str], ...]
    out_of_scope: tuple[OutOfScopeTopic, ...] = ()
    breaks: tuple[BrokenRule, ...] = ()


@dataclass(frozen=True)
class ScopeVerdict:
    """``kind``: protected, out_of_scope, advice or in_scope; ``rule``: the matching pattern (or topic id).

    ``breaks``: for advice, the rules the asked-for scheme would break (to quote them in the refusal);
    ``topic``: for a named out-of-scope topic, the topic (its reply says why dasar cannot answer).
    """

    kind: str
    rule: str | None = None
    breaks: tuple[BrokenRule, ...] = ()
    topic: OutOfScopeTopic | None = None


def _patterns(path: str, data: Mapping[str, Any], key: str) -> tuple[re.Pattern[str], ...]:
    raw = data.get(key)
    if not raw:
        raise AnswerConfigError(path, f"{key!r} must be a non-empty list of regular expressions")
    return compile_patterns(path, key, raw, key)


def _out_of_scope(path: str, raw: Any) -> tuple[OutOfScopeTopic, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list):
        raise AnswerConfigError(path, "'out_of_scope' must be a list of {id, pattern, unless} entries")
    topics = []
    for i, entry in enumerate(raw):
        if not isinstance(entry, Mapping) or not isinstance(entry.get("id"), str):
            raise AnswerConfigError(path, f"out_of_scope #{i + 1} must be a mapping with an 'id'")
        tid = entry["id"]
        unknown = sorted(set(entry) - {"id", "pattern", "unless", "note", "reply", "whole_message", "reason"})
        if unknown:
            raise AnswerConfigError(path, f"unknown key(s) {unknown}", entry=tid)
        (pattern,) = compile_patterns(path, tid, [entry.get("pattern")], "pattern")
        unless = compile_patterns(path, tid, entry["unless"], "unless") if entry.get("unless") else ()
        reply = entry.get("reply") or {}
        if (
            not isinstance(reply, Mapping)
            or not all(isinstance(v, str) and v.strip() for v in reply.values())
            or (reply and "id" not in reply)
        ):
            raise AnswerConfigError(
                path, "'reply' must map languages (at least 'id') to non-empty text", entry=tid
            )
        whole = entry.get("whole_message", False)
        if not isinstance(whole, bool):
            raise AnswerConfigError(path, "'whole_message' must be true or false", entry=tid)
        reason = entry.get("reason", "out_of_scope")
        if reason not in ("out_of_scope", "personal_data"):
            raise AnswerConfigError(path, "'reason' must be out_of_scope or personal_data", entry=tid)
        note = str(entry.get("note") or "")
        topics.append(OutOfScopeTopic(tid, pattern, unless, note, dict(reply), whole, reason))
    return tuple(topics)


def _breaks(path: str, raw: Any) -> tuple[BrokenRule, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list):
        raise AnswerConfigError(path, "'breaks' must be a list of {id, when, doc_id, contains} entries")
    rules = []
    for i, entry in enumerate(raw):
        if not isinstance(entry, Mapping) or not isinstance(entry.get("id"), str):
            raise AnswerConfigError(path, f"breaks #{i + 1} must be a mapping with an 'id'")
        rid = entry["id"]
        unknown = sorted(set(entry) - {"id", "when", "doc_id", "contains", "note"})
        if unknown:
            raise AnswerConfigError(path, f"unknown key(s) {unknown}", entry=rid)
        for key in ("doc_id", "contains"):
            if not isinstance(entry.get(key), str) or not entry[key].strip():
                raise AnswerConfigError(path, f"{key!r} must be a non-empty string", entry=rid)
        when = entry.get("when")
        if not isinstance(when, list) or not when:
            raise AnswerConfigError(path, "'when' must be a non-empty list of pattern groups", entry=rid)
        groups = tuple(compile_patterns(path, rid, g, "when group") for g in when)
        rules.append(BrokenRule(rid, entry["doc_id"], entry["contains"], groups))
    return tuple(rules)


def parse_rules(data: Any, path: str = "scope.yaml") -> ScopeRules:
    if not isinstance(data, Mapping):
        raise AnswerConfigError(path, "top level must be a mapping with in_scope, advice and protected lists")
    for key in ("reviewed_by", "reviewed_on"):
        if not data.get(key):
            raise AnswerConfigError(path, f"missing {key!r}: scope rules must be reviewed")
    return ScopeRules(
        _patterns(path, data, "in_scope"),
        _patterns(path, data, "advice"),
        _patterns(path, data, "protected"),
        _out_of_scope(path, data.get("out_of_scope")),
        _breaks(path, data.get("breaks")),
    )


@functools.lru_cache(maxsize=8)
def load_rules(path: Path = DEFAULT_PATH) -> ScopeRules:
    try:
        data = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise AnswerConfigError(str(path), "file not found") from exc
    except yaml.YAMLError as exc:
        raise AnswerConfigError(str(path), f"not valid YAML ({exc})") from exc
    return parse_rules(data, str(path))


def classify(question: str, *, has_tax_signal: bool, rules: ScopeRules | None = None) -> ScopeVerdict:
    """Protected beats out of scope beats advice beats in scope.

    Out of scope: no signal at all, or a levy the knowledge base does not hold ("tarif bea masuk HS 8471"
    shares "tarif" with every rate question, but no passage states a customs tariff: retrieval would answer
    from whatever shares words).  The verdict's ``rule`` is the out-of-scope topic's id.

    Args:
        question: the (masked) question.
        has_tax_signal: query understanding found a tax type, regulation or Pasal.
        rules: compiled rules (default: the reviewed ``kb/data/scope.yaml``).
    """
    r = rules or load_rules()
    # the rules are written in formal Indonesian: a Slack spelling ("gmn", "brp") is also read formally
    texts = dict.fromkeys((question, formal_spelling(question)))
    for p in r.protected:
        if any(p.search(t) for t in texts):
            return ScopeVerdict("protected", p.pattern)
    # a named topic first, with or without a tax word, so its reply says why ("the payslip of our manager")
    for topic in r.out_of_scope:
        if any(topic.pattern.search(t) for t in texts) and not any(
            u.search(t) for u in topic.unless for t in texts
        ):
            return ScopeVerdict("out_of_scope", topic.id, topic=topic)
    in_scope = has_tax_signal or any(p.search(t) for p in r.in_scope for t in texts)
    if not in_scope:
        return ScopeVerdict("out_of_scope")
    for p in r.advice:
        if any(p.search(t) for t in texts):
            broken = tuple(
                b for b in r.breaks if all(any(g.search(t) for g in group for t in texts) for group in b.when)
            )
            return ScopeVerdict("advice", p.pattern, broken)
    return ScopeVerdict("in_scope")
