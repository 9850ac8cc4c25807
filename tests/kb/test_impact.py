"""Ingest reports which existing chunks changed wording or validity (kb.impact)."""

from __future__ import annotations

import shutil
from pathlib import Path

from kb.embed.hashing import HashingEmbedder
from kb.ingest import ingest_paths
from kb.store.sqlite import SqliteStore

REGS = Path(__file__).resolve().parents[2] / "corpus" / "regulations"
EMBEDDER = HashingEmbedder()


def test_an_amending_act_closes_the_window_of_the_wording_it_replaces(tmp_path: Path) -> None:
    src = tmp_path / "corpus"
    for doc_id in ("uu-8-1983", "uu-42-2009"):
        shutil.copytree(REGS / doc_id, src / doc_id)
    store = SqliteStore(tmp_path / "kb.sqlite", embedder_name=EMBEDDER.name)
    first = ingest_paths([src], store, EMBEDDER)
    assert first.impact is not None and first.impact.to_json()["changes"] == []  # only additions

    again = ingest_paths([src], store, EMBEDDER)
    assert again.impact is None  # nothing written, nothing changed

    shutil.copytree(REGS / "uu-7-2021", src / "uu-7-2021")
    report = ingest_paths([src], store, EMBEDDER)
    assert report.impact is not None
    closed = [c for c in report.impact.changes if c.kind == "validity" and c.doc_id == "uu-42-2009"]
    pasal7 = [c for c in closed if c.provision == "uu-8-1983:pasal-7"]
    assert pasal7, [c.chunk_id for c in closed][:10]
    assert all(c.after is not None and c.after[1] == "2022-04-01" for c in pasal7)
    assert all(c.before is not None and c.before[1] is None for c in pasal7)
    as_json = report.to_json()["impact"]
    assert isinstance(as_json, dict) and "uu-8-1983:pasal-7" in as_json["provisions"]
    assert "uu-42-2009" in as_json["documents"]
    store.close()


def test_removing_a_document_is_listed_by_the_next_diff(tmp_path: Path) -> None:
    from kb.impact import diff, snapshot

    src = tmp_path / "corpus"
    shutil.copytree(REGS / "pp-23-2018", src / "pp-23-2018")
    store = SqliteStore(tmp_path / "kb.sqlite", embedder_name=EMBEDDER.name)
    ingest_paths([src], store, EMBEDDER)
    before = snapshot(store)
    store.remove_document("pp-23-2018")
    changes = diff(before, snapshot(store))
    assert changes and {c.kind for c in changes} == {"removed"}
    assert {c.doc_id for c in changes} == {"pp-23-2018"}
    store.close()
