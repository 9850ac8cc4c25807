"""tests/support/redis_server.py: starts, answers PING, stops; skip locally / fail in CI when missing."""

from __future__ import annotations

import socket

import pytest

from tests.support import redis_server
from tests.support.redis_server import running_redis


@pytest.mark.redis
def test_running_redis_serves_on_loopback_and_stops() -> None:
    with running_redis() as url:
        assert url.startswith("redis://127.0.0.1:") and url.endswith("/0")
        port = int(url.rsplit(":", 1)[1].split("/")[0])
        with socket.create_connection(("127.0.0.1", port), timeout=1) as sock:
            sock.sendall(b"CONFIG GET save\r\n")
            reply = sock.recv(256)
        assert reply == b"*2\r\n$4\r\nsave\r\n$0\r\n\r\n"  # persistence off
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", port), timeout=1).close()


def test_missing_binary_skips_locally(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(redis_server.shutil, "which", lambda name: None)
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="apt-get install -y redis-server"), running_redis():
        pass


def test_missing_binary_fails_in_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(redis_server.shutil, "which", lambda name: None)
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="CI=true but redis-server not found"), running_redis():
        pass
