"""A definition question searches the act's own "<term> adalah": in a definitions list of forty entries
that share words, the asked words alone rank a neighbour ("Surat Pemberitahuan Masa adalah ... Masa Pajak")
first."""

from __future__ import annotations

from typing import Any

import pytest

from kb.query import defined_term
from tests.answer.chunk_sample import anonymous_answer


@pytest.mark.parametrize(
    ("question", "term"),
    [
        ("Apa arti Tahun Pajak?", "tahun pajak"),
        ("tolong jelaskan pengertian Bukti Permulaan menurut KUP", "bukti permulaan"),
        ("apa yang dimaksud dengan Penanggung Pajak itu?", "penanggung pajak"),
        ("Apa itu Surat Paksa, dan kapan diterbitkan?", "surat paksa"),
        ("definisi pembukuan dalam UU KUP", "pembukuan"),
        # a stopword inside the term does not end it, a number stays in it
        ("Apakah yang dimaksud dengan Jasa Kena Pajak tidak berwujud itu?", "jasa kena pajak tidak berwujud"),
        ("Apa itu PPh 26?", "pph 26"),
        # the chat order, the term first
        ("NTPN itu apa?", "ntpn"),
        ("Kak, DPP tuh apa sih?", "dpp"),
        ("mau nanya dong, PKP itu artinya apa?", "pkp"),
        ("Faktur Pajak Pengganti itu apa?", "faktur pajak pengganti"),
        # who counts as the term (session 56): its definition says who
        ("Siapa saja yang termasuk pegawai tetap?", "pegawai tetap"),
        ("Who counts as a resident taxpayer?", "resident taxpayer"),
    ],
)
def test_the_asked_term_is_what_follows_the_asking_words(question: str, term: str) -> None:
    assert defined_term(question) == term


@pytest.mark.parametrize(
    "question",
    [
        "PPh 23 atas jasa konsultan IT dipotong berapa?",
        "what does PKP mean",
        # a list asked, a difference asked, a sentence: no term defined
        "Dokumen yang dibutuhkan itu apa saja?",
        "Bedanya SKPKB dan STP itu apa?",
        "Tarif PPh 23 yang berlaku untuk sewa mobil kantor di cabang kami itu apa?",
    ],
)
def test_no_term_without_a_definition_question(question: str) -> None:
    assert defined_term(question) is None


def test_who_counts_as_a_term_is_answered_by_its_definition(services: Any) -> None:
    answer = anonymous_answer(services, "Siapa saja yang termasuk pegawai tetap?")
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert lead.source.location.startswith("Pasal 1 angka")
    assert lead.quote.split(" ", 1)[1].startswith("Pegawai Tetap adalah")
