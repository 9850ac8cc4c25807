"""A question that says the payee HAS an NPWP is not asking about the surcharge for a payee without one:
the rule's own rate answers it ("lebih tinggi 100%" never becomes "the rate")."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from bot.answer.pipeline import answer_question
from kb.lexicon import question_object, special_regime

WHEN = dt.date(2025, 3, 1)


@pytest.mark.parametrize(
    ("question", "names_no_npwp"),
    [
        ("Vendor jasa teknik kami punya NPWP. Berapa tarif PPh 23-nya?", False),
        ("Our vendor has an NPWP. What is the PPh 23 rate?", False),
        ("vendor ga punya NPWP, PPh 23 nya jadi brp?", True),
        ("Tarif PPh 23 bagi vendor tanpa NPWP?", True),
        ("Apakah NPWP mempengaruhi tarif PPh 23?", True),
    ],
)
def test_the_surcharge_regime_is_named_only_without_an_npwp(question: str, names_no_npwp: bool) -> None:
    assert bool(special_regime("no_npwp_surcharge").search(question)) is names_no_npwp


def test_chat_negation_names_a_payee_without_npwp() -> None:
    assert question_object("no_npwp").search("vendornya gak punya NPWP")
    assert not question_object("no_npwp").search("vendornya punya NPWP")


def test_a_payee_with_an_npwp_gets_the_rules_own_rate(behaviour_services: Any) -> None:
    answer = answer_question(
        "Vendor jasa teknik kami punya NPWP. Berapa tarif PPh 23-nya?",
        behaviour_services.cli_principal(None),
        behaviour_services,
        as_of=WHEN,
    )
    # (the sample index's hashing embedder keeps confidence low: the status may be an escalation with its
    # evidence; what is asserted is which provision leads)
    assert answer.claims, answer.status
    assert answer.claims[0].source.location.startswith("Pasal 23 ayat (1) ")
    assert "100%" not in answer.answer
