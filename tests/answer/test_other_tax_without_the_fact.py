"""A lead that is another tax's rule and states nothing of what was asked is evidence for the tax team, not
an answer: "Kapan bukti potong PPh 23 harus diberikan?" was answered (confidence 0.55) with PMK 168/2023's
duty to give PPh 21 / PPh 26 slips, which names no time; the knowledge base holds no PPh 23 slip deadline.
Either half alone is no reason to doubt a lead: the PPh 26 rate answers a PPh 23 question on a vendor
abroad, and a rule may state the asked time without naming its tax. Session 60; questions are our own."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from bot.answer.extractive import misses_asked, other_tax_without_fact
from tests.answer.chunk_sample import anonymous_answer

OTHER_TAX_DUTY = (
    "b. membuat bukti pemotongan Pajak Penghasilan Pasal 21 dan/atau Pajak Penghasilan Pasal 26 dan "
    "memberikan bukti pemotongan tersebut kepada penerima penghasilan yang dipotong pajak;"
)
FOREIGN_RATE = "dipotong Pajak Penghasilan Pasal 26 sebesar 20% (dua puluh persen) dari jumlah bruto"


@pytest.mark.parametrize(
    ("question", "quote", "doubted"),
    [
        ("Kapan bukti potong PPh 23 harus diberikan?", OTHER_TAX_DUTY, True),
        # another tax, but the asked fact is stated: a vendor abroad is withheld PPh 26
        ("Berapa tarif PPh 23 untuk vendor dari Singapura?", FOREIGN_RATE, False),
        # the asked tax is named: no doubt from this gate
        ("Kapan bukti potong PPh 21 harus diberikan?", OTHER_TAX_DUTY, False),
        # no tax named by the quote
        ("Kapan bukti potong PPh 23 harus diberikan?", "memberikan bukti pemotongan kepada penerima", False),
        # no fact asked (a yes/no question)
        ("Apakah bukti potong PPh 23 wajib diberikan?", OTHER_TAX_DUTY, False),
    ],
)
def test_another_taxs_rule_stating_nothing_asked(question: str, quote: str, doubted: bool) -> None:
    assert other_tax_without_fact(question, quote) is doubted
    assert (misses_asked(question, [quote]) == "other_tax") is doubted


def test_the_pph23_slip_deadline_is_escalated_with_its_evidence(services: Any) -> None:
    answer = anonymous_answer(
        services, "Kapan bukti potong PPh 23 harus diberikan?", as_of=dt.date(2026, 12, 1)
    )
    assert answer.status == "escalated"
    assert answer.escalation is not None and answer.escalation.reason == "low_confidence"
    assert answer.claims and "Pasal 21" in answer.claims[0].quote
