"""Progress of long work (ingest): a live bar with an overall estimate in a terminal, and one plain line
every few seconds when stderr is a pipe, a log file or CI, so a long run is never silent.

Both implement :class:`kb.ingest.Progress` (``start``, ``document``, ``embedded``). The overall estimate
counts documents, with the current document's embedding as a fraction of one document, and divides the
elapsed time by the share done; documents served from the vector cache make it shrink quickly.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, TextIO


def _clock(seconds: float) -> str:
    s = int(seconds)
    return f"{s // 3600}h{s // 60 % 60:02d}m" if s >= 3600 else f"{s // 60}m{s % 60:02d}s"


class _Tally:
    """Where the run is: documents done, embedding inside the current document, elapsed time."""

    def __init__(self, now: Callable[[], float]) -> None:
        self.now = now
        self.t0 = now()
        self.total = 0
        self.done = 0
        self.embed_done = 0
        self.embed_total = 0
        self.passages = 0
        self.errors = 0

    def share(self) -> float:
        if not self.total:
            return 0.0
        partial = self.embed_done / self.embed_total if self.embed_total else 0.0
        return min(1.0, (self.done + partial) / self.total)

    def eta(self) -> float | None:
        share, elapsed = self.share(), self.now() - self.t0
        if share <= 0.02 or elapsed < 1.0:
            return None
        return elapsed * (1 - share) / share


class LineProgress:
    """``ingest: 12/42 documents (29%), 1,204 passages embedded, 1m20s elapsed, about 3m10s left``."""

    def __init__(self, stream: TextIO, every: float = 5.0, now: Callable[[], float] = time.monotonic) -> None:
        self._stream = stream
        self._every = every
        self._tally = _Tally(now)
        self._last = self._tally.t0

    def __enter__(self) -> LineProgress:
        return self

    def __exit__(self, *exc: object) -> None:
        if self._tally.total and exc[0] is None:
            self._line(final=True)

    def _line(self, *, final: bool = False) -> None:
        t = self._tally
        elapsed = t.now() - t.t0
        parts = [f"ingest: {t.done}/{t.total} documents ({t.share():.0%})"]
        if t.passages:
            parts.append(f"{t.passages:,} passages embedded")
        if t.errors:
            parts.append(f"{t.errors} failed")
        parts.append(f"{_clock(elapsed)} elapsed")
        eta = t.eta()
        if final:
            parts.append("done")
        elif eta is not None:
            parts.append(f"about {_clock(eta)} left")
        self._stream.write(", ".join(parts) + "\n")
        self._stream.flush()
        self._last = t.now()

    def _maybe(self) -> None:
        if self._tally.now() - self._last >= self._every:
            self._line()

    def start(self, total_docs: int) -> None:
        self._tally.total = total_docs
        self._stream.write(f"ingest: {total_docs} documents to read\n")
        self._stream.flush()

    def document(self, path: str, status: str) -> None:
        t = self._tally
        t.done += 1
        t.errors += status == "error"
        t.embed_done = t.embed_total = 0
        self._maybe()

    def embedded(self, count: int, total: int) -> None:
        t = self._tally
        t.passages += max(0, count - t.embed_done)
        t.embed_done, t.embed_total = count, total
        self._maybe()


class BarProgress:
    """Rich bars on stderr: overall (with the estimate), documents, and the current document's passages."""

    def __init__(self, console: Any) -> None:
        from rich.progress import (
            BarColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        self._p = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            TextColumn("{task.fields[detail]}"),
            TimeElapsedColumn(),
            TextColumn("left"),
            TimeRemainingColumn(),
            console=console,
            transient=True,
        )
        self._tally = _Tally(time.monotonic)
        self._overall: Any = None
        self._embed: Any = None

    def __enter__(self) -> BarProgress:
        self._p.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._p.stop()

    def _refresh(self) -> None:
        t = self._tally
        detail = f"{t.done}/{t.total} documents, {t.passages:,} passages"
        self._p.update(self._overall, completed=t.share() * 1000, detail=detail)

    def start(self, total_docs: int) -> None:
        self._tally.total = total_docs
        self._overall = self._p.add_task("ingest", total=1000, detail="")

    def document(self, path: str, status: str) -> None:
        t = self._tally
        t.done += 1
        t.embed_done = t.embed_total = 0
        if self._embed is not None:
            self._p.remove_task(self._embed)
            self._embed = None
        self._refresh()

    def embedded(self, count: int, total: int) -> None:
        t = self._tally
        t.passages += max(0, count - t.embed_done)
        t.embed_done, t.embed_total = count, total
        if self._embed is None:
            self._embed = self._p.add_task("  embedding", total=total, detail="")
        self._p.update(self._embed, completed=count, total=total, detail=f"{count}/{total} passages")
        self._refresh()
