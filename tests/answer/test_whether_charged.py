""" "Apakah X dikenai PPN?" asks whether X is charged: the rule that charges, listing X, answers.

Probes of our own (session 69): "Apakah ekspor barang dikenai PPN?" was led by PP 49/2022 Pasal 28 ayat (3)
huruf k (materials imported under an export facility), not by UU PPN Pasal 4 ayat (1) huruf f ("Pajak
Pertambahan Nilai dikenakan atas: ... f. ekspor Barang Kena Pajak Berwujud"); once that Pasal led, "Apakah
ekspor jasa kena PPN?" quoted its ayat (2), which delegates the matter to a PMK, instead of huruf h."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from bot.answer.extractive import ASKS_WHETHER_CHARGED
from kb import lexicon
from tests.answer.chunk_sample import anonymous_answer

AS_OF = dt.date(2026, 12, 1)
UU_PPN_PASAL_4 = "uu-42-2009#pasal-I/angka-4/pasal-4"


@pytest.mark.parametrize(
    "question",
    [
        "Apakah ekspor barang dikenai PPN?",
        "apa penyerahan jasa ke luar negeri kena ppn?",
        "Apakah surat perjanjian kena bea meterai?",
        "Is the export of goods subject to VAT?",
        "Are receipts liable to stamp duty?",
    ],
)
def test_whether_a_thing_is_charged_asks_the_charge(question: str) -> None:
    assert ASKS_WHETHER_CHARGED.search(lexicon.plain_question(question))


@pytest.mark.parametrize(
    "question",
    ["Apakah THR kena PPh 21?", "Berapa PPN yang dikenakan atas ekspor?", "Is VAT due on exports?"],
)
def test_an_income_tax_or_an_amount_is_no_charge_asked(question: str) -> None:
    assert not ASKS_WHETHER_CHARGED.search(lexicon.plain_question(question))


@pytest.mark.parametrize(
    ("question", "item"),
    [
        (
            "Apakah ekspor barang dikenai PPN?",
            "f. ekspor Barang Kena Pajak Berwujud oleh Pengusaha Kena Pajak",
        ),
        ("Apakah ekspor jasa kena PPN?", "h. ekspor Jasa Kena Pajak oleh Pengusaha Kena Pajak"),
        (
            "Is the export of goods subject to VAT?",
            "f. ekspor Barang Kena Pajak Berwujud oleh Pengusaha Kena Pajak",
        ),
    ],
)
def test_the_charging_item_answers(services: Any, question: str, item: str) -> None:
    answer = anonymous_answer(services, question, as_of=AS_OF)
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert lead.source.chunk_id == UU_PPN_PASAL_4
    assert item in lead.quote
    assert "diatur dengan" not in lead.quote
