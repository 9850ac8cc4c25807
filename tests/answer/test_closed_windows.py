"""A rule that acts only within a dated window that has closed (KUP Pasal 37A's 2008 sanction amnesty,
"dilakukan paling lambat tanggal 28 Pebruari 2009") never leads an answer about a later date: it reads like
a current penalty rule and led "What is the penalty for filing the annual income tax return late?"."""

from __future__ import annotations

import datetime as dt
from typing import Any

from bot.answer.extractive import window_closed
from bot.answer.pipeline import answer_question

AMNESTY = (
    "(1) Wajib Pajak yang menyampaikan pembetulan Surat Pemberitahuan Tahunan Pajak Penghasilan sebelum "
    "Tahun Pajak 2007, yang mengakibatkan pajak yang masih harus dibayar menjadi lebih besar dan dilakukan "
    "paling lambat tanggal 28 Pebruari 2009, dapat diberikan pengurangan atau penghapusan sanksi"
)


def test_a_window_is_closed_only_after_its_last_day() -> None:
    assert window_closed(AMNESTY, dt.date(2024, 6, 1))
    assert not window_closed(AMNESTY, dt.date(2009, 2, 28))
    disclosure = (
        "disampaikan kepada Direktur Jenderal Pajak sejak tanggal 1 Januari 2022 "
        "sampai dengan tanggal 30 Juni 2022"
    )
    assert window_closed(disclosure, dt.date(2022, 7, 1))
    assert not window_closed(disclosure, dt.date(2022, 3, 1))
    # a deadline the rule sets for each case is no window: no date of its own
    assert not window_closed("disetor paling lambat tanggal 15 bulan berikutnya", dt.date(2024, 6, 1))


def test_the_closed_amnesty_does_not_lead_a_late_filing_penalty_answer(services: Any) -> None:
    for question in (
        "What is the penalty for filing the annual income tax return late?",
        "What is the interest penalty for late tax payment?",
    ):
        answer = answer_question(question, services.cli_principal(None), services, as_of=dt.date(2024, 6, 1))
        assert answer.claims, question
        assert "Pasal 37A" not in answer.claims[0].source.location, question
