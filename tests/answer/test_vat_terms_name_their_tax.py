"""A passage in the VAT acts' own terms is about PPN, though it names no tax.

"Kalau telat setor PPh 21, sanksinya apa?" was led by UU KUP Pasal 14 ayat (4) -- "Terhadap pengusaha atau
Pengusaha Kena Pajak ... dikenai sanksi administratif berupa denda sebesar 1% (satu persen) dari Dasar
Pengenaan Pajak", the fine on a taxable entrepreneur's invoices -- over Pasal 9 ayat (2a)'s interest on a
payment made after its due date: both are UU KUP sanctions, both covered the question's words, and the fine
ranked higher. Naming "Pengusaha Kena Pajak" makes the fine a VAT rule, so the "other tax" feature of the
lead holds it back for a question on PPh 21. Session 68; the questions are our own."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from bot.answer.extractive import vat_terms_only
from tests.answer.chunk_sample import anonymous_answer

AS_OF = dt.date(2026, 12, 1)


@pytest.mark.parametrize(
    ("text", "taxes"),
    [
        (
            "Terhadap pengusaha atau Pengusaha Kena Pajak ... dikenai sanksi administratif berupa denda",
            {"PPN"},
        ),
        ("Faktur Pajak wajib dibuat pada saat penyerahan", {"PPN"}),
        ("Pajak Masukan dalam suatu Masa Pajak dikreditkan dengan Pajak Keluaran", {"PPN"}),
        ("atas penyerahan Barang Kena Pajak dan/atau Jasa Kena Pajak", {"PPN"}),
        ("Pembayaran atau penyetoran pajak ... dikenai sanksi administratif berupa bunga", set()),
        ("Penghasilan Kena Pajak bagi Wajib Pajak dalam negeri", set()),
    ],
)
def test_the_vat_acts_terms_name_vat(text: str, taxes: set[str]) -> None:
    assert vat_terms_only(text) == taxes


def test_a_late_income_tax_payment_is_answered_by_the_late_payment_interest(services: Any) -> None:
    answer = anonymous_answer(services, "Kalau telat setor PPh 21, sanksinya apa?", as_of=AS_OF)
    lead = answer.claims[0]
    assert lead.source.chunk_id.endswith("/pasal-9/ayat-2a")
    assert "setelah tanggal jatuh tempo pembayaran atau penyetoran pajak" in " ".join(lead.quote.split())
    assert "Pengusaha Kena Pajak" not in lead.quote


def test_a_late_vat_payment_is_still_answered_by_the_interest(services: Any) -> None:
    answer = anonymous_answer(services, "Kalau telat setor PPN sanksinya apa?", as_of=AS_OF)
    assert answer.status == "answered"
    assert answer.claims[0].source.chunk_id.endswith("/pasal-9/ayat-2a")
