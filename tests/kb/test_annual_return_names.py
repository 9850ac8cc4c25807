"""A company's or a person's annual return by its English name reaches UU KUP Pasal 3 ayat (3) (session 49).

UU KUP names them "Surat Pemberitahuan Tahunan Pajak Penghasilan Wajib Pajak badan / orang pribadi"; an
English question naming the corporate return reached no passage of Pasal 3 and was answered with a rule on a
permanent establishment's profit.  Messages are our own.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from bot.answer.pipeline import answer_question
from kb.query import understand


def test_the_english_names_of_the_annual_returns_expand_to_the_acts_words() -> None:
    plan = understand("By which date should our CIT return reach the tax office?")
    assert any(
        "Surat Pemberitahuan Tahunan Pajak Penghasilan Wajib Pajak badan" in e.added for e in plan.expansions
    )
    plan = understand("Is there a fine if my personal income tax return is filed late?")
    assert any(
        "Surat Pemberitahuan Tahunan Pajak Penghasilan Wajib Pajak orang pribadi" in e.added
        for e in plan.expansions
    )
    # the staff short form keeps its own entry
    assert not any("badan" in " ".join(e.added) for e in understand("SPT Tahunan Badan telat").expansions)


def test_the_corporate_return_deadline_is_answered_from_uu_kup_pasal_3(services: Any) -> None:
    answer = answer_question(
        "When is a company's corporate income tax return due?",
        services.cli_principal(None),
        services,
        as_of=dt.date(2026, 12, 5),
    )
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert lead.source.chunk_id.startswith("uu-28-2007#pasal-I/angka-4/pasal-3/ayat-3")
    assert "paling lama 4 (empat) bulan setelah akhir Tahun Pajak" in lead.quote
