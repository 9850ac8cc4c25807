"""A question may name the company it is about ("SNR terima dividen ..."): the group's company codes are names
of the case, not specific terms the knowledge base must contain.  A guest reads none of the company's
documents, so the unknown-term gate (bot/answer/pipeline.py) declined such questions with 'Istilah "SNR" tidak
muncul' (outside tester, session 27).  Questions written for this test."""

from __future__ import annotations

import datetime as dt
from typing import Any

from bot.answer.pipeline import _entity_codes, answer_question


def test_the_group_company_codes_come_from_the_documents_metadata(services: Any) -> None:
    assert {"SNR", "SNL"} <= _entity_codes(services.store)


def test_a_guest_naming_the_company_is_not_told_its_code_is_unknown(services: Any) -> None:
    question = (
        "SNL menerima dividen dari PT dalam negeri yang sahamnya dimilikinya, apakah dividen itu objek PPh?"
    )
    answer = answer_question(question, services.cli_principal(None), services, as_of=dt.date(2026, 6, 1))
    assert 'Istilah "SNL"' not in answer.answer
    assert answer.claims, answer.answer  # searched and answered from the law a guest may read
    assert all(c.source.doc_id.startswith(("uu-", "pp-", "pmk-")) for c in answer.claims)


def test_an_unknown_acronym_is_still_declined(services: Any) -> None:
    answer = answer_question(
        "Berapa tarif PPh atas skema QZX untuk vendor?",
        services.cli_principal(None),
        services,
        as_of=dt.date(2026, 6, 1),
    )
    assert answer.status == "abstained"
    assert 'Istilah "QZX"' in answer.answer
