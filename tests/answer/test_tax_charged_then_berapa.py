""" "<object> kena pajak berapa?" asks a rate, as "berapa pajak atas <object>?" does.

"Penjualan saham di bursa kena pajak berapa?" was read as asking an amount, which any percentage states, and
was answered at 0.75 with PP 55/2022 Pasal 70's listed-shares threshold ("paling rendah 40% (empat puluh
persen)"): the knowledge base holds no rate on shares sold on the exchange. Read as a rate question, the
threshold is no rate and the question is declined with its evidence. Session 68; the questions are our own."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from bot.answer.extractive import asks_rate, lead_fact
from tests.answer.chunk_sample import anonymous_answer

AS_OF = dt.date(2026, 12, 1)


@pytest.mark.parametrize(
    "question",
    [
        "Penjualan saham di bursa kena pajak berapa?",
        "Hadiah undian kena pajak berapa?",
        "honor narasumber dipotong pajaknya berapa?",
        "Jasa konsultan dikenakan pajak berapa ya?",
    ],
)
def test_the_tax_charged_then_berapa_asks_a_rate(question: str) -> None:
    assert asks_rate(question)
    assert lead_fact(question) == "rate"


@pytest.mark.parametrize(
    "question",
    ["kena pajak berapa rupiah?", "dipotong pajak berapa lama setelah invoice?", "kena pajak berapa kali?"],
)
def test_an_amount_or_a_time_stays_what_it_asks(question: str) -> None:
    assert not asks_rate(question)


def test_a_rate_the_knowledge_base_lacks_is_not_answered_with_a_threshold(services: Any) -> None:
    answer = anonymous_answer(services, "Penjualan saham di bursa kena pajak berapa?", as_of=AS_OF)
    assert answer.status != "answered"
    assert all("paling rendah 40%" not in c.quote for c in answer.claims if answer.status == "answered")


def test_a_rate_the_knowledge_base_holds_is_answered(services: Any) -> None:
    answer = anonymous_answer(services, "Royalti ke luar negeri kena pajak berapa?", as_of=AS_OF)
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert lead.source.chunk_id.endswith("/pasal-26/ayat-1")
    assert "20%" in lead.quote
