"""A limit question asks the bound of the thing it names ("Berapa batas *omzet* pengusaha kecil PPN?"): a
passage stating an amount that bounds something else answers no such question.  Before session 59 that
question was answered "Pembayaran di atas Rp5.000.000 wajib melalui AP ..." from the petty-cash procedure,
whose heading "Batas Pembayaran Kas Kecil" shared "batas" and "kecil"."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from bot.answer.extractive import asked_fact
from bot.answer.pipeline import answer_question
from kb.lexical import limited_word

TAX_LEAD = "tax.lead@sinarnusantara.co.id"


@pytest.mark.parametrize(
    ("question", "word"),
    [
        ("Berapa batas omzet pengusaha kecil PPN?", "omzet"),
        ("Batas maksimal pembayaran lewat kas kecil berapa?", "pembayaran"),
        ("batasnya brp utk PTKP?", "ptkp"),
        # a deadline, and a bound written after its noun, name no bounded thing here
        ("Kapan batas waktu lapor SPT Tahunan badan?", None),
        ("Omzet maksimal untuk PPh final 0,5% berapa?", None),
        ("Berapa tarif PPh 23 atas jasa teknik?", None),
        # "atas" is "on" as often as "upper": no head
        ("PPh atas dividen berapa persen?", None),
    ],
)
def test_the_bounded_thing_is_the_word_after_the_limit(question: str, word: str | None) -> None:
    assert limited_word(question) == word


def test_a_turnover_bound_is_asked_as_an_amount_not_the_regimes_rate() -> None:
    # "batas omzet UMKM utk PPh final brp?" was read as a rate question and answered "tarifnya 0,5%"
    assert asked_fact("batas omzet UMKM utk PPh final brp?") == "amount"
    assert asked_fact("PPh final UMKM brp?") == "rate"


def test_the_petty_cash_limit_does_not_answer_the_vat_threshold(services: Any) -> None:
    answer = answer_question(
        "Berapa batas omzet pengusaha kecil PPN?",
        services.cli_principal(TAX_LEAD),
        services,
        as_of=dt.date(2026, 12, 1),
    )
    assert "Rp5.000.000" not in answer.answer
    if answer.claims:
        assert answer.claims[0].source.doc_id != "petty-cash-vendor-payments"


def test_the_petty_cash_limit_still_answers_its_own_question(services: Any) -> None:
    answer = answer_question(
        "Lewat kas kecil, bayar jasa vendor paling besar sampai batas berapa per pembayaran?",
        services.cli_principal(TAX_LEAD),
        services,
        as_of=dt.date(2026, 12, 1),
    )
    assert answer.status == "answered"
    assert answer.claims[0].source.doc_id == "petty-cash-vendor-payments"
    assert "Rp5.000.000" in answer.answer


def test_the_turnover_bound_leads_over_the_rate_of_the_regime(services: Any) -> None:
    # PP 55/2022 Pasal 56 ayat (2) states the 0,5% the question quotes, Pasal 57 ayat (1) the bound asked
    # (its "peredaran brrto" and "linal" were mended in session 59's OCR repair, see its ocr_repairs.tsv)
    answer = answer_question(
        "Berapa batas peredaran bruto untuk PPh final 0,5%?",
        services.cli_principal(TAX_LEAD),
        services,
        as_of=dt.date(2026, 12, 1),
    )
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert (lead.source.doc_id, lead.source.location) == ("pp-55-2022", "Pasal 57 ayat (1)")
    assert "Rp4.800.000.000,00" in answer.answer
    # a rate charged on the turnover is no bound of it
    assert "1,2%" not in answer.answer and ".:" not in answer.answer


def test_an_opener_that_is_a_whole_sentence_is_not_followed_by_a_colon() -> None:
    from bot.answer.model import ShownClaim, SourceRef
    from bot.answer.render import _fact_sentence

    quote = (
        "(2) Tarif Pajak Penghasilan yang bersifat final sebagaimana dimaksud pada ayat (1) sebesar 0,5% "
        "(nol koma lima persen)."
    )
    source = SourceRef(
        "pp-55-2022", "PP 55/2022", "Penyesuaian Pengaturan PPh", "Pasal 56 ayat (2)", dt.date(2022, 12, 20),
        None, "in_force", None, False, "pp-55-2022#pasal-56/ayat-2",
    )  # fmt: skip
    item = ShownClaim(quote, quote, "regulation", False, "entailed", source)
    sentence = (
        "Atas penghasilan dari usaha ... dikenai Pajak Penghasilan yang bersifat final dalam jangka waktu."
    )
    line, _ = _fact_sentence(
        item, 1, "id", "amount", "batas omzet UMKM utk PPh final brp?", opener=(sentence, 2)
    )
    assert "jangka waktu. (2) Tarif" in line or "jangka waktu. Tarif" in line
    assert ".:" not in line
    lead_in = "Jenis jasa yang tidak dikenai Pajak Pertambahan Nilai meliputi:"
    line, _ = _fact_sentence(
        item, 1, "id", "amount", "batas omzet UMKM utk PPh final brp?", opener=(lead_in, 2)
    )
    assert "meliputi: " in line
