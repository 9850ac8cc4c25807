"""In a list that names both kinds of taxpayer, the item for the kind the question is not about is not its
quote: UU PPh Pasal 2 ayat (4) lists "a. orang pribadi ..." to "d. badan yang tidak didirikan ...", and a
worker's residence question was quoted huruf d, a company's rule.  Messages are our own."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from bot.answer.extractive import asked_party, other_party
from bot.answer.parts import answer_message


@pytest.mark.parametrize(
    ("question", "party"),
    [
        ("Does an expat on a work permit pay Indonesian income tax?", "person"),
        ("Karyawan kontrak kena PPh 21 berapa?", "person"),
        ("Tarif PPh badan untuk PT tahun 2024 berapa?", "entity"),
        ("Is a foreign company without a PE taxed on Indonesian income?", "entity"),
        ("PT kami membayar honor ke orang pribadi, potong apa?", None),  # both kinds named
        ("Tarif PPN berapa?", None),
    ],
)
def test_the_kind_of_taxpayer_a_question_names(question: str, party: str | None) -> None:
    assert asked_party(question) == party


def test_an_item_about_the_other_kind_of_taxpayer_is_marked() -> None:
    company_item = "d. badan yang tidak didirikan dan tidak bertempat kedudukan di Indonesia;"
    person_item = "a. orang pribadi yang tidak bertempat tinggal di Indonesia;"
    assert other_party("person", company_item) == 1.0 and other_party("person", person_item) == 0.0
    assert other_party("entity", person_item) == 1.0 and other_party(None, company_item) == 0.0
    # a sentence that only mentions a company later on is no item about one
    assert other_party("person", "Subjek pajak luar negeri adalah orang pribadi atau badan ...") == 0.0


def test_a_worker_is_not_quoted_the_rule_for_companies(services: Any) -> None:
    message = (
        "Could anyone say whether someone employed in indonesia on a work permit owes income tax or other "
        "taxes? if yes, what is the percentage?"
    )
    answer = answer_message(message, services.cli_principal(None), services, as_of=dt.date(2024, 6, 1))
    assert answer.claims
    assert not any(c.quote.startswith("d. badan") for c in answer.claims[:2])
