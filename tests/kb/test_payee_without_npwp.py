"""A payee without an NPWP is the acts' "Wajib Pajak yang tidak memiliki Nomor Pokok Wajib Pajak".

"gak punya NPWP" named only "NPWP" ("punya" and "gak" are function words), which every registration rule
covers: "Kalau vendor orang pribadi gak punya NPWP, PPh 21 nya gimana?" was answered with PP 50/2022's NIK
as NPWP. The reviewed alias ``gl-tanpa-npwp`` reads the asker's phrases as the acts' and searches the acts'
phrase, which the higher-rate rules (UU PPh Pasal 21 ayat (5a), Pasal 23 ayat (1a)) write. Session 68; the
questions are our own."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from kb.lexical import coverage, focus_word, question_concepts
from kb.query import understand
from tests.answer.chunk_sample import anonymous_answer

AS_OF = dt.date(2026, 12, 1)
HIGHER_RATE = (
    "Dalam hal Wajib Pajak yang menerima atau memperoleh penghasilan sebagaimana dimaksud pada ayat (1) "
    "tidak memiliki Nomor Pokok Wajib Pajak, besarnya tarif pemotongan ... lebih tinggi 100% (seratus persen)"
)
REGISTRATION = (
    "Nomor Pokok Wajib Pajak bagi Wajib Pajak orang pribadi yang merupakan Penduduk menggunakan NIK"
)


@pytest.mark.parametrize(
    "question",
    [
        "Kalau vendor gak punya NPWP, PPh 23 nya berapa?",
        "Vendor tanpa NPWP dipotong PPh 23 berapa?",
        "What is the PPh 23 rate if the vendor has no NPWP?",
        "penerima honor belum punya NPWP gimana?",
    ],
)
def test_a_payee_without_an_npwp_is_the_acts_phrase(question: str) -> None:
    plan = understand(question)
    assert any(e.source == "aliases.yaml:gl-tanpa-npwp" for e in plan.expansions)
    assert "tidak memiliki nomor pokok wajib pajak" in plan.terms
    npwp = [c for c in question_concepts(plan, question) if any("npwp" in p for p in c)]
    assert npwp and coverage(npwp, HIGHER_RATE) == 1.0
    assert coverage(npwp, REGISTRATION) == 0.0


def test_a_payee_with_an_npwp_is_not_read_as_one_without() -> None:
    plan = understand("Vendor sudah punya NPWP, PPh 23 nya berapa?")
    assert all(e.source != "aliases.yaml:gl-tanpa-npwp" for e in plan.expansions)


def test_the_higher_rate_answers_a_payee_without_an_npwp(services: Any) -> None:
    answer = anonymous_answer(services, "Vendor tanpa NPWP dipotong PPh 23 berapa?", as_of=AS_OF)
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert lead.source.chunk_id.endswith("/pasal-23/ayat-1a")
    assert "100%" in lead.quote


@pytest.mark.parametrize(
    "question",
    ["Bagaimana kalau penerimanya tidak memiliki NPWP?", "Gimana kalau vendornya tidak punya NPWP?"],
)
def test_the_payee_is_a_party_of_the_case_not_the_thing_asked(question: str) -> None:
    # "penerimanya" had been the focus a passage must name; UU PPh Pasal 23 ayat (1a) writes "Wajib Pajak yang
    # menerima", so the part asking it was declined once "tidak memiliki NPWP" was one concept
    assert focus_word(question) is None
