"""PPh 22's rates are list items of PMK 51/2025 Pasal 3 ayat (1), under "Besarnya pungutan Pajak Penghasilan
Pasal 22 ditetapkan sebagai berikut:"; the import items name neither the tax nor a rate word ("1. impor: a)
barang tertentu sebesar 10%").  Lexicon ``law_topics`` names that Pasal the rate Pasal of PPh 22, so a rate
question brings it in.  Before session 59 "Berapa tarif PPh 22 impor?" was answered, at confidence 0.85, with
a customs-tariff heading of the PMK's Lampiran ("No Pos Tarif HS Code Uraian Barang ... Parfum")."""

from __future__ import annotations

import datetime as dt
from typing import Any

from kb.query import understand
from tests.answer.chunk_sample import anonymous_answer


def test_a_pph22_rate_question_hints_the_pasal_that_sets_it() -> None:
    hints = [
        (p.law, p.pasal) for p in understand("Berapa tarif PPh 22 impor?").provisions if p.origin == "rate"
    ]
    assert ("PMK 51/2025", "3") in hints
    # no rate asked, no hint
    asked = understand("Kapan PPh 22 impor dilunasi?").provisions
    assert not [p for p in asked if p.origin == "rate"]


def test_the_import_rate_answers(services: Any) -> None:
    answer = anonymous_answer(services, "Berapa tarif PPh 22 impor?", as_of=dt.date(2026, 12, 1))
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert (lead.source.doc_id, lead.source.location) == ("pmk-51-2025", "Pasal 3 ayat (1) huruf a")
    assert "10%" in answer.answer and "nilai impor" in answer.answer
    assert "Pos Tarif" not in answer.answer
