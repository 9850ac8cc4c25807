"""Whether an individual's income from abroad is taxed in Indonesia turns on residence (UU PPh Pasal 2
ayat (3) huruf a: residing, more than 183 days in 12 months, or intending to reside): asked about one's own
foreign wage without those facts, dasar asks for them instead of quoting a rule that may not apply."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from bot.answer.clarify import check
from bot.answer.pipeline import answer_question


@pytest.mark.parametrize(
    "question",
    [
        "My employer is in Singapore and I spend a week a month in Jakarta. Is my foreign salary taxed here?",
        "Saya kerja remote untuk perusahaan Jepang, apakah gaji dari luar negeri saya kena pajak di sini?",
        "Am I a resident taxpayer in Indonesia if I visit my wife in Bali a few days each month?",
    ],
)
def test_own_foreign_income_without_residence_facts_asks_back(question: str) -> None:
    result = check(question, has_date=False)
    assert result is not None and result.topic == "own_residence_for_foreign_income" and result.blocking
    asked = result.questions("en")[0]
    assert asked.slot == "residence" and "183 days" in asked.question


@pytest.mark.parametrize(
    "question",
    [
        # the facts are given: the rule for them is quoted
        "I have been in Indonesia for 200 days this year; is my overseas income taxed here?",
        "Saya sudah menetap di Bandung, apakah penghasilan dari luar negeri saya kena pajak?",
        "I intend to reside in Indonesia from this year; do I pay tax on my worldwide income?",
    ],
)
def test_residence_facts_given_are_not_asked_again(question: str) -> None:
    result = check(question, has_date=False)
    assert result is not None and result.topic == "own_residence_for_foreign_income"
    assert not result.blocking


@pytest.mark.parametrize(
    "question",
    [
        # about the rule, not the asker's own case
        "Apa yang dimaksud dengan subjek pajak dalam negeri?",
        "Berapa tarif PPh Pasal 26 atas dividen ke wajib pajak luar negeri?",
    ],
)
def test_questions_about_the_rule_are_not_asked_back(question: str) -> None:
    result = check(question, has_date=False)
    assert result is None or result.topic != "own_residence_for_foreign_income"


def test_the_pipeline_asks_about_residence(services: Any) -> None:
    question = (
        "I work for a Malaysian firm and stay in Batam ten days a month. Do I pay tax on my foreign wage?"
    )
    answer = answer_question(question, services.cli_principal(None), services, as_of=dt.date(2026, 6, 1))
    assert answer.status == "clarify"
    assert [q.slot for q in answer.clarifying_questions] == ["residence"]


def test_a_payee_abroad_is_not_the_askers_residence() -> None:
    # the company pays someone abroad: a withholding question, not one about the asker's own residence
    result = check("Saya mau bayar jasa ke wajib pajak luar negeri, potong PPh 26 berapa?", has_date=False)
    assert result is None or result.topic != "own_residence_for_foreign_income"


def test_a_message_asks_the_missing_fact_before_offering_a_ticket() -> None:
    import dataclasses

    from bot.answer.model import ClarifyingQuestion
    from bot.answer.parts import combine
    from tests.answer.multipart_sample import RATE, part_answer

    asked = ClarifyingQuestion("residence", "Do you reside in Indonesia?", ())
    clarify = dataclasses.replace(
        part_answer("clarify", "Do you reside in Indonesia?"), clarifying_questions=(asked,)
    )
    parts = ["What is worldwide income?", "Do I pay tax on my foreign wage?", "What is a resident?"]
    unsure = part_answer("escalated", "not certain", reason="low_confidence")
    msg = combine(parts, parts, [unsure, clarify, part_answer("answered", "[1]", (RATE,))], "en")
    assert msg.status == "clarify" and msg.escalation is None
    assert [q.slot for q in msg.clarifying_questions] == ["residence"]
    # advice still goes to the tax team first
    advice = part_answer("escalated", "scheme", reason="advice")
    msg = combine(parts, parts, [advice, clarify, part_answer("answered", "[1]", (RATE,))], "en")
    assert msg.status == "escalated" and msg.escalation is not None and msg.escalation.reason == "advice"


@pytest.mark.parametrize(
    "question",
    [
        "I spend 180 days a year in Bali; is my foreign salary taxed here?",  # 180 is not more than 183
        # "ga" inside "juga" is no negation
        "Saya juga tinggal di Indonesia sebagian waktu, gaji dari luar negeri saya kena pajak?",
    ],
)
def test_facts_that_do_not_settle_residence_still_ask_back(question: str) -> None:
    result = check(question, has_date=False)
    assert result is not None and result.topic == "own_residence_for_foreign_income" and result.blocking


@pytest.mark.parametrize(
    "question",
    [
        "Saya tidak menetap di Indonesia, apakah gaji dari luar negeri saya kena pajak di sini?",
        "Saya tidak berniat tinggal di Indonesia; penghasilan luar negeri saya dipajaki?",
    ],
)
def test_not_residing_is_not_read_as_residing(question: str) -> None:
    result = check(question, has_date=False)
    assert (
        result is None or result.filled.get("residence") != "bertempat tinggal / berniat tinggal di Indonesia"
    )


def test_staff_abbreviation_for_a_foreign_national_reaches_the_subject_rule(services: Any) -> None:
    # "WNA" is how staff write warga negara asing; unknown, it declined the question as a missing term
    answer = answer_question(
        "WNA yang tinggal di Indonesia 200 hari setahun itu subjek pajak dalam negeri bukan?",
        services.cli_principal(None),
        services,
        as_of=dt.date(2026, 6, 1),
    )
    assert answer.status == "answered"
    assert '"WNA"' not in answer.answer
    lead = answer.claims[0]
    assert lead.source.location.startswith("Pasal 2 ayat")
    assert "183 (seratus delapan puluh tiga) hari" in lead.quote
