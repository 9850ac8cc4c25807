"""A permission is a rule, and the chat's "pengurang" is the acts' "dapat dikurangkan".

"Zakat bisa jadi pengurang penghasilan bruto?" was answered with PMK 168/2023 Pasal 11 ayat (2), the pension
cost of 5% of gross income, not PMK 114/2025 Pasal 9 ("Zakat ... dapat dikurangkan dari penghasilan
bruto"): the acts write the chat's "pengurang" as "dapat dikurangkan", which covered no topic of the question,
and a permission ("diperbolehkan", "dapat dikurangkan") was no rule cue while "ditetapkan sebesar" was.
Session 62; the questions are our own."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from bot.answer.extractive import CUE
from kb.lexical import coverage, question_concepts
from kb.query import understand
from tests.answer.chunk_sample import anonymous_answer


@pytest.mark.parametrize(
    "text",
    [
        "Pengurangan yang diperbolehkan bagi Pensiunan, yaitu:",
        "Zakat atau sumbangan keagamaan dapat dikurangkan dari penghasilan bruto",
    ],
)
def test_a_permission_is_a_rule_cue(text: str) -> None:
    assert CUE.search(text)


def test_a_nature_is_still_no_duty() -> None:
    assert not CUE.search("b. zakat atau sumbangan keagamaan yang sifatnya wajib bagi pemeluk agama")


def test_the_chat_word_for_deductible_covers_the_acts_words() -> None:
    question = "Zakat bisa jadi pengurang penghasilan bruto?"
    concepts = question_concepts(understand(question), question, keep_named_refs=True, focus_ask=True)
    rule = "Zakat atau sumbangan keagamaan dapat dikurangkan dari penghasilan bruto bagi Wajib Pajak pemberi"
    assert coverage(concepts, rule) == 1.0


def test_zakat_deductibility_is_answered_with_the_zakat_rule(services: Any) -> None:
    answer = anonymous_answer(
        services, "Zakat bisa jadi pengurang penghasilan bruto?", as_of=dt.date(2026, 12, 1)
    )
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert lead.source.doc_id == "pmk-114-2025"
    assert lead.source.location.startswith("Pasal 9")
    assert "Zakat atau sumbangan keagamaan dapat dikurangkan dari penghasilan bruto" in answer.answer
