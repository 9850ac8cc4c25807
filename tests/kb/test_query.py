"""Query understanding: refs, provisions, dates, tax types, language, alias expansions, FTS safety."""

from __future__ import annotations

import datetime as dt
import sqlite3
from pathlib import Path

import pytest

from kb.lexical import question_concepts
from kb.lexicon import without_enclitic
from kb.query import (
    DEFAULT_ALIASES_PATH,
    TAX_TYPES,
    AliasDictionary,
    AliasError,
    Expansion,
    Provision,
    detect_language,
    fts_query,
    tokenize,
    understand,
)

D = dt.date
#: The tokenizer of kb/store/sqlite.py's chunks_fts table.
_INDEX_TOKENIZER = "\"unicode61 remove_diacritics 2 tokenchars '%'\""


def _fts_table() -> sqlite3.Connection:
    con = sqlite3.connect(":memory:")
    try:
        con.execute(f"CREATE VIRTUAL TABLE t USING fts5(x, tokenize={_INDEX_TOKENIZER})")
    except sqlite3.OperationalError:  # pragma: no cover - depends on the sqlite build
        pytest.skip("sqlite3 without FTS5")
    con.execute("CREATE VIRTUAL TABLE v USING fts5vocab(t, 'instance')")
    return con


def _fts_tokens(con: sqlite3.Connection, text: str) -> list[str]:
    con.execute("DELETE FROM t")
    con.execute("INSERT INTO t(x) VALUES (?)", (text,))
    return [r[0] for r in con.execute("SELECT term FROM v ORDER BY offset")]


# ------------------------------------------------------------------------------------------
# The motivating questions, end to end
# ------------------------------------------------------------------------------------------


def test_pph23_technical_services() -> None:
    plan = understand("tarif PPh 23 jasa teknik?")
    assert plan.language == "id"
    assert plan.tax_types == ("PPh 23",)
    assert plan.doc_refs == ()
    assert plan.provisions == (Provision("23", None, None, "UU 7/1983", "tax_type", 6, 12),)
    assert plan.as_of is None and plan.as_of_precision is None
    assert [e.source for e in plan.expansions] == [
        "aliases.yaml:tarif",
        "aliases.yaml:pph-23",
        "aliases.yaml:jasa-teknik",
    ]
    assert plan.expansions[2] == Expansion(
        "jasa teknik", ("technical service", "technical services"), "aliases.yaml:jasa-teknik"
    )
    assert plan.terms[:5] == ("tarif", "pph", "23", "jasa", "teknik")
    assert "withholding tax article 23" in plan.terms and "technical services" in plan.terms


def test_uu_ppn_pasal_as_of_year() -> None:
    plan = understand("UU PPN Pasal 7 as of 2015")
    assert plan.language == "en"
    assert plan.doc_refs == ("UU 8/1983",)
    assert plan.provisions == (Provision("7", None, None, "UU 8/1983", "text", 7, 14),)
    assert (plan.as_of, plan.as_of_precision, plan.as_of_span) == (D(2015, 1, 1), "year", (15, 25))
    assert plan.tax_types == ("PPN",)
    assert [e.source for e in plan.expansions] == ["aliases.yaml:uu-ppn"]
    # the date phrase is a filter, not a search term
    assert "2015" not in plan.terms and "as" not in plan.terms
    assert plan.terms[:4] == ("uu", "ppn", "pasal", "7")


def test_foreign_vendor_treaty_english() -> None:
    plan = understand("which documents does a foreign vendor need for the treaty rate?")
    assert plan.language == "en"
    assert plan.doc_refs == () and plan.tax_types == () and plan.as_of is None
    assert [e.source for e in plan.expansions] == [
        "aliases.yaml:dokumen",
        "aliases.yaml:luar-negeri",
        "aliases.yaml:p3b",
        "aliases.yaml:tarif",
        "lexicon.yaml:search_words:foreign vendor",  # the acts' "wajib pajak luar negeri" (session 54)
    ]
    assert "persetujuan penghindaran pajak berganda" in plan.terms
    assert "luar negeri" in plan.terms and "dokumen" in plan.terms
    assert "which" not in plan.terms and "the" not in plan.terms


