"""What the law says leads; a company document is how the company applies it.  When a company document
states a rate that the law in the knowledge base states differently for the same subject, the law's provision
is found (asked in the law's own words) and leads, and the conflict is said."""

from __future__ import annotations

import datetime as dt
from typing import Any

from bot.answer import conflicts
from bot.answer.model import Answer, ShownClaim, SourceRef
from bot.answer.pipeline import answer_question

AP = "ap.clerk@sinarnusantara.co.id"


def ask(services: Any, question: str, as_of: dt.date = dt.date(2026, 12, 2)) -> Answer:
    """The question asked by an AP clerk (who reads the company documents) on ``as_of``."""
    return answer_question(question, services.cli_principal(AP), services, as_of=as_of)


def test_a_company_rate_is_put_to_the_law_in_the_laws_words(services: Any) -> None:
    docs = services.retriever.documents()
    answer = ask(
        services,
        "Berapa tarif PPh 23 untuk servis AC oleh CV yang dibayar lewat kas kecil?",
    )
    petty = "petty-cash-vendor-payments"
    sop = next(c for c in answer.claims if c.source.doc_id == petty and "4%" in c.quote)
    assert conflicts.rate_questions(sop, docs[sop.source.doc_id]) == ["Berapa tarif PPh 23 atas jasa?"]


def test_the_petty_cash_rate_is_not_confirmed_against_the_law(services: Any) -> None:
    answer = ask(
        services,
        "kasir kas kecil potong pph23 4% utk servis AC dr CV yg ada NPWP krn prosedur kas kecil, bener ga?",
    )
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert lead.source.doc_id == "uu-36-2008" and lead.source.location.startswith("Pasal 23 ayat (1)")
    assert "2% (dua persen)" in lead.quote and "jasa" in lead.quote
    assert any(c.source.doc_id == "petty-cash-vendor-payments" for c in answer.claims[1:])
    (conflict,) = [c for c in answer.conflicts if c.decided_by == "regulation_over_policy"]
    assert conflict.preferred == "uu-36-2008"
    assert {s.doc_id for s in conflict.sources} == {"uu-36-2008", "petty-cash-vendor-payments"}
    assert "4%" in answer.answer and "UU 36/2008" in answer.answer
    assert answer.answer.startswith("Menurut UU 36/2008, tarifnya 2%")


def test_a_payee_without_an_npwp_keeps_the_surcharge_rate(services: Any) -> None:
    # the law's general 2% is not the rate of a vendor without an NPWP (Pasal 23 ayat (1a): 100% higher)
    answer = ask(
        services,
        "vendor CV baru blm punya npwp, tagihan jasa maintenance genset. pph23 nya jd brp persen?",
    )
    assert not [c for c in answer.conflicts if c.decided_by == "regulation_over_policy"]
    assert "2%" not in answer.answer.split("[")[0] and "4%" in answer.answer


def test_a_company_rate_the_law_agrees_with_stays_the_answer(services: Any) -> None:
    # the 2024 matrix states the law's 2% for services: nothing conflicts, the company document still leads
    answer = ask(
        services,
        "Menurut matriks pemotongan 2024, tarif PPh 23 jasa konsultan berapa?",
        dt.date(2024, 6, 1),
    )
    assert answer.status == "answered"
    assert answer.claims[0].source.doc_id == "wht-matrix-2024" and "2%" in answer.claims[0].quote
    assert not answer.conflicts


def test_a_company_payment_day_later_than_the_law_allows_loses_to_it(services: Any) -> None:
    # the petty-cash procedure's "disetor paling lambat tanggal 20" is later than the law's ceiling of 15 days
    # after the Masa ends, and the company's own tax calendar says the 15th
    answer = ask(
        services, "PPh 23 yang dipotong kasir dari pembayaran kas kecil disetor paling lambat tanggal berapa?"
    )
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert lead.layer == "regulation" and lead.source.location.startswith("Pasal 9 ayat (1)")
    assert "15 (lima belas) hari setelah saat terutangnya pajak atau berakhirnya Masa Pajak" in lead.quote
    assert answer.answer.startswith(f"Menurut {lead.source.number}, batas waktunya paling lama 15")
    assert "tanggal 20 bulan berikutnya" in answer.answer and "yang berlaku" in answer.answer
    calendar = answer.claims[1]
    assert (
        calendar.source.doc_id == "tax-closing-calendar" and "tanggal 15 bulan berikutnya" in calendar.quote
    )
    law = next(c for c in answer.conflicts if c.decided_by == "regulation_over_policy")
    assert law.preferred == lead.source.doc_id
    assert {s.doc_id for s in law.sources} == {lead.source.doc_id, "petty-cash-vendor-payments"}
    assert law.sources[0].figures or law.sources[1].figures
    late = next(s for s in law.sources if s.doc_id == "petty-cash-vendor-payments")
    assert late.figures == ("tanggal 20 bulan berikutnya",)


