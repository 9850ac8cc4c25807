"""An elucidation (Penjelasan) is valid exactly while its Pasal's wording is, also when the chunker never read
that Pasal from the act (OCR ran its heading into the chapter title, or misread it: "Pasa1 1").  UU PPN 1983's
elucidation of Pasal 1 stayed open-ended and led a 2022 question on the VAT base of a service, beside the
definitions UU 42/2009 gives that Pasal since 2010."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from pathlib import Path

import pytest

from kb.store.protocol import SearchFilter
from kb.store.sqlite import SqliteStore

RESTATED_1995 = dt.date(1995, 1, 1)


@pytest.fixture(scope="module")
def store(behaviour_kb: Path) -> Iterator[SqliteStore]:
    s = SqliteStore(behaviour_kb)
    yield s
    s.close()


@pytest.mark.parametrize("doc_id", ["uu-8-1983", "uu-7-1983"])
def test_the_1983_elucidation_of_pasal_1_ends_when_it_is_restated(store: SqliteStore, doc_id: str) -> None:
    chunks = store.get_chunks([f"{doc_id}#penjelasan/pasal-1"])
    assert chunks, doc_id
    (elucidation,) = chunks.values()
    assert elucidation.valid_to == RESTATED_1995


def test_uu_ppn_1983_pasal_1_is_read_and_answers_only_until_1995(store: SqliteStore) -> None:
    everyone, pasal_1 = frozenset({"everyone"}), ["uu-8-1983:pasal-1"]
    old = store.routed_chunk_ids(SearchFilter(everyone, dt.date(1990, 1, 1)), provisions=pasal_1)
    assert "uu-8-1983#pasal-1/huruf-a" in old  # the definitions of 1983, for a 1990 transaction
    new = store.routed_chunk_ids(SearchFilter(everyone, dt.date(2022, 11, 16)), provisions=pasal_1)
    docs = {c.doc_id for c in store.get_chunks(new).values()}
    assert "uu-8-1983" not in docs and "uu-42-2009" in docs
