"""The income tax of companies as such, asked in everyday words, is the "Wajib Pajak badan"'s.

"company" / "perusahaan" are generic words (the asker's own company: "perusahaan kami"), so "tarif pajak
perusahaan berapa?" and "What is the tax rate for a company?" kept no topic word and were declined "no
source", and "What is the income tax rate for companies?" was asked which income tax it meant.  Since session
51 a few phrases of that meaning are searched as "wajib pajak badan" (lexicon ``search_words``), and a phrase
of generic words names its thing by the expansion alone.  Messages are our own.
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.answer.clarify import check
from kb import lexicon
from kb.lexical import coverage, question_concepts
from kb.query import understand
from tests.answer.chunk_sample import anonymous_answer

#: the shape of UU PPh Pasal 17 ayat (1) huruf b (own words, shortened)
CORPORATE_RATE = "b. Wajib Pajak badan dalam negeri dan bentuk usaha tetap sebesar 22%."
#: a passage that shares only the generic words
GENERIC = "Perusahaan wajib memotong pajak atas pembayaran jasa."


def test_company_tax_phrases_are_searched_as_the_corporate_taxpayer() -> None:
    words = lexicon.search_words()
    assert words["tarif pajak perusahaan"] == ("wajib pajak badan",)
    assert words["tax rate for companies"] == ("wajib pajak badan",)


@pytest.mark.parametrize(
    "question", ["tarif pajak perusahaan berapa?", "What is the tax rate for a company in Indonesia?"]
)
def test_the_phrase_is_a_topic_only_the_corporate_rule_covers(question: str) -> None:
    concepts = question_concepts(understand(question), question)
    (company,) = [c for c in concepts if ("wajib", "pajak", "badan") in c]
    assert coverage([company], CORPORATE_RATE, "id") == 1.0
    # the generic words it is written in are no alternative: any passage on a company's tax would cover them
    assert coverage([company], GENERIC, "id") == 0.0


def test_the_asker_own_company_stays_generic() -> None:
    question = "Sesuai daftar pemotongan pajak perusahaan, PPh atas sewa alat berapa?"
    concepts = question_concepts(understand(question), question)
    assert not [c for c in concepts if ("wajib", "pajak", "badan") in c]


def test_companies_name_the_income_tax_asked() -> None:
    question = "What is the income tax rate for companies?"
    found = check(question, has_date=False, tax_types=("PPh",), specific=False, as_of=None)
    assert found is None or "income_type" not in {s.id for s in found.missing}


@pytest.mark.parametrize(
    "question", ["tarif pajak perusahaan berapa?", "What is the income tax rate for companies?"]
)
def test_a_company_rate_question_is_answered_with_the_corporate_rate(services: Any, question: str) -> None:
    answer = anonymous_answer(services, question)
    assert answer.status == "answered"
    assert "22%" in answer.claims[0].quote
