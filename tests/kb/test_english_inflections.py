"""An English question writes verbs inflected; the word lists hold base forms (session 50).

"VAT on exported goods" met neither the alias "export" (which adds the act's "ekspor" to the search) nor the
English-to-Indonesian pair for "export" (which lets "ekspor" cover the word): only "exports" and "export" were
listed.  The alias reader and the concept reader now also try the base forms of a word ending in -ed or -ing
("exported" -> "export").  Messages are our own.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from kb.lexical import question_concepts, stem
from kb.query import default_aliases, english_bases, fts_query, understand
from kb.store.protocol import SearchFilter

EVERYONE = SearchFilter(groups=frozenset({"everyone"}), as_of=dt.date(2026, 12, 5))


def test_base_forms_of_inflected_english_words() -> None:
    assert english_bases("exported")[0] == "export"
    assert "invoice" in english_bases("invoiced")
    assert "submit" in english_bases("submitted")
    assert english_bases("levied") == ("levy",)
    assert "pay" in english_bases("paying")
    # short words and words without the endings are left alone
    assert english_bases("paid") == ()
    assert english_bases("exports") == ()
    assert english_bases("dikenakan") == ()


def test_an_inflected_word_meets_the_alias_of_its_base() -> None:
    matches = default_aliases().find("Do we charge VAT on exported goods?")
    assert "gl-ekspor" in {m.entry.id for m in matches}
    assert '"ekspor"' in fts_query(understand("Do we charge VAT on exported goods?"))


def test_the_inflected_word_is_covered_by_the_acts_word() -> None:
    question = "Is VAT charged on goods exported abroad?"
    concepts = question_concepts(understand(question), question)
    assert any((stem("ekspor"),) in c for c in concepts)


def test_the_zero_rate_on_exports_is_retrieved_for_the_english_question(services: Any) -> None:
    found = services.retriever.search("Do we charge VAT on exported goods?", EVERYONE, top_k=10)
    ids = [h.chunk.id for h in found.results]
    assert "uu-7-2021#pasal-4/angka-2/pasal-7" in ids
