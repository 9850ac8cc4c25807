"""English asks read by their grammar, and English parts judged on what an Indonesian act can mention.

- "when" asks a time only as an interrogative ("when is it due?", "when must we file"); the conjunction
  ("we withhold when we pay the invoice") and "due to" ask none: an answer line had called a residence test
  "the deadline".
- A part of an English message answered from an Indonesian act is checked like an Indonesian part
  (``bot.answer.parts.unaddressed``), on the words the lexicon also reads in Indonesian; a part asking only
  words no act writes ("Is it enforced strictly in practice?") says that no source answers it instead of
  showing a passage that shares no word with it.
- Several open parts are named in the plural.

Questions are our own, written against the sample corpus (never taken from an eval set).
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import pytest

from bot.answer.extractive import asked_fact
from bot.answer.parts import answer_message
from kb.lexicon import plain_question, question_kind
from kb.retrieve import _DEADLINE_Q

AS_OF = dt.date(2026, 6, 1)
RATE = "What is the PPh 23 rate for technical services?"
PRACTICE = "Is it enforced strictly in practice?"
LENIENT = "Will the auditors be lenient about this?"


@pytest.mark.parametrize(
    "question",
    [
        "When is the PPh 23 return due?",
        "when must we file the VAT return",
        "Do you know when to pay the stamp duty?",
        "By when is the withholding slip issued?",
        "What is the due date of the annual return?",
    ],
)
def test_an_interrogative_when_or_due_asks_a_deadline(question: str) -> None:
    plain = plain_question(question)
    assert asked_fact(plain) == "deadline"
    assert question_kind("when").search(plain)
    assert _DEADLINE_Q.search(plain)


@pytest.mark.parametrize(
    "question",
    [
        "We withhold the tax when we pay the invoice. Which form do we use?",
        "Our branch closed due to the merger; which rate applies to its last invoice?",
        "When we pay a vendor abroad, which documents are needed for the treaty rate?",
    ],
)
def test_when_as_a_conjunction_and_due_to_ask_no_deadline(question: str) -> None:
    plain = plain_question(question)
    assert asked_fact(plain) != "deadline"
    assert not question_kind("when").search(plain)
    assert not _DEADLINE_Q.search(plain)


@pytest.fixture(scope="module")
def answers(services: Any) -> dict[str, Any]:
    principal = services.cli_principal(None)
    return {
        "two": answer_message(f"{RATE} {PRACTICE}", principal, services, as_of=AS_OF),
        "three": answer_message(f"{RATE} {PRACTICE} {LENIENT}", principal, services, as_of=AS_OF),
    }


def test_an_english_part_no_act_can_mention_is_declined(answers: dict[str, Any]) -> None:
    answer = answers["two"]
    assert [p.question for p in answer.parts] == [RATE, PRACTICE]
    rate, practice = answer.parts
    assert rate.status == "answered"
    lead = answer.claims[rate.claim_numbers[0] - 1]
    assert lead.source.location.startswith("Pasal 23 ayat (1) UU 7/1983") and "2% (dua persen)" in lead.quote
    # the practice part: no passage of an act is shown for it, and the line names the words no act writes.
    # Its nearest passage is a weak match (PP 94/2010 on PPh 23; session 54: another act's "Pasal 23" no
    # longer names PPh 23), so the part is escalated rather than answered, and keeps that status
    assert practice.status == "escalated" and not practice.claim_numbers
    assert practice.line.startswith("I don't have a source that answers this question")
    assert '"enforced"' in practice.line and '"strictly"' in practice.line
    # an escalated part escalates the message; the open part is offered to the tax team
    assert answer.status == "escalated"
    assert any(w.startswith("Question 2 of the 2 in your message is not answered") for w in answer.warnings)


def test_several_open_parts_are_named_in_the_plural(answers: dict[str, Any]) -> None:
    answer = answers["three"]
    assert [p.status for p in answer.parts] == ["answered", "escalated", "escalated"]
    notes = [w for w in answer.warnings if "in your message" in w]
    assert len(notes) == 1
    assert re.match(
        r"Questions 2 and 3 of the 3 in your message are not answered .*; those parts can go", notes[0]
    )
