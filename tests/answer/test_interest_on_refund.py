"""The interest the government pays on a late refund is one term, "imbalan bunga" (session 50).

UU KUP Pasal 11 ayat (3) grants "imbalan bunga" when a refund comes late. Read as two words, "imbalan" and
"bunga" are both written, apart, by the PPh 26 rule on interest paid abroad ("bunga termasuk premium,
diskonto, dan imbalan sehubungan dengan jaminan pengembalian utang"), which then answered a question about
the refund's interest with "tarifnya 20%". The alias dictionary holds the term (``imbalan-bunga``): the
question has one topic for it, not two, and its English names are searched. Messages are our own.
"""

from __future__ import annotations

from typing import Any

from kb.lexical import question_concepts
from kb.query import fts_query, understand
from tests.answer.chunk_sample import anonymous_answer


def test_the_refund_interest_is_one_topic_with_its_english_names() -> None:
    question = "imbalan bunga kalau pengembalian telat berapa?"
    assert '"interest compensation"' in fts_query(understand(question))
    concepts = question_concepts(understand(question), question)
    assert [c for c in concepts if ("imbal", "bunga") in c]
    assert not [c for c in concepts if ("bunga",) in c or ("imbal",) in c]


def test_the_refund_interest_question_is_answered_from_uu_kup_pasal_11(services: Any) -> None:
    answer = anonymous_answer(services, "imbalan bunga atas restitusi berapa persen?")
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert lead.source.location.startswith("Pasal 11 ayat (3) UU 6/1983")
    assert "imbalan bunga" in lead.quote
    assert "20%" not in answer.answer
