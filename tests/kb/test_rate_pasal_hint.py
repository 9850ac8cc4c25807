"""A question asking a tax's rate reaches the Pasal that sets it, whatever the tax is charged on.

UU PPN Pasal 7 states the rate (11%, 12%) without naming imports or services from abroad, so "ppn impor barang
berapa ya?" (a probe of our own, session 52) ranked PP 49/2022's import exemptions first and was answered
"Impor ... tidak dipungut Pajak Pertambahan Nilai".  The rate Pasal is a hint of the question
(lexicon ``law_topics.rate_pasal``, provision origin ``rate``), and when no rule leading the results states a
percentage it joins them after the best one (``kb.retrieve._with_rate_rule``).
"""

from __future__ import annotations

from typing import Any

from kb.query import understand
from tests.answer.chunk_sample import anonymous_answer


def _rate_hints(question: str) -> list[tuple[str, str | None]]:
    return [(p.pasal, p.law) for p in understand(question).provisions if p.origin == "rate"]


def test_a_ppn_rate_question_hints_the_rate_pasal() -> None:
    assert _rate_hints("ppn impor barang berapa ya?") == [("7", "UU 8/1983")]
    assert _rate_hints("VAT on imported goods, what rate?") == [("7", "UU 8/1983")]


def test_no_rate_hint_without_a_rate_or_with_the_pasal_written() -> None:
    assert _rate_hints("kapan PPN impor terutang?") == []
    assert _rate_hints("tarif PPN menurut UU PPN Pasal 7 ayat (1)?") == []


def test_ppn_on_imports_is_answered_with_the_rate(services: Any) -> None:
    answer = anonymous_answer(services, "ppn impor barang berapa ya?")
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert lead.source.doc_id == "uu-7-2021" and lead.source.location.startswith("Pasal 7 UU 8/1983")
    assert "12%" in lead.quote
    assert "tidak dipungut" not in answer.answer


def test_a_special_regime_that_states_its_percentage_keeps_its_rule(services: Any) -> None:
    # the used-car rule states its own "1,1% dari Harga Jual": the general rate does not join in front of it
    answer = anonymous_answer(services, "ppn atas penjualan mobil bekas berapa?")
    assert answer.claims[0].source.doc_id == "pmk-11-2025"
