"""Parents and children are "keluarga sedarah dalam garis keturunan lurus satu derajat" in the tax acts.

A gift between them is no income (UU PPh Pasal 4 ayat (3) huruf a angka 2; PMK 168/2023 Pasal 7 huruf e lists
it among the receipts no PPh 21 is withheld on), but no act writes "orang tua" there, so a question about a
gift from parents was answered with the rule joining a minor's income to the parents' (UU PPh Pasal 8 ayat
(4), which does write "orang tua").  Since session 50 "orang tua" is searched as "keluarga sedarah" too
(``search_words``).  Messages are our own.
"""

from __future__ import annotations

from typing import Any

from kb import lexicon
from kb.lexical import coverage, question_concepts
from kb.query import understand
from tests.answer.chunk_sample import anonymous_answer

#: the shape of UU PPh Pasal 4 ayat (3) huruf a angka 2 (own words, shortened)
GIFT_RULE = "2. harta hibahan yang diterima oleh keluarga sedarah dalam garis keturunan lurus satu derajat;"


def test_parents_are_searched_as_the_blood_relatives_the_act_names() -> None:
    assert "keluarga sedarah" in lexicon.search_words()["orang tua"]


def test_the_gift_rule_covers_a_question_naming_parents() -> None:
    question = "Hibah dari orang tua untuk anak, kena PPh?"
    concepts = question_concepts(understand(question), question)
    (parents,) = [c for c in concepts if ("orang", "tua") in c]
    assert coverage([parents], GIFT_RULE, "id") == 1.0
    assert coverage(concepts, GIFT_RULE, "id") == 0.5  # the gift and the parents, not the child or the tax


def test_a_gift_from_parents_is_answered_with_the_blood_relatives_exclusion(services: Any) -> None:
    answer = anonymous_answer(services, "hibah dari orang tua ke anak kena PPh?")
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert (
        "harta hibahan yang diterima oleh keluarga sedarah dalam garis keturunan lurus satu derajat"
        in lead.quote
    )
    assert "digabung dengan penghasilan orang tuanya" not in answer.answer


def test_english_parents_are_the_blood_relatives_too_but_a_parent_company_is_not() -> None:
    # session 63: "Is a gift from parents taxable?" was answered with PMK 114/2025's gifts to small businesses
    added = {a.lower() for e in understand("Is a gift from parents taxable?").expansions for a in e.added}
    assert "keluarga sedarah" in added
    plan = understand("Dividends paid to a parent company")
    assert "keluarga sedarah" not in {a.lower() for e in plan.expansions for a in e.added}


def test_an_english_gift_from_parents_is_answered_with_the_exclusion(services: Any) -> None:
    answer = anonymous_answer(services, "Is a gift from parents taxable?")
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert "keluarga sedarah dalam garis keturunan lurus satu derajat" in lead.quote
    assert "usaha mikro" not in lead.quote
