"""One condition of a rule is no answer by itself: "Apakah biaya sumbangan bisa jadi pengurang penghasilan
bruto?" was answered "Menurut PMK 114/2025: Wajib Pajak mempunyai penghasilan neto fiskal ..." (item a of
Pasal 4 ayat (1)), the rule itself ("Sumbangan ... dapat dikurangkan dari penghasilan bruto ... dengan
syarat:") left out because lead-in and item together did not fit the line.  Session 58, a probe of our own."""

from __future__ import annotations

import datetime as dt
from typing import Any

from bot.answer.render import _opens_conditions
from tests.answer.chunk_sample import anonymous_answer


def test_a_lead_in_opening_conditions() -> None:
    quote = "a. Wajib Pajak mempunyai penghasilan neto fiskal;"
    assert _opens_conditions("Sumbangan dapat dikurangkan dari penghasilan bruto dengan syarat:", quote, 99)
    assert _opens_conditions(
        "Pegawai Tetap tertentu merupakan Pegawai Tetap yang memenuhi kriteria:", quote, 99
    )
    assert not _opens_conditions(
        "Sumbangan dapat dikurangkan dari penghasilan bruto dengan syarat:", quote, 40
    )
    # a list of things is no list of conditions; a lead-in with a number the quote lacks is not stated
    assert not _opens_conditions("Dokumen yang bersifat perdata meliputi:", quote, 220)
    assert not _opens_conditions("Sumbangan paling tinggi 5% dapat dikurangkan dengan syarat:", quote, 220)


def test_the_line_states_the_rule_and_the_claims_its_conditions(services: Any) -> None:
    answer = anonymous_answer(
        services, "Apakah biaya sumbangan bisa jadi pengurang penghasilan bruto?", as_of=dt.date(2026, 12, 1)
    )
    assert answer.status == "answered"
    assert answer.claims[0].source.doc_id == "pmk-114-2025"
    assert answer.claims[0].source.location == "Pasal 4 ayat (1)"
    rule = "dapat dikurangkan dari penghasilan bruto bagi Wajib Pajak pemberi dengan syarat: … [1]"
    assert rule in answer.answer
    assert answer.claims[0].quote.startswith("a. Wajib Pajak mempunyai penghasilan neto fiskal")
