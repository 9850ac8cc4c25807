"""A percentage a question quotes as a rule's threshold ("kurang dari 75% dari ...", "at least 25% of the
shares") is a condition, not a rate asked for; an answer whose quotes state no such threshold quotes another
rule than the one the asker is asking about (one stating 0,75% is not it): escalated with its evidence."""

from __future__ import annotations

import datetime as dt
from typing import Any

from bot.answer.extractive import asked_fact, asks_rate, misses_asked
from bot.answer.pipeline import answer_question

ASKED = "Katanya angsuran bisa dikurangi kalau laba tahun ini kurang dari 60% dari tahun lalu, gimana itu?"


def test_a_threshold_percentage_names_no_rate() -> None:
    assert not asks_rate(ASKED)
    assert asked_fact(ASKED) is None
    # a percentage stated to be checked, or a rate asked for, still reads as a rate question
    assert asks_rate("PPh 23 jasa dipotong 2%, benar?")
    assert asks_rate("Berapa persen tarif PPh final UMKM?")
    assert asked_fact("Tarif PPh 23 atas sewa berapa persen?") == "rate"


def test_a_threshold_no_quote_states_is_missed() -> None:
    other = (
        "c. Wajib Pajak orang pribadi pengusaha tertentu dengan tarif paling tinggi 0,60% "
        "(nol koma enam puluh persen)."
    )
    assert misses_asked(ASKED, [other]) == "threshold"
    stating = "dapat dikurangi apabila penghasilan kurang dari 60% (enam puluh persen) dari tahun sebelumnya"
    assert misses_asked(ASKED, [other, stating]) is None
    # no threshold in the question: nothing to miss
    assert misses_asked("Apakah angsuran PPh 25 bisa dikurangi?", [other]) is None


def test_an_instalment_reduction_quoting_a_threshold_is_escalated(services: Any) -> None:
    question = (
        "Proyeksi PPh terutang tahun berjalan kurang dari 75% dari PPh tahun lalu. Bisakah angsuran "
        "bulanan PPh 25 diturunkan, syaratnya apa?"
    )
    answer = answer_question(question, services.cli_principal(None), services, as_of=dt.date(2023, 8, 14))
    assert answer.status == "escalated"
    assert answer.escalation is not None and answer.escalation.reason == "low_confidence"
    assert answer.claims and answer.claims[0].source.doc_id == "uu-36-2008"
    # the instalment rule for certain individual entrepreneurs (0,75%) is not the rule asked about
    assert "0,75%" not in answer.claims[0].quote
