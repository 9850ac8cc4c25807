"""A message that asks several things gets one answer per part (bot.answer.parts.answer_message).

Each part is answered on its own text, with its own citation; a part that names no topic borrows the topic
of the part before it; a part no source answers shows its own decline while the others are answered; a
one-question message is answered byte-for-byte as ``answer_question`` answers it.  Questions are our own,
written against the sample corpus (never taken from an eval set).
"""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import pytest

from bot.answer.model import Answer
from bot.answer.parts import MAX_PARTS, answer_message, asked_texts, message_parts, names_levy, topic_words
from bot.answer.pipeline import answer_question
from bot.answer.render import render_terminal
from bot.answer_cache import answer_from_json
from kb.lexical import question_parts
from kb.query import understand

AS_OF = dt.date(2026, 6, 1)
RATE = "Berapa tarif PPh Pasal 23 atas jasa teknik?"
NO_NPWP = "Bagaimana kalau penerimanya tidak memiliki NPWP?"
STAMP = "Berapa tarif bea meterai untuk dokumen elektronik?"
NOT_IN_KB = "Apakah ada insentif pajak untuk pembelian mobil listrik tahun ini?"


@pytest.fixture(scope="module")
def answers(services: Any) -> dict[str, Answer]:
    """Each message answered once for the module (the pipeline is deterministic)."""
    principal = services.cli_principal(None)
    messages = {
        "two": f"{RATE} {NO_NPWP}",
        "three": f"{RATE} {NO_NPWP} {STAMP}",
        "open": f"{RATE} {NOT_IN_KB}",
    }
    return {k: answer_message(m, principal, services, as_of=AS_OF) for k, m in messages.items()}


def _lead(answer: Answer, part: int) -> Any:
    record = answer.parts[part - 1]
    return answer.claims[record.claim_numbers[0] - 1]


def test_two_parts_get_one_section_each_with_their_own_citation(answers: dict[str, Answer]) -> None:
    answer = answers["two"]
    assert [p.question for p in answer.parts] == [RATE, NO_NPWP]
    assert [p.status for p in answer.parts] == ["answered", "answered"]
    assert answer.status == "answered" and answer.escalation is None
    rate, higher = _lead(answer, 1), _lead(answer, 2)
    assert rate.source.location.startswith("Pasal 23 ayat (1) UU 7/1983")
    assert "2% (dua persen) dari jumlah bruto" in rate.quote
    assert higher.source.location.startswith("Pasal 23 ayat (1a) UU 7/1983")
    assert "tidak memiliki Nomor Pokok Wajib Pajak" in higher.quote and "100%" in higher.quote
    # the top level: part 1's lead first, each part's line renumbered to the message's claims
    assert answer.claims[0] == rate
    n = answer.parts[1].claim_numbers[0]
    assert f"[{n}]" in answer.parts[1].line and n > len(answer.parts[0].answer.claims) - 1
    lines = answer.answer.splitlines()
    assert lines[0].startswith(f"1. {RATE} \u2014 ") and lines[1].startswith(f"2. {NO_NPWP} \u2014 ")
    assert "\n\n" not in answer.answer  # the turn appends its ticket line after a blank line


def test_a_part_without_a_topic_borrows_the_one_before_it(answers: dict[str, Answer]) -> None:
    first, second = answers["two"].parts
    assert first.asked == RATE
    assert second.asked == f"PPh 23. {NO_NPWP}"
    # alone, the part has no topic and no source states its answer for PPh 23
    assert topic_words(understand(NO_NPWP)) == ""


def test_three_parts_and_a_part_with_its_own_topic_keeps_it(answers: dict[str, Answer]) -> None:
    answer = answers["three"]
    assert [p.index for p in answer.parts] == [1, 2, 3]
    assert [p.status for p in answer.parts] == ["answered"] * 3
    stamp = _lead(answer, 3)
    assert answer.parts[2].asked == STAMP  # names its own topic: asked as written
    assert stamp.source.number == "UU 10/2020" and stamp.source.location.startswith("Pasal 5")
    assert "Rp10.000,00" in stamp.quote
    assert _lead(answer, 1).source.location.startswith("Pasal 23 ayat (1) UU 7/1983")
    assert _lead(answer, 2).source.location.startswith("Pasal 23 ayat (1a) UU 7/1983")
    # each passage listed once at the top level
    keys = [(c.source.chunk_id, c.quote) for c in answer.claims]
    assert len(keys) == len(set(keys))


def test_a_part_without_a_source_declines_while_the_other_is_answered(answers: dict[str, Answer]) -> None:
    answer = answers["open"]
    first, second = answer.parts
    assert first.status == "answered"
    assert second.status == "abstained" and second.answer.claims == ()
    assert second.line.startswith("Saya tidak menemukan sumber")
    # the first question is answered: so is the message; the open part's escalation is offered, a note
    # names it (tests/answer/test_message_parts_status.py has the rule)
    assert answer.status == "answered"
    assert answer.escalation is not None and answer.escalation.reason == "no_source"
    assert answer.escalation.offered
    assert any("Pertanyaan ke-2 dari 2" in w for w in answer.warnings)
    assert answer.claims and answer.claims[0] == _lead(answer, 1)
    text = render_terminal(answer)
    assert "1. Berapa tarif PPh Pasal 23" in text and "2. Apakah ada insentif pajak" in text
    assert text.index("Saya tidak menemukan sumber") > text.index("2% (dua persen)")


