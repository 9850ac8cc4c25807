"""Answer verification gates: decide which claims of a drafted answer may be shown.

dasar answers with claims, each carrying a verbatim quote and the id of the cited chunk.  Before
anything reaches the user, every claim goes through (see :mod:`guardrails.verify.pipeline`):

* citation gate  -- the source exists, is readable by the user, was in effect (``SUMBER_*``)
* quote gate     -- the quote is an exact substring of the source (``KUTIPAN_TIDAK_COCOK``)
* addressed gate -- the quote holds no sentence addressed to the assistant (``KUTIPAN_UNTUK_ASISTEN``)
* number gate    -- every figure of the claim is in its quote (``ANGKA_TANPA_DASAR``)
* support judge  -- the source supports the claim (``DUKUNGAN_TIDAK_CUKUP`` / ``DUKUNGAN_BERTENTANGAN``)

Everything works on plain strings and the records of :mod:`guardrails.verify.records`; nothing is
imported from ``kb`` or ``identity``.  Errors: see :mod:`guardrails.verify.errors`.
"""

from __future__ import annotations

from guardrails.verify.errors import InvalidInputError, JudgeConfigError, JudgeError, VerifyError
from guardrails.verify.gates import addressed_gate, citation_gate, number_gate, quote_gate, quote_matches
from guardrails.verify.lexical import ENTAIL_COVERAGE, LexicalSupportJudge
from guardrails.verify.nli import NliPredict, NliSupportJudge
from guardrails.verify.numbers import Figure, extract_figures, parse_number, unbacked_figures, words_to_number
from guardrails.verify.pipeline import judge_claim, verify_claim, verify_claims
from guardrails.verify.protocol import SupportJudge
from guardrails.verify.records import (
    ANGKA_TANPA_DASAR,
    DUKUNGAN_BERTENTANGAN,
    DUKUNGAN_TIDAK_CUKUP,
    FAILURE_CODES,
    KUTIPAN_TIDAK_COCOK,
    KUTIPAN_UNTUK_ASISTEN,
    SUMBER_TIDAK_ADA,
    SUMBER_TIDAK_BERLAKU,
    SUMBER_TIDAK_BOLEH_DIBACA,
    ClaimInput,
    ClaimVerdict,
    GateFailure,
    JudgeResult,
    SourceText,
    SupportVerdict,
)
from guardrails.verify.text import normalize_ws

__all__ = [
    "ANGKA_TANPA_DASAR",
    "DUKUNGAN_BERTENTANGAN",
    "DUKUNGAN_TIDAK_CUKUP",
    "ENTAIL_COVERAGE",
    "FAILURE_CODES",
    "KUTIPAN_TIDAK_COCOK",
    "KUTIPAN_UNTUK_ASISTEN",
    "SUMBER_TIDAK_ADA",
    "SUMBER_TIDAK_BERLAKU",
    "SUMBER_TIDAK_BOLEH_DIBACA",
    "ClaimInput",
    "ClaimVerdict",
    "Figure",
    "GateFailure",
    "InvalidInputError",
    "JudgeConfigError",
    "JudgeError",
    "JudgeResult",
    "LexicalSupportJudge",
    "NliPredict",
    "NliSupportJudge",
    "SourceText",
    "SupportJudge",
    "SupportVerdict",
    "VerifyError",
    "addressed_gate",
    "citation_gate",
    "extract_figures",
    "judge_claim",
    "normalize_ws",
    "number_gate",
    "parse_number",
    "quote_gate",
    "quote_matches",
    "unbacked_figures",
    "verify_claim",
    "verify_claims",
    "words_to_number",
]
