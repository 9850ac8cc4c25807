"""When a Pasal and its own elucidation are both found, close in score, the Pasal leads.

Session 73: "Bagaimana perlakuan PPN atas penjualan aset tetap perusahaan?" was led by UU 42/2009's
elucidation of the amendment item restating UU PPN Pasal 16D ("Namun, Pajak Pertambahan Nilai tidak dikenakan
atas ..."), a near tie with Pasal 16D itself once a change elsewhere in the corpus moved BM25's statistics.
An elucidation is valid only with its Pasal's wording and says how to read it; the provision the answer leads
with is the Pasal (issue 12, "the answer is the provision that answers").  ``Chunk.elucidates`` tells which
passages an elucidation explains, by the structural steps of both keys.
"""

from __future__ import annotations

from kb.model import DocumentMeta, Hit
from tests.answer.chunk_sample import lead_chunk_id, sample_chunk

DOC = DocumentMeta(id="uu-ppn-x", number="UU 9/2099", title="Perubahan UU PPN", type="UU")
RULE = sample_chunk(
    "uu-ppn-x",
    "pasal-I/angka-17/pasal-16D",
    "Pajak Pertambahan Nilai dikenakan atas penyerahan Barang Kena Pajak berupa aktiva yang menurut tujuan "
    "semula tidak untuk diperjualbelikan oleh Pengusaha Kena Pajak.",
    location="Pasal 16D UU 8/1983 (Pasal I angka 17 UU 9/2099)",
    seq=1,
    kind="pasal",
    pasal="16D",
)
ELUCIDATION = sample_chunk(
    "uu-ppn-x",
    "penjelasan/pasal-I/angka-17",
    "Penyerahan aset tetap perusahaan berupa mesin, bangunan atau kendaraan yang dijual dikenai Pajak "
    "Pertambahan Nilai. Namun, Pajak Pertambahan Nilai tidak dikenakan atas penjualan aset tetap yang tidak "
    "mempunyai hubungan langsung dengan kegiatan usaha.",
    location="Penjelasan Pasal I angka 17",
    seq=2,
    kind="penjelasan",
    pasal="I",
)
OTHER_PASAL = sample_chunk(
    "uu-ppn-x",
    "pasal-I/angka-18/pasal-17",
    "Penjualan aset tetap perusahaan dicatat dalam pembukuan.",
    location="Pasal 17 UU 8/1983 (Pasal I angka 18 UU 9/2099)",
    seq=3,
    kind="pasal",
    pasal="17",
)
QUESTION = "Bagaimana perlakuan PPN atas penjualan aset tetap perusahaan?"


def _hits(*chunks: object) -> list[Hit]:
    return [Hit(c, DOC, 1.0 - i / 10) for i, c in enumerate(chunks)]  # type: ignore[arg-type]


def test_an_elucidation_names_the_pasal_it_explains() -> None:
    assert ELUCIDATION.elucidates(RULE)
    assert not ELUCIDATION.elucidates(OTHER_PASAL)
    assert not RULE.elucidates(ELUCIDATION)
    # the annex of an omnibus act keeps its elucidation outside it: "lampiran/" is no step of the provision
    annexed = sample_chunk("uu-ppn-x", "lampiran/pasal-111/angka-2/pasal-26/ayat-1", "x", location="x", seq=4)
    explains = sample_chunk(
        "uu-ppn-x", "penjelasan/pasal-111/angka-2/pasal-26", "y", location="y", seq=5, kind="penjelasan"
    )
    assert explains.elucidates(annexed)
    general = sample_chunk("uu-ppn-x", "penjelasan/umum/part-1", "z", location="z", seq=6, kind="penjelasan")
    assert not general.elucidates(annexed)


def test_the_pasal_leads_over_its_elucidation_found_first() -> None:
    assert lead_chunk_id(QUESTION, _hits(ELUCIDATION, RULE)) == RULE.id


def test_an_elucidation_whose_pasal_is_not_found_may_lead() -> None:
    assert lead_chunk_id(QUESTION, _hits(ELUCIDATION, OTHER_PASAL)) == ELUCIDATION.id
