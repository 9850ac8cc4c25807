""" "bulan Agustus" is a date of the case: its head "bulan" is no topic, as the month's name is none.

A probe of our own (session 69), a turnover question dated "di bulan Agustus", had "bulan" among the
concepts a passage must contain, while "Agustus" was dropped; "bulan" elsewhere ("per bulan", "Masa Pajak
bulan berikutnya") stays a word. The head is blanked in one pass with the question's as-of date: two passes
shifted the date's span and the sentences that ask were no longer found (the composer then read the whole
message)."""

from __future__ import annotations

from kb.lexical import question_concepts
from kb.query import understand


def _words(question: str, *, focus_ask: bool = False) -> set[str]:
    plan = understand(question)
    concepts = question_concepts(plan, question, focus_ask=focus_ask)
    return {word for concept in concepts for phrase in concept for word in phrase}


def test_the_head_of_a_month_name_is_no_topic() -> None:
    words = _words("Omzet saya sudah lewat batasnya di bulan Agustus, tarif final masih boleh dipakai?")
    assert "bulan" not in words and "agustus" not in words
    assert "omzet" in words
    assert "bulan" not in _words("Pada bln Maret kami menerima jasa dari luar negeri, PPN-nya kapan disetor?")


def test_bulan_before_anything_else_stays_a_word() -> None:
    assert "bulan" in _words("PPh 21 dibayar per bulan atau sekaligus?")


def test_a_dated_story_keeps_the_sentences_that_ask() -> None:
    question = (
        "kami bayar honor pembicara 5jt ke orang pribadi bln Maret 2025. PPh 21 nya dihitung gimana? "
        "pakai DPP 50%?"
    )
    words = _words(question, focus_ask=True)
    assert "honor" not in words and "pembicara" not in words  # the story is not what is asked
    assert "dihitung" in words
