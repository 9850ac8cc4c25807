"""A rate set as an amount states a rate: "dikenai Bea Meterai dengan tarif tetap sebesar Rp10.000,00".

The ranker's ``rate`` feature had read only percentages, so for "Berapa bea meterai ...?" UU Bea Meterai Pasal
5, the one rule stating the duty, waited at rank 11 behind the act's other passages, outside the ten the
answer reads (session 70: found when the shipped vectors met query vectors computed on another CPU).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from bot.wiring import search_filter
from kb.retrieve import _RATE_TEXT


@pytest.mark.parametrize(
    "text",
    [
        "Dokumen yang dimaksud dalam Pasal 3 dikenai Bea Meterai dengan tarif tetap sebesar Rp10.000,00.",
        "PPN dikenakan dengan tarif sebesar 12%.",
    ],
)
def test_a_rate_is_stated(text: str) -> None:
    assert _RATE_TEXT.search(text)


@pytest.mark.parametrize(
    "text",
    [
        "Pembayaran di atas Rp5.000.000 wajib melalui AP dengan invoice.",
        "denda sebesar Rp1.000.000,00 untuk Surat Pemberitahuan Tahunan",
    ],
)
def test_an_amount_that_is_no_rate_is_not(text: str) -> None:
    assert not _RATE_TEXT.search(text)


@pytest.mark.parametrize(
    "question",
    [
        "Berapa bea meterai kontrak?",
        "Berapa bea meterai untuk surat pernyataan?",
        "Bea meterai untuk akta notaris berapa?",
        "Berapa bea meterai yang harus ditempel di perjanjian sewa?",
    ],
)
def test_the_duty_is_among_the_passages_read(services: Any, question: str) -> None:
    flt = search_filter(services.cli_principal(None), dt.date(2024, 6, 1))
    ids = [h.chunk.id for h in services.retriever.search(question, flt, top_k=10).results]
    assert "uu-10-2020#pasal-5" in ids, ids
