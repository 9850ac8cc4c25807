"""Chunker tests on the real corpus texts (verbatim slices, structure, amendments) and a memo fixture."""

from __future__ import annotations

import datetime as dt
import json
from functools import cache
from pathlib import Path

import pytest

from kb.chunking import UnsupportedDocumentType, chunk_document
from kb.model import DocumentMeta, ParsedChunk

CORPUS = Path(__file__).resolve().parents[2] / "corpus" / "regulations"
DOC_IDS = sorted(p.name for p in CORPUS.iterdir() if (p / "text.txt").exists())


def _meta(doc_id: str) -> DocumentMeta:
    md = json.loads((CORPUS / doc_id / "metadata.json").read_text(encoding="utf-8"))
    return DocumentMeta(id=md["id"], title=md["title"], number=str(md["number"]), type=md["type"])


@cache
def _doc(doc_id: str) -> tuple[str, tuple[ParsedChunk, ...]]:
    text = (CORPUS / doc_id / "text.txt").read_text(encoding="utf-8")
    return text, tuple(chunk_document(text, _meta(doc_id)))


def _by_key(doc_id: str) -> dict[str, ParsedChunk]:
    return {c.key: c for c in _doc(doc_id)[1]}


@pytest.mark.parametrize("doc_id", DOC_IDS)
def test_every_chunk_is_a_verbatim_trimmed_slice_with_unique_keys(doc_id: str) -> None:
    text, chunks = _doc(doc_id)
    assert chunks
    keys = [c.key for c in chunks]
    assert len(keys) == len(set(keys))
    for c in chunks:
        assert c.text == text[c.start : c.end]
        assert c.text and c.text == c.text.strip()
        if c.indexed and c.kind != "table":
            assert len(c.text) <= 2000, (c.key, len(c.text))
    starts = [c.start for c in chunks]
    assert starts == sorted(starts)
    parents = set(keys)
    assert all(c.parent_key is None or c.parent_key in parents for c in chunks)


def test_chunking_is_deterministic() -> None:
    for doc_id in ("pmk-168-2023", "uu-7-2021", "uu-42-2009"):
        text = (CORPUS / doc_id / "text.txt").read_text(encoding="utf-8")
        assert chunk_document(text, _meta(doc_id)) == chunk_document(text, _meta(doc_id))


def test_pmk_168_2023_has_its_25_pasal_with_ayat_locations() -> None:
    _, chunks = _doc("pmk-168-2023")
    pasal = {c.pasal for c in chunks if c.kind != "penjelasan" and c.pasal}
    assert pasal == {str(i) for i in range(1, 26)}
    by_key = _by_key("pmk-168-2023")
    ayat = by_key["pasal-2/ayat-1"]
    assert ayat.kind == "ayat" and ayat.location == "Pasal 2 ayat (1)"
    assert ayat.text.startswith("(1) Pemotongan Pajak Penghasilan Pasal 21")
    assert (ayat.pasal, ayat.ayat, ayat.parent_key) == ("2", "1", "pasal-2")
    assert by_key["pasal-2"].indexed is False
    assert ayat.heading_path == ("BAB II PEMOTONG PAJAK DAN PENERIMA PENGHASILAN", "Pasal 2")
    # a short Pasal stays whole
    p25 = by_key["pasal-25"]
    assert (
        p25.kind == "pasal"
        and p25.text == "Pasal 25\nPeraturan Menteri ini mulai berlaku pada tanggal 1 Januari 2024."
    )
    # references: same-Pasal ayat and other-law Pasal
    refs = by_key["pasal-2/ayat-2/pembuka"].references
    assert any(r.kind == "ayat" and r.ayat == "1" and r.pasal == "2" for r in refs)
    closing = [c for c in chunks if c.kind == "closing"]
    assert closing and closing[0].text.startswith("Agar setiap orang mengetahuinya")
    assert [c.location for c in chunks if c.kind == "preamble"] == [
        "Judul",
        "Menimbang",
        "Mengingat",
        "Menetapkan",
    ]


