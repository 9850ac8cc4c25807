"""Staff name the final tax on small business turnover "tarif UMKM" / "PPh UMKM": the words are the regime's
name (kb/data/aliases.yaml ``pph-final-umkm``), so the question routes to the acts of that regime.  Before
session 58 "tarif UMKM" was read as "tarif" and "UMKM" and answered with PMK 51/2025's import rates."""

from __future__ import annotations

import datetime as dt
from typing import Any

from kb.query import understand
from tests.answer.chunk_sample import anonymous_answer


def test_the_regime_is_named() -> None:
    assert understand("Berapa tarif UMKM sekarang?").tax_types == ("PPh Final",)
    assert understand("PPh UMKM disetor kapan?").tax_types == ("PPh Final",)
    # "UMKM" alone names businesses of a size, no tax
    assert understand("Apakah UMKM wajib punya NPWP?").tax_types == ()


def test_the_rate_of_the_regime_answers(services: Any) -> None:
    answer = anonymous_answer(services, "Berapa tarif UMKM sekarang?", as_of=dt.date(2026, 12, 1))
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert (lead.source.doc_id, lead.source.location) == ("pp-55-2022", "Pasal 56 ayat (2)")
    assert "0,5%" in answer.answer and "nilai impor" not in answer.answer
