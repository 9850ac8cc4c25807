"""Shared plumbing of remote embedders: batches in order, bounded concurrency, retries with backoff.

A remote endpoint is slow per call and fast in parallel, and it says "slow down" (HTTP 429, Bedrock
``ThrottlingException``) or fails transiently (5xx, dropped connections).  :func:`run_batches` splits the
texts into batches, runs at most ``max_concurrency`` at once and puts the results back in input order;
:func:`with_retries` retries one call on a retryable error with exponential backoff (and the server's
``Retry-After`` when it gives one), then raises :class:`~kb.errors.EmbedderError` naming the endpoint.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

import numpy as np

from kb.errors import EmbedderError

logger = logging.getLogger(__name__)

T = TypeVar("T")

#: Longest wait between two attempts, whatever the server's Retry-After says.
MAX_BACKOFF_S = 30.0


class RetryableError(Exception):
    """A failure worth another attempt; ``retry_after`` is the server's hint in seconds, if any."""

    def __init__(self, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


def backoff_delay(attempt: int, base: float, retry_after: float | None = None) -> float:
    """Seconds to wait before attempt ``attempt + 1``: the server's hint, else ``base * 2**attempt`` +-25%."""
    if retry_after is not None and retry_after >= 0:
        return float(min(retry_after, MAX_BACKOFF_S))
    return float(min(base * (2**attempt) * (0.75 + random.random() / 2), MAX_BACKOFF_S))  # noqa: S311 - jitter


def with_retries(
    call: Callable[[], T],
    *,
    what: str,
    max_retries: int,
    backoff: float,
    sleep: Callable[[float], None] = time.sleep,
) -> T:
    """``call()``, retried up to ``max_retries`` times while it raises :class:`RetryableError`."""
    attempt = 0
    while True:
        try:
            return call()
        except RetryableError as exc:
            if attempt >= max_retries:
                raise EmbedderError(f"{what}: gave up after {attempt + 1} attempts ({exc})") from None
            delay = backoff_delay(attempt, backoff, exc.retry_after)
            logger.warning(
                "endpoint=%s, attempt=%s, wait_s=%.2f | %s; retrying", what, attempt + 1, delay, exc
            )
            sleep(delay)
            attempt += 1


def batches(items: Sequence[T], size: int) -> list[Sequence[T]]:
    if size < 1:
        raise ValueError("batch size must be at least 1")
    return [items[i : i + size] for i in range(0, len(items), size)]


def run_batches(
    texts: Sequence[str],
    embed_batch: Callable[[Sequence[str]], np.ndarray],
    *,
    batch_size: int,
    max_concurrency: int,
) -> list[np.ndarray]:
    """``embed_batch`` over batches of ``texts``, ``max_concurrency`` at a time, results in input order."""
    parts = batches(texts, batch_size)
    if len(parts) <= 1 or max_concurrency <= 1:
        return [embed_batch(p) for p in parts]
    with ThreadPoolExecutor(max_workers=min(max_concurrency, len(parts))) as pool:
        return list(pool.map(embed_batch, parts))  # map keeps the input order


def normalise(matrix: np.ndarray) -> np.ndarray:
    """L2-normalised float32 rows (cosine = dot product, as the Embedder protocol promises)."""
    m = np.asarray(matrix, dtype=np.float32)
    if m.ndim == 1:
        m = m.reshape(1, -1)
    norms = np.linalg.norm(m, axis=1, keepdims=True)
    return np.where(norms > 0, m / np.where(norms > 0, norms, 1.0), m).astype(np.float32)
