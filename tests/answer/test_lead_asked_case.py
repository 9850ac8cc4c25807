"""The lead is the provision of the asker's case, not its neighbour (outside tester, 2026-12-02): the right
passage was retrieved and quoted, but the row or ayat beside it led.  General causes, each tested here on
passages written for the test:

* a condition the question rules out ("bukan ...", "selain ...", "other than ...") counted for a passage
  that states exactly that case;
* the annual return and a tax period (Tahunan vs Masa) have different deadlines and sanctions; a question
  about one was answered with the other's row;
* a table row is about what its first cell names; a row of the same table about another object led;
* a time limit named but not stated ("tidak ada ketentuan batas waktu") counted as stating the deadline;
* the lettered placeholder parties of the PMK attachments ("PT FQ", "Tuan WY") were not read as a worked
  example, so an example's 0,5% led a rate question.
"""

from __future__ import annotations

import datetime as dt

from bot.answer.extractive import (
    ExtractiveComposer,
    asked_period,
    is_padding,
    negated_conditions,
    negated_match,
    period_match,
    states_fact,
)
from bot.answer.protocol import ComposeRequest
from kb.model import Chunk, DocumentMeta, Hit
from kb.query import understand
from tests.answer.chunk_sample import sample_chunk

TODAY = dt.date(2026, 12, 2)


def _doc(doc_id: str = "pp-99-2030", layer_type: str = "PP") -> DocumentMeta:
    return DocumentMeta(id=doc_id, title="Peraturan Uji", number="PP 99/2030", type=layer_type)


def _chunk(text: str, n: int = 1, doc_id: str = "pp-99-2030", location: str = "Pasal 5") -> Chunk:
    return sample_chunk(
        doc_id, f"pasal-5/part-{n}", text, location=location, seq=n, parent_key="pasal-5", pasal="5"
    )


def _compose(question: str, *texts: str, doc: DocumentMeta | None = None) -> list[str]:
    doc = doc or _doc()
    hits = tuple(
        Hit(_chunk(t, i, doc.id), doc, 1.0 - 0.1 * i, ("bm25",)) for i, t in enumerate(texts, start=1)
    )
    composed = ExtractiveComposer().compose(ComposeRequest(question, "id", TODAY, understand(question), hits))
    return [c.quote for c in composed.claims]


# -- a condition the question rules out ------------------------------------------------------------------

GUDANG_RATES = (
    "(1) Tarif Pajak Penghasilan atas persewaan gudang adalah:\n"
    "a. 3% (tiga persen) dari jumlah bruto persewaan gudang selain gudang berpendingin yang disewakan "
    "oleh pengusaha logistik;\n"
    "b. 1% (satu persen) dari jumlah bruto persewaan gudang berpendingin yang disewakan oleh pengusaha "
    "logistik."
)


def test_the_words_after_bukan_or_selain_are_the_ruled_out_case() -> None:
    assert negated_conditions("beli kios, bukan gudang berpendingin, tarifnya berapa?") == (
        ("gudang", "berpendingin"),
    )
    # a word the asker's own case shares does not tell the excluded case apart
    assert negated_conditions("sewa gudang biasa, bukan gudang berpendingin, tarifnya berapa?") == (
        ("berpendingin",),
    )
    # the phrase stops where the question goes on to the tax and what it asks
    assert negated_conditions("honor bukan pegawai kena PPh 21 berapa?") == (("pegawai",),)
    assert negated_conditions("tarif PPh 23 sewa gudang berapa?") == ()


def test_a_passage_stating_the_ruled_out_case_counts_against_it() -> None:
    ruled_out = negated_conditions("sewa gudang biasa, bukan gudang berpendingin, tarifnya berapa?")
    excluded_too = "a. 3% dari jumlah bruto persewaan gudang selain gudang berpendingin;"
    stated = "b. 1% dari jumlah bruto persewaan gudang berpendingin;"
    assert negated_match(ruled_out, excluded_too) == 1.0
    assert negated_match(ruled_out, stated) == -1.0
    assert negated_match(ruled_out, "Tarif sewa kendaraan 2%.") == 0.0


def test_the_item_for_the_ruled_out_case_does_not_lead() -> None:
    # old: the 1% item led (it repeats "gudang berpendingin", two more of the question's words)
    quotes = _compose("sewa gudang, bukan gudang berpendingin, tarif PPh-nya berapa?", GUDANG_RATES)
    assert "3% (tiga persen)" in quotes[0]


def test_a_question_naming_the_case_still_gets_its_item() -> None:
    quotes = _compose("sewa gudang berpendingin, tarif PPh-nya berapa?", GUDANG_RATES)
    assert "1% (satu persen)" in quotes[0]


# -- Tahunan vs Masa --------------------------------------------------------------------------------------

RETURN_DEADLINES = (
    "(3) Batas waktu penyampaian Surat Pemberitahuan adalah:\n"
    "a. untuk Surat Pemberitahuan Masa, paling lama 25 (dua puluh lima) hari setelah akhir Masa Pajak;\n"
    "b. untuk Surat Pemberitahuan Tahunan koperasi, paling lama 5 (lima) bulan setelah akhir Tahun Pajak."
)