def test_pmk_168_2023_definitions() -> None:
    _, chunks = _doc("pmk-168-2023")
    defs = [c for c in chunks if c.kind == "definition"]
    assert [c.location for c in defs] == [f"Pasal 1 angka {i}" for i in range(1, 27)]
    by_loc = {c.location: c for c in defs}
    assert by_loc["Pasal 1 angka 5"].defines == ("Badan",)
    assert by_loc["Pasal 1 angka 21"].defines == ("Pegawai Negeri Sipil", "PNS")
    assert by_loc["Pasal 1 angka 4"].defines[-1] == "Pemotong Pajak"
    doc_refs = {r.doc for r in by_loc["Pasal 1 angka 5"].references}
    assert {"UU 6/1983", "UU 7/2021"} <= doc_refs
    pasal_ref = [r for r in by_loc["Pasal 1 angka 5"].references if r.kind == "pasal"]
    assert pasal_ref and pasal_ref[0].pasal == "1" and pasal_ref[0].doc == "UU 6/1983"


def test_uu_42_2009_restates_uu_8_1983_pasal_7() -> None:
    by_key = _by_key("uu-42-2009")
    c = by_key["pasal-I/angka-8/pasal-7"]
    assert c.amends is not None
    assert (c.amends.law, c.amends.pasal, c.amends.effective_from, c.amends.deleted) == (
        "UU 8/1983",
        "7",
        None,
        False,
    )
    assert c.location == "Pasal 7 UU 8/1983 (Pasal I angka 8 UU 42/2009)"
    assert c.text.startswith("Pasal 7\n(1) Tarif Pajak Pertambahan Nilai adalah 10% (sepuluh persen).")
    assert c.parent_key == "pasal-I/angka-8"
    # the inserted Pasal 8A is a restatement too
    assert by_key["pasal-I/angka-10/pasal-8A"].amends.pasal == "8A"


def test_uu_7_2021_restates_uu_8_1983_pasal_7_with_effective_date() -> None:
    _, chunks = _doc("uu-7-2021")
    restated = [
        c for c in chunks if c.amends and c.amends.law == "UU 8/1983" and c.amends.pasal == "7" and c.indexed
    ]
    assert restated
    dated = [c for c in restated if c.amends.effective_from == dt.date(2022, 4, 1)]
    assert (
        dated and "sebesar 11% (sebelas persen) yang mulai berlaku pada tanggal 1 April 2022" in dated[0].text
    )
    assert dated[0].location.startswith("Pasal 7") and "UU 8/1983 (Pasal 4 angka" in dated[0].location
    assert dated[0].key.startswith("pasal-4/angka-")


def test_penjelasan_chunks_are_located_by_pasal_and_ayat() -> None:
    _, chunks = _doc("uu-42-2009")
    pen = [c for c in chunks if c.kind == "penjelasan"]
    assert pen[0].location == "Penjelasan Umum"
    p7 = [c for c in pen if c.pasal == "7" and c.indexed]
    assert p7 and all(c.location.startswith("Penjelasan Pasal 7") for c in p7)
    assert all(c.amends is None for c in pen)
    assert any(c.is_example for c in pen)


MEMO = """# Memo: PPh 26 atas jasa vendor asing

## Issue
Apakah pembayaran jasa konsultan ke vendor Singapura dipotong PPh 26?

## Facts
Vendor adalah PT asing tanpa BUT di Indonesia. Faktur diterbitkan Maret 2024.

## Analisis
Pasal 26 UU 36/2008 mengatur pemotongan 20% kecuali P3B memberi tarif lebih rendah.

| Tarif | Kondisi |
|-------|---------|
| 20%   | tanpa SKD |
| 0%    | dengan SKD |

## Kesimpulan
Potong PPh 26 20% kecuali vendor menyerahkan SKD.

## Batasan
Memo ini tidak membahas PPN atas pemanfaatan jasa luar negeri.
"""


