"""The acts nominalise a verb with "-nya" ("Terutangnya pajak terjadi pada saat: ...", "sejak berakhirnya Masa
Pajak") and the index matches whole words: a question's "terutang" found no UU PPN Pasal 11.  The search asks
for the nominalised form beside the verb (session 58, a probe of our own; check a128 gained with it)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from bot.wiring import search_filter
from kb.query import fts_query, understand


def test_the_search_asks_the_nominalised_form() -> None:
    match = fts_query(understand("Kapan PPN atas penyerahan jasa terutang?"))
    assert '"terutang"' in match and '"terutangnya"' in match
    # only ter-/ber- states: a noun or a di- verb takes no "-nya" here
    assert '"jasanya"' not in match and '"penyerahannya"' not in match


def test_the_moment_tax_becomes_due_is_found(services: Any) -> None:
    flt = search_filter(services.cli_principal(None), dt.date(2026, 12, 1))
    result = services.retriever.search("Kapan PPN atas penyerahan jasa terutang?", flt, top_k=10)
    found = [h.chunk.id for h in result.results]
    assert any(cid.startswith("uu-42-2009#") and "/pasal-11" in cid for cid in found), found
