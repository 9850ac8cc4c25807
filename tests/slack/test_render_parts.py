"""Slack rendering of a multi-part answer: one numbered section per part, each with its own quotes and
citations or its own decline, every passage printed once, within Slack's limits."""

from __future__ import annotations

import json

from bot.slack import render
from tests.answer.multipart_sample import Q_NO_NPWP, Q_OPEN, Q_RATE, QUOTE_NPWP, QUOTE_RATE, multipart_answer
from tests.slack.test_render import texts, validate


def _render(payload: dict) -> render.RenderedMessage:
    return render.render_answer(payload, language="id", thread_ts="1700000001.000100", reference="REF1")


def test_each_part_gets_its_section_with_its_own_quote_and_citation() -> None:
    message = _render(multipart_answer(open_part=True).to_json())
    validate(message)
    shown = texts(message.blocks)
    heads = [i for i, x in enumerate(shown) if x.startswith(("*1. ", "*2. ", "*3. "))]
    assert [shown[i].split("\n")[0] for i in heads] == [
        f"*1. {Q_RATE}*",
        f"*2. {Q_NO_NPWP}*",
        f"*3. {Q_OPEN}*",
    ]
    one, two, three = heads
    # part 1: its line, then its passage with its citation
    assert "tarifnya 2% dari jumlah bruto [1]" in shown[one]
    assert QUOTE_RATE[:40] in shown[one + 1] and "Pasal 23 ayat (1) huruf c" in shown[one + 1]
    # part 2: its own line renumbered to the message's claims, its passage; the passage part 1 printed is
    # referred to, not repeated
    assert "tarifnya lebih tinggi 100% [2]" in shown[two]
    assert "[1]: kutipan di atas" in shown[two]
    assert (
        "tidak memiliki Nomor Pokok Wajib Pajak" in shown[two + 1] and "Pasal 23 ayat (1a)" in shown[two + 1]
    )
    assert sum(QUOTE_RATE[:40] in x for x in shown) == 1
    assert sum(QUOTE_NPWP[:40] in x for x in shown) == 1
    # part 3: its own decline, and the offer to pass it on stays
    assert "Saya tidak menemukan sumber" in shown[three]
    assert any("dasar_escalate" in json.dumps(b) for b in message.blocks)


def test_the_turns_ticket_line_follows_the_parts() -> None:
    payload = multipart_answer(open_part=True).to_json()
    payload["answer"] += "\n\nTiket T-000007 dibuat untuk tim pajak; jawabannya akan dikirim ke utas ini."
    shown = texts(_render(payload).blocks)
    at = next(i for i, x in enumerate(shown) if "Tiket T-000007 dibuat" in x)
    assert at > next(i for i, x in enumerate(shown) if x.startswith("*3. "))


def test_a_long_multi_part_answer_pages_within_the_limits() -> None:
    message = _render(multipart_answer(open_part=True, extra_claims=30).to_json())
    validate(message)
    assert message.pages
    for page in message.pages:
        validate(render.RenderedMessage(text="x", blocks=page))
    shown = [x for blocks in (message.blocks, *message.pages) for x in texts(blocks)]
    heads = [x.split("\n")[0] for x in shown if x.startswith(("*1. ", "*2. ", "*3. "))]
    assert heads == [f"*1. {Q_RATE}*", f"*2. {Q_NO_NPWP}*", f"*3. {Q_OPEN}*"]  # all parts, in order


def test_parts_that_all_need_facts_ask_once_with_quick_replies() -> None:
    import dataclasses

    from bot.answer.model import ClarifyingQuestion
    from bot.answer.parts import combine
    from tests.answer.multipart_sample import part_answer

    ask = ClarifyingQuestion("period", "Untuk masa pajak yang mana?", ("Maret 2022", "April 2022"))
    one = dataclasses.replace(
        part_answer("clarify", "Jawabannya bergantung pada beberapa fakta."), clarifying_questions=(ask,)
    )
    answer = combine([Q_RATE, Q_NO_NPWP], [Q_RATE, Q_NO_NPWP], [one, one], "id")
    assert answer.status == "clarify" and answer.clarifying_questions == (ask,)
    message = _render(answer.to_json())
    validate(message)
    shown = texts(message.blocks)
    assert sum("Untuk masa pajak yang mana?" in x for x in shown) == 1
    buttons = [e for b in message.blocks if b["type"] == "actions" for e in b["elements"]]
    assert [b["text"]["text"] for b in buttons if b["action_id"].startswith("dasar_clarify:")] == [
        "Maret 2022",
        "April 2022",
    ]
