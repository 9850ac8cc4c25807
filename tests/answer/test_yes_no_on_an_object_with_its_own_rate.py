"""A yes/no question on an object whose rate its own rule sets is not answered with another object's rate.

"Apakah sewa gedung kantor dipotong PPh 23?" was answered "tarifnya 2% dari jumlah bruto" from the PPh 23 list
(UU PPh Pasal 23 ayat (1) huruf c), whose rent item excepts the rent already taxed under Pasal 4 ayat (2): the
rent of land or buildings.  The rate question was declined with the object named; the yes/no one is now too,
once its lead states a rate.  Session 61; the questions are our own."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from bot.answer.extractive import unstated_object_rate
from tests.answer.chunk_sample import anonymous_answer

PPH23_RENT_ITEM = (
    "c. sebesar 2% (dua persen) dari jumlah bruto atas: 1. sewa dan penghasilan lain sehubungan dengan "
    "penggunaan harta, kecuali sewa dan penghasilan lain sehubungan dengan penggunaan harta yang telah "
    "dikenai Pajak Penghasilan sebagaimana dimaksud dalam Pasal 4 ayat (2)"
)
LIST_ONLY = "d. penghasilan dari transaksi pengalihan harta berupa tanah dan/atau bangunan"


@pytest.mark.parametrize(
    ("question", "lead", "unstated"),
    [
        ("Apakah sewa gedung kantor dipotong PPh 23?", PPH23_RENT_ITEM, "land_building_rent"),
        (
            "Do we need to withhold tax when paying rent for our office building?",
            PPH23_RENT_ITEM,
            "land_building_rent",
        ),
        # a lead stating no rate is not read as one: the yes/no question is answered by what it says
        ("Apakah sewa gedung kantor kena PPh final?", LIST_ONLY, None),
        # no object with its own rule asked
        ("Apakah sewa mobil dipotong PPh 23?", PPH23_RENT_ITEM, None),
    ],
)
def test_the_rate_of_another_object_is_not_the_answer(question: str, lead: str, unstated: str | None) -> None:
    assert unstated_object_rate(question, lead) == unstated


def test_office_rent_asked_yes_or_no_is_declined_naming_the_object(services: Any) -> None:
    answer = anonymous_answer(
        services, "Apakah sewa gedung kantor dipotong PPh 23?", as_of=dt.date(2026, 12, 1)
    )
    assert answer.status == "abstained"
    assert "sewa tanah dan/atau bangunan" in answer.answer
    assert "2%" not in answer.answer