def test_memo_sections_and_conclusion_links() -> None:
    meta = DocumentMeta(id="memo-vendor-asing", title="PPh 26 vendor asing", number="M-1", type="memo")
    chunks = chunk_document(MEMO, meta)
    for c in chunks:
        assert c.text == MEMO[c.start : c.end]
    by_section = {c.section: c for c in chunks}
    assert set(by_section) >= {"Issue", "Facts", "Analysis", "Conclusion", "Limitation"}
    concl = by_section["Conclusion"]
    assert concl.links == (by_section["Facts"].key, by_section["Limitation"].key)
    assert concl.location == "Memo: PPh 26 atas jasa vendor asing > Kesimpulan"
    assert concl.heading_path == ("Memo: PPh 26 atas jasa vendor asing", "Kesimpulan")
    assert "| 20%   | tanpa SKD |" in by_section["Analysis"].text
    assert any(r.doc == "UU 36/2008" for r in by_section["Analysis"].references)
    assert all(c.kind == "section" for c in chunks)


def test_long_internal_section_splits_by_paragraph_and_keeps_table_whole() -> None:
    para = "Kalimat kebijakan yang cukup panjang untuk mengisi paragraf. " * 12
    table = "\n".join(["| a | b | c |", "|---|---|---|"] + [f"| {i} | x | y |" for i in range(60)])
    body = f"# Kebijakan\n\n## 3.2 Dokumen vendor asing\n\n{para}\n\n{para}\n\n{table}\n\n{para}\n"
    meta = DocumentMeta(id="pol-1", title="Kebijakan", number="P-1", type="policy")
    chunks = chunk_document(body, meta)
    parts = [c for c in chunks if c.indexed]
    assert len(parts) >= 3
    assert all(c.location == "Kebijakan > 3.2 Dokumen vendor asing" for c in parts)
    tables = [c for c in parts if c.kind == "table"]
    assert len(tables) == 1 and tables[0].text == table
    assert all(len(c.text) <= 1500 for c in parts if c.kind != "table")


def test_unknown_type_is_rejected() -> None:
    with pytest.raises(UnsupportedDocumentType):
        chunk_document("x", DocumentMeta(id="x", title="x", number="1", type="blog"))


def test_ocr_damaged_pp_23_2018_keeps_its_pasal_sequence_past_a_stray_heading() -> None:
    # the OCR text has a stray "Pasal 31A" line (from "Pasal 31A Undang-Undang Pajak Penghasilan") between
    # Pasal 3 and Pasal 4; it must not swallow Pasal 4-12
    _, chunks = _doc("pp-23-2018")
    pasal = {c.pasal for c in chunks if c.kind not in ("penjelasan", "lampiran") and c.pasal}
    assert pasal == {str(i) for i in range(1, 13)}
    p5 = [c for c in chunks if c.pasal == "5" and c.kind != "penjelasan"]
    assert p5 and p5[0].text.startswith("Pasal 5")
    assert "paling lama" in " ".join(c.text for c in p5)


def test_ocr_first_ayat_on_the_heading_line_is_found() -> None:
    # "Pasal 3 (U Dikecualikan ..." / "Pasal 57 (1) ..." : ayat (1) written on the Pasal's own line
    by_key = _by_key("pp-55-2022")
    assert by_key["pasal-3"].text.startswith("Pasal 3 (1) Dikecualikan")  # short: one chunk (OCR-repaired)
    # (its "(U" repaired to "(1)" with ayat (2), which OCR had run into huruf b, put on its own line)
    assert by_key["pasal-57/ayat-1"].text.startswith("(1) Wajib Pajak dalam negeri")
    assert by_key["pasal-57/ayat-1"].location == "Pasal 57 ayat (1)"
    assert by_key["pasal-57/ayat-4"].ayat == "4"
    pasal = {c.pasal for c in _doc("pp-55-2022")[1] if c.kind not in ("penjelasan", "lampiran") and c.pasal}
    assert len(pasal) >= 65  # of 74; was 48 before OCR-tolerant headings
    # the same rule on a clean text: "Pasal 8 (1) ..." is split into its ayat
    assert (
        _by_key("uu-10-2020")["pasal-8/ayat-2"].text
        == "(2) Menteri dapat menentukan saat lain terutangnya Bea Meterai."
    )


