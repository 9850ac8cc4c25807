"""A question whose specific term the knowledge base never mentions is declined, not answered from passages
that merely share its other words."""

from __future__ import annotations

import datetime as dt
from typing import Any

from bot.answer.pipeline import answer_question

WHEN = dt.date(2024, 6, 1)


def test_an_acronym_no_passage_contains_declines_with_the_term_named(behaviour_services: Any) -> None:
    answer = answer_question(
        "Gaji karyawan kami dipotong PPh 21 setiap bulan. Apakah insentif XQZT ikut dihitung dalam PPh 21?",
        behaviour_services.cli_principal(None),
        behaviour_services,
        as_of=WHEN,
    )
    assert answer.status == "abstained"
    assert answer.claims == ()
    assert answer.escalation is not None and answer.escalation.reason == "no_source"
    assert '"XQZT"' in answer.answer


def test_known_acronyms_and_acronyms_in_the_story_do_not_decline(behaviour_services: Any) -> None:
    principal = behaviour_services.cli_principal(None)
    # NPWP is in the sources; XQZT appears only in the story, not in the sentence that asks
    answer = answer_question(
        "Vendor kami namanya CV XQZT. Berapa tarif PPh 23 atas jasa teknik bagi vendor tanpa NPWP?",
        principal,
        behaviour_services,
        as_of=WHEN,
    )
    assert answer.status == "answered"
    assert "XQZT" not in answer.answer


def test_a_currency_code_is_an_amount_not_a_missing_term(behaviour_services: Any) -> None:
    # the sources write "Rp", never "IDR": an amount in IDR must not veto the question
    answer = answer_question(
        "We pay a local consultant IDR 15 million. Is PPh 23 withheld on the IDR 15 million fee?",
        behaviour_services.cli_principal(None),
        behaviour_services,
        as_of=WHEN,
    )
    assert '"IDR"' not in answer.answer
    assert not any("IDR" in w for w in answer.warnings)


def test_a_department_that_asks_is_not_a_missing_term(behaviour_services: Any) -> None:
    # "HRD" says who asks; the sources never need to contain it
    answer = answer_question(
        "HRD nanya: berapa tarif bea meterai untuk dokumen perjanjian kerja?",
        behaviour_services.cli_principal(None),
        behaviour_services,
        as_of=WHEN,
    )
    assert '"HRD"' not in answer.answer
    assert not any("HRD" in w for w in answer.warnings)
    assert answer.status == "answered"
