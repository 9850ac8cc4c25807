"""The rule whose bound decides the asker's amount leads, whichever side of the bound the amount is on.

"kwitansi ... nilainya Rp 4.600.000, harus pake meterai gak?" was answered with UU Bea Meterai Pasal 3's item
"b. Dokumen yang digunakan sebagai alat bukti di pengadilan"; the item that decides it is "g. Dokumen yang
menyatakan jumlah uang dengan nilai nominal lebih dari Rp5.000.000,00", which the receipt does not reach.
Questions are our own, written against the sample corpus (never taken from an eval set).
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from bot.answer.extractive import bound_near, question_amounts
from bot.answer.pipeline import answer_question

ITEM_G = (
    "g. Dokumen yang menyatakan jumlah uang dengan nilai nominal lebih dari Rp5.000.000,00 "
    "(lima juta rupiah) yang: 1. menyebutkan penerimaan uang; atau"
)


def test_the_amounts_a_question_states_as_its_case() -> None:
    assert question_amounts("kwitansi nilainya Rp 4.600.000, perlu meterai?") == (Decimal("4600000"),)
    assert question_amounts("gaji 6,5jt/bln dapat insentif?") == (Decimal("6500000.0"),)
    # an amount the question places at a bound is read by bound_side, not here
    assert question_amounts("omzet sudah melebihi Rp4.800.000.000, masih boleh 0,5%?") == ()
    assert question_amounts("tarif PPh 23 jasa teknik berapa?") == ()
    # a period's figure has a unit beside its kind and value (the first draft failed on "2 tahun")
    period_and_amount = "kontrak sewa 2 tahun senilai Rp 4.000.000 perlu meterai?"
    assert question_amounts(period_and_amount) == (Decimal("4000000"),)
    assert bound_near((Decimal("4000000"),), "jangka waktu lebih dari 2 (dua) tahun") == 0.0


def test_a_bound_near_the_amount_is_found_on_either_side() -> None:
    assert bound_near((Decimal("4600000"),), ITEM_G) == 1.0
    assert bound_near((Decimal("6000000"),), ITEM_G) == 1.0
    # a hundred times the bound is another rule's case; an amount that is no bound decides nothing
    assert bound_near((Decimal("460000000"),), ITEM_G) == 0.0
    assert (
        bound_near((Decimal("4600000"),), "Bea Meterai dikenakan dengan tarif tetap sebesar Rp10.000,00")
        == 0.0
    )
    assert bound_near((), ITEM_G) == 0.0


def test_a_receipt_under_the_threshold_is_answered_by_the_threshold_item(services: Any) -> None:
    question = "guys, kwitansi bayar ke vendor snack kantor nilainya Rp 4.600.000, harus pake meterai gak ya?"
    answer = answer_question(question, services.cli_principal(None), services, as_of=dt.date(2026, 6, 1))
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert lead.source.doc_id == "uu-10-2020" and lead.source.location == "Pasal 3"
    assert "nilai nominal lebih dari Rp5.000.000,00" in lead.quote
    assert "alat bukti di pengadilan" not in answer.answer
    assert 'Nilai Rp 4.600.000 tidak memenuhi batas "lebih dari Rp5.000.000,00"' in answer.answer
