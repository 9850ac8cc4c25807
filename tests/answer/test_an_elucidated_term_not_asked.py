"""An elucidation that only says what a term means answers no question that neither asks a definition nor
names the term.

"Are severance payments subject to final tax?" was answered (0.19) with PP 34/2016's "Yang dimaksud dengan
Kantor pelayanan pajak adalah Kantor Pelayanan Pajak yang melakukan penelitian atas fotokopi Surat Setoran
Pajak ...": the only passage about the question by its words "final", "Pajak" and "Setoran".  Session 63;
the question is our own."""

from __future__ import annotations

import datetime as dt
from types import SimpleNamespace
from typing import Any

import pytest

from bot.answer.extractive import explains_unasked_term, question_concepts
from tests.answer.chunk_sample import anonymous_answer, compose_request, sample_chunk

KPP = (
    "Ayat (5) Yang dimaksud dengan Kantor pelayanan pajak adalah Kantor Pelayanan Pajak yang melakukan "
    "penelitian atas fotokopi Surat Setoran Pajak."
)
OTHER_SERVICES = "Huruf c Yang dimaksud dengan jasa lain adalah jasa yang tidak termasuk jasa teknik."


def _hit(text: str) -> Any:
    """A retrieval hit over an elucidation passage (only its chunk is read)."""
    chunk = sample_chunk(
        "pp-34-2016", "penjelasan/pasal-3/ayat-5", text, location="x", seq=1, kind="penjelasan"
    )
    return SimpleNamespace(chunk=chunk)


@pytest.mark.parametrize(
    "question",
    ["Are severance payments subject to final tax?", "Apakah pesangon dikenai PPh final?"],
)
def test_an_elucidated_term_the_question_does_not_name(question: str) -> None:
    request = compose_request(question)
    assert explains_unasked_term(_hit(KPP), question, question_concepts(request))


@pytest.mark.parametrize(
    "question",
    [
        # the term named
        "Apakah jasa lain kena PPh 23?",
        # a definition asked: the definition logic decides
        "Apa yang dimaksud dengan kantor pelayanan pajak?",
    ],
)
def test_a_named_or_asked_term_keeps_its_elucidation(question: str) -> None:
    concepts = question_concepts(compose_request(question))
    text = OTHER_SERVICES if "jasa" in question else KPP
    assert not explains_unasked_term(_hit(text), question, concepts)


def test_the_severance_question_is_not_answered_with_the_tax_office(services: Any) -> None:
    answer = anonymous_answer(
        services, "Are severance payments subject to final tax?", as_of=dt.date(2026, 12, 1)
    )
    assert not any("Kantor pelayanan pajak adalah" in c.quote for c in answer.claims)
    assert answer.status == "abstained"
