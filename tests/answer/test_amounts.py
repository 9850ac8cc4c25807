"""A question that asks how much ("dendanya berapa?") is answered with the amount the rule states for what
the question names, not with the rule's first 240 characters: KUP Pasal 7 ayat (1) lists four fines."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from bot.answer.pipeline import answer_question


@pytest.mark.parametrize(
    ("question", "line"),
    [
        (
            "Kalau SPT Tahunan badan telat lapor, dendanya berapa?",
            "Menurut UU 28/2007, jumlahnya Rp1.000.000,00 (satu juta rupiah) untuk Surat Pemberitahuan "
            "Tahunan Pajak Penghasilan Wajib Pajak badan [1].",
        ),
        (
            "Berapa denda telat lapor SPT Tahunan orang pribadi?",
            "Menurut UU 28/2007, jumlahnya Rp100.000,00 (seratus ribu rupiah) untuk Surat Pemberitahuan "
            "Tahunan Pajak Penghasilan Wajib Pajak orang pribadi [1].",
        ),
        (
            "Berapa denda telat lapor SPT Masa PPN?",
            "Menurut UU 28/2007, jumlahnya Rp500.000,00 (lima ratus ribu rupiah) untuk Surat Pemberitahuan "
            "Masa Pajak Pertambahan Nilai [1].",
        ),
    ],
)
def test_the_amount_for_what_the_question_names(services: Any, question: str, line: str) -> None:
    answer = answer_question(question, services.cli_principal(None), services, as_of=dt.date(2024, 6, 1))
    assert answer.status == "answered"
    assert answer.claims[0].source.location.startswith("Pasal 7 ayat (1) UU 6/1983")
    assert answer.answer.split("\n")[0] == line
