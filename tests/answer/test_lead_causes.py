"""Root causes of wrong leading claims found on outside users' chat questions (2026-12-02): how a question is
read (its kind, its topic words), not how passages are weighted.  Each test names the character- or word-level
rule that was wrong; the questions are written for the test, not copied from an eval set."""

from __future__ import annotations

from bot.answer.extractive import asked_fact, asks_rate
from kb.lexical import question_concepts
from kb.lexicon import plain_question
from kb.query import understand


def _concepts(question: str) -> list[frozenset[tuple[str, ...]]]:
    return question_concepts(understand(question), question, keep_named_refs=True, focus_ask=True)


def _words(question: str) -> set[str]:
    return {phrase[0] for c in _concepts(question) for phrase in c if len(phrase) == 1}


# -- the kind of fact asked reads chat spellings and the enclitic -nya ------------------------------------


def test_plain_question_writes_out_chat_spellings_and_detaches_nya() -> None:
    assert plain_question("pph final tarifnya brp?") == "pph final tarif nya berapa?"
    assert plain_question("hanya punya NPWP") == "hanya punya NPWP"  # -nya needs three letters before it


def test_a_rate_asked_with_tarifnya_brp_is_a_rate_question() -> None:
    # "\btarif\b" did not match "tarifnya", "\bberapa\b" not "brp": the lead was not required to state a rate
    assert asks_rate("sewa gudang, tarifnya brp?")
    assert asked_fact("sewa gudang, tarifnya brp?") == "rate"


def test_brp_lama_asks_a_period_like_berapa_lama() -> None:
    assert asked_fact("brp lama arsip faktur disimpan?") == asked_fact("berapa lama arsip faktur disimpan?")
    assert asked_fact("brp lama arsip faktur disimpan?") == "deadline"


def test_nilainya_brp_asks_an_amount() -> None:
    assert asked_fact("kalau kena, nilainya brp?") == "amount"


# -- topic words: what a passage must contain -----------------------------------------------------------
