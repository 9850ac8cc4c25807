"""A PTKP asked by status code is the sum of the items the status takes (UU PPh Pasal 7 ayat (1): a. the
taxpayer's own, b. being married, d. each dependant).  Session 66: "Berapa PTKP untuk status K/2?" was
answered "jumlahnya Rp54.000.000,00 ... untuk diri Wajib Pajak orang pribadi", one item read as the whole
PTKP.  The answer now lists every item the status takes, each cited; no total is computed (its number would
stand in no quote).  The questions are our own."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from bot.answer.extractive import asks_ptkp
from kb.ptkp import ptkp_items_taken, statuses_named
from tests.answer.chunk_sample import anonymous_answer


@pytest.mark.parametrize(
    ("question", "items"),
    [
        ("Berapa PTKP untuk status K/2?", ("self", "married", "dependants")),
        ("PTKP TK/0 berapa?", ("self",)),
        ("ptkp tk/3 setahun?", ("self", "dependants")),
        ("PTKP K/0?", ("self", "married")),
        # no status, or two: no items
        ("Berapa PTKP setahun?", ()),
        ("PTKP K/1 dan K/2 berapa?", ()),
    ],
)
def test_the_items_a_status_takes(question: str, items: tuple[str, ...]) -> None:
    assert ptkp_items_taken(question) == items


@pytest.mark.parametrize(
    ("text", "statuses"),
    [
        ("PTKP Wajib Pajak kawin dengan 2 tanggungan berapa?", (("K", 2),)),
        ("karyawan belum menikah tanpa tanggungan", (("TK", 0),)),
        ("pegawai lajang, 1 tanggungan", (("TK", 1),)),
        ("kawin dan 3 anak, gaji 10 juta", (("K", 3),)),
        ("married with two children", (("K", 2),)),
        ("a married taxpayer with no dependants", (("K", 0),)),
        ("tidak kawin dengan jumlah tanggungan sebanyak 1 (satu) orang", (("TK", 1),)),
        # codes and words in the order named, each once
        ("K/1 atau kawin dengan 1 tanggungan, lalu TK/0", (("K", 1), ("TK", 0))),
        # "kawin" without the number of dependants names no status; nor does an amount
        ("tambahan untuk Wajib Pajak yang kawin berapa?", ()),
        ("kawin dengan 2,5 juta gaji", ()),
        ("tidak kawin 4 anak", ()),
    ],
)
def test_a_status_written_in_words(text: str, statuses: tuple[tuple[str, int], ...]) -> None:
    """Staff write the status in words as often as by code; the items it takes are read the same way."""
    assert statuses_named(text) == statuses


def test_a_rate_asked_for_a_status_is_no_ptkp_question() -> None:
    assert asks_ptkp("Berapa PTKP untuk status K/2?")
    assert not asks_ptkp("Status K/2, tarif PPh 21 bulanannya berapa?")
    assert not asks_ptkp("PTKP K/2 masuk TER kategori berapa persen?")


def test_the_ptkp_of_a_status_lists_every_item_it_takes(services: Any) -> None:
    answer = anonymous_answer(services, "Berapa PTKP untuk status K/2?", as_of=dt.date(2026, 12, 1))
    assert answer.status == "answered"
    line = answer.answer
    assert line.startswith(
        "Menurut UU 7/2021, Penghasilan Tidak Kena Pajak-nya terdiri atas: Rp54.000.000,00"
    )
    assert "untuk diri Wajib Pajak orang pribadi [1]" in line
    assert "tambahan untuk Wajib Pajak yang kawin [2]" in line
    assert "tambahan untuk setiap anggota keluarga sedarah" in line and line.endswith("[3].")
    quotes = [c.quote for c in answer.claims[:3]]
    assert quotes[0].startswith("a. ") and quotes[1].startswith("b. ") and quotes[2].startswith("d. ")
    # the wife whose income is joined (item c) is no part of a status code
    assert not any("seorang isteri" in q for q in quotes)


def test_a_status_taking_one_item_reads_as_before(services: Any) -> None:
    answer = anonymous_answer(services, "PTKP TK/0 berapa?", as_of=dt.date(2026, 12, 1))
    assert answer.answer.startswith("Menurut UU 7/2021, jumlahnya Rp54.000.000,00")
    assert "terdiri atas" not in answer.answer


def test_the_ptkp_of_a_status_in_words_lists_every_item_it_takes(services: Any) -> None:
    """Session 67: "kawin dengan 2 tanggungan" read no status, and one item (b) was answered as the PTKP."""
    answer = anonymous_answer(
        services, "Berapa PTKP untuk Wajib Pajak kawin dengan 2 tanggungan?", as_of=dt.date(2026, 12, 1)
    )
    assert answer.answer.startswith("Menurut UU 7/2021, Penghasilan Tidak Kena Pajak-nya terdiri atas: ")
    quotes = [c.quote for c in answer.claims[:3]]
    assert sorted(q[:2] for q in quotes) == ["a.", "b.", "d."]


def test_an_english_ptkp_question_is_led_by_the_ptkp_not_a_ter_category(services: Any) -> None:
    """PP 58/2023 Pasal 2 ayat (4) writes "kawin dengan jumlah tanggungan sebanyak 3 (tiga) orang" out under
    TER category C and states no PTKP; it led the English question (session 67)."""
    answer = anonymous_answer(services, "What is the PTKP for status K/3?", as_of=dt.date(2026, 12, 1))
    assert answer.claims[0].source.doc_id == "uu-7-2021"
    assert answer.answer.startswith("Under UU 7/2021, the non-taxable income (PTKP) is made of: ")
    assert not any(c.source.doc_id == "pp-58-2023" for c in answer.claims[:3])
