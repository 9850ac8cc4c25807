"""UU 7/1991 and UU 10/1994 (UU PPh), UU 9/1994 (UU KUP) and UU 11/1994 (UU PPN): chunked from the real text,
and the wording they give the three base laws from 1995-01-01, on the bundled corpus (hashing embedder).
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from kb.consolidate import consolidate
from kb.metadata import meta_from_corpus
from kb.model import ParsedChunk
from kb.store.protocol import SearchFilter
from kb.store.sqlite import SqliteStore
from tests.kb.corpus_acts import REGS, chunks

ACTS = ("uu-7-1991", "uu-10-1994", "uu-9-1994", "uu-11-1994")


def by_key(doc_id: str, key: str) -> ParsedChunk:
    found = [c for c in chunks(doc_id) if c.key == key]
    assert len(found) == 1, key
    return found[0]


def squashed(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def restated(doc_id: str) -> tuple[set[str], set[str], set[str]]:
    """Laws claimed, Pasal restated and Pasal deleted by an act's amendment items."""
    laws: set[str] = set()
    pasal: set[str] = set()
    deleted: set[str] = set()
    for c in chunks(doc_id):
        if c.amends:
            laws.add(c.amends.law)
            (deleted if c.amends.deleted else pasal).add(c.amends.pasal)
    return laws, pasal, deleted


# --------------------------------------------------------------------------- chunking of the real text


def test_each_1994_act_restates_the_pasal_its_items_name() -> None:
    pph = restated("uu-10-1994")
    assert pph[0] == {"UU 7/1983"}
    assert pph[1] == {str(n) for n in (*range(1, 12), *range(14, 27), 28, 29, 32, 34, 35)} | {
        "2A",
        "11A",
        "28A",
        "31A",
        "33A",
    }
    assert pph[2] == {"12", "13", "27", "30", "31"}
    kup = restated("uu-9-1994")
    assert kup[0] == {"UU 6/1983"}
    kup_numbers = (1, 2, 3, 6, 7, 8, 9, 11, *range(13, 19), 20, 21, 22, 23, 25, 27, 28, 29, 31, 32, 34, 35)
    assert kup[1] == {str(n) for n in (*kup_numbers, 38, 39, 41, 43, 44)} | {
        "17A",
        "17B",
        "27A",
        "41A",
        "41B",
        "44A",
        "44B",
    }
    assert kup[2] == {"42", "47"}
    ppn = restated("uu-11-1994")
    assert ppn[0] == {"UU 8/1983"}
    assert ppn[1] == {
        "1",
        "2",
        "3A",
        "4",
        "4A",
        "5",
        "5A",
        *map(str, range(6, 15)),
        "16A",
        "16B",
        "16C",
        "16D",
        "17",
    }
    assert ppn[2] == {"3", "15", "16"}


def test_restated_pasal_carry_the_base_law_and_the_amending_item() -> None:
    pph28 = by_key("uu-10-1994", "pasal-I/angka-31/pasal-28")
    assert pph28.location == "Pasal 28 UU 7/1983 (Pasal I angka 31 UU 10/1994)"
    assert pph28.amends is not None and (pph28.amends.law, pph28.amends.pasal) == ("UU 7/1983", "28")
    assert pph28.amends.effective_from is None  # the act's own date applies (Pasal III: 1 Januari 1995)
    assert "pajak yang terutang dikurangi dengan kredit pajak" in squashed(pph28.text)
    assert pph28.text.rstrip().endswith('dimaksud pada ayat (1)."')  # item 32 (Pasal 28A) is not part of it

    pph21 = by_key("uu-10-1994", "pasal-I/angka-23/pasal-21/ayat-1")
    assert pph21.location == "Pasal 21 ayat (1) UU 7/1983 (Pasal I angka 23 UU 10/1994)"
    assert "Pemotongan, penyetoran, dan pelaporan pajak atas penghasilan" in pph21.text

    kup13 = by_key("uu-9-1994", "pasal-I/angka-10/pasal-13/ayat-1")
    assert kup13.amends is not None and (kup13.amends.law, kup13.amends.pasal) == ("UU 6/1983", "13")
    assert "Dalam jangka waktu sepuluh tahun sesudah saat terutangnya pajak" in kup13.text

    ppn7 = by_key("uu-11-1994", "pasal-I/angka-11/pasal-7")
    assert ppn7.location == "Pasal 7 UU 8/1983 (Pasal I angka 11 UU 11/1994)"
    assert "Tarif Pajak Pertambahan Nilai adalah 10% (sepuluh persen)." in ppn7.text
    assert "serendah-rendahnya 5% (lima persen) dan setinggi-tingginya 15% (lima belas persen)" in ppn7.text


