"""A Pasal a later act restates stops answering on the later act's start only when the chunker finds the
restated Pasal under its own heading.

UU HPP (Pasal 4 angka 6) restates UU PPN Pasal 16B from 2022-04-01; the scan had run the heading into the
end of Pasal 9A ayat (2) and read it "16E}" and "168", so no Pasal 16B stood in UU HPP and UU 42/2009's
wording answered 2026 questions ("Can input VAT on entertainment be credited?", a probe of our own, was
answered from it).  Repaired by hand in session 65 (rule "structure" in the act's ocr_repairs.tsv).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from pathlib import Path

import pytest

from kb.store.sqlite import SqliteStore

UU_HPP_PPN = dt.date(2022, 4, 1)


@pytest.fixture(scope="module")
def store(behaviour_kb: Path) -> Iterator[SqliteStore]:
    s = SqliteStore(behaviour_kb)
    yield s
    s.close()


def test_uu_42_2009s_pasal_16b_ends_when_uu_hpp_restates_it(store: SqliteStore) -> None:
    old = store.get_chunks(["uu-42-2009#pasal-I/angka-16/pasal-16B"])
    (chunk,) = old.values()
    assert chunk.valid_to == UU_HPP_PPN
    new = store.get_chunks(["uu-7-2021#pasal-4/angka-6/pasal-16B/ayat-3"])
    (restated,) = new.values()
    assert restated.valid_from == UU_HPP_PPN and restated.valid_to is None
    assert restated.pasal == "16B"
