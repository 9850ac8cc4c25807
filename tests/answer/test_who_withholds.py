"""A question asking who withholds ("Siapa yang wajib memotong PPh 21?") is answered by the rule naming the
withholder, which a withholding tax writes as a passive with its agent ("wajib dipotong ... oleh Pemberi
Kerja", "dipotong pajak oleh pihak yang wajib membayarkan"; lexicon ``passage_cues.names_liable``), and its
line states that rule, not "tarifnya 20%".  Before session 59 the PPh 21 question was answered with the
year-end computation of PMK 168/2023 and the PPh 26 one "tarifnya 20% dari jumlah bruto oleh pihak"."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from bot.answer.extractive import NAMES_LIABLE
from bot.answer.model import ShownClaim, SourceRef
from bot.answer.render import _fact_sentence
from tests.answer.chunk_sample import anonymous_answer

RATE_AND_WITHHOLDER = (
    "(1) Atas penghasilan tersebut di bawah ini yang dibayarkan kepada Wajib Pajak luar negeri selain "
    "bentuk usaha tetap di Indonesia dipotong pajak sebesar 20% (dua puluh persen) dari jumlah bruto oleh "
    "pihak yang wajib membayarkan: a. dividen;"
)


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("Bea Meterai terutang oleh pihak yang menerima Dokumen.", True),
        ("wajib dipotong Pajak Penghasilan Pasal 21 oleh Pemberi Kerja sesuai dengan ketentuan", True),
        ("dipotong pajak oleh pihak yang wajib membayarkan:", True),
        (RATE_AND_WITHHOLDER, True),
        # an agent that is no party, or no agent at all
        ("pajak yang dipotong oleh karena itu dapat dikreditkan", False),
        # a relative clause describing the tax lays no duty
        ("Penerimaan dari pajak yang dipotong oleh pemberi kerja dibagi.", False),
        ("dipotong pajak sebesar 15% (lima belas persen) dari jumlah bruto atas dividen", False),
    ],
)
def test_a_withholder_is_named_by_the_passive_and_its_agent(text: str, names: bool) -> None:
    assert bool(NAMES_LIABLE.search(text)) is names


def test_the_employer_is_named_as_the_pph21_withholder(services: Any) -> None:
    answer = anonymous_answer(services, "Siapa yang wajib memotong PPh 21?", as_of=dt.date(2026, 12, 1))
    assert answer.status == "answered"
    assert "oleh Pemberi Kerja" in answer.answer


def test_the_line_states_the_withholding_rule_not_its_rate() -> None:
    source = SourceRef(
        "uu-6-2023", "UU 6/2023", "Penetapan Perppu Cipta Kerja", "Pasal 26 ayat (1)", dt.date(2023, 3, 31),
        None, "in_force", None, False, "uu-6-2023#pasal-26/ayat-1",
    )  # fmt: skip
    claim = ShownClaim(RATE_AND_WITHHOLDER, RATE_AND_WITHHOLDER, "regulation", False, "entailed", source)
    line, rate = _fact_sentence(claim, 1, "id", None, "Siapa yang memotong PPh 26 atas dividen?")
    assert "tarifnya" not in line and rate is None
    # the same quote still reads as its rate when no withholder is asked
    line, rate = _fact_sentence(claim, 1, "id", None, "PPh 26 atas dividen gimana?")
    assert "tarifnya 20%" in line


def test_a_who_line_quotes_the_clause_naming_the_withholder() -> None:
    # UU PPh Pasal 23 ayat (1): the quote is a rate item, its lead-in names who withholds
    lead_in = (
        "(1) Atas penghasilan tersebut di bawah ini dengan nama dan dalam bentuk apa pun yang dibayarkan "
        "oleh badan pemerintah, subjek pajak badan dalam negeri, penyelenggara kegiatan, bentuk usaha "
        "tetap, atau perwakilan perusahaan luar negeri lainnya kepada Wajib Pajak dalam negeri atau bentuk "
        "usaha tetap, dipotong pajak oleh pihak yang wajib membayarkan:"
    )
    quote = "a. sebesar 15% (lima belas persen) dari jumlah bruto atas: 1. dividen;"
    source = SourceRef(
        "uu-36-2008", "UU 36/2008", "Pajak Penghasilan", "Pasal 23 ayat (1)", dt.date(2009, 1, 1), None,
        "amended", None, False, "uu-36-2008#pasal-23/ayat-1",
    )  # fmt: skip
    claim = ShownClaim(f"{lead_in} {quote}", quote, "regulation", False, "entailed", source)
    line, _ = _fact_sentence(claim, 1, "id", None, "Siapa yang wajib memotong PPh 23?")
    assert line.endswith("dipotong pajak oleh pihak yang wajib membayarkan [1].")
    assert "subjek pajak badan dalam negeri" in line and "15%" not in line
