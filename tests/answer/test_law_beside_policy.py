"""What the law says leads; a company document is how the company applies it.  When a company document
states a rate that the law in the knowledge base states differently for the same subject, the law's provision
is found (asked in the law's own words) and leads, and the conflict is said."""

from __future__ import annotations

import datetime as dt
from typing import Any

from bot.answer import conflicts
from bot.answer.model import Answer
from bot.answer.pipeline import answer_question

AP = "ap.clerk@sinarnusantara.co.id"


def ask(services: Any, question: str, as_of: dt.date = dt.date(2026, 12, 2)) -> Answer:
    """The question asked by an AP clerk (who reads the company documents) on ``as_of``."""
    return answer_question(question, services.cli_principal(AP), services, as_of=as_of)


def test_a_company_rate_is_put_to_the_law_in_the_laws_words(services: Any) -> None:
    docs = services.retriever.documents()
    answer = ask(
        services,
        "Berapa tarif PPh 23 untuk servis AC oleh CV yang dibayar lewat kas kecil?",
    )
    petty = "petty-cash-vendor-payments"
    sop = next(c for c in answer.claims if c.source.doc_id == petty and "4%" in c.quote)
    assert conflicts.rate_questions(sop, docs[sop.source.doc_id]) == ["Berapa tarif PPh 23 atas jasa?"]


def test_the_petty_cash_rate_is_not_confirmed_against_the_law(services: Any) -> None:
    answer = ask(
        services,
        "kasir kas kecil potong pph23 4% utk servis AC dr CV yg ada NPWP krn prosedur kas kecil, bener ga?",
    )
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert lead.source.doc_id == "uu-36-2008" and lead.source.location.startswith("Pasal 23 ayat (1)")
    assert "2% (dua persen)" in lead.quote and "jasa" in lead.quote
    assert any(c.source.doc_id == "petty-cash-vendor-payments" for c in answer.claims[1:])
    (conflict,) = [c for c in answer.conflicts if c.decided_by == "regulation_over_policy"]
    assert conflict.preferred == "uu-36-2008"
    assert {s.doc_id for s in conflict.sources} == {"uu-36-2008", "petty-cash-vendor-payments"}
    assert "4%" in answer.answer and "UU 36/2008" in answer.answer
    assert answer.answer.startswith("Menurut UU 36/2008, tarifnya 2%")


def test_a_payee_without_an_npwp_keeps_the_surcharge_rate(services: Any) -> None:
    # the law's general 2% is not the rate of a vendor without an NPWP (Pasal 23 ayat (1a): 100% higher)
    answer = ask(
        services,
        "vendor CV baru blm punya npwp, tagihan jasa maintenance genset. pph23 nya jd brp persen?",
    )
    assert not [c for c in answer.conflicts if c.decided_by == "regulation_over_policy"]
    assert "2%" not in answer.answer.split("[")[0] and "4%" in answer.answer


def test_a_company_rate_the_law_agrees_with_stays_the_answer(services: Any) -> None:
    # the 2024 matrix states the law's 2% for services: nothing conflicts, the company document still leads
    answer = ask(
        services,
        "Menurut matriks pemotongan 2024, tarif PPh 23 jasa konsultan berapa?",
        dt.date(2024, 6, 1),
    )
    assert answer.status == "answered"
    assert answer.claims[0].source.doc_id == "wht-matrix-2024" and "2%" in answer.claims[0].quote
    assert not answer.conflicts
