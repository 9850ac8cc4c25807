"""The passive of an active -kan verb the asker wrote is searched: "mengajukan" -> "diajukan".

The acts state a rule in the passive ("Keberatan harus diajukan dalam jangka waktu 3 (tiga) bulan", UU KUP
Pasal 25 ayat (3)) that askers write in the active, and the index matches whole words: "Berapa lama batas
waktu mengajukan keberatan?" was answered with the twelve months the Director General has to decide an
objection (session 71, a probe of our own).  Concept coverage already read both voices as one verb
(``kb.lexical.voice_partners``); retrieval did not.
"""

from __future__ import annotations

import pytest

from kb.lexical import voice_forms
from kb.query import fts_query, understand
from tests.answer.chunk_sample import anonymous_answer


@pytest.mark.parametrize(
    ("word", "forms"),
    [
        ("mengajukan", ("diajukan", "dikajukan")),
        ("menyampaikan", ("disampaikan",)),
        ("memperhitungkan", ("diperhitungkan",)),
        ("membebankan", ("dibebankan",)),
    ],
)
def test_a_kan_verb_names_its_other_voice(word: str, forms: tuple[str, ...]) -> None:
    assert voice_forms(word) == forms


@pytest.mark.parametrize(
    "word", ["keberatan", "ajukan", "dikenai", "ketentuan", "pemberitahukan", "disampaikan", "digunakan"]
)
def test_no_forms_for_other_words(word: str) -> None:
    # a passive's active is not searched: "digunakan" would search "menggunakan", a word of nearly every act
    assert voice_forms(word) == ()


def test_only_the_askers_own_verbs_are_added() -> None:
    assert '"diajukan"' in fts_query(understand("Kapan kami harus mengajukan keberatan?"))
    assert '"diajukan"' not in fts_query(understand("Kapan kami harus keberatan?"))


def test_the_objection_time_limit_answers(services: object) -> None:
    answer = anonymous_answer(services, "Berapa lama batas waktu mengajukan keberatan?")
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert lead.source.doc_id == "uu-7-2021"
    assert lead.source.location.startswith("Pasal 25 ayat (3)")
    assert "Keberatan harus diajukan dalam jangka waktu 3 (tiga) bulan" in lead.quote
