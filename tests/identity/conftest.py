"""Fixtures for identity tests: a sample directory file, a fake clock and a real redis-server."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.redis_server import running_redis

SLACK_TEAM = "T0DASAR01"
AAD_TENANT = "0b5a2c1e-1111-4222-8333-944455556666"
SITI_AAD = "6f1c3c8e-2b7a-4d2e-9d55-0c1f1a2b3c4d"

DIRECTORY_YAML = f"""\
users:
  siti.rahma@example.co.id:
    name: Siti Rahma
    groups: [tax-team, finance]
    roles: [tax_team, requester]
    entities: [PT-ABC]
    slack_id: U0SITI001
    aad_object_id: {SITI_AAD}
    locale: id
  budi@example.co.id:
    name: Budi Santoso
    groups: [finance]
    roles: [requester]
    entities: [PT-ABC, PT-XYZ]
    slack_id: U0BUDI002
    locale: en
  Admin@Example.co.id:
    name: Dewi Admin
    roles: [admin, faq_approver]
"""


class FakeClock:
    """Monotonic clock the test advances by hand."""

    def __init__(self, start: float = 1000.0):
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def directory_file(tmp_path: Path) -> Path:
    path = tmp_path / "directory.yaml"
    path.write_text(DIRECTORY_YAML, encoding="utf-8")
    return path


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    """URL of a redis-server started for this test session (skipped locally if not installed)."""
    with running_redis() as url:
        yield url
