"""A question that names a company document is answered from the company's documents -- but a tax rate is set
by law and a company document only applies it.  When the company passage that would lead states no rate (a FAQ
saying the rates "stay the same" for "what rate?"), the regulation that states the rate leads instead.  A
company passage that states the rate keeps the lead, and what is the company's own (its schedules, its review
thresholds) is never taken from the law."""

from __future__ import annotations

import datetime as dt
from types import SimpleNamespace
from typing import Any

from bot.answer.extractive import ExtractiveComposer
from bot.answer.pipeline import _Run, answer_question
from bot.answer.protocol import ComposeRequest
from kb.model import DocumentMeta, Hit
from kb.query import understand
from tests.answer.chunk_sample import sample_chunk

ON = dt.date(2026, 12, 2)
#: a company FAQ on an identity change: it says the rates do not change, and states none
FAQ_TEXT = (
    "## Apakah format nomor identitas baru mengubah tarif potongan?\n\nTidak. Tarif pemotongan PPh 23 atas "
    "jasa konsultan tidak berubah; yang berubah hanya nomor identitas vendor di bukti potong."
)
#: a company matrix row that states the rate
ROW_TEXT = (
    "## Matriks Tarif\n\n| Jenis jasa | Pasal PPh | Tarif | Catatan |\n|---|---|---|---|\n"
    "| Jasa konsultan | PPh 23 | 2% | dari bruto |\n| Sewa kendaraan | PPh 23 | 2% | dari bruto |"
)
#: the law's rate for the same services
LAW_TEXT = (
    "(1) Atas imbalan jasa konsultan yang dibayarkan kepada Wajib Pajak dalam negeri dipotong Pajak "
    "Penghasilan Pasal 23 dengan tarif pemotongan sebesar 2% (dua persen) dari jumlah bruto."
)


def _hit(doc_id: str, doc_type: str, text: str, n: int, score: float) -> Hit:
    doc = DocumentMeta(id=doc_id, title=f"Dokumen {doc_id}", number=doc_id.upper(), type=doc_type)
    law = doc_type == "PP"
    chunk = sample_chunk(
        doc_id,
        f"bagian-{n}",
        text,
        kind="ayat" if law else "section",
        location="Pasal 3 ayat (1)" if law else "Tarif",
        seq=n,
        pasal="3" if law else None,
        ayat="1" if law else None,
    )
    return Hit(chunk, doc, score, ("bm25",))


def _lead(question: str, company: Hit, law: Hit) -> str:
    """The chunk that leads after the policy-named search kept company passages only."""
    composer = ExtractiveComposer()
    run = SimpleNamespace(question=question, composer=composer)
    request = ComposeRequest(question, "id", ON, understand(question), (company,))
    composed = composer.compose(request)
    final, _ = _Run._law_when_policy_silent(run, composed, request, (law, company))  # type: ignore[arg-type]
    return final.claims[0].source_chunk_id


def test_a_company_faq_stating_no_rate_gives_way_to_the_laws_rate() -> None:
    faq = _hit("faq-uji", "faq", FAQ_TEXT, 1, 0.9)
    law = _hit("pp-99-2030", "PP", LAW_TEXT, 2, 0.8)
    question = "Menurut matriks perusahaan, berapa tarif pemotongan PPh 23 atas jasa konsultan?"
    assert _lead(question, faq, law) == law.chunk.id


def test_a_company_row_stating_the_rate_keeps_the_lead() -> None:
    row = _hit("matriks-uji", "policy", ROW_TEXT, 1, 0.9)
    law = _hit("pp-99-2030", "PP", LAW_TEXT, 2, 0.8)
    question = "Menurut matriks perusahaan, berapa tarif pemotongan PPh 23 atas jasa konsultan?"
    assert _lead(question, row, law) == row.chunk.id


def test_a_company_schedule_question_is_not_answered_from_the_law() -> None:
    # not a rate: when the company pays is the company's own decision within the law
    faq = _hit("faq-uji", "faq", FAQ_TEXT, 1, 0.9)
    law = _hit("pp-99-2030", "PP", LAW_TEXT, 2, 0.8)
    question = "Menurut SOP internal, kapan tarif pemotongan PPh 23 jasa konsultan disetor?"
    assert _lead(question, faq, law) == faq.chunk.id


def test_a_reader_of_the_matrix_still_gets_its_row(services: Any) -> None:
    clerk = services.cli_principal("ap.clerk@sinarnusantara.co.id")
    answer = answer_question(
        "Sesuai matriks pajak perusahaan, PPh 23 untuk jasa konsultan itu berapa persen?",
        clerk,
        services,
        as_of=ON,
    )
    assert answer.status == "answered"
    assert answer.claims[0].source.doc_id == "wht-matrix-2024" and "2%" in answer.claims[0].quote
