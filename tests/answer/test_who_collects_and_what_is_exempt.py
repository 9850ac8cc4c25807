"""Who collects a tax is named by a list of collectors; income exempt from UU PPh is "dikecualikan dari objek
pajak".

"Who collects PPh 22 on imports?" was answered (0.82) with PMK 51/2025 Pasal 4 ayat (2) item a, an import
exempted when it bears 0% duty: the rule naming who collects ("Pemungutan ... atas impor barang dilaksanakan
dengan cara penyetoran oleh: a. importir ...; b. Direktorat Jenderal Bea dan Cukai", Pasal 6 ayat (1)) was no
"names the liable party" passage.  "Which income is exempt from income tax?" was answered with the same item:
the act's word for it, "dikecualikan dari objek pajak", was never searched (the reviewed alias of "exempt" is
VAT's "dibebaskan").  Session 62; the questions are our own."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from bot.answer.extractive import NAMES_LIABLE
from kb.query import understand
from tests.answer.chunk_sample import anonymous_answer

AS_OF = dt.date(2026, 12, 1)


@pytest.mark.parametrize(
    "text",
    [
        "(1) Pemungut pajak sebagaimana dimaksud dalam Pasal 22 Undang-Undang Pajak Penghasilan , yaitu:",
        "Pemungutan Pajak Penghasilan Pasal 22 atas impor barang dilaksanakan dengan cara penyetoran oleh:",
    ],
)
def test_a_list_of_collectors_names_the_liable_party(text: str) -> None:
    assert NAMES_LIABLE.search(text)


def test_a_duty_done_by_a_party_in_a_sentence_names_no_list() -> None:
    assert not NAMES_LIABLE.search("Penyetoran dilakukan oleh Pemotong Pajak paling lambat tanggal 15.")


def test_the_import_collectors_answer_who_collects(services: Any) -> None:
    answer = anonymous_answer(services, "Who collects PPh 22 on imports?", as_of=AS_OF)
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert (lead.source.doc_id, lead.source.location) == ("pmk-51-2025", "Pasal 6 ayat (1)")
    assert "Direktorat Jenderal Bea dan Cukai" in lead.quote or "importir" in lead.quote


@pytest.mark.parametrize(
    "question", ["Which income is exempt from income tax?", "Is scholarship income exempt from income tax?"]
)
def test_exempt_income_searches_the_acts_exclusion(question: str) -> None:
    added = {a.lower() for e in understand(question).expansions for a in e.added}
    assert "dikecualikan dari objek pajak" in added


def test_exempt_income_is_no_import_duty(services: Any) -> None:
    answer = anonymous_answer(services, "Which income is exempt from income tax?", as_of=AS_OF)
    assert answer.claims
    assert answer.claims[0].source.doc_id != "pmk-51-2025"
    assert "dikecualikan dari objek" in answer.answer
