"""The list item of the class a question names leads, not its neighbour.

PP 58/2023 Pasal 2 ayat (4) lists the monthly effective-rate categories in one ayat ("a. kategori A ...; b.
kategori B ...; c. kategori C ..."). "TER kategori B untuk status apa saja?" (a probe of our own, session
52) was answered with item a: the letter is no concept, and item a shares every other word. A unit naming
the class the question names by letter or number ("kategori B", "kelompok 1", "category C") is preferred
(``extractive.class_match``).
"""

from __future__ import annotations

from typing import Any

from bot.answer.extractive import asked_classes, class_match
from tests.answer.chunk_sample import anonymous_answer


def test_classes_named_by_letter_or_number() -> None:
    assert asked_classes("TER Kategori B untuk status apa?") == frozenset({("kategori", "B")})
    assert asked_classes("harta kelompok 1 dan kelompok II") == frozenset(
        {("kelompok", "1"), ("kelompok", "II")}
    )
    assert asked_classes("TER category C applies to which status?") == frozenset({("kategori", "C")})
    # a word after the class word is no label
    assert asked_classes("kategori dan group and") == frozenset()


def test_the_item_of_the_named_class_matches() -> None:
    asked = asked_classes("TER kategori B untuk status apa saja?")
    assert class_match(asked, "b. kategori B diterapkan atas penghasilan bruto bulanan") == 1.0
    assert class_match(asked, "a. kategori A diterapkan atas penghasilan bruto bulanan") == 0.0


def test_a_category_question_is_answered_with_its_item(services: Any) -> None:
    answer = anonymous_answer(services, "TER kategori B untuk status apa saja?")
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert lead.source.doc_id == "pp-58-2023" and lead.source.location.startswith("Pasal 2 ayat (4)")
    assert lead.quote.lstrip().startswith("b. kategori B")
