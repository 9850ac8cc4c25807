"""Ingest: every bad-input case is reported with file and field, nothing half-written, re-ingest is a no-op,
a changed file is a new version, removal purges everything derived. Uses the hashing embedder (fast)."""

from __future__ import annotations

import datetime as dt
import logging
import sqlite3
from pathlib import Path

import pytest

from kb.chunking import CHUNKER_VERSION
from kb.embed.hashing import HashingEmbedder
from kb.ingest import ingest_paths
from kb.query import AliasDictionary
from kb.retrieve import Retriever
from kb.store.sqlite import SqliteStore

ROOT = Path(__file__).resolve().parents[2]
REGS = ROOT / "corpus" / "regulations"

GOOD_POLICY = """---
id: test-policy
title: Kebijakan Uji
number: TST-POL-001
type: policy
language: id
tax_types: [PPh 23]
effective_from: 2024-01-01
status: in_force
owner: tax.lead@example.co.id
approved_by: cfo@example.co.id
entities: [SNR]
access: [finance]
---
# Kebijakan Uji

## Ruang lingkup
Vendor jasa teknik dipotong PPh 23 sebesar 2% dari jumlah bruto.
"""


def _store(tmp_path: Path) -> SqliteStore:
    return SqliteStore(tmp_path / "kb.sqlite", embedder_name="hashing-256")


def _write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def _ingested_policy(tmp_path: Path) -> tuple[Path, SqliteStore]:
    """The folder holding the test policy and a fresh knowledge base it was ingested into."""
    src = tmp_path / "in"
    src.mkdir()
    _write(src, "policy.md", GOOD_POLICY)
    store = _store(tmp_path)
    ingest_paths([src], store, HashingEmbedder())
    return src, store


def _execute(db: Path, *statements: str) -> None:
    """Raw SQL against a knowledge-base file, as an older dasar would have left it."""
    conn = sqlite3.connect(db)
    try:
        for sql in statements:
            conn.execute(sql)
        conn.commit()
    finally:
        conn.close()


def _rows(store: SqliteStore, table: str) -> int:
    conn = sqlite3.connect(store.path)
    try:
        return conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
    finally:
        conn.close()


def test_good_policy_ingests_with_access_and_chunks(tmp_path: Path) -> None:
    src = tmp_path / "in"
    src.mkdir()
    _write(src, "policy.md", GOOD_POLICY)
    store = _store(tmp_path)
    report = ingest_paths([src], store, HashingEmbedder())
    assert report.added == ["test-policy"] and report.ok
    doc = store.get_document("test-policy")
    assert doc is not None and doc.meta.access == ("finance",) and doc.meta.entities == ("SNR",)
    chunks = store.chunks_of("test-policy", indexed_only=True)
    assert any("2% dari jumlah bruto" in c.text for c in chunks)
    assert store.stats()["vectors"] == len(chunks)


@pytest.mark.parametrize(
    ("name", "text", "field", "fragment"),
    [
        ("no-front.md", "# Judul\n\nisi\n", None, "missing YAML front matter"),
        ("unclosed.md", "---\nid: x\n", None, "not closed"),
        ("bad-yaml.md", "---\nid: x\ntitle: [unclosed\n---\nbody\n", None, "malformed front matter"),
        ("unknown.md", GOOD_POLICY.replace("access:", "acess:"), "acess", "unknown field"),
        ("missing.md", GOOD_POLICY.replace("number: TST-POL-001\n", ""), "number", "is required"),
        ("bad-date.md", GOOD_POLICY.replace("2024-01-01", "1 Jan 2024"), "effective_from", "ISO date"),
        ("bad-type.md", GOOD_POLICY.replace("type: policy", "type: blogpost"), "type", "unknown type"),
        (
            "bad-status.md",
            GOOD_POLICY.replace("status: in_force", "status: live"),
            "status",
            "unknown status",
        ),
        ("empty.md", GOOD_POLICY.split("# Kebijakan")[0], "text", "no text"),
    ],
)
def test_bad_input_is_reported_with_file_and_field_and_others_still_ingest(
    tmp_path: Path, name: str, text: str, field: str | None, fragment: str
) -> None:
    src = tmp_path / "in"
    src.mkdir()
    _write(src, name, text)
    _write(
        src, "zz-good.md", GOOD_POLICY.replace("test-policy", "good-one").replace("TST-POL-001", "TST-POL-9")
    )
    store = _store(tmp_path)
    report = ingest_paths([src], store, HashingEmbedder())
    assert not report.ok
    assert len(report.errors) == 1
    err = report.errors[0]
    assert err.path.endswith(name)
    assert err.field == field
    assert fragment in str(err)
    assert report.added == ["good-one"]
    assert [d.meta.id for d in store.list_documents()] == ["good-one"]


def test_malformed_yaml_error_names_the_line(tmp_path: Path) -> None:
    src = tmp_path / "in"
    src.mkdir()
    _write(src, "bad.md", "---\nid: x\ntitle: ok\nnumber: [oops\n---\nbody\n")
    report = ingest_paths([src], _store(tmp_path), HashingEmbedder())
    assert report.errors[0].line is not None and report.errors[0].line >= 4


