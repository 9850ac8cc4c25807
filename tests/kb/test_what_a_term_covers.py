""" "Yang menjadi subjek pajak adalah: ..." defines the term by what it covers.

"Siapa saja yang termasuk subjek pajak?" (session 72, a probe of our own) was led by PMK 54/2025's definition
of a certificate whose long name holds "Subjek Pajak Luar Negeri", with UU PPh Pasal 2 ayat (1) ("Yang menjadi
subjek pajak adalah: a. 1. orang pribadi; ...") third in retrieval and no definition to the composer.
"""

from __future__ import annotations

from typing import Any

from bot.answer.extractive import asked_term_forms, defines_asked_term, definition_heads
from kb.query import understand
from kb.retrieve import _defines_asked, asked_term_words
from tests.answer.chunk_sample import anonymous_answer, compose_request

QUESTION = "Siapa saja yang termasuk subjek pajak?"
SUBJECTS = "(1) Yang menjadi subjek pajak adalah: a. 1. orang pribadi; dan 2. warisan yang belum terbagi"
EXEMPT = "(1) Yang dikecualikan dari objek pajak adalah: a. bantuan atau sumbangan"


def test_retrieval_reads_what_the_term_covers_as_its_definition() -> None:
    asked = asked_term_words(QUESTION, understand(QUESTION))
    assert _defines_asked(SUBJECTS, asked)
    objects = "Apa itu objek pajak?"
    assert not _defines_asked(EXEMPT, asked_term_words(objects, understand(objects)))


def test_the_composer_reads_it_so_too() -> None:
    forms = asked_term_forms(compose_request(QUESTION))
    assert defines_asked_term(forms, definition_heads(SUBJECTS))
    objects = compose_request("Apa itu objek pajak?")
    assert not defines_asked_term(asked_term_forms(objects), definition_heads(EXEMPT))


def test_the_subjects_pasal_answers(services: Any) -> None:
    answer = anonymous_answer(services, QUESTION)
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert lead.source.location.startswith("Pasal 2 ayat (1)"), lead.source
    assert lead.text.startswith("Yang menjadi subjek pajak adalah:"), lead.text
    assert "orang pribadi" in lead.quote
