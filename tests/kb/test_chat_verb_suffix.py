"""Chat drops the suffix the acts write: a verb without -kan ("dikompensasi", "dibayar") is searched in the
acts' form too ("dikompensasikan", "dibayarkan"), and an everyday word with the enclitic ("ruginya") is
covered by the acts' word for it ("kerugian") like the bare word.  Our own messages, written from Indonesian
morphology (session 41)."""

from __future__ import annotations

from kb.lexical import question_concepts
from kb.query import fts_query, understand


def _terms(question: str) -> set[str]:
    return set(fts_query(understand(question)).replace('"', "").split(" OR "))


def test_a_verb_without_its_suffix_is_searched_with_it() -> None:
    terms = _terms("sisa rugi tahun lalu boleh dikompensasi ke tahun ini? bonus dibayar bulan depan")
    assert {"dikompensasi", "dikompensasikan", "dibayar", "dibayarkan"} <= terms


def test_a_verb_with_a_suffix_of_its_own_is_searched_as_written() -> None:
    terms = _terms("PPh yang dikenakan atas bonus dilaporkan di SPT, dikenai denda?")
    assert {"dikenakan", "dilaporkan", "dikenai"} <= terms
    assert not {"dikenakankan", "dilaporkankan", "dikenaikan"} & terms


def test_an_everyday_word_with_its_enclitic_is_covered_by_the_acts_word() -> None:
    question = "ruginya bisa dikompensasi berapa tahun?"
    groups = question_concepts(understand(question), question)
    loss = next(g for g in groups if ("rugi",) in g)
    assert ("kerugi",) in loss  # the stem of "kerugian", which UU PPh Pasal 6 ayat (2) writes