def test_pmk_number_with_provision() -> None:
    plan = understand("PMK-168/PMK.010/2023 pasal 2 ayat (1)")
    assert plan.doc_refs == ("PMK 168/2023",)
    assert plan.provisions == (Provision("2", "1", None, "PMK 168/2023", "text", 21, 37),)
    assert plan.as_of is None  # the year of a regulation number is not a transaction date
    assert [e.source for e in plan.expansions] == ["aliases.yaml:pmk"]  # once, though "PMK" occurs twice
    assert plan.terms[:8] == ("pmk", "168", "010", "2023", "pasal", "2", "ayat", "1")


def test_ppn_rate_month() -> None:
    plan = understand("tarif PPN Maret 2022")
    assert (plan.as_of, plan.as_of_precision) == (D(2022, 3, 1), "month")
    assert plan.tax_types == ("PPN",)
    assert plan.language == "id"
    assert "maret" not in plan.terms and "pajak pertambahan nilai" in plan.terms


def test_umkm_final_year_keeps_doc_open() -> None:
    plan = understand("berapa tarif PPh final UMKM tahun 2019?")
    assert (plan.as_of, plan.as_of_precision) == (D(2019, 1, 1), "year")
    assert plan.tax_types == ("PPh Final",)
    assert plan.doc_refs == ()  # PP 46/2013, PP 23/2018 or PP 55/2022 depending on the date
    assert [e.source for e in plan.expansions] == ["aliases.yaml:tarif", "aliases.yaml:pph-final-umkm"]
    assert "peredaran bruto tertentu" in plan.terms
    assert "tahun" not in plan.terms and "berapa" not in plan.terms


# ------------------------------------------------------------------------------------------
# Table cases
# ------------------------------------------------------------------------------------------

DOC_CASES = [
    ("Pasal 17 UU PPh", ("UU 7/1983",)),
    ("ketentuan UU KUP tentang keberatan", ("UU 6/1983",)),
    ("apa yang diubah UU HPP?", ("UU 7/2021",)),
    ("UU Cipta Kerja klaster perpajakan", ("UU 11/2020",)),
    ("Undang-Undang Nomor 36 Tahun 2008", ("UU 36/2008",)),
    ("UU 7 Tahun 2021 Pasal 3", ("UU 7/2021",)),
    ("PP 55/2022 dan PER-03/PJ/2022", ("PP 55/2022", "PER 3/2022")),
    ("PMK 168/2023 vs PP TER", ("PMK 168/2023", "PP 58/2023")),
    ("PP UMKM 0,5%", ()),
    ("PP 23 untuk UMKM", ()),
    ("UU PPN dan UU PPN lagi", ("UU 8/1983",)),
]


@pytest.mark.parametrize(("question", "refs"), DOC_CASES)
def test_doc_refs(question: str, refs: tuple[str, ...]) -> None:
    assert understand(question).doc_refs == refs


PROVISION_CASES = [
    ("PPh Pasal 23", [("23", None, None, "UU 7/1983", "text")]),
    ("PPh 21 pegawai tetap", [("21", None, None, "UU 7/1983", "tax_type")]),
    ("PPh Pasal 4 ayat (2) huruf a", [("4", "2", "a", "UU 7/1983", "text")]),
    ("PPh 4(2) sewa tanah", [("4", "2", None, "UU 7/1983", "tax_type")]),
    ("Pasal 7 ayat (1) UU PPN", [("7", "1", None, "UU 8/1983", "text")]),
    ("KUP Pasal 13 ayat (2)", [("13", "2", None, "UU 6/1983", "text")]),
    ("Pasal 5 dan Pasal 6", [("5", None, None, None, "text"), ("6", None, None, None, "text")]),
    (
        "PPh 26 atas dividen, lihat Pasal 26 ayat (1) UU PPh",
        [("26", None, None, "UU 7/1983", "tax_type"), ("26", "1", None, "UU 7/1983", "text")],
    ),
    ("PPh Pasal 15 pelayaran", [("15", None, None, "UU 7/1983", "text")]),
]


@pytest.mark.parametrize(("question", "expected"), PROVISION_CASES)
def test_provisions(question: str, expected: list[tuple]) -> None:
    got = [(p.pasal, p.ayat, p.huruf, p.law, p.origin) for p in understand(question).provisions]
    assert got == expected


