"""A percentage that is a threshold, a share, a reduction or a customs duty is not "the rate": an outside
tester got "tarifnya 40%" (listed shares) for a dividend question, "tarifnya 0%" (customs duty) for PPh 22 on
imports and "tarifnya 100%" (a sanction) for stamp duty."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from bot.answer.extractive import states_rate
from bot.answer.pipeline import answer_question


@pytest.mark.parametrize(
    ("text", "rate"),
    [
        ("dipotong Pajak Penghasilan sebesar 2% (dua persen) dari jumlah bruto", True),
        (
            "Tarif atas dividen orang pribadi paling tinggi sebesar 10% (sepuluh persen) dan bersifat final",
            True,
        ),
        ("Bea Meterai dengan tarif tetap sebesar Rp10.000,00 (sepuluh ribu rupiah)", True),
        (
            "saham yang disetor diperdagangkan pada bursa efek paling sedikit 40% (empat puluh persen); dan",
            False,
        ),
        ("diinvestasikan lebih dari 30% (tiga puluh persen) dari jumlah laba setelah pajak", False),
        # PP 55/2022 Pasal 65 writes the listed share "paling rendah" (session 50)
        (
            "saham yang disetor diperdagangkan pada bursa efek paling rendah 40% (empat puluh persen)",
            False,
        ),
        ("dapat memperoleh tarif sebesar 3% (tiga persen) lebih rendah dari tarif", False),
        ("a. dikenakan tarif bea masuk sebesar 0% (nol persen); atau", False),
        # a term of a formula for the tax inside a price is no rate ("tarifnya 100%" was read from it)
        ("pajak yang terutang dihitung dengan rumus T/(100% + T) dikali harga jual", False),
        # a share of the output tax is a credit, not a rate (UU PPN Pasal 9 ayat (9a); session 60 read it as
        # "tarifnya 80%" for a question whether input tax before registration may be credited)
        (
            "pengkreditan Pajak Masukan sebesar 80% (delapan puluh persen) dari Pajak Keluaran yang dipungut",
            False,
        ),
        # a threshold beside a rate: the rate still counts
        ("paling sedikit 40% (empat puluh persen) saham, tarifnya 19% (sembilan belas persen)", True),
    ],
)
def test_states_rate(text: str, rate: bool) -> None:
    assert states_rate(text) is rate


def _line(services: Any, question: str) -> str:
    return answer_question(question, services.cli_principal(None), services, as_of=dt.date(2026, 6, 1)).answer


def test_a_dividend_rate_is_not_the_share_threshold_or_the_reduction(services: Any) -> None:
    line = _line(services, "Berapa tarif PPh atas dividen yang diterima orang pribadi dalam negeri?")
    assert "10%" in line
    assert "40%" not in line and "3%" not in line


def test_the_stamp_duty_rate_is_not_its_sanction(services: Any) -> None:
    line = _line(services, "tarif bea meterai berapa?")
    assert "Rp10.000" in line
    assert "100%" not in line


def test_the_listed_company_rate_is_not_its_share_threshold(services: Any) -> None:
    # a probe of our own (session 50) was told "tarifnya 40%" from PP 55/2022 Pasal 65 ayat (1) huruf b
    line = _line(services, "tarif PPh badan untuk perusahaan terbuka di bursa?")
    assert "tarifnya 40%" not in line and "rate is 40%" not in line


def test_a_credit_share_of_the_output_tax_is_not_read_as_the_rate(services: Any) -> None:
    answer = answer_question(
        "Apakah PKP boleh mengkreditkan pajak masukan sebelum dikukuhkan?",
        services.cli_principal(None),
        services,
        as_of=dt.date(2026, 6, 1),
    )
    assert answer.claims[0].source.location.startswith("Pasal 9 ayat (9a)")
    assert "sebelum Pengusaha dikukuhkan" in answer.answer
    assert "tarifnya" not in answer.answer
