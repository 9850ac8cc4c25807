"""A Pasal cited with the name of another act ("Pasal 9 ayat (3) Undang-Undang Bea Contoh") links into
that act, through the short name the citing regulation defines for it, never into the citing regulation's own
Pasal of the same number. Two tiny regulations of our own, ingested with the hashing embedder."""

from __future__ import annotations

import json
from pathlib import Path

from kb.embed.hashing import HashingEmbedder
from kb.ingest import ingest_paths
from kb.store.sqlite import SqliteStore

LAW = """UNDANG-UNDANG REPUBLIK INDONESIA
NOMOR 4 TAHUN 2001
TENTANG
BEA CONTOH

Pasal 1
Dalam Undang-Undang ini yang dimaksud dengan:
1. Bea adalah pungutan atas dokumen contoh.
2. Pemungut adalah pihak yang memungut Bea.

Pasal 9
(1) Bea dipungut atas setiap dokumen contoh yang dibuat di Indonesia.
(2) Pemungut menyetor Bea paling lambat akhir bulan berikutnya.
(3) Atas dokumen contoh yang dibuat oleh badan di luar negeri dikenai Bea sebesar 5% (lima persen).

Pasal 10
Undang-Undang ini mulai berlaku pada tanggal 1 Januari 2002.

Agar setiap orang mengetahuinya, memerintahkan pengundangan Undang-Undang ini.
"""

REG = """PERATURAN PEMERINTAH REPUBLIK INDONESIA
NOMOR 8 TAHUN 2003
TENTANG
PELAKSANAAN BEA CONTOH

Pasal 1
Dalam Peraturan Pemerintah ini yang dimaksud dengan:
1. Undang-Undang Bea Contoh adalah Undang-Undang Nomor 4 Tahun 2001 tentang Bea Contoh.
2. Dokumen adalah dokumen contoh.

Pasal 3
Bea atas Dokumen badan di luar negeri sebagaimana dimaksud dalam Pasal 9 ayat (3)
Undang-Undang Bea Contoh disetor sebelum Dokumen digunakan.

Pasal 5
Pemungut mencatat Dokumen sebagaimana dimaksud dalam Pasal 9 Peraturan Pemerintah ini
dan Pasal 2 Undang-Undang Bea Lain.

Pasal 9
(1) Pencatatan Dokumen dilakukan setiap bulan.
(2) Catatan disimpan selama lima tahun.
(3) Catatan dapat diperiksa oleh pejabat.

Pasal 12
Peraturan Pemerintah ini mulai berlaku pada tanggal 1 Januari 2004.

Agar setiap orang mengetahuinya, memerintahkan pengundangan Peraturan Pemerintah ini.
"""


def _folder(root: Path, doc_id: str, doc_type: str, number: str, year: int, title: str, text: str) -> None:
    folder = root / doc_id
    folder.mkdir(parents=True)
    (folder / "text.txt").write_text(text, encoding="utf-8")
    meta = {
        "id": doc_id,
        "type": doc_type,
        "number": number,
        "year": year,
        "title": title,
        "effective_date": f"{year + 1}-01-01",
        "status": "berlaku",
        "amends": [],
        "amended_by": [],
        "revokes": [],
        "revoked_by": [],
        "language": "id",
    }
    (folder / "metadata.json").write_text(json.dumps(meta), encoding="utf-8")


def _references(store: SqliteStore, chunk_id: str) -> set[str]:
    return {e.dst for e in store.edges_from([chunk_id], ["references"])}


def test_a_pasal_of_a_named_act_links_into_that_act_not_the_citing_one(tmp_path: Path) -> None:
    corpus = tmp_path / "regs"
    _folder(corpus, "uu-4-2001", "UU", "4", 2001, "Bea Contoh", LAW)
    _folder(corpus, "pp-8-2003", "PP", "8", 2003, "Pelaksanaan Bea Contoh", REG)
    store = SqliteStore(tmp_path / "kb.sqlite", embedder_name="hashing-256")
    report = ingest_paths([corpus], store, HashingEmbedder())
    assert report.ok, report.errors
    pasal3 = _references(store, "pp-8-2003#pasal-3")
    assert "uu-4-2001#pasal-9" in pasal3  # (a short Pasal stays one chunk)
    assert not any(dst.startswith("pp-8-2003#pasal-9") for dst in pasal3)
    # "Pasal 9 Peraturan Pemerintah ini" is the citing act's own; "Undang-Undang Bea Lain" is not in the
    # knowledge base (and not defined): it links nowhere, least of all into the citing act's Pasal 2
    pasal5 = _references(store, "pp-8-2003#pasal-5")
    assert any(dst.startswith("pp-8-2003#pasal-9") for dst in pasal5)
    assert not any(dst.startswith("uu-4-2001#") for dst in pasal5)
    assert not any(dst.startswith("pp-8-2003#pasal-2") for dst in pasal5)
    store.close()
