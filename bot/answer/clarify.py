"""Clarify before answering when the rule depends on facts the question leaves out.

"tarif jasa berapa?" has no single answer: the rate depends on which service, who is paid, and
when.  Guessing would produce a confident wrong answer, so the pipeline asks instead.  Which facts
matter per topic is tax knowledge, so it lives in the reviewed ``kb/data/clarify.yaml`` (format in
that file's header), not in code.  A question that names a Pasal or a regulation number is specific
by definition and is never clarified; a topic only blocks on slots marked ``blocking``.

Errors: :class:`bot.answer.errors.AnswerConfigError` names the file and the entry to fix.
"""

from __future__ import annotations

import datetime as dt
import functools
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from bot.answer.errors import AnswerConfigError
from bot.answer.model import ClarifyingQuestion
from kb.lexicon import LexiconError, formal_spelling, no_subject_words, question_kind

DEFAULT_PATH = Path(__file__).resolve().parents[2] / "kb" / "data" / "clarify.yaml"
_TOPIC_KEYS = {
    "id",
    "description",
    "triggers",
    "unless",
    "unless_kinds",
    "slots",
    "reviewed_by",
    "reviewed_on",
    "requires_no_subject",
    "personal",
}
#: Words that carry no subject ("Dipotong berapa persen ya?" has none left after removing them):
#: kb/data/lexicon.yaml ``no_subject_words``.
_NO_SUBJECT = no_subject_words()
_SLOT_KEYS = {"id", "blocking", "question", "options", "filled_by", "tax_types", "applies_from"}
#: a year written in the question ("faktur Mei 2024") dates it when the caller gives no date
_YEAR = re.compile(r"\b(19[89]\d|20\d\d)\b")


@dataclass(frozen=True)
class SlotOption:
    label: str
    patterns: tuple[re.Pattern[str], ...]


@dataclass(frozen=True)
class Slot:
    id: str
    blocking: bool
    question: Mapping[str, str]  # language -> text
    options: tuple[SlotOption, ...]
    filled_by: str | None = None  # "date" | "tax_type" | None (options only)
    tax_types: tuple[str, ...] = ()
    #: the fact matters only for transactions on or after this date (PPN on luxury goods from 2025); a
    #: question dated before it is not asked about it
    applies_from: dt.date | None = None


@dataclass(frozen=True)
class Topic:
    id: str
    description: str
    triggers: tuple[tuple[re.Pattern[str], ...], ...]
    unless: tuple[re.Pattern[str], ...]
    slots: tuple[Slot, ...]
    requires_no_subject: bool = False
    #: a computation for the asker's own case: asked even when the question names a Pasal or tax type
    personal: bool = False


@dataclass(frozen=True)
class ClarifyResult:
    """Which topic matched, what the question fills, and what is still unknown."""

    topic: str
    filled: Mapping[str, str]  # slot id -> option label (or "given")
    missing: tuple[Slot, ...]

    @property
    def blocking(self) -> bool:
        return any(s.blocking for s in self.missing)

    def questions(self, language: str) -> tuple[ClarifyingQuestion, ...]:
        ordered = sorted(self.missing, key=lambda s: (not s.blocking,))
        return tuple(
            ClarifyingQuestion(
                s.id, s.question.get(language) or s.question["id"], tuple(o.label for o in s.options)
            )
            for s in ordered
        )


def compile_patterns(path: str, entry: str, patterns: Any, what: str) -> tuple[re.Pattern[str], ...]:
    if not isinstance(patterns, list) or not all(isinstance(p, str) and p for p in patterns):
        raise AnswerConfigError(path, f"{what} must be a list of non-empty regular expressions", entry=entry)
    out = []
    for p in patterns:
        try:
            out.append(re.compile(p, re.I))
        except re.error as exc:
            raise AnswerConfigError(
                path, f"{what}: bad regular expression {p!r} ({exc})", entry=entry
            ) from exc
    return tuple(out)


