"""What a multi-part message's status is when some parts are answered and others are not, which sentences
are parts, and what a part that points back to the ask before it is answered with (bot.answer.parts).

The first question of a message states what the asker needs.  When it is answered from a source and a later
part only lacks one, the message is answered: every answered part keeps its quotes, the open part says on
its own line that no source answers it, a note names it and the tax team is offered that part.  When the
first question is open the message is what that part is.  Advice or a protected determination in any part
still makes the whole message escalated.  A plea for help ("Mohon dibantu penjelasannya") is no part.
Messages are our own, written against the sample corpus (never taken from an eval set).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from typing import Any

import pytest

from bot.answer.model import Answer, Escalation
from bot.answer.parts import answer_message, asked_texts, combine, is_plea, message_parts, refers_back
from bot.answer.pipeline import answer_question
from bot.answer.render import render_terminal
from kb.query import understand

AS_OF = dt.date(2026, 6, 1)
RATE = "PPh pasal 23 untuk imbalan jasa konsultan IT dipotong berapa persen?"
NOT_IN_KB = "Apakah ada insentif pajak untuk pembelian mobil listrik tahun ini?"
BACKDATE = "Tanggal faktur diubah supaya pajak masukan masuk masa sebelumnya, bisa?"
PLEA = "Mohon dibantu penjelasannya ya Pak."
CUSTOMS = "Bea masuk untuk impor printer HS 8443 berapa persen?"


@pytest.fixture(scope="module")
def answers(services: Any) -> dict[str, Answer]:
    principal = services.cli_principal(None)
    messages = {
        "answered_then_open": f"{RATE} {NOT_IN_KB}",
        "open_then_answered": f"{NOT_IN_KB} {RATE}",
        "answered_then_advice": f"{RATE} {BACKDATE}",
        "answered_open_then_advice": f"{RATE} {NOT_IN_KB} {BACKDATE}",
        "answered_then_customs": f"{RATE} {CUSTOMS}",
    }
    return {k: answer_message(m, principal, services, as_of=AS_OF) for k, m in messages.items()}


def test_first_question_answered_and_a_later_one_without_source_is_answered(
    answers: dict[str, Answer],
) -> None:
    answer = answers["answered_then_open"]
    assert [p.status for p in answer.parts] == ["answered", "abstained"]
    # the message is answered: part 1's quote leads, part 2 says on its own line that no source answers it
    assert answer.status == "answered"
    assert "2% (dua persen) dari jumlah bruto" in answer.claims[0].quote
    assert answer.claims[0].source.location.startswith("Pasal 23 ayat (1) UU 7/1983")
    lines = answer.answer.splitlines()
    assert lines[0].startswith(f"1. {RATE} \u2014 ") and "[1]" in lines[0]
    assert lines[1].startswith("2. Apakah ada insentif pajak") and "Saya tidak menemukan sumber" in lines[1]
    # the open part is offered to the tax team (the asker decides), and named in a note
    assert answer.escalation is not None and answer.escalation.reason == "no_source"
    assert answer.escalation.offered and answer.escalation.ticket_id is None
    assert any("Pertanyaan ke-2 dari 2" in w for w in answer.warnings)
    text = render_terminal(answer)
    assert text.index("2% (dua persen)") < text.index("Saya tidak menemukan sumber")


def test_first_question_open_makes_the_message_open_while_the_answered_part_is_shown(
    answers: dict[str, Answer],
) -> None:
    answer = answers["open_then_answered"]
    assert [p.status for p in answer.parts] == ["abstained", "answered"]
    assert answer.status == "abstained"
    assert answer.escalation is not None and answer.escalation.reason == "no_source"
    assert "2% (dua persen) dari jumlah bruto" in answer.claims[0].quote  # part 2 is still shown
    assert any("Pertanyaan ke-1 dari 2" in w for w in answer.warnings)


def test_an_advice_part_still_escalates_the_whole_message(answers: dict[str, Answer]) -> None:
    answer = answers["answered_then_advice"]
    first, second = answer.parts
    assert first.status == "answered"
    assert second.status == "escalated" and second.answer.escalation is not None
    assert second.answer.escalation.reason == "advice"
    assert answer.status == "escalated"
    assert answer.escalation is not None and answer.escalation.reason == "advice"


def test_an_advice_part_after_a_part_without_source_still_decides_the_message(
    answers: dict[str, Answer],
) -> None:
    # the part without a source is only offered to the tax team; the scheme must reach them (the turn opens
    # that ticket by itself), so the message takes the advice part's escalation whatever the parts' order
    answer = answers["answered_open_then_advice"]
    assert [p.status for p in answer.parts] == ["answered", "abstained", "escalated"]
    assert answer.status == "escalated"
    assert answer.escalation is not None and answer.escalation.reason == "advice"


def test_a_plea_for_help_is_no_part(services: Any) -> None:
    assert is_plea(PLEA) and is_plea("Please kindly advise, thanks.")
    assert not is_plea(RATE) and not is_plea("Mohon penjelasan tarif PPh 23 untuk jasa teknik.")
    message = f"{RATE} {PLEA}"
    assert message_parts(message) == []  # one question: answered exactly as answer_question answers it
    principal = services.cli_principal(None)
    got = answer_message(message, principal, services, as_of=AS_OF)
    assert got.parts == () and got.status == "answered"
    assert got.to_json(include_timings=False) == answer_question(
        message, principal, services, as_of=AS_OF
    ).to_json(include_timings=False)


def test_a_part_that_points_back_is_answered_with_the_ask_before_it() -> None:
    first = "Jika PKP menjual mobil operasional bekas, bagaimana perlakuan PPN-nya?"
    second = "Apakah penjualan tersebut wajib dibuatkan faktur pajak?"
    message = f"{first} {second}"
    parts = message_parts(message)
    assert parts == [first, second]
    texts = asked_texts(message, parts, understand(message), None)
    assert texts[0] == first
    # "tersebut" is the sale the first ask told: that ask, as a statement, goes before the part
    assert texts[1] == f"Jika PKP menjual mobil operasional bekas, perlakuan PPN-nya. {second}"
    assert refers_back("If so, at what rate?")
    # a word the part wrote itself is what it points to
    assert not refers_back("Apakah bukti potong dibuat, dan apakah bukti potong tersebut dikirim?")
    # a message that tells its case in a story gives every part that case already
    told = f"PKP menjual mobil operasional bekas. Berapa tarif PPN-nya? {second}"
    told_parts = message_parts(told)
    assert asked_texts(told, told_parts, understand(told), None)[1] == (
        f"PKP menjual mobil operasional bekas. {second}"
    )


def test_a_part_that_is_no_tax_question_leaves_the_message_answered(answers: dict[str, Answer]) -> None:
    answer = answers["answered_then_customs"]
    assert [p.status for p in answer.parts] == ["answered", "escalated"]
    assert answer.parts[1].answer.escalation == Escalation("out_of_scope", offered=False)
    assert answer.status == "answered"
    assert answer.escalation is None  # nothing for the tax team to take: no ticket offered for a customs duty
    assert "di luar cakupan" in answer.parts[1].line
    assert not any("Pertanyaan ke-2" in w for w in answer.warnings)  # not "can go to the tax team"
    assert "2% (dua persen) dari jumlah bruto" in answer.claims[0].quote


def test_a_low_confidence_part_still_escalates_the_message(answers: dict[str, Answer]) -> None:
    answer = answers["answered_then_open"]
    first, second = answer.parts
    doubtful = dataclasses.replace(first.answer, status="escalated", escalation=Escalation("low_confidence"))
    got = combine(
        [first.question, second.question],
        [first.asked, second.asked],
        [first.answer, doubtful],
        "id",
    )
    # the turn opens a ticket for a low-confidence answer at once: the message is with the tax team
    assert [p.status for p in got.parts] == ["answered", "escalated"]
    assert got.status == "escalated"
    assert got.escalation == Escalation("low_confidence")
