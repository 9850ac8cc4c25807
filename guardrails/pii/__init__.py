"""PII detection and masking (presidio, fully offline) with conversation-stable placeholders.

Public API:
    detect(text) -> tuple[Entity, ...]       spans in the original text
    mask(text, session) -> (masked, entities)
    MaskingSession                            raw value <-> <TYPE_n>, in memory only
    get_analyzer()                            the cached presidio engine (warm it at start-up)
"""

from __future__ import annotations

from guardrails.pii.engine import detect, get_analyzer, supported_entities
from guardrails.pii.entities import Entity
from guardrails.pii.session import MaskingSession, apply_mask


def mask(text: str, session: MaskingSession) -> tuple[str, tuple[Entity, ...]]:
    """Detect PII in ``text`` and replace it with the session's placeholders.

    Returns:
        ``(masked_text, entities)``; entity offsets refer to the original ``text``.
    """
    entities = detect(text)
    return apply_mask(text, entities, session), entities


__all__ = ["Entity", "MaskingSession", "apply_mask", "detect", "get_analyzer", "mask", "supported_entities"]
