"""A tax withheld is paid in by "menyetor": an asker's "pembayaran" of it is the acts' "penyetoran".

The company's calendar states "Setor paling lambat: tanggal 15 bulan berikutnya"; "Kapan batas waktu
pembayaran PPh 21 yang dipotong?" found that row one place below the ten passages the answer reads, its
"Setor" no mention of "pembayaran" (session 70, a probe of our own). The verbs are left alone: "membayar
bunga" pays a lender, not the tax office.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from bot.wiring import search_filter
from kb.lexical import coverage, question_concepts
from kb.query import understand

ROW = "Jenis pajak: PPh 21/26 (SPT Masa PPh 21/26); Setor paling lambat: tanggal 15 bulan berikutnya"


def _coverage(question: str, text: str) -> float:
    plan = understand(question)
    return coverage(question_concepts(plan, question), text)


def test_paying_a_tax_in_is_its_payment() -> None:
    assert _coverage("Kapan batas waktu pembayaran PPh 21?", ROW) == 1.0
    assert (
        _coverage("Kapan batas waktu pembayaran PPh 21?", "PPh 21 wajib disetor paling lambat tanggal 15.")
        == 1.0
    )


def test_paying_a_payee_is_not_paying_in() -> None:
    assert (
        _coverage("Kalau membayar bunga, kapan batas waktunya?", "Bunga disetor paling lambat tanggal 15.")
        < 1.0
    )


def test_the_calendar_row_is_read(services: Any) -> None:
    flt = search_filter(services.cli_principal("tax.lead@sinarnusantara.co.id"), dt.date(2026, 12, 1))
    result = services.retriever.search("Kapan batas waktu pembayaran PPh 21 yang dipotong?", flt, top_k=10)
    ids = [h.chunk.id for h in result.results]
    assert "tax-closing-calendar#kalender-penutupan-pajak-bulanan/batas-waktu-eksternal" in ids, ids
