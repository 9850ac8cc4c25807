"""A message that checks a figure and argues with it in the next sentence ("... 10%, benar tidak?
bukannya sudah 11%?") is one question: the counter-claim names no topic of its own, and answered alone it
was led by any passage holding "11".  The answer line says which of the two figures the rule states."""

from __future__ import annotations

from typing import Any

import pytest

from bot.answer.parts import answer_message, argues_back, message_parts
from bot.answer.render import answer_line


@pytest.mark.parametrize(
    ("sentence", "argues"),
    [
        ("bukannya sudah 12%?", True),
        ("padahal kan udah 11%?", True),
        ("bukankah tarifnya sekarang 2%?", True),
        ("kalau jasa konsultan berapa?", False),
        ("bukan objek PPh kan?", False),  # "bukan" is a negation of the topic, not a counter-claim
    ],
)
def test_a_counter_claim_opens_with_its_word(sentence: str, argues: bool) -> None:
    assert argues_back(sentence) is argues


def test_a_figure_argued_back_is_no_part_of_its_own() -> None:
    assert message_parts("Sewa mesin dipotong PPh 23 sebesar 4%, betul ga? bukannya 2%?") == []
    # a second question with a topic of its own still is one
    assert len(message_parts("Sewa mesin kena PPh 23 berapa? Kalau jasa katering kena PPN ga?")) == 2


@pytest.mark.parametrize(
    ("question", "line", "doc"),
    [
        (
            "tagihan supplier tgl 7 Feb 2022 kena PPN 10%, benar tidak? bukannya sudah 11%?",
            "Aturannya 10%, bukan 11%.",
            "uu-42-2009",
        ),
        (
            "tagihan supplier tgl 7 Juni 2022 kena PPN 10%, benar tidak? bukannya sudah 11%?",
            "Aturannya 11%, bukan 10%.",
            "uu-7-2021",
        ),
    ],
)
def test_the_line_names_the_figure_the_rule_states(services: Any, question: str, line: str, doc: str) -> None:
    answer = answer_message(question, services.cli_principal(None), services)
    assert answer.status == "answered"
    said = answer_line(list(answer.claims), "id", question)
    assert said.startswith(line), said
    assert answer.claims[0].source.doc_id == doc
