"""English names of the tax procedures and duties read as the Indonesian ones do.

"How long do we have to file an objection?" was declined as out of scope: the in-scope words listed
"keberatan", "banding", "sanksi" but not "objection", "appeal", "sanction". "When must we file the annual tax
return?" was answered with the two months' extension of UU KUP Pasal 3 ayat (4): "file" was searched as the
verb "menyampaikan" only, while the deadline of ayat (3) names the act by its noun ("Batas waktu penyampaian
Surat Pemberitahuan"). "What is the corporate income tax rate?" matched none of the company-tax phrases.
Session 63; the questions are our own."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from bot.answer import scope
from kb.query import understand
from tests.answer.chunk_sample import anonymous_answer

AS_OF = dt.date(2026, 12, 1)


@pytest.mark.parametrize(
    "question",
    [
        "How long do we have to file an objection?",
        "Can we appeal the decision?",
        "What sanctions apply if we are late?",
        "Is the assessment final?",
    ],
)
def test_english_procedure_words_are_in_scope(question: str) -> None:
    assert scope.classify(question, has_tax_signal=False).kind == "in_scope"


def test_an_english_question_without_a_tax_word_stays_out_of_scope() -> None:
    assert (
        scope.classify("How long do we have to cook the rice?", has_tax_signal=False).kind == "out_of_scope"
    )


def test_the_annual_return_deadline_is_not_the_extension(services: Any) -> None:
    answer = anonymous_answer(services, "When must we file the annual tax return?", as_of=AS_OF)
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert lead.source.location.startswith("Pasal 3 ayat (3) ")
    assert "memperpanjang" not in lead.quote
    assert "bulan setelah akhir Tahun Pajak" in lead.quote


def test_corporate_income_tax_searches_the_company_taxpayer() -> None:
    added = {
        a.lower() for e in understand("What is the corporate income tax rate?").expansions for a in e.added
    }
    assert "wajib pajak badan" in added


def test_the_corporate_rate_is_a_company_rate(services: Any) -> None:
    answer = anonymous_answer(services, "What is the corporate income tax rate?", as_of=AS_OF)
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert (lead.source.doc_id, lead.source.location) == ("pp-55-2022", "Pasal 64")
    assert "22% (dua puluh dua persen) yang mulai berlalnr pada Tahun Pajak 2022" in lead.quote
    assert answer.confidence.score >= 0.5
