"""A deadline question naming its act by a peN-an noun ("Kapan batas waktu pengajuan keberatan?") asks when
that act is due: the noun names the verb ("pengajuan" -> "mengajukan", "diajukan"), a limit named by that noun
("Batas waktu pengajuan surat keberatan ...") binds it, a verb in the rule's condition ("Dalam hal Wajib Pajak
mengajukan keberatan, jangka waktu pelunasan ...") does not, and a limit binding another act ("Direktur
Jenderal Pajak harus menyelesaikan keberatan ...", "jangka waktu pelunasan") is another party's time.
Session 57, a probe of our own: the question was answered with PP 50/2022 Pasal 33's 12 months, then with UU
KUP Pasal 25 ayat (7)'s one month."""

from __future__ import annotations

import datetime as dt
from typing import Any

from bot.answer.extractive import _asked_verbs, deadline_of_asked_act, deadline_of_other_act
from bot.answer.pipeline import answer_question
from tests.answer.chunk_sample import anonymous_answer

Q = "Kapan batas waktu pengajuan keberatan?"
ELUCIDATION = (
    "Ayat (3) Batas waktu pengajuan surat keberatan ditentukan dalam waktu 3 (tiga) bulan sejak tanggal "
    "dikirim surat ketetapan pajak atau sejak tanggal pemotongan atau pemungutan pajak."
)
OFFICE = (
    "Direktur Jenderal Pajak harus menyelesaikan keberatan yang diajukan oleh Wajib Pajak dalam jangka waktu "
    "paling lama 12 (dua belas) bulan sebagaimana diatur dalam Pasal 26 ayat (1)."
)
SUSPENSION = (
    "(7) Dalam hal Wajib Pajak mengajukan keberatan, jangka waktu pelunasan pajak sebagaimana dimaksud dalam "
    "Pasal 9 ayat (3) atas jumlah pajak yang belum dibayar pada saat pengajuan keberatan, tertangguh sampai "
    "dengan 1 (satu) bulan sejak tanggal penerbitan Surat Keputusan Keberatan."
)


def test_the_noun_names_the_verb() -> None:
    assert {"mengaju", "diaju"} <= _asked_verbs(Q)
    assert {"membayar", "dibayar"} <= _asked_verbs("Kapan batas waktu pembayaran PPh 21?")


def test_which_limit_binds_the_asked_act() -> None:
    assert deadline_of_asked_act(Q, ELUCIDATION)
    assert not deadline_of_other_act(Q, ELUCIDATION)
    assert not deadline_of_asked_act(Q, OFFICE)
    assert deadline_of_other_act(Q, OFFICE)
    assert not deadline_of_asked_act(Q, SUSPENSION)
    assert deadline_of_other_act(Q, SUSPENSION)
    # the verb after the condition's comma still binds ("Apabila ..., kerugian tersebut dikompensasikan ...")
    loss = (
        "(2) Apabila penghasilan bruto setelah pengurangan didapat kerugian, kerugian tersebut "
        "dikompensasikan dengan penghasilan mulai tahun pajak berikutnya berturut-turut sampai dengan "
        "5 (lima) tahun."
    )
    assert deadline_of_asked_act("Berapa lama kerugian fiskal boleh dikompensasikan?", loss)


def test_the_objection_deadline(services: Any) -> None:
    answer = anonymous_answer(services, Q, as_of=dt.date(2026, 12, 1))
    assert answer.status == "answered"
    assert "3 (tiga) bulan" in answer.claims[0].quote
    assert "3 (tiga) bulan" in answer.answer
    assert "12 (dua belas)" not in answer.answer and "1 (satu) bulan" not in answer.answer


def test_a_story_verb_is_no_asked_act() -> None:
    # the story's "dikirim" is not what the deadline is asked for: another verb's limit says nothing then
    story = "SKPKB kami dikirim tanggal 10 Februari. Sampai kapan kami boleh keberatan?"
    assert not deadline_of_other_act(story, OFFICE)


def test_a_moment_is_read_as_before(services: Any) -> None:
    # a rule that names the moment ("wajib dibuat ... pada saat penyerahan") is not read as its 3-month
    # length in the next ayat
    answer = anonymous_answer(
        services, "Faktur Pajak itu wajib diterbitkan kapan?", as_of=dt.date(2026, 12, 1)
    )
    assert answer.status == "answered"
    assert "pada saat penyerahan" in answer.answer


def test_a_light_verb_is_no_asked_act() -> None:
    # "dilakukan" names no act of its own (the lexicon's generic words): its subject is the act asked about
    verbs = _asked_verbs("Berapa lama pemeriksaan pajak dilakukan?")
    assert "dilaku" not in verbs and {"memeriksa", "diperiksa"} <= verbs
    appeal = (
        "(2) Dalam hal Wajib Pajak mengajukan permohonan banding, pelunasan atas jumlah pajak yang tidak "
        "disetujui harus dilakukan paling lama 1 (satu) bulan terhitung sejak tanggal penerbitan Putusan "
        "Banding."
    )
    assert not deadline_of_asked_act("Berapa lama pemeriksaan pajak dilakukan?", appeal)


