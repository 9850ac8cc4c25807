"""A question about correcting a return reaches the rule that grants it.  UU KUP Pasal 8 ayat (1) writes
the right with the verb ("Wajib Pajak dengan kemauan sendiri dapat membetulkan Surat Pemberitahuan"), its
sanctions with the noun ("pembetulan"); the index matches whole words and the stemmer strips no prefix, so
"pembetulan" never reached ayat (1).  The messages are our own (session 42)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from kb.query import understand


def test_pembetulan_is_also_searched_as_the_acts_verb() -> None:
    plan = understand("boleh pembetulan SPT sendiri?")
    assert "membetulkan" in plan.terms
    assert any(e.term == "pembetulan" and e.added == ("membetulkan",) for e in plan.expansions)


def test_correcting_a_return_is_answered_with_the_right_to_correct(services: Any) -> None:
    from bot.answer.pipeline import answer_question

    answer = answer_question(
        "SPT Tahunan badan kami ternyata kurang bayar. "
        "Boleh pembetulan sendiri selama belum ada pemeriksaan?",
        services.cli_principal(None),
        services,
        as_of=dt.date(2025, 5, 20),
    )
    assert answer.claims, answer.answer
    lead = answer.claims[0]
    assert lead.source.location.startswith("Pasal 8 ayat (1) UU 6/1983"), lead.source.location
    assert "dengan kemauan sendiri dapat membetulkan Surat Pemberitahuan" in lead.quote