def test_a_repeated_item_opening_belongs_to_neither_item() -> None:
    # the scrape writes "29. Ketentuan Pasal 27 dihapus.\n30. Judul… 30. Judul Bab VI diubah ..."
    deletion = by_key("uu-10-1994", "pasal-I/angka-29")
    assert deletion.text == "29. Ketentuan Pasal 27 dihapus."
    assert deletion.amends is not None and deletion.amends.deleted and deletion.amends.pasal == "27"
    assert by_key("uu-10-1994", "pasal-I/angka-30").text.startswith("30. Judul Bab VI diubah")
    assert by_key("uu-10-1994", "pasal-I/angka-8").text.startswith("8. Ketentuan Pasal 7 diubah")
    assert by_key("uu-10-1994", "pasal-I/angka-7/pasal-6/ayat-3").text.endswith('dalam Pasal 7."')
    # the same artefact in an existing act no longer trails its restated Pasal
    ayat7 = by_key("uu-17-2000", "pasal-I/angka-9/pasal-14/ayat-7")
    assert ayat7.text.endswith('dapat diubah dengan Keputusan Menteri Keuangan."')


def test_the_elucidation_names_the_law_and_the_item_it_explains() -> None:
    pen = {c.location for doc_id in ACTS for c in chunks(doc_id) if c.kind == "penjelasan"}
    assert "Penjelasan Pasal 28 UU 7/1983 (Pasal I angka 31 UU 10/1994)" in pen
    assert "Penjelasan Pasal 11A ayat (1) UU 7/1983 (Pasal I angka 13 UU 10/1994)" in pen
    assert "Penjelasan Pasal 7 UU 8/1983 (Pasal I angka 11 UU 11/1994)" in pen
    # UU 9/1994's elucidation has no "Angka 8" marker: the items after it keep their own numbers (Pasal 9,
    # which item 8 restates, reads under angka 7 with Pasal 8, as the source runs them together)
    assert "Penjelasan Pasal 38 UU 6/1983 (Pasal I angka 30 UU 9/1994)" in pen
    under_7 = {loc.split(" ")[2] for loc in pen if "(Pasal I angka 7 UU 9/1994)" in loc}
    assert under_7 == {"8", "9"}


def test_the_acts_own_pasal_stay_their_own() -> None:
    own = {c.key: c for c in chunks("uu-9-1994") if c.amends is None and c.kind == "pasal"}
    assert "hak dan kewajiban perpajakan tahun 1994 dan sebelumnya" in squashed(own["pasal-II"].text)
    assert "mulai berlaku pada tanggal 1 Januari 1995" in own["pasal-IV"].text
    ppn_own = {c.key: c for c in chunks("uu-11-1994") if c.amends is None and c.kind == "pasal"}
    assert "paling lambat tanggal 31 Desember 1999" in ppn_own["pasal-II"].text
    assert "mulai berlaku pada tanggal 1 Januari 1995" in ppn_own["pasal-IV"].text
    assert "mulai berlaku pada tanggal 1 Januari 1995" in by_key("uu-10-1994", "pasal-III").text
    for doc_id in ACTS:
        text = (REGS / doc_id / "text.txt").read_text(encoding="utf-8")
        assert all(text[c.start : c.end] == c.text for c in chunks(doc_id)), doc_id


def test_uu_7_1991_changes_parts_of_pasal_and_restates_none() -> None:
    """Its items change an ayat or a huruf ("Ketentuan Pasal 23 ayat (1) diubah"), never a whole Pasal: they
    stay the act's own passages instead of replacing the whole 1983 Pasal."""
    assert restated("uu-7-1991") == (set(), set(), set())
    item = by_key("uu-7-1991", "pasal-I/angka-9")
    assert item.location == "Pasal I angka 9"
    assert "Ketentuan Pasal 23 ayat (1) diubah" in item.text
    assert "sebesar 9% (sembilan persen) dari jumlah bruto atas imbalan" in squashed(item.text)
    assert "mulai berlaku pada tanggal 1 Januari 1992" in by_key("uu-7-1991", "pasal-II").text


