"""The answer line of a sanction question names the sanction, not "the rate".  "kalau keberatan kami ditolak,
dendanya berapa persen?" read "Menurut UU 7/2021, tarifnya 30% dari jumlah pajak ..." -- the 30% is a fine
("dikenai sanksi administratif berupa denda sebesar 30%"), not a tax rate.  And a late payment asked in
English was led by the fine that ends a criminal investigation (UU KUP Pasal 44B ayat (2), "penghentian
penyidikan ... denda sebesar 4 (empat) kali"), a procedure the asker is not in.  The messages are our own
(session 42)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from bot.answer.extractive import procedure_unasked
from bot.answer.pipeline import answer_question


def _ask(services: Any, question: str) -> Any:
    return answer_question(question, services.cli_principal(None), services, as_of=dt.date(2025, 9, 1))


def test_a_fine_asked_as_a_percentage_is_called_the_sanction(services: Any) -> None:
    answer = _ask(services, "kalau keberatan kami ditolak, dendanya berapa persen?")
    assert answer.status == "answered", answer.answer
    assert answer.claims[0].source.location.startswith("Pasal 25 ayat (9) UU 6/1983")
    assert answer.answer.startswith("Menurut UU 7/2021, sanksinya denda 30% dari jumlah pajak")
    assert "tarifnya" not in answer.answer


def test_the_english_line_names_the_fine(services: Any) -> None:
    answer = _ask(services, "If our objection is rejected, what percentage is the fine?")
    assert answer.claims
    lead = answer.claims[0].source
    # UU KUP's fine, or PP 50/2022 Pasal 34 ayat (1) restating it for a rejected objection (read as an ayat
    # of its own since session 66): both state the 30%
    assert lead.location.startswith("Pasal 25 ayat (9) UU 6/1983") or (
        lead.doc_id == "pp-50-2022" and lead.location == "Pasal 34 ayat (1)"
    ), lead.location
    assert "the sanction is a fine of 30%" in answer.answer
    assert "the rate is" not in answer.answer


def test_a_late_payment_is_not_answered_with_the_end_of_a_criminal_investigation(services: Any) -> None:
    assert procedure_unasked(frozenset(), "penghentian penyidikan tindak pidana di bidang perpajakan")
    answer = _ask(services, "What is the penalty for late payment of withholding tax?")
    assert answer.claims, answer.answer
    lead = answer.claims[0]
    assert lead.source.location.startswith("Pasal 9 ayat (2a) UU 6/1983"), lead.source.location
    assert "setelah tanggal jatuh tempo" in lead.quote
