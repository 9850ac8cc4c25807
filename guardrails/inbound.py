"""The single inbound check of a user turn: refuse secrets, mask PII, flag injection.

Why one entry point: every front end (Slack, Teams, CLI) must apply the same checks in the same order
before any model, log, cache key, history entry or ticket sees the text. Order matters:

1. Secrets first. A credential refuses the whole turn; ``masked`` is then empty, so the secret cannot
   leak through the masked text, and the session learns nothing from that message.
2. PII masking with the conversation's :class:`MaskingSession` (stable ``<TYPE_n>`` placeholders).
3. Injection flagging on the original text (rule ids only; the caller decides what to do).

The result carries offsets and kinds, never raw values, so ``Inspection.to_json()`` is safe to print.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass

from guardrails.injection import InjectionVerdict, scan_injection
from guardrails.pii import Entity, MaskingSession, apply_mask, detect
from guardrails.secrets import scan_secrets

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Inspection:
    """Outcome of :func:`inspect` for one turn.

    Attributes:
        masked: Text safe to pass on (placeholders instead of PII); empty when ``refused``.
        refused: True when the text contains a secret; the turn must not proceed.
        refusal_kinds: Secret kinds that matched (e.g. ``("aws_access_key",)``), never the values.
        entities: PII spans with offsets into the ORIGINAL text.
        injection: Injection verdict (flag + rule ids).
    """

    masked: str
    refused: bool
    refusal_kinds: tuple[str, ...]
    entities: tuple[Entity, ...]
    injection: InjectionVerdict

    def to_dict(self) -> dict[str, object]:
        """Return the ``dasar mask TEXT --json`` shape as plain Python data."""
        return {
            "masked": self.masked,
            "refused": self.refused,
            "entities": [entity.to_dict() for entity in self.entities],
            "refusal_kinds": list(self.refusal_kinds),
            "injection": self.injection.to_dict(),
        }

    def to_json(self) -> str:
        """Return the JSON contract of ``dasar mask TEXT --json`` (keys in a fixed order)."""
        return json.dumps(self.to_dict(), ensure_ascii=False)


def inspect(text: str, session: MaskingSession) -> Inspection:
    """Run every inbound guardrail on one user turn.

    Args:
        text: The raw user message.
        session: The conversation's masking session (placeholders stay stable across turns).

    Returns:
        The inspection; callers pass on ``masked`` only, and stop when ``refused``.

    Raises:
        guardrails.errors.PiiEngineError: the PII engine could not be built (fail closed).
    """
    secrets = scan_secrets(text)
    entities = detect(text)
    injection = scan_injection(text)
    masked = "" if secrets.found else apply_mask(text, entities, session)
    logger.info(
        "chars=%s, entities=%s, refused=%s, refusal_kinds=%s, injection_rules=%s | inbound inspected",
        len(text),
        len(entities),
        secrets.found,
        ",".join(secrets.kinds),
        ",".join(injection.rule_ids),
    )
    return Inspection(
        masked=masked,
        refused=secrets.found,
        refusal_kinds=secrets.kinds,
        entities=entities,
        injection=injection,
    )
