"""Abbreviations and everyday words of AP/finance staff reach the words the regulations use (2026-12-02).

Staff write "PM", "BKP", "BAZNAS", "makan siang", "nagih ulang"; the regulations write "Pajak Masukan",
"Barang Kena Pajak", "badan amil zakat", "makanan dan/atau minuman", "penggantian
biaya".  Without a reviewed alias the acronym was an unknown term (the answer pipeline declined: "Istilah BKP
tidak muncul di basis pengetahuan") and the everyday word was a topic word no provision contains.  The
questions here are written for the tests, not copied from an eval set.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kb.lexical import coverage, question_concepts
from kb.query import default_aliases, understand

CORPUS = Path(__file__).resolve().parents[2] / "corpus"


def _added(question: str) -> set[str]:
    return {t.lower() for e in understand(question).expansions for t in e.added}


def _concepts(question: str) -> list[frozenset[tuple[str, ...]]]:
    return question_concepts(understand(question), question, keep_named_refs=True, focus_ask=True)


@pytest.mark.parametrize(
    ("question", "long_form"),
    [
        ("PM atas pembelian bulan lalu boleh dikreditkan?", "pajak masukan"),
        ("PK lebih besar dari PM, harus setor?", "pajak keluaran"),
        ("penyerahan BKP ke kawasan berikat kena PPN?", "barang kena pajak"),
        ("JKP dari luar daerah pabean gimana?", "jasa kena pajak"),
        ("zakat ke BAZNAS bisa dikurangkan?", "badan amil zakat"),
        ("zakat lewat LAZ bisa dikurangkan?", "lembaga amil zakat"),
        ("vendor kasih SKB PPh 23, tetap dipotong?", "surat keterangan bebas"),
        ("STP bunga telat bayar kapan jatuh tempo?", "surat tagihan pajak"),
        ("FP pengganti boleh dibuat kapan?", "faktur pajak"),
        ("THR karyawan dipotong PPh 21?", "tunjangan hari raya"),
        ("PBB dihitung dari NJOP berapa persen?", "nilai jual objek pajak"),
        ("aturan TP untuk transaksi afiliasi?", "harga transfer"),
        ("pembeli bayar DP dulu sebelum barang dikirim, PPN-nya kapan terutang?", "uang muka"),
        ("konsultan WNA kerja di site 7 bulan, kena PPh 21 atau 26?", "warga negara asing"),
        ("karyawan WNI ditugaskan ke Singapura 2 tahun, masih SPDN?", "warga negara indonesia"),
    ],
)
def test_a_staff_abbreviation_searches_the_regulations_words(question: str, long_form: str) -> None:
    assert long_form in _added(question)


@pytest.mark.parametrize(
    "question",
    [
        "meeting jam 3 pm soal faktur",  # the afternoon, not Pajak Masukan
        "rapat pk 10 pagi bahas pajak",  # "pukul", not Pajak Keluaran
        "tp link router termasuk aset?",  # lower-case: no transfer pricing
    ],
)
def test_a_lower_case_abbreviation_is_not_expanded(question: str) -> None:
    assert not _added(question) & {"pajak masukan", "pajak keluaran", "harga transfer"}


def test_a_staff_abbreviation_is_a_known_word_of_the_aliases() -> None:
    # the answer pipeline's unknown-term gate declines an acronym the aliases do not know and no passage has
    known = default_aliases().words
    assert {"pm", "pk", "bkp", "jkp", "baznas", "skb", "stp", "fp", "thr", "tp"} <= known


def test_a_tax_signal_comes_with_a_vat_abbreviation() -> None:
    # "PM bisa dikreditkan?" named no tax type: the scope rule sent it out of scope
    assert "PPN" in understand("PM bisa dikreditkan kapan?").tax_types


def test_lunch_for_all_staff_is_covered_by_the_natura_meal_provision() -> None:
    passage = (
        "Dikecualikan dari objek Pajak Penghasilan ... dalam bentuk natura dan/atau kenikmatan meliputi: "
        "a. makanan, bahan makanan, bahan minuman, dan/atau minuman bagi seluruh Pegawai;"
    )
    assert coverage(_concepts("makan siang untuk semua karyawan kena pajak?"), passage) == 1.0


def test_a_meal_allowance_in_cash_is_not_read_as_meals_provided() -> None:
    # "uang makan" is cash pay, taxable like salary: it must not reach the natura exemption's words
    assert "makanan dan/atau minuman" not in _added("uang makan harian karyawan kena PPh 21?")


def test_rebilled_travel_costs_reach_the_reimbursement_rule() -> None:
    assert "reimbursement" in _added("vendor nagih ulang biaya hotel, dipotong PPh 23?")
    assert "penggantian biaya" in _added("biaya tiket ditagih ulang ke kita tanpa margin, potong pph?")


#: entries added for staff abbreviations: each long form must occur in the corpus, so an alias never turns a
#: term the knowledge base does not hold into a "known" one (that question is still declined honestly)
_ABBREVIATIONS = {
    "bkp": "barang kena pajak",
    "jkp": "jasa kena pajak",
    "skb": "surat keterangan bebas",
    "ssp": "surat setoran pajak",
    "ntpn": "nomor transaksi penerimaan negara",
    "stp": "surat tagihan pajak",
    "skpkb": "surat ketetapan pajak kurang bayar",
    "skplb": "surat ketetapan pajak lebih bayar",
    "nsfp": "nomor seri faktur pajak",
    "thr": "tunjangan hari raya",
    "njop": "nilai jual objek pajak",
    "transfer-pricing": "harga transfer",
    "badan-amil-zakat": "badan amil zakat",
    "lembaga-amil-zakat": "lembaga amil zakat",
}


def _corpus_text() -> str:
    texts = [p.read_text(encoding="utf-8", errors="replace") for p in CORPUS.rglob("*.txt")]
    texts += [p.read_text(encoding="utf-8", errors="replace") for p in CORPUS.rglob("*.md")]
    return " ".join(" ".join(texts).lower().split())


def test_every_abbreviation_entry_has_its_long_form_in_the_corpus() -> None:
    text = _corpus_text()
    aliases = default_aliases()
    for entry_id, long_form in _ABBREVIATIONS.items():
        assert long_form in {t.lower() for t in aliases.get(entry_id).terms}, entry_id
        assert long_form in text, f"{entry_id}: {long_form!r} is in no corpus text"


def test_expensed_reaches_deductible_from_gross_income() -> None:
    # "dibiayakan" (charged as a cost) is the staff word for what PMK 114/2025 calls "dapat dikurangkan dari
    # penghasilan bruto"
    added = _added("sumbangan zakat ke BAZNAS bisa dibiayakan?")
    assert {"dikurangkan dari penghasilan bruto", "badan amil zakat"} <= added
