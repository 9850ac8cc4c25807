""" "Berapa juta?" asks an amount, even beside a rate the question already states.

"lapisan tarif yang 5% itu sampai berapa juta?" asks where the 5% bracket ends; its answer line read
"tarifnya 5%", the asker's own figure back.  Questions are our own, written against the sample corpus (never
taken from an eval set).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from bot.answer.extractive import asked_fact
from bot.answer.pipeline import answer_question


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("lapisan tarif PPh orang pribadi yang 5% sampai berapa juta?", "amount"),
        ("PTKP kawin tanggungan 2 brp jt setahun?", "amount"),
        ("batas omzet UMKM sampe brp M?", "amount"),
        ("How many million rupiah is the first income tax bracket?", "amount"),
        ("tarif PPh 23 jasa teknik berapa?", "rate"),
        ("tarif PPh 21 untuk gaji 10 juta berapa persen?", "rate"),
    ],
)
def test_a_unit_of_money_after_berapa_asks_an_amount(question: str, kind: str) -> None:
    assert asked_fact(question) == kind


def test_the_bracket_question_is_answered_with_its_ceiling(services: Any) -> None:
    answer = answer_question(
        "lapisan tarif PPh orang pribadi yang 5% sampai berapa juta?",
        services.cli_principal(None),
        services,
        as_of=dt.date(2026, 6, 1),
    )
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert lead.source.location.startswith("Pasal 17 ayat (1) UU 7/1983")
    assert "5% (lima persen) sampai dengan Rp60.000.000,00" in answer.answer
    assert "tarifnya 5%" not in answer.answer
