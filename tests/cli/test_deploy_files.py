"""The container files, checked statically (no container engine runs on the development machine)."""

from __future__ import annotations

import re

import yaml

from bot.settings import REPO_ROOT

INFRA = REPO_ROOT / "infra"


def test_image_ships_no_corpus_and_installs_non_editable() -> None:
    text = (INFRA / "Dockerfile").read_text(encoding="utf-8")
    assert not re.search(r"^COPY corpus", text, re.M)
    assert "pip install --no-cache-dir '/app[" in text and " -e " not in text
    assert "ENV DASAR_HOME=/data" in text


def test_compose_requires_no_variable_and_setup_needs_only_what_ingest_needs() -> None:
    text = (INFRA / "compose.yaml").read_text(encoding="utf-8")
    assert ":?" not in text  # a required variable would stop `--profile setup run ingest` without Slack/Teams
    services = yaml.safe_load(text)["services"]
    ingest = services["ingest"]
    assert ingest["profiles"] == ["setup"] and ingest["command"] == ["ingest", "/corpus"]
    assert not [k for k in ingest["environment"] if "SLACK" in k or "TEAMS" in k]
    mounts = " ".join(ingest["volumes"])
    assert ":/corpus:ro" in mounts and ":/config:ro" in mounts and "dasar-data:/data" in mounts
    for name in ("ingest", "slack", "teams"):
        assert services[name]["environment"]["DASAR_DIRECTORY"] == "/config/directory.yaml"
