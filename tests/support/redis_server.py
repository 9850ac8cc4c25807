"""Start a throw-away redis-server on loopback for tests that need a REAL Redis.

WHY a real server: fakes do not check ``SET ... PX`` expiry, byte/str decoding or connection
errors the way Redis does.  The server listens on 127.0.0.1 only, on a free port, with persistence
off (``--save '' --appendonly no``) and its working directory in a temp dir, and is stopped on
exit.

If ``redis-server`` is not installed the test is skipped with a hint -- except in CI (``CI=true``),
where a missing server is a broken setup and the test fails.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.ports import free_port

INSTALL_HINT = "install it with: apt-get update && apt-get install -y redis-server"
START_TIMEOUT_S = 10.0


def _ping(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5) as sock:
            sock.sendall(b"PING\r\n")
            return sock.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def _missing_binary() -> None:
    message = f"redis-server not found on PATH; {INSTALL_HINT}"
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"CI=true but {message}", pytrace=False)
    pytest.skip(message)


def _stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=5)


@contextlib.contextmanager
def running_redis() -> Iterator[str]:
    """Yield ``redis://127.0.0.1:<port>/0`` of a fresh redis-server, stopping it afterwards."""
    binary = shutil.which("redis-server")
    if binary is None:
        _missing_binary()
        raise AssertionError("unreachable")  # pytest.skip/fail raise
    with tempfile.TemporaryDirectory(prefix="dasar-redis-") as workdir:
        log_path = Path(workdir) / "redis.log"
        last_error = ""
        for _attempt in range(3):  # a free port can be taken between probe and bind: retry
            port = free_port()
            with log_path.open("wb") as log:
                proc = subprocess.Popen(
                    [
                        binary,
                        "--port",
                        str(port),
                        "--bind",
                        "127.0.0.1",
                        "--save",
                        "",
                        "--appendonly",
                        "no",
                        "--dir",
                        workdir,
                        "--daemonize",
                        "no",
                    ],
                    stdout=log,
                    stderr=subprocess.STDOUT,
                    stdin=subprocess.DEVNULL,
                    cwd=workdir,
                )
            try:
                deadline = time.monotonic() + START_TIMEOUT_S
                while time.monotonic() < deadline and proc.poll() is None and not _ping(port):
                    time.sleep(0.05)
                if proc.poll() is None and _ping(port):
                    try:
                        yield f"redis://127.0.0.1:{port}/0"
                    finally:
                        _stop(proc)
                    return
                last_error = log_path.read_text(errors="replace")[-2000:]
            finally:
                _stop(proc)
        raise RuntimeError(
            f"redis-server did not start on 127.0.0.1 after 3 attempts; log tail:\n{last_error}"
        )
