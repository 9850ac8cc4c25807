"""A list item's lead-in keeps the comma that closed the cross-reference dropped from it.

PMK 168/2023 Pasal 5 ayat (3) opens its list "Penghasilan yang diterima atau diperoleh Pegawai Tetap, baik
yang bersifat teratur maupun tidak teratur sebagaimana dimaksud pada ayat (1) huruf a, dapat berupa:". With
the cross-reference and its comma dropped, the support judge read "tidak teratur dapat berupa" as negating
"berupa", found the passage's "berupa" affirmed, and withheld every item as contradicted: a question on
overtime pay was then answered from the retry with the base of former employees' pay (session 71, a probe of
our own).
"""

from __future__ import annotations

from typing import Any

from bot.answer.extractive import _item_label
from guardrails.verify.lexical import LexicalSupportJudge
from tests.answer.chunk_sample import anonymous_answer

LEAD_IN = (
    "Penghasilan yang diterima atau diperoleh Pegawai Tetap, baik yang bersifat teratur maupun tidak "
    "teratur sebagaimana dimaksud pada ayat (1) huruf a, dapat berupa:"
)


def test_the_label_keeps_the_clause_break() -> None:
    label = _item_label(LEAD_IN)
    assert label is not None
    assert "maupun tidak teratur, dapat berupa:" in label
    assert "sebagaimana" not in label


def test_a_reference_without_a_comma_leaves_none() -> None:
    label = _item_label("Jasa lain sebagaimana dimaksud pada ayat (1) huruf c meliputi:")
    assert label == "Jasa lain meliputi:"


def test_the_item_under_its_label_is_supported_by_its_passage() -> None:
    item = "a. seluruh gaji, segala jenis tunjangan dan penghasilan teratur lainnya, termasuk uang lembur"
    claim = f"{_item_label(LEAD_IN)} {item}"
    assert LexicalSupportJudge().judge(claim, f"(3) {LEAD_IN}\n{item};").verdict == "entailed"


def test_overtime_pay_is_answered_by_the_list_that_names_it(services: Any) -> None:
    answer = anonymous_answer(services, "Apakah uang lembur pegawai kena PPh 21?")
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert (lead.source.doc_id, lead.source.location) == ("pmk-168-2023", "Pasal 5 ayat (3)")
    assert "termasuk uang lembur" in lead.quote
