"""VAT on a down payment is answered from the rules on payments received before delivery.

UU PPN states when VAT on a down payment is due (Pasal 11 ayat (2): "Dalam hal pembayaran diterima
sebelum penyerahan ...") and when its Faktur Pajak is made (Pasal 13 ayat (1a) huruf b: "saat penerimaan
pembayaran dalam hal penerimaan pembayaran terjadi sebelum penyerahan") without the words "uang muka";
probes of our own (session 53) were answered with PMK 54/2025's definition of a treasurer's "uang muka
kerja" and with the invoice for a sale of assets.  Lexicon ``search_words`` reads "uang muka" / "down
payment" / "advance payment" as those phrases.  A runner-up that is a transitional clause ("Pada saat
Peraturan Pemerintah ini mulai berlaku, ... 30 (tiga puluh) hari") no longer replaces the top rule for
stating a time limit: it states the change-over's.
"""

from __future__ import annotations

from typing import Any

from tests.answer.chunk_sample import anonymous_answer


def test_a_down_payment_invoice_is_answered_with_the_moment_of_payment(services: Any) -> None:
    answer = anonymous_answer(services, "Apakah atas uang muka penjualan harus dibuat faktur pajak?")
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert lead.source.location.startswith("Pasal 13 ayat (1a)")
    assert "penerimaan pembayaran terjadi sebelum penyerahan" in lead.quote


def test_a_transitional_clause_does_not_answer_when_the_invoice_is_due(services: Any) -> None:
    question = "Kalau terima uang muka dari pembeli sebelum barangnya dikirim, faktur pajaknya dibuat kapan?"
    answer = anonymous_answer(services, question)
    lead = answer.claims[0]
    assert lead.source.location.startswith("Pasal 13 ayat (1a)")
    assert "Pada saat Peraturan Pemerintah ini mulai berlaku" not in answer.answer
    assert "30 (tiga puluh) hari" not in answer.answer


def test_vat_on_a_down_payment_quotes_the_payment_before_delivery(services: Any) -> None:
    # until session 63 this quoted PP 9/2021's restatement of PP 1/2012 Pasal 17 ayat (2) ("Dalam hal
    # pembayaran diterima sebelum penyerahan ..."), which PP 44/2022 revoked on 2 December 2022; UU PPN states
    # the same in Pasal 11 ayat (2) and, for the invoice, Pasal 13 ayat (1a) huruf b
    answer = anonymous_answer(services, "uang muka dari customer sudah kena PPN belum?")
    assert "Uang Persediaan" not in answer.answer
    lead = answer.claims[0]
    assert lead.source.doc_id != "pp-9-2021"
    assert "sebelum penyerahan" in lead.quote and "pembayaran" in lead.quote
