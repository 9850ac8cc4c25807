"""Pick the knowledge-base backend from configuration: a PostgreSQL URL wins, else the SQLite file.

Why a factory: the composition root (``bot.wiring``) and any tool that opens a knowledge base must
make the same choice and give the same "no knowledge base yet" answer, whichever backend is used.
Only ``dasar ingest`` passes ``create=True``; every read command on a missing SQLite file or on a
database without dasar tables is told to run ``dasar ingest`` instead of silently getting an empty
knowledge base.
"""

from __future__ import annotations

import logging
from pathlib import Path

from kb.errors import StoreError
from kb.store.protocol import KnowledgeStore

logger = logging.getLogger(__name__)


def open_store(
    kb_path: Path | str, kb_url: str | None, embedder_name: str | None, *, create: bool = False
) -> KnowledgeStore:
    """The configured knowledge base.

    Args:
        kb_path: SQLite file (``DASAR_KB`` / ``--kb``), used when ``kb_url`` is empty.
        kb_url: PostgreSQL URL (``DASAR_KB_URL``); when set, ``kb_path`` is ignored.
        embedder_name: the embedder of this process (a knowledge base stays on one model).
        create: create the knowledge base if it does not exist yet (``dasar ingest`` only).

    Raises:
        StoreError: no knowledge base there (and ``create`` is False), or it cannot be opened.
    """
    if kb_url:
        from kb.store.postgres import PostgresStore, redact_url

        logger.info(
            "backend=postgres, kb=%s | opening knowledge base (DASAR_KB_URL set, DASAR_KB ignored)",
            redact_url(kb_url),
        )
        return PostgresStore(kb_url, embedder_name=embedder_name, create=create)
    from kb.store.sqlite import SqliteStore

    if not create and not Path(kb_path).exists():
        raise StoreError(
            f"no knowledge base at {kb_path}; build it with `dasar ingest FOLDER` "
            "(or point DASAR_KB / --kb at an existing one)"
        )
    return SqliteStore(kb_path, embedder_name=embedder_name)
