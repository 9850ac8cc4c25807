"""UU 6/2023 (Perppu 2/2022 Cipta Kerja, annexed): its tax cluster chunked from the real text, and the
wording it gives UU PPh, UU PPN and UU KUP from 2022-12-30, on a temporary knowledge base (hashing embedder).
"""

from __future__ import annotations

import datetime as dt
import json
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from kb.consolidate import consolidate
from kb.embed.hashing import HashingEmbedder
from kb.ingest import ingest_paths
from kb.metadata import meta_from_corpus
from kb.model import ParsedChunk
from kb.store.protocol import SearchFilter
from kb.store.sqlite import SqliteStore
from tests.kb.corpus_acts import REGS
from tests.kb.corpus_acts import chunks as act_chunks

DOC = "uu-6-2023"
# the three base laws and every act of their chains that restated a Pasal the Perppu restates again
CHAINS = (
    "uu-6-1983",
    "uu-16-2000",
    "uu-28-2007",
    "uu-7-1983",
    "uu-17-2000",
    "uu-36-2008",
    "uu-8-1983",
    "uu-18-2000",
    "uu-42-2009",
    "uu-11-2020",
    "uu-7-2021",
    DOC,
)


def chunks(doc_id: str = DOC) -> tuple[ParsedChunk, ...]:
    return act_chunks(doc_id)


def by_location(location: str) -> ParsedChunk:
    found = [c for c in chunks() if c.location == location and c.indexed]
    assert len(found) == 1, [c.location for c in chunks() if location.split(" ")[1] in c.location]
    return found[0]


