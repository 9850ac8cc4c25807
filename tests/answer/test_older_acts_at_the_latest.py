"""The older acts write "at the latest" as "selambat-lambatnya", with the number in words.

UU 6/1983 and its 1994 amendment set the return deadlines as "a. untuk Surat Pemberitahuan Masa,
selambat-lambatnya dua puluh hari setelah akhir Masa Pajak" (Pasal 3 ayat (3)). Read as stating no time, the
rule lost a question on a 1995 filing deadline to the sanction for missing it (UU KUP Pasal 7, "tidak
disampaikan ... sesuai dengan batas waktu"), and the answer was escalated (session 70, a probe of our own).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from bot.answer.extractive import states_fact
from tests.answer.chunk_sample import anonymous_answer


@pytest.mark.parametrize(
    "text",
    [
        "b. Untuk Surat Pemberitahuan Tahunan, selambat-lambatnya tiga bulan setelah akhir Tahun Pajak.",
        "harus dilunasi selambat- lambatnya pada tanggal jatuh tempo",
    ],
)
def test_selambat_lambatnya_states_a_time_limit(text: str) -> None:
    assert states_fact("deadline", text)


def test_a_passage_without_a_limit_still_states_none() -> None:
    assert not states_fact("deadline", "Surat Pemberitahuan ditandatangani oleh pengurus.")


def test_the_1995_return_deadline_is_the_rule_that_sets_it(services: Any) -> None:
    answer = anonymous_answer(
        services, "SPT Masa paling lambat dilaporkan kapan?", as_of=dt.date(1995, 6, 30)
    )
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert lead.source.doc_id == "uu-9-1994"
    assert lead.source.location.startswith("Pasal 3 ayat (3)")
    assert "selambat-lambatnya dua puluh hari" in lead.quote
