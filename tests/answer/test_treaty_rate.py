"""A tax treaty's rate is set by the treaty with each partner country; the knowledge base holds none.

PMK 112/2025 says how a payee abroad claims a treaty's benefit; UU PPh Pasal 26 and PP 9/2021 name "the
rate under the treaty" without stating it.  Probes of our own (session 52) asking a treaty's rate were told
PPh 26's 20% on an individual's services, or quoted a definition of the certificate of domicile.  Asked for
its figure, a treaty's rate is declined with why (pipeline step 7b, question object ``treaty_rate``); asked
whether or how a treaty rate may be used, the question is answered from the rules that say so.
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.answer.extractive import unstated_object_rate
from tests.answer.chunk_sample import anonymous_answer

#: the shape of PP 9/2021 Pasal 3 ayat (3): a rate, and "the treaty's" without a figure of its own
REDUCED = (
    "(3) Tarif pemotongan pajak sebagaimana dimaksud pada ayat (2) diturunkan menjadi sebesar 10% atau "
    "sesuai dengan tarif berdasarkan persetujuan penghindaran pajak berganda."
)


@pytest.mark.parametrize(
    "question",
    [
        "berapa tarif P3B untuk royalti ke Singapura?",
        "What is the withholding rate on dividends under the Indonesia-Netherlands tax treaty?",
        "vendor bilang P3B membatasi royalti maksimal 10%, betul itu tarif P3B-nya?",
    ],
)
def test_a_treaty_rate_asked_for_is_unstated_by_a_rule_naming_the_treaty(question: str) -> None:
    assert unstated_object_rate(question, REDUCED) == "treaty_rate"


def test_a_named_treatys_own_rate_is_stated() -> None:
    stated = "Berdasarkan P3B Indonesia-Singapura, tarif atas royalti sebesar 10% dari jumlah bruto."
    assert unstated_object_rate("berapa tarif P3B untuk royalti ke Singapura?", stated) is None


@pytest.mark.parametrize(
    "question",
    [
        # whether or how a treaty rate may be used: the conditions answer it
        "apa syarat supaya bisa pakai tarif tax treaty?",
        "Is it OK to use a 10% treaty rate for this vendor?",
        # the PPN on an object is not its income tax
        "PPN atas sewa gedung berapa?",
    ],
)
def test_using_a_treaty_rate_or_another_tax_is_not_declined_here(question: str) -> None:
    assert unstated_object_rate(question, REDUCED) is None


def test_a_treaty_rate_question_is_declined_with_why(services: Any) -> None:
    answer = anonymous_answer(services, "tarif tax treaty bunga ke jepang berapa persen?")
    assert answer.status == "abstained"
    assert "P3B" in answer.answer and "negara mitra" in answer.answer
    assert "20%" not in answer.answer and not answer.claims


def test_the_conditions_for_a_treaty_rate_are_answered(services: Any) -> None:
    answer = anonymous_answer(services, "apa syarat supaya bisa pakai tarif tax treaty?")
    assert answer.status == "answered"
    assert answer.claims[0].source.doc_id == "pmk-112-2025"