def test_json_has_parts_and_the_cache_round_trips_it(answers: dict[str, Answer]) -> None:
    for answer in answers.values():
        data = answer.to_json(include_timings=False)
        assert [p["index"] for p in data["parts"]] == list(range(1, len(answer.parts) + 1))
        first = data["parts"][0]
        assert set(first) == {"index", "question", "asked", "status", "line", "claim_numbers", "answer"}
        assert first["answer"]["claims"][0]["quote"] == data["claims"][0]["quote"]
        assert list(data)[-1] == "parts"  # added at the end: no existing field moved or renamed
        again = answer_from_json(json.loads(json.dumps(data)))
        assert again.to_json(include_timings=False) == data
        assert again.parts[0].answer.claims == answer.parts[0].answer.claims


def test_one_question_is_answered_exactly_as_before(services: Any) -> None:
    principal = services.cli_principal(None)
    for question in (
        RATE,
        "PT A memberi pinjaman ke PT B. Apakah bunganya kena PPh 23?",  # a story and one ask: not split
        "Siapa presiden pertama Amerika Serikat?",
    ):
        assert len(message_parts(question)) < 2
        old = answer_question(question, principal, services, as_of=AS_OF)
        new = answer_message(question, principal, services, as_of=AS_OF)
        assert json.dumps(new.to_json(include_timings=False)) == json.dumps(
            old.to_json(include_timings=False)
        )
        assert "parts" not in new.to_json()


def test_the_story_and_the_date_go_with_every_part() -> None:
    message = (
        "Kami membayar jasa konsultan ke PT A pada 10 Mei 2024. Berapa tarif PPh Pasal 23? "
        "Kapan paling lambat bukti potongnya dibuat?"
    )
    parts = question_parts(message)
    got = asked_texts(message, parts, understand(message), None)
    assert got == [
        f"Kami membayar jasa konsultan ke PT A pada 10 Mei 2024. {parts[0]}",
        f"Kami membayar jasa konsultan ke PT A pada 10 Mei 2024. PPh 23. {parts[1]}",
    ]
    # a date written in another part goes with a part that has none
    dated = (
        "Berapa tarif PPN untuk penyerahan tanggal 10 Mei 2022? Kapan faktur pajaknya paling lambat dibuat?"
    )
    p2 = question_parts(dated)
    assert asked_texts(dated, p2, understand(dated), None)[1] == f"tanggal 10 Mei 2022. PPN. {p2[1]}"
    # ... but not to a part that names its own: the second part asks about January 2025, not November 2024
    own = "PPh 23 masa November 2024 disetor paling lambat tanggal berapa? Kalau masa Januari 2025 sama?"
    p3 = message_parts(own)
    assert len(p3) == 2
    second = asked_texts(own, p3, understand(own), None)[1]
    assert "November 2024" not in second and "Januari 2025" in second
    assert names_levy("Berapa tarif pajak karbon?") == "pajak karbon"
    assert names_levy("Bagaimana kalau Wajib Pajak luar negeri?") == ""


def test_more_parts_than_the_cap_are_answered_as_one_message_and_say_so(services: Any) -> None:
    asks = [
        "Berapa tarif PPh Pasal 23 atas jasa teknik?",
        "Berapa tarif PPh Pasal 26 atas royalti?",
        "Berapa tarif PPN sekarang?",
        "Kapan batas waktu penyetoran PPh Pasal 21?",
        "Berapa tarif bea meterai untuk dokumen elektronik?",
    ]
    message = " ".join(asks)
    assert len(message_parts(message)) == MAX_PARTS + 1
    answer = answer_message(message, services.cli_principal(None), services, as_of=AS_OF)
    assert answer.parts == ()
    # said once: by the pipeline's note on a message answered as a whole, else by answer_message's own
    notes = [
        w for w in answer.warnings if w.startswith("Pesan Anda berisi 4 pertanyaan") or "lebih dari 4" in w
    ]
    assert len(notes) == 1


# -- a follow-up that names only another date asks the question before on that date (session 30) ------------


def test_a_follow_up_naming_another_date_asks_the_rate_again_on_that_date(services: Any) -> None:
    message = "Tarif PPN bulan Februari 2022 berapa? Kalau bulan Oktober 2022?"
    assert len(message_parts(message, services.aliases)) == 2
    answer = answer_message(message, services.cli_principal(None), services, today=AS_OF)
    assert [p.status for p in answer.parts] == ["answered", "answered"]
    february, october = _lead(answer, 1), _lead(answer, 2)
    assert february.source.doc_id == "uu-42-2009" and "10% (sepuluh persen)" in february.quote
    # October 2022 is after 1 April 2022: the 11% of UU 7/2021, asked on the part's own date, not February's
    assert october.source.doc_id == "uu-7-2021" and "11% (sebelas persen)" in october.quote
    assert answer.parts[1].answer.as_of == dt.date(2022, 10, 1)
    assert answer.parts[1].asked == "Tarif PPN. Kalau bulan Oktober 2022?"  # February is not asked again
