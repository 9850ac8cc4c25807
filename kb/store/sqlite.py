"""The embedded knowledge-base store: one SQLite file with documents, versions, chunks, edges,
an FTS5 index (BM25) and float32 vectors.

Filtering happens in SQL before any score is computed: the visible-chunk predicate (access groups,
status, quarantine, effective windows, optional narrowing) is part of every search statement, and
vector search only ever scores rows that predicate returned.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import sqlite3
import threading
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import asdict
from pathlib import Path
from typing import Any

import numpy as np

from kb.errors import NotFoundError, StoreError, store_write_error
from kb.model import Chunk, DocumentMeta, Edge
from kb.store.protocol import SearchFilter, StoredDocument, corpus_version_of
from kb.store.visibility import SQLITE, routed_query, visible_documents_query, visible_predicate

SCHEMA_VERSION = "1"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS documents (
    id TEXT PRIMARY KEY,
    number TEXT NOT NULL UNIQUE,
    type TEXT NOT NULL,
    title TEXT NOT NULL,
    status TEXT NOT NULL,
    jurisdiction TEXT,
    language TEXT,
    quarantine_reason TEXT,
    effective_from TEXT,
    effective_to TEXT,
    meta_json TEXT NOT NULL,
    source_path TEXT NOT NULL,
    content_hash TEXT NOT NULL,
    version_no INTEGER NOT NULL,
    ingested_at TEXT NOT NULL,
    injection_flags TEXT NOT NULL DEFAULT '[]',
    chunker_version TEXT NOT NULL DEFAULT ''
);
CREATE TABLE IF NOT EXISTS doc_access (doc_id TEXT NOT NULL, grp TEXT NOT NULL, PRIMARY KEY (doc_id, grp));
CREATE TABLE IF NOT EXISTS doc_values (
    doc_id TEXT NOT NULL, field TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY (doc_id, field, value));
CREATE TABLE IF NOT EXISTS versions (
    doc_id TEXT NOT NULL,
    version_no INTEGER NOT NULL,
    content_hash TEXT NOT NULL,
    ingested_at TEXT NOT NULL,
    original_name TEXT NOT NULL,
    original BLOB NOT NULL,
    text TEXT NOT NULL,
    meta_json TEXT NOT NULL,
    PRIMARY KEY (doc_id, version_no)
);
CREATE TABLE IF NOT EXISTS chunks (
    rowid INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    doc_id TEXT NOT NULL,
    key TEXT NOT NULL,
    kind TEXT NOT NULL,
    location TEXT NOT NULL,
    text TEXT NOT NULL,
    prefix TEXT NOT NULL,
    parent_id TEXT,
    pasal TEXT,
    ayat TEXT,
    huruf TEXT,
    provision TEXT,
    valid_from TEXT,
    valid_to TEXT,
    is_example INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    section TEXT,
    indexed INTEGER NOT NULL,
    parsed_json TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS chunks_doc ON chunks(doc_id, seq);
CREATE INDEX IF NOT EXISTS chunks_provision ON chunks(provision);
CREATE VIRTUAL TABLE IF NOT EXISTS chunks_fts USING fts5(
    prefix, text, tokenize = "unicode61 remove_diacritics 2 tokenchars '%'");
CREATE TABLE IF NOT EXISTS chunk_vectors (chunk_rowid INTEGER PRIMARY KEY, vec BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS embed_cache (hash TEXT PRIMARY KEY, vec BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS edges (
    src TEXT NOT NULL, dst TEXT NOT NULL, kind TEXT NOT NULL, derived INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (src, dst, kind));
CREATE INDEX IF NOT EXISTS edges_dst ON edges(dst);
CREATE TABLE IF NOT EXISTS answer_cache (
    key TEXT PRIMARY KEY, corpus_version TEXT NOT NULL, created_at TEXT NOT NULL, payload TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS answer_cache_docs (
    key TEXT NOT NULL, doc_id TEXT NOT NULL, PRIMARY KEY (key, doc_id));
CREATE INDEX IF NOT EXISTS answer_cache_docs_doc ON answer_cache_docs(doc_id);
"""

_ISO = dt.date.isoformat


def _d(value: str | None) -> dt.date | None:
    return dt.date.fromisoformat(value) if value else None