def test_the_verb_before_the_limit_is_the_act_it_binds(services: Any) -> None:
    # "Bukti potong ... dibuat paling lambat akhir bulan" sets when the slip is made, not when the tax is paid
    slip = (
        "- Bukti potong PPh 21 bukan pegawai (BP21) dibuat paling lambat akhir bulan terjadinya pembayaran "
        "dan diberikan kepada penerima."
    )
    question = "Kapan batas waktu pembayaran PPh 21 yang dipotong?"
    assert deadline_of_other_act(question, slip)
    deposit = "PPh 21 disetor paling lambat tanggal 15 bulan berikutnya."
    assert not deadline_of_other_act(question, deposit)
    answer = answer_question(
        question,
        services.cli_principal("tax.lead@sinarnusantara.co.id"),
        services,
        as_of=dt.date(2026, 12, 1),
    )
    assert answer.status == "answered"
    assert "tanggal 15 bulan berikutnya" in answer.answer
    assert "akhir bulan terjadinya pembayaran" not in answer.answer


def test_a_light_verb_limits_its_subjects_act() -> None:
    # session 58: "pelunasan ... dilakukan paling lama 1 (satu) bulan" (PP 50/2022 Pasal 47 ayat (2)) limits
    # the payment, not the audit ("Hasil Pemeriksaan") its words name; "berapa lama <noun>" asks its span
    payment = (
        "(2) Dalam hal Wajib Pajak mengajukan permohonan banding, pelunasan atas jumlah pajak yang tidak "
        "disetujui Wajib Pajak dalam Pembahasan Akhir Hasil Pemeriksaan dan belum dibayar pada saat "
        "pengajuan keberatan dilakukan paling lama 1 (satu) bulan terhitung sejak tanggal penerbitan "
        "Putusan Banding."
    )
    assert deadline_of_other_act("Berapa lama pemeriksaan pajak dilakukan?", payment)
    assert not deadline_of_other_act("Berapa lama pelunasan pajak setelah banding?", payment)


def test_a_deadline_binding_another_act_is_declined_with_why(services: Any) -> None:
    # session 58: when a withholding slip is due to the vendor was answered with the petty-cash procedure's
    # day the tax is deposited ("disetor paling lambat tanggal 20"): that limit binds another act
    principal = services.cli_principal("tax.lead@sinarnusantara.co.id")
    answer = answer_question(
        "Kapan bukti potong PPh 23 harus diberikan ke vendor?",
        principal,
        services,
        as_of=dt.date(2026, 12, 1),
    )
    assert answer.status == "abstained"
    assert answer.escalation is not None and answer.escalation.reason == "no_source"
    assert "mengikat tindakan lain" in answer.answer
    assert "tanggal 20" not in answer.answer


def test_reporting_and_filing_a_return_are_one_duty() -> None:
    # "dilapor" asks the limit the acts write "penyampaian Surat Pemberitahuan" (session 58: the deadline
    # check above had declined a question on the annual return's deadline)
    filing = (
        "(3) Batas waktu penyampaian Surat Pemberitahuan adalah: c. untuk Surat Pemberitahuan Tahunan Pajak "
        "Penghasilan Wajib Pajak badan, paling lama 4 (empat) bulan setelah akhir Tahun Pajak."
    )
    assert not deadline_of_other_act("SPT Tahunan badan paling lambat dilapor kapan?", filing)
    assert deadline_of_other_act("Kapan bukti potong harus diberikan?", filing)


CORRECTION = (
    "(1a) Dalam hal pembetulan Surat Pemberitahuan sebagaimana dimaksud pada ayat (1) menyatakan rugi atau "
    "lebih bayar, pembetulan Surat Pemberitahuan harus disampaikan paling lama 2 (dua) tahun sebelum "
    "daluwarsa penetapan."
)


def test_the_noun_as_the_subject_of_the_limited_duty_binds_the_asked_act() -> None:
    # "pembetulan ... harus disampaikan paling lama": the correction is limited, though the verb is the
    # filing's (session 60, a probe of our own: UU KUP Pasal 8 ayat (1a) counted as another act's limit)
    question = "Berapa batas waktu pembetulan SPT?"
    assert deadline_of_asked_act(question, CORRECTION)
    assert not deadline_of_other_act(question, CORRECTION)
    # the office's duty is still another act's
    assert not deadline_of_asked_act(question, OFFICE)


def test_the_correction_deadline_leads(services: Any) -> None:
    answer = anonymous_answer(services, "Berapa batas waktu pembetulan SPT?", as_of=dt.date(2026, 12, 1))
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert lead.source.location.startswith("Pasal 8 ayat (1a)")
    assert "2 (dua) tahun sebelum daluwarsa penetapan" in lead.quote
