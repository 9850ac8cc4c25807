"""A speaker's fee is the "honorarium" of a "penceramah" (PMK 168/2023 Pasal 3 ayat (2) huruf d).

"Honor narasumber seminar (bukan pegawai) dipotong PPh 21 berapa?" was escalated at confidence 0.13 though its
lead was the rule that answers it (PMK 168/2023 Pasal 16 ayat (3): a non-employee's PPh 21 is the Pasal 17
rate on half the gross): "honor" and "narasumber" were topics no passage wrote.  Session 62; the question is
our own."""

from __future__ import annotations

import datetime as dt
from typing import Any

from kb.lexical import coverage, question_concepts
from kb.query import understand
from tests.answer.chunk_sample import anonymous_answer

QUESTION = "Honor narasumber seminar (bukan pegawai) dipotong PPh 21 berapa?"


def test_the_acts_words_cover_the_chat_words() -> None:
    concepts = question_concepts(understand(QUESTION), QUESTION, keep_named_refs=True, focus_ask=True)
    speaker = [c for c in concepts if any("narasumber" in phrase for phrase in c)]
    fee = [c for c in concepts if any("honor" in phrase for phrase in c)]
    assert speaker and coverage(speaker, "d. penasihat, pengajar, pelatih, penceramah, penyuluh") == 1.0
    assert fee and coverage(fee, "gaji, upah, honorarium, tunjangan") == 1.0


def test_the_non_employee_rule_answers_it(services: Any) -> None:
    answer = anonymous_answer(services, QUESTION, as_of=dt.date(2026, 12, 1))
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert (lead.source.doc_id, lead.source.location) == ("pmk-168-2023", "Pasal 16 ayat (3)")
    assert "Bukan Pegawai" in lead.quote
