"""A function word asked with the question particle -kah is still a function word.

"Bolehkah kompensasi kerugian fiskal ...?" asked every passage to contain "bolehkah"; "boleh" is a stopword,
its -kah form was not.  A content word keeps its -kah form a topic ("wajibkah" asks a duty).  Session 61,
from Indonesian grammar; the question is our own."""

from __future__ import annotations

import pytest

from kb.lexical import question_concepts, stem
from kb.query import STOPWORDS, understand


@pytest.mark.parametrize("word", ["bolehkah", "bisakah", "perlukah", "haruskah", "dapatkah"])
def test_a_function_word_with_kah_is_one(word: str) -> None:
    assert word in STOPWORDS
    plan = understand(f"{word.capitalize()} kompensasi kerugian fiskal ke tahun berikutnya?")
    flat = {phrase for concept in question_concepts(plan) for phrase in concept}
    assert (stem(word),) not in flat
    assert (stem("kompensasi"),) in flat
    assert word not in plan.terms


def test_a_content_word_with_kah_stays_a_topic() -> None:
    assert "wajibkah" not in STOPWORDS
