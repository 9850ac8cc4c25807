"""`dasar kb export-vectors` and `dasar kb check` on a small knowledge base (hashing embedder)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from bot.cli import main
from kb.embed.pack import VectorPack

ROOT = Path(__file__).resolve().parents[2]
REGS = ROOT / "corpus" / "regulations"


@pytest.fixture
def small_kb(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Path:
    monkeypatch.setenv("DASAR_EMBEDDER", "hashing-256")
    src = tmp_path / "corpus"
    for doc_id in ("uu-8-1983", "uu-42-2009", "pmk-54-2025"):
        shutil.copytree(REGS / doc_id, src / doc_id)
    kb = tmp_path / "kb.sqlite"
    assert main(["ingest", str(src), "--kb", str(kb), "--json"]) == 0
    capsys.readouterr()
    return kb


def test_export_vectors_writes_a_reproducible_pack_covering_every_chunk(
    small_kb: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "pack.dvec"
    argv = ["kb", "export-vectors", "--kb", str(small_kb), "--out", str(out), "--json"]
    assert main([*argv, "--corpus", str(tmp_path / "corpus")]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["embedder"] == "hashing-256" and report["missing"] == 0
    assert report["count"] == report["chunks"] > 100
    assert report["coverage"]["ratio"] == 1.0
    first = out.read_bytes()
    assert main(argv) == 0
    assert out.read_bytes() == first
    assert len(VectorPack.load(out)) == report["count"]


def test_kb_check_lists_claimed_laws_and_absent_acts(
    small_kb: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["kb", "check", "--kb", str(small_kb), "--json"])
    report = json.loads(capsys.readouterr().out)
    assert code == (0 if report["ok"] else 1)
    assert report["documents_checked"] == 3
    # PMK 54/2025 amends PMK 81/2024, which this knowledge base does not hold
    assert "PMK 81/2024" in report["absent_acts"]
    by_id = {d["id"]: d for d in report["documents"]}
    assert set(by_id) == {"uu-8-1983", "uu-42-2009", "pmk-54-2025"}
    assert main(["kb", "check", "--kb", str(small_kb)]) == code
    text = capsys.readouterr().out
    assert "pmk-54-2025: chunks claim" in text and "absent:" in text
