"""The answer line states the part of the leading claim that carries the asked fact.

An outside user test found lines that printed a provision's long lead-in ("Atas penghasilan tersebut di
bawah ini ... dipotong pajak oleh pihak yang wajib membayarkan: …") while the claim's quote was the item
with the rate ("c. sebesar 2% ..."), and lines cut by the length limit before the sentence or clause that
answered ("Periode Formulir DGT paling lama 12 bulan", "Rp1.000.000,00 ... Wajib Pajak badan").  The line
now picks, within the quote, the sentence that states the asked kind of fact (else the one sharing most of
the question's words) and clips around it, so the fact is never cut; what it prints stays an exact piece of
the quote.  Texts below are the sample corpus's (UU 36/2008, UU 28/2007, PP 58/2023, SNR-POL-AP-001) unless
a test says it made one up.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from bot.answer.model import ShownClaim, SourceRef
from bot.answer.pipeline import answer_question
from bot.answer.render import answer_line

RENT_LEAD_IN = (
    "Atas penghasilan tersebut di bawah ini dengan nama dan dalam bentuk apa pun yang dibayarkan, disediakan "
    "untuk dibayarkan, atau telah jatuh tempo pembayarannya oleh badan pemerintah, subjek pajak badan dalam "
    "negeri, penyelenggara kegiatan, bentuk usaha tetap, atau perwakilan perusahaan luar negeri lainnya "
    "kepada Wajib Pajak dalam negeri atau bentuk usaha tetap, dipotong pajak oleh pihak yang wajib "
    "membayarkan:"
)
RENT_ITEM = (
    "sewa dan penghasilan lain sehubungan dengan penggunaan harta, kecuali sewa dan penghasilan lain "
    "sehubungan dengan penggunaan harta yang telah dikenai Pajak Penghasilan sebagaimana dimaksud dalam "
    "Pasal 4 ayat (2); dan"
)
RENT_QUOTE = f"c. sebesar 2% (dua persen) dari jumlah bruto atas: 1. {RENT_ITEM}"
RENT_TEXT = f"{RENT_LEAD_IN} c. sebesar 2% (dua persen) dari jumlah bruto atas: {RENT_ITEM}"

DGT_LEAD_IN = (
    "Vendor luar negeri (Wajib Pajak Luar Negeri, tanpa bentuk usaha tetap di Indonesia) wajib menyerahkan:"
)
DGT_ITEM = (
    "Formulir DGT yang diisi lengkap dan disahkan oleh pejabat berwenang di negara mitra P3B, bila vendor "
    "meminta tarif PPh 26 sesuai P3B. Dasar hukum: PMK 112/2025 (sebelumnya PER-25/PJ/2018). Periode "
    "Formulir DGT paling lama 12 bulan; AP mencatat tanggal kedaluwarsa di vendor master."
)

LATE_FILING = (
    "(1) Apabila Surat Pemberitahuan tidak disampaikan dalam jangka waktu sebagaimana dimaksud dalam Pasal 3 "
    "ayat (3) atau batas waktu perpanjangan penyampaian Surat Pemberitahuan sebagaimana dimaksud dalam "
    "Pasal 3 ayat (4), dikenai sanksi administrasi berupa denda sebesar Rp500.000,00 (lima ratus ribu "
    "rupiah) untuk Surat Pemberitahuan Masa Pajak Pertambahan Nilai, Rp100.000,00 (seratus ribu rupiah) "
    "untuk Surat Pemberitahuan Masa lainnya, dan sebesar Rp1.000.000,00 (satu juta rupiah) untuk Surat "
    "Pemberitahuan Tahunan Pajak Penghasilan Wajib Pajak badan serta sebesar Rp100.000,00 (seratus ribu "
    "rupiah) untuk Surat Pemberitahuan Tahunan Pajak Penghasilan Wajib Pajak orang pribadi."
)

TER_LEAD_IN = "Kategori tarif efektif bulanan terdiri atas:"
TER_ITEM = (
    "kategori A diterapkan atas penghasilan bruto bulanan yang diterima atau diperoleh penerima penghasilan "
    "dengan status Penghasilan Tidak Kena Pajak:"
)


def shown(
    text: str, quote: str, number: str, location: str = "Pasal 1", layer: str = "regulation"
) -> ShownClaim:
    doc_id = number.lower().replace(" ", "-").replace("/", "-")
    src = SourceRef(
        doc_id, number, number, location, dt.date(2009, 1, 1), None, "in_force", None, False, f"{doc_id}#1"
    )
    return ShownClaim(text, quote, layer, False, "supported", src, "direct", 1.0)


def statement(line: str) -> str:
    """What ``Menurut X: <statement> [n].`` quotes."""
    m = re.fullmatch(r"Menurut [^:]+: (.+) \[\d+\]\.", line)
    assert m, line
    return m.group(1)


def assert_quoted(said: str, quote: str) -> None:
    """Every piece the line prints between "…" marks is an exact (whitespace-normalised) piece of the quote,
    and every number in it is the quote's."""
    source = " ".join(quote.split())
    for piece in said.split("…"):
        if piece.strip():
            assert " ".join(piece.split()) in source, (piece, source)
    for number in re.findall(r"\d+(?:[.,]\d+)*", said):
        assert number in source, number


