"""A rule setting the payment day and the filing day answers each question with its own.

UU PPN Pasal 15A sets when VAT is paid (ayat (1): "Penyetoran ... harus dilakukan paling lama akhir bulan
berikutnya setelah berakhirnya Masa Pajak dan sebelum Surat Pemberitahuan Masa ... disampaikan") and when
the return is filed (ayat (2)). As a whole it named both duties, so the lead's paying-or-filing feature gave
it nothing and "When is the deadline to pay monthly VAT?" was led by Pasal 9 ayat (6f), a repayment of input
tax; and the answer line, which could not read ayat (1)'s limit past its "dan sebelum ...", cited the filing
day of ayat (2). Session 68; the questions are our own."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from bot.answer.extractive import passage_tax_act_match
from tests.answer.chunk_sample import anonymous_answer

AS_OF = dt.date(2026, 12, 1)
PASAL_15A = (
    "(1) Penyetoran Pajak Pertambahan Nilai oleh Pengusaha Kena Pajak sebagaimana dimaksud dalam Pasal 9 "
    "ayat (3) harus dilakukan paling lama akhir bulan berikutnya setelah berakhirnya Masa Pajak dan sebelum "
    "Surat Pemberitahuan Masa Pajak Pertambahan Nilai disampaikan.\n(2) Surat Pemberitahuan Masa Pajak "
    "Pertambahan Nilai disampaikan paling lama akhir bulan berikutnya setelah berakhirnya Masa Pajak."
)


@pytest.mark.parametrize("act", ["pay", "file"])
def test_a_rule_setting_both_days_sets_each(act: str) -> None:
    assert passage_tax_act_match(act, PASAL_15A) == 1.0


@pytest.mark.parametrize(
    ("question", "opens"),
    [
        ("When is the deadline to pay monthly VAT?", "(1) Penyetoran"),
        ("Kapan batas akhir setor PPN masa?", "(1) Penyetoran"),
        ("Kapan batas waktu lapor SPT masa PPN?", "(2) Surat Pemberitahuan"),
    ],
)
def test_each_day_is_answered_from_its_own_ayat(services: Any, question: str, opens: str) -> None:
    answer = anonymous_answer(services, question, as_of=AS_OF)
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert lead.source.chunk_id.endswith("/pasal-15A")
    assert lead.quote.startswith(opens)
    assert "akhir bulan berikutnya setelah berakhirnya Masa Pajak" in answer.answer
    assert "[1]" in answer.answer and "[2]" not in answer.answer.split(".")[0]
