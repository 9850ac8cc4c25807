""" "Siapa yang dianggap / tergolong X?" asks who counts as X, as "siapa yang termasuk X?" does.

"Siapa yang dianggap subjek pajak dalam negeri?" was led by UU PPh's elucidation on an undivided estate
("dianggap sebagai subjek pajak dalam negeri"), which repeats the question's verb; the question asks the
definition, UU PPh Pasal 2 ayat (3) ("Subjek pajak dalam negeri adalah: ..."). Session 68; the questions are
our own."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from kb.query import asks_definition
from tests.answer.chunk_sample import anonymous_answer

AS_OF = dt.date(2026, 12, 1)


@pytest.mark.parametrize(
    "question",
    [
        "Siapa yang dianggap subjek pajak dalam negeri?",
        "Siapa saja yang tergolong pegawai tetap?",
        "siapa yg digolongkan bukan pegawai?",
        "Apa yang disebut bentuk usaha tetap?",
    ],
)
def test_who_counts_as_a_term_asks_its_definition(question: str) -> None:
    assert asks_definition(question)


@pytest.mark.parametrize(
    "question", ["Apa saja yang termasuk objek pajak?", "Apakah biaya ini dianggap pengurang penghasilan?"]
)
def test_what_is_included_stays_a_question_of_the_rule(question: str) -> None:
    assert not asks_definition(question)


def test_who_is_considered_a_resident_is_answered_by_the_definition(services: Any) -> None:
    answer = anonymous_answer(services, "Siapa yang dianggap subjek pajak dalam negeri?", as_of=AS_OF)
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert lead.source.chunk_id.endswith("/pasal-2/ayat-3")
    assert "bertempat tinggal di Indonesia" in lead.quote
