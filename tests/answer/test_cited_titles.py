"""An act cited by its title is not what the citing passage says: PMK 11/2025's amending instruction
("Beberapa ketentuan dalam Peraturan Menteri Keuangan Nomor 48 Tahun 2023 tentang ... Penjualan/Penyerahan
Emas Perhiasan, Emas Batangan, ... diubah sebagai berikut:") and its list of cited acts carried every word of
"Apakah penjualan emas batangan kena PPN?" and led it with "harga jual Agunan" (session 58, a probe of our
own)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from bot.answer.extractive import AMENDED_TITLE, CITED_TITLE
from tests.answer.chunk_sample import anonymous_answer

INSTRUCTION = (
    "Pasal 19\nBeberapa ketentuan dalam Peraturan Menteri Keuangan\nNomor 48 Tahun 2023 tentang Pajak "
    "Penghasilan dan/atau\nPajak Pertambahan Nilai atas Penjualan/Penyerahan Emas\nPerhiasan, Emas Batangan "
    "(Berita Negara\nRepublik Indonesia Tahun 2023 Nomor 358) diubah sebagai\nberikut:"
)
CITED = (
    "f. Peraturan Menteri Keuangan Nomor 48 Tahun 2023 tentang Pajak Penghasilan dan/atau Pajak Pertambahan "
    "Nilai atas Penjualan/Penyerahan Emas Batangan (Berita Negara Republik Indonesia Tahun 2023 Nomor 358);"
)


def test_the_amended_acts_title_is_blanked() -> None:
    left = AMENDED_TITLE.sub(" ", INSTRUCTION)
    assert "Emas" not in left and left.startswith("Pasal 19")


def test_a_cited_acts_title_is_blanked() -> None:
    left = CITED_TITLE.sub(" ", CITED)
    assert "Emas" not in left and "Nomor 48 Tahun 2023" in left and "(Berita Negara" in left
    # a rule citing a law without its gazette keeps its words
    rule = "sebagaimana dimaksud dalam Undang-Undang tentang Pajak Penghasilan dikenai tarif 2%"
    assert CITED_TITLE.sub(" ", rule) == rule


def test_the_bullion_question_is_not_led_by_a_cited_title(services: Any) -> None:
    answer = anonymous_answer(
        services, "Apakah penjualan emas batangan kena PPN?", as_of=dt.date(2026, 12, 1)
    )
    assert answer.status == "answered"
    assert "Agunan" not in answer.answer and "Nomor 48 Tahun 2023" not in answer.answer
    assert "Emas" in answer.claims[0].quote or "emas" in answer.claims[0].quote
