"""A question asking who owes a levy is answered by the rule naming the party it is owed by (session 50).

UU Bea Meterai says who owes the duty in Pasal 9 ("Bea Meterai terutang oleh pihak yang menerima Dokumen");
its Pasal 11 lists the collector's duties and names the "Pihak Yang Terutang" only as whom the collector
collects from. Both share a question's words; Pasal 11 led. A question asking who owes, bears or pays
(``question_kinds.asks_liable``) now prefers a passage stating "terutang oleh"
(``passage_cues.names_liable``). A duty laid on a party ("wajib dipotong oleh") was tried as the same cue
and left out: it made one answer of the blind set wrong. Messages and passages are our own.
"""

from __future__ import annotations

from typing import Any

from bot.answer.extractive import ASKS_LIABLE, NAMES_LIABLE
from kb.model import DocumentMeta, Hit
from tests.answer.chunk_sample import anonymous_answer, lead_chunk_id, sample_chunk

DOC = DocumentMeta(id="uu-99-2030", title="Undang-Undang Uji Bea", number="UU 99/2030", type="UU")

COLLECTOR = "(1) Pemungut Bea Uji wajib memungut Bea Uji yang terutang atas Dokumen dari Pihak Yang Terutang."
OWED_BY = "(2) Dokumen yang dibuat oleh dua pihak, Bea Uji terutang oleh masing-masing pihak atas Dokumennya."


def _hits() -> tuple[Hit, ...]:
    collector = sample_chunk(
        DOC.id, "pasal-11/ayat-1", COLLECTOR, location="Pasal 11 ayat (1)", seq=40, pasal="11", ayat="1"
    )
    owed = sample_chunk(
        DOC.id, "pasal-9/ayat-2", OWED_BY, location="Pasal 9 ayat (2)", seq=30, pasal="9", ayat="2"
    )
    # the collector's duties rank first, as they did from the search
    return (Hit(collector, DOC, 0.9, ("bm25",)), Hit(owed, DOC, 0.8, ("bm25",)))


def _lead(question: str) -> str:
    return lead_chunk_id(question, _hits())


def test_questions_asking_who_owes_or_pays() -> None:
    for question in (
        "Bea Uji atas Dokumen itu ditanggung siapa?",
        "siapa yang wajib bayar Bea Uji?",
        "Bea Uji dokumen dua pihak terutang oleh siapa?",
        "Who is liable for the Bea Uji on each copy?",
        "who pays the duty on a two-party document?",
    ):
        assert ASKS_LIABLE.search(question), question
    assert not ASKS_LIABLE.search("berapa Bea Uji atas Dokumen dua pihak?")
    assert not ASKS_LIABLE.search("siapa yang menandatangani Dokumen dua pihak itu?")


def test_the_liability_is_stated_by_terutang_oleh_not_by_naming_the_liable_party() -> None:
    assert NAMES_LIABLE.search(OWED_BY)
    assert not NAMES_LIABLE.search(COLLECTOR)
    # a clause describing a tax "yang dipotong oleh pemberi kerja" lays no liability
    assert not NAMES_LIABLE.search("Penerimaan negara dari pajak yang dipotong oleh pemberi kerja dibagi.")


def test_the_owed_by_rule_leads_a_question_asking_who_and_not_another() -> None:
    assert _lead("Bea Uji atas Dokumen ditanggung siapa?") == "uu-99-2030#pasal-9/ayat-2"
    assert _lead("Bea Uji atas Dokumen wajib diapakan?") == "uu-99-2030#pasal-11/ayat-1"


def test_who_owes_the_stamp_duty_on_a_receipt_is_answered_from_pasal_9(services: Any) -> None:
    answer = anonymous_answer(services, "bea meterai kwitansi pembayaran terutang oleh siapa?")
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert lead.source.chunk_id == "uu-10-2020#pasal-9"
    assert "Bea Meterai terutang oleh pihak yang menerima Dokumen" in lead.quote
