"""The README's deployment guide, followed as far as this machine allows.

The block marked ``tested: tests/cli/test_readme_guide.py`` is run with bash exactly as written, with
``/srv/dasar`` and ``my-corpus/`` pointing at temporary folders and the hashing embedder (seconds instead
of minutes); the rest of the guide (Slack, Teams, containers) needs outside services and is checked by
``test_install.py`` and ``test_deploy_files.py``.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bot.settings import REPO_ROOT, SAMPLE_DIRECTORY

MARKER = "<!-- tested: tests/cli/test_readme_guide.py"


def guide_block() -> str:
    text = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    start = text.index(MARKER)
    match = re.search(r"```bash\n(.*?)```", text[start:], re.S)
    assert match is not None
    return match.group(1)


def test_readme_documents_the_two_commands_and_the_stores() -> None:
    text = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    for needle in (
        "make demo",
        "make test",
        "DASAR_HOME",
        "/ticket",
        "tickets report --questions",
        "dasar doctor",
    ):
        assert needle in text
    makefile = (REPO_ROOT / "Makefile").read_text(encoding="utf-8")
    assert re.search(r"^demo: setup$", makefile, re.M) and re.search(r"^test: setup$", makefile, re.M)
    assert re.search(r"^clean:\n\trm -rf \.dasar ", makefile, re.M)


@pytest.mark.slow
def test_the_guide_runs_as_written(tmp_path: Path) -> None:
    home = tmp_path / "srv-dasar"
    home.mkdir()
    shutil.copy(SAMPLE_DIRECTORY, home / "directory.yaml")
    corpus = tmp_path / "my-corpus"
    shutil.copytree(REPO_ROOT / "corpus" / "internal", corpus / "internal")
    shutil.copytree(REPO_ROOT / "corpus" / "regulations" / "uu-36-2008", corpus / "uu-36-2008")
    script = guide_block().replace("/srv/dasar", str(home)).replace("my-corpus/", f"{corpus}/")
    bin_dir = Path(sys.executable).parent
    env = {
        "PATH": f"{bin_dir}:{os.environ.get('PATH', '')}",
        "HOME": str(tmp_path),
        "DASAR_EMBEDDER": "hashing-256",
        "DASAR_SETTINGS": str(tmp_path / "no.env"),
        "LANG": "C.UTF-8",
    }
    proc = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", script],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    out = proc.stdout
    assert "knowledge base" in out and "missing: not built yet" in out  # the first doctor
    assert f"Ingested into {home / 'kb.sqlite'}" in out
    assert "wht-matrix-2024" in out  # kb list
    assert "ticket T-" in out or "[ticket T-" in out  # /ticket in dasar chat opened one
    assert (home / "report.html").read_text(encoding="utf-8").startswith("<!doctype html>")
    report = json.loads(out[out.rindex('{\n  "install"') :])
    stores = report["stores"]
    assert report["home"]["path"] == str(home) and report["home"]["source"] == "DASAR_HOME"
    assert stores["knowledge_base"]["status"] == "ok" and stores["tickets"]["status"] == "ok"
    assert stores["tickets"]["tickets"] >= 1 and stores["directory"]["sample"] is False
    assert (home / "audit.jsonl").is_file()


@pytest.mark.parametrize("line", [ln for ln in guide_block().splitlines() if ln.strip()])
def test_every_guide_line_is_a_dasar_command_or_a_setting(line: str) -> None:
    assert re.match(r"(export DASAR_[A-Z_]+=|dasar |printf '.*' \| dasar )", line), line
