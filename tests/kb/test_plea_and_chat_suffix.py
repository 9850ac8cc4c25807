"""The courtesy around a chat question names no topic: a plea sentence ("Mohon bantuan dan arahannya ya
Bu.") opens with a request formula yet asks nothing, and a chat spelling of a function word keeps being one
when it carries -nya ("sblmnya" = "sebelumnya") or is reduplicated ("masing2").  Each was a concept a passage
had to cover, so the provision that settles the question fell under the coverage floor."""

from __future__ import annotations

from kb.lexical import ask_text, is_plea, plea_spans, question_concepts
from kb.query import fts_query, understand

PLEA = "Mohon bantuan dan arahannya ya Bu."
ASK = "Apakah faktur pajak atas termin kedua dikurangi uang muka yg sdh dibayar sblmnya?"


def _flat(question: str) -> set[str]:
    plan = understand(question)
    return {s for c in question_concepts(plan, question, focus_ask=True) for p in c for s in p}


def test_a_plea_is_no_ask_of_the_message() -> None:
    assert is_plea(PLEA)
    assert is_plea("Please kindly advise.")
    assert not is_plea(ASK)
    message = f"{PLEA}\nKami menjual mesin dengan dua termin. {ASK}"
    assert ask_text(message) == ASK


def test_plea_words_and_chat_function_words_are_no_concepts() -> None:
    message = f"{PLEA}\nKami menjual mesin dengan dua termin, masing2 50%. {ASK} Apa bsa begitu?"
    flat = _flat(message)
    for courtesy in ("bantu", "arah", "sblm", "masing", "bsa"):
        assert not any(s.startswith(courtesy) for s in flat), courtesy
    # the topic stays
    assert any(s.startswith("termin") for s in flat)
    assert any(s.startswith("faktur") for s in flat)


def test_a_topic_word_with_nya_keeps_its_topic() -> None:
    flat = _flat("Berapa nilainya dan kapan penyerahannya dicatat?")
    assert any(s.startswith("nilai") for s in flat)
    assert any(s.startswith("penyerah") for s in flat)


def test_a_plea_sentence_gives_no_search_terms() -> None:
    # "penjelasan" of a plea matched every elucidation ("Penjelasan ...") in the keyword search
    message = f"Mohon bantuan dan penjelasannya ya Bu.\nKami menjual mesin dengan dua termin. {ASK}"
    terms = set(fts_query(understand(message)).replace('"', "").split(" OR "))
    assert not {"bantuan", "penjelasannya", "penjelasan"} & terms
    assert {"termin", "mesin", "dikurangi"} <= terms
    assert plea_spans(message) == [(0, len("Mohon bantuan dan penjelasannya ya Bu."))]


def test_a_plea_word_in_an_ask_is_searched() -> None:
    # "masukan" is advice in a plea and the input tax in "Pajak Masukan"
    message = "Mohon masukannya. Pajak Masukan atas mobil dinas bisa dikreditkan?"
    terms = set(fts_query(understand(message)).replace('"', "").split(" OR "))
    assert "masukan" in terms
    assert "masukannya" not in terms
