"""The Pasal a tax type implies ("PPh 23" -> UU PPh Pasal 23) may fill the list like a Pasal written out: the
per-document cap must not keep the rates ayat out while the surcharge and exclusion ayat of the same act take
its two places (UU 36/2008 restates all of UU PPh, so it is one document)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from bot.answer.pipeline import answer_question

QUESTION = "Berapa tarif PPh 23 atas sewa kendaraan?"


@pytest.mark.parametrize("fixture", ["services", "hashing_services"])
def test_tax_type_rate_question_leads_with_the_rates_ayat(
    fixture: str, request: pytest.FixtureRequest
) -> None:
    svc: Any = request.getfixturevalue(fixture)
    answer = answer_question(QUESTION, svc.cli_principal(None), svc, as_of=dt.date(2024, 3, 1))
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert lead.source.doc_id == "uu-36-2008"
    assert lead.source.location.startswith("Pasal 23 ayat (1) ")
    assert "2% (dua persen) dari jumlah bruto atas" in lead.quote and "sewa" in lead.quote
    assert answer.answer.startswith("Menurut UU 36/2008, tarifnya 2% dari jumlah bruto [1].")
