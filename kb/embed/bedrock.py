"""Embeddings from Amazon Bedrock (``bedrock-runtime`` ``InvokeModel``), boto3 imported lazily.

Two model families:

* ``amazon.titan-embed-text-v2:0`` -- one text per call (``inputText``), output size 256, 512 or 1024
  (``dimensions``), normalised by the service; calls run ``max_concurrency`` at a time.
* ``cohere.embed-multilingual-v3`` (and ``cohere.embed-english-v3``) -- up to 96 texts per call, 1024
  dimensions, with ``input_type`` ``search_document`` for passages and ``search_query`` for queries
  (Cohere's asymmetric retrieval mode).

Throttling and transient service errors (``ThrottlingException``, ``ServiceUnavailableException``,
``ModelNotReadyException``, ``InternalServerException``, HTTP 5xx, connection errors) are retried with
exponential backoff.  The ``name`` is ``bedrock:<model id>`` plus the output size for Titan, so vectors of
different models or sizes never mix.  Credentials come from the usual AWS chain (environment, profile,
instance role); nothing here reads or logs them.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from kb.embed.batching import RetryableError, normalise, run_batches, with_retries
from kb.errors import EmbedderError

TITAN_V2 = "amazon.titan-embed-text-v2:0"
COHERE_MULTILINGUAL = "cohere.embed-multilingual-v3"
RETRY_CODES = frozenset(
    {
        "ThrottlingException",
        "TooManyRequestsException",
        "ServiceUnavailableException",
        "ModelNotReadyException",
        "InternalServerException",
        "ModelTimeoutException",
    }
)
#: Cohere v3 accepts at most 96 texts per call and reads up to 2048 characters of each (truncate END).
COHERE_MAX_TEXTS = 96
COHERE_MAX_CHARS = 2048
#: Titan v2 reads up to 8192 tokens; longer text is cut here first (visible, not a service error).
TITAN_MAX_CHARS = 30000


class BedrockEmbedder:
    """Embedder over Bedrock ``InvokeModel`` for Titan Text Embeddings v2 or Cohere Embed v3.

    Args:
        model_id: ``amazon.titan-embed-text-v2:0`` or ``cohere.embed-multilingual-v3`` (short names
            ``titan-v2`` / ``cohere-multilingual-v3`` are accepted).
        region: AWS region of the Bedrock endpoint (None: the AWS default chain).
        dimensions: Titan output size (256, 512 or 1024); Cohere is always 1024.
        batch_size, max_concurrency, max_retries, backoff: as for the OpenAI-compatible embedder.
        client: a ``bedrock-runtime`` client to use (tests pass one wrapped in botocore's Stubber).
    """

    def __init__(
        self,
        model_id: str = TITAN_V2,
        *,
        region: str | None = None,
        dimensions: int = 1024,
        batch_size: int = COHERE_MAX_TEXTS,
        max_concurrency: int = 4,
        max_retries: int = 5,
        backoff: float = 0.5,
        client: Any = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        model_id = {"titan-v2": TITAN_V2, "cohere-multilingual-v3": COHERE_MULTILINGUAL}.get(
            model_id, model_id
        )
        if model_id.startswith("amazon.titan-embed-text-v2"):
            if dimensions not in (256, 512, 1024):
                raise EmbedderError(f"Titan v2 embeds into 256, 512 or 1024 dimensions, not {dimensions}")
            self.family = "titan"
            self.dim = dimensions
            self.name = f"bedrock:{model_id}:d{dimensions}"
        elif model_id.startswith("cohere.embed-"):
            self.family = "cohere"
            self.dim = 1024
            self.name = f"bedrock:{model_id}"
        else:
            raise EmbedderError(
                f"unsupported Bedrock embedding model {model_id!r} (use {TITAN_V2} or {COHERE_MULTILINGUAL})"
            )
        self.model_id = model_id
        self.region = region
        self.batch_size = max(1, min(batch_size, COHERE_MAX_TEXTS))
        self.max_concurrency = max(1, max_concurrency)
        self.max_retries = max(0, max_retries)
        self.backoff = backoff
        self._client = client
        self._sleep = sleep
        self._lock = threading.Lock()

    def _runtime(self) -> Any:
        with self._lock:
            if self._client is None:
                try:
                    import boto3
                except ImportError as exc:  # pragma: no cover - depends on the environment
                    raise EmbedderError("the Bedrock embedder needs boto3: pip install boto3") from exc
                self._client = boto3.client("bedrock-runtime", region_name=self.region)
            return self._client

    # --- Embedder protocol ----------------------------------------------------------------------

    def embed_query(self, text: str) -> np.ndarray:
        rows = self._titan([text]) if self.family == "titan" else self._cohere([text], "search_query")
        vec: np.ndarray = normalise(rows)[0]
        return vec

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        if self.family == "titan":
            # one text per call: the concurrency is across texts
            parts = run_batches(texts, self._titan, batch_size=1, max_concurrency=self.max_concurrency)
        else:
            parts = run_batches(
                texts,
                lambda batch: self._cohere(batch, "search_document"),
                batch_size=self.batch_size,
                max_concurrency=self.max_concurrency,
            )
        return normalise(np.concatenate(parts, axis=0))

    # --- calls ----------------------------------------------------------------------------------

    def _titan(self, texts: Sequence[str]) -> np.ndarray:
        rows = []
        for text in texts:
            body = {"inputText": text[:TITAN_MAX_CHARS], "dimensions": self.dim, "normalize": True}
            out = self._invoke(body)
            rows.append(out.get("embedding"))
        return self._matrix(rows, len(texts))

    def _cohere(self, texts: Sequence[str], input_type: str) -> np.ndarray:
        body = {
            "texts": [t[:COHERE_MAX_CHARS] for t in texts],
            "input_type": input_type,
            "truncate": "END",
        }
        out = self._invoke(body)
        embeddings = out.get("embeddings")
        if isinstance(embeddings, dict):  # embedding_types requested: {"float": [...]}
            embeddings = embeddings.get("float")
        return self._matrix(embeddings, len(texts))

    def _matrix(self, rows: Any, n: int) -> np.ndarray:
        try:
            matrix = np.asarray(rows, dtype=np.float32)
        except (ValueError, TypeError) as exc:
            raise EmbedderError(f"Bedrock {self.model_id} sent an unreadable embedding ({exc})") from None
        if matrix.ndim != 2 or matrix.shape != (n, self.dim):
            raise EmbedderError(
                f"Bedrock {self.model_id} returned vectors of shape {matrix.shape}, "
                f"expected ({n}, {self.dim})"
            )
        return matrix

    def _invoke(self, body: dict[str, Any]) -> dict[str, Any]:
        return with_retries(
            lambda: self._invoke_once(body),
            what=f"Bedrock {self.model_id}",
            max_retries=self.max_retries,
            backoff=self.backoff,
            sleep=self._sleep,
        )

    def _invoke_once(self, body: dict[str, Any]) -> dict[str, Any]:
        from botocore.exceptions import ClientError, ConnectionError, ReadTimeoutError

        client = self._runtime()
        try:
            resp = client.invoke_model(
                modelId=self.model_id,
                body=json.dumps(body),
                contentType="application/json",
                accept="application/json",
            )
        except ClientError as exc:
            err = exc.response.get("Error", {})
            code = str(err.get("Code", ""))
            status = int(exc.response.get("ResponseMetadata", {}).get("HTTPStatusCode", 0) or 0)
            if code in RETRY_CODES or status == 429 or status >= 500:
                raise RetryableError(f"{code or status}: {err.get('Message', '')}") from None
            raise EmbedderError(f"Bedrock {self.model_id}: {code}: {err.get('Message', '')}") from None
        except (ConnectionError, ReadTimeoutError) as exc:
            raise RetryableError(f"{type(exc).__name__}: {exc}") from None
        try:
            raw = resp["body"].read()
            out = json.loads(raw)
        except (KeyError, ValueError) as exc:
            raise EmbedderError(f"Bedrock {self.model_id} sent an unreadable response ({exc})") from None
        if not isinstance(out, dict):
            raise EmbedderError(f"Bedrock {self.model_id} sent an unreadable response (not an object)")
        return out
