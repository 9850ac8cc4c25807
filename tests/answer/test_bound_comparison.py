"""A question that names an amount, answered with a rule that sets a bound on amounts, says which side of the
bound the amount is on: quoting "di atas Rp100.000.000" alone left a Rp40 juta asker to work it out (outside
tester, session 33).  The sentence compares two figures the user sees: one asked, one quoted."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from bot.answer.pipeline import answer_question

CLERK = "ap.clerk@sinarnusantara.co.id"


@pytest.mark.parametrize(
    ("amount", "verdict"),
    [("Rp140 juta", "memenuhi"), ("Rp40 juta", "tidak memenuhi")],
)
def test_the_side_of_a_policy_bound(services: Any, amount: str, verdict: str) -> None:
    answer = answer_question(
        f"Tagihan jasa konsultan {amount} bulan Juni 2023 harus direview Tax Team sebelum pembayaran?",
        services.cli_principal(CLERK),
        services,
        as_of=dt.date(2023, 6, 1),
    )
    assert answer.status == "answered"
    assert "di atas Rp100.000.000" in answer.claims[0].quote
    first = answer.answer.split("\n")[0]
    assert f'Nilai {amount} {verdict} batas "di atas Rp100.000.000" dalam aturan itu [1].' in first


def test_no_comparison_without_an_amount_or_a_bound(services: Any) -> None:
    answer = answer_question(
        "bea meterai berapa?", services.cli_principal(None), services, as_of=dt.date(2024, 6, 1)
    )
    assert "batas" not in answer.answer.split("\n")[0]


def test_not_more_than_is_an_upper_bound_including_it(hashing_services: Any) -> None:
    # "tidak lebih dari" ends with the words of "lebih dari": it was read as a lower bound
    from bot.answer.render import answer_line
    from tests.answer.test_user_reads import claim

    wage = claim(hashing_services, "pmk-10-2025", "tidak lebih dari Rp10.000.000,00")
    line = answer_line([wage], "id", "Upah pegawai harian kami Rp8 juta sebulan, dapat insentif?")
    assert 'Nilai Rp8 juta memenuhi batas "tidak lebih dari Rp10.000.000,00" dalam aturan itu [1].' in line


@pytest.mark.parametrize(
    "question",
    [
        "Penjualan toko kami sudah melebihi 4,8 miliar sejak Oktober, tarif finalnya masih dipakai?",
        "Our shop's turnover is now more than Rp4.8 billion this year; does the final rate still apply?",
    ],
)
def test_an_amount_the_asker_states_as_a_bound_is_not_compared(hashing_services: Any, question: str) -> None:
    # "melebihi 4,8 miliar" is a side of the bound already: comparing 4,8 miliar with "melebihi
    # Rp4.800.000.000,00" told the asker they did not exceed what they said they exceeded
    from bot.answer.render import answer_line
    from tests.answer.test_user_reads import claim

    rule = claim(hashing_services, "pp-55-2022", "telah melebihi Rp4.800.000.000,00")
    line = answer_line([rule], "id", question)
    assert "Rp4.800.000.000,00" in line
    assert "batas" not in line and "bound" not in line
