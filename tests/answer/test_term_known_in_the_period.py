"""A term of a rule that came into force inside the period a question names is known for it (session 40).

"DTP" (ditanggung pemerintah) is written by PMK 10/2025, in force from 4 February 2025 for the whole tax
year.  A question that names the year ("untuk tahun 2025") is read as of 1 January 2025, the start of its
period, and the term gate declined it: 'Istilah "DTP" tidak muncul di sumber yang berlaku per 2025-01-01'.
Now the gate looks at the whole period, and a question whose term exists only in its later part is answered
as of the period's end.  A period in which no source writes the term is still declined, and the decline names
the period.  Messages are our own.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from bot.answer.pipeline import answer_question

TODAY = dt.date(2026, 12, 4)


def _ask(services: Any, question: str) -> Any:
    return answer_question(question, services.cli_principal(None), services, today=TODAY)


def test_a_term_that_exists_later_in_the_named_year_is_answered(services: Any) -> None:
    answer = _ask(services, "Apakah PPh 21 pegawai pabrik alas kaki bisa DTP untuk tahun 2025?")
    assert answer.status == "answered"
    assert answer.as_of == dt.date(2025, 12, 31)
    assert {c.source.doc_id for c in answer.claims} <= {"pmk-10-2025", "pmk-72-2025"}
    assert "tidak muncul" not in answer.answer


def test_a_year_in_which_no_source_writes_the_term_is_declined_naming_the_year(services: Any) -> None:
    answer = _ask(services, "Apakah PPh 21 pegawai pabrik alas kaki bisa DTP untuk tahun 2024?")
    assert answer.status == "abstained"
    assert answer.claims == ()
    assert 'Istilah "DTP"' in answer.answer
    assert "2024-01-01..2024-12-31" in answer.answer
