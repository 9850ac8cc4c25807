"""A provision extending another one's rule to parties the question does not name ("Kewajiban mendaftarkan
diri sebagaimana dimaksud pada ayat (1) berlaku pula terhadap wanita kawin ...", PP 50/2022 Pasal 2 ayat (4))
yields to the rule itself.  Session 57: "Siapa yang wajib mendaftarkan diri untuk memperoleh NPWP?" was
answered with the married women who need not register."""

from __future__ import annotations

import datetime as dt
from typing import Any

from bot.answer.extractive import extends_to_unasked
from tests.answer.chunk_sample import anonymous_answer

EXTENSION = (
    "(4) Kewajiban mendaftarkan diri sebagaimana dimaksud pada ayat (1) berlaku pula terhadap wanita kawin "
    "yang dikenai pajak secara terpisah karena:"
)


def test_an_extension_to_unasked_parties() -> None:
    assert extends_to_unasked("Siapa yang wajib mendaftarkan diri untuk memperoleh NPWP?", EXTENSION)
    # the question names the party the rule is extended to: the extension answers it
    assert not extends_to_unasked("Apakah wanita kawin wajib mendaftarkan diri?", EXTENSION)
    assert not extends_to_unasked("Siapa yang wajib mendaftarkan diri?", "(1) Setiap Wajib Pajak wajib ...")


def test_the_case_of_an_extension_opening_a_provision() -> None:
    # session 65: PP 50/2022 Pasal 2 ayat (5), read as an ayat of its own since a watermark no longer hides
    # its marker, led the question on who must register
    case = (
        "(5) Dalam hal wanita kawin yang dikenai pajak secara terpisah sebagaimana dimaksud pada ayat (4) "
        "telah memiliki Nomor Pokok Wajib Pajak sebelum kawin, wanita kawin tersebut tidak perlu mendaftarkan"
        " diri"
    )
    assert extends_to_unasked("Siapa yang wajib mendaftarkan diri untuk memperoleh NPWP?", case)
    assert not extends_to_unasked("Wanita kawin yang sudah punya NPWP perlu mendaftar lagi?", case)
    # a case of the question's own party stays an answer
    own = "(2) Dalam hal Wajib Pajak sebagaimana dimaksud pada ayat (1) tidak menyampaikan Surat"
    assert not extends_to_unasked("Apa sanksi Wajib Pajak yang tidak menyampaikan Surat Pemberitahuan?", own)


def test_who_must_register_is_not_answered_by_the_extension(services: Any) -> None:
    answer = anonymous_answer(
        services, "Siapa yang wajib mendaftarkan diri untuk memperoleh NPWP?", as_of=dt.date(2026, 12, 1)
    )
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert "ayat (4)" not in lead.source.location
    assert "wanita kawin" not in lead.quote
    assert "wajib mendaftarkan diri" in lead.quote


CARVE_OUT = (
    "(6) Jasa pendidikan yang dibebaskan dari pengenaan Pajak Pertambahan Nilai sebagaimana dimaksud pada "
    "ayat (1) tidak termasuk jasa pendidikan yang menjadi satu kesatuan yang tidak terpisahkan dengan "
    "penyerahan barang dan/atau jasa lain."
)


def test_a_carve_out_of_unasked_cases() -> None:
    assert extends_to_unasked("Apakah jasa pendidikan dikenai PPN?", CARVE_OUT)
    # the question names the carved-out case: the carve-out answers it
    assert not extends_to_unasked(
        "Apakah jasa pendidikan yang satu kesatuan dengan penyerahan barang kena PPN?", CARVE_OUT
    )


def test_education_is_answered_by_the_exemption(services: Any) -> None:
    answer = anonymous_answer(services, "Apakah jasa pendidikan dikenai PPN?", as_of=dt.date(2026, 12, 1))
    assert answer.status == "answered"
    assert "tidak termasuk" not in answer.claims[0].quote
    assert answer.claims[0].source.location == "Pasal 16 ayat (1)"
    assert "dibebaskan dari pengenaan Pajak Pertambahan Nilai" in answer.answer
