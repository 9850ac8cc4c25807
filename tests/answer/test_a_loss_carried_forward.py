"""A tax loss "carried forward" is one "dikompensasikan" (UU PPh Pasal 6 ayat (2)), and a bound on a period
("sampai dengan 5 (lima) tahun") marks a rule as "paling lama" does.

"Is a tax loss carried forward?" had only "loss" to search and was escalated (0.12) with a state's loss;
once "carried forward" searched the act's verb, PP 94/2010 Pasal 28 ("Sisa rugi fiskal ... dapat
dikompensasikan", after a change of book year) led on its rule cue, while UU PPh Pasal 6 ayat (2) states its
rule without a modal: "kerugian tersebut dikompensasikan dengan penghasilan mulai tahun pajak berikutnya
berturut-turut sampai dengan 5 (lima) tahun".  Session 63; the questions are our own."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from bot.answer.extractive import CUE
from kb.query import understand
from tests.answer.chunk_sample import anonymous_answer

LOSS_RULE = (
    "(2) Apabila penghasilan bruto setelah pengurangan sebagaimana dimaksud pada ayat (1) didapat kerugian, "
    "kerugian tersebut dikompensasikan dengan penghasilan mulai tahun pajak berikutnya berturut-turut sampai "
    "dengan 5 (lima) tahun."
)


def test_a_bounded_period_is_a_rule_cue() -> None:
    assert CUE.search(LOSS_RULE)
    assert not CUE.search("Penghasilan itu diterima sampai dengan akhir tahun buku.")


@pytest.mark.parametrize(
    "question", ["Is a tax loss carried forward?", "Can we carry forward fiscal losses?"]
)
def test_carried_forward_searches_the_acts_verb(question: str) -> None:
    added = {a.lower() for e in understand(question).expansions for a in e.added}
    assert "dikompensasikan" in added


@pytest.mark.parametrize(
    "question",
    [
        "Is a tax loss carried forward?",
        "Apakah kerugian fiskal bisa dikompensasikan ke tahun berikutnya?",
        "How many years can a tax loss be carried forward?",
    ],
)
def test_the_loss_rule_of_uu_pph_leads(services: Any, question: str) -> None:
    answer = anonymous_answer(services, question, as_of=dt.date(2026, 12, 1))
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert lead.source.doc_id == "uu-7-2021"
    assert lead.source.location.startswith("Pasal 6 ayat (2) ")
    assert "kerugian tersebut dikompensasikan" in lead.quote