def _slot(path: str, topic: str, raw: Any) -> Slot:
    if not isinstance(raw, Mapping) or not isinstance(raw.get("id"), str):
        raise AnswerConfigError(path, "each slot must be a mapping with an 'id'", entry=topic)
    sid = raw["id"]
    label = f"{topic}.{sid}"
    unknown = sorted(set(raw) - _SLOT_KEYS)
    if unknown:
        raise AnswerConfigError(
            path, f"unknown slot key(s) {unknown}; allowed: {sorted(_SLOT_KEYS)}", entry=label
        )
    q = raw.get("question")
    if not isinstance(q, Mapping) or not isinstance(q.get("id"), str) or not isinstance(q.get("en"), str):
        raise AnswerConfigError(path, "question must give both 'id' and 'en' texts", entry=label)
    options = []
    for i, o in enumerate(raw.get("options") or []):
        if not isinstance(o, Mapping) or not isinstance(o.get("label"), str):
            raise AnswerConfigError(path, f"option #{i + 1} needs a 'label' and 'patterns'", entry=label)
        options.append(SlotOption(o["label"], compile_patterns(path, label, o.get("patterns"), "patterns")))
    filled_by = raw.get("filled_by")
    if filled_by not in (None, "date", "tax_type"):
        raise AnswerConfigError(path, f"filled_by {filled_by!r} must be 'date' or 'tax_type'", entry=label)
    if filled_by is None and not options:
        raise AnswerConfigError(path, "a slot without filled_by needs options with patterns", entry=label)
    tax_types = raw.get("tax_types") or []
    if not isinstance(tax_types, list):
        raise AnswerConfigError(path, "tax_types must be a list", entry=label)
    applies_from = raw.get("applies_from")
    if applies_from is not None and not isinstance(applies_from, dt.date):
        raise AnswerConfigError(
            path, f"applies_from {applies_from!r} must be a date (YYYY-MM-DD)", entry=label
        )
    return Slot(
        sid,
        bool(raw.get("blocking", False)),
        dict(q),
        tuple(options),
        filled_by,
        tuple(tax_types),
        applies_from,
    )


def _lexicon_kinds(path: str, entry: str, names: Any) -> tuple[re.Pattern[str], ...]:
    """``unless_kinds``: question kinds of the reviewed lexicon (kb/data/lexicon.yaml ``question_kinds``), so
    a word list several topics share is written once."""
    if not isinstance(names, list) or not all(isinstance(n, str) and n for n in names):
        raise AnswerConfigError(path, "unless_kinds must be a list of lexicon question kinds", entry=entry)
    try:
        return tuple(question_kind(n) for n in names)
    except LexiconError as exc:
        raise AnswerConfigError(path, f"unless_kinds: {exc}", entry=entry) from exc


def parse_topics(data: Any, path: str = "clarify.yaml") -> tuple[Topic, ...]:
    """Validate the YAML structure and compile every pattern (errors name file and entry)."""
    if not isinstance(data, Mapping) or not isinstance(data.get("topics"), list):
        raise AnswerConfigError(path, "top level must be a mapping with a 'topics' list")
    topics: list[Topic] = []
    seen: set[str] = set()
    for i, raw in enumerate(data["topics"]):
        if not isinstance(raw, Mapping) or not isinstance(raw.get("id"), str):
            raise AnswerConfigError(path, f"topic #{i + 1} must be a mapping with an 'id'")
        tid = raw["id"]
        if tid in seen:
            raise AnswerConfigError(path, "duplicate topic id", entry=tid)
        seen.add(tid)
        unknown = sorted(set(raw) - _TOPIC_KEYS)
        if unknown:
            raise AnswerConfigError(
                path, f"unknown key(s) {unknown}; allowed: {sorted(_TOPIC_KEYS)}", entry=tid
            )
        for key in ("reviewed_by", "reviewed_on"):
            if not raw.get(key):
                raise AnswerConfigError(path, f"missing {key!r}: topics must be reviewed", entry=tid)
        triggers = raw.get("triggers")
        if not isinstance(triggers, list) or not triggers:
            raise AnswerConfigError(path, "triggers must be a non-empty list of pattern groups", entry=tid)
        groups = tuple(compile_patterns(path, tid, g, "trigger group") for g in triggers)
        slots = tuple(_slot(path, tid, s) for s in raw.get("slots") or [])
        if not any(s.blocking for s in slots):
            raise AnswerConfigError(path, "a topic needs at least one blocking slot", entry=tid)
        unless = compile_patterns(path, tid, raw.get("unless") or [], "unless") if raw.get("unless") else ()
        topics.append(
            Topic(
                tid,
                str(raw.get("description", "")),
                groups,
                (*unless, *_lexicon_kinds(path, tid, raw.get("unless_kinds") or [])),
                slots,
                bool(raw.get("requires_no_subject", False)),
                bool(raw.get("personal", False)),
            )
        )
    return tuple(topics)


