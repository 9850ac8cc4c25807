"""A rule of a chapter an act gives a levy of its own (PP 50/2022 BAB XIII, the carbon tax) holds for that
levy only.  Session 66: once PP 50/2022 Pasal 69 was read ayat by ayat, its ayat (6) ("Batas waktu
penyampaian Surat Pemberitahuan sebagaimana dimaksud pada ayat (5) adalah: ... paling lama 20 (dua puluh) hari
setelah akhir Masa Pajak", the carbon tax's returns) took the lead of a plain question on the return deadline
from UU KUP Pasal 3 ayat (3)."""

from __future__ import annotations

import dataclasses
import datetime as dt
from typing import Any

from bot.answer.extractive import chapter_levy_unasked
from kb.model import DocumentMeta, Hit
from tests.answer.chunk_sample import anonymous_answer, sample_chunk

CARBON_DEADLINE = dataclasses.replace(
    sample_chunk(
        "pp-50-2022",
        "pasal-69/ayat-6",
        "(6) Batas waktu penyampaian Surat Pemberitahuan sebagaimana dimaksud pada ayat (5) adalah: a. Surat "
        "Pemberitahuan Tahunan paling lama 4 (empat) bulan setelah akhir tahun kalender; atau",
        location="Pasal 69 ayat (6)",
        seq=1,
    ),
    prefix="PP 50/2022 | BAB XIII PELAKSANAAN HAK DAN PEMENUHAN KEWAJIBAN PAJAK KARBON | Pasal 69 ayat (6)",
)
DOC = DocumentMeta(id="pp-50-2022", title="PP 50/2022", number="50/2022", type="PP")


def test_a_rule_of_an_unasked_levys_chapter() -> None:
    hit = Hit(CARBON_DEADLINE, DOC, 1.0)
    assert chapter_levy_unasked("Berapa hari batas waktu penyampaian SPT Masa?", hit)
    # the question names the levy: its chapter's rules answer it
    assert not chapter_levy_unasked("Kapan batas SPT Masa pajak karbon?", hit)
    assert not chapter_levy_unasked("When is the carbon tax return due?", hit)
    # the levy named in the passage's heading only counts: a rule of a general chapter is no levy's
    general = Hit(dataclasses.replace(CARBON_DEADLINE, prefix="UU 28/2007 | Pasal 3 ayat (3)"), DOC, 1.0)
    assert not chapter_levy_unasked("Berapa hari batas waktu penyampaian SPT Masa?", general)


def test_the_return_deadline_is_the_general_rules(services: Any) -> None:
    answer = anonymous_answer(
        services, "Berapa hari batas waktu penyampaian SPT Masa?", as_of=dt.date(2026, 12, 1)
    )
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert lead.source.doc_id == "uu-28-2007"
    assert lead.source.location.startswith("Pasal 3 ayat (3)")
    assert "20 (dua puluh) hari setelah akhir Masa Pajak" in lead.quote
