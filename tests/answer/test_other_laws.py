"""An answer shows the rule's own law (its conditions, exceptions and definitions), the company policy that
applies it, and passages of at most one other law: on both halves of our eval set only 7% of the claims
quoting other laws cited a gold location, and a definition from another law ("Pajak Masukan adalah ...")
under a rate answer is a citation the reader checks for nothing."""

from __future__ import annotations

import datetime as dt
from typing import Any

from bot.answer.extractive import MAX_OTHER_LAWS
from bot.answer.pipeline import answer_question


def _laws(services: Any, question: str, as_of: dt.date) -> tuple[Any, list[str]]:
    answer = answer_question(question, services.cli_principal(None), services, as_of=as_of)
    chunks = services.store.get_chunks([c.source.chunk_id for c in answer.claims])
    laws = [
        (chunks[c.source.chunk_id].provision or c.source.doc_id).split(":", 1)[0]
        for c in answer.claims
        if c.layer != "policy"
    ]
    return answer, laws


def test_a_deadline_answer_quotes_its_law_and_at_most_one_other(services: Any) -> None:
    # with every relevant law let in, the PPh 21 deadline answer went on to quote UU PPN
    answer, laws = _laws(services, "Kapan batas waktu penyetoran PPh 21?", dt.date(2024, 3, 1))
    assert answer.status == "answered"
    assert len(set(laws)) <= 1 + MAX_OTHER_LAWS
    assert "uu-8-1983" not in laws


def test_a_rate_answer_shows_definitions_only_from_its_own_law(services: Any) -> None:
    answer, laws = _laws(services, "Berapa tarif PPN?", dt.date(2022, 5, 1))
    assert answer.status == "answered"
    assert laws[0] == "uu-8-1983"  # UU PPN, Pasal 7 restated by UU 7/2021
    assert "11% (sebelas persen)" in answer.claims[0].quote
    assert len(set(laws)) <= 1 + MAX_OTHER_LAWS
    assert all(law == laws[0] for c, law in zip(answer.claims, laws, strict=False) if c.role == "definition")


def test_restated_pasal_of_amending_acts_count_as_their_law(services: Any) -> None:
    answer, laws = _laws(services, "Berapa tarif PPh Pasal 23 atas jasa?", dt.date(2024, 3, 1))
    assert answer.status == "answered"
    assert laws[0] == "uu-7-1983"  # UU PPh Pasal 23 as restated by UU 36/2008
    assert len(set(laws)) <= 1 + MAX_OTHER_LAWS
