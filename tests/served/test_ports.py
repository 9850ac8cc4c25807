"""The served tests' ports: below the ephemeral range, one block per xdist worker, never a taken one."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from tests.support import ports


def _ephemeral_range() -> tuple[int, int]:
    low, high = Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()
    return int(low), int(high)


def test_ports_lie_below_the_range_outgoing_connections_are_given() -> None:
    low, _high = _ephemeral_range()
    handed = [ports.free_port() for _ in range(5)]
    assert all(ports.FIRST_PORT <= port < low for port in handed)
    assert len(set(handed)) == 5


def test_workers_get_disjoint_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PYTEST_XDIST_WORKER", "gw0")
    first = set(ports._block())
    monkeypatch.setenv("PYTEST_XDIST_WORKER", "gw1")
    second = set(ports._block())
    assert first and second and not first & second


def test_a_port_someone_listens_on_is_skipped(monkeypatch: pytest.MonkeyPatch) -> None:
    taken = ports.free_port()
    monkeypatch.setattr(ports, "_next_in_block", iter([taken, taken + 1]))
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", taken))
        listener.listen()
        assert ports.free_port() == taken + 1
