"""A rate question is answered by the tax's rate, not by a sanction percentage ("sanksi administratif
sebesar 100%") of the same law, unless it asks about the sanction; "berapa bea meterai ...?" asks the rate."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from bot.answer.extractive import asks_rate, only_sanction_rates
from bot.answer.pipeline import answer_question

SURCHARGE = (
    "(3) Jumlah kekurangan Bea Meterai dalam surat ketetapan pajak sebagaimana dimaksud pada ayat (2) "
    "ditambah "
    "sanksi administratif sebesar 100% (seratus persen) dari Bea Meterai yang tidak atau kurang dipungut."
)


def test_a_sanction_percentage_is_not_the_rate_asked() -> None:
    assert only_sanction_rates("Berapa tarif bea meterai?", SURCHARGE)
    assert not only_sanction_rates("Berapa sanksi kalau bea meterai kurang dipungut?", SURCHARGE)
    rule = "Dokumen dikenai Bea Meterai dengan tarif tetap sebesar Rp10.000,00 (sepuluh ribu rupiah)."
    assert not only_sanction_rates("Berapa tarif bea meterai?", rule)
    assert asks_rate("Berapa bea meterai untuk dokumen perjanjian?")
    assert asks_rate("How much is the stamp duty on a receipt?")
    assert not asks_rate("Berapa lama dokumen disimpan?")


@pytest.mark.parametrize(
    "question", ["Berapa tarif bea meterai?", "Berapa bea meterai untuk dokumen perjanjian?"]
)
def test_stamp_duty_rate_leads_with_the_fixed_rate(services: Any, question: str) -> None:
    answer = answer_question(question, services.cli_principal(None), services, as_of=dt.date(2024, 6, 1))
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert (lead.source.doc_id, lead.source.location) == ("uu-10-2020", "Pasal 5")
    assert "tarif tetap sebesar Rp10.000,00" in lead.quote
