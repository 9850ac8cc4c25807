"""The record describing one detected PII span."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, order=True)
class Entity:
    """One PII span found in a text.

    Holds offsets, never the value, so it can be logged, serialised and returned to a CLI safely.

    Attributes:
        start: Start offset into the ORIGINAL (unmasked) text.
        end: End offset (exclusive) into the original text.
        type: Entity type, e.g. ``ID_NIK``, ``EMAIL_ADDRESS``.
        score: Detection confidence in [0, 1] (1.0 when a checksum/structure validator passed).
    """

    start: int
    end: int
    type: str
    score: float

    def to_dict(self) -> dict[str, object]:
        """Return the JSON shape of the ``dasar mask --json`` contract."""
        return {"type": self.type, "start": self.start, "end": self.end, "score": round(self.score, 4)}