def test_metadata_dates_sources_and_relations() -> None:
    expected = {
        "uu-7-1991": ("UU 7/1991", dt.date(1992, 1, 1), dt.date(1991, 12, 30), "uu-7-1983", "uu/1991/7.md"),
        "uu-10-1994": ("UU 10/1994", dt.date(1995, 1, 1), dt.date(1994, 11, 9), "uu-7-1983", "uu/1994/10.md"),
        "uu-9-1994": ("UU 9/1994", dt.date(1995, 1, 1), dt.date(1994, 11, 9), "uu-6-1983", "uu/1994/9.md"),
        "uu-11-1994": ("UU 11/1994", dt.date(1995, 1, 1), dt.date(1994, 11, 9), "uu-8-1983", "uu/1994/11.md"),
    }
    for doc_id, (number, effective, enacted, base, path) in expected.items():
        folder = REGS / doc_id
        raw = json.loads((folder / "metadata.json").read_text(encoding="utf-8"))
        meta = meta_from_corpus(raw, folder / "metadata.json", doc_id)
        assert (meta.number, meta.effective_from, meta.enacted) == (number, effective, enacted)
        assert meta.amends == (base,) and doc_id in meta_amended_by(base)
        assert raw["source"]["path"] == path and raw["source"]["commit"].startswith("c87e616")
        assert meta.official_url == f"https://peraturan.go.id/id/uu-no-{raw['number']}-tahun-{raw['year']}"
        assert raw["sizes"]["text_chars"] == len((folder / "text.txt").read_text(encoding="utf-8"))
        assert raw["sizes"]["source_chars"] == len((folder / "source.md").read_text(encoding="utf-8"))


def meta_amended_by(doc_id: str) -> tuple[str, ...]:
    folder = REGS / doc_id
    raw = json.loads((folder / "metadata.json").read_text(encoding="utf-8"))
    return meta_from_corpus(raw, folder / "metadata.json", doc_id).amended_by


# --------------------------------------------------------------------------- the law by date


@pytest.fixture(scope="module")
def store(behaviour_kb: Path) -> Iterator[SqliteStore]:
    s = SqliteStore(behaviour_kb)
    yield s
    s.close()


def _sources(store: SqliteStore, provision: str, when: dt.date) -> set[str]:
    ids = store.routed_chunk_ids(SearchFilter(frozenset({"everyone"}), when), provisions=[provision])
    return {c.doc_id for c in store.get_chunks(ids).values() if c.kind != "penjelasan"}


def test_pph_pasal_28_reads_1983_before_1995_and_uu_10_1994_after(store: SqliteStore) -> None:
    pph28 = "uu-7-1983:pasal-28"
    assert _sources(store, pph28, dt.date(1994, 6, 1)) == {"uu-7-1983"}
    assert _sources(store, pph28, dt.date(1994, 12, 31)) == {"uu-7-1983"}
    assert _sources(store, pph28, dt.date(1996, 1, 1)) == {"uu-10-1994"}
    # no later act restated Pasal 28: the 1994 wording is the current one
    assert _sources(store, pph28, dt.date(2025, 1, 1)) == {"uu-10-1994"}
    law = consolidate(store, "UU PPh", dt.date(1994, 6, 1)).get("28")
    assert law is not None and law.source.number == "UU 7/1983" and law.valid_to == dt.date(1995, 1, 1)
    now = consolidate(store, "UU PPh", dt.date(2025, 1, 1)).get("28")
    assert now is not None and now.source.number == "UU 10/1994" and now.valid_from == dt.date(1995, 1, 1)
    assert "pemotongan pajak atas penghasilan sebagaimana dimaksud dalam Pasal 26 ayat (5)" in squashed(
        now.text
    )


def test_a_pasal_restated_again_by_uu_17_2000_reads_each_wording_in_turn(store: SqliteStore) -> None:
    pph21 = "uu-7-1983:pasal-21"
    assert _sources(store, pph21, dt.date(1999, 6, 1)) == {"uu-10-1994"}
    assert _sources(store, pph21, dt.date(2002, 6, 1)) == {"uu-17-2000"}
    p1999 = consolidate(store, "UU PPh", dt.date(1999, 6, 1)).get("23")
    assert p1999 is not None and p1999.source.number == "UU 10/1994"
    assert (p1999.valid_from, p1999.valid_to) == (dt.date(1995, 1, 1), dt.date(2001, 1, 1))
    assert "b. sebesar 15% (lima belas persen) dari jumlah bruto dan bersifat final atas bunga simpanan" in (
        squashed(p1999.text)
    )
    p2002 = consolidate(store, "UU PPh", dt.date(2002, 6, 1)).get("23")
    assert p2002 is not None and p2002.source.number == "UU 17/2000"


