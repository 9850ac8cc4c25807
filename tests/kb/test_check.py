"""kb.check: the laws each document's chunks claim, links to absent acts, and real inconsistencies.

Small knowledge bases built from the real corpus text with the hashing embedder."""

from __future__ import annotations

import datetime as dt
import json
import shutil
from pathlib import Path

from kb.check import check_corpus
from kb.embed.hashing import HashingEmbedder
from kb.ingest import ingest_paths
from kb.store.sqlite import SqliteStore

ROOT = Path(__file__).resolve().parents[2]
REGS = ROOT / "corpus" / "regulations"


def _kb(tmp_path: Path, *doc_ids: str, edit: dict[str, dict] | None = None) -> SqliteStore:
    src = tmp_path / "regs"
    for doc_id in doc_ids:
        shutil.copytree(REGS / doc_id, src / doc_id)
        if edit and doc_id in edit:
            meta_path = src / doc_id / "metadata.json"
            meta = json.loads(meta_path.read_text(encoding="utf-8"))
            meta.update(edit[doc_id])
            meta_path.write_text(json.dumps(meta, ensure_ascii=False), encoding="utf-8")
    store = SqliteStore(tmp_path / "kb.sqlite", embedder_name="hashing-256")
    report = ingest_paths([src], store, HashingEmbedder())
    assert report.ok, report.to_json()["errors"]
    return store


def test_pmk_54_2025_claims_the_absent_pmk_81_2024_not_pmk_11_2025(tmp_path: Path) -> None:
    report = check_corpus(_kb(tmp_path, "pmk-54-2025", "pmk-11-2025"))
    assert report.ok, report.to_json()
    pmk54 = report.document("pmk-54-2025")
    assert pmk54 is not None
    assert set(pmk54.laws) == {"PMK 54/2025", "PMK 81/2024"}
    assert pmk54.laws["PMK 81/2024"] > 100
    absent = {(a.relation, a.target) for a in pmk54.absent}
    assert ("chunk_amends", "PMK 81/2024") in absent and ("amends", "PMK 81/2024") in absent
    assert "PMK 81/2024" in report.absent_targets
    assert "PMK 11/2025" not in pmk54.laws
    out = report.to_json()
    assert out["ok"] is True and out["documents_checked"] == 2
    json.dumps(out)  # serialisable


def test_omnibus_acts_claim_each_amended_law(tmp_path: Path) -> None:
    report = check_corpus(_kb(tmp_path, "uu-11-2020", "uu-7-2021", "uu-8-1983", "uu-6-2023"))
    assert report.ok, [d.errors for d in report.documents]
    cipta = report.document("uu-11-2020")
    hpp = report.document("uu-7-2021")
    perppu = report.document("uu-6-2023")
    assert cipta is not None and hpp is not None and perppu is not None
    assert {"UU 11/2020", "UU 6/1983", "UU 7/1983", "UU 8/1983"} <= set(cipta.laws)
    assert {"UU 7/2021", "UU 6/1983", "UU 7/1983", "UU 8/1983", "UU 11/1995"} <= set(hpp.laws)
    # the Perppu annexed to UU 6/2023 restates Pasal of the three laws, each under its own name
    assert set(perppu.laws) == {"UU 6/2023", "UU 6/1983", "UU 7/1983", "UU 8/1983"}
    assert perppu.errors == [] and perppu.warnings == []
    # the HPP elucidation of Pasal 7 UU PPN is no longer labelled with UU 36/2008 (UU PPh)
    assert "UU 36/2008" not in hpp.laws
    # the revoker is in the knowledge base now: no absent link left
    assert not [a for a in cipta.absent if a.relation == "revoked_by"]


def test_an_absent_revoker_is_listed_with_its_recorded_date(tmp_path: Path) -> None:
    # fixture: UU 11/2020 with its revoker recorded as an act outside the knowledge base
    absent = [{"relation": "revoked_by", "number": "PERPU 2/2022", "date": "2022-12-30", "note": "fixture"}]
    report = check_corpus(
        _kb(tmp_path, "uu-11-2020", edit={"uu-11-2020": {"revoked_by": [], "absent_relations": absent}})
    )
    cipta = report.document("uu-11-2020")
    assert cipta is not None
    revoked = [a for a in cipta.absent if a.relation == "revoked_by"]
    assert [(a.target, a.date) for a in revoked] == [("PERPU 2/2022", dt.date(2022, 12, 30))]


def test_undeclared_amended_law_is_an_error(tmp_path: Path) -> None:
    # metadata that forgets what the act amends: its restated Pasal claim a law it does not declare
    report = check_corpus(
        _kb(tmp_path, "pmk-54-2025", edit={"pmk-54-2025": {"amends": [], "absent_relations": []}})
    )
    assert not report.ok
    doc = report.document("pmk-54-2025")
    assert doc is not None
    kinds = {f.kind for f in doc.errors}
    assert kinds == {"undeclared_amended_law"}
    assert "PMK 81/2024" in doc.errors[0].detail
    assert report.to_json()["errors"] == 1


def test_self_relation_and_one_sided_links(tmp_path: Path) -> None:
    store = _kb(
        tmp_path,
        "uu-16-2009",
        "uu-6-1983",
        edit={"uu-16-2009": {"revokes": ["uu-16-2009"]}, "uu-6-1983": {"amended_by": []}},
    )
    report = check_corpus(store)
    assert not report.ok
    uu16 = report.document("uu-16-2009")
    assert uu16 is not None
    assert [f.kind for f in uu16.errors] == ["self_relation"]
    assert [f.kind for f in uu16.warnings] == ["one_sided_relation"]
    assert "uu-6-1983 has no amended_by uu-16-2009" in uu16.warnings[0].detail


def test_an_elucidation_holding_another_pasals_heading_is_a_warning(tmp_path: Path) -> None:
    # the shape OCR left in PP 44/2022 and UU 11/1994 before session 55 ("... Cukup jelas Pasal 16B Ayat (1)
    # ..."), where no chunker rule sees the heading: here the line break is lost and "3" misread as "30"
    store = _kb(tmp_path, "pp-46-2013")
    assert check_corpus(store).document("pp-46-2013").warnings == []  # type: ignore[union-attr]
    src = tmp_path / "regs" / "pp-46-2013" / "text.txt"
    text = src.read_text(encoding="utf-8")
    assert "Ayat (4) Cukup jelas.\nPasal 3\nAyat (1)" in text
    src.write_text(
        text.replace("Ayat (4) Cukup jelas.\nPasal 3\nAyat (1)", "Ayat (4) Cukup jelas ~ Pasal 30 Ayat (1)")
    )
    store.close()
    (tmp_path / "kb.sqlite").unlink()
    store = SqliteStore(tmp_path / "kb.sqlite", embedder_name="hashing-256")
    assert ingest_paths([tmp_path / "regs"], store, HashingEmbedder()).ok
    doc = check_corpus(store).document("pp-46-2013")
    assert doc is not None
    found = [f for f in doc.warnings if f.kind == "heading_inside_elucidation"]
    assert found and "penjelasan/pasal-2" in found[0].chunk_ids[0]
