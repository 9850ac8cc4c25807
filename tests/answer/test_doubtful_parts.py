"""A part escalated for low confidence does not show a passage that mentions nothing it asks.

A message's part answered at low confidence showed its lead with a doubt ("Keyakinan rendah ... Menurut PP
50/2022: ..."), even when the passage shared no word with the part (a registration rule for "has the tax law
become territorial?"). Such a part now says that no source answers it, naming the words its nearest source
lacks, and stays escalated: the message's ticket carries what the search found.  A numbered part's label
("Question 1 :") is numbering, not a word the part asks.  Questions are our own, written against the sample
corpus (never taken from an eval set).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from typing import Any

import pytest

from bot.answer.model import Answer, Escalation
from bot.answer.parts import _concept_words, _part_label, unaddressed
from bot.answer.pipeline import answer_question, known_acts
from kb.lexical import question_concepts
from kb.query import understand

OWN = "apakah petugas imigrasi menghitung kunjungan kita di bandara?"


@pytest.fixture(scope="module")
def rate_answer(services: Any) -> Answer:
    answer = answer_question(
        "Berapa tarif PPh Pasal 23 atas jasa teknik?",
        services.cli_principal(None),
        services,
        as_of=dt.date(2026, 6, 1),
    )
    assert answer.status == "answered" and answer.claims
    return answer


def test_a_doubtful_part_whose_lead_mentions_nothing_it_asks_shows_no_passage(
    services: Any, rate_answer: Answer
) -> None:
    doubtful = dataclasses.replace(rate_answer, status="escalated", escalation=Escalation("low_confidence"))
    got = unaddressed(OWN, OWN, doubtful, services.aliases, known_acts(services), "id")
    assert got.status == "escalated" and got.escalation is not None
    assert got.escalation.reason == "low_confidence"  # still with the tax team
    assert got.claims == ()
    assert got.answer.startswith("Saya tidak menemukan sumber yang menjawab pertanyaan ini")
    assert '"imigrasi"' in got.answer and "UU 36/2008" in got.answer


def test_an_answered_part_is_declined_as_before(services: Any, rate_answer: Answer) -> None:
    got = unaddressed(OWN, OWN, rate_answer, services.aliases, known_acts(services), "id")
    assert got.status == "abstained" and got.escalation == Escalation("no_source") and got.claims == ()


def test_a_doubtful_part_whose_lead_addresses_it_keeps_its_passage(
    services: Any, rate_answer: Answer
) -> None:
    doubtful = dataclasses.replace(rate_answer, status="escalated", escalation=Escalation("low_confidence"))
    own = "berapa tarif pemotongan atas jasa teknik?"
    got = unaddressed(own, own, doubtful, services.aliases, known_acts(services), "id")
    assert got is doubtful


@pytest.mark.parametrize(
    ("part", "rest"),
    [
        ("Question 1 : Has the law changed?", "Has the law changed?"),
        ("Pertanyaan 2. Apakah wajib NPWP?", "Apakah wajib NPWP?"),
        ("Q3) Do I pay tax here?", "Do I pay tax here?"),
        ("Questions about PPh 23?", "Questions about PPh 23?"),  # no number: no label
    ],
)
def test_a_numbered_parts_label_is_not_its_words(part: str, rest: str) -> None:
    assert _part_label().sub("", part) == rest


def test_the_missing_word_named_is_a_content_word() -> None:
    # "tidak punya NPWP" is one concept (the reviewed alias of a payee without an NPWP, session 68): the word
    # named as missing is "npwp", not the negation the alias's phrases open with
    part = "trus kalau vendornya tidak punya NPWP gmn?"
    concepts = question_concepts(understand(part), part)
    words = _concept_words(
        part, concepts, "Pajak Pertambahan Nilai terutang atas penyerahan Barang Kena Pajak"
    )
    assert "npwp" in words
    assert "tidak" not in words and "gk" not in words
