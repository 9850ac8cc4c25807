"""The job-expense limit (biaya jabatan) is answered from the ayat that states it.

Session 74, probes of our own on PMK 168/2023 Pasal 10:
- its ayat (2) ("Besarnya biaya jabatan sebagaimana dimaksud pada ayat (1) huruf a ditetapkan sebesar 5% ...
  paling banyak Rp6.000.000,00 ... setahun") was written "biayajabatan" by the PDF's text layer, so "Biaya
  jabatan maksimal berapa per bulan?" was escalated; ``scripts/ocr_repair.py``'s ``joined`` rule writes apart
  two words run together;
- "Berapa batas pengurangan biaya jabatan untuk pegawai tetap?" is led by ayat (1) huruf a ("a. biaya
  jabatan, sebagaimana diatur dalam Pasal 21 ayat (3) ..."), which names the deduction and states no figure;
  ayat (2) was not among the results.  The retriever now brings the passage stating the asked amount that
  refers to the best rule (``Retriever._with_referrer``, as for a rate, a time limit or a sanction), so the
  answer shows the limit.  (A lead feature preferring any figure for a limit question was tried and not kept:
  it let the petty-cash limit answer the VAT threshold, tests/answer/test_bound_of_the_asked_thing.py.)
"""

from __future__ import annotations

from typing import Any

from tests.answer.chunk_sample import anonymous_answer


def test_the_job_expense_limit_is_led_by_the_ayat_stating_it(services: Any) -> None:
    answer = anonymous_answer(services, "Biaya jabatan maksimal berapa per bulan?")
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert (lead.source.doc_id, lead.source.location) == ("pmk-168-2023", "Pasal 10 ayat (2)")
    assert "paling banyak Rp6.000.000,00" in lead.quote


def test_the_limit_of_a_deduction_named_by_reference_is_shown(services: Any) -> None:
    answer = anonymous_answer(services, "Berapa batas pengurangan biaya jabatan untuk pegawai tetap?")
    assert answer.status == "answered"
    stated = [
        c
        for c in answer.claims
        if (c.source.doc_id, c.source.location) == ("pmk-168-2023", "Pasal 10 ayat (2)")
    ]
    assert stated and "Rp6.000.000,00" in stated[0].quote
