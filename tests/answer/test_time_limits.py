"""A criminal sentence is no time limit, and the moment a tax falls due answers "kapan ... terutang?".

"kapan meterai kontrak jadi terutang?" was answered "batas waktunya paling lama 3 (tiga) tahun atau
pidana denda ..." from UU Bea Meterai's penal Pasal 26: the composer read "dipidana dengan pidana penjara
paling lama 3 (tiga) tahun" as a deadline.  The act answers in Pasal 8 ayat (1): "Bea Meterai terutang pada
saat: a. Dokumen dibubuhi Tanda Tangan".  Questions are our own, written against the sample corpus (never
taken from an eval set).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from bot.answer.extractive import states_fact, time_limits_of
from bot.answer.pipeline import answer_question
from bot.answer.render import _fact_spans

AS_OF = dt.date(2026, 6, 1)
PENAL = (
    "dipidana dengan pidaha penjara paling lama 3 (tiga) tahun atau pidana denda paling banyak "
    "Rp200.000.000,00 (dua ratus juta rupiah)."
)


@pytest.mark.parametrize(
    "text",
    [
        PENAL,
        "dipidana dengan pidana kurungan 56 paling lama 1 (satu) tahun dan denda paling banyak Rp25.000.000",
        "dipidana dengan pidana penjara paling singkat 6 (enam) bulan dan paling lama 6 (enam) tahun",
    ],
)
def test_a_criminal_sentence_states_no_time_limit(text: str) -> None:
    assert not states_fact("deadline", text)
    assert _fact_spans(text, "deadline", "kapan terutang?") == []
    assert len(time_limits_of(text)) == len(text)  # blanked in place: spans keep their offsets


def test_a_time_limit_beside_a_criminal_sentence_still_counts() -> None:
    text = "SPT disampaikan paling lama 3 (tiga) bulan setelah akhir Tahun Pajak; " + PENAL
    assert states_fact("deadline", text)
    spans = _fact_spans(text, "deadline", "kapan SPT disampaikan?")
    assert [text[a:b] for a, b in spans] == ["paling lama 3 (tiga) bulan setelah akhir Tahun Pajak"]


def test_the_moment_a_tax_falls_due_states_when() -> None:
    assert states_fact("deadline", "Bea Meterai terutang pada saat: a. Dokumen dibubuhi Tanda Tangan")
    assert states_fact("deadline", "Terutangnya pajak terjadi pada saat: a. penyerahan Barang Kena Pajak")
    assert not states_fact("deadline", "Pihak Yang Terutang adalah pihak yang dikenai Bea Meterai")


def test_when_stamp_duty_falls_due_is_answered_by_the_act_not_its_penal_pasal(services: Any) -> None:
    question = "kapan meterai untuk kontrak kerja sama jadi terutang, pas tanda tangan?"
    answer = answer_question(question, services.cli_principal(None), services, as_of=AS_OF)
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert lead.source.doc_id == "uu-10-2020" and lead.source.location == "Pasal 8 ayat (1)"
    assert "Bea Meterai terutang pada saat" in lead.text and "Dokumen dibubuhi Tanda Tangan" in lead.text
    # the penal Pasal's imprisonment was read as "batas waktunya paling lama 3 (tiga) tahun"
    assert "pidana" not in answer.answer and "3 (tiga) tahun" not in answer.answer
    assert all(c.source.location != "Pasal 26" for c in answer.claims)