def test_a_list_item_after_a_lost_marker_keeps_its_own_letter() -> None:
    # UU Bea Meterai Pasal 7 has no "e." in the text: "f." must not be read as part of huruf d
    chunks = _by_key("uu-10-2020")
    assert chunks["pasal-7/huruf-d"].text.startswith("d. tanda bukti penerimaan uang negara")
    assert "f. tanda penerimaan uang" not in chunks["pasal-7/huruf-d"].text
    assert chunks["pasal-7/huruf-f"].location == "Pasal 7 huruf f"
    assert chunks["pasal-7/huruf-f"].text.startswith(
        "f. tanda penerimaan uang yang dibuat untuk keperluan intern"
    )


def test_a_list_item_run_into_the_previous_line_is_split() -> None:
    # UU 7/1983 Pasal 9 ayat (1): "... Peraturan Pemerintah, c. premi asuransi jiwa ..." on huruf b's line
    chunks = _by_key("uu-7-1983")
    assert "premi asuransi" not in chunks["pasal-9/ayat-1/huruf-b"].text
    assert chunks["pasal-9/ayat-1/huruf-c"].text.startswith("c. premi asuransi")
    assert chunks["pasal-9/ayat-1/huruf-c"].location == "Pasal 9 ayat (1) huruf c"


def test_amended_law_is_the_first_act_the_amending_pasal_names() -> None:
    # PMK 54/2025 Pasal I: "Peraturan Men teri Keuangan Nomor 81 Tahun 2024 ... telah beberapa kali diubah
    # dengan: a. Peraturan Menteri Keuangan Nomor 11 Tahun 2025" -- PMK 81/2024 (not in corpus), not 11/2025
    laws = {c.amends.law for c in _doc("pmk-54-2025")[1] if c.amends}
    assert laws == {"PMK 81/2024"}
    # UU HPP Pasal 3: "Undang-Undang Nomor 7 Tahun 1983 ... terakhir dengan Undang-Undang Nomor 36 Tahun 2008"
    pph = {c.amends.law for c in _doc("uu-7-2021")[1] if c.amends and c.key.startswith("pasal-3/")}
    assert pph == {"UU 7/1983"}
    # PMK 11/2025 Pasal 8: "Peraturan Menteri Keuangan - 13 - Nomor 62/PMK.03/2022" (a page number inside)
    assert {c.amends.law for c in _doc("pmk-11-2025")[1] if c.amends and c.key.startswith("pasal-8/")} == {
        "PMK 62/2022"
    }


def test_omnibus_elucidation_boundaries_inside_a_line() -> None:
    # "... Cukup jelas Pasal 4 Angka 1 Pasal 4A, Ayat (1) Dihapus." opens the UU PPN block of UU HPP
    chunks = _by_key("uu-7-2021")
    c = chunks["penjelasan/pasal-4/angka-1/pasal-4A"]
    assert c.location.startswith("Penjelasan Pasal 4A UU 8/1983 (Pasal 4 angka 1 UU 7/2021)")
    export = chunks["penjelasan/pasal-4/angka-2/pasal-7"]
    assert export.location == "Penjelasan Pasal 7 UU 8/1983 (Pasal 4 angka 2 UU 7/2021)"
    assert "ekspor" in export.text


