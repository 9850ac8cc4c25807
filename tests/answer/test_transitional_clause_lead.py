"""A transitional provision does not lead a question about the rule itself (session 50).

"Pada saat Peraturan Pemerintah ini mulai berlaku, atas: a. ... b. Penyerahan Jasa Kena Pajak tertentu ...
berlaku ketentuan sebagaimana dimaksud dalam Pasal 31" settles the cases caught between an old rule and a
new one; it shares a question's words ("penyerahan jasa", "terutang") and states no rule on them. PP 49/2022
Pasal 35 led a question asking when VAT on a service falls due, over UU PPN Pasal 11. It may lead a question
asking whether or since when a rule holds. Acts and messages are our own.
"""

from __future__ import annotations

from typing import Any

from bot.answer.extractive import transitional_clause
from kb.model import DocumentMeta, Hit
from tests.answer.chunk_sample import anonymous_answer, lead_chunk_id, sample_chunk

DOC = DocumentMeta(id="pp-99-2030", title="Peraturan Pemerintah Uji", number="PP 99/2030", type="PP")

TRANSITION = (
    "Pasal 40\nPada saat Peraturan Pemerintah ini mulai berlaku, atas penyerahan jasa uji yang pajaknya "
    "telah terutang sebelum tanggal 1 Januari 2031, berlaku ketentuan sebagaimana dimaksud dalam Pasal 12."
)
RULE = "(1) Pajak atas penyerahan jasa uji terutang pada saat jasa uji diserahkan."


def _hits() -> tuple[Hit, ...]:
    transition = sample_chunk(
        DOC.id, "pasal-40", TRANSITION, location="Pasal 40", seq=90, kind="pasal", pasal="40"
    )  # fmt: skip
    rule = sample_chunk(
        DOC.id, "pasal-11/ayat-1", RULE, location="Pasal 11 ayat (1)", seq=20, pasal="11", ayat="1"
    )
    # the transitional clause ranks first, as it did from the search
    return (Hit(transition, DOC, 0.9, ("bm25",)), Hit(rule, DOC, 0.8, ("bm25",)))


def _lead(question: str) -> str:
    return lead_chunk_id(question, _hits())


def test_the_rule_leads_a_question_about_when_the_tax_falls_due() -> None:
    assert _lead("Pajak atas penyerahan jasa uji terutang kapan?") == "pp-99-2030#pasal-11/ayat-1"


def test_the_transitional_clause_is_one_unless_the_question_asks_whether_a_rule_holds() -> None:
    transition, rule = _hits()
    assert transitional_clause(transition, "Pajak atas penyerahan jasa uji terutang kapan?")
    assert not transitional_clause(rule, "Pajak atas penyerahan jasa uji terutang kapan?")
    assert not transitional_clause(transition, "Ketentuan pajak jasa uji yang lama masih berlaku?")


def test_vat_on_a_service_falls_due_by_uu_ppn_pasal_11(services: Any) -> None:
    answer = anonymous_answer(services, "PPN terutang saat kapan untuk penyerahan jasa?")
    assert answer.status == "answered"
    assert answer.claims[0].source.chunk_id == "uu-42-2009#pasal-I/angka-12/pasal-11"
    assert any(c.quote == "c. penyerahan Jasa Kena Pajak;" for c in answer.claims)
