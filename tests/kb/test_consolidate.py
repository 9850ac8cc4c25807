"""``kb.consolidate`` and ``dasar law``: UU PPN as it stood on a date, on a temporary knowledge base.

The UU PPN chain (UU 8/1983, UU 18/2000, UU 42/2009, UU 11/2020, UU 7/2021) is ingested with the hashing
embedder; Pasal 7 (the rate) must read as each amending act wrote it on each date.
"""

from __future__ import annotations

import datetime as dt
import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.cli import main
from kb.consolidate import (
    ConsolidatedLaw,
    consolidate,
    law_as_of,
    pasal_sort_key,
    render_html,
    render_text,
)
from kb.embed.hashing import HashingEmbedder
from kb.errors import NotFoundError
from kb.ingest import ingest_paths
from kb.store.sqlite import SqliteStore

ROOT = Path(__file__).resolve().parents[2]
REGS = ROOT / "corpus" / "regulations"
CHAIN = ("uu-8-1983", "uu-18-2000", "uu-42-2009", "uu-11-2020", "uu-7-2021")
EMBEDDER = HashingEmbedder()


@pytest.fixture(scope="module")
def kb_path(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    tmp = tmp_path_factory.mktemp("law")
    paths = [Path(shutil.copytree(REGS / doc_id, tmp / "corpus" / doc_id)) for doc_id in CHAIN]
    # this chain leaves UU 11/1994 out on purpose: UU PPN's metadata names it as an act this knowledge base
    # lacks, so the 1983 wording is shown with "may have changed through UU 11/1994" after 1995
    meta_path = tmp / "corpus" / "uu-8-1983" / "metadata.json"
    raw = json.loads(meta_path.read_text(encoding="utf-8"))
    raw["amended_by"] = [
        "UU 11/1994 (fixture: not in this knowledge base)" if a.startswith("uu-11-1994") else a
        for a in raw["amended_by"]
    ]
    meta_path.write_text(json.dumps(raw, ensure_ascii=False), encoding="utf-8")
    store = SqliteStore(tmp / "kb.sqlite", embedder_name=EMBEDDER.name)
    report = ingest_paths(paths, store, EMBEDDER)
    assert sorted(report.added) == sorted(CHAIN)
    store.close()
    yield tmp / "kb.sqlite"


@pytest.fixture(scope="module")
def store(kb_path: Path) -> Iterator[SqliteStore]:
    s = SqliteStore(kb_path)
    yield s
    s.close()


def _law(store: SqliteStore, when: str, name: str = "UU PPN") -> ConsolidatedLaw:
    return consolidate(store, name, dt.date.fromisoformat(when))


def test_pasal_7_reads_as_each_amending_act_wrote_it(store: SqliteStore) -> None:
    # 2009: UU 18/2000 restated other Pasal, not Pasal 7, so the 1983 wording is the last the KB holds --
    # and UU 11/1994 (not in the knowledge base) may have changed it: the view says so
    p2009 = _law(store, "2009-01-01").get("7")
    assert p2009 is not None and p2009.source.number == "UU 8/1983"
    assert "Tarif Pajak Pertambahan Nilai berjumlah 10% (sepuluh persen)" in p2009.text
    assert p2009.valid_from == dt.date(1984, 7, 1) and p2009.valid_to == dt.date(2010, 4, 1)
    assert [a.number for a in p2009.changed_outside] == ["UU 11/1994"]
    assert not p2009.revoked and not p2009.amended

    p2015 = _law(store, "2015-01-01").get("7")
    assert p2015 is not None and p2015.source.number == "UU 42/2009"
    assert "Tarif Pajak Pertambahan Nilai adalah 10% (sepuluh persen)" in p2015.text
    assert (p2015.valid_from, p2015.valid_to) == (dt.date(2010, 4, 1), dt.date(2022, 4, 1))
    assert p2015.changed_outside == () and p2015.amended
    assert p2015.location.startswith("Pasal 7 UU 8/1983 (Pasal I angka 8 UU 42/2009)")

    p2022 = _law(store, "2022-05-01").get("7")
    assert p2022 is not None and p2022.source.number == "UU 7/2021"
    assert "11% (sebelas persen)" in p2022.text and "10% (sepuluh persen)" not in p2022.text.split("b.")[0]
    assert p2022.valid_from == dt.date(2022, 4, 1) and p2022.valid_to is None
    assert p2022.changed_outside == ()  # UU 6/2023 came later


def test_other_pasal_come_from_the_act_in_force_and_deletions_are_revoked(store: SqliteStore) -> None:
    law = _law(store, "2009-01-01")
    assert law.number == "UU 8/1983" and law.doc_id == "uu-8-1983"
    assert [p.pasal for p in law.pasal] == sorted((p.pasal for p in law.pasal), key=pasal_sort_key)
    p1 = law.get("1")
    assert p1 is not None and p1.source.number == "UU 18/2000" and p1.valid_from == dt.date(2001, 1, 1)
    p6 = law.get("6")
    assert p6 is not None and p6.revoked and p6.source.number == "UU 18/2000"
    assert "Pasal 6 dihapus" in p6.text
    # Pasal inserted by later acts are not part of the 2009 law, and are listed as not yet in force
    assert law.get("16G") is None and "16G" in law.not_yet and "16E" in law.not_yet
    assert [a.number for a in law.acts] == ["UU 8/1983", "UU 18/2000"]
    later = _law(store, "2022-05-01")
    p16g = later.get("16G")
    assert p16g is not None and p16g.source.number == "UU 7/2021" and later.not_yet == ()
    assert later.get("6") is not None and later.get("6").revoked  # type: ignore[union-attr]
    assert [a.number for a in later.acts] == [
        "UU 8/1983",
        "UU 18/2000",
        "UU 42/2009",
        "UU 11/2020",
        "UU 7/2021",
    ]
    # before UU 11/1994 existed nothing is marked as changed outside the knowledge base
    early = _law(store, "1990-01-01")
    assert {p.source.number for p in early.pasal} == {"UU 8/1983"}
    assert not any(p.changed_outside for p in early.pasal) and early.notes == ()


def test_law_names_and_numbers_resolve_to_the_base_act(store: SqliteStore) -> None:
    for name in ("UU PPN", "uu ppn", "UU 8/1983", "Undang-Undang Nomor 8 Tahun 1983", "uu-8-1983"):
        assert _law(store, "2015-01-01", name).doc_id == "uu-8-1983"
    with pytest.raises(NotFoundError, match="UU 99/2001"):
        _law(store, "2015-01-01", "UU 99/2001")
    with pytest.raises(NotFoundError):
        _law(store, "2015-01-01", "UU PPh")  # the base income-tax law is not in this knowledge base


def test_json_and_html_carry_the_provenance(store: SqliteStore) -> None:
    law = _law(store, "2022-05-01")
    data = json.loads(json.dumps(law.to_json()))
    by_pasal = {p["pasal"]: p for p in data["pasal"]}
    assert data["law"]["number"] == "UU 8/1983" and data["as_of"] == "2022-05-01"
    assert by_pasal["7"]["source"]["number"] == "UU 7/2021" and by_pasal["7"]["wording_from"] == "2022-04-01"
    assert by_pasal["6"]["status"] == "revoked"
    assert by_pasal["7"]["ocr_noisy"] is True  # UU 7/2021's text is OCR
    assert {"number": "UU 11/1994", "relation": "amended_by", "of": "uu-8-1983", "date": None} in data[
        "absent_acts"
    ]
    page = render_html(law)
    assert '<section class="pasal" id="pasal-7">' in page and "11% (sebelas persen)" in page
    assert 'class="pasal revoked" id="pasal-6"' in page
    assert "wording of UU 7/2021, in force from 2022-04-01" in page
    text = render_text(law)
    assert "== Pasal 7 ==  [wording of UU 7/2021, in force from 2022-04-01; OCR-noisy source text]" in text


def test_dasar_law_cli(kb_path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["law", "UU PPN", "--as-of", "2015-01-01", "--kb", str(kb_path)]
    assert main([*argv, "--json", "--pasal", "7"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [p["pasal"] for p in data["pasal"]] == ["7"]
    assert "10% (sepuluh persen)" in data["pasal"][0]["text"]
    page = tmp_path / "ppn.html"
    assert main([*argv, "--html", str(page)]) == 0
    out = capsys.readouterr().out
    assert "Pasal 7" in out and "wording of UU 42/2009, in force from 2010-04-01" in out
    assert 'id="pasal-7"' in page.read_text(encoding="utf-8")
    assert main(["law", "UU 99/2001", "--kb", str(kb_path)]) == 2
    assert "no law 'UU 99/2001'" in capsys.readouterr().err


def test_the_agent_tool_view_is_json_for_named_pasal(store: SqliteStore) -> None:
    view = law_as_of(store, "UU PPN", dt.date(2022, 5, 1), pasal=["7", "16g", "99"])
    assert [p["pasal"] for p in view["pasal"]] == ["7", "16G"] and view["missing_pasal"] == ["99"]
    assert view["pasal"][0]["source"]["number"] == "UU 7/2021"
    json.dumps(view)  # serialisable as a tool result
    missing = law_as_of(store, "UU 99/2001", dt.date(2022, 5, 1))
    assert "no law 'UU 99/2001'" in missing["error"]
    # only what the reader may see: a group that reads no document gets no law
    assert "not readable" in law_as_of(store, "UU PPN", dt.date(2022, 5, 1), groups=frozenset({"x"}))["error"]
