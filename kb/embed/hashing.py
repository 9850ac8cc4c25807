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


class HashingEmbedder:
    def __init__(self, dim: int = 256) -> None:
        self.dim = dim
        self.name = f"hashing-{dim}"

    def _vec(self, text: str) -> np.ndarray:
        v = np.zeros(self.dim, dtype=np.float32)
        low = text.lower()
        feats = re.findall(r"\w+", low)
        feats += [low[i : i + 3] for i in range(max(0, len(low) - 2))]
        for f in feats:
            h = int.from_bytes(hashlib.blake2b(f.encode(), digest_size=8).digest(), "little")
            v[h % self.dim] += 1.0 if (h >> 63) & 1 else -1.0
        n = float(np.linalg.norm(v))
        return v / n if n else v

    def embed_query(self, text: str) -> np.ndarray:
        return self._vec(text)

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.stack([self._vec(t) for t in texts])
