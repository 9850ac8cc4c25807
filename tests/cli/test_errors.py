"""Every error a user or operator can cause ends in one line that names what to fix (issue 17 item 5,
issue 10 item 7): no traceback, a non-zero exit code, nothing half-done."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli import main
from bot.settings import REPO_ROOT, SAMPLE_DIRECTORY
from tests.support.one_doc_kb import one_doc_kb

DOC = """---
id: err-policy
title: Kebijakan uji
number: ERR-POL-1
type: policy
owner: tax.lead@example.co.id
access: [finance]
---
# Kebijakan
## Tarif
PPh 23 jasa teknik 2% dari jumlah bruto.
"""

USER = "ap.clerk@sinarnusantara.co.id"


def bomb(levels: int = 6) -> str:
    """A 'billion laughs' list: each level repeats the previous one nine times (9**levels leaves)."""
    names = "abcdefghij"
    parts = ["&a [x, x, x, x, x, x, x, x, x]"]
    parts += [f"&{names[i]} [" + ", ".join([f"*{names[i - 1]}"] * 9) + "]" for i in range(1, levels + 1)]
    return "[" + ", ".join(parts) + "]"


@pytest.fixture
def kb(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Path:
    path = one_doc_kb(tmp_path, monkeypatch, DOC)
    capsys.readouterr()
    return path


def one_error_line(capsys: pytest.CaptureFixture[str]) -> str:
    out, err = capsys.readouterr()
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert "Traceback" not in err and "Traceback" not in out
    assert len(lines) == 1, err
    assert lines[0].startswith("error: ")
    return lines[0]


def test_missing_directory_file(kb: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "nope" / "directory.yaml"
    assert main(["search", "tarif", "--kb", str(kb), "--directory", str(missing), "--user", USER]) == 2
    line = one_error_line(capsys)
    assert str(missing) in line and "not found" in line


def test_unknown_role_in_directory(kb: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = SAMPLE_DIRECTORY.read_text(encoding="utf-8").replace("roles: [requester]", "roles: [wizard]", 1)
    directory = tmp_path / "directory.yaml"
    directory.write_text(text, encoding="utf-8")
    assert main(["ask", "tarif PPh 23", "--kb", str(kb), "--directory", str(directory), "--user", USER]) == 2
    line = one_error_line(capsys)
    assert "directory.yaml" in line and "roles" in line and "wizard" in line


@pytest.mark.parametrize("kind", ["directory", "aliases"])
def test_yaml_alias_bomb(
    kind: str, kb: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / f"{kind}.yaml"
    if kind == "directory":
        path.write_text(f"users:\n  {USER}:\n    name: A\n    groups: {bomb()}\n", encoding="utf-8")
        argv = ["search", "tarif", "--kb", str(kb), "--directory", str(path), "--user", USER]
    else:
        path.write_text(
            f"version: 1\nentries:\n  - id: x\n    terms: [a, b]\n    doc: {bomb()}\n", encoding="utf-8"
        )
        monkeypatch.setenv("DASAR_ALIASES", str(path))
        argv = ["search", "tarif", "--kb", str(kb)]
    assert main(argv) == 2
    line = one_error_line(capsys)
    assert str(path) in line and "YAML aliases" in line


def test_bad_alias_file(
    kb: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "aliases.yaml"
    path.write_text("version: 1\nentries: [\n", encoding="utf-8")
    monkeypatch.setenv("DASAR_ALIASES", str(path))
    assert main(["search", "tarif", "--kb", str(kb)]) == 2
    line = one_error_line(capsys)
    assert str(path) in line and "line" in line


def test_bad_setting_in_environment_and_in_settings_file(
    kb: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DASAR_RETRIEVAL_MODE", "fancy")
    assert main(["search", "tarif", "--kb", str(kb)]) == 2
    line = one_error_line(capsys)
    assert "DASAR_RETRIEVAL_MODE='fancy'" in line and "environment" in line and "hybrid" in line
    monkeypatch.delenv("DASAR_RETRIEVAL_MODE")
    env_file = tmp_path / "dasar.env"
    env_file.write_text("DASAR_SLACK_WORKERS=lots\n", encoding="utf-8")
    monkeypatch.setenv("DASAR_SETTINGS", str(env_file))
    assert main(["kb", "list", "--kb", str(kb)]) == 2
    line = one_error_line(capsys)
    assert "DASAR_SLACK_WORKERS" in line and str(env_file) in line and "integer" in line


def test_secret_values_are_never_echoed(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DASAR_REDIS_URL", "")
    monkeypatch.setenv("DASAR_KB_URL", "not a url with password hunter2")
    monkeypatch.setenv("DASAR_SLACK_WORKERS", "0")
    assert main(["kb", "list"]) == 2
    line = one_error_line(capsys)
    assert "hunter2" not in line and "DASAR_SLACK_WORKERS" in line


def test_empty_question_is_a_usage_error(kb: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (
        ["ask", "", "--kb", str(kb)],
        ["ask", "   ", "--kb", str(kb)],
        ["search", "", "--kb", str(kb)],
    ):
        with pytest.raises(SystemExit) as exc:
            main(argv)
        assert exc.value.code == 2
        out, err = capsys.readouterr()
        assert out == "" and "Traceback" not in err
        assert "is empty" in err.splitlines()[-1]
    assert main(["mask", " "]) == 2
    assert "nothing to mask" in one_error_line(capsys)


def test_ingest_of_a_missing_path_prints_no_summary(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    kb = tmp_path / "kb.sqlite"
    assert main(["ingest", str(tmp_path / "nonexistent"), "--kb", str(kb)]) == 2
    out, err = capsys.readouterr()
    assert "Ingested into" not in out + err
    assert err.count("\n") == 1 and "no such file or folder" in err and "nonexistent" in err
    assert not kb.exists()


def test_missing_access_error_shows_a_real_example(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DASAR_EMBEDDER", "hashing-256")
    src = tmp_path / "docs"
    src.mkdir()
    (src / "p.md").write_text(DOC.replace("access: [finance]\n", ""), encoding="utf-8")
    assert main(["ingest", str(src), "--kb", str(tmp_path / "kb.sqlite"), "--no-progress"]) == 1
    out, err = capsys.readouterr()
    (line,) = [ln for ln in err.splitlines() if ln.strip()]
    assert "p.md" in line and "'access'" in line and "(e.g. [finance])" in line
    assert out.startswith("Ingested with errors into")


def test_missing_ticket_database_names_how_it_is_created(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["tickets", "--tickets-db", str(tmp_path / "t.sqlite"), "list"]) == 2
    line = one_error_line(capsys)
    assert "no ticket database" in line and "/ticket" in line


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_serve_slack_with_the_slack_api_unreachable(
    kb: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("slack_bolt")
    base = f"http://127.0.0.1:{_closed_port()}/api/"
    monkeypatch.setenv("DASAR_SLACK_BOT_TOKEN", "xoxb-test")
    monkeypatch.setenv("DASAR_SLACK_SIGNING_SECRET", "test-secret")
    monkeypatch.setenv("DASAR_SLACK_API_BASE_URL", base)
    assert main(["serve", "slack", "--kb", str(kb), "--port", str(_closed_port())]) == 2
    line = one_error_line(capsys)
    assert "cannot reach the Slack API" in line and base in line and "DASAR_SLACK_API_BASE_URL" in line


def test_serve_slack_without_tokens_names_the_variables(kb: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "slack", "--kb", str(kb)]) == 2
    line = one_error_line(capsys)
    assert "DASAR_SLACK_BOT_TOKEN" in line and "DASAR_SLACK_SIGNING_SECRET" in line


@pytest.mark.parametrize(
    ("blocked", "argv", "extra"),
    [
        ("botbuilder", ["serve", "teams"], "teams"),
        ("slack_bolt", ["serve", "slack"], "slack"),
    ],
)
def test_missing_optional_extra(blocked: str, argv: list[str], extra: str, kb: Path, tmp_path: Path) -> None:
    """A fresh process where the extra's package cannot be imported (as after a plain `pip install dasar`)."""
    code = (
        f"import sys; sys.modules[{blocked!r}] = None\n"
        "from bot.cli import main\n"
        f"raise SystemExit(main({[*argv, '--kb', str(kb)]!r}))\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("DASAR_")}
    env.update(
        DASAR_EMBEDDER="hashing-256",
        DASAR_HOME=str(tmp_path / "home"),
        DASAR_SLACK_BOT_TOKEN="xoxb-test",
        DASAR_SLACK_SIGNING_SECRET="s",
        DASAR_TEAMS_AUTH_DISABLED="true",
        DASAR_TEAMS_SERVICE_URL="http://127.0.0.1:9/",
        DASAR_TEAMS_TAX_CHANNEL_ID="19:tax@thread.tacv2",
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO_ROOT, env=env, capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 2, proc.stderr
    lines = [ln for ln in proc.stderr.splitlines() if ln.strip()]
    assert "Traceback" not in proc.stderr and len(lines) == 1, proc.stderr
    assert f"pip install 'dasar[{extra}]'" in lines[0]
