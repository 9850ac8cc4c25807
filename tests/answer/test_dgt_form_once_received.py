"""A foreign taxpayer holding a receipt for its Formulir DGT need not hand the form in again (PMK 112/2025
Pasal 11 ayat (1)).

The act wraps "sebagaimana dimaksud dalam Pasal 10 ayat" before "(3) huruf c tidak perlu menyampaikan ...",
and the chunker read the line-start "(3)" as an ayat heading: ayat (1) ended at "ayat", and the answer led
with the ayat (2) the false ayat (3) had swallowed ("... menyampaikan tanda terima Formulir DGT tersebut
kepada Pemotong ..."), which does not say whether the form is needed again.  Session 64; the question is our
own."""

from __future__ import annotations

import datetime as dt
from typing import Any

from tests.answer.chunk_sample import anonymous_answer


def test_the_whole_ayat_answers(services: Any) -> None:
    question = "Apakah WPLN yang sudah punya tanda terima Formulir DGT perlu menyampaikan lagi?"
    answer = anonymous_answer(services, question, as_of=dt.date(2026, 12, 1))
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert (lead.source.doc_id, lead.source.location) == ("pmk-112-2025", "Pasal 11 ayat (1)")
    assert "tidak perlu menyampaikan Formulir DGT" in lead.quote


def test_a_maximum_period_is_asked_as_how_long() -> None:
    # with Pasal 11 ayat (1) read whole (it names the "periode" of a form), a check item asking the longest
    # period a DGT form covers asked no kind of fact and was led by it instead of Pasal 8 ayat (4), "paling
    # lama 12 (dua belas) bulan"; a bound on a period asks it as "how long" does (question_kinds.deadline)
    from bot.answer.extractive import lead_fact

    assert lead_fact("What is the maximum period a certified treaty form covers?") == "deadline"
    assert lead_fact("What is the longest time allowed to file an objection?") == "deadline"
    assert lead_fact("What is the maximum amount of stamp duty?") != "deadline"
