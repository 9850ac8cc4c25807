"""Answer verification gates: citation, exact quote, figures, support judge.

Quotes are real sentences of the sample regulations (checked against /corpus by the first test), so
the gates are exercised on the OCR'd, line-wrapped text they will meet in production.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from decimal import Decimal
from pathlib import Path

import pytest

from guardrails.errors import GuardrailError
from guardrails.verify import (
    ANGKA_TANPA_DASAR,
    DUKUNGAN_BERTENTANGAN,
    DUKUNGAN_TIDAK_CUKUP,
    KUTIPAN_TIDAK_COCOK,
    SUMBER_TIDAK_ADA,
    SUMBER_TIDAK_BERLAKU,
    SUMBER_TIDAK_BOLEH_DIBACA,
    ClaimInput,
    InvalidInputError,
    JudgeConfigError,
    JudgeError,
    JudgeResult,
    LexicalSupportJudge,
    NliSupportJudge,
    SourceText,
    SupportJudge,
    VerifyError,
    extract_figures,
    normalize_ws,
    number_gate,
    parse_number,
    quote_gate,
    verify_claims,
    words_to_number,
)

CORPUS = Path(__file__).resolve().parents[2] / "corpus" / "regulations"

# --- real text -------------------------------------------------------------------------------------
# uu-7-2021, Pasal 7 ayat (1) (text.txt lines 475-477)
PPN_CHUNK = (
    "Pasal 7\n(1) Tarif Pajak Pertambahan Nilai yaitu:\n"
    "a. sebesar 11% (sebelas persen) yang mulai berlaku pada tanggal 1 April 2022;"
)
PPN_QUOTE = "a. sebesar 11% (sebelas persen) yang mulai berlaku pada tanggal 1 April 2022;"
# uu-7-2021, Pasal 17 lapisan (line 388, first layer)
PPH_QUOTE = (
    "Tarif Pajak 5% (lima persen) sampai dengan Rp60.000.000,00 (enam puluh juta rupiah) "
    "di atas Rp60.000.000,00 (enam puluh juta rupiah) sampai dengan Rp250.000.000,00 "
    "(dua ratus lima puluh juta rupiah) 15% (lima belas persen)"
)
# uu-7-2021, closing provision on carbon tax (line 800)
CARBON_QUOTE = (
    "(3) Ketentuan sebagaimana dimaksud dalam Pasal 13 mulai berlaku pada tanggal 1 April 2022, "
    "yang pertama kali dikenakan terhadap badan yang bergerak di bidang pembangkit listrik "
    "tenaga uap batubara"
)
# pp-34-2016 Pasal 12 (line 63)
PP34_QUOTE = (
    "Peraturan Pemerintah ini mulai berlaku setelah 30 (tiga puluh) hari terhitung sejak tanggal diundangkan."
)
# pp-44-2022 (line 155)
PP44_QUOTE = (
    "(1) Penyerahan Barang Kena Pajak sebagaimana dimaksud dalam Pasal 23 ayat (1) huruf a untuk "
    "penyerahan Barang Kena Pajak berwujud"
)
# pmk-37-2025 Pasal 8 ayat (1) (lines 348-350, line-wrapped in the source)
PMK37_CHUNK = (
    "(1) Besarnya pungutan Pajak Penghasilan Pasal 22\nsebagaimana dimaksud dalam Pasal 7 ayat (1) yaitu\n"
    "sebesar 0,5% (nol koma lima persen) dari Peredaran Bruto"
)
# pmk-114-2025 Pasal ... ayat (2) huruf a/b (lines 518-521)
PMK114_CHUNK = (
    "a. nilai sisa buku fiskal dalam hal pihak pemberi wajib\nmenyelenggarakan pembukuan; atau\n"
    "b. nilai atau harga perolehan dalam hal pihak pemberi\ntidak wajib menyelenggarakan pembukuan."
)
PMK114_NOT_REQUIRED = (
    "b. nilai atau harga perolehan dalam hal pihak pemberi tidak wajib menyelenggarakan pembukuan."
)
# pmk-114-2025 (lines 716-719)
PMK114_REPORT = (
    "(2) Lembaga penerima sumbangan dan/atau biaya\nsebagaimana dimaksud dalam Pasal 3 ayat (1) huruf b,\n"
    "huruf c, huruf d, dan huruf e wajib menyampaikan laporan\npenerimaan sumbangan"
)

# pp-46-2013 (line 85)
PP46_QUOTE = (
    "meskipun peredaran bruto usaha Wajib Pajak yang bersangkutan dalam 1 (satu) tahun tidak melebihi "
    "Rp4.800.000.000,00 (empat miliar delapan ratus juta rupiah), tidak dikenai Pajak Penghasilan yang "
    "bersifat final"
)

REAL_TEXT = [
    ("pp-46-2013", PP46_QUOTE),
    ("uu-7-2021", PPN_CHUNK),
    ("uu-7-2021", PPN_QUOTE),
    ("uu-7-2021", PPH_QUOTE),
    ("uu-7-2021", CARBON_QUOTE),
    ("pp-34-2016", PP34_QUOTE),
    ("pp-44-2022", PP44_QUOTE),
    ("pmk-37-2025", PMK37_CHUNK),
    ("pmk-114-2025", PMK114_CHUNK),
    ("pmk-114-2025", PMK114_REPORT),
]


@pytest.mark.parametrize(("doc", "text"), REAL_TEXT)
def test_fixture_sentences_are_real_corpus_text(doc: str, text: str) -> None:
    corpus = normalize_ws((CORPUS / doc / "text.txt").read_text(encoding="utf-8"))
    assert normalize_ws(text) in corpus


def _src(id_: str, text: str, *, readable: bool = True, in_effect: bool = True) -> SourceText:
    return SourceText(id=id_, text=text, readable=readable, in_effect=in_effect)


SOURCES: Mapping[str, SourceText] = {
    "uu-7-2021#p7-1": _src("uu-7-2021#p7-1", PPN_CHUNK),
    "pmk-37-2025#p8-1": _src("pmk-37-2025#p8-1", PMK37_CHUNK),
    "pmk-114-2025#2": _src("pmk-114-2025#2", PMK114_CHUNK),
    "memo-internal#1": _src("memo-internal#1", PPN_CHUNK, readable=False),
    "uu-42-2009#p7-1": _src(
        "uu-42-2009#p7-1", "(1) Tarif Pajak Pertambahan Nilai adalah 10% (sepuluh persen).", in_effect=False
    ),
}


# --- normalize_ws ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("  a\u00a0 b\n\tc  ", "a b c"),
        ("Pasal\u202f7\r\n(1)", "Pasal 7 (1)"),
        ("Rp60.000.000,00", "Rp60.000.000,00"),  # nothing but whitespace changes
        ("Wajib  Pajak", "Wajib Pajak"),
        ("", ""),
    ],
)
def test_normalize_ws_only_touches_whitespace(raw: str, expected: str) -> None:
    assert normalize_ws(raw) == expected


# --- quote gate -----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("quote", "codes"),
    [
        pytest.param(PPN_QUOTE, (), id="exact"),
        pytest.param(
            "a.  sebesar 11%\n(sebelas persen)\u00a0yang mulai berlaku", (), id="whitespace-differs"
        ),
        pytest.param("(1) Tarif Pajak Pertambahan Nilai yaitu: a. sebesar 11%", (), id="across-line-break"),
        pytest.param("a. sebesar 12% (sebelas persen)", (KUTIPAN_TIDAK_COCOK,), id="one-char-differs"),
        pytest.param("A. sebesar 11% (sebelas persen)", (KUTIPAN_TIDAK_COCOK,), id="case-differs"),
        pytest.param("a. sebesar 11 % (sebelas persen)", (KUTIPAN_TIDAK_COCOK,), id="space-inserted-in-word"),
        pytest.param("a. sebesar 11% (sebelas persen), yang", (KUTIPAN_TIDAK_COCOK,), id="punctuation-added"),
        pytest.param("Tarif PPN naik menjadi 11% sejak April 2022", (KUTIPAN_TIDAK_COCOK,), id="fabricated"),
        pytest.param("", (KUTIPAN_TIDAK_COCOK,), id="empty"),
        pytest.param(" \n\u00a0", (KUTIPAN_TIDAK_COCOK,), id="whitespace-only"),
    ],
)
def test_quote_gate(quote: str, codes: tuple[str, ...]) -> None:
    claim = ClaimInput("Tarif PPN 11%.", quote, "uu-7-2021#p7-1")
    failures = quote_gate(claim, SOURCES["uu-7-2021#p7-1"])
    assert tuple(f.code for f in failures) == codes


# --- number gate ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("claim_text", "quote", "unbacked"),
    [
        # percentages
        ("Tarif PPN 11% berlaku 1 April 2022.", PPN_QUOTE, []),
        ("Tarif PPN 12% berlaku 1 April 2022.", PPN_QUOTE, ["12%"]),
        ("Tarif PPN 11 % berlaku mulai tahun 2022.", PPN_QUOTE, []),
        ("Tarif PPN sebelas persen.", PPN_QUOTE, []),
        ("Tarif PPN dua belas persen.", PPN_QUOTE, ["dua belas persen"]),
        ("The VAT rate is 11 percent.", PPN_QUOTE, []),
        ("Tarif pungutan 0.5% dari peredaran bruto.", PMK37_CHUNK, []),  # decimal dot vs comma
        ("Tarif pungutan 0,5 persen.", PMK37_CHUNK, []),
        ("Tarif pungutan 5%.", PMK37_CHUNK, ["5%"]),
        # amounts
        ("Lapisan pertama sampai dengan Rp60.000.000,00.", PPH_QUOTE, []),
        ("Lapisan pertama sampai dengan Rp 60 juta.", PPH_QUOTE, []),
        ("Lapisan pertama sampai dengan 60.000.000.", PPH_QUOTE, []),
        ("Lapisan pertama sampai dengan 60000000 rupiah.", PPH_QUOTE, []),
        ("Lapisan pertama sampai dengan IDR 60 million.", PPH_QUOTE, []),
        ("Lapisan pertama sampai dengan enam puluh juta rupiah.", PPH_QUOTE, []),
        ("Lapisan kedua sampai dengan Rp250 juta dengan tarif 15%.", PPH_QUOTE, []),
        ("Lapisan pertama sampai dengan Rp600.000.000,00.", PPH_QUOTE, ["Rp600.000.000,00"]),
        ("Lapisan pertama sampai dengan Rp 6 juta.", PPH_QUOTE, ["Rp 6 juta"]),
        # dates: Indonesian month names, English, ISO, day/month/year
        ("Berlaku sejak 2022-04-01.", PPN_QUOTE, []),
        ("Berlaku sejak 01/04/2022.", PPN_QUOTE, []),
        ("Effective from April 1, 2022.", PPN_QUOTE, []),
        ("Effective from 1 Apr 2022.", PPN_QUOTE, []),
        ("Berlaku sejak April 2022.", PPN_QUOTE, []),
        ("Berlaku sejak 2022-04-02.", PPN_QUOTE, ["2022-04-02"]),
        ("Berlaku sejak 04/01/2022.", PPN_QUOTE, ["04/01/2022"]),  # day/month/year: 4 January
        ("Berlaku sejak 1 Januari 2022.", PPN_QUOTE, ["1 Januari 2022"]),
        ("Berlaku sejak 2023.", PPN_QUOTE, ["2023"]),
        # day counts
        ("PP ini berlaku 30 hari setelah diundangkan.", PP34_QUOTE, []),
        ("PP ini berlaku tiga puluh hari setelah diundangkan.", PP34_QUOTE, []),
        ("It takes effect 30 days after promulgation.", PP34_QUOTE, []),
        ("PP ini berlaku 30 bulan setelah diundangkan.", PP34_QUOTE, ["30 bulan"]),
        ("PP ini berlaku 14 hari setelah diundangkan.", PP34_QUOTE, ["14 hari"]),
        # article numbers, ayat and list indices
        ("Diatur dalam Pasal 23 ayat (1) huruf a.", PP44_QUOTE, []),
        ("Diatur dalam Pasal 24 ayat (1).", PP44_QUOTE, ["Pasal 24"]),
        ("Diatur dalam Pasal 23 ayat (2).", PP44_QUOTE, ["ayat (2)"]),
        ("Menurut ayat (3), pajak karbon berlaku 1 April 2022.", CARBON_QUOTE, []),  # "(3)" backs ayat (3)
        ("Pasal 13 ayat (4) berlaku 1 April 2022.", CARBON_QUOTE, ["ayat (4)"]),
        # regulation identifiers are citations, not figures
        ("Menurut UU 7/2021 tarif PPN 11%.", PPN_QUOTE, []),
        ("Undang-Undang Nomor 7 Tahun 2021 menetapkan tarif 11%.", PPN_QUOTE, []),
        # no figures at all
        ("Tarif berlaku untuk Pajak Pertambahan Nilai.", PPN_QUOTE, []),
    ],
)
def test_number_gate(claim_text: str, quote: str, unbacked: list[str]) -> None:
    failures = number_gate(ClaimInput(claim_text, quote, "x"))
    assert [f.subject for f in failures] == unbacked
    assert all(f.code == ANGKA_TANPA_DASAR for f in failures)
    for f, figure in zip(failures, unbacked, strict=True):
        assert f"'{figure}'" in f.message


@pytest.mark.parametrize(
    ("written", "values"),
    [
        ("60.000.000,00", {Decimal("60000000")}),
        ("60,000,000.00", {Decimal("60000000")}),
        ("0,5", {Decimal("0.5")}),
        ("2.75", {Decimal("2.75")}),
        ("1.500", {Decimal("1500"), Decimal("1.5")}),  # ambiguous: both readings kept
        ("2022", {Decimal("2022")}),
    ],
)
def test_parse_number(written: str, values: set[Decimal]) -> None:
    assert parse_number(written) == values


@pytest.mark.parametrize(
    ("words", "value"),
    [
        ("sebelas", 11),
        ("dua belas", 12),
        ("dua ratus lima puluh juta", 250_000_000),
        ("empat juta lima ratus ribu", 4_500_000),
        ("seribu", 1000),
        ("nol koma lima", Decimal("0.5")),
        ("one hundred and twenty five", 125),
        ("Rp", None),
    ],
)
def test_words_to_number(words: str, value: int | Decimal | None) -> None:
    assert words_to_number(words) == (None if value is None else Decimal(value))


def test_extract_figures_reads_kinds_and_offsets() -> None:
    figures = extract_figures(PPN_QUOTE)
    assert [(f.surface, f.kind, f.start) for f in figures] == [
        ("11%", "percent", 11),
        ("sebelas persen", "percent", 16),
        ("1 April 2022", "date", 64),
    ]
    assert figures[2].keys == frozenset({("date", 2022, 4, 1)})


# --- support judge --------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("claim_text", "passage", "verdict"),
    [
        pytest.param(
            "Tarif Pajak Pertambahan Nilai sebesar 11% mulai berlaku 1 April 2022.",
            PPN_CHUNK,
            "entailed",
            id="paraphrase",
        ),
        pytest.param(
            "Pihak pemberi yang tidak wajib menyelenggarakan pembukuan memakai harga perolehan.",
            PMK114_NOT_REQUIRED,
            "entailed",
            id="negation-agrees",
        ),
        pytest.param(
            "Pihak pemberi wajib menyelenggarakan pembukuan.",
            PMK114_NOT_REQUIRED,
            "contradicted",
            id="negation-dropped",
        ),
        pytest.param(
            "Lembaga penerima sumbangan tidak wajib menyampaikan laporan penerimaan sumbangan.",
            PMK114_REPORT,
            "contradicted",
            id="negation-added",
        ),
        pytest.param(
            "Tarif Pajak Pertambahan Nilai sebesar 12% mulai berlaku 1 April 2022.",
            PPN_CHUNK,
            "contradicted",
            id="figure-conflict",
        ),
        pytest.param(
            "Tarif Pajak Pertambahan Nilai sebesar 11% mulai berlaku 1 April 2022 selama 30 hari.",
            PPN_CHUNK,
            "not_supported",
            id="figure-absent",
        ),
        pytest.param(
            "Peredaran bruto sampai Rp4,8 miliar dalam 1 tahun tidak dikenai PPh final.",
            PP46_QUOTE,
            "entailed",
            id="figures-masked-from-words-and-acronym-expanded",
        ),
        pytest.param(
            "Pengusaha kecil dibebaskan dari kewajiban membuat faktur elektronik.",
            PPN_CHUNK,
            "not_supported",
            id="unrelated",
        ),
    ],
)
def test_lexical_judge_verdicts(claim_text: str, passage: str, verdict: str) -> None:
    result = LexicalSupportJudge().judge(claim_text, passage)
    assert result.verdict == verdict
    assert 0.0 <= result.score <= 1.0
    assert result.reasons[0].startswith("coverage=")


def test_lexical_judge_reasons_and_score_are_deterministic() -> None:
    judge = LexicalSupportJudge()
    claim = "Pihak pemberi wajib menyelenggarakan pembukuan."
    first = judge.judge(claim, PMK114_NOT_REQUIRED)
    assert first == judge.judge(claim, PMK114_NOT_REQUIRED)
    assert first.reasons == (
        "coverage=1.000 (5/5)",
        "negation_mismatch=menyelenggarakan",  # "tidak" scopes the next two content words
        "negation_mismatch=wajib",
    )
    assert first.score == pytest.approx(1.0 * 0.5**2)


def test_lexical_judge_does_not_flag_a_word_used_with_both_polarities() -> None:
    # The chunk says "wajib" (huruf a) and "tidak wajib" (huruf b): undecidable, not a contradiction.
    result = LexicalSupportJudge().judge("Pihak pemberi wajib menyelenggarakan pembukuan.", PMK114_CHUNK)
    assert result.verdict == "entailed"


def test_lexical_judge_suffix_insensitive_matching() -> None:
    result = LexicalSupportJudge().judge("Pembukuannya wajib diselenggarakan pihak pemberi.", PMK114_CHUNK)
    # pembukuannya~pembukuan, pihak, pemberi, wajib match; "diselenggarakan" does not (prefix di-).
    assert result.reasons[0] == "coverage=0.800 (4/5)"
    assert result.verdict == "entailed"


def test_lexical_judge_satisfies_protocol() -> None:
    assert isinstance(LexicalSupportJudge(), SupportJudge)


# --- NLI adapter ----------------------------------------------------------------------------------
def fake_nli(premise: str, hypothesis: str) -> dict[str, float]:
    """Stand-in NLI model (importable by dotted path): entails iff the hypothesis is in the premise."""
    if hypothesis in premise:
        return {"ENTAILMENT": 0.9, "neutral": 0.08, "contradiction": 0.02}
    if "12%" in hypothesis:
        return {"entailment": 0.1, "neutral": 0.2, "contradiction": 0.7}
    return {"entailment": 0.2, "neutral": 0.6, "contradiction": 0.2}


@pytest.mark.parametrize(
    ("hypothesis", "verdict", "score"),
    [
        ("sebesar 11%", "entailed", 0.9),
        ("sebesar 12%", "contradicted", 0.1),
        ("tarif PPh", "not_supported", 0.2),
    ],
)
def test_nli_judge_maps_probabilities(hypothesis: str, verdict: str, score: float) -> None:
    result = NliSupportJudge(fake_nli).judge(hypothesis, PPN_QUOTE)
    assert (result.verdict, result.score) == (verdict, pytest.approx(score))


def test_nli_judge_from_config_and_bad_config() -> None:
    judge = NliSupportJudge.from_config("tests.guardrails.test_verify:fake_nli")
    assert judge.judge("sebesar 11%", PPN_QUOTE).verdict == "entailed"
    with pytest.raises(JudgeConfigError, match=r"package\.module:function"):
        NliSupportJudge.from_config("no_colon_here")
    with pytest.raises(JudgeConfigError, match="cannot import"):
        NliSupportJudge.from_config("dasar_missing_nli_module:predict")
    with pytest.raises(JudgeConfigError, match="not a callable"):
        NliSupportJudge.from_config("tests.guardrails.test_verify:PPN_QUOTE")


@pytest.mark.parametrize(
    "output",
    [
        {"entailment": 0.5, "neutral": 0.5},
        {"entailment": 1.5, "neutral": 0.0, "contradiction": 0.0},
        {"entailment": 0.0, "neutral": 0.0, "contradiction": 0.0},
    ],
)
def test_nli_judge_rejects_broken_model_output(output: dict[str, float]) -> None:
    with pytest.raises(JudgeError):
        NliSupportJudge(lambda p, h: output).judge("x", "y")


# --- verify_claims --------------------------------------------------------------------------------
GOOD = ClaimInput(
    "Tarif Pajak Pertambahan Nilai sebesar 11% mulai berlaku 1 April 2022.", PPN_QUOTE, "uu-7-2021#p7-1"
)


@pytest.mark.parametrize(
    ("claim", "passed", "codes", "support"),
    [
        pytest.param(GOOD, True, (), "entailed", id="good"),
        pytest.param(
            ClaimInput("Tarif PPN sebesar 11% berlaku sejak 2022-04-01.", PPN_QUOTE, "uu-7-2021#p7-1"),
            True,
            (),
            "entailed",
            id="iso-date-and-abbreviation-with-chunk-context",
        ),
        pytest.param(
            ClaimInput(
                "Tarif Pajak Pertambahan Nilai sebesar 12% mulai berlaku 1 April 2022.",
                PPN_QUOTE,
                "uu-7-2021#p7-1",
            ),
            False,
            (ANGKA_TANPA_DASAR, DUKUNGAN_BERTENTANGAN),
            "contradicted",
            id="changed-number",
        ),
        pytest.param(
            ClaimInput(GOOD.text, "Tarif PPN 11% berlaku 1 April 2022.", "uu-7-2021#p7-1"),
            False,
            (KUTIPAN_TIDAK_COCOK,),
            "entailed",
            id="fabricated-quote",
        ),
        pytest.param(
            ClaimInput(
                "Pihak pemberi wajib menyelenggarakan pembukuan.", PMK114_NOT_REQUIRED, "pmk-114-2025#2"
            ),
            False,
            (DUKUNGAN_BERTENTANGAN,),
            "contradicted",
            id="flipped-negation",
        ),
        pytest.param(
            ClaimInput(
                "Pungutan PPh sebesar 0.5% dari peredaran bruto.",
                "sebesar 0,5% (nol koma lima persen) dari Peredaran Bruto",
                "pmk-37-2025#p8-1",
            ),
            True,
            (),
            "entailed",
            id="decimal-comma",
        ),
        pytest.param(
            ClaimInput(
                "Pungutan PPh Pasal 22 sebesar 0.5% dari peredaran bruto.",
                "sebesar 0,5% (nol koma lima persen) dari Peredaran Bruto",
                "pmk-37-2025#p8-1",
            ),
            False,
            (ANGKA_TANPA_DASAR,),
            "entailed",
            id="article-number-not-in-quote",
        ),
        pytest.param(
            ClaimInput(GOOD.text, PPN_QUOTE, "uu-99-2099#p1"),
            False,
            (SUMBER_TIDAK_ADA,),
            None,
            id="missing-source",
        ),
        pytest.param(
            ClaimInput(GOOD.text, PPN_QUOTE, "memo-internal#1"),
            False,
            (SUMBER_TIDAK_BOLEH_DIBACA,),
            None,
            id="unreadable-source",
        ),
        pytest.param(
            ClaimInput(
                "Tarif Pajak Pertambahan Nilai adalah 10%.",
                "Tarif Pajak Pertambahan Nilai adalah 10%",
                "uu-42-2009#p7-1",
            ),
            False,
            (SUMBER_TIDAK_BERLAKU,),
            "entailed",
            id="not-in-effect",
        ),
        pytest.param(
            ClaimInput(GOOD.text, "", "uu-7-2021#p7-1"),
            False,
            (KUTIPAN_TIDAK_COCOK, ANGKA_TANPA_DASAR, ANGKA_TANPA_DASAR),
            "entailed",
            id="empty-quote",
        ),
    ],
)
def test_verify_claims(claim: ClaimInput, passed: bool, codes: tuple[str, ...], support: str | None) -> None:
    [verdict] = verify_claims([claim], SOURCES)
    assert (verdict.passed, verdict.codes, verdict.support) == (passed, codes, support)
    assert verdict.claim is claim  # never repaired
    if support is None:
        assert verdict.support_score == 0.0 and verdict.reasons == ()


def test_verify_claims_keeps_order_and_logs_without_text(caplog: pytest.LogCaptureFixture) -> None:
    bad = ClaimInput("Tarif PPN 12%.", PPN_QUOTE, "uu-7-2021#p7-1")
    with caplog.at_level(logging.INFO, logger="guardrails.verify.pipeline"):
        verdicts = verify_claims([bad, GOOD], SOURCES)
    assert [v.claim for v in verdicts] == [bad, GOOD]
    assert [v.passed for v in verdicts] == [False, True]
    assert next(v.codes for v in verdicts)[0] == ANGKA_TANPA_DASAR
    assert verdicts[0].failures[0].subject == "12%"
    assert caplog.messages == [
        "claims=2, passed=1, failed=1, codes=ANGKA_TANPA_DASAR,DUKUNGAN_BERTENTANGAN | verified answer claims"
    ]


def test_verify_claims_uses_the_given_judge() -> None:
    class Refuses:
        def judge(self, claim: str, passage: str) -> JudgeResult:
            return JudgeResult("not_supported", 0.25, ("refuses",))

    [verdict] = verify_claims([GOOD], SOURCES, Refuses())
    assert (verdict.passed, verdict.codes, verdict.support_score, verdict.reasons) == (
        False,
        (DUKUNGAN_TIDAK_CUKUP,),
        0.25,
        ("refuses",),
    )


@pytest.mark.parametrize(
    ("claims", "sources", "match"),
    [
        ([GOOD], {"wrong-key": SOURCES["uu-7-2021#p7-1"]}, "differs from SourceText.id"),
        (["just a string"], SOURCES, "expected ClaimInput"),
        ([ClaimInput("x", None, "uu-7-2021#p7-1")], SOURCES, "'quote' must be a string"),  # type: ignore[arg-type]
        ([GOOD], {"uu-7-2021#p7-1": PPN_CHUNK}, "expected SourceText"),
    ],
)
def test_verify_claims_rejects_malformed_input(claims: list, sources: Mapping, match: str) -> None:  # type: ignore[type-arg]
    with pytest.raises(InvalidInputError, match=match) as info:
        verify_claims(claims, sources)
    assert isinstance(info.value, VerifyError) and isinstance(info.value, GuardrailError)


def test_verify_claims_rejects_judge_breaking_contract() -> None:
    class Broken:
        def judge(self, claim: str, passage: str) -> JudgeResult:
            return JudgeResult("maybe", 0.5)  # type: ignore[arg-type]

    with pytest.raises(JudgeError, match="unknown verdict 'maybe'"):
        verify_claims([GOOD], SOURCES, Broken())


def test_a_line_break_inside_a_clause_keeps_its_negation() -> None:
    # PDF text wraps inside a clause; the negated verb on the next line is still negated
    passage = (
        "Iuran yang dibayar anggota tidak boleh\ndibebankan sebagai biaya usaha, kecuali:\n"
        "a. iuran kepada dana pensiun yang pendiriannya telah disahkan; dan\n\nBagian Ketiga\n"
        "Iuran yang Dapat Dibebankan"
    )
    claim = "Iuran yang dibayar anggota tidak boleh dibebankan sebagai biaya usaha"
    assert LexicalSupportJudge().judge(claim, passage).verdict == "entailed"
    # a claim that drops the negation of the wrapped clause is still caught
    wrapped = "Pemotong wajib\nmenyetorkan pajak yang dipotong ke kas negara."
    negated = "Pemotong tidak wajib menyetorkan pajak yang dipotong ke kas negara."
    assert LexicalSupportJudge().judge(negated, wrapped).verdict == "contradicted"


def test_a_table_cell_ends_a_negation() -> None:
    # "bukan" in one cell negates nothing of the next cell: the row's tax is no negated word
    row = "| Sewa ruang bukan bangunan | PPh 23 | 2% | dari bruto |"
    claim = "Sewa ruang bukan bangunan; PPh 23; 2%; dari bruto"
    assert LexicalSupportJudge().judge(claim, row).verdict == "entailed"
    assert LexicalSupportJudge().judge("Sewa ruang bukan PPh 23", row).verdict == "contradicted"
