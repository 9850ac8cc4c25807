"""The word "per" measures the word after it ("per bulan", "per orang") and names no topic.

"Biaya jabatan maksimal berapa per bulan?" (session 73, a probe of our own) had "per" as one of its five
concepts: a passage had to contain the word to cover the question fully, and the rule setting the monthly cap
was measured against it.  "per" is a stopword of the lexicon; "bulan" stays the question's word.
"""

from __future__ import annotations

from kb import lexicon
from kb.lexical import question_concepts
from kb.query import understand


def _concept_words(question: str) -> set[str]:
    return {" ".join(p) for c in question_concepts(understand(question), question) for p in c}


def test_per_is_no_concept_and_the_measured_word_is() -> None:
    words = _concept_words("Biaya jabatan maksimal berapa per bulan?")
    assert "per" not in words
    assert "bulan" in words and "jabat" in words


def test_per_is_a_stopword() -> None:
    assert "per" in lexicon.stopwords()