def squashed(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def test_restated_pasal_carry_the_amended_law_and_the_perppu_pasal() -> None:
    pph26 = by_location("Pasal 26 ayat (1) UU 7/1983 (Pasal 111 angka 2 UU 6/2023)")
    assert pph26.amends is not None and (pph26.amends.law, pph26.amends.pasal) == ("UU 7/1983", "26")
    assert pph26.key == "lampiran/pasal-111/angka-2/pasal-26/ayat-1" and pph26.ayat == "1"
    assert "dipotong pajak sebesar 20% (dua puluh persen) dari jumlah bruto" in squashed(pph26.text)

    kup9 = by_location("Pasal 9 ayat (2a) UU 6/1983 (Pasal 113 angka 1 UU 6/2023)")
    assert kup9.amends is not None and (kup9.amends.law, kup9.amends.pasal) == ("UU 6/1983", "9")
    assert "sanksi administratif berupa bunga sebesar tarif bunga per bulan yang ditetapkan oleh Menteri" in (
        squashed(kup9.text)
    )
    assert "paling lama 24 (dua puluh empat) bulan" in squashed(kup9.text)

    ppn13 = by_location("Pasal 13 ayat (9) UU 8/1983 (Pasal 112 angka 2 UU 6/2023)")
    assert ppn13.amends is not None and ppn13.amends.law == "UU 8/1983"
    assert "Faktur Pajak harus memenuhi persyaratan formal" in ppn13.text


def test_each_amending_pasal_amends_the_law_its_opening_sentence_names() -> None:
    laws: dict[str, set[str]] = {}
    restated: dict[str, list[str]] = {}
    for c in chunks():
        if c.amends:
            top = c.key.split("/")[1]
            laws.setdefault(top, set()).add(c.amends.law)
            if c.amends.pasal not in restated.setdefault(top, []):
                restated[top].append(c.amends.pasal)
    assert laws == {"pasal-111": {"UU 7/1983"}, "pasal-112": {"UU 8/1983"}, "pasal-113": {"UU 6/1983"}}
    assert restated == {
        "pasal-111": ["2", "26"],
        "pasal-112": ["1A", "13"],
        "pasal-113": ["9", "11", "13A", "15", "17B", "19", "27A", "27B", "38"],
    }
    # items whose number OCR dropped (KUP Pasal 9, 13A, 15, 17B, 38) keep the numbering of the act
    deleted = {c.amends.pasal: c for c in chunks() if c.amends and c.amends.deleted}
    assert set(deleted) == {"13A", "27A"}
    assert deleted["13A"].location == "Pasal 13A UU 6/1983 (Pasal 113 angka 3 UU 6/2023)"
    assert (
        by_location("Pasal 38 UU 6/1983 (Pasal 113 angka 9 UU 6/2023)")
        .text.rstrip()
        .endswith("paling lama 1 (satu) tahun.")
    )


def test_the_perppu_s_own_pasal_and_uu_6_2023_s_own_text_stay_its_own() -> None:
    own = {c.key: c for c in chunks() if c.amends is None and c.kind == "pasal"}
    # Pasal 114 follows the amending Pasal 113 without amending anything: not part of KUP Pasal 38
    assert "pajak daerah dan retribusi daerah" in own["lampiran/pasal-114"].text
    assert "dicabut dan dinyatakan" in own["lampiran/pasal-185"].text
    assert "Undang-Undang Nomor 11 Tahun 2020" in own["lampiran/pasal-185"].text
    assert "mulai" in own["lampiran/pasal-186"].text
    assert "ditetapkan menjadi" in own["pasal-1"].text and own["pasal-1"].location == "Pasal 1"
    closings = [c for c in chunks() if c.kind == "closing"]
    assert {c.key.split("/")[0] for c in closings} == {"penutup", "lampiran"}
    assert any("31 Maret 2023" in c.text for c in closings)
    assert any("30 Desember 2022" in c.text for c in closings)
    text = (REGS / DOC / "text.txt").read_text(encoding="utf-8")
    assert all(text[c.start : c.end] == c.text for c in chunks())


def test_the_elucidation_names_the_law_it_explains() -> None:
    pen = {c.location for c in chunks() if c.kind == "penjelasan"}
    assert "Penjelasan Pasal 26 UU 7/1983 (Pasal 111 angka 2 UU 6/2023)" in pen
    assert "Penjelasan Pasal 1A ayat (1) UU 8/1983 (Pasal 112 angka 1 UU 6/2023)" in pen
    assert "Penjelasan Pasal 9 UU 6/1983 (Pasal 113 angka 1 UU 6/2023)" in pen
    assert "Penjelasan Pasal 114" in pen


def test_metadata_dates_and_relations() -> None:
    folder = REGS / DOC
    raw = json.loads((folder / "metadata.json").read_text())
    meta = meta_from_corpus(raw, folder / "metadata.json", DOC)
    assert meta.number == "UU 6/2023" and meta.status == "in_force"
    assert meta.effective_from == dt.date(2022, 12, 30) and meta.enacted == dt.date(2023, 3, 31)
    assert meta.revokes == ("uu-11-2020",) and meta.revoked_by == ()
    assert meta.official_url == "https://peraturan.go.id/id/uu-no-6-tahun-2023"
    assert raw["quality"]["ocr_noisy"] is True
    assert raw["sizes"]["text_chars"] == len((folder / "text.txt").read_text(encoding="utf-8"))
    assert raw["sizes"]["source_chars"] == len((folder / "source.md").read_text(encoding="utf-8"))


def test_an_annexed_perppu_of_an_older_act_is_chunked_the_same_way() -> None:
    """UU 16/2009 annexes Perppu 5/2008, whose Pasal I restates KUP Pasal 37A."""
    restated = [c for c in chunks("uu-16-2009") if c.amends]
    assert [(c.key, c.amends.law, c.amends.pasal) for c in restated if c.amends] == [
        ("lampiran/pasal-I/pasal-37A", "UU 6/1983", "37A")
    ]


# --------------------------------------------------------------------------- the law by date


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SqliteStore]:
    tmp = tmp_path_factory.mktemp("uu62023")
    for doc_id in CHAINS:
        shutil.copytree(REGS / doc_id, tmp / "regs" / doc_id)
    s = SqliteStore(tmp / "kb.sqlite", embedder_name="hashing-256")
    report = ingest_paths([tmp / "regs"], s, HashingEmbedder())
    assert report.ok, report.to_json()["errors"]
    yield s
    s.close()


def _sources(store: SqliteStore, provision: str, when: dt.date, ayat: str | None = None) -> set[str]:
    ids = store.routed_chunk_ids(SearchFilter(frozenset({"everyone"}), when), provisions=[provision])
    return {
        c.doc_id
        for c in store.get_chunks(ids).values()
        if c.kind != "penjelasan" and (ayat is None or c.ayat == ayat)
    }


def test_kup_pasal_9_ayat_2a_by_date(store: SqliteStore) -> None:
    kup9 = "uu-6-1983:pasal-9"
    assert _sources(store, kup9, dt.date(2021, 6, 1), "2a") == {"uu-11-2020"}
    assert _sources(store, kup9, dt.date(2022, 12, 29), "2a") == {"uu-11-2020"}
    assert _sources(store, kup9, dt.date(2022, 12, 30), "2a") == {"uu-6-2023"}
    assert _sources(store, kup9, dt.date(2024, 1, 1), "2a") == {"uu-6-2023"}
    assert _sources(store, kup9, dt.date(2024, 1, 1)) == {"uu-6-2023"}