DATE_CASES = [
    ("tarif PPN 2022-03-15", D(2022, 3, 15), "day"),
    ("faktur tanggal 15/03/2022", D(2022, 3, 15), "day"),
    ("invoice dated 03/15/2022", D(2022, 3, 15), "day"),  # month-first only because day-first is impossible
    ("transaksi 15 Maret 2022", D(2022, 3, 15), "day"),
    ("transaction on 15 March 2022", D(2022, 3, 15), "day"),
    ("paid on March 15, 2022", D(2022, 3, 15), "day"),
    ("per 1 Januari 2024", D(2024, 1, 1), "day"),
    ("masa Agustus 2023", D(2023, 8, 1), "month"),
    ("in Oct 2021", D(2021, 10, 1), "month"),
    ("PPN Desember 2021", D(2021, 12, 1), "month"),
    ("SPT Masa Mei 2024", D(2024, 5, 1), "month"),
    ("masa pajak 03/2022", D(2022, 3, 1), "month"),
    ("tarif tahun 2019", D(2019, 1, 1), "year"),
    ("rate in 2019", D(2019, 1, 1), "year"),
    ("sebelum April 2022", D(2022, 3, 31), "day"),
    ("before 2022", D(2021, 12, 31), "day"),
    ("setelah Maret 2022", D(2022, 4, 1), "month"),
    ("31/02/2022 is not a date, 2021 is", D(2021, 1, 1), "year"),
    ("UU No. 7 Tahun 2021", None, None),
    ("tarif PPN 11% dan 12%", None, None),
]


@pytest.mark.parametrize(("question", "as_of", "precision"), DATE_CASES)
def test_dates(question: str, as_of: dt.date | None, precision: str | None) -> None:
    plan = understand(question)
    assert (plan.as_of, plan.as_of_precision) == (as_of, precision)


def test_date_span_covers_lead_words() -> None:
    plan = understand("tarif PPh 23 sejak 1 Januari 2024?")
    assert plan.as_of_span is not None
    assert plan.text[slice(*plan.as_of_span)] == "sejak 1 Januari 2024"


TAX_CASES = [
    ("PPh23 atas royalti", ("PPh 23",)),
    ("Pajak Penghasilan Pasal 21 dan PPh 26", ("PPh 21", "PPh 26")),
    ("employee income tax withholding for expats", ("PPh 21",)),
    ("PPh 22 impor", ("PPh 22",)),
    ("angsuran PPh Pasal 25", ("PPh 25",)),
    ("PPh final pasal 4 ayat 2 bunga deposito", ("PPh 4(2)", "PPh Final")),
    ("VAT invoice and luxury goods sales tax", ("PPN", "PPnBM")),
    ("Bea Meterai e-Meterai Rp10.000", ("Bea Meterai",)),
    ("PBB dan KUP", ("PBB", "KUP")),
    ("pajak masukan yang tidak dapat dikreditkan", ("PPN",)),
    ("TER PPh 21 bulanan", ("PPh 21",)),
    ("PP 23/2018", ()),
]


@pytest.mark.parametrize(("question", "types"), TAX_CASES)
def test_tax_types(question: str, types: tuple[str, ...]) -> None:
    assert understand(question).tax_types == types


LANGUAGE_CASES = [
    ("berapa tarif PPh 23 untuk jasa teknik?", "id"),
    ("what is the withholding rate on dividends?", "en"),
    ("apakah faktur pajak wajib dibuat?", "id"),
    ("PMK-168/PMK.010/2023", "id"),  # nothing to go on: default
    ("how do I file an objection?", "en"),
    ("kapan batas waktu SPT Masa PPN", "id"),
]


@pytest.mark.parametrize(("question", "language"), LANGUAGE_CASES)
def test_language(question: str, language: str) -> None:
    assert understand(question).language == language
    assert detect_language(question) == language


