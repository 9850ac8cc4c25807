"""A word inside a tax's name is no mention of the thing: "Pajak Penjualan atas Barang Mewah" is no sale.

"Bagaimana perlakuan PPN atas penjualan aset tetap perusahaan?" was led by PP 49/2022 Pasal 28 ayat (1), an
import exemption whose only "penjualan" is in the luxury-goods tax's name, ahead of UU PPN Pasal 16D on the
sale of a company's own assets (session 71, a probe of our own).
"""

from __future__ import annotations

from typing import Any

from kb.lexical import coverage, question_concepts
from kb.query import understand
from tests.answer.chunk_sample import anonymous_answer

QUESTION = "Bagaimana perlakuan PPN atas penjualan aset tetap perusahaan?"
IMPORT_EXEMPTION = (
    "(1) Barang Kena Pajak yang atas impornya dibebaskan dari pungutan Bea Masuk tetap dipungut Pajak "
    "Pertambahan Nilai atau Pajak Pertambahan Nilai dan Pajak Penjualan atas Barang Mewah."
)


def _coverage(question: str, text: str) -> float:
    return coverage(question_concepts(understand(question), question), text)


def test_a_tax_name_covers_no_sale() -> None:
    # PPN is covered, the sale and the fixed asset are not
    assert _coverage(QUESTION, IMPORT_EXEMPTION) == 1 / 3
    sale = "Penjualan aktiva oleh Pengusaha Kena Pajak terutang Pajak Pertambahan Nilai."
    assert _coverage(QUESTION, sale) == 1


def test_a_question_naming_the_tax_still_finds_it() -> None:
    assert _coverage("Berapa tarif Pajak Penjualan atas Barang Mewah?", IMPORT_EXEMPTION) == 1
    assert _coverage("Apa itu nilai impor?", "Pajak Pertambahan Nilai atas impor dipungut.") == 0.5


def test_the_asset_sale_rule_answers(services: Any) -> None:
    answer = anonymous_answer(services, QUESTION)
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert lead.source.doc_id == "uu-42-2009"
    assert lead.source.location.startswith("Pasal 16D")
