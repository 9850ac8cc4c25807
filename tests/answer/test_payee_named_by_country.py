"""A payee named by its country is a payee abroad, and a "management fee" is one topic.

"Kami bayar management fee ke induk perusahaan di Jepang, dipotong PPh 26 berapa?" was declined "no source":
its topic words were "management", "fee", "induk" and "Jepang", and no passage wrote any of them, so UU PPh
Pasal 26 ayat (1) (20% of the gross paid to a Wajib Pajak luar negeri) fell under the relevance floor.  A
country names what the acts call "luar negeri"; "management fee" is the fee for jasa manajemen.  Session
61; the questions are our own."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from kb.lexical import question_concepts, stem
from kb.query import understand
from tests.answer.chunk_sample import anonymous_answer


@pytest.mark.parametrize("country", ["Jepang", "Singapura", "Jerman"])
def test_a_country_is_covered_by_luar_negeri(country: str) -> None:
    plan = understand(f"Kami bayar jasa ke perusahaan di {country}, potong pajak apa?")
    word = stem(country.lower())
    concept = next(c for c in question_concepts(plan) if (word,) in c)
    assert (stem("luar"), stem("negeri")) in concept


def test_a_town_is_no_payee_abroad() -> None:
    plan = understand("Kami bayar jasa ke perusahaan di Surabaya, potong pajak apa?")
    concept = next(c for c in question_concepts(plan) if (stem("surabaya"),) in c)
    assert concept == frozenset({(stem("surabaya"),)})


def test_management_fee_is_one_topic_of_management_services() -> None:
    plan = understand("Berapa PPh atas management fee?")
    assert any(
        exp.term.lower() == "management fee" and "jasa manajemen" in exp.added for exp in plan.expansions
    )


def test_a_management_fee_paid_to_a_parent_abroad_is_answered_with_pph_26(services: Any) -> None:
    answer = anonymous_answer(
        services,
        "Kami bayar management fee ke induk perusahaan di Jepang, dipotong PPh 26 berapa?",
        as_of=dt.date(2026, 12, 1),
    )
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert lead.source.location.startswith("Pasal 26 ayat (1)")
    assert "20%" in lead.quote and "luar negeri" in lead.quote