def test_a_berapa_question_on_a_long_lead_in_reads_the_rate_item() -> None:
    rent = shown(RENT_TEXT, RENT_QUOTE, "UU 36/2008", "Pasal 23 ayat (1)")
    line = answer_line([rent], "id", "sewa alat berat dipotong berapa?")
    said = statement(line)
    assert said.startswith("sebesar 2% (dua persen) dari jumlah bruto atas: 1. sewa dan penghasilan lain")
    assert "Atas penghasilan tersebut" not in line and said.endswith(" …")
    assert len(said) <= 222
    assert_quoted(said, RENT_QUOTE)
    # the tax named before what it is charged on asks its rate (session 52): the rate is read out
    line = answer_line([rent], "id", "pph sewa berapa?")
    assert line == "Menurut UU 36/2008, tarifnya 2% dari jumlah bruto [1]."


def test_a_chat_spelled_how_long_question_gets_the_period_of_a_later_sentence() -> None:
    dgt = shown(f"{DGT_LEAD_IN} {DGT_ITEM}", f"1. {DGT_ITEM}", "SNR-POL-AP-001", "Dokumen", "policy")
    line = answer_line([dgt], "id", "Formulir DGT dr vendor jepang berlakunya brp lama sih?")
    assert line == "Menurut SNR-POL-AP-001, batas waktunya paling lama 12 bulan [1]."


def test_the_sentence_sharing_the_questions_words_is_read_when_the_first_one_is_too_long() -> None:
    dgt = shown(f"{DGT_LEAD_IN} {DGT_ITEM}", f"1. {DGT_ITEM}", "SNR-POL-AP-001", "Dokumen", "policy")
    line = answer_line([dgt], "id", "Siapa yang mencatat tanggal kedaluwarsa Formulir DGT?")
    assert line == "Menurut SNR-POL-AP-001: AP mencatat tanggal kedaluwarsa di vendor master [1]."
    # a question sharing words with the first sentence reads it whole (no lead-in, no cut)
    said = statement(answer_line([dgt], "id", "vendor ini kena pph ga? dia dr luar"))
    assert said.startswith("Formulir DGT yang diisi lengkap") and "…" not in said
    assert "bila vendor meminta tarif PPh 26 sesuai P3B" in said
    assert_quoted(said, dgt.quote)


def test_the_clause_the_question_names_is_read_in_a_long_sentence() -> None:
    late = shown(LATE_FILING[4:], LATE_FILING, "UU 28/2007", "Pasal 7 ayat (1)")
    for question in (
        "Kalau SPT Tahunan badan terlambat disampaikan, bagaimana?",
        "PPN. trus kalo spt tahunan badan yg telat?",  # a later part of a message, with the earlier topic
    ):
        said = statement(answer_line([late], "id", question))
        assert said.startswith("… dan sebesar Rp1.000.000,00 (satu juta rupiah) untuk Surat Pemberitahuan")
        assert (
            "Rp1.000.000,00 (satu juta rupiah) untuk Surat Pemberitahuan Tahunan Pajak Penghasilan Wajib "
            "Pajak badan" in said
        )
        assert_quoted(said, LATE_FILING)


def test_a_lead_in_that_makes_the_sentence_too_long_gives_way_to_the_whole_item() -> None:
    ter = shown(
        f"{TER_LEAD_IN} a. {TER_ITEM} tidak kawin tanpa tanggungan;",
        f"a. {TER_ITEM} 1. tidak kawin tanpa tanggungan;",
        "PP 58/2023",
        "Pasal 2 ayat (4)",
    )
    line = answer_line([ter], "id", "TER bulanan untuk status TK/0 masuk kategori apa?")
    assert line == f"Menurut PP 58/2023: {TER_ITEM} 1. tidak kawin tanpa tanggungan [1]."


