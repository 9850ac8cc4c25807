"""The served tests' ports: below the ephemeral range, one block per xdist worker, never a taken one."""

from __future__ import annotations

import socket

import pytest

from tests.support import ports


def test_ports_lie_below_the_range_outgoing_connections_are_given() -> None:
    low = ports._ephemeral_low()
    handed = [ports.free_port() for _ in range(5)]
    assert all(ports.FIRST_PORT <= port < low for port in handed)
    assert len(set(handed)) == 5


def test_workers_get_disjoint_blocks_however_many(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: set[int] = set()
    blocks = (ports._ephemeral_low() - ports.FIRST_PORT) // ports.PORTS_PER_WORKER
    for worker in range(blocks):
        monkeypatch.setenv("PYTEST_XDIST_WORKER", f"gw{worker}")
        block = ports._block()
        assert block is not None and block.stop <= ports._ephemeral_low()
        assert not seen & set(block), worker
        seen |= set(block)


def test_no_room_below_the_range_falls_back_to_the_kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ports, "_ephemeral_low", lambda: 1024)
    monkeypatch.setattr(ports, "_next_in_block", iter(()))
    assert ports._block() is None
    assert ports.free_port() > 0


def test_a_port_someone_listens_on_is_skipped(monkeypatch: pytest.MonkeyPatch) -> None:
    taken, spare = ports.free_port(), ports.free_port()
    monkeypatch.setattr(ports, "_next_in_block", iter([taken, spare]))
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", taken))
        listener.listen()
        assert ports.free_port() == spare
