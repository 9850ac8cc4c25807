"""An item block the OCR ran into the next ayat and that ends as a lead-in ("c. saat lain ... Peraturan
Pemerintah. Tarif pajak karbon ditetapkan ... Rp30,00 ... Ketentuan mengenai:", UU 7/2021 Pasal 13) is split
into its sentences: whole, it was only the label of the items after it, and "Berapa tarif pajak karbon?" was
answered "Saat terutang pajak karbon ditentukan: a. penetapan tarif pajak karbon ...".  A sentence after the
item is no item of the list, so the list's opener is not read before it."""

from __future__ import annotations

import datetime as dt
from typing import Any

from bot.answer.extractive import is_padding, split_units
from tests.answer.chunk_sample import anonymous_answer

MERGED = (
    "c. saat (8) (e) (10) c. saat lain yang diatur dengan atau berdasarkan Peraturan Pemerintah. "
    "Tarif pajak karbon ditetapkan lebih tinggi atau sama dengan harga karbon di pasar karbon per "
    "kilogram karbon dioksida ekuivalen (COze) atau satuan yang setara. Dalam hal harga karbon di pasar "
    "karbon sebagaimana dimaksud pada ayat (8) lebih rendah dari Rp30,00 (tiga puluh rupiah) per kilogram "
    "karbon dioksida ekuivalen (COze) atau satuan yang setara, tarif pajak karbon ditetapkan sebesar paling "
    "rendah Rp30,00 (tiga puluh rupiah) per kilogram karbon dioksida ekuivalen (COze) atau satuan yang "
    "setara. Ketentuan mengenai:\n"
    "a. penetapan tarif pajak karbon sebagaimana dimaksud pada ayat (8);\n"
    "b. perubahan tarif pajak karbon sebagaimana dimaksud pada ayat (9); dan/atau"
)


def test_the_merged_sentences_are_quotable() -> None:
    quotes = [u.quote for u in split_units(MERGED)]
    assert any(q.startswith("Dalam hal harga karbon") and "Rp30,00" in q for q in quotes)
    assert any(q.startswith("a. penetapan tarif") for q in quotes)
    # a short item lead-in stays a label
    first = next(iter(split_units("c. barang berikut:\n1. beras;\n2. jagung.")))
    assert first.quote.startswith("c.")


def test_the_carbon_tax_rate(services: Any) -> None:
    answer = anonymous_answer(services, "Berapa tarif pajak karbon?", as_of=dt.date(2026, 12, 1))
    assert answer.status == "answered"
    assert "Rp30,00" in answer.claims[0].quote
    assert "Rp30,00" in answer.answer
    assert "Saat terutang" not in answer.answer


def test_an_amending_acts_chapter_instructions_are_padding() -> None:
    assert is_padding(
        "4. Menambah BAB baru di antara BAB II tentang Pengukuhan Pengusaha Kena Pajak dan Bab II"
    )
    assert is_padding('5. Judul Bab III diubah, sehingga berbunyi sebagai berikut : "BAB III OBJEK PAJAK"')
    assert is_padding(
        "Pasal I Mengubah beberapa ketentuan dalam Undang-undang Nomor 8 Tahun 1983 tentang Pajak "
        "Pertambahan Nilai Barang dan Jasa, sebagai berikut:"
    )
    assert not is_padding("(1) Pajak Pertambahan Nilai dikenakan atas:")
