"""The embedder interface: text in, L2-normalised float32 vectors out (cosine = dot product)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

import numpy as np


@runtime_checkable
class Embedder(Protocol):
    """Anything that embeds queries and passages into one vector space.

    ``name`` identifies the model *and* its settings: vectors cached under one name are never
    mixed with another's.
    """

    name: str
    dim: int

    def embed_query(self, text: str) -> np.ndarray:
        """One query vector, shape ``(dim,)``."""
        ...

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        """Passage vectors, shape ``(len(texts), dim)``."""
        ...
