"""A rule that sets one limit per levy is read in the clause for the levy asked.

UU KUP Pasal 17C ayat (1) gives the tax office "paling lama 3 (tiga) bulan ... untuk Pajak Penghasilan,
dan paling lama 1 (satu) bulan ... untuk Pajak Pertambahan Nilai" to refund in advance; a VAT question was
answered with the 3 months of income tax (session 67, a probe of our own; the questions are our own)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from bot.answer.render import _asked_levy_part
from tests.answer.chunk_sample import anonymous_answer

RULE = (
    "menerbitkan Surat Keputusan paling lama 3 (tiga) bulan sejak permohonan diterima secara lengkap untuk "
    "Pajak Penghasilan, dan paling lama 1 (satu) bulan sejak permohonan diterima secara lengkap untuk Pajak "
    "Pertambahan Nilai."
)


@pytest.mark.parametrize(
    ("question", "starts"),
    [
        ("Restitusi PPN berapa lama?", "paling lama 1 (satu) bulan"),
        ("How long does a VAT refund take?", "paling lama 1 (satu) bulan"),
        ("Restitusi PPh badan berapa lama?", "menerbitkan Surat Keputusan paling lama 3"),
        # no levy, or both: the whole rule
        ("Pengembalian pendahuluan berapa lama?", "menerbitkan"),
        ("Restitusi PPh dan PPN berapa lama?", "menerbitkan"),
    ],
)
def test_the_clause_of_the_levy_asked(question: str, starts: str) -> None:
    part = _asked_levy_part(RULE, question)
    assert part.startswith(starts)
    if "menerbitkan" in starts and "PPh" not in question:
        assert part == RULE


def test_a_rule_whose_clauses_name_no_levy_each_is_read_whole() -> None:
    rule = "paling lama 12 (dua belas) bulan, dan paling lama 1 (satu) bulan untuk Pajak Pertambahan Nilai."
    assert _asked_levy_part(rule, "Restitusi PPN berapa lama?") == rule


def test_a_vat_refund_question_reads_the_vat_month(services: Any) -> None:
    answer = anonymous_answer(services, "Restitusi PPN prosesnya berapa lama?", as_of=dt.date(2026, 12, 1))
    assert answer.status == "answered"
    assert answer.claims[0].source.location.startswith("Pasal 17C ayat (1)")
    assert "paling lama 1 (satu) bulan" in answer.answer and "3 (tiga) bulan" not in answer.answer
