"""A question whether a rate changes ("apakah ... mengubah tarif?") does not ask what the rate is: its
answer is the passage saying the rate stays or changes, not whichever passage states a percentage (the
surcharge for a payee without an NPWP was quoted when a company FAQ said the rates stay the same)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from bot.answer.extractive import asks_rate
from bot.answer.pipeline import answer_question


def test_whether_a_rate_changes_is_not_a_rate_question() -> None:
    assert not asks_rate("Apakah aturan identitas baru mengubah tarif PPh 21?")
    assert not asks_rate("Sesudah pemadanan NIK, tarif pajak vendor apakah ikut berubah?")
    assert not asks_rate("Does the new tax ID format change the withholding rate?")


def test_what_the_rate_is_still_is() -> None:
    assert asks_rate("Berapa tarif PPh 21 pegawai tetap?")
    assert asks_rate("Apakah tarif PPh 23 untuk jasa tetap 2%?")
    assert asks_rate("Tarif PPN berubah jadi berapa persen?")  # "berapa" asks the figure outright


def test_the_company_faq_that_says_the_rates_stay_answers_an_employee(services: Any) -> None:
    clerk = services.cli_principal("ap.clerk@sinarnusantara.co.id")
    answer = answer_question(
        "NPWP sekarang 16 digit; apakah hal ini mengubah tarif pemotongan PPh 23 kami?",
        clerk,
        services,
        as_of=dt.date(2026, 12, 2),
    )
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert lead.source.doc_id == "faq-npwp-16-digit-nitku"
    assert "tetap" in lead.quote