EXPANSION_CASES = [
    ("faktur pajak", "aliases.yaml:faktur-pajak", "faktur pajak", "VAT invoice"),
    ("e-Faktur error", "aliases.yaml:faktur-pajak", "e-Faktur", "tax invoice"),
    ("certificate of domicile", "aliases.yaml:skd", "certificate of domicile", "surat keterangan domisili"),
    ("Formulir DGT", "aliases.yaml:formulir-dgt", "Formulir DGT", "DGT form"),
    ("tax treaty Singapore", "aliases.yaml:p3b", "tax treaty", "P3B"),
    (
        "VAT-registered entrepreneur",
        "aliases.yaml:pkp",
        "VAT-registered entrepreneur",
        "pengusaha kena pajak",
    ),
    ("NPWP vendor", "aliases.yaml:npwp", "NPWP", "tax identification number"),
    ("NITKU cabang", "aliases.yaml:nitku", "NITKU", "nomor identitas tempat kegiatan usaha"),
    ("BUT di Indonesia", "aliases.yaml:but", "BUT", "permanent establishment"),
    ("SPT Masa PPN", "aliases.yaml:spt-masa", "SPT Masa", "monthly tax return"),
    ("bukti potong hilang", "aliases.yaml:bukti-potong", "bukti potong", "withholding tax certificate"),
    ("penghasilan bruto", "aliases.yaml:penghasilan-bruto", "penghasilan bruto", "gross income"),
    ("bunga sanksi keterlambatan", "aliases.yaml:bunga-sanksi", "bunga sanksi", "penalty interest"),
    ("dividend paid abroad", "aliases.yaml:dividen", "dividend", "dividen"),
    ("PTKP 2024", "aliases.yaml:ptkp", "PTKP", "penghasilan tidak kena pajak"),
    ("average effective rate", "aliases.yaml:ter", "average effective rate", "TER"),
    ("bukan pegawai", "aliases.yaml:bukan-pegawai", "bukan pegawai", "non-employee"),
    ("input VAT credit", "aliases.yaml:pajak-masukan", "input VAT", "Pajak Masukan"),
    ("Pajak Keluaran", "aliases.yaml:pajak-keluaran", "Pajak Keluaran", "output VAT"),
    ("keberatan ditolak", "aliases.yaml:keberatan", "keberatan", "objection"),
    ("appeal deadline", "aliases.yaml:banding", "appeal", "banding"),
    ("UU HPP", "aliases.yaml:uu-hpp", "UU HPP", "Undang-Undang Harmonisasi Peraturan Perpajakan"),
]


@pytest.mark.parametrize(("question", "source", "term", "added"), EXPANSION_CASES)
def test_alias_expansions(question: str, source: str, term: str, added: str) -> None:
    plan = understand(question)
    exp = next(e for e in plan.expansions if e.source == source)
    assert exp.term == term
    assert added in exp.added and term not in exp.added
    assert " ".join(tokenize(added)) in plan.terms


def test_longest_match_wins() -> None:
    plan = understand("bunga sanksi SPT Masa")
    assert [e.source for e in plan.expansions] == ["aliases.yaml:bunga-sanksi", "aliases.yaml:spt-masa"]


def test_tokens_not_substrings() -> None:
    assert understand("sewaktu-waktu").expansions == ()  # "sewa" must not fire inside "sewaktu"


def test_case_sensitive_acronyms() -> None:
    assert understand("but what about rent?").expansions[0].source == "aliases.yaml:sewa"
    assert "aliases.yaml:but" not in [e.source for e in understand("but what about rent?").expansions]
    assert [e.source for e in understand("is a BUT taxed?").expansions] == ["aliases.yaml:but"]


def test_surface_includes_closing_bracket() -> None:
    exp = understand("PPh Pasal 4 ayat (2) atas sewa").expansions[0]
    assert (exp.term, exp.source) == ("PPh Pasal 4 ayat (2)", "aliases.yaml:pph-4-2")


# ------------------------------------------------------------------------------------------
# Tokeniser and FTS5 safety
# ------------------------------------------------------------------------------------------

TOKEN_CASES = [
    ("PMK-168/PMK.010/2023", ["pmk", "168", "pmk", "010", "2023"]),
    ("tarif 2% dan 11%", ["tarif", "2%", "dan", "11%"]),
    ("PPh 4(2)", ["pph", "4", "2"]),
    ("2,5% Rp1.000.000", ["2", "5%", "rp1", "000", "000"]),
    ("Café naïve ŒUVRE", ["cafe", "naive", "œuvre"]),
    ("e\u0301t\u0305e", ["et", "e"]),
    ("İstanbul ǖ ệ ß ø", ["istanbul", "u", "e", "ß", "ø"]),
    ("tarif_pph a'b", ["tarif", "pph", "a", "b"]),
]


@pytest.mark.parametrize(("text", "tokens"), TOKEN_CASES)
def test_tokenize_matches_fts5(text: str, tokens: list[str]) -> None:
    assert tokenize(text) == tokens
    assert _fts_tokens(_fts_table(), text) == tokens


