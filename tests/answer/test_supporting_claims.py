"""What a rule's answer shows beside its lead: the lead's own Pasal (its conditions and exceptions), the
definitions of terms the question names, the company policy that applies it and documents in a detected
conflict.  Another Pasal of a regulation that merely shares the question's words is not shown (one passage
of the act above an implementing regulation's rule aside): on both halves of our eval set such claims cited
a gold location 11 times in 72, and each one is a citation the reader checks for nothing.  A supporting
passage is quoted once (its best sentence); only the lead's own passage may give two.  Confidence and status
are judged on all the verified evidence, before this display cut."""

from __future__ import annotations

import dataclasses
import datetime as dt
from typing import Any

from bot.answer.model import ShownClaim, SourceRef
from bot.answer.pipeline import PipelineConfig, _near_the_lead, answer_question
from kb.model import DocumentMeta, Hit
from kb.retrieve import SearchResult
from tests.answer.chunk_sample import sample_chunk

STAMP_DUTY = "Bea meterai yang harus dibayar untuk satu dokumen besarnya berapa rupiah?"


def _ask(services: Any, question: str, ratio: float | None = None) -> Any:
    config = (
        PipelineConfig()
        if ratio is None
        else dataclasses.replace(PipelineConfig(), secondary_score_ratio=ratio)
    )
    return answer_question(
        question,
        services.cli_principal(None),
        services,
        as_of=dt.date(2024, 6, 1),
        explain=True,
        config=config,
    )


def _pasal(services: Any, answer: Any) -> list[tuple[str, str | None]]:
    chunks = services.store.get_chunks([c.source.chunk_id for c in answer.claims])
    return [(chunks[c.source.chunk_id].base_doc, chunks[c.source.chunk_id].pasal) for c in answer.claims]


def test_a_rate_answer_does_not_quote_other_pasal_of_its_law(services: Any) -> None:
    # the stamp-duty amount (UU 10/2020 Pasal 5) was followed by the transitional rule on old stamps
    # (Pasal 28) and the power to change the nominal threshold (Pasal 6): both share "bea meterai" and
    # "dokumen", neither states what one document pays
    answer = _ask(services, STAMP_DUTY)
    assert answer.status == "answered"
    assert answer.claims[0].source.doc_id == "uu-10-2020"
    assert "10.000,00" in answer.claims[0].quote
    assert set(_pasal(services, answer)) == {("uu-10-2020", "5")}


def test_the_cut_keeps_confidence_and_status(services: Any) -> None:
    # the display cut never changes what the answer is judged on: with the ranker's cut off (ratio 0) the
    # other Pasal are still not shown, and the confidence is the same
    cut = _ask(services, STAMP_DUTY)
    every = _ask(services, STAMP_DUTY, ratio=0.0)
    assert cut.confidence == every.confidence
    assert cut.status == every.status
    assert [c.source.chunk_id for c in every.claims] == [c.source.chunk_id for c in cut.claims]


# -- the display cut on its own (pipeline._near_the_lead), over made-up passages --------------------------


def _doc(doc_id: str, type_: str) -> DocumentMeta:
    return DocumentMeta(id=doc_id, title=doc_id, number=doc_id, type=type_)


def _hit(doc: DocumentMeta, key: str, score: float, parent: str | None = None, kind: str = "ayat") -> Hit:
    chunk = sample_chunk(doc.id, key, key, location=key, seq=0, kind=kind, parent_key=parent)
    return Hit(chunk, doc, score)


def _claim(hit: Hit, quote: str, role: str = "direct") -> ShownClaim:
    source = SourceRef(
        hit.doc.id,
        hit.doc.number,
        hit.doc.title,
        hit.chunk.location,
        None,
        None,
        "in_force",
        None,
        False,
        hit.chunk.id,
    )
    return ShownClaim(quote, quote, hit.doc.layer, False, None, source, role)


def _cut(
    shown: list[ShownClaim], hits: list[Hit], question: str = "", conflict: frozenset[str] = frozenset()
):
    result = SearchResult("q", None, None, "hybrid", tuple(hits))  # type: ignore[arg-type]
    return [c.quote for c in _near_the_lead(shown, result, 0.9, set(conflict), question)]


PMK = _doc("pmk-9-2030", "PMK")
UU = _doc("uu-9-2030", "UU")
PP = _doc("pp-9-2030", "PP")
SOP = _doc("sop-kas", "procedure")


