"""An English plural reaches the word pair its singular is listed under (session 40).

The English-to-Indonesian pairs (kb/data/lexicon.yaml ``en_id``) and the topic-free words are singular,
and the light stemmer reads "subsidiaries" as "subsidiarie".  So "subsidiaries" stayed an untranslated
English word that only an English passage could cover, while "subsidiary" meets "anak perusahaan";
"companies" became a topic word although "company" names none.  Questions are our own.
"""

from __future__ import annotations

import pytest

from kb.lexical import EN_ONLY, english_singular, question_concepts
from kb.query import understand


@pytest.mark.parametrize(
    ("plural", "singular"),
    [
        ("subsidiaries", "subsidiary"),
        ("penalties", "penalty"),
        ("taxes", "tax"),
        ("branches", "branch"),
        ("businesses", "business"),
        ("invoices", "invoice"),
        ("business", "business"),  # -ss is no plural
        ("status", "status"),  # nor -us
        ("basis", "basis"),  # nor -is
        ("fees", "fees"),  # too short to tell
    ],
)
def test_the_singular_of_an_english_word(plural: str, singular: str) -> None:
    assert english_singular(plural) == singular


def _concepts(question: str) -> list[frozenset[tuple[str, ...]]]:
    return question_concepts(understand(question), question, keep_named_refs=True, focus_ask=True)


def test_a_plural_is_translated_like_its_singular() -> None:
    plural = _concepts("Is VAT due on goods we transfer to our subsidiaries?")
    singular = _concepts("Is VAT due on goods we transfer to our subsidiary?")
    assert any(("anak", "perusaha") in c for c in plural)
    assert not any(EN_ONLY in c and ("subsidiarie",) in c for c in plural)
    assert any(("anak", "perusaha") in c for c in singular)


def test_a_plural_of_a_topic_free_word_names_no_topic() -> None:
    concepts = _concepts("Which withholding applies to dividends paid to other companies?")
    assert not any(("companie",) in c or ("company",) in c for c in concepts)
