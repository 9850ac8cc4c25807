"""The acts added to complete the amendment chains, chunked from their real text."""

from __future__ import annotations

import datetime as dt
import json
import shutil
from pathlib import Path

import pytest

from kb.embed.hashing import HashingEmbedder
from kb.ingest import ingest_paths
from kb.metadata import meta_from_corpus
from kb.store.protocol import SearchFilter
from kb.store.sqlite import SqliteStore
from tests.kb.corpus_acts import REGS, chunks

NEW_ACTS = ("uu-16-2000", "uu-17-2000", "uu-18-2000", "uu-11-2020", "pp-94-2010")


def restated(doc_id: str) -> set[tuple[str, str]]:
    return {(c.amends.law, c.amends.pasal) for c in chunks(doc_id) if c.amends}


@pytest.mark.parametrize("doc_id", NEW_ACTS)
def test_new_act_metadata_and_official_link(doc_id: str) -> None:
    folder = REGS / doc_id
    raw = json.loads((folder / "metadata.json").read_text())
    meta = meta_from_corpus(raw, folder / "metadata.json", doc_id)
    assert raw["source"]["repo"] == "mblonyox/data-peraturan"
    assert (
        meta.official_url
        == f"https://peraturan.go.id/id/{raw['type'].lower()}-no-{raw['number']}-tahun-{raw['year']}"
    )
    assert meta.source_url and meta.source_url.startswith("https://github.com/mblonyox/data-peraturan/blob/")
    index = {e["id"] for e in json.loads((REGS / "index.json").read_text())}
    assert doc_id in index


@pytest.mark.parametrize(
    ("doc_id", "law", "pasal"),
    [
        ("uu-16-2000", "UU 6/1983", "7"),
        ("uu-17-2000", "UU 7/1983", "17"),
        ("uu-18-2000", "UU 8/1983", "16A"),
        ("uu-11-2020", "UU 7/1983", "4"),
        ("uu-11-2020", "UU 8/1983", "9"),
        ("uu-11-2020", "UU 6/1983", "8"),
    ],
)
def test_amending_acts_restate_pasal_of_the_law_they_name(doc_id: str, law: str, pasal: str) -> None:
    assert (law, pasal) in restated(doc_id)


def test_cipta_kerja_tax_cluster_amends_three_laws_in_pasal_111_to_113() -> None:
    laws_by_pasal = {}
    for c in chunks("uu-11-2020"):
        if c.amends:
            laws_by_pasal.setdefault(c.key.split("/")[0], set()).add(c.amends.law)
    assert laws_by_pasal == {
        "pasal-111": {"UU 7/1983"},
        "pasal-112": {"UU 8/1983"},
        "pasal-113": {"UU 6/1983"},
    }
    sanksi = [
        c for c in chunks("uu-11-2020") if c.amends and c.amends.pasal == "13" and c.amends.law == "UU 6/1983"
    ]
    assert any("tarif bunga per bulan" in c.text for c in sanksi)
    # the omnibus elucidation names each law it explains
    pen = {c.location for c in chunks("uu-11-2020") if c.kind == "penjelasan"}
    assert "Penjelasan Pasal 2 UU 7/1983 (Pasal 111 angka 1 UU 11/2020)" in pen


def test_pp_94_2010_is_a_plain_regulation() -> None:
    cs = chunks("pp-94-2010")
    assert not restated("pp-94-2010")
    assert {c.pasal for c in cs if c.kind in ("pasal", "ayat") and c.pasal} >= {str(n) for n in range(1, 36)}


def test_hpp_elucidation_of_vat_export_rate_is_attached_to_uu_ppn() -> None:
    pen = [c for c in chunks("uu-7-2021") if c.kind == "penjelasan" and c.pasal == "7" and "ekspor" in c.text]
    assert pen
    assert all("UU 8/1983" in c.location and "Pasal 4 angka 2 UU 7/2021" in c.location for c in pen)
    assert not any("UU 36/2008" in c.location for c in chunks("uu-7-2021"))


def test_pmk_54_2025_amends_pmk_81_2024_even_with_ocr_split_words() -> None:
    assert {law for law, _ in restated("pmk-54-2025")} == {"PMK 81/2024"}


