"""An annex part is a worked example by the lettered section it lies in, not by a "Contoh" in its title."""

from __future__ import annotations

from kb.chunking import chunk_document
from kb.chunking.textspan import AnnexSections
from kb.model import DocumentMeta, ParsedChunk
from tests.kb.corpus_acts import chunks


def _corpus_annex(doc_id: str) -> list[ParsedChunk]:
    return [c for c in chunks(doc_id) if c.key.startswith("lampiran/part-")]


_ROW = "55110 Hotel bintang lima yang melayani tamu menginap\n"
_WORKED = (
    "Tuan Q bekerja pada PT R dengan gaji Rp7.000.000,00 sebulan. Pajak yang ditanggung pemerintah "
    "dihitung sebagai berikut dan dibayar tunai kepada Tuan Q setiap bulan.\n"
)
_FORM_NOTES = "Nomor (1) : Diisi dengan nama pemberi kerja yang menandatangani.\n"
_FILLED = "Kolom 2 : Diisi dengan angka 7.000.000 sebagai gaji Tuan Q.\n"


def _toy_regulation() -> str:
    return (
        "PERATURAN MENTERI KEUANGAN REPUBLIK INDONESIA\nNOMOR 1 TAHUN 2099\nTENTANG\nINSENTIF CONTOH\n\n"
        "Pasal 1\nPemberi kerja dengan kode KLU dalam Lampiran mendapat insentif.\n\n"
        "Pasal 2\nPeraturan Menteri ini mulai berlaku pada tanggal diundangkan.\n"
        "Agar setiap orang mengetahuinya, memerintahkan pengundangan.\n\n"
        "LAMPIRAN\nPERATURAN MENTERI KEUANGAN NOMOR 1 TAHUN 2099\n"
        "KODE KLASIFIKASI LAPANGAN USAHA PEMBERI KERJA DAN CONTOH\n"
        "PENGHITUNGAN PAJAK DITANGGUNG PEMERINTAH\n\n"
        "A. KODE KLASIFIKASI LAPANGAN USAHA PEMBERI KERJA\n" + _ROW * 60 + "\n"
        "B. CONTOH PENGHITUNGAN PAJAK DITANGGUNG PEMERINTAH\n" + _WORKED * 40 + "\n"
        "C. CONTOH FORMAT KERTAS KERJA\nI. Contoh Format Kertas Kerja\n" + _FORM_NOTES * 40 + "\n"
        "II. Contoh Pengisian Kertas Kerja\n" + _FILLED * 30
    )


def _toy_parts() -> list[ParsedChunk]:
    meta = DocumentMeta(id="pmk-1-2099", title="Insentif Contoh", number="1", type="PMK")
    return [c for c in chunk_document(_toy_regulation(), meta) if c.key.startswith("lampiran/part-")]


def test_the_annex_title_naming_an_example_section_makes_no_rule_part_an_example() -> None:
    parts = _toy_parts()
    klu = [c for c in parts if "55110" in c.text and "Tuan Q" not in c.text]
    assert len(klu) == 2 and klu[0].text.startswith("LAMPIRAN")  # the first part carries "... DAN CONTOH"
    assert not any(c.is_example for c in klu)


def test_every_part_of_a_worked_example_section_is_an_example() -> None:
    worked = [c for c in _toy_parts() if c.text.startswith("Tuan Q bekerja")]
    assert len(worked) >= 3  # the section spans several parts, none of which says "Contoh" itself
    assert all(c.is_example for c in worked)


def test_a_form_template_is_no_example_until_it_is_filled_in() -> None:
    parts = _toy_parts()
    template = [c for c in parts if c.text.startswith("Nomor (1)")]
    filled = [c for c in parts if c.text.startswith("Kolom 2")]
    assert len(template) == 2 and len(filled) == 1
    assert not any(c.is_example for c in template)  # the last one ends with the filled-in form's first lines
    assert filled[0].is_example  # "II. Contoh Pengisian ..." runs to the end of the annex


def test_an_annex_without_lettered_sections_keeps_the_old_reading() -> None:
    text = "LAMPIRAN\nCONTOH PENGHITUNGAN\nA. Tetap.\nB. Tetap.\n"
    annex = AnnexSections.of(text, 0, len(text))
    assert annex.sections == ()
    assert annex.is_example(0, len(text))  # "Contoh penghitungan" in the text, as before


def test_corpus_pph21_dtp_klu_table_is_a_rule_and_its_worked_examples_are_examples() -> None:
    # PMK 10/2025: the annex title reads "... PEMBERI KERJA DAN CONTOH PENGHITUNGAN"; section A is the KLU
    # table of which employers get the incentive, section B the worked examples
    parts = _corpus_annex("pmk-10-2025")
    first = parts[0]
    assert "KODE KLASIFIKASI LAPANGAN USAHA" in first.text and not first.is_example
    b = next(i for i, c in enumerate(parts) if "B. CONTOH PENGHITUNGAN" in c.text)
    assert all(c.is_example for c in parts[b + 1 :])
    assert not any(c.is_example for c in parts[1 : b - 1])


def test_corpus_marketplace_collection_example_is_an_example() -> None:
    # PMK 37/2025 section B ("CONTOH PEMUNGUTAN PAJAK PENGHASILAN PASAL 22") tells of Marketplace JB and its
    # sellers without one "Contoh:" line; section A is a statement form to fill in
    parts = _corpus_annex("pmk-37-2025")
    story = [c for c in parts if "Marketplace JB" in c.text]
    assert len(story) >= 5 and all(c.is_example for c in story)
    assert not parts[0].is_example
