"""A passage of UU PPN is about PPN though it writes only "pajak" ("Terutangnya pajak terjadi pada saat: ...
c. penyerahan Jasa Kena Pajak", Pasal 11): a question's "PPN" is covered by it (kb.query.ACT_TAX_NAMES), in
the candidates' coverage and in the composer's.  Session 57: UU PPN Pasal 11 ranked 29th for "Kapan PPN atas
penyerahan jasa terutang?" behind passages that name the tax and answer nothing."""

from __future__ import annotations

import datetime as dt
from typing import Any

from bot.wiring import search_filter
from kb.query import act_tax_name


def test_the_act_names_its_tax() -> None:
    assert act_tax_name("UU 8/1983") == "Pajak Pertambahan Nilai"
    assert act_tax_name("UU 6/1983") == ""
    assert act_tax_name(None) == ""


def test_uu_ppn_pasal_11_covers_the_ppn_question(services: Any) -> None:
    flt = search_filter(services.cli_principal(None), dt.date(2026, 12, 1))
    pool = services.retriever.candidates("Kapan PPN atas penyerahan jasa terutang?", flt)
    pasal_11 = [cid for cid in pool.features if cid.startswith("uu-42-2009#") and cid.endswith("/pasal-11")]
    assert pasal_11, sorted(pool.features)[:20]
    assert pool.features[pasal_11[0]]["coverage"] == 1.0