def _kb(tmp_path: Path, *doc_ids: str) -> SqliteStore:
    src = tmp_path / "regs"
    for doc_id in doc_ids:
        shutil.copytree(REGS / doc_id, src / doc_id)
    store = SqliteStore(tmp_path / "kb.sqlite", embedder_name="hashing-256")
    report = ingest_paths([src], store, HashingEmbedder())
    assert report.ok, report.to_json()["errors"]
    return store


def _wording(store: SqliteStore, provision: str, when: dt.date) -> dict[str, str]:
    ids = store.routed_chunk_ids(SearchFilter(frozenset({"everyone"}), when), provisions=[provision])
    return {c.id: c.text for c in store.get_chunks(ids).values() if c.kind != "penjelasan"}


def test_kup_sanction_in_april_2021_comes_from_cipta_kerja(tmp_path: Path) -> None:
    store = _kb(tmp_path, "uu-6-1983", "uu-16-2000", "uu-28-2007", "uu-11-2020", "uu-7-2021")
    april_2021 = _wording(store, "uu-6-1983:pasal-13", dt.date(2021, 4, 1))
    assert {cid.split("#")[0] for cid in april_2021} == {"uu-11-2020"}
    assert any(
        "tarif bunga per bulan yang ditetapkan oleh Menteri Keuangan" in t for t in april_2021.values()
    )
    assert not any("2% (dua persen) per bulan" in t for t in april_2021.values())
    assert {cid.split("#")[0] for cid in _wording(store, "uu-6-1983:pasal-13", dt.date(2019, 6, 1))} == {
        "uu-28-2007"
    }
    assert {cid.split("#")[0] for cid in _wording(store, "uu-6-1983:pasal-13", dt.date(2022, 6, 1))} == {
        "uu-7-2021"
    }
    # 2001-2007: UU 16/2000 wording of KUP Pasal 9 (between the 1983 text and UU 28/2007)
    assert {cid.split("#")[0] for cid in _wording(store, "uu-6-1983:pasal-9", dt.date(2004, 6, 1))} == {
        "uu-16-2000"
    }


def test_vat_and_income_tax_chains_include_the_2000_acts(tmp_path: Path) -> None:
    store = _kb(tmp_path, "uu-7-1983", "uu-17-2000", "uu-36-2008", "uu-8-1983", "uu-18-2000", "uu-42-2009")
    assert {c.split("#")[0] for c in _wording(store, "uu-7-1983:pasal-17", dt.date(2005, 1, 1))} == {
        "uu-17-2000"
    }
    assert {c.split("#")[0] for c in _wording(store, "uu-8-1983:pasal-9", dt.date(2005, 1, 1))} == {
        "uu-18-2000"
    }
    assert {c.split("#")[0] for c in _wording(store, "uu-8-1983:pasal-9", dt.date(1999, 1, 1))} == {
        "uu-8-1983"
    }


def test_pmk_54_2025_no_longer_ends_pmk_11_2025(tmp_path: Path) -> None:
    store = _kb(tmp_path, "pmk-11-2025", "pmk-53-2025", "pmk-54-2025")
    pmk11 = store.chunks_of("pmk-11-2025")
    assert pmk11 and all(c.valid_to is None for c in pmk11)
    provisions = {c.provision for c in store.chunks_of("pmk-54-2025") if c.provision}
    assert "PMK 81/2024:pasal-1" in provisions
    assert not any(p.startswith("pmk-11-2025:") for p in provisions)