def test_tokenize_matches_fts5_on_corpus_sample() -> None:
    con = _fts_table()
    root = Path(__file__).resolve().parents[2] / "corpus" / "regulations"
    texts = sorted(root.glob("*/text.txt"))[:6]
    if not texts:  # pragma: no cover - corpus is part of the repo
        pytest.skip("corpus not present")
    for path in texts:
        sample = path.read_text(encoding="utf-8")[:4000]
        assert tokenize(sample) == _fts_tokens(con, sample), path.parent.name


FTS_ATTACKS = [
    'tarif "PPh 23',
    "PPN AND NOT PPnBM",
    "NEAR(pajak penghasilan, 5)",
    "pph* OR x:y",
    "col:tarif ^awal (kurung",
    '"""',
    "- + * : ^",
]


@pytest.mark.parametrize("question", FTS_ATTACKS)
def test_fts_query_is_always_valid(question: str) -> None:
    con = _fts_table()
    con.execute("INSERT INTO t(x) VALUES (?)", ("tarif PPh Pasal 23 atas jasa teknik adalah 2%",))
    query = fts_query(understand(question))
    for ch in "*^:()":
        assert ch not in query
    if query:
        con.execute("SELECT rowid FROM t WHERE t MATCH ?", (query,)).fetchall()  # must not raise


def test_fts_query_quotes_operators_and_phrases() -> None:
    plan = understand("NEAR jasa teknik AND royalti")
    query = fts_query(plan)
    assert query.startswith('"near" OR "jasa" OR "teknik" OR "royalti"')
    assert '"technical services"' in query and " AND " not in query.replace('"and"', "")


def test_fts_query_finds_indonesian_text_from_english_question() -> None:
    con = _fts_table()
    con.executemany(
        "INSERT INTO t(rowid, x) VALUES (?, ?)",
        [
            (1, "Persetujuan Penghindaran Pajak Berganda dan Surat Keterangan Domisili"),
            (2, "Bea Meterai atas dokumen"),
        ],
    )
    query = fts_query(understand("treaty certificate of domicile"))
    assert [r[0] for r in con.execute("SELECT rowid FROM t WHERE t MATCH ? ORDER BY rank", (query,))] == [1]


def test_fts_query_escapes_embedded_quotes() -> None:
    from kb.query import QueryPlan

    plan = QueryPlan("x", "id", (), (), None, None, None, (), (), ('a"b', "c"))
    assert fts_query(plan) == '"a""b" OR "c"'
    assert fts_query(QueryPlan("", "id", (), (), None, None, None, (), (), ())) == ""


# ------------------------------------------------------------------------------------------
# Determinism
# ------------------------------------------------------------------------------------------


def test_deterministic() -> None:
    q = "PPh 23 dan PPh 26 atas royalti ke WPLN sebelum 1 Januari 2024, lihat PMK 112/2025 Pasal 3"
    first = understand(q)
    for _ in range(3):
        again = understand(q)
        assert again == first
        assert fts_query(again) == fts_query(first)
    fresh = understand(q, aliases=AliasDictionary.load())
    assert fresh == first
    assert first.doc_refs == ("PMK 112/2025",)
    assert first.tax_types == ("PPh 23", "PPh 26")
    assert first.as_of == D(2023, 12, 31)


# ------------------------------------------------------------------------------------------
# The dictionary file
# ------------------------------------------------------------------------------------------


def test_packaged_dictionary_is_complete() -> None:
    adict = AliasDictionary.load()
    assert len(adict.entries) >= 40
    assert all(e.reviewed_by and isinstance(e.reviewed_on, dt.date) for e in adict.entries)
    assert {e.tax_type for e in adict.entries if e.tax_type} == set(TAX_TYPES)
    docs = {e.id: e.doc for e in adict.entries if e.doc}
    assert docs["uu-ppn"] == "UU 8/1983" and docs["uu-pph"] == "UU 7/1983"
    assert docs["uu-kup"] == "UU 6/1983" and docs["uu-hpp"] == "UU 7/2021"
    assert "pph-final-umkm" not in docs
    assert adict.get("pph-23").tax_type == "PPh 23"


