"""A text the asker pasted below the question tells no case: parts point back to the ask before them, and a
worker's residence question is not declined for sharing no word with the act.

A message asking whether someone working in Indonesia on a work permit owes income tax, then "if yes, what is
the percentage?", then a pasted notice about an abolished city charge for foreigners: the notice was read as
the message's story, so the second part was searched with the notice and not with the first ask (answered
from another rate), and the first part, searched in the act's residence terms, was declined because the
passage shares none of the asker's words ("work permit", "owes").  Messages are our own.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from bot.answer.parts import answer_message, asked_texts, message_parts
from kb.query import understand

ASK = (
    "Could anyone say whether someone employed in indonesia on a work permit owes income tax or other taxes?"
)
FOLLOW = "if yes, what is the percentage?"
NOTICE = (
    "and a colleague claims foreigners are exempt, see below.\n\nCity charge\n\n"
    "The city charge was collected "
    "from foreign residents for city services. It ended in 1998."
)
MESSAGE = f"{ASK} {FOLLOW} {NOTICE}"


def test_a_part_pointing_back_gets_the_ask_before_it_when_the_story_names_no_topic() -> None:
    parts = message_parts(MESSAGE)
    assert parts == [ASK, FOLLOW]
    second = asked_texts(MESSAGE, parts, understand(MESSAGE), None)[1]
    assert "owes income tax or other taxes." in second and second.endswith(FOLLOW)


def test_a_worker_residence_question_with_a_pasted_notice_is_answered_part_by_part(services: Any) -> None:
    answer = answer_message(MESSAGE, services.cli_principal(None), services, as_of=dt.date(2010, 2, 1))
    assert answer.status == "answered"
    assert [p.status for p in answer.parts] == ["answered", "answered"]
    locations = [c.source.location for c in answer.claims]
    assert locations[0].startswith("Pasal 2 ayat")  # the residence rule, not declined
    assert any(loc.startswith("Pasal 17 ayat (1)") for loc in locations)  # the rate the follow-up asks
