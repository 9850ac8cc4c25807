""" "Kapan X menjadi / dianggap Y?", "When is X considered Y?" ask the condition of a status, not a time.

Probes of our own (session 69): "Kapan seseorang menjadi subjek pajak dalam negeri?" was answered "batas
waktunya 183 (seratus delapan puluh tiga) hari tidaklah harus berturut-turut" from an elucidation, "When is
a foreigner considered an Indonesian tax resident?" with PP 55/2022's four-year window, and "Kapan suatu
usaha dianggap bentuk usaha tetap?" with UU 10/1994's head-office costs of a permanent establishment. Each
asks the definition of the status (UU PPh Pasal 2 ayat (3), ayat (5)). The status verb is the frame of the
ask, not a word the rule must contain; "suatu" (a, a certain) is a function word. Also here: a definition
numbered past 99 ("139. Kontraktor ...") is read without its number, and "dalam negeri" is not mentioned by
"luar negeri"."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from bot.answer.extractive import asked_fact, split_units
from kb.lexical import coverage, question_concepts
from kb.query import asks_definition, defined_term, understand
from tests.answer.chunk_sample import anonymous_answer

AS_OF = dt.date(2026, 12, 1)


@pytest.mark.parametrize(
    ("question", "term"),
    [
        ("Kapan seseorang menjadi subjek pajak dalam negeri?", "subjek pajak dalam negeri"),
        ("kapan WNA dianggap subjek pajak dalam negeri?", "subjek pajak dalam negeri"),
        ("Kapan sebuah usaha termasuk bentuk usaha tetap?", "bentuk usaha tetap"),
        ("When does a company count as a permanent establishment?", "a permanent establishment"),
        ("When is a foreign worker considered a resident taxpayer?", "a resident taxpayer"),
    ],
)
def test_when_something_counts_as_a_status_asks_its_definition(question: str, term: str) -> None:
    assert asked_fact(question) != "deadline"
    assert asks_definition(question)
    assert defined_term(question) in (term, term.removeprefix("a "))


@pytest.mark.parametrize(
    "question",
    [
        "Kapan PPh 21 harus disetor?",
        "Kapan batas lapor SPT Masa PPN?",
        "When is the annual return due?",
        "When do we have to issue the tax invoice?",
        # a word of a moment after the verb asks a time, no status
        "Kapan PPN jadi terutang kalau invoice dibayar di muka?",
        "When does the withholding tax become payable?",
    ],
)
def test_a_time_asked_stays_a_deadline(question: str) -> None:
    assert asked_fact(question) == "deadline"


def test_the_status_verb_is_no_topic_but_the_subject_is() -> None:
    plan = understand("Kapan WNA dianggap subjek pajak dalam negeri?")
    words = {w for concept in question_concepts(plan, plan.text) for phrase in concept for w in phrase}
    assert "dianggap" not in words and "anggap" not in words
    assert "wna" in words


def test_suatu_is_a_function_word() -> None:
    plan = understand("Kapan suatu usaha dianggap bentuk usaha tetap?")
    concepts = question_concepts(plan, plan.text)
    assert all(("suatu",) not in concept for concept in concepts)
    # the act's definition covers every concept of the question
    assert coverage(concepts, "(5) Bentuk usaha tetap adalah bentuk usaha yang dipergunakan ...") == 1.0


def test_domestic_is_not_mentioned_by_abroad() -> None:
    plan = understand("Siapa wajib pajak dalam negeri?")
    concepts = question_concepts(plan, plan.text)
    assert coverage(concepts, "Wajib Pajak Luar Negeri adalah subjek pajak luar negeri ...") == 0.0
    assert coverage(concepts, "Wajib Pajak dalam negeri adalah subjek pajak dalam negeri ...") == 1.0
    plan = understand("Dividen dari perusahaan dalam negeri kena pajak?")
    concepts = question_concepts(plan, plan.text)
    domestic = [c for c in concepts if any("negeri" in phrase for phrase in c)]
    assert domestic and all(("negeri",) not in c for c in domestic)


def test_a_definition_numbered_past_99_is_read_without_its_number() -> None:
    text = "139. Kontraktor adalah badan usaha atau bentuk usaha tetap\nyang ditetapkan untuk eksplorasi."
    (unit,) = split_units(text)
    assert unit.text.startswith("Kontraktor adalah badan usaha")


@pytest.mark.parametrize(
    ("question", "lead_ends", "quoted"),
    [
        (
            "Kapan seseorang menjadi subjek pajak dalam negeri?",
            "/pasal-2/ayat-3",
            "Subjek pajak dalam negeri adalah",
        ),
        (
            "Kapan WNA dianggap subjek pajak dalam negeri?",
            "/pasal-2/ayat-3",
            "Subjek pajak dalam negeri adalah",
        ),
        (
            "When is a foreigner considered an Indonesian tax resident?",
            "/pasal-2/ayat-3",
            "Subjek pajak dalam negeri adalah",
        ),
        ("Kapan suatu usaha dianggap bentuk usaha tetap?", "/pasal-2/ayat-5", "Bentuk usaha tetap adalah"),
        (
            "When does a company count as a permanent establishment?",
            "/pasal-2/ayat-5",
            "Bentuk usaha tetap adalah",
        ),
    ],
)
def test_the_status_is_answered_by_its_definition(
    services: Any, question: str, lead_ends: str, quoted: str
) -> None:
    answer = anonymous_answer(services, question, as_of=AS_OF)
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert lead.source.doc_id == "uu-6-2023"
    assert lead.source.chunk_id.endswith(lead_ends)
    assert quoted in lead.text  # the definition's opening, read with the item quoted
