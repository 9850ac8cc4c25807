"""A tiny deterministic embedder for tests and benchmarks of scale (not for answering).

Feature hashing of character trigrams and words into a fixed space: similar strings get similar
vectors, it costs microseconds, and it needs no model -- so store and scale tests do not pay for
the real model.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence

import numpy as np

_MAX_REMEMBERED = 2_000_000


class HashingEmbedder:
    def __init__(self, dim: int = 256) -> None:
        self.dim = dim
        self.name = f"hashing-{dim}"
        # feature -> (bucket, sign); words and trigrams repeat across a corpus, so hashing each once
        # turns a million-chunk ingest from hours of blake2b calls into dictionary lookups.
        self._buckets: dict[str, tuple[int, float]] = {}

    def _bucket(self, feature: str) -> tuple[int, float]:
        hit = self._buckets.get(feature)
        if hit is None:
            h = int.from_bytes(hashlib.blake2b(feature.encode(), digest_size=8).digest(), "little")
            hit = (h % self.dim, 1.0 if (h >> 63) & 1 else -1.0)
            if len(self._buckets) < _MAX_REMEMBERED:
                self._buckets[feature] = hit
        return hit

    def _vec(self, text: str) -> np.ndarray:
        low = text.lower()
        feats = re.findall(r"\w+", low)
        feats += [low[i : i + 3] for i in range(max(0, len(low) - 2))]
        if not feats:
            return np.zeros(self.dim, dtype=np.float32)
        pairs = [self._bucket(f) for f in feats]
        index = np.fromiter((b for b, _ in pairs), dtype=np.int64, count=len(pairs))
        sign = np.fromiter((s for _, s in pairs), dtype=np.float64, count=len(pairs))
        v = np.bincount(index, weights=sign, minlength=self.dim).astype(np.float32)
        n = float(np.linalg.norm(v))
        return v / n if n else v

    def embed_query(self, text: str) -> np.ndarray:
        return self._vec(text)

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.stack([self._vec(t) for t in texts])
