"""A rule returning an excess answers only a question about a refund.

PMK 168/2023 Pasal 21 ayat (1) ("kelebihan Pajak Penghasilan Pasal 21 yang telah dipotong tersebut
wajib dikembalikan oleh Pemotong Pajak") shares "wajib", "dipotong" and "PPh 21" with every withholding
question, and led "Siapa yang wajib memotong PPh 21?" at confidence 0.77 (a probe of our own, session
53).  Lexicon ``passage_cues.refunds_excess`` marks such a rule; it is marked down as a lead
(``refund_unasked``) unless the question asks about a refund (``question_kinds.asks_refund``).
"""

from __future__ import annotations

from typing import Any

from tests.answer.chunk_sample import anonymous_answer


def _lead_text(answer: Any) -> str:
    return answer.claims[0].quote if answer.claims else ""


def test_who_withholds_is_not_answered_with_the_refund_of_the_excess(services: Any) -> None:
    answer = anonymous_answer(services, "Siapa sebenarnya yang wajib memotong PPh 21?")
    assert answer.claims
    assert "dikembalikan" not in _lead_text(answer) and "dikenibalikan" not in _lead_text(answer)
    assert not answer.claims[0].source.location.startswith("Pasal 21 ayat (1)")


def test_a_refund_question_is_still_answered_with_the_refund_rule(services: Any) -> None:
    answer = anonymous_answer(services, "kelebihan PPh 21 karyawan yang resign dikembalikan kapan?")
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert lead.source.doc_id == "pmk-168-2023" and lead.source.location.startswith("Pasal 21 ayat (1)")
