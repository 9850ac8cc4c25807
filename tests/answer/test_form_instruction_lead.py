"""A form's fill-in instruction is no answer.  A PMK's Lampiran holds its forms and their "Petunjuk Pengisian"
("Nomor (7) : Diisi dengan nama negara ..."); such a line shares words with a question about residence or
treaty status but states no rule, and it led one.  It may lead only a question about filling in the form."""

from __future__ import annotations

import datetime as dt

from bot.answer.extractive import ExtractiveComposer
from bot.answer.protocol import ComposeRequest
from kb.model import Chunk, DocumentMeta, Hit
from kb.query import understand
from tests.answer.chunk_sample import sample_chunk

TODAY = dt.date(2026, 12, 2)
DOC = DocumentMeta(id="pmk-99-2030", title="Peraturan Menteri Uji", number="PMK 99/2030", type="PMK")

#: a field instruction of a made-up certificate form, in the Lampiran's words
FIELD = (
    "Nomor (4) : Diisi dengan negara tempat Wajib Pajak orang pribadi bertempat tinggal lebih dari 183 "
    "(seratus delapan puluh tiga) hari dalam jangka waktu 12 (dua belas) bulan."
)
#: the rule itself, in an act's words (no obligation word of its own: it says who a resident is)
RULE = (
    "(3) Subjek pajak dalam negeri adalah orang pribadi yang berada di Indonesia lebih dari 183 (seratus "
    "delapan puluh tiga) hari dalam jangka waktu 12 (dua belas) bulan."
)


def _hits() -> tuple[Hit, ...]:
    field: Chunk = sample_chunk(
        DOC.id, "lampiran/part-3", FIELD, location="Lampiran", seq=90, kind="lampiran"
    )
    rule: Chunk = sample_chunk(
        DOC.id,
        "pasal-2/ayat-3",
        RULE,
        location="Pasal 2 ayat (3)",
        seq=5,
        parent_key="pasal-2",
        pasal="2",
        ayat="3",
    )
    # the form line ranks first, as it did from the search
    return (Hit(field, DOC, 0.9, ("bm25",)), Hit(rule, DOC, 0.8, ("bm25",)))


def _lead(question: str) -> str:
    request = ComposeRequest(question, "id", TODAY, understand(question), _hits())
    return ExtractiveComposer().compose(request).claims[0].source_chunk_id


def test_a_residence_question_is_led_by_the_rule_not_by_the_form_field() -> None:
    assert _lead(
        "Orang pribadi yang tinggal di Indonesia lebih dari 183 hari dalam 12 bulan jadi subjek pajak apa?"
    ) == ("pmk-99-2030#pasal-2/ayat-3")


def test_a_question_about_filling_in_the_form_may_be_led_by_its_instruction() -> None:
    assert _lead("Di formulir, nomor (4) diisi dengan negara tempat tinggal lebih dari 183 hari ya?") == (
        "pmk-99-2030#lampiran/part-3"
    )


def test_what_counts_as_a_question_about_a_form() -> None:
    from bot.answer.extractive import _ASKS_FORM

    assert _ASKS_FORM.search("Kolom nomor 4 di formulir itu diisi apa?")
    assert _ASKS_FORM.search("How is the DGT form filled in by the vendor?")
    # a sheet of paper ("per lembar") or completing a deal is no form to fill in (review, session 29)
    assert not _ASKS_FORM.search("Bea meterai per lembar kuitansi berapa?")
    assert not _ASKS_FORM.search("Once we complete the transaction, when is VAT due?")


def test_the_english_guidance_of_a_form_is_a_fill_in_instruction() -> None:
    # the DGT form's English guidance (PMK 112/2025 Lampiran) answered a probe of our own on withholding for
    # equipment rent (session 52)
    from bot.answer.extractive import _FORM_INSTRUCTION

    assert _FORM_INSTRUCTION.search(
        "4. For a non-individual other than those mentioned in no. 2, complete PART I and PART II on page 1."
    )
    assert _FORM_INSTRUCTION.search(
        "Guidance: 1. This form is to be completed by a person claiming benefits."
    )
    assert not _FORM_INSTRUCTION.search(
        "The withholding is completed by the payer before the end of the month."
    )
