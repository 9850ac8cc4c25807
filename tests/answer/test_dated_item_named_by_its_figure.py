"""A "when" question naming the figure of one dated item is answered by that item.

UU PPN Pasal 7 ayat (1) (UU HPP) lists the VAT rate with the day each starts: "a. sebesar 11% ... mulai
berlaku pada tanggal 1 April 2022; b. sebesar 12% ... mulai berlaku paling lambat pada tanggal 1 Januari
2025". Of such dated items the composer keeps the one in effect on the question's date, so "PPN 11% berlaku
sejak kapan?" was told "1 Januari 2025", the start of the 12%. The question asks when the 11% started.
Session 68; the questions are our own."""

from __future__ import annotations

import datetime as dt
from typing import Any

from bot.answer.extractive import states_fact
from tests.answer.chunk_sample import anonymous_answer

AS_OF = dt.date(2026, 12, 1)


def test_the_start_of_the_rate_named_is_answered(services: Any) -> None:
    answer = anonymous_answer(services, "PPN 11% berlaku sejak kapan?", as_of=AS_OF)
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert lead.source.chunk_id.endswith("/pasal-7")
    assert "11%" in lead.quote and "1 April 2022" in lead.quote
    assert "1 Januari" not in answer.answer


def test_the_rate_in_effect_is_still_the_answer_to_a_rate_question(services: Any) -> None:
    answer = anonymous_answer(services, "Tarif PPN 11% masih berlaku?", as_of=AS_OF)
    assert answer.claims[0].source.chunk_id.endswith("/pasal-7")
    assert "12%" in answer.claims[0].quote


def test_a_when_question_without_a_figure_gets_the_item_in_effect(services: Any) -> None:
    answer = anonymous_answer(services, "Kapan tarif PPN yang sekarang mulai berlaku?", as_of=AS_OF)
    assert all("1 April 2022" not in c.quote for c in answer.claims[:1])


def test_the_day_a_rule_starts_states_when() -> None:
    assert states_fact(
        "deadline", "Sejak 1 Juli 2024 layanan administrasi perpajakan menggunakan NPWP 16 digit."
    )
    assert states_fact("deadline", "Tarif ini mulai berlaku tanggal 1 Januari 2025.")
    assert not states_fact("deadline", "Sejak berlakunya Peraturan ini, NPWP dipakai untuk semua layanan.")
