"""A question asking the sanction asks a rule of UU KUP, whatever tax it names.  "lupa potong PPh 23, ada
sanksinya?" was searched in UU PPh Pasal 23 (the Pasal it names), which sets the duty and no sanction;
UU KUP's sanction Pasal (lexicon ``law_topics.sanction_pasal``) now join its candidates.  The messages are
our own (session 42)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from kb.query import understand

KUP = "UU 6/1983"


def _hinted(question: str) -> list[str]:
    return [p.pasal for p in understand(question).provisions if p.law == KUP and p.origin == "tax_type"]


def test_a_sanction_question_brings_the_sanction_pasal_of_kup() -> None:
    plan = understand("lupa potong PPh pasal 23 atas sewa mobil, ada sanksinya?")
    assert _hinted(plan.text) == ["7", "8", "9", "13", "14"]
    # the Pasal the question writes out stays a written one
    first = plan.provisions[0]
    assert (first.pasal, first.law, first.origin) == ("23", "UU 7/1983", "text")
    assert _hinted("telat lapor SPT Masa PPN, dendanya berapa?") == ["7", "8", "9", "13", "14"]
    assert _hinted("PPh 21 telat disetor, kena bunga berapa?") == ["7", "8", "9", "13", "14"]


def test_interest_income_and_a_named_kup_pasal_bring_none() -> None:
    # "bunga" alone is the interest PPh 23 withholds on, not a sanction
    assert _hinted("bunga deposito kena PPh berapa persen?") == []
    # the asker chose the Pasal: the others do not join it
    plan = understand("sanksi Pasal 9 UU KUP berapa persen?")
    assert [(p.pasal, p.origin) for p in plan.provisions if p.law == KUP] == [("9", "text")]


def test_a_sanction_question_in_english_is_answered_from_kup(services: Any) -> None:
    from bot.answer.pipeline import answer_question

    answer = answer_question(
        "Is an individual fined for filing the annual return late?",
        services.cli_principal(None),
        services,
        as_of=dt.date(2025, 8, 1),
    )
    assert answer.status == "answered", answer.answer
    lead = answer.claims[0]
    assert lead.source.location.startswith("Pasal 7 ayat (1) UU 6/1983"), lead.source.location
    assert "Surat Pemberitahuan tidak disampaikan" in lead.quote and "denda" in lead.quote


def test_the_sanction_for_a_named_tax_is_quoted_from_kup_not_from_the_taxs_law(services: Any) -> None:
    # UU KUP's sanctions name no tax; judged on "PPh 23" they all missed a concept, and UU PPh Pasal 28
    # ayat (2) ("Sanksi administrasi ... tidak boleh dikreditkan", a rule about tax credits) was the answer
    from bot.answer.pipeline import answer_question

    answer = answer_question(
        "apa sanksi kalau lupa potong PPh 23?",
        services.cli_principal(None),
        services,
        as_of=dt.date(2025, 8, 1),
    )
    assert answer.claims, answer.answer
    assert "UU 6/1983" in answer.claims[0].source.location, answer.claims[0].source.location
    assert "sanksi administratif berupa bunga" in answer.claims[0].quote
    assert not any("tidak boleh dikreditkan" in c.quote for c in answer.claims)
