"""The side of a bound a question is on picks the rule for that side.  "More than 183 days" was answered with
UU PPh Pasal 2 ayat (4) -- the non-resident's "tidak lebih dari 183 (seratus delapan puluh tiga) hari" --
because both ayat state the figure the question quotes; the resident's ayat (3) says "lebih dari".  The
messages are our own (session 41)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from bot.answer.extractive import bound_side, question_bounds
from bot.answer.pipeline import answer_question

RESIDENT = "berada di Indonesia lebih dari 183 (seratus delapan puluh tiga) hari dalam jangka waktu 12 bulan"
NON_RESIDENT = (
    "berada di Indonesia tidak lebih dari 183 (seratus delapan puluh tiga) hari dalam jangka waktu 12 bulan"
)


@pytest.mark.parametrize(
    ("question", "side"),
    [
        ("I have been in Indonesia more than 183 days this year", "above"),
        ("udah +183 hari di Indonesia, jadi WP dalam negeri?", "above"),
        ("omzet sudah lewat 4,8 M, masih boleh 0,5%?", "above"),
        ("expat di Indonesia kurang dari 183 hari kena PPh?", "below"),
        ("expat di Indonesia tidak lebih dari 183 hari kena PPh?", "up_to"),
    ],
)
def test_the_side_a_question_is_on(question: str, side: str) -> None:
    (bound,) = question_bounds(question)
    assert bound[1] == side


def test_the_rule_for_the_same_side_scores_and_the_other_side_is_penalised() -> None:
    above = question_bounds("stayed more than 183 days in Indonesia, am I resident?")
    assert bound_side(above, RESIDENT) == 1.0 and bound_side(above, NON_RESIDENT) == -1.0
    below = question_bounds("stayed less than 183 days in Indonesia, am I resident?")
    assert bound_side(below, RESIDENT) == -1.0 and bound_side(below, NON_RESIDENT) == 1.0
    # a figure the rule does not bound, or a question that bounds none, is no evidence either way
    assert bound_side(above, "jangka waktu 183 (seratus delapan puluh tiga) hari") == 0.0
    assert bound_side(question_bounds("apa syarat WP dalam negeri 183 hari?"), RESIDENT) == 0.0


def test_more_than_183_days_is_answered_with_the_residents_rule(services: Any) -> None:
    answer = answer_question(
        "I have been working in Jakarta for more than 183 days within 12 months. Am I an Indonesian tax "
        "resident now?",
        services.cli_principal(None),
        services,
        as_of=dt.date(2026, 6, 1),
    )
    assert answer.claims, answer.answer
    lead = answer.claims[0].quote
    assert "lebih dari 183" in lead and "tidak lebih dari 183" not in lead
