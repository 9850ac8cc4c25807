"""When no passage names what a question asks about, dasar declines, even if a provision shares a word or two
of the question ("rekening bank", the company's own codes).  Words of the case told around an ask ("vendor
kami", "minggu lalu", a company's name) are no part of what is asked: such questions are still answered."""

from __future__ import annotations

from typing import Any

import pytest

from bot.answer.pipeline import answer_question
from kb import lexical

DIRECTOR = "president.director@sinarnusantara.co.id"


def _ask(services: Any, question: str, user: str | None = None) -> Any:
    return answer_question(question, services.cli_principal(user), services)


@pytest.mark.parametrize(
    ("question", "user"),
    [
        # bookkeeping and banking, not tax: UU PPN's elucidation and PP 55/2022 mention banks and accounts
        ("Bagaimana rekonsiliasi saldo rekening bank di akhir bulan?", None),
        ("Apa syarat pembukaan rekening giro di bank untuk perusahaan?", None),
        # the NPWP/NITKU FAQ names SNR and SNL; it says nothing about an intercompany royalty
        ("What royalty percentage does SNL pay SNR for the brand?", DIRECTOR),
    ],
)
def test_a_question_sharing_only_a_word_or_the_company_names_declines(
    services: Any, question: str, user: str | None
) -> None:
    answer = _ask(services, question, user)
    assert answer.status == "abstained"
    assert answer.escalation is not None and answer.escalation.reason == "no_source"
    assert answer.claims == ()


@pytest.mark.parametrize(
    "question",
    [
        "Bagaimana sanksi telat lapor SPT Tahunan PPh badan? PT Cahaya Abadi baru sadar minggu lalu.",
        "What is the penalty for filing the annual income tax return late? Our vendor asked last week.",
    ],
)
def test_a_chatty_question_is_still_answered_by_the_provision(services: Any, question: str) -> None:
    answer = _ask(services, question)
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert lead.source.doc_id == "uu-28-2007"
    assert lead.source.location.startswith("Pasal 7 ayat (1)")


def test_the_focus_is_the_thing_after_the_interrogative() -> None:
    assert lexical.focus_word("Bagaimana rekonsiliasi saldo rekening bank?") == "rekonsiliasi"
    assert lexical.focus_word("Pak, bagaimana cara menghitung denda telat setor?") == "denda"
    assert lexical.focus_word("What royalty percentage does SNL pay?", frozenset({"SNL"})) == "royalty"
    # a party of the case, the company's code, "berapa" (a quantity in the law's own words), a noun before
    # "apa", "apa yang ..." and a message of several asks name no focus
    assert lexical.focus_word("Gimana vendor kami yang belum PKP?") is None
    assert lexical.focus_word("What does SNL need?", frozenset({"SNL"})) is None
    assert lexical.focus_word("Berapa tarif maksimum PPh dividen?") is None
    assert lexical.focus_word("Dokumen apa yang harus disimpan?") is None
    assert lexical.focus_word("Apa yang harus disiapkan?") is None
    assert lexical.focus_word("Apakah boleh dikreditkan? Bagaimana pembetulannya?") is None
