"""Fixtures: principals from the sample directory, ToolDeps over the session index, a planted-injection KB."""

from tests.agent.planted import planted_deps  # noqa: F401 - re-exported fixture
from tests.tools.fixtures import make_deps, people  # noqa: F401 - re-exported fixtures
