"""Scope and advice checks: what dasar answers, what it explains and escalates, what it never decides.

dasar states what the rules say.  It does not give tax advice or planning, and some determinations
(beneficial ownership, the final treaty position) belong to the tax team whatever the sources say.
The patterns are tax knowledge and live in the reviewed ``kb/data/scope.yaml``; this module only
compiles and applies them.  Out of scope means *no* tax/finance signal at all (no tax type, no
regulation, no topic word): anything else is retrieved and, if nothing verifiable is found, abstained.

Errors: :class:`bot.answer.errors.AnswerConfigError` (file and entry named).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from bot.answer.clarify import compile_patterns
from bot.answer.errors import AnswerConfigError
from kb.lexicon import formal_spelling

DEFAULT_PATH = Path(__file__).resolve().parents[2] / "kb" / "data" / "scope.yaml"


@dataclass(frozen=True)
class ScopeRules:
    in_scope: tuple[re.Pattern[str], ...]
    advice: tuple[re.Pattern[str], ...]
    protected: tuple[re.Pattern[str], ...]


@dataclass(frozen=True)
class ScopeVerdict:
    """``kind``: protected, out_of_scope, advice or in_scope; ``rule``: the matching pattern."""

    kind: str
    rule: str | None = None


def _patterns(path: str, data: Mapping[str, Any], key: str) -> tuple[re.Pattern[str], ...]:
    raw = data.get(key)
    if not raw:
        raise AnswerConfigError(path, f"{key!r} must be a non-empty list of regular expressions")
    return compile_patterns(path, key, raw, key)


def parse_rules(data: Any, path: str = "scope.yaml") -> ScopeRules:
    if not isinstance(data, Mapping):
        raise AnswerConfigError(path, "top level must be a mapping with in_scope, advice and protected lists")
    for key in ("reviewed_by", "reviewed_on"):
        if not data.get(key):
            raise AnswerConfigError(path, f"missing {key!r}: scope rules must be reviewed")
    return ScopeRules(
        _patterns(path, data, "in_scope"), _patterns(path, data, "advice"), _patterns(path, data, "protected")
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
    """Protected beats advice beats in scope; no signal at all is out of scope.

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
    in_scope = has_tax_signal or any(p.search(t) for p in r.in_scope for t in texts)
    if not in_scope:
        return ScopeVerdict("out_of_scope")
    for p in r.advice:
        if any(p.search(t) for t in texts):
            return ScopeVerdict("advice", p.pattern)
    return ScopeVerdict("in_scope")
