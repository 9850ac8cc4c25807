"""A message of several questions that nothing answers as a whole is answered part by part: the first part
that names its topic and that a source answers, with a note naming that part and asking for the rest.

Chat messages pile asks on one another ("... kena pph 26? Bukti potongnya dikirim ke mana? Cara gross up
gimana?"); the words of all of them together are more than any one passage states, so the whole message
found no relevant passage and was declined although its first ask has a governing provision.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from bot.answer.pipeline import answer_question
from kb.lexical import ask_text, question_parts

ROYALTY_ABROAD = (
    "Selamat pagi. Kalau kami bayar royalti ke perusahaan luar negeri, apakah kena pph 26? "
    "Bukti potongnya dikirim ke mana? Cara gross up gimana?"
)


def test_question_parts_are_the_asking_sentences_when_two_or_more_ask() -> None:
    assert question_parts(ROYALTY_ABROAD) == [
        "Kalau kami bayar royalti ke perusahaan luar negeri, apakah kena pph 26?",
        "Bukti potongnya dikirim ke mana?",
        "Cara gross up gimana?",
    ]
    # one ask after a story is one question: its ask focuses the words, it is not split
    story = "PT A memberi pinjaman ke PT B. Apakah bunganya kena PPh 23?"
    assert question_parts(story) == []
    assert ask_text(story) == "Apakah bunganya kena PPh 23?"
    assert question_parts("Berapa tarif PPh 23?") == []
    # a request formula or a bare "Gimana?" asks nothing of its own: not a part
    assert question_parts(f"{ROYALTY_ABROAD} Mohon pencerahan. Gimana?") == question_parts(ROYALTY_ABROAD)


def test_the_first_part_with_a_source_is_answered_and_the_note_says_which(services: Any) -> None:
    answer = answer_question(
        ROYALTY_ABROAD, services.cli_principal(None), services, as_of=dt.date(2026, 6, 1)
    )
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert lead.source.location.startswith("Pasal 26 ayat (1) UU 7/1983")
    assert "20% (dua puluh persen) dari jumlah bruto" in lead.quote
    assert "royalti" in lead.quote
    note = next(w for w in answer.warnings if w.startswith("Pesan Anda berisi 3 pertanyaan"))
    assert "pertanyaan ke-1 saja" in note
    assert "apakah kena pph 26?" in note


def test_a_part_without_its_own_topic_is_never_answered_alone(services: Any) -> None:
    # "Terus bukti potongnya perlu dikirim ke Jepang juga?" alone is answered from the KUP rule on sending
    # a tax return by post; as a part of this message it leans on the first part for its topic
    message = (
        "Halo rekan-rekan, izin bertanya. Kalau kantor kami bayar royalti ke perusahaan di Jepang, "
        "kena pph 26 "
        "nggak ya? Terus bukti potongnya perlu dikirim ke Jepang juga? Gimana kalau mau gross up?"
    )
    answer = answer_question(message, services.cli_principal(None), services, as_of=dt.date(2025, 6, 1))
    assert not any("melalui pos" in c.quote for c in answer.claims)
    notes = [w for w in answer.warnings if w.startswith("Pesan Anda berisi")]
    assert all("pertanyaan ke-1 saja" in w for w in notes)


def test_a_multi_part_message_answered_as_a_whole_says_its_parts_may_be_open(services: Any) -> None:
    answer = answer_question(
        "Berapa tarif PPh Pasal 23 atas jasa teknik? Kapan batas waktu penyetorannya?",
        services.cli_principal(None),
        services,
        as_of=dt.date(2026, 6, 1),
    )
    assert answer.status == "answered"
    assert any(w.startswith("Pesan Anda berisi 2 pertanyaan") and "keseluruhan" in w for w in answer.warnings)
    # a one-question message carries no such note
    single = answer_question(
        "Berapa tarif PPh Pasal 23 atas jasa teknik?",
        services.cli_principal(None),
        services,
        as_of=dt.date(2026, 6, 1),
    )
    assert not any(w.startswith("Pesan Anda berisi") for w in single.warnings)
