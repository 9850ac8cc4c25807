"""A question asking since when a rule applies is told when it takes effect, not given "a deadline".

"PPN 12% itu berlaku mulai kapan sih?" was answered "Menurut UU 7/2021, batas waktunya paling lambat pada
tanggal 1 Januari2025": the quote is right (UU PPN Pasal 7 ayat (1) huruf b: "12% yang mulai berlaku paling
lambat pada tanggal 1 Januari 2025"), the line read it as a time limit to keep.  Session 63; the questions are
our own."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from kb import lexicon
from tests.answer.chunk_sample import anonymous_answer

AS_OF = dt.date(2026, 12, 1)


@pytest.mark.parametrize(
    "question",
    ["PPN 12% berlaku mulai kapan?", "Sejak kapan tarif ini berlaku?", "When does the new rate take effect?"],
)
def test_since_when_is_a_commencement_question(question: str) -> None:
    assert lexicon.question_kind("asks_commencement").search(lexicon.plain_question(question))


@pytest.mark.parametrize("question", ["Kapan batas lapor SPT Tahunan badan?", "When is the VAT return due?"])
def test_a_deadline_question_is_none(question: str) -> None:
    assert not lexicon.question_kind("asks_commencement").search(lexicon.plain_question(question))


def test_the_12_percent_rate_is_told_when_it_takes_effect(services: Any) -> None:
    answer = anonymous_answer(services, "PPN 12% itu berlaku mulai kapan sih?", as_of=AS_OF)
    assert answer.status == "answered"
    first = answer.answer.split("\n")[0]
    assert "mulai berlakunya paling lambat pada tanggal 1 Januari" in first
    assert "batas waktunya" not in first


def test_an_english_question_with_a_rate_too_says_it_takes_effect(services: Any) -> None:
    answer = anonymous_answer(services, "When does the 12% VAT rate take effect?", as_of=AS_OF)
    assert 'it takes effect "paling lambat pada tanggal 1 Januari' in answer.answer
    assert "the deadline is" not in answer.answer
