"""Package-level rules: lazy production backends, no imports of our other packages."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import identity

PACKAGE_DIR = Path(identity.__file__).parent
OUR_PACKAGES = {"bot", "tools", "guardrails", "kb", "tickets", "bench"}


def test_importing_identity_does_not_import_backends() -> None:
    code = (
        "import sys, identity; print(sorted(m for m in ('httpx', 'redis', 'slack_sdk') if m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=PACKAGE_DIR.parent
    )
    assert out.stdout.strip() == "[]"
    assert identity.HttpDirectory.__name__ == "HttpDirectory"
    assert identity.RedisPrincipalCache.__name__ == "RedisPrincipalCache"


def test_identity_imports_none_of_our_other_packages() -> None:
    offenders = []
    for path in sorted(PACKAGE_DIR.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            offenders += [f"{path.name}:{n}" for n in names if n.split(".")[0] in OUR_PACKAGES]
    assert offenders == []


def test_directory_protocol_and_yaml_backend_form_no_import_cycle() -> None:
    """Finding: identity.directory re-exported YamlDirectory while yaml_directory imported directory."""
    import ast
    from pathlib import Path

    import identity

    src = Path(identity.__file__).parent / "directory.py"
    imported = {
        n.module
        for n in ast.walk(ast.parse(src.read_text(encoding="utf-8")))
        if isinstance(n, ast.ImportFrom)
    }
    assert "identity.yaml_directory" not in imported
