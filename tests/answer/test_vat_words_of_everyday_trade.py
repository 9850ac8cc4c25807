"""UU PPN's own words for what chat says otherwise: a service used "dari luar Daerah Pabean" is one from
abroad, and goods a buyer returns ("retur") are "Barang Kena Pajak yang dikembalikan" (Pasal 5A).

"Siapa yang wajib memungut PPN atas pemanfaatan jasa dari luar negeri?" was led by PMK 81/2024's definition of
an export-service recipient; "Kalau ada retur barang, PPN nya gimana?" was answered with PP 49/2022's
payment period.  Session 61; the questions are our own."""

from __future__ import annotations

import datetime as dt
from typing import Any

from kb.query import understand
from tests.answer.chunk_sample import anonymous_answer


def test_abroad_is_searched_in_the_vat_acts_words() -> None:
    plan = understand("PPN atas jasa dari luar negeri")
    assert "luar daerah pabean" in plan.terms


def test_a_return_is_searched_in_the_vat_acts_words() -> None:
    plan = understand("Kalau ada retur barang, PPN nya gimana?")
    assert "barang kena pajak yang dikembalikan" in plan.terms


def test_who_collects_vat_on_a_service_from_abroad(services: Any) -> None:
    answer = anonymous_answer(
        services,
        "Siapa yang wajib memungut PPN atas pemanfaatan jasa dari luar negeri?",
        as_of=dt.date(2026, 12, 1),
    )
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert lead.source.location.startswith("Pasal 3A")
    assert "memanfaatkan" in lead.quote and "luar Daerah Pabean" in lead.quote


def test_vat_on_returned_goods_is_deducted(services: Any) -> None:
    answer = anonymous_answer(services, "Kalau ada retur barang, PPN nya gimana?", as_of=dt.date(2026, 12, 1))
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert lead.source.location.startswith("Pasal 5A")
    assert "Barang Kena Pajak yang dikembalikan dapat dikurangkan" in lead.quote