@functools.lru_cache(maxsize=8)
def load_topics(path: Path = DEFAULT_PATH) -> tuple[Topic, ...]:
    try:
        data = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise AnswerConfigError(str(path), "file not found") from exc
    except yaml.YAMLError as exc:
        raise AnswerConfigError(str(path), f"not valid YAML ({exc})") from exc
    return parse_topics(data, str(path))


def _fill(slot: Slot, question: str, *, has_date: bool, tax_types: Sequence[str]) -> str | None:
    if slot.filled_by == "date" and has_date:
        return "given"
    if slot.filled_by == "tax_type" and set(slot.tax_types) & set(tax_types):
        return sorted(set(slot.tax_types) & set(tax_types))[0]
    for option in slot.options:
        if any(p.search(question) for p in option.patterns):
            return option.label
    return None


def _has_subject(question: str) -> bool:
    from kb.query import STOPWORDS, tokenize

    # "batas waktunya kapan?": a word with the enclitic -nya is the same word (chat spellings are already
    # written out by :func:`check`)
    words = (t.removesuffix("nya") if len(t) > 5 else t for t in tokenize(question))
    return any(t not in STOPWORDS and t not in _NO_SUBJECT and not t.isdigit() for t in words)


def check(
    question: str,
    *,
    has_date: bool,
    tax_types: Sequence[str] = (),
    specific: bool = False,
    topics: Sequence[Topic] | None = None,
    as_of: dt.date | None = None,
) -> ClarifyResult | None:
    """The first topic the question triggers, with filled and missing slots; None when none applies.

    Args:
        question: the (masked) question text.
        has_date: whether a transaction date was written or given explicitly.
        tax_types: tax types understood from the question.
        specific: the question names a Pasal or a regulation: then only ``personal`` topics (a
            computation for the asker's own case, which needs their figures) may ask.
        topics: the topics to use (default: the reviewed ``kb/data/clarify.yaml``).
        as_of: the transaction date when the caller knows it; else the latest year the question writes
            (a slot with ``applies_from`` is not asked of a question dated before it).
    """
    # the topics are written in formal Indonesian: "pph brp utk sewa?" reads as "pph berapa untuk sewa?"
    question = formal_spelling(question)
    years = [int(y) for y in _YEAR.findall(question)]
    dated = as_of or (dt.date(max(years), 12, 31) if years else None)
    for topic in topics if topics is not None else load_topics():
        if specific and not topic.personal:
            continue
        if not all(any(p.search(question) for p in group) for group in topic.triggers):
            continue
        if any(p.search(question) for p in topic.unless):
            continue
        if topic.requires_no_subject and _has_subject(question):
            continue
        filled: dict[str, str] = {}
        missing: list[Slot] = []
        for slot in topic.slots:
            if slot.applies_from is not None and dated is not None and dated < slot.applies_from:
                continue
            value = _fill(slot, question, has_date=has_date, tax_types=tax_types)
            if value is None:
                missing.append(slot)
            else:
                filled[slot.id] = value
        return ClarifyResult(topic.id, filled, tuple(missing))
    return None
