"""Fixtures: principals from the sample directory and ToolDeps over the session index."""

from tests.tools.fixtures import make_deps, people  # noqa: F401 - re-exported fixtures
