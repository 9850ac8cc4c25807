"""A question asking what is exempt is led by the rule that excludes, not by one that charges or collects.

"dokumen yang tidak kena bea meterai apa saja?" (a probe of our own) was answered with the stamp-duty
collector's duties: its topic words ("dokumen", "bea meterai") are in every Pasal of the act, and "tidak kena"
named no topic.  Since session 51 a question asking what is not taxed or exempt (lexicon
``question_kinds.asks_exemption``) prefers a rule stating an exclusion (``passage_cues.states_exemption``:
"tidak dikenakan atas", "dikecualikan dari", "dibebaskan dari"), read with its list's lead-in.  Acts and
messages are our own.
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.answer.extractive import lead_features
from kb.model import DocumentMeta, Hit
from tests.answer.chunk_sample import anonymous_answer, compose_request, lead_chunk_id, sample_chunk

DOC = DocumentMeta(id="uu-99-2030", title="Undang-Undang Bea Uji", number="UU 99/2030", type="UU")
COLLECTS = "(1) Pemungut Bea Uji wajib memungut Bea Uji yang terutang atas Dokumen tertentu."
EXCLUDES = "Pasal 7\nBea Uji tidak dikenakan atas Dokumen yang berupa: a. ijazah; b. surat gadai."


def _hits() -> list[Hit]:
    collects = sample_chunk(DOC.id, "pasal-11/ayat-1", COLLECTS, location="Pasal 11 ayat (1)", seq=40)
    excludes = sample_chunk(DOC.id, "pasal-7", EXCLUDES, location="Pasal 7", seq=20, kind="pasal")
    # the collector's duties rank first, as they did from the search
    return [Hit(collects, DOC, 0.9, ("bm25",)), Hit(excludes, DOC, 0.8, ("bm25",))]


@pytest.mark.parametrize(
    "question",
    ["dokumen yang tidak kena bea uji apa saja?", "Which documents are exempt from Bea Uji?"],
)
def test_the_excluding_rule_leads_a_question_asking_what_is_exempt(question: str) -> None:
    assert lead_chunk_id(question, _hits()) == f"{DOC.id}#pasal-7"


def test_the_feature_needs_both_the_ask_and_the_exclusion() -> None:
    collects, excludes = _hits()
    asked = compose_request("dokumen yang tidak kena bea uji apa saja?")
    assert lead_features(1, excludes, 1.0, asked)["exemption_stated"] == 1.0
    assert lead_features(0, collects, 1.0, asked)["exemption_stated"] == 0.0
    plain = compose_request("dokumen apa saja yang kena bea uji?")
    assert lead_features(1, excludes, 1.0, plain)["exemption_stated"] == 0.0


def test_the_stamp_duty_exclusions_answer(services: Any) -> None:
    answer = anonymous_answer(services, "dokumen yang tidak kena bea meterai apa saja?")
    assert answer.status == "answered"
    assert answer.claims[0].source.chunk_id.startswith("uu-10-2020#pasal-7")
    assert "Bea Meterai tidak dikenakan atas Dokumen" in answer.claims[0].quote
