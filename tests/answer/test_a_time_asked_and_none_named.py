"""A time asked and a lead naming no time at all is no answer.

"Kapan paling lambat setor PPh 23 yang sudah dipotong?" was answered (confidence 0.18) with UU PPh Pasal 23
ayat (3), who may be appointed to withhold the tax: no date, period or moment in it.  The knowledge base holds
no PPh 23 payment date an anonymous reader may read, so the evidence goes to the tax team.  The words of time
are wide on purpose ("Tahun Pajak" counts), and a list item is read with its lead-in, which may state the
moment.  Session 61; the questions are our own."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from bot.answer.extractive import misses_asked
from tests.answer.chunk_sample import anonymous_answer

NO_TIME = (
    "(3) Orang pribadi sebagai Wajib Pajak dalam negeri dapat ditunjuk oleh Direktur Jenderal Pajak untuk "
    "memotong pajak sebagaimana dimaksud pada ayat (1)."
)


@pytest.mark.parametrize(
    ("question", "quote", "missed"),
    [
        ("Kapan paling lambat setor PPh 23 yang sudah dipotong?", NO_TIME, "deadline"),
        ("Batas waktu setor PPh 23 kapan?", NO_TIME, "deadline"),
        # a time named, whatever it is: the other gates and the lead's features weigh whether it is the one
        ("Kapan paling lambat setor PPh 23?", "disetor paling lama tanggal 15 bulan berikutnya", None),
        ("Kapan PPN terutang?", "Terutangnya pajak terjadi pada saat penyerahan Barang Kena Pajak", None),
        # a list item: its lead-in may state the moment
        ("Kapan bea meterai terutang?", "1. surat perjanjian beserta rangkapnya", None),
        # no time asked
        ("Siapa yang dapat ditunjuk memotong PPh 23?", NO_TIME, None),
    ],
)
def test_a_lead_naming_no_time_misses_a_time_asked(question: str, quote: str, missed: str | None) -> None:
    assert misses_asked(question, [quote]) == missed


def test_the_pph23_payment_date_is_escalated_with_its_evidence(services: Any) -> None:
    """Since session 66 PP 50/2022's ayat are read apart, the ranks shifted and PP 94/2010 Pasal 16 (crediting
    PPh 23 withheld in another year, "pada tahun pajak dilakukan pemotongan") leads; a tax year named is a
    word of time, yet no time limit: a limit asked ("paling lambat") needs a lead naming one (session 67)."""
    answer = anonymous_answer(
        services, "Kapan paling lambat setor PPh 23 yang sudah dipotong?", as_of=dt.date(2026, 12, 1)
    )
    assert answer.status == "escalated"
    assert answer.escalation is not None and answer.escalation.reason == "low_confidence"
    assert answer.claims and "Pasal 23" in answer.claims[0].quote


@pytest.mark.parametrize(
    ("question", "quote", "missed"),
    [
        # a period named by its name only: no limit
        (
            "Kapan paling lambat setor PPh 23 yang sudah dipotong?",
            "maka atas Pajak Penghasilan yang telah dipotong tersebut dapat dikreditkan pada tahun pajak "
            "dilakukan pemotongan.",
            "deadline",
        ),
        ("Batas waktu lapor SPT Masa?", "SPT Masa disampaikan untuk setiap Masa Pajak.", "deadline"),
        # a limit, a date or a counted period named
        ("Batas waktu lapor SPT Masa?", "paling lama 20 (dua puluh) hari setelah akhir Masa Pajak", None),
        ("Kapan jatuh tempo PPh 25?", "disetor paling lama tanggal 15 bulan berikutnya", None),
        ("Deadline pembetulan SPT?", "dalam jangka waktu 2 (dua) tahun sebelum daluwarsa", None),
        # a rate asked first: the lead answers it; a list item: its lead-in may state the limit
        ("Tarif PPh 23? Batas waktu setornya kapan?", "2% dari jumlah bruto pada Masa Pajak itu", None),
        ("Batas waktu lapor SPT Masa?", "a. untuk Surat Pemberitahuan Masa Pajak", None),
        # "kapan" alone asks when, not by when: a moment or period named is the other gates' to weigh
        ("Kapan PPh 23 dikreditkan?", "dapat dikreditkan pada tahun pajak dilakukan pemotongan", None),
    ],
)
def test_a_time_limit_asked_needs_a_limit_named(question: str, quote: str, missed: str | None) -> None:
    assert misses_asked(question, [quote]) == missed