def meta_to_json(meta: DocumentMeta) -> str:
    def enc(v: Any) -> Any:
        if isinstance(v, dt.date):
            return v.isoformat()
        if isinstance(v, tuple):
            return list(v)
        return v

    return json.dumps({k: enc(v) for k, v in asdict(meta).items()}, ensure_ascii=False, sort_keys=True)


def meta_from_json(raw: str) -> DocumentMeta:
    data = json.loads(raw)
    for key in ("enacted", "effective_from", "effective_to", "accessed", "review_by"):
        data[key] = _d(data.get(key))
    for key, value in list(data.items()):
        if isinstance(value, list):
            data[key] = tuple(value)
    return DocumentMeta(**data)


def _row_chunk(row: sqlite3.Row) -> Chunk:
    return Chunk(
        id=row["id"],
        doc_id=row["doc_id"],
        key=row["key"],
        kind=row["kind"],
        location=row["location"],
        text=row["text"],
        prefix=row["prefix"],
        parent_id=row["parent_id"],
        pasal=row["pasal"],
        ayat=row["ayat"],
        huruf=row["huruf"],
        provision=row["provision"],
        valid_from=_d(row["valid_from"]),
        valid_to=_d(row["valid_to"]),
        is_example=bool(row["is_example"]),
        seq=row["seq"],
        section=row["section"],
        indexed=bool(row["indexed"]),
    )