def test_a_pasal_heading_in_capitals_after_its_chapter_title_is_found() -> None:
    # UU PPN 1983 runs its first heading into the chapter title in capitals ("BAB I KETENTUAN UMUM PASAL 1
    # Dalam undang-undang ini ..."): its definitions were never read, so no Pasal 1 ended in 1995
    text = (
        "UNDANG-UNDANG REPUBLIK INDONESIA\nNOMOR 9 TAHUN 1999\nTENTANG\nBEA CONTOH\n\n"
        "BAB I KETENTUAN UMUM PASAL 1 Dalam undang-undang ini yang dimaksud dengan :\n"
        "a. Bea adalah pungutan atas dokumen contoh;\nb. Dokumen adalah kertas yang memuat keterangan.\n"
        "BAB II TARIF\nPasal 2\nTarif Bea adalah Rp3.000,00.\n"
        "PAJAK PENGHASILAN PASAL 21 ATAS GAJI\nPasal 3\nUndang-undang ini mulai berlaku hari ini.\n"
    )
    chunks = chunk_document(text, DocumentMeta(id="uu-9-1999", title="Bea Contoh", number="9", type="UU"))
    pasal = {c.pasal for c in chunks if c.pasal}
    assert pasal == {"1", "2", "3"}  # a title naming "PASAL 21" in capitals is no heading
    first = next(c for c in chunks if c.key == "pasal-1")
    assert first.text.startswith("PASAL 1 Dalam undang-undang ini")
    assert _by_key("uu-8-1983")["pasal-1"].location == "Pasal 1"


def test_an_elucidation_heading_whose_full_stop_ocr_lost_is_found() -> None:
    # "Ayat (2) Cukup jelas Pasal 16B Ayat (1) Salah satu prinsip ..." (UU 11/1994), "Ayat (4) Cukup jelas,
    # Pasal 27 Ayat (1)" and "= Rp 26.200.000'0O Pasal 19 Ayat (1)" (PP 44/2022): the next Pasal's
    # elucidation was stored, and cited, under the Pasal before it (session 55)
    ppn = _by_key("uu-11-1994")
    assert ppn["penjelasan/pasal-I/angka-22/pasal-16B/ayat-1"].text.startswith("Ayat (1) Salah satu prinsip")
    assert "Pasal 16B" not in ppn["penjelasan/pasal-I/angka-22/pasal-16A"].text
    pp44 = _by_key("pp-44-2022")
    assert pp44["penjelasan/pasal-27/ayat-1"].location == "Penjelasan Pasal 27 ayat (1)"
    assert pp44["penjelasan/pasal-19/ayat-1"].text.startswith('Ayat (1) Yang dimaksud dengan "piutang"')
    before = [c.text for k, c in pp44.items() if k.startswith("penjelasan/pasal-17")]
    assert before and not any("Pasal 19 Ayat (1)" in t for t in before)


def test_a_reference_in_an_elucidation_is_no_heading() -> None:
    # the same words as a heading after "dalam": PP 46/2013's elucidation of Pasal 1, given such a sentence
    text = (CORPUS / "pp-46-2013" / "text.txt").read_text(encoding="utf-8")
    sentence = "Ketentuan ini berlaku pula sebagaimana dimaksud dalam Pasal 2 Ayat (1) atas penghasilan lain."
    assert text.count("Pasal 1\nCukup jelas.") == 1
    text = text.replace("Pasal 1\nCukup jelas.", f"Pasal 1\n{sentence}")
    chunks = {c.key: c for c in chunk_document(text, _meta("pp-46-2013"))}
    assert sentence in chunks["penjelasan/pasal-1"].text
    assert chunks["penjelasan/pasal-2/ayat-1"].text == "Ayat (1) Cukup jelas."


def test_an_annex_title_run_into_the_last_elucidation_is_the_annex() -> None:
    # "Pasal 38 Cukup jelas LAMPIRAN PERATURAN PEMERINTAH ... NOMOR 49 TAHUN 2022" (PP 49/2022): the annex's
    # list of goods was stored, and cited, as the elucidation of Pasal 38 (session 55)
    chunks = _by_key("pp-49-2022")
    assert chunks["penjelasan/pasal-38"].text == "Pasal 38 Cukup jelas"
    assert chunks["lampiran"].location == "Lampiran"
    assert chunks["lampiran"].text.startswith("LAMPIRAN PERATURAN PEMERINTAH REPUBLIK INDONESIA NOMOR 49")
