"""The per-document cap makes room for other documents; it must not leave the list short when the topic is
one law (Bea Meterai is UU 10/2020): the capped passages fill it after the others, best first."""

from __future__ import annotations

import datetime as dt
from typing import Any

from bot.wiring import search_filter


def test_a_one_law_topic_still_gets_a_full_list(services: Any) -> None:
    flt = search_filter(services.cli_principal(None), dt.date(2024, 6, 1))
    result = services.retriever.search("Berapa bea meterai untuk dokumen perjanjian?", flt, top_k=10)
    ids = [h.chunk.id for h in result.results]
    assert len(ids) == 10
    assert "uu-10-2020#pasal-5" in ids  # the fixed rate, kept out by the cap of 2 per document before
    # the first places still follow the cap: other documents come before the third UU 10/2020 passage
    first_docs = [h.chunk.doc_id for h in result.results]
    third = [i for i, d in enumerate(first_docs) if d == "uu-10-2020"][2]
    assert any(d != "uu-10-2020" for d in first_docs[:third])
