""" "What is a ...?" and "Who is a ...?" ask what a thing is, and the act's own "<term> adalah" answers them.

"What is a permanent establishment?" was read as asking nothing in particular, and PMK 112/2025's English
annex and its definition of a Wajib Pajak Luar Negeri (which names a permanent establishment in passing)
filled the candidates; UU PPh Pasal 2 ayat (5), "Bentuk usaha tetap adalah ...", ranked 20th.  "Who is a tax
resident in Indonesia?" was answered with PP 55/2022 Pasal 3, the four tax years an expatriate resident is
taxed on Indonesian income only (a carve-out of Pasal 2 for cases the question does not name), not with the
ayat defining the subjek pajak dalam negeri.  Session 62; the questions are our own.  "How much stamp duty
is due ...?" asks a sum, not a time: "due" after "how much" names what is owed."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from bot.answer.extractive import asked_fact, extends_to_unasked
from kb.query import asks_definition, defined_term
from tests.answer.chunk_sample import anonymous_answer

AS_OF = dt.date(2026, 12, 1)


@pytest.mark.parametrize(
    ("question", "term"),
    [
        ("What is a permanent establishment?", "permanent establishment"),
        ("Who is a tax resident in Indonesia?", "tax resident"),
        ("What is an e-Faktur?", "e-faktur"),
    ],
)
def test_an_article_after_what_is_asks_what_the_thing_is(question: str, term: str) -> None:
    assert asks_definition(question)
    assert defined_term(question) == term


@pytest.mark.parametrize(
    "question",
    ["What is the VAT rate?", "What is the deadline for the annual return?", "Who is liable for stamp duty?"],
)
def test_the_value_of_a_thing_is_no_definition(question: str) -> None:
    assert not asks_definition(question)


@pytest.mark.parametrize(
    ("question", "location", "words"),
    [
        ("What is a permanent establishment?", "Pasal 2 ayat (5)", "Bentuk usaha tetap adalah"),
        ("Who is a tax resident in Indonesia?", "Pasal 2 ayat (3)", "Subjek pajak dalam negeri adalah"),
    ],
)
def test_the_act_defining_the_term_leads(services: Any, question: str, location: str, words: str) -> None:
    answer = anonymous_answer(services, question, as_of=AS_OF)
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert lead.source.doc_id == "uu-6-2023"
    assert lead.source.location.startswith(location)
    assert words in answer.answer


def test_a_carve_out_for_cases_not_asked_is_no_lead() -> None:
    carve_out = (
        "(1a) Dikecualikan dari ketentuan sebagaimana dimaksud pada ayat (1), warga negara asing yang telah "
        "menjadi subjek pajak dalam negeri dikenai Pajak Penghasilan hanya atas penghasilan yang diterima"
    )
    assert extends_to_unasked("Who is a tax resident in Indonesia?", carve_out)
    assert not extends_to_unasked(
        "Apakah warga negara asing dikenai pajak atas penghasilan luar negeri?", carve_out
    )


@pytest.mark.parametrize(
    ("question", "fact"),
    [
        # the duty on a receipt is a "tarif tetap" (UU 10/2020 Pasal 5): a rate as the act words it
        ("How much stamp duty is due on a receipt above 5 million rupiah?", "rate"),
        ("How much is due for the late return?", "amount"),
        ("When is the VAT due?", "deadline"),
        ("How much is the fine, and when is it due?", "deadline"),
        ("Is PPh 23 due by the 15th?", "deadline"),
    ],
)
def test_due_after_how_much_names_the_sum(question: str, fact: str) -> None:
    assert asked_fact(question) == fact


def test_the_stamp_duty_due_on_a_receipt_is_its_fixed_amount(services: Any) -> None:
    answer = anonymous_answer(
        services, "How much stamp duty is due on a receipt above 5 million rupiah?", as_of=AS_OF
    )
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert (lead.source.doc_id, lead.source.location) == ("uu-10-2020", "Pasal 5")
    assert "Rp10.000,00" in lead.quote
