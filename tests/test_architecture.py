"""The dependency rule: lower packages know nothing of the upper ones (a message flows one way)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
OURS = {"bot", "tools", "identity", "guardrails", "kb", "tickets"}
ALLOWED = {
    "kb": {"kb"},
    "tickets": {"tickets"},
    "identity": {"identity"},
    "guardrails": {"guardrails"},
    "tools": {"tools", "kb", "tickets", "identity"},
    "bot": OURS,
}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module.split(".")[0])
    return found & OURS


@pytest.mark.parametrize("package", sorted(ALLOWED))
def test_package_imports_only_what_the_dependency_rule_allows(package: str) -> None:
    offenders = {}
    for path in sorted((ROOT / package).rglob("*.py")):
        bad = _imports(path) - ALLOWED[package]
        if bad:
            offenders[str(path.relative_to(ROOT))] = sorted(bad)
    assert offenders == {}


def test_botbuilder_imports_stay_inside_bot_teams() -> None:
    offenders = []
    for path in sorted(ROOT.rglob("*.py")):
        rel = path.relative_to(ROOT)
        if rel.parts[0] not in OURS or rel.parts[:2] == ("bot", "teams"):
            continue
        text = path.read_text(encoding="utf-8")
        if "import botbuilder" in text or "from botbuilder" in text:
            offenders.append(str(rel))
    assert offenders == []