def test_beside_a_rule_only_its_own_pasal_and_the_company_practice_are_shown() -> None:
    lead = _hit(PMK, "pasal-5/ayat-1", 1.0, parent="pasal-5")
    sibling = _hit(PMK, "pasal-5/ayat-2", 0.95, parent="pasal-5")
    other = _hit(PMK, "pasal-24", 1.2)  # ranked above the lead, shares the words: still another Pasal
    same_rank = _hit(_doc("pmk-8-2030", "PMK"), "pasal-3", 1.0)
    sop = _hit(SOP, "setor", 0.95, kind="section")
    shown = [
        _claim(lead, "lead 1"),
        _claim(lead, "lead 2"),
        _claim(sibling, "ayat 2", "condition"),
        _claim(other, "pasal 24"),
        _claim(same_rank, "other pmk"),
        _claim(sop, "sop 1", "policy"),
        _claim(sop, "sop 2", "policy"),
    ]
    hits = [lead, sibling, other, same_rank, sop]
    assert _cut(shown, hits) == ["lead 1", "lead 2", "ayat 2", "sop 1"]
    # a document in a detected conflict stays: the conflict's explanation names it
    assert _cut(shown, hits, conflict=frozenset({"pmk-8-2030"})) == [
        "lead 1",
        "lead 2",
        "ayat 2",
        "other pmk",
        "sop 1",
    ]


def test_a_huruf_lead_keeps_the_other_ayat_of_its_pasal() -> None:
    # a huruf's parent is its ayat: the Pasal's other ayat (the final-tax rule, the carve-outs) have the Pasal
    # as parent, and are still its own conditions and exceptions
    lead = _hit(UU, "pasal-4/ayat-1/huruf-b", 1.0, parent="pasal-4/ayat-1")
    final_tax = _hit(UU, "pasal-4/ayat-2", 0.6, parent="pasal-4")
    carve_out = _hit(UU, "pasal-4/ayat-3/huruf-c", 0.6, parent="pasal-4/ayat-3")
    other_act = _hit(_doc("uu-8-2030", "UU"), "pasal-4/ayat-2", 1.0, parent="pasal-4")  # same key, other act
    shown = [
        _claim(lead, "huruf b"),
        _claim(final_tax, "ayat 2", "condition"),
        _claim(carve_out, "ayat 3 huruf c", "exception"),
        _claim(other_act, "other act"),
    ]
    assert _cut(shown, [lead, final_tax, carve_out, other_act]) == ["huruf b", "ayat 2", "ayat 3 huruf c"]


def test_one_passage_of_the_act_an_implementing_rule_rests_on() -> None:
    lead = _hit(PMK, "pasal-2", 1.0)
    act = _hit(UU, "pasal-21/ayat-1", 0.95)
    act_other = _hit(UU, "pasal-4", 0.95)
    shown = [_claim(lead, "pmk"), _claim(act, "uu 1"), _claim(act, "uu 2"), _claim(act_other, "uu pasal 4")]
    assert _cut(shown, [lead, act, act_other]) == ["pmk", "uu 1"]
    # under the act itself, a lower regulation's passage is not shown
    top = _hit(UU, "pasal-7", 1.0)
    below = _hit(PP, "pasal-3", 1.0)
    assert _cut([_claim(top, "uu"), _claim(below, "pp")], [top, below]) == ["uu"]


def test_a_company_document_leading_keeps_the_law_beside_it_not_its_other_sections() -> None:
    lead = _hit(SOP, "tarif", 1.0, kind="section")
    own_section = _hit(SOP, "pengisian-kembali", 1.0, kind="section")  # the same SOP's other procedure
    calendar = _hit(_doc("kalender", "procedure"), "batas-waktu", 0.95, kind="section")
    law = _hit(UU, "pasal-23", 0.95)
    looked_up = _hit(UU, "pasal-23/ayat-1", 0.0)  # the law looked up beside the policy, placed before it
    shown = [
        _claim(looked_up, "law first"),
        _claim(lead, "sop"),
        _claim(own_section, "sop refill", "policy"),
        _claim(calendar, "calendar", "policy"),
        _claim(law, "law 1"),
        _claim(law, "law 2"),
    ]
    assert _cut(shown, [lead, own_section, calendar, law]) == ["law first", "sop", "calendar", "law 1"]


def test_a_definition_is_shown_for_a_term_the_question_names() -> None:
    lead = _hit(UU, "pasal-9", 1.0)
    period = _claim(
        _hit(UU, "pasal-1/angka-2", 0.0, kind="definition"),
        "2. Masa Pajak adalah jangka waktu.",
        "definition",
    )
    other = _claim(
        _hit(UU, "pasal-1/angka-3", 0.0, kind="definition"), "3. Pajak Masukan adalah PPN.", "definition"
    )
    shown = [_claim(lead, "rule"), period, other]
    # context definitions (not among the search results) are judged by the term they define
    assert _cut(shown, [lead], "Kapan masa pajak berakhir?") == ["rule", "2. Masa Pajak adalah jangka waktu."]
