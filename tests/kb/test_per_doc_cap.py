"""The per-document cap makes room for other documents.  A tax type that one document alone governs (Bea
Meterai is UU 10/2020) names that document: its passages are exempt, like a document the question names, so
the fixed-rate Pasal is not pushed behind other laws' passages that share a word with the question."""

from __future__ import annotations

import datetime as dt
from collections import Counter
from typing import Any

from bot.wiring import search_filter


def test_a_tax_type_one_document_governs_is_not_capped(services: Any) -> None:
    flt = search_filter(services.cli_principal(None), dt.date(2024, 6, 1))
    for question in (
        "Berapa bea meterai untuk dokumen perjanjian?",
        "How much is the stamp duty on a contract?",
    ):
        result = services.retriever.search(question, flt, top_k=10)
        ids = [h.chunk.id for h in result.results]
        assert len(ids) == 10, question
        assert "uu-10-2020#pasal-5" in ids, question  # the fixed rate, kept out by the cap of 2 before
        assert Counter(h.chunk.doc_id for h in result.results)["uu-10-2020"] > 2, question


def test_other_questions_keep_the_cap(services: Any) -> None:
    flt = search_filter(services.cli_principal(None), dt.date(2024, 6, 1))
    result = services.retriever.search("Kapan faktur pajak harus dibuat?", flt, top_k=10)
    first = [h.chunk.doc_id for h in result.results]
    assert len(set(first)) > 2
    assert max(Counter(first[:6]).values()) <= 2, first  # two per document while others remain


def test_an_unasked_definition_takes_no_place_of_its_documents_rules(services: Any) -> None:
    # PMK 168/2023's definitions ("Pasal 1 angka 2") had taken one of its two places, and the rule for a
    # non-employee's fee (Pasal 5 ayat (1)) waited behind the cap (session 46)
    flt = search_filter(services.cli_principal(None), dt.date(2026, 6, 1))
    result = services.retriever.search("Is a freelance translator's fee subject to PPh 21?", flt, top_k=10)
    ids = [h.chunk.id for h in result.results]
    assert "pmk-168-2023#pasal-5/ayat-1" in ids, ids
    rules = [
        h for h in result.results[:6] if h.chunk.doc_id == "pmk-168-2023" and h.chunk.kind != "definition"
    ]
    assert len(rules) <= 2, ids  # the cap still holds for the document's rules
