"""``dasar doctor``: where each store lives, whether it opens, and the next command (issue 17 item 1)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.cli import main
from bot.settings import REPO_ROOT, checkout_root, data_home_source


def test_data_home_precedence(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("DASAR_HOME", str(tmp_path / "h"))
    assert data_home_source() == (tmp_path / "h", "DASAR_HOME")
    monkeypatch.delenv("DASAR_HOME")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert data_home_source() == (tmp_path / "xdg" / "dasar", "XDG_DATA_HOME")
    monkeypatch.delenv("XDG_DATA_HOME")
    assert checkout_root() == REPO_ROOT  # the tests run from a checkout
    assert data_home_source() == (REPO_ROOT / ".dasar", "checkout")


def test_every_store_defaults_to_the_one_data_folder(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from bot.settings import load_settings

    monkeypatch.setenv("DASAR_HOME", str(tmp_path))
    s = load_settings()
    assert (s.kb, s.tickets_db, s.audit_log, s.faq_dir) == (
        tmp_path / "kb.sqlite",
        tmp_path / "tickets.sqlite",
        tmp_path / "audit.jsonl",
        tmp_path / "faq",
    )
    assert load_settings(kb=tmp_path / "other.sqlite").tickets_db == tmp_path / "tickets.sqlite"


def test_fresh_checkout_doctor_says_to_run_the_demo(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DASAR_HOME", str(tmp_path / "home"))
    assert main(["doctor", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["install"] == {
        "mode": "checkout",
        "location": str(REPO_ROOT),
        "python": report["install"]["python"],
    }
    assert report["home"]["path"] == str(tmp_path / "home") and report["home"]["source"] == "DASAR_HOME"
    stores = report["stores"]
    assert stores["knowledge_base"] == {
        "status": "missing",
        "location": str(tmp_path / "home" / "kb.sqlite"),
        "detail": "not built yet",
        "backend": "sqlite",
    }
    assert stores["tickets"]["status"] == "missing" and stores["directory"]["status"] == "ok"
    assert set(report["extras"]) == {"slack", "teams", "redis", "postgres", "agent", "bedrock"}
    assert report["next"] == "make demo   (or: dasar ingest corpus)"
    assert not (tmp_path / "home").exists()  # doctor creates nothing


def test_doctor_reports_a_broken_store_and_exits_1(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DASAR_HOME", str(tmp_path))
    (tmp_path / "kb.sqlite").write_text("not a database", encoding="utf-8")
    bad = tmp_path / "directory.yaml"
    bad.write_text("users: [\n", encoding="utf-8")
    assert main(["doctor", "--directory", str(bad)]) == 1
    out = capsys.readouterr().out
    assert "Traceback" not in out
    kb_line = next(line for line in out.splitlines() if line.startswith("knowledge base"))
    dir_line = next(line for line in out.splitlines() if line.startswith("directory"))
    assert "error" in kb_line and "error" in dir_line and str(bad) in dir_line
    assert "next           fix knowledge_base, directory" in out
