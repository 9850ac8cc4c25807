"""A Pasal another act revokes on its own stops answering on that act's start, and so do the wording it
restated and the elucidation of that wording; the act around it stays in force.

PP 44/2022 Pasal 32 huruf b revokes PP 9/2021 Pasal 5 (the VAT rules it restated for PP 1/2012, itself
revoked by huruf a), PP 50/2022 Pasal 74 huruf b its Pasal 6 and 9 (the procedures restated for PP 74/2011),
PP 55/2022 Pasal 72 huruf b Pasal 2A of PP 94/2010 (which PP 9/2021 Pasal 4 inserted).  The corpus metadata
recorded them, but only whole acts ended, so "Batas waktu pembuatan faktur pajak kapan?" (a probe of our own,
2026) was answered with PP 9/2021's elucidation of PP 1/2012 Pasal 19 ayat (3) instead of PP 44/2022 Pasal
26.  Session 64.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kb.errors import MetadataError
from kb.metadata import _revoked_parts, meta_from_fields
from kb.store.sqlite import SqliteStore
from tests.answer.chunk_sample import anonymous_answer

PP_44_2022 = dt.date(2022, 12, 2)
PP_50_2022 = dt.date(2022, 12, 12)
PP_55_2022 = dt.date(2022, 12, 20)


@pytest.fixture(scope="module")
def store(behaviour_kb: Path) -> Iterator[SqliteStore]:
    s = SqliteStore(behaviour_kb)
    yield s
    s.close()


def test_whole_pasal_of_an_act_are_read_from_the_revokes_list() -> None:
    assert _revoked_parts(
        [
            "Pasal 5 pp-9-2021 (seen, Pasal 32 b)",
            "Pasal 6 dan Pasal 9 pp-9-2021 (seen, Pasal 74 b)",
            "Pasal 10 PP 29/2020 (seen, Pasal 72 d)",
            "PP 1/2012 (seen, Pasal 32 a)",  # a whole act: a revocation, not a part
            "Pasal 2 ayat (3) PP 80/2010 (seen, Pasal 4)",  # an ayat: no window ends part of a Pasal
        ]
    ) == ("pp-9-2021:pasal-5", "pp-9-2021:pasal-6", "pp-9-2021:pasal-9", "PP 29/2020:pasal-10")


def test_a_revoked_part_must_name_its_act_and_pasal() -> None:
    fields = {"id": "pp-1-2030", "title": "Contoh", "number": "1/2030", "type": "PP"}
    assert meta_from_fields({**fields, "revokes_parts": ["pp-9-2021:pasal-5"]}, Path("m.yaml")).revokes_parts
    with pytest.raises(MetadataError, match="revokes_parts"):
        meta_from_fields({**fields, "revokes_parts": ["Pasal 5 PP 9/2021"]}, Path("m.yaml"))


@pytest.mark.parametrize(
    ("chunk_id", "end"),
    [
        ("pp-9-2021#pasal-5/angka-6/pasal-19", PP_44_2022),  # PP 1/2012 Pasal 19 as PP 9/2021 restated it
        ("pp-9-2021#penjelasan/pasal-5/angka-6/pasal-19/ayat-3", PP_44_2022),
        ("pp-9-2021#pasal-6/angka-1/pasal-1", PP_50_2022),  # PP 74/2011 Pasal 1
        ("pp-9-2021#pasal-4/angka-2/pasal-2A/ayat-1", PP_55_2022),  # PP 94/2010 Pasal 2A
        ("pp-9-2021#penjelasan/pasal-4/angka-2/pasal-2A", PP_55_2022),
        ("pp-9-2021#pasal-4/angka-1/pasal-1", None),  # PP 94/2010 Pasal 1 as restated: still in force
    ],
)
def test_a_revoked_pasal_ends_on_its_revokers_start(store: SqliteStore, chunk_id: str, end: Any) -> None:
    (chunk,) = store.get_chunks([chunk_id]).values()
    assert chunk.valid_from == dt.date(2021, 2, 2)
    assert chunk.valid_to == end


def test_the_invoice_deadline_of_2026_is_pp_44_2022s(services: Any) -> None:
    answer = anonymous_answer(
        services, "Batas waktu pembuatan faktur pajak kapan?", as_of=dt.date(2026, 12, 1)
    )
    assert answer.status == "answered"
    assert all(c.source.doc_id != "pp-9-2021" for c in answer.claims)
    lead = answer.claims[0]
    assert (lead.source.doc_id, lead.source.location) == ("pp-44-2022", "Pasal 26")
    # ayat (1), made on delivery, or ayat (2), no tax invoice once three months late: both PP 44/2022's
    assert "Faktur Pajak wajib dibuat oleh Pengusaha Kena Pajak pada saat penyerahan" in lead.quote or (
        "setelah melewati jangka waktu 3 (tiga) bulan" in lead.quote
    )