def test_a_figure_far_into_a_long_sentence_is_never_cut() -> None:
    """A made-up company rule whose percentage comes after 240 characters of conditions."""
    quote = (
        "Untuk pembelian barang dagangan dari pemasok dalam negeri yang belum terdaftar dalam daftar pemasok "
        "tetap perusahaan, yang nilai transaksinya melebihi batas persetujuan manajer pembelian, dan yang "
        "dibayar melalui rekening operasional cabang, dipungut Pajak Penghasilan sebesar 1,5% (satu "
        "koma lima persen) dari nilai pembelian, tidak termasuk Pajak Pertambahan Nilai."
    )
    rule = shown(quote, quote, "SNR-POL-TEST-001", "Pembelian", "policy")
    said = statement(answer_line([rule], "id", "pemungutannya berapa?"))
    assert "1,5% (satu koma lima persen) dari nilai pembelian" in said
    assert said.startswith("… ") and len(said) <= 230
    assert_quoted(said, quote)


def test_a_short_item_reads_with_the_end_of_its_lead_in() -> None:
    """A made-up provision: a long lead-in and a two-word item.  The item alone says nothing ("cabang
    perusahaan"); the line keeps the end of the lead-in before it, never a number the quote lacks."""
    lead_in = (
        "Bentuk usaha tetap adalah bentuk usaha yang dipergunakan oleh orang pribadi yang tidak bertempat "
        "tinggal di Indonesia atau badan yang tidak didirikan dan tidak bertempat kedudukan di Indonesia "
        "untuk menjalankan usaha atau melakukan kegiatan di Indonesia yang dapat berupa:"
    )
    branch = shown(f"{lead_in} b. cabang perusahaan;", "b. cabang perusahaan;", "UU 36/2008", "Pasal 2")
    said = statement(answer_line([branch], "id", "apa itu bentuk usaha tetap?"))
    assert said.startswith("… ") and said.endswith("yang dapat berupa: b. cabang perusahaan")
    assert said[2:] in " ".join(branch.text.split()) and len(said) <= 222
    # a lead-in tail that would bring in a number the quote does not state is left out
    numbered = shown(
        f"{lead_in.replace('di Indonesia untuk', 'di Indonesia dalam 183 hari untuk')} b. cabang perusahaan;",
        "b. cabang perusahaan;",
        "UU 36/2008",
        "Pasal 2",
    )
    assert answer_line([numbered], "id", "apa itu bentuk usaha tetap?") == (
        "Menurut UU 36/2008: cabang perusahaan [1]."
    )


def test_a_statement_that_fits_is_read_as_before() -> None:
    """The lead-in with its item when the sentence fits: the rule's own words, unchanged."""
    item = "a. bukan subjek pajak dalam negeri Indonesia;"
    lead_in = (
        "Wajib Pajak Luar Negeri berhak memperoleh manfaat Persetujuan Penghindaran Pajak Berganda dengan "
        "syarat Wajib Pajak Luar Negeri tersebut:"
    )
    treaty = shown(f"{lead_in} {item}", item, "PMK 112/2025", "Pasal 2 ayat (4)")
    line = answer_line([treaty], "id", "Apa syarat supaya vendor luar negeri bisa pakai tarif tax treaty?")
    assert line == f"Menurut PMK 112/2025: {lead_in} a. bukan subjek pajak dalam negeri Indonesia [1]."


def test_rent_question_end_to_end_reads_the_rate(services: Any) -> None:
    # (a bare "pph sewa berapa?" now asks what is rented: land/buildings and other assets differ)
    answer = answer_question(
        "pph sewa mobil berapa?", services.cli_principal(None), services, as_of=dt.date(2026, 11, 30)
    )
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert (lead.source.doc_id, lead.source.location.split(" UU")[0]) == ("uu-36-2008", "Pasal 23 ayat (1)")
    assert "2% (dua persen)" in lead.quote
    assert "2%" in answer.answer and "Atas penghasilan tersebut" not in answer.answer
    # the tax named before what it is charged on asks its rate (session 52): the rate is read out
    assert answer.answer.startswith("Menurut UU 36/2008, tarifnya 2% dari jumlah bruto [1].")
