"""Rules of ``scripts/ocr_repair.py`` (OCR repair of the ocr_noisy regulation texts) on small strings."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from tests.support.scripts import load_script

ROOT = Path(__file__).resolve().parents[2]


ocr = load_script("scripts/ocr_repair.py")

CLEAN = (
    "Pasal 1\n(1) Wajib Pajak membayar pajak terutang berupa Pajak Penghasilan.\n"
    "(2) Peredaran bruto dari usaha dikenai tarif bagi Wajib Pajak.\n"
    "Pasal 60\n(1) Pajak terutang dibayar bagi Tuan yang berupa usaha.\n"
    "Pasal 61\n(1) Tuan membayar pajak bruto bagi usaha lambat.\n"
    "Pasal 17\nLembaga lambat terutang bruto Tuan Wajib berupa lambat.\n"
    "Pasal 18\nPenyusutan harta dihitung. Penyusutan bruto dan penyusutan terutang.\n"
)


def vocab(text: str = CLEAN) -> Any:
    v = ocr.Vocabulary()
    v.add_text(text)
    v.finish()
    return v


# ------------------------------------------------------------------------------------------------ words


@pytest.mark.parametrize(
    ("noisy", "fixed"),
    [
        ("Pqiak", "Pajak"),
        ("pqiak", "pajak"),
        ("P4jak", "Pajak"),
        ("bmto", "bruto"),
        ("brlto", "bruto"),
        ("temtang", "terutang"),
        ("Wqiib", "Wajib"),
        ("T\\ran", "Tuan"),
        ("larnbat", "lambat"),
        # "y" read as "5r" / "Sr" / "Jr", "u" as "lr" / "Lr" / "ll" (UU HPP's "Pen5rusutan", "merLrpakan")
        ("pen5rusutan", "penyusutan"),
        ("PenSrusutan", "Penyusutan"),
        ("penJrusutan", "penyusutan"),
        ("terlrtang", "terutang"),
        ("brLrto", "bruto"),
        ("brllto", "bruto"),
        # "u" read as "r" (session 59: PP 55/2022's "peredaran brrto" in the UMKM turnover bound, "hurrf")
        ("brrto", "bruto"),
        ("terrtang", "terutang"),
    ],
)
def test_misread_word_with_one_candidate_is_repaired_keeping_its_case(noisy: str, fixed: str) -> None:
    assert ocr.repair_word(noisy, vocab(), 3) == fixed


def test_word_repair_in_running_text_is_logged_with_its_line() -> None:
    text, changes = ocr.repair_text("Judul\nWajib Pqiak membayar pajak temtang.", vocab())
    assert text == "Judul\nWajib Pajak membayar pajak terutang."
    assert [(c.line, c.before, c.after, c.rule) for c in changes] == [
        (2, "Pqiak", "Pajak", "word"),
        (2, "temtang", "terutang", "word"),
    ]


@pytest.mark.parametrize("token", ["Pajak", "terutang", "bruto", "PAJAK"])
def test_vocabulary_word_is_left_alone(token: str) -> None:
    assert ocr.repair_word(token, vocab(), 3) is None


def test_real_word_missing_from_the_vocabulary_is_left_alone() -> None:
    # "lambang" (emblem) is one confusion away from nothing wrong-looking: no digit, no rare trigram
    v = vocab(CLEAN + " tambang tambang tambang")
    assert ocr.repair_word("lambang", v, 3) is None
    assert ocr.repair_text("sebuah lambang negara", v)[0] == "sebuah lambang negara"


def test_ambiguous_token_is_left_alone() -> None:
    # "T\ran" reaches both "tuan" and "turan" once both are frequent enough
    v = vocab(CLEAN + " turan turan turan turan")
    assert ocr.repair_word("T\\ran", v, 3) is None


def test_rare_candidate_and_short_or_abbreviation_tokens_are_left_alone() -> None:
    v = vocab(CLEAN + " pajang")
    assert ocr.repair_word("pqjang", v, 3) is None  # "pajang" occurs once: below the floor
    assert ocr.repair_word("bagr", vocab(CLEAN + " bagi bagi bagi"), 3) == "bagi"
    assert ocr.repair_word("bgr", vocab(CLEAN + " bgi bgi bgi"), 3) is None  # shorter than 4
    assert ocr.repair_word("ElEF", vocab(CLEAN + " DEF DEF DEF"), 3) is None  # capitals: an example name


def test_capital_i_read_for_l_is_lowered_inside_a_sentence() -> None:
    v = vocab(CLEAN + " lain lain lain Lain")
    assert ocr.repair_text("pihak Iain. Iain halnya", v)[0] == "pihak lain. Lain halnya"


def test_trailing_bracket_read_as_l_is_restored_inside_brackets() -> None:
    v = vocab(CLEAN + " method method method")
    assert ocr.repair_text("metode (cost plus methodl dan methodl.", v)[0] == (
        "metode (cost plus method) dan method)."
    )
    assert ocr.repair_text("metode methodl.", v)[0] == "metode method."


# ------------------------------------------------------------------------------------------ ayat markers


def test_ayat_heading_confirmed_by_its_sequence_is_repaired() -> None:
    text = (
        "Pasal 61 (U Wajib Pajak membayar.\n(2) Atas penghasilan.\n(3) Lain.\n(a) Ketentuan lebih.\nPasal 62"
    )
    new, changes = ocr.repair_text(text, vocab())
    assert new == (
        "Pasal 61 (1) Wajib Pajak membayar.\n(2) Atas penghasilan.\n(3) Lain.\n(4) Ketentuan lebih.\nPasal 62"
    )
    assert {(c.before, c.after, c.rule) for c in changes} == {("(U", "(1)", "ayat"), ("(a)", "(4)", "ayat")}


def test_ayat_heading_without_confirming_neighbours_is_left_alone() -> None:
    text = "Pasal 5\n(1) Satu.\n(a) Dua.\n(3) Tiga.\nPasal 6\n(U Sendiri.\nPasal 7"
    assert ocr.repair_text(text, vocab())[0] == text  # (a) between (1) and (3); a lone (1) with no (2)


def test_mid_line_ayat_heading_confirmed_by_its_sequence_goes_onto_its_own_line() -> None:
    # PP 55/2022 Pasal 56: "... jangka waktu tertentu. {21 Tarif ... 0,5%" was quoted as ayat (1)
    text = "Pasal 56\n(1) Atas penghasilan tertentu. {21 Tarif sebesar 0,5%.\n(3) Tidak termasuk.\nPasal 57"
    new, changes = ocr.repair_text(text, vocab())
    assert (
        new
        == "Pasal 56\n(1) Atas penghasilan tertentu.\n(2) Tarif sebesar 0,5%.\n(3) Tidak termasuk.\nPasal 57"
    )
    assert [(c.line, c.before, c.after, c.rule) for c in changes] == [(2, " {21", "\n(2)", "ayat")]
    assert ocr.repair_text(new, vocab())[0] == new


def test_an_ayat_heading_whose_brackets_were_read_as_l_is_repaired() -> None:
    # PP 44/2022 Pasal 26: "... serta Pasal 24. l2l Faktur Pajak yang dibuat ... setelah melewati jangka
    # waktu 3 (tiga) bulan" was quoted inside ayat (1) (session 64); a word ending in "l2l" or a reference is
    # no heading
    text = "Pasal 26 (1) Faktur Pajak wajib dibuat. l2l Faktur Pajak yang terlambat.\n(3) Lain.\nPasal 27"
    new, changes = ocr.repair_text(text, vocab())
    assert (
        new
        == "Pasal 26 (1) Faktur Pajak wajib dibuat.\n(2) Faktur Pajak yang terlambat.\n(3) Lain.\nPasal 27"
    )
    assert [(c.before, c.after, c.rule) for c in changes] == [(" l2l", "\n(2)", "ayat")]
    kept = (
        "Pasal 26 (1) Satu (COVID-l9l Dua.\n(2) Dua sebagaimana dimaksud pada ayat l2l tercantum.\nPasal 27"
    )
    assert ocr.repair_text(kept, vocab())[0] == kept


def test_two_misread_ayat_headings_in_a_row_confirm_each_other() -> None:
    # PP 55/2022 Pasal 22: "Pasal 22 (l) Amortisasi ... . {21 Amortisasi ..." then "(3)"
    text = "Pasal 22 (l) Amortisasi harta. {21 Amortisasi dimulai.\n(3) Apabila harta.\nPasal 23"
    assert ocr.repair_text(text, vocab())[0] == (
        "Pasal 22 (1) Amortisasi harta.\n(2) Amortisasi dimulai.\n(3) Apabila harta.\nPasal 23"
    )


def test_mid_line_ayat_marker_out_of_sequence_is_left_alone() -> None:
    text = "Pasal 56\n(1) Atas penghasilan tertentu. {31 Tarif sebesar 0,5%.\n(3) Tidak termasuk.\nPasal 57"
    assert ocr.repair_text(text, vocab())[0] == text


def test_a_well_formed_mid_line_marker_confirms_the_misread_one_after_the_pasal_heading() -> None:
    text = "Pasal 39 (U Penjualan saham. (2) Atas penjualan.\nPasal 40"
    assert ocr.repair_text(text, vocab())[0] == "Pasal 39 (1) Penjualan saham. (2) Atas penjualan.\nPasal 40"


def test_ayat_reference_bracket_read_as_1_is_repaired() -> None:
    text = "sebagaimana dimaksud pada ayat (21 huruf a dan ayat {21, dan ayat (U;"
    assert ocr.repair_text(text, vocab())[0] == (
        "sebagaimana dimaksud pada ayat (2) huruf a dan ayat (2), dan ayat (1);"
    )


def test_ayat_reference_left_alone_where_the_document_has_that_many_ayat() -> None:
    text = "(21) Ayat kedua puluh satu.\npada ayat (21 huruf a"
    assert ocr.repair_text(text, vocab())[0] == text


# ------------------------------------------------------------------------------------------ Pasal numbers


def test_pasal_number_with_letters_for_digits_is_repaired_when_known() -> None:
    text = "Pasal 6O\ndalam Pasal L7 ayat (1) dan Pasal 2l"
    new, changes = ocr.repair_text(text, vocab())
    assert new == "Pasal 60\ndalam Pasal 17 ayat (1) dan Pasal 2l"  # no Pasal 21 anywhere: left
    assert [c.rule for c in changes] == ["pasal", "pasal"]


def test_roman_and_suffixed_pasal_numbers_are_left_alone() -> None:
    text = "Pasal I\nPasal II\ndalam Pasal 4A dan Pasal 31E"
    assert ocr.repair_text(text, vocab())[0] == text


# ------------------------------------------------------------------------------------------------ amounts


@pytest.mark.parametrize(
    ("words", "value"),
    [
        ("empat miliar delapan ratus juta", Decimal(4_800_000_000)),
        ("nol koma lima", Decimal("0.5")),
        ("seratus", Decimal(100)),
        ("dua puluh lima", Decimal(25)),
        ("sebelas ribu", Decimal(11_000)),
        ("tujuh belas juta lima ratus ribu", Decimal(17_500_000)),
        ("seribu", Decimal(1000)),
        ("empat puluh juta", Decimal(40_000_000)),
        ("sepuluh triliun", Decimal(10**13)),
    ],
)
def test_spelled_out_indonesian_numbers_are_parsed(words: str, value: Decimal) -> None:
    assert ocr.words_value(words) == value


@pytest.mark.parametrize("words", ["empat miliar deiapan ratus juta", "ratus", "dua tiga", ""])
def test_unparseable_number_words_give_none(words: str) -> None:
    assert ocr.words_value(words) is None


def test_rupiah_amount_matching_its_words_is_rewritten_in_standard_form() -> None:
    text = "melebihi Rpa.80O.O0O.O0O,OO (empat miliar delapan ratus juta rupiah), atas"
    new, changes = ocr.repair_text(text, vocab())
    assert new == "melebihi Rp4.800.000.000,00 (empat miliar delapan ratus juta rupiah), atas"
    assert [(c.before, c.after, c.rule) for c in changes] == [
        ("Rpa.80O.O0O.O0O,OO", "Rp4.800.000.000,00", "amount")
    ]


def test_rupiah_amount_not_matching_its_words_is_left_alone() -> None:
    text = "melebihi Rpa.80O.O0O.O0O,OO (lima miliar rupiah) dan Rp2l.000,00 (dua puluh lima ribu rupiah)"
    assert ocr.repair_text(text, vocab())[0] == text


def test_percentage_matching_its_words_is_repaired_and_a_mismatch_left() -> None:
    text = (
        "sebesar lOO% (seratus persen) dan O,5% (nol koma lima persen) dan rendah 21% (dua puluh lima persen)"
    )
    assert ocr.repair_text(text, vocab())[0] == (
        "sebesar 100% (seratus persen) dan 0,5% (nol koma lima persen) dan rendah 21% (dua puluh lima persen)"
    )


# ------------------------------------------------------------------------------------------- idempotence


# ------------------------------------------------------------------------------------------ column markers


def test_ayat_markers_read_in_a_column_are_put_before_their_sentences() -> None:
    # the layout of UU HPP's restated UU KUP Pasal 25: six markers, then six ayat run together
    text = (
        "Pasal 25\n(1) Wajib Pajak dapat mengajukan keberatan.\n(2) Keberatan diajukan secara tertulis.\n"
        "(3) (3a) (41 (s) Keberatan harus diajukan dalam jangka waktu 3 (tiga) bulan. Dalam hal keberatan "
        "diajukan, pajak dilunasi dahulu. Keberatan yang lain tidak dipertimbangkan. Dihapus.\nPasal 26"
    )
    new, changes = ocr.repair_text(text, vocab())
    assert new.split("\n")[3] == (
        "(3) Keberatan harus diajukan dalam jangka waktu 3 (tiga) bulan. (3a) Dalam hal keberatan diajukan, "
        "pajak dilunasi dahulu. (4) Keberatan yang lain tidak dipertimbangkan. (5) Dihapus."
    )
    assert [(c.line, c.rule) for c in changes] == [(4, "columns")]
    assert new.count("\n") == text.count("\n")  # still one line: the logged line numbers stay true


@pytest.mark.parametrize(
    "line",
    [
        # three markers, two sentences: which ayat a sentence is cannot be told
        "(3) (4) (5) Keberatan harus diajukan dalam 3 (tiga) bulan. Keberatan lain tidak dipertimbangkan.",
        # the run does not continue the Pasal's ayat (2): an OCR'd "(6e)" for a later ayat
        "(6e) (7) Dalam hal kewajiban tidak dilaksanakan, diterbitkan ketetapan. Besarnya ditetapkan.",
        # markers that are not consecutive
        "(3) (5) Keberatan harus diajukan dalam 3 (tiga) bulan. Keberatan lain tidak dipertimbangkan.",
    ],
)
def test_a_column_of_markers_that_cannot_be_matched_to_sentences_is_left_alone(line: str) -> None:
    text = f"Pasal 25\n(1) Wajib Pajak dapat mengajukan keberatan.\n(2) Keberatan tertulis.\n{line}\nPasal 26"
    assert ocr.repair_text(text, vocab())[0] == text


def test_repair_is_idempotent() -> None:
    text = (
        "Pasal 61 (U Wajib Pqiak dengan peredaran bmto melebihi Rpa.80O.O0O.O0O,OO (empat miliar delapan "
        "ratus juta rupiah).\n(2) Atas dasar Pasal 6O ayat (21 dikenai 0,5% (nol koma lima persen).\nPasal 62"
    )
    once, changes = ocr.repair_text(text, vocab())
    assert changes
    twice, again = ocr.repair_text(once, vocab())
    assert (twice, again) == (once, [])


def _corpus(tmp_path: Path) -> Path:
    regs = tmp_path / "regulations"
    for doc_id, text, noisy in [
        ("clean-1", CLEAN, False),
        ("noisy-1", "Pasal 60\nWajib Pqiak temtang.\n", True),
    ]:
        folder = regs / doc_id
        folder.mkdir(parents=True)
        (folder / "text.txt").write_text(text, encoding="utf-8")
        (folder / "source.md").write_text(text, encoding="utf-8")
        meta = {
            "id": doc_id,
            "quality": {"ocr_noisy": noisy},
            "normalisation": {"steps": ["none"], "counts": {}},
            "sizes": {"distinct_pasal_headings_in_text": 99},
        }
        (folder / "metadata.json").write_text(json.dumps(meta), encoding="utf-8")
    return regs


def test_cli_dry_run_writes_nothing_and_a_real_run_logs_every_change_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    regs = _corpus(tmp_path)
    noisy = regs / "noisy-1"
    assert ocr.main(["--regulations", str(regs), "--dry-run"]) == 0
    assert (
        "noisy-1: 2 changes (word=2 ayat=0 pasal=0 amount=0 columns=0 split=0 unmarked=0 joined=0 header=0 "
        "digits=0)" in capsys.readouterr().out
    )
    assert (noisy / "text.txt").read_text(encoding="utf-8") == "Pasal 60\nWajib Pqiak temtang.\n"
    assert not (noisy / "ocr_repairs.tsv").exists()

    assert ocr.main(["--regulations", str(regs), "--doc", "noisy-1"]) == 0
    assert (noisy / "text.txt").read_text(encoding="utf-8") == "Pasal 60\nWajib Pajak terutang.\n"
    assert (noisy / "source.md").read_text(encoding="utf-8") == "Pasal 60\nWajib Pqiak temtang.\n"
    tsv = (noisy / "ocr_repairs.tsv").read_text(encoding="utf-8")
    assert tsv == "line\tbefore\tafter\trule\n2\tPqiak\tPajak\tword\n2\ttemtang\tterutang\tword\n"
    meta = json.loads((noisy / "metadata.json").read_text(encoding="utf-8"))
    assert meta["normalisation"]["steps"] == ["none", ocr.STEP]
    assert meta["normalisation"]["counts"]["ocr_repair_word"] == 2
    assert meta["sizes"]["text_chars"] == len("Pasal 60\nWajib Pajak terutang.\n")
    assert meta["sizes"]["distinct_pasal_headings_in_text"] == 1

    files = {p.name: p.read_bytes() for p in noisy.iterdir()}
    assert ocr.main(["--regulations", str(regs)]) == 0  # second run: nothing to change, nothing rewritten
    assert {p.name: p.read_bytes() for p in noisy.iterdir()} == files
    assert (regs / "clean-1" / "text.txt").read_text(encoding="utf-8") == CLEAN


def test_cli_rejects_a_document_it_has_no_text_for(tmp_path: Path) -> None:
    with pytest.raises(SystemExit):
        ocr.main(["--regulations", str(_corpus(tmp_path)), "--doc", "no-such-doc"])


# ------------------------------------------------------------------------------------------ split words

#: three documents that write "sebesar", "kegiatan" and "batubara" whole
SPLIT_DOCS = [
    "Tarif sebesar 2%. Kegiatan usaha. Tarif sebesar 5% atas kegiatan batubara dan olahraga.",
    "Pajak sebesar 10% atas kegiatan. Kegiatan lain sebesar 1%. batubara olahraga",
    "Imbalan sebesar 15% bagi kegiatan batubara, olahraga, batubara, olahraga, batubara, olahraga.",
]


def _split_evidence(*extra: str) -> Any:
    return ocr.SplitEvidence.of([(t, False) for t in (*SPLIT_DOCS, *extra)])


@pytest.mark.parametrize(
    ("text", "fixed"),
    [
        ("dikenai tarif s ebesar 2%", "dikenai tarif sebesar 2%"),  # "ebesar" is no word
        ("Ke giatan usaha", "Kegiatan usaha"),  # the first piece's case is kept
        ("tarif seb esar 2%", "tarif sebesar 2%"),
    ],
)
def test_a_word_the_pdf_split_is_joined(text: str, fixed: str) -> None:
    lines = [text]
    changes = ocr.repair_splits(lines, _split_evidence())
    assert lines == [fixed]
    assert [(c.line, c.after, c.rule) for c in changes] == [
        (1, fixed.split()[fixed.split().index(c.after)], "split") for c in changes
    ]


@pytest.mark.parametrize(
    "text",
    [
        "tambang batu bara",  # written apart by the acts (APART), though "batubara" is a corpus word
        "kegiatan olah raga",
        "tarif s ebesarnya",  # "sebesarnya" is no corpus word
        "atas kegiatan usaha",  # two words, no pair to join
    ],
)
def test_words_written_apart_are_left_alone(text: str) -> None:
    lines = [text]
    assert ocr.repair_splits(lines, _split_evidence()) == []
    assert lines == [text]


def test_two_words_written_apart_more_often_than_together_are_left_alone() -> None:
    # "di luar" is two words although the acts once in a while write "diluar": a split is an accident, rarer
    # than the whole word
    evidence = _split_evidence(*["diluar kegiatan di luar negeri di luar usaha di luar pajak"] * 6)
    lines = ["berada di luar negeri"]
    assert ocr.repair_splits(lines, evidence) == [] and lines == ["berada di luar negeri"]


def test_a_hyphen_spaced_from_its_compound_is_closed_up_where_that_is_the_texts_habit() -> None:
    lines = ["peraturan perundang -undangan", "barang -barang dan lain -lain", "rata -rata, masing -masing"]
    changes = ocr.repair_splits(lines, _split_evidence())
    assert lines == [
        "peraturan perundang-undangan",
        "barang-barang dan lain-lain",
        "rata-rata, masing-masing",
    ]
    assert [(c.line, c.before, c.after) for c in changes][:2] == [
        (1, "perundang -undangan", "perundang-undangan"),
        (2, "barang -barang", "barang-barang"),
    ]
    # a lone spaced hyphen is a stray mark of an OCR'd act, not a compound: left alone
    stray = ["penghasilan bruto dikurangi -dengan bagian penghasilan"]
    assert ocr.repair_splits(stray, _split_evidence()) == []
    assert stray == ["penghasilan bruto dikurangi -dengan bagian penghasilan"]


def test_a_joined_word_too_rare_in_the_corpus_is_not_made() -> None:
    # "tarifnya" occurs in one document only: no evidence it is the word the pieces belong to
    evidence = _split_evidence("tarifnya tarifnya tarifnya tarifnya tarifnya tarifnya")
    lines = ["dan tar ifnya"]
    assert ocr.repair_splits(lines, evidence) == [] and lines == ["dan tar ifnya"]


def test_cli_joins_split_words_in_a_text_that_is_not_ocr_noisy(tmp_path: Path) -> None:
    regs = _corpus(tmp_path)
    for i, text in enumerate(SPLIT_DOCS):
        folder = regs / f"clean-{i + 2}"
        folder.mkdir()
        (folder / "text.txt").write_text(text, encoding="utf-8")
        meta = {
            "id": folder.name,
            "quality": {"ocr_noisy": False},
            "normalisation": {"steps": [], "counts": {}},
        }
        (folder / "metadata.json").write_text(json.dumps(meta), encoding="utf-8")
    split = regs / "clean-9"
    split.mkdir()
    (split / "text.txt").write_text("Pasal 3\nTarif s ebesar 2% atas ke giatan.\n", encoding="utf-8")
    (split / "metadata.json").write_text(
        json.dumps({"id": "clean-9", "quality": {}, "normalisation": {"steps": [], "counts": {}}}),
        encoding="utf-8",
    )
    (regs / "index.json").write_text(json.dumps([{"id": "clean-9", "text_chars": 0}]), encoding="utf-8")
    assert ocr.main(["--regulations", str(regs), "--doc", "clean-9"]) == 0
    assert (split / "text.txt").read_text(encoding="utf-8") == "Pasal 3\nTarif sebesar 2% atas kegiatan.\n"
    index = json.loads((regs / "index.json").read_text(encoding="utf-8"))
    assert index == [{"id": "clean-9", "text_chars": len("Pasal 3\nTarif sebesar 2% atas kegiatan.\n")}]
    tsv = (split / "ocr_repairs.tsv").read_text(encoding="utf-8")
    assert tsv == "line\tbefore\tafter\trule\n2\ts ebesar\tsebesar\tsplit\n2\tke giatan\tkegiatan\tsplit\n"
    meta = json.loads((split / "metadata.json").read_text(encoding="utf-8"))
    assert meta["normalisation"]["steps"] == [ocr.SPLIT_STEP]
    assert meta["normalisation"]["counts"] == {"ocr_repair_split": 2}
    # the clean document's words were not touched by the OCR rules
    assert (regs / "clean-1" / "text.txt").read_text(encoding="utf-8") == CLEAN


# ------------------------------------------------------------------------------------------ unmarked ayat

#: PP 50/2022's layout: no ayat heading in the Pasal, its page's markers at the page's foot
UNMARKED_PAGE = (
    "Pasal 5\n"
    "Wajib Pajak dapat membetulkan Surat Pemberitahuan dengan pernyataan tertulis. Pembetulan sebagaimana "
    "dimaksud pada ayat (1) dapat dilakukan dengan syarat belum dilakukan:\n"
    "a. Pemeriksaan; atau\n"
    "b. Pemeriksaan Bukti Permulaan. Pernyataan tertulis sebagaimana dimaksud pada ayat (1) diberi tanda. "
    "jdih.kemenkeu.go.id (3) (4) (1) (2) Dalam hal pembetulan sebagaimana dimaksud pada ayat (1) menyatakan "
    "rugi, pembetulan disampaikan paling lama 2 (dua) tahun sebelum daluwarsa penetapan. Bagian Ketiga "
    "Pengungkapan\n"
    "Pasal 6\nWajib Pajak dapat mengungkapkan ketidakbenaran.\n"
)


def test_ayat_markers_printed_at_the_page_foot_are_put_before_their_sentences() -> None:
    lines = UNMARKED_PAGE.split("\n")
    changes = ocr.repair_unmarked(lines)
    assert "\n".join(lines).split("\n")[:10] == [
        "Pasal 5",
        "(1) Wajib Pajak dapat membetulkan Surat Pemberitahuan dengan pernyataan tertulis.",
        "(2) Pembetulan sebagaimana dimaksud pada ayat (1) dapat dilakukan dengan syarat belum dilakukan:",
        "a. Pemeriksaan; atau",
        "b. Pemeriksaan Bukti Permulaan.",
        "(3) Pernyataan tertulis sebagaimana dimaksud pada ayat (1) diberi tanda. jdih.kemenkeu.go.id",
        "(4) Dalam hal pembetulan sebagaimana dimaksud pada ayat (1) menyatakan rugi, pembetulan disampaikan "
        "paling lama 2 (dua) tahun sebelum daluwarsa penetapan.",
        "Bagian Ketiga Pengungkapan",
        "Pasal 6",
        "Wajib Pajak dapat mengungkapkan ketidakbenaran.",
    ]
    # one change per line the rule rewrote, logged with its line number in the text as read
    assert [(c.line, c.rule) for c in changes] == [(2, "unmarked"), (4, "unmarked")]
    again = "\n".join(lines).split("\n")
    assert ocr.repair_unmarked(again) == []  # the Pasal has its markers now


def test_ayat_markers_printed_above_the_heading_are_put_before_their_sentences() -> None:
    # PP 23/2018's layout: the markers on a line above the heading, the heading printed twice
    lines = [
        "(1) (2t",
        "Pasal 7",
        "(1)",
        "Pasal 7",
        "Wajib Pajak yang peredaran brutonya melebihi Rp4.800.000.000,00 tetap dikenai tarif sampai akhir "
        "Tahun Pajak. Atas penghasilan Wajib Pajak sebagaimana dimaksud pada ayat (1) dikenai tarif umum.",
        "Pasal 8",
    ]
    ocr.repair_unmarked(lines)
    assert [line for line in "\n".join(lines).split("\n") if line] == [
        "Pasal 7",
        "(1) Wajib Pajak yang peredaran brutonya melebihi Rp4.800.000.000,00 tetap dikenai tarif "
        "sampai akhir Tahun Pajak.",
        "(2) Atas penghasilan Wajib Pajak sebagaimana dimaksud pada ayat (1) dikenai tarif umum.",
        "Pasal 8",
    ]


def test_the_elucidation_names_how_many_ayat_a_pasal_has() -> None:
    body = "Pasal 2\nSatu ayat. Dua ayat sebagaimana dimaksud pada ayat (1). Tiga ayat.\n"
    three = body + "PENJELASAN\nPasal 2\nAyat (1) Cukup jelas. Ayat (2) Cukup jelas. Ayat (3) Cukup jelas.\n"
    lines = ("\n" * 11 + three).split("\n")
    ocr.repair_unmarked(lines)
    assert "(3) Tiga ayat." in "\n".join(lines).split("\n")
    # the elucidation names two ayat: the three sentences cannot be told apart into two
    two = body + "PENJELASAN\nPasal 2\nAyat (1) Cukup jelas. Ayat (2) Cukup jelas.\n"
    lines = ("\n" * 11 + two).split("\n")
    assert ocr.repair_unmarked(lines) == []


@pytest.mark.parametrize(
    "body",
    [
        # no marker printed apart, and one cited ayat proves only two of three sentences to be ayat
        "Satu ayat. Dua ayat sebagaimana dimaksud pada ayat (1). Tiga ayat.",
        # a sentence citing its own or a later ayat: the sentences are not the ayat
        "(1) (2) Satu ayat sebagaimana dimaksud pada ayat (2). Dua ayat.",
        # the Pasal cites no ayat of its own: one ayat of several sentences
        "(1) (2) Satu kalimat. Dua kalimat.",
    ],
)
def test_a_pasal_whose_sentences_cannot_be_told_to_be_its_ayat_is_left_alone(body: str) -> None:
    lines = f"Pasal 3\n{body}\nPasal 4".split("\n")
    assert ocr.repair_unmarked(lines) == []


def test_the_text_layers_page_markers_are_repaired_in_the_corpus() -> None:
    # PP 50/2022 Pasal 5 ayat (6) (the two-year limit for a loss return's correction) was part of a Pasal
    # without ayat; PP 23/2018 Pasal 7 ayat (1) (0,5% to the end of the year the threshold is passed) too
    pp50 = (ROOT / "corpus/regulations/pp-50-2022/text.txt").read_text(encoding="utf-8").split("\n")
    assert any(
        line.startswith("(6) Dalam hal pembetulan Surat Pemberitahuan") and "2 (dua) tahun" in line
        for line in pp50
    )
    # a sentence opening with a capital I read as "l" ("lmbalan bunga") starts an ayat too: Pasal 44 has nine
    assert "(5) lmbalan bunga sebagaimana dimaksud pada ayat (1) diberikan:" in pp50
    assert any(line.startswith("(9) Tata cara pemberian imbalan bunga") for line in pp50)
    pp23 = (ROOT / "corpus/regulations/pp-23-2018/text.txt").read_text(encoding="utf-8")
    assert "Pasal 7\n(1) Wajib Pajak sebagaimana dimaksud dalam Pasal 3 ayat (1)" in pp23
    assert "\nPasal 31A\n" not in pp23  # a reference inside Pasal 3, not a Pasal of the act
