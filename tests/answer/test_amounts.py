"""A question that asks how much ("dendanya berapa?") is answered with the amount the rule states for what
the question names, not with the rule's first 240 characters: KUP Pasal 7 ayat (1) lists four fines."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from bot.answer.pipeline import answer_question


@pytest.mark.parametrize(
    ("question", "line"),
    [
        (
            "Kalau SPT Tahunan badan telat lapor, dendanya berapa?",
            "Menurut UU 28/2007, jumlahnya Rp1.000.000,00 (satu juta rupiah) untuk Surat Pemberitahuan "
            "Tahunan Pajak Penghasilan Wajib Pajak badan [1].",
        ),
        (
            "Berapa denda telat lapor SPT Tahunan orang pribadi?",
            "Menurut UU 28/2007, jumlahnya Rp100.000,00 (seratus ribu rupiah) untuk Surat Pemberitahuan "
            "Tahunan Pajak Penghasilan Wajib Pajak orang pribadi [1].",
        ),
        (
            "Berapa denda telat lapor SPT Masa PPN?",
            "Menurut UU 28/2007, jumlahnya Rp500.000,00 (lima ratus ribu rupiah) untuk Surat Pemberitahuan "
            "Masa Pajak Pertambahan Nilai [1].",
        ),
        # session 63: a Masa return of another tax is "Surat Pemberitahuan Masa lainnya" -- not the VAT
        # return's Rp500.000 (which shares more words), nor the annual company return's (which shares "Pajak
        # Penghasilan" with PPh 21)
        (
            "kalo SPT masa PPh 21 telat lapor dendanya berapa?",
            "Menurut UU 28/2007, jumlahnya Rp100.000,00 (seratus ribu rupiah) untuk Surat Pemberitahuan "
            "Masa lainnya [1].",
        ),
    ],
)
def test_the_amount_for_what_the_question_names(services: Any, question: str, line: str) -> None:
    answer = answer_question(question, services.cli_principal(None), services, as_of=dt.date(2024, 6, 1))
    assert answer.status == "answered"
    assert answer.claims[0].source.location.startswith("Pasal 7 ayat (1) UU 6/1983")
    assert answer.answer.split("\n")[0] == line


def test_the_stamp_duty_amount_is_its_tariff_not_a_sanction(services: Any) -> None:
    # the sanction ayat (shortfall "ditambah sanksi administratif sebesar 100%") ranked first and led
    answer = answer_question(
        "bea meterai berapa?", services.cli_principal(None), services, as_of=dt.date(2024, 6, 1)
    )
    assert answer.status == "answered"
    assert answer.claims[0].source.location == "Pasal 5"
    assert (
        answer.answer.split("\n")[0] == "Menurut UU 10/2020, jumlahnya Rp10.000,00 (sepuluh ribu rupiah) [1]."
    )


def test_a_figure_stated_as_a_bound_is_not_the_amount(services: Any) -> None:
    # "nilai nominal lebih dari Rp5.000.000,00" is when a receipt bears the duty, not what it costs
    answer = answer_question(
        "Nota penerimaan uang Rp6 juta kena bea meterai berapa rupiah?",
        services.cli_principal(None),
        services,
        as_of=dt.date(2024, 6, 1),
    )
    first = answer.answer.split("\n")[0]
    assert "jumlahnya Rp5.000.000" not in first
    assert "lebih dari Rp5.000.000,00 (lima juta rupiah)" in first