def _write(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "aliases.yaml"
    path.write_text(body, encoding="utf-8")
    return path


_OK = "    reviewed_by: tester\n    reviewed_on: 2026-01-01\n"


def _one(extra: str = "", terms: str = "[x, y]") -> str:
    return f"version: 1\nentries:\n  - id: a\n    terms: {terms}\n{extra}{_OK}"


@pytest.mark.parametrize(
    ("body", "needle"),
    [
        (_one() + "  - id: a\n    terms: [z, w]\n" + _OK, "entry 'a': duplicate id"),
        (_one(terms="[]"), "entry 'a': missing or empty required key(s) ['terms']"),
        (_one(terms="[x, '  ']"), "entry 'a': terms must be a list of non-empty"),
        (_one(terms="[x, '--']"), "entry 'a': term '--' has no letters"),
        (_one("    synonyms: [z]\n"), "entry 'a': unknown key(s) ['synonyms']"),
        (_one("    doc: UU 8 1983\n"), "entry 'a': doc 'UU 8 1983'"),
        (_one("    tax_type: PPh 24\n"), "entry 'a': tax_type 'PPh 24'"),
        (_one("    governs: UU PPh Pasal 7\n"), "entry 'a': governs 'UU PPh Pasal 7' is not a provision"),
        (
            _one() + "  - id: b\n    terms: [Y, z]\n" + _OK,
            "entry 'b': term 'Y' is the same as 'y' also in entry 'a'",
        ),
        (
            _one(terms="[PPh 4(2), pph 4 2]"),
            "entry 'a': term 'pph 4 2' is the same as 'PPh 4(2)' twice in this entry",
        ),
        (_one("    case_sensitive: [X]\n"), "entry 'a': case_sensitive must list terms"),
        (_one().replace("version: 1", "version: 2"), "unsupported version 2"),
        (_one("    note: [unclosed\n"), "not valid YAML at line 6"),
    ],
)
def test_dictionary_validation_names_file_and_entry(tmp_path: Path, body: str, needle: str) -> None:
    path = _write(tmp_path, body)
    with pytest.raises(AliasError) as err:
        AliasDictionary.load(path)
    assert str(path) in str(err.value)
    assert needle in str(err.value)


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(AliasError, match="cannot read the alias file"):
        AliasDictionary.load(tmp_path / "nope.yaml")


def test_custom_dictionary_source_label(tmp_path: Path) -> None:
    path = _write(tmp_path, f"version: 1\nentries:\n  - id: cuti\n    terms: [cuti, leave]\n{_OK}")
    plan = understand("annual leave", aliases=AliasDictionary.load(path))
    assert plan.expansions == (Expansion("leave", ("cuti",), "aliases.yaml:cuti"),)
    assert DEFAULT_ALIASES_PATH.name == "aliases.yaml"


def test_tokenizer_matches_the_store_schema() -> None:
    schema = (Path(__file__).resolve().parents[2] / "kb" / "store" / "sqlite.py").read_text(encoding="utf-8")
    assert "unicode61 remove_diacritics 2 tokenchars '%'" in schema  # tokenize() mirrors exactly this


def test_empty_dictionary_searches_own_words_only() -> None:
    plan = understand("tarif PPh 23 jasa teknik", aliases=AliasDictionary.empty())
    assert plan.expansions == ()
    assert fts_query(plan) == '"tarif" OR "pph" OR "23" OR "jasa" OR "teknik"'
    assert plan.tax_types == ("PPh 23",)  # the article pattern is code, not dictionary


# --- "Pasal n" without a law: the question's topic decides, else the plan asks (issue 12 item 5) -------


@pytest.mark.parametrize(
    ("question", "law"),
    [
        ("Kalau telat setor, sanksi bunga menurut Pasal 9 dihitung bagaimana?", "UU 6/1983"),
        ("Pajak masukan yang belum dikreditkan, diatur di pasal 9 bagian mana?", "UU 8/1983"),
        ("Atas sewa kendaraan dipotong berapa persen menurut psl 23?", "UU 7/1983"),
    ],
)
def test_a_pasal_without_a_law_takes_the_law_of_the_topic(question: str, law: str) -> None:
    plan = understand(question)
    (p,) = [p for p in plan.provisions if p.origin == "text"]
    assert (p.law, p.law_from, plan.needs_law) == (law, "topic", False)


def test_a_pasal_whose_topic_does_not_decide_is_ambiguous() -> None:
    plan = understand("tolong jelaskan isi ps. 9 dong")
    assert [(p.pasal, p.law) for p in plan.ambiguous_provisions] == [("9", None)]
    assert plan.needs_law


def test_a_written_law_wins_over_the_topic() -> None:
    plan = understand("Sanksi bunga di UU PPN Pasal 9 ada?")
    (p,) = [p for p in plan.provisions if p.origin == "text"]
    assert (p.law, p.law_from, plan.needs_law) == ("UU 8/1983", "text", False)


@pytest.mark.parametrize(
    ("question", "as_of"),
    [
        # a date told about a party is a fact of the story, not the transaction date
        ("Perseroan kami berdiri 2021; tarif final 0,5% itu bisa dipakai sampai tahun pajak berapa?", None),
        ("Vendor ini terdaftar sejak 2019; tarif PPh 23 jasa teknik berapa?", None),
        ("Our company was registered in 2019. What was the PPN rate in March 2022?", dt.date(2022, 3, 1)),
        (
            "An engineer who joined in 2020 gets a bonus in May 2023: which TER table applies?",
            dt.date(2023, 5, 1),
        ),
        # ... while the transaction's own date still sets it
        ("Faktur tanggal 15 Maret 2022: PPN 10 atau 11%?", dt.date(2022, 3, 15)),
    ],
)
def test_a_date_about_a_party_is_not_the_transaction_date(question: str, as_of: dt.date | None) -> None:
    assert understand(question).as_of == as_of


def test_a_word_with_the_enclitic_nya_is_searched_bare_as_well() -> None:
    """Chat glues "-nya" to the noun asked about; the acts write the bare noun and the index matches whole
    words, so "dendanya" alone found only passages that happen to write "dendanya"."""
    plan = understand("Kalau lupa lapor SPT Masa, dendanya berapa dan bunganya dihitung dari kapan?")
    assert {"dendanya", "denda", "bunganya", "bunga"} <= set(plan.terms)
    con = _fts_table()
    con.execute(
        "INSERT INTO t(x) VALUES (?)", ("dikenai sanksi administrasi berupa denda sebesar Rp100.000,00",)
    )
    assert con.execute("SELECT rowid FROM t WHERE t MATCH ?", (fts_query(plan),)).fetchall() == [(1,)]


def test_a_root_that_ends_in_nya_stays_whole() -> None:
    plan = understand("Saya mau bertanya, perusahaan yang hanya punya karyawan kontrak apa kewajibannya?")
    assert "berta" not in plan.terms and "kewajiban" in plan.terms
    assert without_enclitic("bertanya") == "bertanya" and without_enclitic("tarifnya") == "tarif"
    assert without_enclitic("ppnnya") == "ppn" and without_enclitic("hanya") == "hanya"


def test_the_name_a_message_addresses_and_its_leave_to_ask_are_no_search_terms() -> None:
    plan = understand("Ijin bertanya Pak Harto, sewa alat berat kena PPh 23 berapa? Terima kasih Bu Wulan.")
    assert not {"harto", "wulan", "ijin", "izin"} & set(plan.terms)
    assert {"sewa", "alat", "berat"} <= set(plan.terms)
    # a capital after a vocative that is no name (an acronym, a comma between) stays a term
    assert "ppn" in understand("Pak, PPN atas jasa angkutan berapa?").terms
    assert "ppn" in understand("bu PPN atas jasa angkutan berapa?").terms


def test_what_is_best_is_no_search_term_once_nya_is_detached() -> None:
    """ "gimana baiknya?" asks for advice; searched as "baik" it matched every "baik ... maupun" of an act."""
    plan = understand("Soal retur faktur bulan lalu, sebaiknya gimana ya baiknya?")
    assert not {"baik", "baiknya", "sebaiknya"} & set(plan.terms)
    assert {"retur", "faktur"} <= set(plan.terms)


def test_a_title_case_word_after_a_vocative_is_a_name_only_when_it_ends_the_clause() -> None:
    """ "Ibu Rumah Tangga" is a housewife, "Bu Ppn atas ..." a tax in title case (review, session 29)."""
    assert {"rumah", "tangga"} <= set(understand("Istri saya Ibu Rumah Tangga, perlu NPWP sendiri?").terms)
    assert "ppn" in understand("Bu Ppn atas jasa angkutan berapa?").terms
    assert not {"mr", "tan", "bro"} & set(understand("Dear Mr Tan, is VAT due on this invoice?").terms)


def test_a_check_tag_is_no_search_term_and_a_dated_document_dates_the_case() -> None:
    plan = understand("Kontrak bertanggal 3 Februari 2021 dipotong PPh 23 sebesar 2%, benar tidak?")
    assert (plan.as_of, plan.as_of_precision) == (D(2021, 2, 3), "day")
    assert plan.as_of_span is not None and plan.text[slice(*plan.as_of_span)] == "bertanggal 3 Februari 2021"
    assert not {"benar", "bertanggal"} & set(plan.terms)
    assert {"kontrak", "dipotong"} <= set(plan.terms)
    assert "salah" in understand("NPWP di faktur salah ga bisa dikreditkan?").terms


def test_a_greeting_and_a_company_name_are_no_search_terms() -> None:
    """ "siang" and "maju" were concepts the PPh 23 rate ayat had to contain (session 35 probe)."""
    question = "siang rekan2, kita bayar jasa konsultan ke PT Maju Jaya 50jt. PPh 23 nya brp persen?"
    plan = understand(question)
    assert not {"siang", "maju", "jaya"} & set(plan.terms)
    assert {"jasa", "konsultan"} <= set(plan.terms)
    concepts = {phrase for c in question_concepts(plan, question) for phrase in c}
    assert not {("siang",), ("maju",)} & concepts
    # a night shift, a months question, an acronym after a legal form and a bank keep their words
    assert "malam" in understand("Uang lembur shift malam kena PPh 21?").terms
    assert "bulan" in understand("Angsuran PPh 25 dibayar paling lambat berapa bulan?").terms
    assert "pma" in understand("PT PMA baru wajib potong PPh 23?").terms
    assert "bank" in understand("Bunga deposito di PT Bank Sentosa dipotong berapa?").terms
    # "PT." ending a sentence: the next sentence's first word is no company name
    assert (
        "investasi"
        in understand("Kami berbentuk PT. Kami investasi ke PT lain, dividennya kena pajak?").terms
    )


def test_a_receipt_is_searched_and_covered_in_the_stamp_duty_acts_words() -> None:
    """UU Bea Meterai Pasal 3 ayat (2) huruf g names a receipt "Dokumen yang menyatakan jumlah uang ... yang
    menyebutkan penerimaan uang"; a chat question says "kwitansi", which the act never writes, so Pasal 3 was
    not retrieved at all for "kwitansi 4,5jt perlu meterai?"."""
    question = "kwitansi senilai 4,5jt perlu dikasih meterai gk?"
    plan = understand(question)
    assert "penerimaan uang" in plan.terms
    concept = next(c for c in question_concepts(plan, question) if ("kwitansi",) in c)
    assert ("penerima", "uang") in concept


def test_a_term_the_dictionary_places_in_a_provision_hints_that_provision(tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        f"version: 1\nentries:\n  - id: ptkp\n    terms: [PTKP, penghasilan tidak kena pajak]\n"
        f"    governs: Pasal 7 ayat (1) UU 7/1983\n{_OK}",
    )
    plan = understand("PTKP setahun berapa?", aliases=AliasDictionary.load(path))
    hints = [p for p in plan.provisions if p.origin == "governs"]
    assert [(p.pasal, p.ayat, p.law) for p in hints] == [("7", "1", "UU 7/1983")]


@pytest.mark.parametrize(
    ("question", "tax_type"),
    [
        ("Is a consultant's fee subject to Article 23 withholding?", "PPh 23"),
        ("Do we deduct article 21 tax from an intern's allowance?", "PPh 21"),
        ("Is the rent of a warehouse under Article 4(2) final tax?", "PPh 4(2)"),
    ],
)
def test_an_english_article_name_without_pph_is_its_tax_type(question: str, tax_type: str) -> None:
    """ "Article 23 withholding" is PPh 23 as surely as "PPh Pasal 23" (the dictionary held only the long form
    "article 23 withholding tax"), so its "Article 23" is UU PPh's."""
    plan = understand(question)
    assert plan.tax_types == (tax_type,)
    assert all(p.law == "UU 7/1983" for p in plan.provisions)


def test_an_article_of_another_law_is_not_a_withholding_tax() -> None:
    assert "PPh 23" not in understand("Does Article 23 of the stamp duty law apply to receipts?").tax_types
