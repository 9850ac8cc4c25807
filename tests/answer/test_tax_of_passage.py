"""Which tax a passage of the Income Tax Law is about: the article it is part of (session 37).

UU PPh names its withholding taxes by article ("PPh Pasal 23"), and the ayat of Pasal 23 name only the income
and the rate.  A rate asked of the final PPh 4(2) was led by Pasal 23's 2% for services because nothing told
the composer that the passage is PPh 23's.  Messages are our own.
"""

from __future__ import annotations

import dataclasses
import datetime as dt

from bot.answer.extractive import _own_text, asked_tax_names, lead_features, located_article
from bot.answer.protocol import ComposeRequest
from kb.lexical import coverage, question_concepts
from kb.model import DocumentMeta, Hit
from kb.query import understand
from tests.answer.chunk_sample import sample_chunk

TODAY = dt.date(2026, 12, 4)
AMENDMENT = DocumentMeta(
    id="uu-9-2030",
    title="Perubahan Keempat atas Undang-Undang Pajak Penghasilan",
    number="UU 9/2030",
    type="UU",
)
SERVICES_RATE = (
    "(1) Atas penghasilan tersebut di bawah ini dengan nama dan dalam bentuk apa pun yang dibayarkan ... "
    "dipotong pajak oleh pihak yang wajib membayarkan: ... c. sebesar 2% (dua persen) dari jumlah bruto atas "
    "imbalan sehubungan dengan jasa teknik, jasa manajemen, jasa konstruksi, jasa konsultan ..."
)


def _restated(pasal: str, ayat: str | None, law: str = "uu-7-1983") -> Hit:
    key = f"pasal-{pasal}" + (f"/ayat-{ayat}" if ayat else "")
    chunk = sample_chunk(
        AMENDMENT.id,
        f"pasal-I/angka-1/{key}",
        SERVICES_RATE,
        location=f"Pasal {pasal}" + (f" ayat ({ayat})" if ayat else ""),
        seq=1,
        pasal=pasal,
        ayat=ayat,
    )
    return Hit(dataclasses.replace(chunk, provision=f"{law}:{key}"), AMENDMENT, 1.0, ("bm25",))


def test_a_passage_of_the_income_tax_law_is_about_the_article_it_is_part_of() -> None:
    assert located_article(_restated("23", "1")) == {"PPh 23"}
    assert located_article(_restated("4", "2")) == {"PPh 4(2)"}
    # an article that names no withholding tax, another ayat of Pasal 4, another act's Pasal 23
    assert located_article(_restated("17", "1")) == set()
    assert located_article(_restated("4", "1")) == set()
    assert located_article(_restated("23", "1", law="uu-8-1983")) == set()


def test_the_final_tax_is_named_with_its_word_final() -> None:
    assert asked_tax_names("PPh final 4(2) atas sewa gudang brp persen?") == {"PPh 4(2)"}
    assert asked_tax_names("PPh Final Pasal 4 ayat (2) untuk bunga deposito berapa?") == {"PPh 4(2)"}


def test_pasal_23s_rate_is_another_tax_for_a_rate_asked_of_the_final_tax() -> None:
    hit = _restated("23", "1")
    for question, other in [
        ("bangun gudang pakai CV lokal, tarif PPh final 4(2) atas jasa konstruksi berapa?", 1.0),
        ("jasa konsultan teknik, PPh 23 nya brp persen?", 0.0),
    ]:
        request = ComposeRequest(question, "id", TODAY, understand(question), (hit,))
        assert lead_features(0, hit, 0.5, request)["other_tax"] == other


def test_another_acts_pasal_23_does_not_name_the_withholding_tax() -> None:
    """A passage of another act numbered "Pasal 23" that writes "pajak" and "penghasilan" somewhere is not
    about PPh 23 (session 54: "Apakah jasa cleaning service kena PPh 23?", a probe of our own, was answered
    with a VAT regulation's Pasal 23 on when an export of services is delivered)."""
    question = "Apakah jasa kebersihan gedung kena PPh 23?"
    concepts = question_concepts(understand(question), question, keep_named_refs=True, focus_ask=True)
    pph23 = [c for c in concepts if ("pph", "23") in c]
    assert pph23
    vat_act = DocumentMeta(id="pp-7-2031", title="Penerapan PPN", number="PP 7/2031", type="PP")
    vat_chunk = sample_chunk(
        vat_act.id,
        "pasal-23/ayat-10",
        "(10) Ekspor Jasa Kena Pajak terjadi pada saat Penggantian dicatat sebagai piutang atau penghasilan.",
        location="Pasal 23 ayat (10)",
        seq=1,
        pasal="23",
        ayat="10",
    )
    assert coverage(pph23, _own_text(Hit(vat_chunk, vat_act, 1.0, ("bm25",)))) == 0.0
    # UU PPh's own Pasal 23, restated by an amending act, is PPh 23; so is a text naming it shortly before
    assert coverage(pph23, _own_text(_restated("23", "1"))) == 1.0
    assert coverage(pph23, "Pajak Penghasilan sebagaimana dimaksud dalam Pasal 23 dipotong 2%.") == 1.0
