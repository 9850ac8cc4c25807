"""A question for who or what counts as a term is answered by the term's own definition, wherever the act
writes it: UU PPh Pasal 2 ayat (3) ("Subjek pajak dalam negeri adalah: ...") is an ayat, not a Pasal 1 item.
"Siapa yang termasuk subjek pajak dalam negeri?" was answered with UU PPh Pasal 4 ayat (1a) (a foreign
national's four years): the term was cut at "dalam", "termasuk" was a topic the passage had to contain, the
omnibus law's two other Pasal 2 passages held the ayat back, and an ayat earned no definition weight."""

from __future__ import annotations

import datetime as dt
from typing import Any

from kb import lexical
from kb.query import defined_term, understand
from kb.retrieve import defined_forms
from tests.answer.chunk_sample import anonymous_answer

AS_OF = dt.date(2026, 12, 1)


def test_dalam_negeri_belongs_to_the_term() -> None:
    assert defined_term("Siapa yang termasuk subjek pajak dalam negeri?") == "subjek pajak dalam negeri"
    # "dalam" still ends a term before the act that is named
    assert defined_term("Apa arti Masa Pajak dalam UU KUP?") == "masa pajak"


def test_counts_as_is_the_frame_of_the_ask_not_a_topic() -> None:
    asked = "Siapa saja yang termasuk subjek pajak luar negeri?"
    concepts = lexical.question_concepts(understand(asked), asked)
    assert all(("termasuk",) not in c for c in concepts)
    # a case's "belum termasuk PPN" is a fact of the case, kept as it was
    told = "invoice 25 juta belum termasuk PPN, tarif PPh 23 berapa?"
    assert any(("termasuk",) in c for c in lexical.question_concepts(understand(told), told))


def test_a_term_written_out_is_defined_as_written() -> None:
    written = "subjek pajak dalam negeri"
    assert defined_forms(written, understand(f"Apa itu {written}?")) == [written]
    # a staff acronym is defined by its long form
    assert "dasar pengenaan pajak" in defined_forms("dpp", understand("Apa itu DPP?"))


def test_the_ayat_defining_the_asked_term_answers(services: Any) -> None:
    for question in ("Siapa yang termasuk subjek pajak dalam negeri?", "Apa itu subjek pajak dalam negeri?"):
        answer = anonymous_answer(services, question, as_of=AS_OF)
        assert answer.status == "answered", question
        lead = answer.claims[0]
        assert lead.source.location.startswith("Pasal 2 ayat (3) UU 7/1983"), (question, lead.source.location)
        assert "Subjek pajak dalam negeri adalah" in answer.answer


def test_a_rate_bound_to_an_unasked_procedure_does_not_answer(services: Any) -> None:
    # UU HPP Pasal 11 ayat (2): 30% final tax on assets found after a voluntary disclosure -- not the rate of
    # bond interest, however close its score
    answer = anonymous_answer(services, "Berapa tarif PPh final atas bunga obligasi?", as_of=AS_OF)
    assert "30%" not in answer.answer
    assert all(c.source.location != "Pasal 11 ayat (2)" for c in answer.claims)


def test_an_english_term_is_defined_by_the_acts_words() -> None:
    # "who is considered" asks a definition with or without "as"; an English term is defined by the acts'
    # Indonesian words its alias gives
    asked = "Who is considered a resident taxpayer?"
    term = defined_term(asked)
    assert term == "resident taxpayer"
    assert "subjek pajak dalam negeri" in defined_forms(term, understand(asked))
