"""A payee abroad is taxed under PPh 26: a withholding question that names the payee's country (and not the
tax) is searched for PPh 26 too, so the domestic PPh 23 rate does not answer it."""

from __future__ import annotations

import datetime as dt
from typing import Any

from bot.answer.pipeline import _foreign_payee_search, answer_question
from kb.query import understand

AP = "ap.clerk@sinarnusantara.co.id"


def test_a_company_abroad_named_by_country_gets_the_pph_26_rate(services: Any) -> None:
    answer = answer_question(
        "Kami bayar fee jasa konsultan ke perusahaan Jepang, potong pph nya berapa persen?",
        services.cli_principal(AP),
        services,
        as_of=dt.date(2026, 12, 2),
    )
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert "20%" in lead.quote and "2% (dua persen)" not in lead.quote
    assert "20%" in answer.answer.split("\n")[0] and " 2% " not in answer.answer.split("\n")[0]
    assert any("PPh Pasal 26" in w for w in answer.warnings)


def test_only_withholding_questions_without_another_tax_are_searched_for_pph_26() -> None:
    def search(question: str) -> str | None:
        return _foreign_payee_search(question, understand(question))

    assert search("vendor Singapura, pph nya dipotong berapa?") is not None
    assert search("Tarif PPh 23 untuk vendor di Jerman?") is not None  # PPh 23 is for payees in Indonesia
    assert search("PPN atas jasa dari luar negeri berapa?") is None  # VAT on a foreign service: its own rule
    assert search("Tarif PPh 26 untuk vendor Jerman?") is None  # named already
    assert search("tarif pph 23 jasa teknik vendor lokal?") is None  # no payee abroad
    assert search("vendor US minta invoice dikirim kapan?") is None  # not about withholding
    assert search("Syarat vendor luar negeri pakai tarif tax treaty?") is None  # a treaty question already


def test_an_english_question_is_searched_in_english_words() -> None:
    question = "How much withholding tax on fees paid to the Singapore vendor?"
    found = _foreign_payee_search(question, understand(question))
    assert found is not None and found.endswith("(PPh Article 26 withholding on a non-resident)")
