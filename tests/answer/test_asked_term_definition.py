"""A definition question is answered by the passage that defines the asked term (session 50).

"Apa itu bentuk usaha tetap?" was answered with UU KUP's definition of "Badan", which names "bentuk usaha
tetap" at the end of its list: every definition in a Pasal 1 scored as "the definition asked for" whatever
term it defined, and UU PPh defines the asked term in Pasal 2 ayat (5), an ayat, not a Pasal 1 item. A
passage whose head is the asked term ("Bentuk usaha tetap adalah ...", "(5) Yang dimaksud dengan ... adalah
...") now counts as its definition, and a definition of another term that names the asked one in its body
does not. The question was also declined as out of scope: it names no tax word. Messages and passages are
our own.
"""

from __future__ import annotations

from typing import Any

from bot.answer import scope
from bot.answer.extractive import (
    _CROSS_REF,
    ExtractiveComposer,
    asked_term_forms,
    defines_asked_term,
    defines_other_term,
    definition_heads,
)
from kb.model import DocumentMeta, Hit
from tests.answer.chunk_sample import anonymous_answer, compose_request, sample_chunk

DOC = DocumentMeta(id="uu-99-2030", title="Undang-Undang Uji", number="UU 99/2030", type="UU")

#: a Pasal 1 item defining another term, naming the asked one in its list
OTHER = "3. Badan adalah sekumpulan orang, yaitu perseroan, koperasi, yayasan, dan bentuk usaha tetap."
#: the ayat defining the asked term
OWN = "(5) Bentuk usaha tetap adalah bentuk usaha yang dipakai oleh badan luar negeri untuk berusaha di sini."
#: an ayat that classifies the term ("merupakan") without saying what it is
CLASSIFIES = "(1a) Bentuk usaha tetap merupakan subjek pajak yang diperlakukan sama dengan badan."


def _hits() -> tuple[Hit, ...]:
    other = sample_chunk(
        DOC.id, "pasal-1/angka-3", OTHER, location="Pasal 1 angka 3", seq=3, kind="definition", pasal="1",
    )  # fmt: skip
    classifies = sample_chunk(
        DOC.id, "pasal-2/ayat-1a", CLASSIFIES, location="Pasal 2 ayat (1a)", seq=20, pasal="2", ayat="1a",
    )  # fmt: skip
    own = sample_chunk(
        DOC.id, "pasal-2/ayat-5", OWN, location="Pasal 2 ayat (5)", seq=24, pasal="2", ayat="5"
    )
    # the other term's definition ranks first, as it did from the search
    return (
        Hit(other, DOC, 0.9, ("bm25",)),
        Hit(classifies, DOC, 0.85, ("bm25",)),
        Hit(own, DOC, 0.7, ("bm25",)),
    )


def test_the_head_of_a_definition_says_which_term_it_defines() -> None:
    forms = asked_term_forms(compose_request("apa itu bentuk usaha tetap?"))
    assert ["bentuk", "usaha", "tetap"] in forms
    assert defines_asked_term(forms, definition_heads(OWN))
    assert defines_asked_term(
        forms, definition_heads("(5) Yang dimaksud dengan bentuk usaha tetap adalah bentuk usaha ...")
    )
    assert not defines_asked_term(forms, definition_heads(OTHER))
    assert not defines_asked_term(forms, definition_heads(CLASSIFIES))
    assert defines_other_term(forms, definition_heads(OTHER))
    assert not defines_other_term(forms, definition_heads(OWN))
    # a definition that does not write the asked term out is not judged
    assert not defines_other_term(forms, definition_heads("7. Masa Pajak adalah jangka waktu satu bulan."))


def test_a_question_that_asks_no_definition_has_no_asked_term() -> None:
    assert asked_term_forms(compose_request("berapa tarif PPh bentuk usaha tetap?")) == []


def test_the_ayat_defining_the_asked_term_leads_not_another_terms_definition() -> None:
    request = compose_request("apa itu bentuk usaha tetap?", _hits())
    lead = ExtractiveComposer().compose(request).claims[0]
    assert lead.source_chunk_id == "uu-99-2030#pasal-2/ayat-5"
    assert "Bentuk usaha tetap adalah bentuk usaha" in lead.quote


def test_a_list_of_letters_in_a_cross_reference_is_dropped_whole() -> None:
    text = "oleh orang pribadi sebagaimana dimaksud pada ayat (4) huruf a, huruf b, dan huruf c, dan badan"
    assert _CROSS_REF.sub("", text) == "oleh orang pribadi dan badan"


def test_the_subjects_and_objects_of_income_tax_are_in_scope_by_name() -> None:
    for question in ("apa itu bentuk usaha tetap?", "apa itu BUT?", "What is a permanent establishment?",
                     "hibah ke adik kena?", "beasiswa dari kantor gimana?"):  # fmt: skip
        assert scope.classify(question, has_tax_signal=False).kind == "in_scope", question
    assert scope.classify("but why is the sky blue", has_tax_signal=False).kind == "out_of_scope"


def test_the_permanent_establishment_question_is_answered_from_uu_pph_pasal_2_ayat_5(services: Any) -> None:
    answer = anonymous_answer(services, "apa itu bentuk usaha tetap?")
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert lead.source.chunk_id == "uu-6-2023#lampiran/pasal-111/angka-1/pasal-2/ayat-5"
    # the ayat opens a list ("antara lain berupa: a. tempat kedudukan manajemen; ..."): the claim says its
    # opening sentence, without the cross-reference to the letters of ayat (4) (the comma that closed it
    # stays since session 71), and quotes the first item
    assert lead.text.startswith(
        "Bentuk usaha tetap adalah bentuk usaha yang dipergunakan oleh orang pribadi, dan badan untuk"
    )
    assert "huruf" not in lead.text
    assert lead.quote == "a. tempat kedudukan manajemen;"
