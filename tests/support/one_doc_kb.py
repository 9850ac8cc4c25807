"""A knowledge base of one Markdown document, ingested through the CLI with the hashing embedder.

WHY: CLI tests need a real index file in seconds, built the way a user builds one (``dasar ingest``), not the
sample corpus.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli import main


def one_doc_kb(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, doc: str) -> Path:
    """Ingest ``doc`` (front matter + body) into ``tmp_path/kb.sqlite``; the caller drains captured output."""
    monkeypatch.setenv("DASAR_EMBEDDER", "hashing-256")
    src = tmp_path / "docs"
    src.mkdir()
    (src / "policy.md").write_text(doc, encoding="utf-8")
    path = tmp_path / "kb.sqlite"
    assert main(["ingest", str(src), "--kb", str(path), "--no-progress"]) == 0
    return path
