"""A deadline question that asks how long ("berapa lama ...?") is answered with the period the rule states
("disimpan selama 10 (sepuluh) tahun", "dalam jangka waktu 3 (tiga) bulan sejak ..."), called a period, not
a deadline; "kapan ...?" still wants a point in time ("paling lambat tanggal 15 ...")."""

from __future__ import annotations

import datetime as dt
from typing import Any

from bot.answer.extractive import states_fact
from bot.answer.pipeline import answer_question
from bot.answer.render import answer_line
from tests.answer.test_user_reads import claim


def test_a_period_in_months_or_years_states_a_time_limit_but_a_tax_year_does_not() -> None:
    objection = "Keberatan harus diajukan dalam jangka waktu 3 (tiga) bulan sejak tanggal dikirim surat"
    assert states_fact("deadline", objection)
    assert states_fact("deadline", "wajib disimpan selama 10 (sepuluh) tahun di Indonesia")
    assert not states_fact("deadline", "untuk 1 (satu) Tahun Pajak atau bagian Tahun Pajak")


def test_how_long_is_answered_with_the_period_and_when_with_the_deadline(hashing_services: Any) -> None:
    keep = claim(hashing_services, "pp-50-2022", "10 (sepuluh) tahun", at="Pasal 11")
    line = answer_line([keep], "id", "Berapa lama dokumen pembukuan wajib disimpan?")
    assert line == "Menurut PP 50/2022, jangka waktunya 10 (sepuluh) tahun di Indonesia [1]."
    # "kapan" asks a point in time: a period is no deadline, so the line quotes the rule itself
    line = answer_line([keep], "id", "Kapan dokumen pembukuan boleh dimusnahkan?")
    assert "jangka waktunya" not in line and "batas waktunya" not in line
    assert line.startswith("Menurut PP 50/2022: Buku, catatan, dan dokumen")


def test_bookkeeping_retention_is_in_scope_and_answered(services: Any) -> None:
    answer = answer_question(
        "Berapa lama kami wajib menyimpan dokumen pembukuan?",
        services.cli_principal(None),
        services,
        as_of=dt.date(2024, 6, 1),
    )
    assert answer.status == "answered"  # was escalated as out of scope: "pembukuan" named no tax topic
    lead = answer.claims[0]
    assert (lead.source.doc_id, lead.source.location) == ("pp-50-2022", "Pasal 11")
    assert "wajib disimpan selama 10 (sepuluh) tahun" in lead.quote
    assert answer.answer.startswith("Menurut PP 50/2022, jangka waktunya 10 (sepuluh) tahun")


def test_a_time_limit_ends_where_its_condition_begins(hashing_services: Any) -> None:
    # UU PPN Pasal 9 ayat (9) runs on for 300 characters after "paling lama": the limit is stated before
    # "sepanjang ...", and the law's limit answers, not a company intake cut-off quoted beside it
    law = claim(
        hashing_services,
        "uu-7-2021",
        "paling lama 3 (tiga) Masa Pajak setelah berakhirnya",
        at="Pasal 9 ayat (9)",
    )
    line = answer_line(
        [law], "id", "Pajak masukan yang belum dikreditkan bisa dikreditkan paling lama kapan?"
    )
    assert line == (
        "Menurut UU 7/2021, batas waktunya paling lama 3 (tiga) Masa Pajak setelah berakhirnya Masa "
        "Pajak saat Faktur Pajak dibuat [1]."
    )


def test_a_sentence_with_dated_alternatives_answers_with_the_one_in_force(hashing_services: Any) -> None:
    # "Untuk Masa Pajak 2024 ... tanggal 10 ...; mulai Masa Pajak Januari 2025 ... tanggal 15."
    row = claim(hashing_services, "wht-matrix-2024", "mulai Masa Pajak Januari 2025")
    late = answer_line([row], "id", "Setor PPh 23 masa Oktober 2025 paling lambat tanggal berapa?")
    assert late == "Menurut SNR-POL-TAX-003/2024, batas waktunya paling lambat tanggal 15 [1]."
    early = answer_line([row], "id", "Setor PPh 23 masa Mei 2024 paling lambat tanggal berapa?")
    assert (
        early == "Menurut SNR-POL-TAX-003/2024, batas waktunya paling lambat tanggal 10 bulan berikutnya [1]."
    )
