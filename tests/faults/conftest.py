"""Fault tests reuse the served-product fixtures (the small hashing-embedder knowledge base)."""

from tests.served.conftest import served_kb

__all__ = ["served_kb"]
