"""A rule bound to a tax procedure the asker is not in does not lead.  UU KUP sets a sanction per procedure in
the same words: "dikenai sanksi administrasi berupa bunga ... dihitung sejak jatuh tempo" is the sanction for
paying late (Pasal 9 ayat (2a)), and, under "Dalam hal Wajib Pajak membetulkan sendiri Surat Pemberitahuan",
the one after correcting a return (Pasal 8 ayat (2a)); a question about a late payment was answered with the
correction rule, and then with the bunga of an assessment (Pasal 13 ayat (2), "dalam Surat Ketetapan Pajak
Kurang Bayar").  The messages are our own (session 42)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from bot.answer.extractive import asked_procedures, procedure_unasked
from bot.answer.pipeline import answer_question

CORRECTION = (
    "Dalam hal Wajib Pajak membetulkan sendiri Surat Pemberitahuan Masa yang mengakibatkan utang pajak "
    "menjadi lebih besar, kepadanya dikenai sanksi administrasi berupa bunga"
)
LATE_PAYMENT = (
    "Pembayaran atau penyetoran pajak sebagaimana dimaksud pada ayat (1), yang dilakukan setelah tanggal "
    "jatuh tempo pembayaran atau penyetoran pajak, dikenai sanksi administratif berupa bunga"
)
CREDIT_UNLESS_AUDITED = (
    "dapat dikreditkan pada Masa Pajak berikutnya paling lama 3 (tiga) Masa Pajak setelah berakhirnya Masa "
    "Pajak saat faktur pajak dibuat sepanjang belum dibebankan sebagai biaya dan belum dilakukan pemeriksaan"
)


@pytest.mark.parametrize(
    ("question", "procedures"),
    [
        ("PPh 23 masa Mei telat disetor, sanksinya apa?", set()),
        ("kami mau pembetulan SPT Masa PPN, kurang bayar. sanksinya berapa?", {"correction"}),
        ("dapat SKPKB PPN, mau ajukan keberatan, batasnya kapan?", {"assessment", "objection"}),
        # an appeal is against an objection's decision on an assessment: its rules name both (session 55)
        ("kalau banding ditolak, dendanya berapa?", {"appeal", "objection", "assessment"}),
        ("boleh mengangsur utang pajak hasil pemeriksaan?", {"installment", "audit"}),
    ],
)
def test_the_procedures_a_question_names(question: str, procedures: set[str]) -> None:
    assert asked_procedures(question) == frozenset(procedures)


def test_a_rule_bound_to_a_procedure_not_asked_about() -> None:
    assert procedure_unasked(frozenset(), CORRECTION)
    assert not procedure_unasked(frozenset({"correction"}), CORRECTION)
    assert not procedure_unasked(frozenset(), LATE_PAYMENT)
    # a procedure the rule rules out, or one that has not happened yet, does not bind it
    assert not procedure_unasked(frozenset(), CREDIT_UNLESS_AUDITED)
    assert not procedure_unasked(
        frozenset(),
        "dikecualikan sebelum Direktur Jenderal Pajak menerbitkan surat ketetapan pajak atas dividen",
    )
    assert procedure_unasked(frozenset(), "Jumlah kekurangan pajak dalam Surat Ketetapan Pajak Kurang Bayar")
    # nor does a document being checked ("diperiksa") make an audit
    assert not procedure_unasked(frozenset(), "Dokumen diperiksa oleh staf AP sebelum vendor disetujui.")


def test_a_late_payment_is_answered_with_the_late_payment_sanction(services: Any) -> None:
    answer = answer_question(
        "PPh 23 masa Mei kami setor terlambat 2 bulan, sanksi bunganya dihitung bagaimana?",
        services.cli_principal(None),
        services,
        as_of=dt.date(2025, 8, 1),
    )
    assert answer.claims, answer.answer
    lead = answer.claims[0]
    assert lead.source.location.startswith("Pasal 9 ayat (2a) UU 6/1983"), lead.source.location
    assert "setelah tanggal jatuh tempo" in lead.quote and "membetulkan" not in lead.quote
