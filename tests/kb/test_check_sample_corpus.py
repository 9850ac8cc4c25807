"""`dasar kb check` over the whole bundled corpus, in CI: no chunk claims a law its act does not amend."""

from __future__ import annotations

from pathlib import Path

from kb.check import check_corpus
from kb.store.sqlite import SqliteStore


def test_the_sample_corpus_is_consistent(behaviour_kb: Path) -> None:
    store = SqliteStore(behaviour_kb, embedder_name="hashing-256")
    try:
        report = check_corpus(store)
    finally:
        store.close()
    errors = [(d.doc_id, f.kind, f.detail) for d in report.documents for f in d.errors]
    assert errors == []
    assert report.ok
    assert len(report.documents) >= 45
    # acts the texts amend but the corpus lacks are listed, never replaced by the nearest act present
    assert "PMK 81/2024" in report.absent_targets
    pmk54 = report.document("pmk-54-2025")
    assert pmk54 is not None and "PMK 11/2025" not in pmk54.laws