def test_the_perppu_wording_is_later_than_hpp_and_hpp_wording_it_does_not_restate_stays(
    store: SqliteStore,
) -> None:
    when = dt.date(2024, 1, 1)
    # restated by UU 11/2020, then by the Perppu
    assert _sources(store, "uu-7-1983:pasal-26", when) == {"uu-6-2023"}
    assert _sources(store, "uu-7-1983:pasal-26", dt.date(2022, 6, 1)) == {"uu-11-2020"}
    assert _sources(store, "uu-8-1983:pasal-13", when) == {"uu-6-2023"}
    # restated by UU 11/2020 and then by UU 7/2021, not by the Perppu: the HPP wording stays current
    assert _sources(store, "uu-6-1983:pasal-8", when) == {"uu-7-2021"}
    assert _sources(store, "uu-7-1983:pasal-4", when) == {"uu-7-2021"}
    assert _sources(store, "uu-8-1983:pasal-4A", when) == {"uu-7-2021"}
    # no Pasal UU 11/2020 restated is left without wording after its revocation
    later = {c.provision for c in store.chunks_of("uu-11-2020") if c.provision and c.kind != "penjelasan"}
    for provision in sorted(p for p in later if not p.startswith("uu-11-2020:")):
        assert _sources(store, provision, when), provision


def test_consolidated_kup_on_2024_01_01(store: SqliteStore) -> None:
    law = consolidate(store, "UU KUP", dt.date(2024, 1, 1))
    p9, p8, p13a = law.get("9"), law.get("8"), law.get("13A")
    assert p9 is not None and p9.source.number == "UU 6/2023" and p9.valid_from == dt.date(2022, 12, 30)
    assert "suku bunga acuan ditambah 5% (lima persen)" in squashed(p9.text)
    assert p8 is not None and p8.source.number == "UU 7/2021"
    assert p13a is not None and p13a.revoked and p13a.source.number == "UU 6/2023"
    old = consolidate(store, "UU KUP", dt.date(2021, 6, 1)).get("9")
    assert old is not None and old.source.number == "UU 11/2020" and old.valid_to == dt.date(2022, 12, 30)


def _kb_with_edited_perppu(tmp_path: Path, effective: str) -> SqliteStore:
    """Fixture: the Perppu's KUP item 1 retargeted at Pasal 8, which UU 7/2021 also restated (from
    2021-10-29); ``effective`` is the date the edited act's wording applies from."""
    src = tmp_path / "regs"
    for doc_id in ("uu-6-1983", "uu-28-2007", "uu-11-2020", "uu-7-2021", DOC):
        shutil.copytree(REGS / doc_id, src / doc_id)
    text_path = src / DOC / "text.txt"
    text = text_path.read_text(encoding="utf-8")
    item = "Ketentuan Pasal 9 diubah sehingga berbunyi sebagai\nberikut:\nPasal 9\n"
    assert text.count(item) == 1
    text_path.write_text(text.replace(item, item.replace("Pasal 9", "Pasal 8")), encoding="utf-8")
    meta_path = src / DOC / "metadata.json"
    raw = json.loads(meta_path.read_text(encoding="utf-8"))
    raw["effective_date"] = effective
    meta_path.write_text(json.dumps(raw, ensure_ascii=False), encoding="utf-8")
    store = SqliteStore(tmp_path / "kb.sqlite", embedder_name="hashing-256")
    assert ingest_paths([src], store, HashingEmbedder()).ok
    return store


def test_a_pasal_restated_by_both_omnibus_acts_reads_as_the_later_one(tmp_path: Path) -> None:
    store = _kb_with_edited_perppu(tmp_path, "2022-12-30")
    kup8 = "uu-6-1983:pasal-8"
    assert _sources(store, kup8, dt.date(2021, 6, 1)) == {"uu-11-2020"}
    assert _sources(store, kup8, dt.date(2022, 6, 1)) == {"uu-7-2021"}
    assert _sources(store, kup8, dt.date(2022, 12, 30)) == {"uu-6-2023"}
    assert _sources(store, kup8, dt.date(2024, 1, 1)) == {"uu-6-2023"}
    store.close()


def test_an_earlier_restatement_gives_way_to_the_later_act(tmp_path: Path) -> None:
    # the same edited act dated before UU 7/2021: from 2021-10-29 the HPP wording applies again
    store = _kb_with_edited_perppu(tmp_path, "2021-06-01")
    kup8 = "uu-6-1983:pasal-8"
    assert _sources(store, kup8, dt.date(2021, 7, 1)) == {"uu-6-2023"}
    assert _sources(store, kup8, dt.date(2024, 1, 1)) == {"uu-7-2021"}
    store.close()
