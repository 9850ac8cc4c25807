"""Ports for test servers that no other process on the machine will take meanwhile.

WHY not ``bind(("127.0.0.1", 0))``: the kernel hands that port out again as the source port of any
outgoing connection (its ephemeral range, 32768-60999 on Linux), and a served process binds its port
only after a warm-up of a second or more.  In CI another xdist worker's client connection took the
port in between ("address already in use").  Ports here come from below the ephemeral range, in a
block of its own for each xdist worker, so neither the kernel nor a sibling worker hands them out;
each is still checked free on every interface before it is returned.
"""

from __future__ import annotations

import itertools
import os
import socket

FIRST_PORT = 20000  # below /proc/sys/net/ipv4/ip_local_port_range (32768-60999 by default)
PORTS_PER_WORKER = 500
_LAST_PORT = 32767


def _worker_index() -> int:
    """0 for ``gw0`` (or no xdist), 1 for ``gw1``, ...: each worker gets its own block of ports."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    digits = worker.removeprefix("gw")
    return int(digits) if digits.isdigit() else 0


def _block() -> range:
    start = FIRST_PORT + (_worker_index() * PORTS_PER_WORKER) % (_LAST_PORT - FIRST_PORT - PORTS_PER_WORKER)
    return range(start, start + PORTS_PER_WORKER)


_next_in_block = itertools.cycle(_block())


def _is_free(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        try:
            sock.bind(("0.0.0.0", port))  # noqa: S104 (the served apps bind every interface)
        except OSError:
            return False
    return True


def free_port() -> int:
    """A port that is free now and that no other worker or outgoing connection will be given."""
    for _ in range(PORTS_PER_WORKER):
        port = next(_next_in_block)
        if _is_free(port):
            return port
    raise RuntimeError(f"no free port in this worker's block {_block()}: are old test servers still running?")
