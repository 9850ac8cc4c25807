"""Fixtures: principals from the sample directory and ToolDeps over the session index."""

import pytest

from tests.tools.fixtures import make_deps, people  # noqa: F401 - re-exported fixtures


@pytest.fixture(scope="session")
def services(behaviour_services: object) -> object:
    """Behaviour tests (access, gates, tool contracts): the hashing-embedder index, built in seconds."""
    return behaviour_services
