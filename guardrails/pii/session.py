"""Conversation-scoped placeholders: the same raw value always reads as the same ``<TYPE_n>``.

Why stable placeholders: the model must be able to reason "the NPWP you gave earlier" across turns
without ever seeing it, and a cache key built from masked text must be identical for identical inputs.

Why the mapping stays in memory only: it is the one place raw values live after masking. There is no
method to export or persist it, ``__repr__`` prints counts only, and pickling is refused, so it cannot
leak into logs, caches, tickets or session stores by accident. Unmasking (e.g. to fill a form for the
user) is done with :meth:`MaskingSession.reveal`, one placeholder at a time, by code that must hold the
session object itself.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from typing import NoReturn

from guardrails.pii.entities import Entity
from guardrails.pii.recognizers import placeholder_labels
from guardrails.pii.validators import digits_of

#: Entity types whose value is compared by digits only, so "01.312.166.0-091.000" and "013121660091000"
#: (the same NPWP typed twice) share one placeholder.
_DIGIT_KEYED: frozenset[str] = frozenset(
    {"ID_NIK", "ID_NPWP", "ID_NITKU", "PHONE_NUMBER", "BANK_ACCOUNT", "CREDIT_CARD"}
)


def _normalise(entity_type: str, raw: str) -> str:
    if entity_type in _DIGIT_KEYED:
        digits = digits_of(raw)
        if entity_type == "PHONE_NUMBER" and digits.startswith("62"):
            digits = "0" + digits[2:]
        return digits
    if entity_type == "IBAN_CODE":
        return "".join(raw.split()).upper()
    if entity_type == "EMAIL_ADDRESS":
        return raw.strip().lower()
    return raw.strip()


class MaskingSession:
    """Maps each distinct raw value of one conversation to a stable placeholder like ``<NIK_1>``.

    Thread-safe: a conversation's turns may be handled by different workers of one process.
    """

    __slots__ = ("_by_placeholder", "_by_value", "_counters", "_lock")

    def __init__(self) -> None:
        """Start an empty session (one per conversation)."""
        self._lock = threading.Lock()
        self._by_value: dict[tuple[str, str], str] = {}
        self._by_placeholder: dict[str, str] = {}
        self._counters: dict[str, int] = {}

    def placeholder_for(self, entity_type: str, raw: str) -> str:
        """Return the placeholder of ``raw`` (typed ``entity_type``), allocating the next number if new."""
        label = placeholder_labels().get(entity_type, entity_type)
        key = (label, _normalise(entity_type, raw))
        with self._lock:
            existing = self._by_value.get(key)
            if existing is not None:
                return existing
            number = self._counters.get(label, 0) + 1
            self._counters[label] = number
            placeholder = f"<{label}_{number}>"
            self._by_value[key] = placeholder
            self._by_placeholder[placeholder] = raw
            return placeholder

    def reveal(self, placeholder: str) -> str | None:
        """Return the raw value behind one placeholder, or ``None`` if this session never issued it."""
        with self._lock:
            return self._by_placeholder.get(placeholder)

    def __len__(self) -> int:
        """Return how many distinct values this session has masked."""
        with self._lock:
            return len(self._by_value)

    def __repr__(self) -> str:
        """Show counts per label only: raw values must never reach a log line."""
        with self._lock:
            counts = ", ".join(f"{label}={n}" for label, n in sorted(self._counters.items()))
        return f"MaskingSession({counts})"

    __str__ = __repr__

    def __reduce__(self) -> NoReturn:
        """Refuse pickling/copying: the mapping must not be persisted anywhere."""
        raise TypeError("MaskingSession holds raw PII and cannot be pickled or persisted")

    def __getstate__(self) -> NoReturn:
        """Refuse serialisation (see :meth:`__reduce__`)."""
        raise TypeError("MaskingSession holds raw PII and cannot be pickled or persisted")


def apply_mask(text: str, entities: Iterable[Entity], session: MaskingSession) -> str:
    """Replace each entity span of ``text`` with its session placeholder.

    Args:
        text: The original text the entity offsets refer to.
        entities: Non-overlapping spans (as returned by :func:`guardrails.pii.engine.detect`).
        session: The conversation's session; new values are registered in it.

    Returns:
        The masked text.
    """
    parts: list[str] = []
    cursor = 0
    for entity in sorted(entities):
        parts.append(text[cursor : entity.start])
        parts.append(session.placeholder_for(entity.type, text[entity.start : entity.end]))
        cursor = entity.end
    parts.append(text[cursor:])
    return "".join(parts)
