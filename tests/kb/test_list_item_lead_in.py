"""Retrieval reads a list item with its lead-in, and a chat "PPh 22 berapa?" asks a rate (2026-12-02).

PMK 51/2025 Pasal 3 ayat (1) huruf a lists the PPh 22 import rates ("... yang menggunakan angka pengenal
impor, sebesar 2,5% ..."); only its lead-in ("Besarnya pungutan Pajak Penghasilan Pasal 22 ditetapkan sebagai
berikut:") names the tax.  Scored alone, the item did not cover "PPh 22" and an exception ayat that repeats
the tax's name outranked it.  The questions are written for the tests, not copied from an eval set.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from kb.lexical import question_concepts
from kb.query import understand
from kb.store.protocol import SearchFilter

FLT = SearchFilter(groups=frozenset({"everyone"}), as_of=dt.date(2026, 11, 30))
RATES = "pmk-51-2025#pasal-3/ayat-1/huruf-a"


@pytest.mark.slow
def test_a_list_item_is_covered_together_with_its_lead_in(services: Any) -> None:
    pool = services.retriever.candidates("tarif PPh 22 impor dengan API dan tanpa API?", FLT)
    assert pool.features[RATES]["coverage"] == 1.0


@pytest.mark.slow
def test_the_import_rates_item_ranks_among_the_first_two(services: Any) -> None:
    res = services.retriever.search("tarif PPh 22 impor dengan API dan tanpa API?", FLT)
    assert RATES in [h.chunk.id for h in res.results[:2]]
    item = next(h for h in res.results if h.chunk.id == RATES)
    assert "2,5% (dua koma lima persen)" in item.chunk.text


@pytest.mark.slow
def test_a_tax_named_then_berapa_asks_the_rate(services: Any) -> None:
    pool = services.retriever.candidates("impor barang PPh 22 berapa kalau ada API?", FLT)
    assert pool.features[RATES]["rate"] == 1.0
    # "berapa lama" asks a period, not a rate
    pool = services.retriever.candidates("PPh 22 impor berapa lama harus disetor?", FLT)
    assert all(x["rate"] == 0.0 for x in pool.features.values())


def test_to_have_is_a_function_word_like_has() -> None:
    question = "vendor tidak punya NPWP, importir mempunyai API"
    words = {p[0] for c in question_concepts(understand(question), question) for p in c if len(p) == 1}
    assert not words & {"punya", "mempunyai"}
    assert "npwp" in words
