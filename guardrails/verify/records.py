"""Records exchanged with the verification gates.

The gates work on plain strings: the caller (the bot) resolves a claim's cited chunk into a
:class:`SourceText`, including whether the asking user may read it and whether it was in effect on
the as-of date.  Keeping that resolution outside means ``guardrails`` imports nothing from ``kb`` or
``identity`` and the gates can be tested with literal strings.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

SupportVerdict = Literal["entailed", "not_supported", "contradicted"]
SUPPORT_VERDICTS: tuple[str, ...] = ("entailed", "not_supported", "contradicted")

# Failure codes (stable identifiers; the bot maps them to user-facing text and metrics).
SUMBER_TIDAK_ADA = "SUMBER_TIDAK_ADA"  # cited source id not among the retrieved/known sources
SUMBER_TIDAK_BERLAKU = "SUMBER_TIDAK_BERLAKU"  # source not in effect on the as-of date
SUMBER_TIDAK_BOLEH_DIBACA = "SUMBER_TIDAK_BOLEH_DIBACA"  # user may not read the source
KUTIPAN_TIDAK_COCOK = "KUTIPAN_TIDAK_COCOK"  # quote empty or not an exact substring of the source
ANGKA_TANPA_DASAR = "ANGKA_TANPA_DASAR"  # a figure of the claim does not appear in its quote
DUKUNGAN_TIDAK_CUKUP = "DUKUNGAN_TIDAK_CUKUP"  # support judge: source does not support the claim
DUKUNGAN_BERTENTANGAN = "DUKUNGAN_BERTENTANGAN"  # support judge: source contradicts the claim
KUTIPAN_UNTUK_ASISTEN = "KUTIPAN_UNTUK_ASISTEN"  # the quote holds a sentence addressed to the assistant

FAILURE_CODES: tuple[str, ...] = (
    SUMBER_TIDAK_ADA,
    SUMBER_TIDAK_BERLAKU,
    SUMBER_TIDAK_BOLEH_DIBACA,
    KUTIPAN_TIDAK_COCOK,
    ANGKA_TANPA_DASAR,
    DUKUNGAN_TIDAK_CUKUP,
    DUKUNGAN_BERTENTANGAN,
    KUTIPAN_UNTUK_ASISTEN,
)


@dataclass(frozen=True)
class ClaimInput:
    """One claim of a drafted answer: what is asserted, the verbatim quote backing it, the chunk cited."""

    text: str
    quote: str
    source_id: str


@dataclass(frozen=True)
class SourceText:
    """The text of a cited chunk, with access and validity already resolved by the caller.

    Attributes:
        id: Chunk id as cited by claims.
        text: Full text of the chunk (the quote must be a substring of it).
        readable: Whether the asking user may read this chunk (access groups resolved upstream).
        in_effect: Whether the chunk's document governed the question's as-of date.
    """

    id: str
    text: str
    readable: bool = True
    in_effect: bool = True


@dataclass(frozen=True)
class GateFailure:
    """Why a claim was withheld.

    Attributes:
        code: One of :data:`FAILURE_CODES`.
        message: Human-readable explanation saying what to fix.
        subject: The offending item when there is one (the figure, the source id), for tests and metrics.
    """

    code: str
    message: str
    subject: str = ""


@dataclass(frozen=True)
class JudgeResult:
    """Outcome of a support judge on one (claim, passage) pair.

    Attributes:
        verdict: ``entailed`` / ``not_supported`` / ``contradicted``.
        score: Support strength in [0, 1] (1 = fully supported); comparable only within one judge.
        reasons: Short machine-readable notes on how the verdict was reached (no raw passage text).
    """

    verdict: SupportVerdict
    score: float
    reasons: tuple[str, ...] = ()


@dataclass(frozen=True)
class ClaimVerdict:
    """Result of all gates for one claim; ``passed`` is the only field that decides display.

    Attributes:
        claim: The claim exactly as given (never repaired).
        passed: True iff citation, quote and number gates passed and the judge said ``entailed``.
        failures: Every failure found, in gate order (citation, quote, number, support).
        support: The judge's verdict, or None when the judge did not run (source missing/unreadable).
        support_score: The judge's score, 0.0 when it did not run.
        reasons: The judge's reasons (empty when it did not run).
    """

    claim: ClaimInput
    passed: bool
    failures: tuple[GateFailure, ...]
    support: SupportVerdict | None
    support_score: float
    reasons: tuple[str, ...] = ()

    @property
    def codes(self) -> tuple[str, ...]:
        """Failure codes in order, convenient for metrics and tests."""
        return tuple(f.code for f in self.failures)