def test_the_period_a_question_is_about() -> None:
    assert asked_period("kapan batas SPT Tahunan koperasi?") == ("annual", True)
    assert asked_period("kapan batas lapor SPT Masa?") == ("masa", True)
    # a withheld tax is paid and reported per Masa; implied, it only counts against the annual return
    assert asked_period("PPh 23 telat setor, dendanya?") == ("masa", False)
    assert asked_period("tarif bea meterai berapa?") is None
    implied = asked_period("PPh 23 telat setor, dendanya?")
    assert period_match(implied, "setelah batas waktu penyampaian Surat Pemberitahuan Tahunan") == -1.0
    assert period_match(implied, "disetor paling lambat tanggal 15 bulan berikutnya") == 0.0


def test_an_annual_return_question_gets_the_annual_row() -> None:
    quotes = _compose("SPT Tahunan koperasi paling lambat kapan?", RETURN_DEADLINES)
    assert "5 (lima) bulan" in quotes[0]


def test_a_masa_question_gets_the_masa_row() -> None:
    quotes = _compose("SPT Masa koperasi paling lambat kapan?", RETURN_DEADLINES)
    assert "25 (dua puluh lima) hari" in quotes[0]


LATE_PAYMENT = (
    "(7) Pembayaran pajak yang dilakukan setelah tanggal jatuh tempo penyampaian Surat Pemberitahuan "
    "Tahunan dikenai sanksi administratif berupa bunga per bulan.",
    "(6) Pembayaran pajak yang dilakukan setelah tanggal jatuh tempo pembayaran dikenai sanksi "
    "administratif berupa bunga per bulan.",
)


def test_a_late_withholding_payment_is_not_answered_with_the_annual_return_variant() -> None:
    # old: the annual-return ayat led (first in rank, same words)
    quotes = _compose("PPh 23 terlambat dibayar, sanksi bunganya bagaimana?", *LATE_PAYMENT)
    assert quotes[0].startswith("(6)")


# -- a table row is about what its first cell names --------------------------------------------------------

APPROVALS = (
    "## Persetujuan\n\n"
    "| Jenis perubahan | Disiapkan oleh | Disetujui oleh |\n"
    "|---|---|---|\n"
    "| Penambahan gudang konsinyasi | Staf gudang | Kepala gudang (cek alamat rekening) |\n"
    "| Perubahan alamat penagihan | Staf AR | Controller |\n"
)


def test_the_row_named_by_the_question_leads() -> None:
    # old: the warehouse row led (it shares "rekening" in another cell and comes first)
    quotes = _compose(
        "perubahan alamat penagihan rekening, disetujui oleh siapa?", APPROVALS, doc=_doc("sop-ar-9", "SOP")
    )
    assert "Perubahan alamat penagihan" in quotes[0]


# -- a deadline is stated with its time ------------------------------------------------------------------


def test_naming_a_time_limit_is_not_stating_one() -> None:
    assert not states_fact("deadline", "tidak ada ketentuan batas waktu penyampaian Surat Pemberitahuan")
    assert states_fact("deadline", "batas waktu pelaporan adalah tanggal 20 bulan berikutnya")
    assert states_fact("deadline", "paling lama 4 (empat) bulan setelah akhir Tahun Pajak")


def test_a_passage_with_a_time_leads_a_deadline_question_over_one_naming_the_limit() -> None:
    quotes = _compose(
        "batas waktu lapor SPT Tahunan koperasi?",
        "(2) Dalam hal koperasi tidak wajib menyampaikan Surat Pemberitahuan Tahunan atau tidak ada "
        "ketentuan batas waktu penyampaian, laporan keuangan disimpan di kantor koperasi.",
        "(3) Surat Pemberitahuan Tahunan koperasi disampaikan paling lama 5 (lima) bulan setelah akhir "
        "Tahun Pajak.",
    )
    assert "5 (lima) bulan" in quotes[0]


# -- the lettered parties of a worked example -------------------------------------------------------------


def test_lettered_placeholder_parties_mark_a_worked_example() -> None:
    assert is_padding("PT QZ menjual barang melalui lokapasar dengan tarif 0,5% sebesar Rp500.")
    assert is_padding("Tuan KW menyampaikan surat pernyataan kepada penyelenggara.")
    assert not is_padding("PT Sinar Nusantara memotong PPh Pasal 23 sebesar 2%.")
    assert not is_padding("PT SNR memotong PPh Pasal 23 sebesar 2%.")  # the company's own abbreviation
    assert not is_padding("Pemungut memotong PPh 23 sebesar 2% (dua persen).")


# -- the answer line reads the claim's own item, not a sibling its quote runs through ----------------------

BAND_LEAD_IN = "Golongan tarif bulanan untuk pegawai tetap yang bekerja di kantor cabang terdiri atas:"
BAND_ITEM = (
    "b. golongan Q diterapkan atas penghasilan bruto bulanan yang diterima atau diperoleh pegawai tetap "
    "kantor cabang dengan status Penghasilan Tidak Kena Pajak:"
)
BAND_SIBLING = "1. tidak kawin dengan jumlah tanggungan sebanyak 2 (dua) orang;"
BAND_OWN = "kawin dengan jumlah tanggungan sebanyak 1 (satu) orang; atau"


