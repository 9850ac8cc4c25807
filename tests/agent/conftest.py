"""Fixtures: principals from the sample directory, ToolDeps over the session index, a planted-injection KB."""

import pytest

from tests.agent.planted import planted_deps  # noqa: F401 - re-exported fixture
from tests.tools.fixtures import make_deps, people  # noqa: F401 - re-exported fixtures


@pytest.fixture(scope="session")
def services(behaviour_services: object) -> object:
    """Behaviour tests (access, gates, tool contracts): the hashing-embedder index, built in seconds."""
    return behaviour_services
