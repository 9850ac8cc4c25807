"""A company car or house given to staff is a benefit in kind ("natura dan/atau kenikmatan" in the acts), and
"termasuk" (is it included in ...?) frames the ask like "masuk": neither names a topic of its own.

"Apakah fasilitas mobil dinas untuk karyawan termasuk penghasilan karyawan?" was led by PMK 168/2023's base
of non-employees' pay: "mobil dinas" shares no word with the acts' "natura"/"kenikmatan", and as a concept
"termasuk" was covered by any passage listing what something includes (session 71, a probe of our own).
"""

from __future__ import annotations

from typing import Any

import pytest

from kb.lexical import question_concepts
from kb.query import fts_query, understand
from tests.answer.chunk_sample import anonymous_answer


@pytest.mark.parametrize("phrase", ["mobil dinas", "kendaraan dinas", "rumah dinas", "company car"])
def test_the_phrase_searches_the_acts_words(phrase: str) -> None:
    match = fts_query(understand(f"Apakah {phrase} untuk direktur kena pajak?"))
    assert '"natura"' in match and '"kenikmatan"' in match


def test_termasuk_is_no_concept() -> None:
    question = "Apakah natura termasuk objek pajak penghasilan?"
    concepts = question_concepts(understand(question), question)
    words = {w for concept in concepts for alt in concept for w in alt}
    assert "termasuk" not in words
    assert "natura" in words


def test_a_company_car_is_answered_from_the_benefits_in_kind_rules(services: Any) -> None:
    answer = anonymous_answer(
        services, "Apakah fasilitas mobil dinas untuk karyawan termasuk penghasilan karyawan?"
    )
    assert answer.status == "answered"
    assert "natura dan/atau kenikmatan" in answer.claims[0].quote


def test_two_phrases_for_one_benefit_are_one_concept() -> None:
    question = "Perusahaan memberi fasilitas karyawan berupa rumah dinas, apakah itu penghasilan?"
    concepts = question_concepts(understand(question), question)
    natura = [c for c in concepts if ("natura",) in c]
    assert len(natura) == 1
    assert {("rumah", "dina"), ("fasilita", "karyaw")} <= natura[0]
    # "berupa" (in the form of) names no topic of its own
    words = {w for concept in concepts for alt in concept for w in alt}
    assert "berupa" not in words
