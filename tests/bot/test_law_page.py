"""``bot.law_page.law_page``: the HTTP answer of ``GET /law/...`` over a temporary knowledge base.

Documents are data: a regulation whose text carries markup is shown escaped, never as markup.  (The
served processes are tested in tests/served/test_law_served.py.)
"""

from __future__ import annotations

import datetime as dt
import shutil
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest

from bot.law_page import BAD_DATE_PAGE, NOT_FOUND_PAGE, law_page, parse_as_of, store_of
from kb.embed.hashing import HashingEmbedder
from kb.ingest import ingest_paths
from kb.store.sqlite import SqliteStore

ROOT = Path(__file__).resolve().parents[2]
TODAY = dt.date(2026, 12, 1)
MARKUP = "<script>alert('x')</script> & <b>tebal</b>"


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SqliteStore]:
    """UU 8/1983 alone, with markup written into its Pasal 2 ayat (1)."""
    tmp = tmp_path_factory.mktemp("law-page")
    doc = Path(shutil.copytree(ROOT / "corpus" / "regulations" / "uu-8-1983", tmp / "corpus" / "uu-8-1983"))
    text = (doc / "text.txt").read_text(encoding="utf-8")
    marked = text.replace("(1) Dalam hal Harga Jual", f"(1) {MARKUP} Dalam hal Harga Jual", 1)
    assert marked != text
    (doc / "text.txt").write_text(marked, encoding="utf-8")
    embedder = HashingEmbedder()
    s = SqliteStore(tmp / "kb.sqlite", embedder_name=embedder.name)
    assert ingest_paths([doc], s, embedder).added == ["uu-8-1983"]
    yield s
    s.close()


def test_document_markup_is_escaped_on_the_page(store: SqliteStore) -> None:
    page = law_page(store, "uu-8-1983", ["1990-01-01"], today=TODAY)
    assert page.status == 200 and page.cache
    assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt; &amp; &lt;b&gt;tebal&lt;/b&gt;" in page.body
    assert "<script" not in page.body and "<b>" not in page.body
    assert '<section class="pasal" id="pasal-2">' in page.body
    assert ("Content-Type", "text/html; charset=utf-8") in page.headers


def test_without_as_of_the_page_is_of_today(store: SqliteStore) -> None:
    page = law_page(store, "UU PPN", [], today=TODAY)
    assert page.status == 200 and f"per {TODAY.isoformat()}</title>" in page.body


def test_not_found_and_bad_dates(store: SqliteStore) -> None:
    assert law_page(store, "uu-99-2001", ["2022-05-01"], today=TODAY).body == NOT_FOUND_PAGE
    assert law_page(store, "x" * 201, ["2022-05-01"], today=TODAY).status == 404
    assert law_page(store, "   ", ["2022-05-01"], today=TODAY).status == 404
    assert law_page(None, "uu-8-1983", ["2022-05-01"], today=TODAY).status == 404  # a front end without a KB
    bad = law_page(store, "uu-8-1983", ["2022-5-1"], today=TODAY)
    assert (bad.status, bad.body, bad.cache) == (400, BAD_DATE_PAGE, False)
    assert ("Cache-Control", "no-store") in bad.headers


def test_parse_as_of() -> None:
    assert parse_as_of([], TODAY) == TODAY
    assert parse_as_of(["2022-05-01"], TODAY) == dt.date(2022, 5, 1)
    for bad in (["2022-02-30"], ["20220501"], ["2022-W18-1"], [""], ["2022-05-01", "2022-05-01"]):
        assert parse_as_of(bad, TODAY) is None, bad


def test_store_of_finds_the_runtime_or_the_turns_knowledge_base() -> None:
    kb = object()
    assert store_of(None, SimpleNamespace(store=kb)) is kb  # a Runtime
    assert store_of(None, SimpleNamespace(services=SimpleNamespace(store=kb))) is kb  # a Turn
    assert store_of(None, SimpleNamespace(), object()) is None  # stand-in turn services
