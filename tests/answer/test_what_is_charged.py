"""A question asking what a levy is charged on is answered by the rule that charges ("Bea Meterai dikenakan
atas:", UU 10/2020 Pasal 3), not by the rules on its threshold, payer or tariff that share its two words; a
question asking what is not charged by the rule that excludes (Pasal 7), and "Dikecualikan dari ketentuan
sebagaimana dimaksud pada ayat (1)" (an exception to another provision, Pasal 9 ayat (3)) is no exemption.
Session 57, probes of our own: "Dokumen apa yang dikenai bea meterai?" was answered with Pasal 6."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import pytest

from bot.answer.extractive import (
    ASKS_CHARGED,
    ASKS_EXEMPTION,
    STATES_CHARGE,
    STATES_EXEMPTION,
    charges_asked_levy,
)
from tests.answer.chunk_sample import anonymous_answer

AS_OF = dt.date(2026, 12, 1)


def test_the_question_and_passage_kinds() -> None:
    for asked in ("dokumen apa yang dikenai bea meterai?", "objek ppn apa saja?", "what are subject to vat?"):
        assert ASKS_CHARGED.search(asked), asked
    assert not ASKS_CHARGED.search("berapa tarif bea meterai?")
    assert STATES_CHARGE.search("Pasal 3 (1) Bea Meterai dikenakan atas:")
    assert STATES_CHARGE.search("(1) Yang menjadi objek pajak adalah penghasilan, yaitu ...")
    assert not STATES_CHARGE.search("Bea Meterai tidak dikenakan atas:")
    assert ASKS_EXEMPTION.search("dokumen yang tidak kena bea meterai apa saja?")
    assert not STATES_EXEMPTION.search("(3) Dikecualikan dari ketentuan sebagaimana dimaksud pada ayat (1)")
    assert STATES_EXEMPTION.search("dikecualikan dari objek pajak")


@pytest.mark.parametrize(
    "question", ["Dokumen apa yang dikenai bea meterai?", "What documents are subject to stamp duty?"]
)
def test_what_stamp_duty_is_charged_on(services: Any, question: str) -> None:
    answer = anonymous_answer(services, question, as_of=AS_OF)
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert (lead.source.doc_id, lead.source.location) == ("uu-10-2020", "Pasal 3")
    assert "kejadian yang bersifat perdata" in lead.quote


def test_what_stamp_duty_is_not_charged_on(services: Any) -> None:
    answer = anonymous_answer(services, "Dokumen yang tidak kena bea meterai apa saja?", as_of=AS_OF)
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert lead.source.doc_id == "uu-10-2020"
    assert re.match(r"Pasal 7\b", lead.source.location)
    assert "terutang oleh" not in lead.quote


def test_the_charge_of_another_tax_is_no_answer() -> None:
    income = "(1) Yang menjadi objek pajak adalah penghasilan, yaitu setiap tambahan kemampuan ekonomis"
    vat = "Pasal 4 (1) Pajak Pertambahan Nilai dikenakan atas:\na. penyerahan Barang Kena Pajak"
    assert not charges_asked_levy(frozenset({"PPN"}), income)
    assert charges_asked_levy(frozenset({"PPN"}), vat)
    assert charges_asked_levy(frozenset(), income)  # no tax named: the question does not rule it out
