"""A lottery prize's rate is set by its own rule, which the knowledge base does not hold.

A lottery prize is income taxed finally under UU PPh Pasal 4 ayat (2) huruf b at the rate its own regulation
sets; no act of the corpus states it.  "PPh final atas hadiah undian dipotong berapa persen?" (a probe of our
own) was told PPh 23's 15% on "hadiah, penghargaan" (session 51); it is now declined with why, like the rent
of land and buildings and construction (pipeline step 7b).  Whether a lottery prize is taxed at all is still
answered from Pasal 4 ayat (2).
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.answer.extractive import unstated_object_rate
from tests.answer.chunk_sample import anonymous_answer

#: the shape of UU PPh Pasal 23 ayat (1) huruf a (own words, shortened)
PPH23_PRIZES = "a. sebesar 15% (lima belas persen) dari jumlah bruto atas: 2. hadiah dan penghargaan;"


def test_the_prize_rate_is_unstated_by_another_objects_rate() -> None:
    question = "PPh final atas hadiah undian dipotong berapa persen?"
    assert unstated_object_rate(question, PPH23_PRIZES) == "lottery_prize"
    assert unstated_object_rate(question, "hadiah undian dikenai PPh final 25% dari jumlah bruto") is None


@pytest.mark.parametrize(
    ("question", "label"),
    [
        ("PPh final atas hadiah undian dipotong berapa persen?", "hadiah undian"),
        ("What is the tax rate on lottery prizes?", "lottery prizes"),
    ],
)
def test_a_prize_rate_question_is_declined_with_why(services: Any, question: str, label: str) -> None:
    answer = anonymous_answer(services, question)
    assert answer.status == "abstained"
    assert label in answer.answer
    assert "15%" not in answer.answer


def test_whether_a_prize_is_taxed_is_still_answered(services: Any) -> None:
    answer = anonymous_answer(services, "hadiah undian kena pajak?")
    assert answer.status == "answered"
    assert "hadiah undian" in answer.claims[0].quote