class SqliteStore:
    """One SQLite file; safe to share across threads of one process (a lock guards the connection)."""

    def __init__(self, path: Path | str, *, embedder_name: str | None = None) -> None:
        self.path = Path(path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._conn = sqlite3.connect(str(self.path), check_same_thread=False, isolation_level=None)
        except (OSError, sqlite3.Error) as exc:
            raise StoreError(f"cannot open knowledge base {self.path}: {exc}") from None
        self._conn.row_factory = sqlite3.Row
        self._lock = threading.RLock()
        self._matrix: tuple[np.ndarray, np.ndarray] | None = None  # (rowids, vectors), dropped on write
        try:
            self._conn.execute("PRAGMA journal_mode=WAL")
            self._conn.execute("PRAGMA foreign_keys=ON")
            self._conn.executescript(_SCHEMA)
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{self.path} is not a dasar knowledge base ({exc})") from None
        version = self.get_meta("schema_version")
        if version is None:
            self.set_meta("schema_version", SCHEMA_VERSION)
        elif version != SCHEMA_VERSION:
            raise StoreError(
                f"{self.path} has schema {version}, this dasar reads {SCHEMA_VERSION}; re-ingest"
            )
        self._add_chunker_version_column()
        if embedder_name is not None:
            known = self.get_meta("embedder")
            if known is None:
                self.set_meta("embedder", embedder_name)
            elif known != embedder_name:
                raise StoreError(
                    f"{self.path} was built with embedder {known!r}, not {embedder_name!r}; "
                    "use a new --kb file"
                )

    def _add_chunker_version_column(self) -> None:
        """Knowledge bases written before chunker versions were recorded get the column (once, race-free:
        the bot and the Teams worker may open the same file at the same moment)."""
        with self._lock:
            if any(
                r["name"] == "chunker_version" for r in self._conn.execute("PRAGMA table_info(documents)")
            ):
                return
            try:
                self._conn.execute(
                    "ALTER TABLE documents ADD COLUMN chunker_version TEXT NOT NULL DEFAULT ''"
                )
            except sqlite3.OperationalError as exc:
                if "duplicate column" not in str(exc):
                    raise StoreError(f"{self.path}: cannot add the chunker_version column ({exc})") from None

    # --- plumbing ------------------------------------------------------------------------------

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One IMMEDIATE transaction: all or nothing."""
        with self._lock:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield self._conn
                self._conn.execute("COMMIT")
            except sqlite3.Error as exc:
                self._rollback()
                raise store_write_error(self.path, exc) from exc
            except BaseException:
                self._rollback()
                raise
            else:
                self._matrix = None

    def _rollback(self) -> None:
        """Undo the open transaction (a failed COMMIT may already have ended it)."""
        if self._conn.in_transaction:
            with suppress(sqlite3.Error):  # a full disk can fail the rollback too; SQLite undoes it on reopen
                self._conn.execute("ROLLBACK")

    def _q(self, sql: str, params: Sequence[Any] | dict[str, Any] = ()) -> list[sqlite3.Row]:
        with self._lock:
            return self._conn.execute(sql, params).fetchall()

    def get_meta(self, key: str) -> str | None:
        rows = self._q("SELECT value FROM meta WHERE key=?", (key,))
        return rows[0]["value"] if rows else None

    def set_meta(self, key: str, value: str) -> None:
        with self._lock:
            self._conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", (key, value))

    # --- documents ---------------------------------------------------------------------------

    def _stored(self, row: sqlite3.Row) -> StoredDocument:
        count = self._q("SELECT count(*) AS n FROM chunks WHERE doc_id=? AND indexed=1", (row["id"],))[0]["n"]
        return StoredDocument(
            meta=meta_from_json(row["meta_json"]),
            content_hash=row["content_hash"],
            version_no=row["version_no"],
            source_path=row["source_path"],
            ingested_at=row["ingested_at"],
            quarantine_reason=row["quarantine_reason"],
            effective_to=_d(row["effective_to"]),
            chunk_count=count,
            injection_flags=tuple(json.loads(row["injection_flags"])),
            chunker_version=row["chunker_version"],
        )

    def get_document(self, doc_id: str) -> StoredDocument | None:
        rows = self._q("SELECT * FROM documents WHERE id=?", (doc_id,))
        return self._stored(rows[0]) if rows else None

    def document_by_number(self, number: str) -> StoredDocument | None:
        rows = self._q("SELECT * FROM documents WHERE number=?", (number,))
        return self._stored(rows[0]) if rows else None

    def list_documents(self) -> list[StoredDocument]:
        return [self._stored(r) for r in self._q("SELECT * FROM documents ORDER BY id")]

    def document_text(self, doc_id: str) -> str:
        rows = self._q("SELECT text FROM versions WHERE doc_id=? ORDER BY version_no DESC LIMIT 1", (doc_id,))
        if not rows:
            raise NotFoundError(f"no document {doc_id!r} in {self.path}")
        return str(rows[0]["text"])

    def versions(self, doc_id: str) -> list[dict[str, Any]]:
        rows = self._q(
            "SELECT version_no, content_hash, ingested_at, original_name, length(original) AS size "
            "FROM versions WHERE doc_id=? ORDER BY version_no",
            (doc_id,),
        )
        return [dict(r) for r in rows]

    def write_document(
        self,
        doc: StoredDocument,
        text: str,
        original: bytes,
        original_name: str,
        chunks: Sequence[Chunk],
        edges: Sequence[Edge],
        vectors: dict[str, np.ndarray],
        payloads: dict[str, str] | None = None,
    ) -> None:
        meta = doc.meta
        payloads = payloads or {}
        with self.transaction() as conn:
            self._delete_derived(conn, meta.id)
            conn.execute("DELETE FROM documents WHERE id=?", (meta.id,))
            conn.execute(
                "INSERT INTO documents(id, number, type, title, status, jurisdiction, language,"
                " quarantine_reason, effective_from, effective_to, meta_json, source_path, content_hash,"
                " version_no, ingested_at, injection_flags, chunker_version)"
                " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (
                    meta.id,
                    meta.number,
                    meta.type,
                    meta.title,
                    meta.status,
                    meta.jurisdiction,
                    meta.language,
                    doc.quarantine_reason,
                    meta.effective_from and _ISO(meta.effective_from),
                    doc.effective_to and _ISO(doc.effective_to),
                    meta_to_json(meta),
                    doc.source_path,
                    doc.content_hash,
                    doc.version_no,
                    doc.ingested_at,
                    json.dumps(list(doc.injection_flags)),
                    doc.chunker_version,
                ),
            )
            conn.executemany(
                "INSERT INTO doc_access(doc_id, grp) VALUES (?, ?)",
                [(meta.id, g) for g in sorted(set(meta.access))],
            )
            values = [(meta.id, "entity", v) for v in meta.entities] + [
                (meta.id, "tax_type", v) for v in meta.tax_types
            ]
            conn.executemany("INSERT OR IGNORE INTO doc_values(doc_id, field, value) VALUES (?,?,?)", values)
            conn.execute(
                "INSERT INTO versions(doc_id, version_no, content_hash, ingested_at, original_name,"
                " original, text, meta_json) VALUES (?,?,?,?,?,?,?,?)"
                # a re-chunk rewrites the same version: keep when that wording entered the knowledge base
                " ON CONFLICT(doc_id, version_no) DO NOTHING",
                (
                    meta.id,
                    doc.version_no,
                    doc.content_hash,
                    doc.ingested_at,
                    original_name,
                    original,
                    text,
                    meta_to_json(meta),
                ),
            )
            for chunk in chunks:
                cur = conn.execute(
                    "INSERT INTO chunks(id, doc_id, key, kind, location, text, prefix, parent_id, pasal,"
                    " ayat, huruf, provision, valid_from, valid_to, is_example, seq, section, indexed,"
                    " parsed_json)"
                    " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                    (
                        chunk.id,
                        chunk.doc_id,
                        chunk.key,
                        chunk.kind,
                        chunk.location,
                        chunk.text,
                        chunk.prefix,
                        chunk.parent_id,
                        chunk.pasal,
                        chunk.ayat,
                        chunk.huruf,
                        chunk.provision,
                        chunk.valid_from and _ISO(chunk.valid_from),
                        chunk.valid_to and _ISO(chunk.valid_to),
                        int(chunk.is_example),
                        chunk.seq,
                        chunk.section,
                        int(chunk.indexed),
                        payloads.get(chunk.id, "{}"),
                    ),
                )
                rowid = cur.lastrowid
                if chunk.indexed:
                    conn.execute(
                        "INSERT INTO chunks_fts(rowid, prefix, text) VALUES (?,?,?)",
                        (rowid, chunk.prefix, chunk.text),
                    )
                    vec = vectors.get(chunk.id)
                    if vec is not None:
                        conn.execute(
                            "INSERT INTO chunk_vectors(chunk_rowid, vec) VALUES (?, ?)",
                            (rowid, np.asarray(vec, dtype=np.float32).tobytes()),
                        )
            conn.executemany(
                "INSERT OR IGNORE INTO edges(src, dst, kind, derived) VALUES (?,?,?,0)",
                [(e.src, e.dst, e.kind) for e in edges],
            )

    def _delete_derived(self, conn: sqlite3.Connection, doc_id: str) -> int:
        rowids = [r[0] for r in conn.execute("SELECT rowid FROM chunks WHERE doc_id=?", (doc_id,))]
        ids = [r[0] for r in conn.execute("SELECT id FROM chunks WHERE doc_id=?", (doc_id,))]
        for i in range(0, len(rowids), 500):
            part = rowids[i : i + 500]
            marks = ",".join("?" * len(part))
            conn.execute(f"DELETE FROM chunks_fts WHERE rowid IN ({marks})", part)
            conn.execute(f"DELETE FROM chunk_vectors WHERE chunk_rowid IN ({marks})", part)
        for i in range(0, len(ids), 500):
            part = ids[i : i + 500]
            marks = ",".join("?" * len(part))
            conn.execute(f"DELETE FROM edges WHERE src IN ({marks}) OR dst IN ({marks})", part + part)
        conn.execute("DELETE FROM edges WHERE dst=?", (f"doc:{doc_id}",))
        conn.execute("DELETE FROM chunks WHERE doc_id=?", (doc_id,))
        conn.execute("DELETE FROM doc_access WHERE doc_id=?", (doc_id,))
        conn.execute("DELETE FROM doc_values WHERE doc_id=?", (doc_id,))
        self._purge_cached(conn, [doc_id])
        return len(rowids)

    def remove_document(self, doc_id: str) -> int:
        if self.get_document(doc_id) is None:
            raise NotFoundError(f"no document {doc_id!r} in {self.path} (see `dasar kb list`)")
        with self.transaction() as conn:
            # the embedding cache rows of this document's passages go too (matched by vector: a cache
            # row shared with identical text elsewhere is only a cache miss later)
            conn.execute(
                "DELETE FROM embed_cache WHERE vec IN (SELECT v.vec FROM chunk_vectors v JOIN chunks c "
                "ON c.rowid = v.chunk_rowid WHERE c.doc_id = ?)",
                (doc_id,),
            )
            removed = self._delete_derived(conn, doc_id)
            conn.execute("DELETE FROM documents WHERE id=?", (doc_id,))
            conn.execute("DELETE FROM versions WHERE doc_id=?", (doc_id,))
        return removed

    # --- chunks and edges --------------------------------------------------------------------

    def get_chunks(self, ids: Sequence[str]) -> dict[str, Chunk]:
        out: dict[str, Chunk] = {}
        ids = list(dict.fromkeys(ids))
        for i in range(0, len(ids), 500):
            part = ids[i : i + 500]
            marks = ",".join("?" * len(part))
            for row in self._q(f"SELECT * FROM chunks WHERE id IN ({marks})", part):
                out[row["id"]] = _row_chunk(row)
        return out

    def chunks_of(self, doc_id: str, *, indexed_only: bool = False) -> list[Chunk]:
        sql = (
            "SELECT * FROM chunks WHERE doc_id=?"
            + (" AND indexed=1" if indexed_only else "")
            + " ORDER BY seq"
        )
        return [_row_chunk(r) for r in self._q(sql, (doc_id,))]

    def iter_parse_payloads(self) -> Iterator[tuple[Chunk, dict[str, Any]]]:
        for row in self._q("SELECT * FROM chunks ORDER BY doc_id, seq"):
            yield _row_chunk(row), json.loads(row["parsed_json"])

    def edges_from(self, ids: Sequence[str], kinds: Sequence[str]) -> list[Edge]:
        return self._edges("src", "dst", ids, kinds)

    def edges_to(self, ids: Sequence[str], kinds: Sequence[str]) -> list[Edge]:
        return self._edges("dst", "src", ids, kinds)

    def _edges(self, end: str, other: str, ids: Sequence[str], kinds: Sequence[str]) -> list[Edge]:
        """Edges of ``kinds`` whose ``end`` ("src" or "dst") is one of ``ids``, by end, kind, other."""
        out: list[Edge] = []
        ids = list(dict.fromkeys(ids))
        kmarks = ",".join("?" * len(kinds))
        for i in range(0, len(ids), 400):
            part = ids[i : i + 400]
            marks = ",".join("?" * len(part))
            rows = self._q(
                f"SELECT src, dst, kind FROM edges WHERE {end} IN ({marks}) AND kind IN ({kmarks})"
                f" ORDER BY {end}, kind, {other}",
                [*part, *kinds],
            )
            out.extend(Edge(r["src"], r["dst"], r["kind"]) for r in rows)
        return out

    def replace_derived(
        self,
        windows: Iterable[tuple[str, str | None, dt.date | None, dt.date | None]],
        edges: Iterable[Edge],
        doc_effective_to: dict[str, dt.date | None],
    ) -> None:
        """Store the corpus-wide derived state (validity windows, cross-document edges) atomically."""
        with self.transaction() as conn:
            conn.executemany(
                "UPDATE chunks SET provision=?, valid_from=?, valid_to=? WHERE id=?",
                [(prov, vf and _ISO(vf), vt and _ISO(vt), cid) for cid, prov, vf, vt in windows],
            )
            conn.execute("DELETE FROM edges WHERE derived=1")
            conn.executemany(
                "INSERT OR IGNORE INTO edges(src, dst, kind, derived) VALUES (?,?,?,1)",
                [(e.src, e.dst, e.kind) for e in edges],
            )
            conn.executemany(
                "UPDATE documents SET effective_to=? WHERE id=?",
                [(v and _ISO(v), k) for k, v in doc_effective_to.items()],
            )
            conn.execute(
                "INSERT OR REPLACE INTO meta(key, value) VALUES ('corpus_version', ?)",
                (self._compute_corpus_version(conn),),
            )

    # --- versions of the corpus and cached answers ---------------------------------------------

    @staticmethod
    def _compute_corpus_version(conn: sqlite3.Connection) -> str:
        return corpus_version_of(
            tuple(r)
            for r in conn.execute("SELECT id, content_hash, chunker_version FROM documents ORDER BY id")
        )

    def corpus_version(self) -> str:
        with self._lock:
            return self._compute_corpus_version(self._conn)

    def cache_answer(self, key: str, doc_ids: Iterable[str], payload: str, *, pinned: bool = True) -> None:
        version = self.corpus_version() if pinned else ""
        with self.transaction() as conn:
            conn.execute(
                "INSERT OR REPLACE INTO answer_cache(key, corpus_version, created_at, payload)"
                " VALUES (?,?,?,?)",
                (key, version, dt.datetime.now(dt.UTC).isoformat(), payload),
            )
            conn.execute("DELETE FROM answer_cache_docs WHERE key=?", (key,))
            conn.executemany(
                "INSERT OR IGNORE INTO answer_cache_docs(key, doc_id) VALUES (?,?)",
                [(key, d) for d in sorted(set(doc_ids))],
            )

    def cached_answer(self, key: str) -> str | None:
        rows = self._q("SELECT payload, corpus_version FROM answer_cache WHERE key=?", (key,))
        if not rows:
            return None
        pinned_to = rows[0]["corpus_version"]
        if pinned_to and pinned_to != self.corpus_version():
            return None
        return str(rows[0]["payload"])

    def cached_answer_count(self) -> int:
        return int(self._q("SELECT count(*) AS n FROM answer_cache")[0]["n"])

    @staticmethod
    def _purge_cached(conn: sqlite3.Connection, doc_ids: Iterable[str] | None) -> int:
        if doc_ids is None:
            conn.execute("DELETE FROM answer_cache_docs")
            return conn.execute("DELETE FROM answer_cache").rowcount
        ids = sorted(set(doc_ids))
        keys: set[str] = set()
        for i in range(0, len(ids), 500):
            part = ids[i : i + 500]
            marks = ",".join("?" * len(part))
            sql = f"SELECT key FROM answer_cache_docs WHERE doc_id IN ({marks})"
            keys.update(r[0] for r in conn.execute(sql, part))
        removed = 0
        ordered = sorted(keys)
        for i in range(0, len(ordered), 500):
            part = ordered[i : i + 500]
            marks = ",".join("?" * len(part))
            removed += conn.execute(f"DELETE FROM answer_cache WHERE key IN ({marks})", part).rowcount
            conn.execute(f"DELETE FROM answer_cache_docs WHERE key IN ({marks})", part)
        return removed

    def purge_cached_answers(self, doc_ids: Iterable[str] | None = None) -> int:
        with self.transaction() as conn:
            return self._purge_cached(conn, doc_ids)

    def drop_cached_answer(self, key: str) -> bool:
        with self.transaction() as conn:
            conn.execute("DELETE FROM answer_cache_docs WHERE key=?", (key,))
            return conn.execute("DELETE FROM answer_cache WHERE key=?", (key,)).rowcount > 0

    # --- embeddings ----------------------------------------------------------------------------

    def cached_vectors(self, keys: Sequence[str]) -> dict[str, np.ndarray]:
        out: dict[str, np.ndarray] = {}
        for i in range(0, len(keys), 500):
            part = list(keys[i : i + 500])
            marks = ",".join("?" * len(part))
            for row in self._q(f"SELECT hash, vec FROM embed_cache WHERE hash IN ({marks})", part):
                out[row["hash"]] = np.frombuffer(row["vec"], dtype=np.float32)
        return out

    def put_vectors(self, items: dict[str, np.ndarray]) -> None:
        with self.transaction() as conn:
            conn.executemany(
                "INSERT OR REPLACE INTO embed_cache(hash, vec) VALUES (?, ?)",
                [(k, np.asarray(v, dtype=np.float32).tobytes()) for k, v in items.items()],
            )

    # --- search --------------------------------------------------------------------------------

    def _visible_sql(self, flt: SearchFilter, *, chunk_level: bool = True) -> tuple[str, list[Any]]:
        """The filter-first predicate over ``c`` (chunks) and ``d`` (documents), see kb.store.visibility."""
        return visible_predicate(flt, SQLITE, chunk_level=chunk_level)

    def visible_chunk_ids(self, flt: SearchFilter, chunk_ids: Sequence[str] | None = None) -> set[str]:
        """Which of ``chunk_ids`` (or all chunks) the filter lets through; used to re-check results."""
        where, params = self._visible_sql(flt)
        sql = f"SELECT c.id FROM chunks c JOIN documents d ON d.id = c.doc_id WHERE {where}"
        if chunk_ids is None:
            return {r["id"] for r in self._q(sql, params)}
        out: set[str] = set()
        ids = list(dict.fromkeys(chunk_ids))
        for i in range(0, len(ids), 400):
            part = ids[i : i + 400]
            rows = self._q(sql + f" AND c.id IN ({','.join('?' * len(part))})", [*params, *part])
            out.update(r["id"] for r in rows)
        return out

    def routed_chunk_ids(
        self,
        flt: SearchFilter,
        *,
        provisions: Sequence[str] = (),
        doc_pasal: Sequence[tuple[str, str | None, str | None]] = (),
        limit: int = 50,
    ) -> list[str]:
        """Visible chunks named directly by a query ("UU PPN Pasal 7"): by provision or by doc + Pasal."""
        query = routed_query(flt, provisions, doc_pasal, limit, SQLITE)
        return [r["id"] for r in self._q(*query)] if query else []

    def visible_documents(self, flt: SearchFilter) -> set[str]:
        """Documents that may be shown under ``flt`` (used to re-check structure nodes and expansions)."""
        return {r["id"] for r in self._q(*visible_documents_query(flt, SQLITE))}

    def keyword_search(self, match: str, flt: SearchFilter, limit: int) -> list[tuple[str, float]]:
        if not match.strip():
            return []
        where, params = self._visible_sql(flt)
        sql = (
            "SELECT c.id AS id, bm25(chunks_fts, 0.4, 1.0) AS rank FROM chunks_fts "
            "JOIN chunks c ON c.rowid = chunks_fts.rowid JOIN documents d ON d.id = c.doc_id "
            f"WHERE chunks_fts MATCH ? AND {where} ORDER BY rank, c.id LIMIT ?"
        )
        try:
            rows = self._q(sql, [match, *params, limit])
        except sqlite3.OperationalError as exc:
            raise StoreError(f"keyword search failed for expression {match!r}: {exc}") from None
        return [(r["id"], -float(r["rank"])) for r in rows]

    def _vector_matrix(self) -> tuple[np.ndarray, np.ndarray]:
        with self._lock:
            if self._matrix is None:
                rows = self._conn.execute(
                    "SELECT chunk_rowid, vec FROM chunk_vectors ORDER BY chunk_rowid"
                ).fetchall()
                if rows:
                    rowids = np.array([r[0] for r in rows], dtype=np.int64)
                    mat = np.stack([np.frombuffer(r[1], dtype=np.float32) for r in rows])
                else:
                    rowids, mat = np.zeros(0, dtype=np.int64), np.zeros((0, 1), dtype=np.float32)
                self._matrix = (rowids, mat)
            return self._matrix

    def vector_search(self, query: np.ndarray, flt: SearchFilter, limit: int) -> list[tuple[str, float]]:
        rowids, mat = self._vector_matrix()
        if not len(rowids):
            return []
        where, params = self._visible_sql(flt)
        rows = self._q(
            f"SELECT c.rowid AS rid, c.id AS id FROM chunks c JOIN documents d ON d.id = c.doc_id "
            f"WHERE {where} ORDER BY c.rowid",
            params,
        )
        if not rows:
            return []
        visible = np.array([r["rid"] for r in rows], dtype=np.int64)
        ids = [r["id"] for r in rows]
        pos = np.searchsorted(rowids, visible)
        pos = np.clip(pos, 0, len(rowids) - 1)
        has_vec = rowids[pos] == visible
        sel = pos[has_vec]
        sel_ids = [i for i, ok in zip(ids, has_vec, strict=True) if ok]
        if not len(sel):
            return []
        scores = mat[sel] @ np.asarray(query, dtype=np.float32)
        k = min(limit, len(scores))
        top = np.argpartition(-scores, k - 1)[:k]
        ranked = sorted(((float(scores[i]), sel_ids[i]) for i in top), key=lambda t: (-t[0], t[1]))
        return [(cid, s) for s, cid in ranked]

    def stats(self) -> dict[str, int]:
        q = self._q
        return {
            "documents": q("SELECT count(*) AS n FROM documents")[0]["n"],
            "chunks": q("SELECT count(*) AS n FROM chunks WHERE indexed=1")[0]["n"],
            "nodes": q("SELECT count(*) AS n FROM chunks")[0]["n"],
            "vectors": q("SELECT count(*) AS n FROM chunk_vectors")[0]["n"],
            "edges": q("SELECT count(*) AS n FROM edges")[0]["n"],
            "quarantined": q("SELECT count(*) AS n FROM documents WHERE quarantine_reason IS NOT NULL")[0][
                "n"
            ],
        }


def embed_key(embedder_name: str, embed_input: str) -> str:
    """Cache key of one passage vector: model name + exact input text."""
    return hashlib.sha256(f"{embedder_name}\x00{embed_input}".encode()).hexdigest()