def test_kup_and_ppn_read_the_1994_wording_until_2001(store: SqliteStore) -> None:
    assert _sources(store, "uu-6-1983:pasal-9", dt.date(1996, 1, 1)) == {"uu-9-1994"}
    assert _sources(store, "uu-6-1983:pasal-9", dt.date(2002, 1, 1)) == {"uu-16-2000"}
    ppn7 = consolidate(store, "UU PPN", dt.date(2005, 6, 1)).get("7")
    assert ppn7 is not None and ppn7.source.number == "UU 11/1994"
    assert (ppn7.valid_from, ppn7.valid_to) == (dt.date(1995, 1, 1), dt.date(2010, 4, 1))
    assert "Tarif Pajak Pertambahan Nilai adalah 10% (sepuluh persen)." in ppn7.text
    assert ppn7.changed_outside == ()  # UU 11/1994 is in the knowledge base now
    old = consolidate(store, "UU PPN", dt.date(1994, 12, 31)).get("7")
    assert old is not None and old.source.number == "UU 8/1983" and old.valid_to == dt.date(1995, 1, 1)


def test_deleted_and_inserted_pasal_follow_the_1994_acts(store: SqliteStore) -> None:
    law = consolidate(store, "UU PPh", dt.date(1996, 1, 1))
    p27 = law.get("27")
    assert p27 is not None and p27.revoked and p27.source.number == "UU 10/1994"
    p28a = law.get("28A")
    assert p28a is not None and p28a.source.number == "UU 10/1994"
    early = consolidate(store, "UU PPh", dt.date(1994, 6, 1))
    assert early.get("28A") is None and "28A" in early.not_yet
    early27 = early.get("27")
    assert early27 is not None and not early27.revoked and early27.source.number == "UU 7/1983"
    kup = consolidate(store, "UU KUP", dt.date(2025, 1, 1))
    for pasal in ("42", "47"):
        p = kup.get(pasal)
        assert p is not None and p.revoked and p.source.number == "UU 9/1994", pasal


def test_uu_7_1991_leaves_the_1983_wording_in_force_until_1995(store: SqliteStore) -> None:
    p23 = consolidate(store, "UU PPh", dt.date(1993, 1, 1)).get("23")
    assert p23 is not None and p23.source.number == "UU 7/1983"
    assert p23.valid_to == dt.date(1995, 1, 1)
    doc = store.get_document("uu-7-1991")
    assert doc is not None and doc.meta.effective_from == dt.date(1992, 1, 1)


def test_uu_7_1991_own_passages_stop_when_uu_10_1994_restates_what_they_changed(store: SqliteStore) -> None:
    """Its items change parts of UU PPh Pasal 4, 6, 9, 11, 13 and 23; UU 10/1994 restates each of those Pasal
    from 1995-01-01, so none of its wording may answer a question dated after that (metadata effective_to)."""
    doc = store.get_document("uu-7-1991")
    assert doc is not None and doc.meta.effective_to == dt.date(1995, 1, 1)
    item = store.get_chunks(["uu-7-1991#pasal-I/angka-9"])["uu-7-1991#pasal-I/angka-9"]
    assert "Ketentuan Pasal 23 ayat (1) diubah" in item.text
    assert (item.valid_from, item.valid_to) == (dt.date(1992, 1, 1), dt.date(1995, 1, 1))
    everyone = frozenset({"everyone"})
    assert "uu-7-1991" in store.visible_documents(SearchFilter(everyone, dt.date(1993, 6, 1)))
    assert "uu-7-1991" not in store.visible_documents(SearchFilter(everyone, dt.date(2024, 6, 1)))
    for pasal in ("4", "6", "9", "11", "13", "23"):
        assert _sources(store, f"uu-7-1983:pasal-{pasal}", dt.date(1995, 6, 1)) == {"uu-10-1994"}, pasal
