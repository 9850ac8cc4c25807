"""Page furniture of printed regulations (kb.pages): page numbers, copy numbers, running heads, watermarks and
catchwords leave the text before it is chunked; the rule's words stay.  Small texts written for the tests in
the printed layouts, then the loader and the sample corpus (PMK 51/2025's import rates, UU 6/2023's restated
UU PPh Pasal 2 ayat (3))."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kb.loaders import discover, load
from kb.pages import remove_page_furniture

CORPUS = Path(__file__).resolve().parents[2] / "corpus"

PMK_PAGE = """Pasal 3
(1) Tarif pemungutan atas impor:
a) barang tertentu sebesar 10% (sepuluh persen) dari
nilai impor;
- 6 -

 b) barang lainnya sebesar 2,5% (dua koma lima persen) dari
nilai impor.
"""

UU_PAGE = """(3) Subjek pajak dalam negeri adalah:
a. orang pribadi yang:
1. bertempat tinggal di Indonesia;
2. berada di Indonesia lebih dari 183 hari; atau
3.dalam...
SK No 171633 A

PRESIDEN
REPUELIK INDONESIA
-624-
3. dalam suatu tahun pajak berada di
Indonesia dan berniat bertempat tinggal di Indonesia;
"""


def test_a_page_number_inside_a_list_goes_and_the_items_stay() -> None:
    cleaned = remove_page_furniture(PMK_PAGE)
    assert "- 6 -" not in cleaned.text
    assert "nilai impor;\n b) barang lainnya sebesar 2,5%" in cleaned.text
    assert cleaned.furniture_lines == 1


def test_the_running_head_copy_number_and_catchword_of_a_page_break_go() -> None:
    cleaned = remove_page_furniture(UU_PAGE)
    assert "lebih dari 183 hari; atau\n3. dalam suatu tahun pajak" in cleaned.text
    for furniture in ("SK No", "PRESIDEN", "REPUELIK", "-624-", "3.dalam..."):
        assert furniture not in cleaned.text
    assert (cleaned.furniture_lines, cleaned.catchwords) == (4, 1)


def test_a_catchword_is_removed_only_when_the_next_page_starts_with_it() -> None:
    text = "(4) Besaran pajak dihitung sebagai berikut . . .\n- 7 -\nGaji setahun Rp120.000.000,00\n"
    assert "berikut . . .\nGaji setahun" in remove_page_furniture(text).text


def test_a_catchword_run_into_a_line_goes_with_its_page_number() -> None:
    text = (
        "26. Bukti Permulaan adalah keadaan yang memberi petunjuk adanya dugaan tindak pidana."
        " 6 27. Pemeriksaan...\n"
        "27. Pemeriksaan Bukti Permulaan adalah pemeriksaan untuk mendapatkan bukti permulaan.\n"
    )
    cleaned = remove_page_furniture(text)
    assert cleaned.text.split("\n")[0].endswith("dugaan tindak pidana.")
    assert cleaned.catchwords == 1


def test_a_catchword_repeated_inside_a_line_is_read_once() -> None:
    text = (
        'berbunyi sebagai berikut: "Pasal 6." 8. Ketentuan… 8. Ketentuan Pasal 7 diubah sehingga berbunyi:\n'
    )
    cleaned = remove_page_furniture(text)
    assert '"Pasal 6." 8. Ketentuan Pasal 7 diubah' in cleaned.text
    assert "…" not in cleaned.text


def test_the_signature_and_text_that_only_look_like_furniture_stay() -> None:
    text = (
        "Ditetapkan di Jakarta\nPRESIDEN REPUBLIK INDONESIA,\n- 9 -\nttd.\n"
        "a. tarif sebesar 5% . . .\nb. tarif sebesar 15% untuk lapisan berikutnya.\n"
    )
    cleaned = remove_page_furniture(text)
    assert "PRESIDEN REPUBLIK INDONESIA,\nttd." in cleaned.text
    assert "a. tarif sebesar 5% . . ." in cleaned.text


def test_the_ministry_watermark_goes_without_joining_words() -> None:
    cleaned = remove_page_furniture("dan Bangunan. jdih.kemenkeu.go.id 4. Pajak adalah iuran.\n")
    assert cleaned.text == "dan Bangunan. 4. Pajak adalah iuran.\n"
    assert cleaned.watermarks == 1


def test_a_watermark_where_a_page_began_with_an_ayat_leaves_the_ayat_its_line() -> None:
    # session 65: PP 50/2022 Pasal 2 ayat (5) ("... perpajakan suami. jdih.kemenkeu.go.id (5) Dalam hal wanita
    # kawin ...") was read as the tail of ayat (4); a marker run ("(4) (5) (1) (2)") is no heading
    cleaned = remove_page_furniture("terpisah dari suami. jdih.kemenkeu.go.id (5) Dalam hal wanita kawin.\n")
    assert cleaned.text == "terpisah dari suami.\n(5) Dalam hal wanita kawin.\n"
    assert cleaned.watermarks == 1
    run = "perpajakan. jdih.kemenkeu.go.id (4) (5) (1) (2) Penghapusan Nomor Pokok Wajib Pajak.\n"
    assert (
        remove_page_furniture(run).text
        == "perpajakan. (4) (5) (1) (2) Penghapusan Nomor Pokok Wajib Pajak.\n"
    )


def test_a_text_without_furniture_is_returned_unchanged() -> None:
    text = "Pasal 1\nTarif pajak adalah 11% (sebelas persen).\n"
    assert remove_page_furniture(text).text == text


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # OCR ran the running head into one line of an elucidation; the Pasal heading after it was read as
        # words of the Pasal before (session 55: PP 44/2022's elucidations of Pasal 12 and 15)
        (
            "Ayat (4) Cukup jelas. REPUE|JK IHDONESIA Pasal 12 Ayat (1) Cukup jelas.",
            "Ayat (4) Cukup jelas.\nPasal 12 Ayat (1) Cukup jelas.",
        ),
        (
            "Jumlah = Rp333.000.000,00 + REI'UEUK INDONESIA Pasal 15 Ayat (1) Dalam rangka",
            "Jumlah = Rp333.000.000,00 +\nPasal 15 Ayat (1) Dalam rangka",
        ),
        ("Ayat (3) Cukup jelas. I]RES IDEN REPU BLII( INDONESIA Pasal 6 Mengingat", None),
        ("Huruf m Cukup jelas. PRES tDEN REFUBLIK INDONESIA Ayat (5) Cukup jelas.", None),
        # an ayat heading of the body behind the running head and its page number (session 65: UU Bea Meterai
        # Pasal 11 ayat (4), PP 55/2022 Pasal 21 ayat (5), UU HPP's UU KUP Pasal 32A ayat (5))
        (
            "kurang disetor. FRESIDEhI REPUBLIK INDONESIA - 11- (4) Pemungut Bea Meterai yang:",
            "kurang disetor.\n(4) Pemungut Bea Meterai yang:",
        ),
        (
            "bidang usaha tertentu. FRES IDEN REPUBLIK INDONESIA -29- (5) Apabila bangunan",
            "bidang usaha tertentu.\n(5) Apabila bangunan",
        ),
    ],
)
def test_a_running_head_inside_a_line_before_a_heading_goes(text: str, expected: str | None) -> None:
    cleaned = remove_page_furniture(text)
    if expected is not None:
        assert cleaned.text == expected
    assert "INDONESIA" not in cleaned.text and "\n" in cleaned.text
    assert cleaned.furniture_lines == 1


@pytest.mark.parametrize(
    "text",
    [
        # the country's name in a sentence, before an elucidation's next Ayat
        "bertempat kedudukan di Indonesia. Ayat (6) Penentuan tempat tinggal.",
        # the act's own title in capitals at the start of a line is not run into text
        "PRESIDEN REPUBLIK INDONESIA,\nPasal 1\nDalam Peraturan ini:",
        # capitals that are no running head
        "sebagaimana dimaksud dalam UU KUP Pasal 9 ayat (2a).",
        # a number before an ayat marker is no page number of a running head
        "menurut UNDANG-UNDANG INDONESIA 2 (9) Direktur Jenderal Pajak memutuskan.",
    ],
)
def test_text_that_only_resembles_an_inline_head_stays(text: str) -> None:
    assert remove_page_furniture(text).text == text


def _write_folder(root: Path, doc_type: str, text: str) -> Path:
    folder = root / f"{doc_type.lower()}-1-2030"
    folder.mkdir()
    meta = {"id": folder.name, "type": doc_type, "number": "1", "year": 2030, "title": "Contoh"}
    if doc_type not in ("UU", "PP", "PMK"):
        meta["owner"] = "tax@example.com"
    (folder / "metadata.json").write_text(json.dumps(meta), encoding="utf-8")
    (folder / "text.txt").write_text(text, encoding="utf-8")
    return folder


def test_the_loader_hands_a_regulation_over_without_its_furniture(tmp_path: Path) -> None:
    _write_folder(tmp_path, "PMK", PMK_PAGE)
    [candidate], errors = discover([tmp_path])
    assert errors == []
    doc = load(candidate)
    assert "- 6 -" not in doc.text and "b) barang lainnya sebesar 2,5%" in doc.text
    assert doc.original == PMK_PAGE.encode()  # the source as delivered is kept for the record


@pytest.mark.parametrize(
    ("doc_id", "location", "fact", "furniture"),
    [
        ("pmk-51-2025", "Pasal 3 ayat (1)", "7,5%", "- 6 -"),
        ("uu-6-2023", "Pasal 2 ayat (3) UU 7/1983", "3. dalam suatu tahun pajak", "SK No"),
    ],
)
def test_sample_corpus_passages_read_without_page_furniture(
    sample_kb: Path, doc_id: str, location: str, fact: str, furniture: str
) -> None:
    import sqlite3

    con = sqlite3.connect(sample_kb)
    try:
        texts = [
            t
            for (t,) in con.execute(
                "SELECT text FROM chunks WHERE doc_id = ? AND location LIKE ? AND indexed = 1",
                (doc_id, f"{location}%"),
            )
        ]
    finally:
        con.close()
    assert any(fact in t for t in texts), texts
    assert not any(furniture in t for t in texts)


def test_a_running_head_before_a_list_item_leaves_the_item_its_line() -> None:
    # UU Bea Meterai Pasal 7 huruf e (receipts for taxes, exempt) and PP 49/2022 Pasal 6 ayat (2) huruf f
    # (animal feed) stood behind the running head inside the item before them, so neither was an item (session
    # 65)
    text = (
        "e. bibit dari barang pertanian; FRES IDEN REPUBLIK INDONESIA f. pakan ternak, tidak termasuk pakan."
    )
    cleaned = remove_page_furniture(text)
    assert cleaned.text == "e. bibit dari barang pertanian;\nf. pakan ternak, tidak termasuk pakan."
    assert remove_page_furniture("sebagaimana dimaksud dalam UU PPN a. huruf").text.count("\n") == 0
