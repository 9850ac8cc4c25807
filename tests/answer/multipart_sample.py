"""A multi-part answer built from hand-made part answers (no index), for the front ends' rendering tests.

Part 1 asks the PPh 23 rate (UU 36/2008 Pasal 23 ayat (1) huruf c), part 2 what happens without an NPWP
(ayat (1a), and it cites ayat (1) again: that passage is printed once), part 3 (when asked for) has no
source.  The parts are combined by :func:`bot.answer.parts.combine`, the pipeline's own rule.
"""

from __future__ import annotations

import datetime as dt

from bot.answer.confidence import NO_CONFIDENCE
from bot.answer.model import Answer, Confidence, Escalation, ShownClaim, SourceRef
from bot.answer.parts import combine

AS_OF = dt.date(2026, 6, 1)
Q_RATE = "Tarif PPh 23 jasa teknik berapa?"
Q_NO_NPWP = "Terus kalau vendornya tidak punya NPWP gimana?"
Q_OPEN = "Bukti potongnya dikirim ke mana?"
QUOTE_RATE = "c. sebesar 2% (dua persen) dari jumlah bruto atas: 2. imbalan sehubungan dengan jasa teknik"
QUOTE_NPWP = (
    "(1a) Dalam hal Wajib Pajak yang menerima atau memperoleh penghasilan sebagaimana dimaksud pada ayat (1) "
    "tidak memiliki Nomor Pokok Wajib Pajak, besarnya tarif pemotongan lebih tinggi 100% (seratus persen)"
)


def _source(location: str, chunk: str) -> SourceRef:
    return SourceRef(
        doc_id="uu-36-2008",
        number="UU 36/2008",
        title="Perubahan Keempat atas UU Pajak Penghasilan",
        location=location,
        effective_from=dt.date(2009, 1, 1),
        effective_to=None,
        status="amended",
        url="https://peraturan.go.id/id/uu-no-36-tahun-2008",
        ocr_noisy=False,
        chunk_id=chunk,
    )


def claim(quote: str, location: str, chunk: str, lead_in: str = "") -> ShownClaim:
    return ShownClaim(
        text=f"{lead_in} {quote}".strip(),
        quote=quote,
        layer="regulation",
        is_example=False,
        support="entailed",
        source=_source(location, chunk),
    )


RATE = claim(QUOTE_RATE, "Pasal 23 ayat (1) huruf c", "uu-36-2008:p23-1-c", "Dipotong pajak oleh pihak:")
NPWP = claim(QUOTE_NPWP, "Pasal 23 ayat (1a)", "uu-36-2008:p23-1a")
CONF = Confidence(0.9, "high", 0.9, 0.9, 0.9)


def part_answer(
    status: str, line: str, claims: tuple[ShownClaim, ...] = (), reason: str | None = None
) -> Answer:
    return Answer(
        status=status,
        answer=line,
        claims=claims,
        unsupported_claims=(),
        clarifying_questions=(),
        conflicts=(),
        confidence=CONF if claims else NO_CONFIDENCE,
        as_of=AS_OF,
        corpus_version="c0ffee12",
        escalation=Escalation(reason) if reason else None,
        warnings=(),
    )


def multipart_answer(*, open_part: bool = False, extra_claims: int = 0) -> Answer:
    """Two answered parts (and a third without a source when ``open_part``); ``extra_claims`` long claims
    are added to part 1 (paging and size limits)."""
    padding = tuple(
        claim(
            f"({i}) " + "Ketentuan panjang tentang pemotongan pajak. " * 40, f"Pasal 9{i}", f"uu-36-2008:x{i}"
        )
        for i in range(extra_claims)
    )
    answers = [
        part_answer("answered", "Menurut UU 36/2008, tarifnya 2% dari jumlah bruto [1].", (RATE, *padding)),
        part_answer("answered", "Menurut UU 36/2008, tarifnya lebih tinggi 100% [1].", (NPWP, RATE)),
    ]
    parts = [Q_RATE, Q_NO_NPWP]
    if open_part:
        answers.append(
            part_answer(
                "abstained",
                "Saya tidak menemukan sumber untuk itu di basis pengetahuan. Saya bisa meneruskan pertanyaan "
                "ini ke tim pajak.",
                reason="no_source",
            )
        )
        parts.append(Q_OPEN)
    return combine(parts, parts, answers, "id")