def test_a_company_payment_day_within_the_law_stays_the_answer(services: Any) -> None:
    answer = ask(services, "Setor PPh 23 paling lambat tanggal berapa menurut kalender pajak?")
    assert answer.status == "answered"
    assert answer.claims[0].source.doc_id in ("tax-closing-calendar", "wht-matrix-2024")
    assert "tanggal 15" in answer.claims[0].quote
    # the matrix's day for Masa 2024 is not weighed against today's 15th; the petty-cash 20th loses to the
    # later tax calendar, and no law is needed to say so
    assert not [c for c in answer.conflicts if c.decided_by == "regulation_over_policy"]
    assert all("wht-matrix-2024" not in {s.doc_id for s in c.sources} for c in answer.conflicts)
    assert all(c.preferred != "petty-cash-vendor-payments" for c in answer.conflicts)


def test_payment_deadlines_read_days_ceilings_and_not_filing_columns(services: Any) -> None:
    docs = services.retriever.documents()
    answer = ask(services, "Setor PPh 23 paling lambat tanggal berapa menurut kalender pajak?")
    row = next(c for c in answer.claims if c.source.doc_id == "tax-closing-calendar")
    (day,) = conflicts.payment_deadlines(row, docs[row.source.doc_id])
    # the row's "Lapor paling lambat: tanggal 20" column is filing, not payment
    assert (day.day, day.ceiling) == (15, False) and {"PPh 23", "PPh 26"} <= day.taxes
    matrix = next(c for c in answer.claims if c.source.doc_id == "wht-matrix-2024")
    assert "Masa Pajak 2024" in matrix.quote
    assert conflicts.payment_deadlines(matrix, docs["wht-matrix-2024"]) == []


def test_crediting_without_an_invoice_loses_to_the_rule_that_requires_one(services: Any) -> None:
    # the petty-cash procedure lets input VAT on till receipts be credited without a tax invoice; the later
    # tax-invoice procedure allows crediting only with a valid invoice
    answer = ask(services, "Struk kas kecil ada PPN-nya, bisa langsung dikreditkan walau tanpa faktur pajak?")
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert lead.source.doc_id == "faktur-pajak-procedure"
    assert "hanya dapat dikreditkan bila faktur pajak" in lead.quote
    assert answer.answer.startswith("Menurut SNR-PRO-TAX-002")
    assert "SNR-PRO-FIN-007 menyebut dapat dikreditkan tanpa faktur pajak" in answer.answer
    (cf,) = [c for c in answer.conflicts if "petty-cash-vendor-payments" in {s.doc_id for s in c.sources}]
    assert (cf.preferred, cf.decided_by) == ("faktur-pajak-procedure", "later_effective_date")


def test_permission_and_restriction_are_read_from_the_words() -> None:
    def claim(quote: str) -> ShownClaim:
        source = SourceRef("d", "N", "T", "L", None, None, "in_force", None, False, "d#1")
        return ShownClaim(quote, quote, "policy", False, "entailed", source, "policy", 1.0)

    allowed = conflicts.permission(claim("Biaya ini dapat langsung dibebankan tanpa menunggu bukti potong."))
    assert allowed is not None and (allowed.verb, allowed.without) == ("dibebankan", "bukti")
    assert conflicts.restricts(claim("Biaya hanya dapat dibebankan jika bukti potong sudah terbit."), allowed)
    # another act, or a restriction on another thing, is no contradiction
    assert conflicts.restricts(claim("Biaya hanya dapat dikreditkan jika bukti potong ada."), allowed) is None
    assert conflicts.restricts(claim("Biaya hanya dapat dibebankan jika disetujui CFO."), allowed) is None
    assert conflicts.permission(claim("Faktur dapat dikreditkan pada Masa berikutnya.")) is None


def test_a_mark_up_is_a_price_term_not_a_rate_the_law_overrides(services: Any) -> None:
    docs = services.retriever.documents()
    answer = ask(services, "intercompany charge SNR ke SNL, mark-up nya berapa %?")
    assert answer.status == "answered"
    assert answer.claims[0].source.doc_id == "intercompany-services-policy" and "5%" in answer.answer
    assert not answer.conflicts and "UU 36/2008" not in answer.answer
    lead = answer.claims[0]
    assert {f.kind for f in conflicts.facts(lead, docs[lead.source.doc_id])} == {"other"}


def test_a_payment_day_is_not_weighed_under_a_filing_question(services: Any) -> None:
    # the petty-cash "disetor ... tanggal 20" is a payment day: under "when is it filed?" a conflict about it
    # would read as "filing is not the 20th"
    answer = ask(
        services, "SPT Masa PPh 23 atas pembayaran kas kecil dilaporkan paling lambat tanggal berapa?"
    )
    assert not [c for c in answer.conflicts if "petty-cash-vendor-payments" in {s.doc_id for s in c.sources}]
    assert "tanggal 20 bulan berikutnya [" not in answer.answer or "tetapi" not in answer.answer


def test_paying_and_filing_questions_are_told_apart() -> None:
    from bot.answer.pipeline import asks_payment_day

    assert asks_payment_day("PPh 23 kas kecil disetor paling lambat tanggal berapa?")
    assert asks_payment_day("When must PPh 23 be paid?")
    assert not asks_payment_day("SPT Masa PPh 23 dilaporkan paling lambat tanggal berapa?")
    assert not asks_payment_day("Berapa tarif PPh 23 atas pembayaran jasa?")  # not a deadline
