"""What a question asks is data in the one lexicon (kb/data/lexicon.yaml ``question_kinds``,
``question_objects``, ``special_regimes``), compiled once by kb.lexicon; a bad pattern fails loudly."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from kb import lexicon
from kb.lexicon import DEFAULT_LEXICON_PATH, LexiconError, load


@pytest.mark.parametrize(
    ("kind", "question", "asks"),
    [
        ("rate", "Tarif PPh final untuk UMKM berapa ya?", True),
        ("rate", "How much is the VAT on imported goods?", True),
        ("rate", "Kapan SPT Tahunan orang pribadi harus dilaporkan?", False),
        ("deadline", "Kapan SPT Tahunan orang pribadi harus dilaporkan?", True),
        ("deadline", "How many days do we have to issue the invoice?", True),
        ("deadline", "Siapa yang wajib memungut PPN atas impor?", False),
        ("other_than_rate", "Apa saja syarat memakai tarif treaty?", True),
        ("other_than_rate", "Berapa tarif PPN sekarang?", False),
        ("rate_outright", "Berapa tarif PPN sekarang?", True),
        ("sanction", "Dendanya berapa kalau telat lapor SPT?", True),
        ("sanction", "Berapa tarif bea meterai?", False),
        ("amount", "How much is the annual non-taxable income?", True),
        ("period", "Berapa lama dokumen harus disimpan?", True),
        ("period", "Kapan batas waktu setor PPh 21?", False),
        ("confirm", "Tarif PPh 23 atas jasa itu 2%, benar kan?", True),
        ("confirm", "Tarif PPh 23 atas jasa itu 2% ya?", True),
        ("confirm", "Tarif PPh 23 atas jasa berapa?", False),
    ],
)
def test_question_kinds_read_real_phrasings(kind: str, question: str, asks: bool) -> None:
    assert bool(lexicon.question_kind(kind).search(question)) is asks


def test_question_objects_and_special_regimes_are_question_side_patterns() -> None:
    rent = lexicon.question_object("land_building_rent")
    assert rent.search("PPh atas sewa gedung kantor berapa?")
    assert rent.search("We rent an office building from a landlord")
    assert not rent.search("PPh atas jasa konsultan berapa?")
    assert lexicon.question_object("no_npwp").search("Vendor kami belum punya NPWP, dipotong berapa?")
    assert lexicon.question_object("paid_to_bank").search("Bunga yang dibayar kepada bank dipotong PPh?")
    assert lexicon.special_regime("export").search("PPN atas ekspor jasa berapa?")
    assert not lexicon.special_regime("export").search("Berapa tarif PPN?")
    assert lexicon.special_regime("no_npwp_surcharge").search("berapa lebih tinggi tarifnya tanpa NPWP?")


def test_patterns_compile_case_insensitively_in_the_order_written() -> None:
    rate = lexicon.question_kind("rate")
    assert rate.flags & re.IGNORECASE
    assert rate.pattern.startswith(r"\btarif\b|\brates?\b|")
    assert rate.search("TARIF PPN") is not None


def test_every_entry_says_where_it_came_from() -> None:
    data = yaml.safe_load(DEFAULT_LEXICON_PATH.read_text(encoding="utf-8"))
    for section in ("question_kinds", "question_objects", "special_regimes"):
        for name, entry in data[section].items():
            assert isinstance(entry["seen_in"], list), f"{section}.{name}"
    assert data["question_kinds"]["rate"]["seen_in"] == ["a108", "FR025"]
    assert data["question_objects"]["paid_to_bank"]["seen_in"] == ["a006"]


def _with(tmp_path: Path, section: str, name: str, patterns: list[str]) -> Path:
    data = yaml.safe_load(DEFAULT_LEXICON_PATH.read_text(encoding="utf-8"))
    data[section][name]["patterns"] = patterns
    path = tmp_path / "lexicon.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return path


def test_a_malformed_pattern_names_the_file_and_key(tmp_path: Path) -> None:
    bad = _with(tmp_path, "question_kinds", "deadline", [r"\bkapan\b", r"batas\s+(waktu"])
    with pytest.raises(LexiconError) as err:
        load(bad)
    message = str(err.value)
    assert message.startswith(f"{bad}: question_kinds.deadline.patterns #2 is not a valid regular expression")
    assert "batas" in message


def test_an_empty_or_missing_section_names_the_key(tmp_path: Path) -> None:
    bad = _with(tmp_path, "special_regimes", "export", [])
    with pytest.raises(
        LexiconError, match=r"lexicon.yaml: special_regimes.export.patterns must be a non-empty list"
    ):
        load(bad)
    data = yaml.safe_load(DEFAULT_LEXICON_PATH.read_text(encoding="utf-8"))
    del data["question_objects"]
    missing = tmp_path / "missing.yaml"
    missing.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    with pytest.raises(LexiconError, match=r"missing.yaml: missing key question_objects"):
        load(missing)


def test_a_kind_the_file_lacks_names_the_key() -> None:
    with pytest.raises(LexiconError, match=r"lexicon.yaml: missing key question_kinds.no_such_kind"):
        lexicon.question_kind("no_such_kind")


def test_passage_cues_mark_rules_and_exceptions() -> None:
    rule = lexicon.passage_cue("rule")
    assert rule.search("(1) Atas penghasilan tersebut dipotong pajak sebesar 2% dari jumlah bruto.")
    assert not rule.search("Cukup jelas.")
    assert lexicon.passage_cue("exception").search("kecuali penghasilan yang dibayar kepada bank")


def test_every_named_object_and_regime_has_its_passage_side() -> None:
    # an entry with no passage-side pattern in the answer composer would be read and never used
    from bot.answer.extractive import _SPECIAL_REGIMES, QUESTION_OBJECTS

    lex = lexicon.default()
    assert [name for name, _, _ in QUESTION_OBJECTS] == list(lex.question_objects)
    assert [name for name, _, _ in _SPECIAL_REGIMES] == list(lex.special_regimes)
    assert QUESTION_OBJECTS[0][1] is lexicon.question_object("land_building_rent")


def test_the_words_that_string_asks_together_live_in_the_lexicon() -> None:
    # one lexicon: kb/lexical.py and bot/answer/parts.py read these lists, they keep none in code
    assert "terus" in lexicon.message_words("join") and "nggak" in lexicon.message_words("ask_tags")
    assert "kalau" in lexicon.message_words("follow_up_openers")
    assert all(lexicon.message_words(name) for name in lexicon.MESSAGE_WORDS)
    with pytest.raises(lexicon.LexiconError, match="unknown message_words list 'joins'"):
        lexicon.message_words("joins")


def test_the_penalty_ask_is_data_and_leaves_interest_income_alone() -> None:
    # one reading for kb.query (UU KUP's sanction Pasal) and the composer (bot.answer.extractive.asks_penalty)
    assert lexicon.asks_penalty("telat setor PPh 23, kena bunga berapa?")
    assert lexicon.asks_penalty("SPT telat dilaporkan, dendanya berapa?")
    assert not lexicon.asks_penalty("bunga deposito kena PPh berapa?")


def test_the_sanction_pasal_belong_to_the_law_that_sets_sanctions(tmp_path: Path) -> None:
    topics = {t.name: t for t in lexicon.law_topics()}
    assert topics["KUP"].sanction_pasal == ("7", "8", "9", "13", "14")
    assert topics["PPN"].sanction_pasal == () and topics["PPh"].sanction_pasal == ()
    data = yaml.safe_load(DEFAULT_LEXICON_PATH.read_text(encoding="utf-8"))
    data["law_topics"][0]["sanction_pasal"] = [7, 8]
    bad = tmp_path / "lexicon.yaml"
    bad.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    with pytest.raises(
        LexiconError, match=r"lexicon.yaml: law_topics #1 sanction_pasal must be a list of Pasal"
    ):
        load(bad)


def test_procedures_are_read_alike_in_questions_and_passages(tmp_path: Path) -> None:
    procedures = lexicon.procedures()
    assert procedures["correction"].search("kami mau pembetulan SPT Masa")
    assert procedures["correction"].search("Wajib Pajak membetulkan sendiri Surat Pemberitahuan")
    assert procedures["audit"].search("belum dilakukan pemeriksaan") and not procedures["audit"].search(
        "diperiksa"
    )
    assert procedures["assessment"].search("dapat SKPKB PPN") and not procedures["assessment"].search("STP")
    bad = _with(tmp_path, "procedures", "objection", [])
    with pytest.raises(
        LexiconError, match=r"lexicon.yaml: procedures.objection.patterns must be a non-empty list"
    ):
        load(bad)
