"""A request formula ("Tolong info ...", "mohon pencerahannya") asks leave to ask; it names no topic.

"Tolong info tarif PPh final UMKM 0,5% sampai kapan bisa dipakai?" was declined "no source": "info" was a
concept no passage wrote, so every PP 55/2022 passage on the regime fell under the relevance floor.  Session
61, from chat grammar; the question is our own."""

from __future__ import annotations

import pytest

from kb import lexicon
from kb.lexical import question_concepts, stem
from kb.query import understand


@pytest.mark.parametrize("formula", ["Tolong info", "Mohon infonya", "Minta info", "Mohon pencerahannya"])
def test_the_formula_is_no_topic(formula: str) -> None:
    question = f"{formula} tarif PPh final UMKM 0,5% sampai kapan bisa dipakai?"
    plan = understand(question)
    flat = {phrase for concept in question_concepts(plan) for phrase in concept}
    assert not {(stem(w),) for w in ("info", "infonya", "pencerahan", "pencerahannya")} & flat
    assert not {"info", "infonya", "pencerahannya"} & set(plan.terms)
    assert lexicon.addressing_spans(question)[0][0] == 0


def test_information_asked_about_stays_a_topic() -> None:
    # "informasi keuangan" is what the question is about, not a request formula
    plan = understand("Apakah bank wajib melaporkan informasi keuangan nasabah?")
    flat = {phrase for concept in question_concepts(plan) for phrase in concept}
    assert (stem("informasi"),) in flat
