"""Severance pay's rate is set by its own regulation, which the knowledge base does not hold.

UU PPh leaves the rates on severance pay to a regulation of its own; no act of the corpus states them.
"pph 21 atas pesangon tarifnya?" (a probe of our own, session 51) was told the no-NPWP surcharge "lebih
tinggi 20%"; it is now declined with why (pipeline step 7b, question object ``severance``), and a question
about pension contributions, which named no tax word, is no longer declined as out of scope.
"""

from __future__ import annotations

from typing import Any

from bot.answer.extractive import unstated_object_rate
from bot.answer.scope import classify
from tests.answer.chunk_sample import anonymous_answer

#: the shape of UU PPh Pasal 21 ayat (5a) (own words, shortened)
SURCHARGE = (
    "(5a) Besarnya tarif yang diterapkan terhadap Wajib Pajak yang tidak memiliki NPWP lebih tinggi 20%."
)


def test_the_severance_rate_is_unstated_by_another_rule() -> None:
    assert unstated_object_rate("pph 21 atas pesangon tarifnya?", SURCHARGE) == "severance"
    stated = "atas uang pesangon dikenakan tarif 5% dari penghasilan bruto"
    assert unstated_object_rate("pph 21 atas pesangon tarifnya?", stated) is None


def test_a_severance_rate_question_is_declined_with_why(services: Any) -> None:
    answer = anonymous_answer(services, "pph 21 atas pesangon tarifnya?")
    assert answer.status == "abstained"
    assert "uang pesangon" in answer.answer
    assert "20%" not in answer.answer


def test_pension_contributions_are_in_scope() -> None:
    assert classify("iuran pensiun boleh dikurangkan berapa?", has_tax_signal=False).kind == "in_scope"