def test_duplicate_id_and_number_rejected(tmp_path: Path) -> None:
    src = tmp_path / "in"
    src.mkdir()
    _write(src, "a.md", GOOD_POLICY)
    _write(src, "b.md", GOOD_POLICY.replace("TST-POL-001", "TST-POL-002"))  # same id
    _write(src, "c.md", GOOD_POLICY.replace("test-policy", "other-id"))  # same number
    report = ingest_paths([src], _store(tmp_path), HashingEmbedder())
    assert report.added == ["test-policy"]
    fields = sorted((Path(e.path).name, e.field) for e in report.errors)
    assert fields == [("b.md", "id"), ("c.md", "number")]


def test_unreadable_pdf_and_missing_sidecar(tmp_path: Path) -> None:
    src = tmp_path / "in"
    src.mkdir()
    (src / "broken.pdf").write_bytes(b"%PDF-1.4 this is not really a pdf")
    _write(
        src,
        "broken.meta.yaml",
        "id: broken\ntitle: Broken\nnumber: B-1\ntype: procedure\nowner: a@b.c\naccess: [finance]\n",
    )
    (src / "orphan.pdf").write_bytes(b"%PDF-1.4")
    report = ingest_paths([src], _store(tmp_path), HashingEmbedder())
    by_name = {Path(e.path).name: e for e in report.errors}
    assert "not a readable PDF" in str(by_name["broken.pdf"])
    assert by_name["orphan.meta.yaml"].field == "id" and "sidecar" in str(by_name["orphan.meta.yaml"])
    assert report.added == []


def test_pdf_with_text_layer_and_sidecar_ingests(tmp_path: Path) -> None:
    from fpdf import FPDF

    src = tmp_path / "in"
    src.mkdir()
    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("Helvetica", size=11)
    pdf.multi_cell(0, 6, "Prosedur Retur Faktur\n\nSetiap retur wajib dilaporkan dalam 30 hari kalender.")
    pdf.output(str(src / "retur.pdf"))
    _write(
        src,
        "retur.meta.yaml",
        "id: retur-procedure\ntitle: Prosedur Retur\nnumber: TST-PRO-7\ntype: procedure\n"
        "owner: ap.lead@example.co.id\naccess: [ap]\neffective_from: 2024-02-01\n",
    )
    store = _store(tmp_path)
    report = ingest_paths([src], store, HashingEmbedder())
    assert report.added == ["retur-procedure"], report.to_json()
    assert "30 hari kalender" in store.document_text("retur-procedure")
    assert store.versions("retur-procedure")[0]["original_name"] == "retur.pdf"


def test_remove_leaves_no_row_in_any_sqlite_table(tmp_path: Path) -> None:
    _src, store = _ingested_policy(tmp_path)
    store.cache_answer("q1", ["test-policy"], '{"status": "answered"}')
    assert store.cached_answer("q1") is not None
    assert store.remove_document("test-policy") > 0
    for table in (
        "chunks",
        "chunk_vectors",
        "chunks_fts",
        "edges",
        "answer_cache",
        "doc_access",
        "embed_cache",
    ):
        assert _rows(store, table) == 0, table
    assert store.get_document("test-policy") is None


def test_missing_path_is_an_error_not_a_crash(tmp_path: Path) -> None:
    report = ingest_paths([tmp_path / "nope"], _store(tmp_path), HashingEmbedder())
    assert "no such file" in str(report.errors[0])


def test_documents_chunked_by_an_older_chunker_are_rechunked_without_a_new_version(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    src, store = _ingested_policy(tmp_path)
    _execute(
        store.path,
        "UPDATE documents SET chunker_version='0'",  # as if an older dasar had written it
        "UPDATE chunks SET text='stale' WHERE doc_id='test-policy' AND indexed=1",
    )
    version = store.corpus_version()
    with caplog.at_level(logging.WARNING, logger="kb.retrieve"):  # searching a stale knowledge base says so
        Retriever(store, None, aliases=AliasDictionary.empty()).documents()
    assert "chunked by an older dasar" in caplog.text and "dasar ingest" in caplog.text
    first_ingested = store.versions("test-policy")[0]["ingested_at"]
    report = ingest_paths([src], store, HashingEmbedder(), now=lambda: dt.datetime(2031, 1, 1, tzinfo=dt.UTC))
    assert report.rechunked == ["test-policy"] and report.updated == [] and report.unchanged == []
    assert store.versions("test-policy")[0]["ingested_at"] == first_ingested  # when the wording arrived
    assert report.to_json()["rechunked"] == ["test-policy"]
    doc = store.get_document("test-policy")
    assert doc is not None and doc.version_no == 1 and doc.chunker_version == CHUNKER_VERSION
    assert [v["version_no"] for v in store.versions("test-policy")] == [1]
    assert "stale" not in {c.text for c in store.chunks_of("test-policy")}
    assert store.corpus_version() != version
    assert ingest_paths([src], store, HashingEmbedder()).unchanged == ["test-policy"]


def test_knowledge_base_written_before_chunker_versions_opens_and_rechunks(tmp_path: Path) -> None:
    src, store = _ingested_policy(tmp_path)
    store.close()
    # the documents table as it was before the column existed
    _execute(tmp_path / "kb.sqlite", "ALTER TABLE documents DROP COLUMN chunker_version")
    reopened = _store(tmp_path)
    assert reopened.get_document("test-policy").chunker_version == ""  # type: ignore[union-attr]
    assert ingest_paths([src], reopened, HashingEmbedder()).rechunked == ["test-policy"]