def test_the_answer_line_states_the_item_the_claim_is_about() -> None:
    from bot.answer.render import answer_line
    from tests.answer.test_answer_line_fact import shown, statement

    # an item's quote runs from the lead-in through the siblings before it; the claim is its last item
    claim = shown(
        f"{BAND_LEAD_IN} {BAND_ITEM} {BAND_OWN}",
        f"{BAND_ITEM} {BAND_SIBLING} 2. {BAND_OWN}",
        "PP 99/2030",
        "Pasal 2 ayat (4)",
    )
    said = statement(answer_line([claim], "id", "pegawai cabang status K/1 masuk golongan apa?"))
    # old: "golongan Q ...: 1. tidak kawin dengan jumlah tanggungan sebanyak 2 (dua) orang" (the sibling)
    assert "golongan Q" in said
    assert said.endswith("kawin dengan jumlah tanggungan sebanyak 1 (satu) orang")
    assert "2 (dua)" not in said
    # the lead-in's end and the item, as the claim's text reads them (no "; atau" joining the next item)
    assert said.startswith("… ") and said[2:] in " ".join(claim.text.split())


def test_a_withheld_tax_implies_masa_only_for_paying_or_reporting_it() -> None:
    # the payee's slip is credited in its annual return: a question about the slip is about no period
    assert asked_period("bukti potong PPh 23 dari pelanggan belum diterima, bagaimana?") is None
    assert asked_period("PPh 23 terlambat disetor, sanksinya?") == ("masa", False)


def test_naming_only_the_asked_period_does_not_raise_a_passage() -> None:
    from bot.answer.extractive import lead_features

    question = "Berapa lama batas waktu penyampaian SPT Masa koperasi?"
    request = ComposeRequest(question, "id", TODAY, understand(question), ())
    doc = _doc()
    both = Hit(_chunk(RETURN_DEADLINES, 1), doc, 1.0, ("bm25",))
    masa_only = Hit(_chunk("(5) Pembetulan Surat Pemberitahuan Masa koperasi dilakukan.", 2), doc, 0.9, ())
    annual_only = Hit(_chunk(LATE_PAYMENT[0], 3), doc, 0.8, ())
    assert lead_features(0, both, 1.0, request)["period_match"] == 0.0
    # old: +1 for the passage naming Masa only, which outranked the Pasal that states the Masa deadline
    assert lead_features(1, masa_only, 1.0, request)["period_match"] == 0.0
    assert lead_features(2, annual_only, 1.0, request)["period_match"] == -1.0


# -- the asked action: "boleh dibayar?", "siapa yang menyetujui?" -------------------------------------------

SUPPLIER_FAQ = (
    "## Apakah kode pemasok lama masih bisa dipakai?\n\n"
    "Tidak untuk dokumen baru. Faktur, bukti potong, dan master data pemasok harus memakai kode pemasok "
    "12 karakter.\n"
    'Pemasok lama yang belum diperbarui ditandai "KODE-10" dan tidak dapat dibayar sampai datanya '
    "diperbarui."
)


def test_saying_whether_the_action_may_be_done_counts_more_than_naming_it() -> None:
    from bot.answer.extractive import action_match, asked_action
    from kb.lexical import question_concepts

    question = "pemasok masih pakai kode 10 karakter, boleh dibayar?"
    action = asked_action(question, question_concepts(understand(question), question, keep_named_refs=True))
    assert action is not None
    assert action_match(action, "Pemasok lama tidak dapat dibayar sampai datanya diperbarui.") == 1.5
    assert action_match(action, "Pembayaran kepada pemasok dicatat di buku kas.") == 1.0
    assert action_match(action, "Faktur harus memakai kode pemasok 12 karakter.") == 0.0


def test_a_may_we_question_is_led_by_the_sentence_saying_whether_we_may() -> None:
    # old: the "harus memakai" sentence led (an obligation cue and as many of the question's words)
    quotes = _compose(
        "pemasok masih pakai kode 10 karakter, boleh dibayar?", SUPPLIER_FAQ, doc=_doc("faq-kode-9", "FAQ")
    )
    assert "tidak dapat dibayar" in quotes[0]


def test_a_who_question_on_a_table_row_states_the_cell_of_that_action() -> None:
    from bot.answer.render import answer_line
    from tests.answer.test_answer_line_fact import shown

    row = shown(
        "Jenis perubahan: Perubahan alamat penagihan; Disiapkan oleh: Staf AR; Disetujui oleh: Controller",
        "| Perubahan alamat penagihan | Staf AR | Controller |",
        "SOP-AR-9",
        "Persetujuan",
        "policy",
    )
    line = answer_line([row], "id", "perubahan alamat penagihan, siapa yang menyetujui?")
    # old: "Jenis perubahan: Perubahan alamat penagihan" (the row's first cell: not who approves)
    assert (
        line
        == "Menurut SOP-AR-9: Jenis perubahan: Perubahan alamat penagihan; Disetujui oleh: Controller [1]."
    )
