"""Ports for test servers that no other process on the machine will take meanwhile.

WHY not ``bind(("127.0.0.1", 0))``: the kernel hands that port out again as the source port of any
outgoing connection (its ephemeral range, ``/proc/sys/net/ipv4/ip_local_port_range``, 32768-60999 by
default), and a served process binds its port only after a warm-up of a second or more.  In CI another
xdist worker's client connection took the port in between ("address already in use").  Ports here come
from below the ephemeral range, in a block of its own for each xdist worker, starting at an offset drawn
from the process id so that two test sessions on one machine do not walk the same sequence; each port is
still checked free on every interface before it is returned.  A machine whose ephemeral range leaves no
room below it falls back to the kernel's choice.
"""

from __future__ import annotations

import itertools
import os
import socket
from collections.abc import Iterator
from pathlib import Path

FIRST_PORT = 20000
PORTS_PER_WORKER = 500
_RANGE_FILE = Path("/proc/sys/net/ipv4/ip_local_port_range")


def _ephemeral_low() -> int:
    try:
        return int(_RANGE_FILE.read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 32768  # the Linux default


def _worker_index() -> int:
    """0 for ``gw0`` (or no xdist), 1 for ``gw1``, ...: each worker gets its own block of ports."""
    digits = os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw")
    return int(digits) if digits.isdigit() else 0


def _block() -> range | None:
    """This worker's ports, or None when the ephemeral range leaves no room below it."""
    blocks = (_ephemeral_low() - FIRST_PORT) // PORTS_PER_WORKER
    if blocks < 1:
        return None
    start = FIRST_PORT + (_worker_index() % blocks) * PORTS_PER_WORKER
    return range(start, start + PORTS_PER_WORKER)


def _sequence() -> Iterator[int]:
    block = _block()
    if block is None:
        return iter(())
    offset = os.getpid() % len(block)
    return itertools.cycle([*block[offset:], *block[:offset]])


_next_in_block = _sequence()


def _is_free(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        try:
            sock.bind(("0.0.0.0", port))  # noqa: S104 (the served apps bind every interface)
        except OSError:
            return False
    return True


def _kernel_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def free_port() -> int:
    """A port that is free now and that no other worker or outgoing connection will be given."""
    for port in itertools.islice(_next_in_block, PORTS_PER_WORKER):
        if _is_free(port):
            return port
    if _block() is None:
        return _kernel_port()
    raise RuntimeError(f"no free port in this worker's block {_block()}: are old test servers still running?")
