"""The moment a duty is done at answers "when": "Faktur Pajak ... harus dibuat pada: a. saat penyerahan ...".

"When must a tax invoice be issued for a down payment?" was answered with PP 9/2021's three months after which
a late invoice is not one (a period), though UU PPN Pasal 13 ayat (1a) huruf b, the moment the invoice is
made for a payment received before delivery, was the composer's first candidate: a moment counted as no time
stated.  Session 61; the question is our own."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from bot.answer.extractive import DEADLINE_VALUE
from tests.answer.chunk_sample import anonymous_answer


@pytest.mark.parametrize(
    ("text", "states"),
    [
        ("Faktur Pajak sebagaimana dimaksud pada ayat (1) harus dibuat pada: a. saat penyerahan", True),
        ("Faktur Pajak wajib dibuat oleh Pengusaha Kena Pajak pada saat penyerahan atau ekspor", True),
        # a duty with no moment
        ("Pengusaha Kena Pajak wajib memungut Pajak Pertambahan Nilai yang terutang", False),
        # "pada" naming no moment
        ("wajib dilaporkan pada Surat Pemberitahuan Masa", False),
    ],
)
def test_a_duty_at_a_moment_states_when(text: str, states: bool) -> None:
    assert bool(DEADLINE_VALUE.search(text)) is states


def test_the_down_payment_invoice_is_made_when_the_payment_is_received(services: Any) -> None:
    answer = anonymous_answer(
        services, "When must a tax invoice be issued for a down payment?", as_of=dt.date(2026, 12, 1)
    )
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert lead.source.location.startswith("Pasal 13 ayat (1a)")
    assert lead.quote.startswith("b. saat penerimaan pembayaran")
