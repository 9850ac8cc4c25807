"""A window that ends with a tax year ("berakhir paling lama pada akhir Tahun Pajak 2013") or with the old
law's span ("jangka waktu berlakunya peraturan ... lama sampai dengan tanggal 31 Desember 1988") is closed
after that day: UU 28/2007 Pasal II, the limitation of the periods before 2008, answered "Berapa lama jangka
waktu daluwarsa penetapan pajak?" with "paling lama pada akhir Tahun Pajak 2013"; the 2018 transitional rate
of PP 23/2018 Pasal 10 answered today's rate."""

from __future__ import annotations

import datetime as dt
from typing import Any

from bot.answer.extractive import window_closed
from tests.answer.chunk_sample import anonymous_answer

OLD_PERIODS = (
    "2. Dikecualikan dari ketentuan sebagaimana dimaksud pada angka 1, daluwarsa penetapan untuk Masa Pajak, "
    "Bagian Tahun Pajak, atau Tahun Pajak 2007 dan sebelumnya, selain penetapan sebagaimana dimaksud dalam "
    "Pasal 13 ayat (5) atau Pasal 15 ayat (4), berakhir paling lama pada akhir Tahun Pajak 2013."
)
OLD_LAW_SPAN = (
    "maka Undang- undang ini menentukan jangka waktu berlakunya peraturan perundang- undangan lama sampai "
    "dengan tanggal 31 Desember 1988."
)


def test_a_window_ending_with_a_tax_year_is_closed_after_that_year() -> None:
    assert window_closed(OLD_PERIODS, dt.date(2014, 1, 1))
    assert not window_closed(OLD_PERIODS, dt.date(2013, 12, 31))
    # a limit counted for each case names no year: no window
    assert not window_closed("paling lama 3 (tiga) bulan setelah akhir Tahun Pajak", dt.date(2024, 6, 1))


def test_the_old_laws_span_is_a_window() -> None:
    assert window_closed(OLD_LAW_SPAN, dt.date(1989, 1, 1))
    assert not window_closed(OLD_LAW_SPAN, dt.date(1988, 6, 1))


def test_the_limitation_question_is_not_answered_by_the_old_periods_rule(services: Any) -> None:
    answer = anonymous_answer(
        services, "Berapa lama jangka waktu daluwarsa penetapan pajak?", as_of=dt.date(2026, 12, 1)
    )
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert (lead.source.doc_id, lead.source.location) != ("uu-28-2007", "Pasal II")
    assert "5 (lima) tahun" in lead.quote
    assert "2013" not in answer.answer