def test_an_absent_revoking_act_ends_the_document_on_its_recorded_date(tmp_path: Path) -> None:
    """Fixture: UU 11/2020 with its revoker recorded as an absent act (Perppu 2/2022, dated 2022-12-30).

    The corpus now holds the revoker (uu-6-2023); the metadata here is edited back to the absent form so the
    absent-revoker rule keeps its test."""
    src = tmp_path / "regs"
    for doc_id in ("uu-6-1983", "uu-11-2020"):
        shutil.copytree(REGS / doc_id, src / doc_id)
    meta_path = src / "uu-11-2020" / "metadata.json"
    raw = json.loads(meta_path.read_text(encoding="utf-8"))
    raw["revoked_by"] = []
    raw["absent_relations"] = [
        {"relation": "revoked_by", "number": "PERPU 2/2022", "date": "2022-12-30", "note": "fixture: absent"}
    ]
    meta_path.write_text(json.dumps(raw, ensure_ascii=False), encoding="utf-8")
    store = SqliteStore(tmp_path / "kb.sqlite", embedder_name="hashing-256")
    assert ingest_paths([src], store, HashingEmbedder()).ok
    doc = store.get_document("uu-11-2020")
    assert doc is not None and doc.meta.status == "revoked"
    assert doc.meta.revoked_by == ("PERPU 2/2022",)
    assert doc.effective_to == dt.date(2022, 12, 30)
    kup19 = "uu-6-1983:pasal-19"
    assert {c.split("#")[0] for c in _wording(store, kup19, dt.date(2021, 4, 1))} == {"uu-11-2020"}
    # after the revocation the Cipta Kerja wording never answers as current, though nothing replaces it here
    assert not any(c.startswith("uu-11-2020#") for c in _wording(store, kup19, dt.date(2023, 6, 1)))


def test_a_revoker_in_the_knowledge_base_ends_the_document_on_its_own_start(tmp_path: Path) -> None:
    """UU 11/2020 is revoked by Perppu 2/2022, whose text (annexed to UU 6/2023) is in the corpus."""
    store = _kb(tmp_path, "uu-6-1983", "uu-11-2020", "uu-6-2023")
    doc = store.get_document("uu-11-2020")
    assert doc is not None and doc.meta.status == "revoked" and doc.meta.revoked_by == ("uu-6-2023",)
    assert doc.meta.related_dates == ()
    assert doc.effective_to == dt.date(2022, 12, 30)
    kup19 = "uu-6-1983:pasal-19"
    assert {c.split("#")[0] for c in _wording(store, kup19, dt.date(2023, 6, 1))} == {"uu-6-2023"}


def test_an_absent_amending_act_is_said_in_the_answer_after_its_date(tmp_path: Path) -> None:
    """Issue 12 item 6: the quoted wording is not presented as current after an absent amender's date."""
    from types import SimpleNamespace

    from bot.answer.pipeline import answer_question
    from identity.principal import Principal
    from kb.query import AliasDictionary
    from kb.retrieve import RetrievalConfig, Retriever

    src = tmp_path / "regs" / "pmk-168-2023"
    shutil.copytree(REGS / "pmk-168-2023", src)
    meta = json.loads((src / "metadata.json").read_text())
    meta["absent_relations"] = [
        {"relation": "amended_by", "number": "PMK 999/2025", "date": "2025-06-01", "note": "test: not in KB"}
    ]
    (src / "metadata.json").write_text(json.dumps(meta), encoding="utf-8")
    store = SqliteStore(tmp_path / "kb.sqlite", embedder_name="hashing-256")
    assert ingest_paths([tmp_path / "regs"], store, HashingEmbedder()).ok
    retriever = Retriever(store, HashingEmbedder(), config=RetrievalConfig(mode="deterministic"))
    services = SimpleNamespace(store=store, retriever=retriever, aliases=AliasDictionary.load())
    guest = Principal.guest("cli", "local", "anonymous")
    question = "Sejak tanggal berapa PMK 168/2023 berlaku?"
    later = answer_question(question, guest, services, as_of=dt.date(2026, 1, 5))
    assert later.status == "answered", later.status
    said = [w for w in later.warnings if "PMK 999/2025" in w]
    assert said == [
        "PMK 168/2023 diubah oleh PMK 999/2025 pada 2025-06-01, yang tidak ada di basis pengetahuan: rumusan "
        "yang berlaku sekarang mungkin berbeda dari kutipan; periksa PMK 999/2025."
    ]
    before = answer_question(question, guest, services, as_of=dt.date(2025, 1, 5))
    assert not [w for w in before.warnings if "PMK 999/2025" in w]
    store.close()
