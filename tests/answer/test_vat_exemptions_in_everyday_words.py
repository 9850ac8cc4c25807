"""A regulation's scope clause lists what the act is about and states no rule ("Lingkup pengaturan dalam
Peraturan Pemerintah ini meliputi: a. Impor dan/atau Penyerahan Barang Kena Pajak tertentu ... yang
dibebaskan ..."), and staff write "catering" where UU PPN writes "jasa boga atau katering".  Before session
60 "Apakah jasa catering kena PPN?" was led by PP 49/2022 Pasal 2, its scope clause; UU PPN Pasal 4A ayat (3)
huruf q, the service not subject to VAT, ranked 12th.  "catering" is a word of the law's "katering" for
coverage (lexicon ``law_words``); as a search alias it moved other answers' lines.  "Sembako" is the acts'
"barang kebutuhan pokok" (alias ``gl-sembako``): "Apakah sembako kena PPN?" was answered at confidence 0.18
with a payment rule of PP 49/2022.  Questions are our own."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from bot.answer.extractive import SCOPE_CLAUSE
from kb import lexicon
from tests.answer.chunk_sample import anonymous_answer


@pytest.mark.parametrize(
    ("text", "scope"),
    [
        ("Pasal 2\nLingkup pengaturan dalam Peraturan Pemerintah ini meliputi:\na. Impor", True),
        ("Pasal 2\nRuang lingkup dalam Peraturan Menteri ini terdiri atas\nketentuan mengenai :", True),
        # a company policy's section names whom it binds
        ("## Ruang Lingkup\n\nProsedur ini mengatur pembayaran tunai dari kas kecil", False),
        # a rule that names its own act is no scope clause
        ("Jasa Kena Pajak tertentu yang dibebaskan dalam Peraturan Pemerintah ini meliputi:", False),
    ],
)
def test_a_scope_clause_is_told_from_a_rule(text: str, scope: bool) -> None:
    assert bool(SCOPE_CLAUSE.search(text)) is scope


def test_catering_is_the_acts_katering() -> None:
    assert {"katering", "jasa boga"} <= set(lexicon.default().law_words["catering"])


def test_catering_is_answered_by_the_service_not_subject_to_vat(services: Any) -> None:
    answer = anonymous_answer(services, "Apakah jasa catering kena PPN?", as_of=dt.date(2026, 12, 1))
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert lead.source.location.startswith("Pasal 4A ayat (3) huruf q")
    assert "jasa boga atau katering" in lead.quote
    assert "tidak dikenai Pajak Pertambahan Nilai" in answer.answer


@pytest.mark.parametrize("question", ["Apakah sembako kena PPN?", "Are staple foods subject to VAT?"])
def test_staple_foods_are_the_acts_basic_necessities(services: Any, question: str) -> None:
    answer = anonymous_answer(services, question, as_of=dt.date(2026, 12, 1))
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert lead.source.doc_id == "pp-49-2022" and lead.source.location.startswith("Pasal 6 ayat (2) huruf q")
    assert "barang kebutuhan pokok" in lead.quote
    assert "dibebaskan dari pengenaan Pajak Pertambahan Nilai" in answer.answer
