"""A figure a rule names only as forbidden is not the rule's rate and confirms nothing.

"AP tidak boleh menerima faktur yang mengenakan 12% atas Harga Jual penuh" (the faktur procedure) was read as
"Ya. Menurut SNR-PRO-TAX-002, tarifnya 12%" for a user asking whether to accept such a faktur; the line now
quotes the prohibition.  A sanction after a comma ("tidak diperkenankan memperhitungkan Pajak Masukan,
Pengusaha Kena Pajak juga dikenakan ... denda sebesar 2%") is not forbidden: the clause ended.
"""

from __future__ import annotations

from bot.answer.render import answer_line, forbidden_spans
from tests.answer.test_answer_line_fact import shown

FAKTUR = (
    "Untuk faktur yang dibuat mulai 1 Januari 2025, AP tidak boleh menerima faktur yang mengenakan 12% atas "
    "Harga Jual penuh untuk barang/jasa non-mewah."
)


def test_a_prohibited_percentage_is_found_and_a_clause_ends_at_a_comma() -> None:
    (span,) = forbidden_spans(FAKTUR)
    assert FAKTUR[span[0] : span[1]] == "12%"
    fine = "tidak diperkenankan memperhitungkan Pajak Masukan, PKP juga dikenakan denda sebesar 2% dari DPP"
    assert forbidden_spans(fine) == []
    assert forbidden_spans("dipotong PPh Pasal 23 sebesar 2% dari jumlah bruto") == []


def test_a_prohibited_rate_is_neither_the_answer_nor_a_confirmation() -> None:
    claim = shown(FAKTUR, FAKTUR, "SNR-PRO-TAX-002", "Tarif PPN Berdasarkan Tanggal Faktur", layer="policy")
    question = "Faktur vendor Feb 2025 PPN nya 12% x harga jual full, boleh diterima kan?"
    line = answer_line([claim], "id", question=question)
    assert not line.startswith("Ya")
    assert "tarifnya 12%" not in line
    assert "tidak boleh menerima faktur yang mengenakan 12%" in line
