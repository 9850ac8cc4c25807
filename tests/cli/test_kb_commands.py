"""CLI contracts of the knowledge-base commands that need no index: clear errors, nothing created by reads."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.cli import main

GOOD = """---
id: cli-policy
title: Kebijakan CLI
number: CLI-POL-1
type: policy
owner: tax.lead@example.co.id
access: [finance]
---
# Kebijakan
## Tarif
PPh 23 jasa teknik 2% dari jumlah bruto.
"""


def test_read_commands_never_create_a_knowledge_base(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    kb = tmp_path / "none.sqlite"
    for argv in (
        ["kb", "list", "--kb", str(kb)],
        ["kb", "show", "x", "--kb", str(kb)],
        ["search", "tarif", "--kb", str(kb)],
    ):
        assert main(argv) == 2
        assert "no knowledge base at" in capsys.readouterr().err
    assert not kb.exists()


def test_ingest_json_report_names_file_and_field_and_exits_1(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DASAR_EMBEDDER", "hashing-256")
    src = tmp_path / "in"
    src.mkdir()
    (src / "good.md").write_text(GOOD, encoding="utf-8")
    (src / "bad.md").write_text(
        GOOD.replace("cli-policy", "cli-bad")
        .replace("CLI-POL-1", "CLI-POL-2")
        .replace("access: [finance]", "acess: [finance]"),
        encoding="utf-8",
    )
    kb = tmp_path / "kb.sqlite"
    assert main(["ingest", str(src), "--kb", str(kb), "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["added"] == ["cli-policy"]
    (err,) = out["errors"]
    assert err["path"].endswith("bad.md") and err["field"] == "acess"
    assert main(["kb", "list", "--kb", str(kb), "--json"]) == 0
    listing = json.loads(capsys.readouterr().out)
    assert [d["id"] for d in listing["documents"]] == ["cli-policy"]
    assert main(["kb", "remove", "cli-policy", "--kb", str(kb), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["removed"] == "cli-policy"
    assert main(["kb", "show", "cli-policy", "--kb", str(kb)]) == 2
