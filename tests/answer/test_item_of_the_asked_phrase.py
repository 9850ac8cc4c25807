"""Of a list's items, the one holding the asker's own phrase (session 56, a probe of our own).

Items of one list share its lead-in's words, so coverage ties them, and a rule word of one item decided:
"Apakah natura berupa makanan untuk seluruh pegawai dikecualikan dari objek PPh?" quoted PP 55/2022 Pasal 24
huruf c ("natura dan/atau kenikmatan yang harus disediakan oleh pemberi kerja ...") before huruf a, the food
"bagi seluruh Pegawai" it asks about.  The item holding one of the question's word pairs as written (not
the words of one named term) now gains.
"""

from __future__ import annotations

from typing import Any

from bot.answer.extractive import phrase_match, question_pairs
from tests.answer.chunk_sample import anonymous_answer

QUESTION = "Apakah natura berupa makanan untuk seluruh pegawai dikecualikan dari objek PPh?"


def test_the_questions_word_pairs_as_written() -> None:
    pairs = question_pairs(QUESTION)
    # ("berupa", in the form of, is a function word since session 71: it pairs with nothing)
    assert ("seluruh", "pegawai") in pairs
    assert not any("berupa" in p for p in pairs)
    assert not any("untuk" in p or "apakah" in p for p in pairs)  # function words pair with nothing
    food = "a. makanan, bahan makanan, bahan minuman, dan/atau minuman bagi seluruh Pegawai;"
    work = (
        "c. natura dan/atau kenikmatan yang harus disediakan oleh pemberi kerja dalam pelaksanaan pekerjaan;"
    )
    assert phrase_match(pairs, food)
    assert not phrase_match(pairs, work)
    assert not phrase_match(frozenset(), food)


def test_the_words_of_a_named_term_are_no_phrase_of_the_asker() -> None:
    # every item of the VAT rate list says "Barang Kena Pajak": the export item's 0% had answered a question
    # on the general rate once the term's words counted as the asker's phrase
    pairs = question_pairs("Tarif PPN atas penyerahan Barang Kena Pajak di dalam negeri berapa?")
    assert ("barang", "kena") not in pairs and ("kena", "pajak") not in pairs
    assert ("penyerahan", "barang") in pairs


def test_the_food_item_answers_the_food_question(services: Any) -> None:
    answer = anonymous_answer(services, QUESTION)
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert (lead.source.doc_id, lead.source.location) == ("pp-55-2022", "Pasal 24")
    assert lead.quote.startswith("a. makanan") and "seluruh Pegawai" in lead.quote
