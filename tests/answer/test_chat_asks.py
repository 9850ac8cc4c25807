"""How a chat message's words reach the answer (session 36): a tax the story names in passing, a sentence
that only offers the answers to the ask before it, an activity called "internal", a conditional second ask
with no topic of its own, filing a return written "lapor", chat spellings of function words and verbs, a
ruled-out kind of party written "WP", and "SKP".

Each was a cause of a wrong lead, a "no source" or an escalation on chat-style development items whose gold
provision was retrieved.  Messages are our own, written against the sample corpus (never taken from an eval
set).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from bot.answer.extractive import asked_tax_names, document_article, lead_features
from bot.answer.parts import answer_message, message_parts, only_offers, part_texts
from bot.answer.protocol import ComposeRequest
from kb import lexicon
from kb.lexical import choice_spans, question_concepts
from kb.model import DocumentMeta, Hit
from kb.query import understand
from tests.answer.chunk_sample import sample_chunk

TODAY = dt.date(2026, 12, 4)
#: a regulation about one income-tax article, as its title says
PPH22_PMK = DocumentMeta(
    id="pmk-1-2030", title="Pemungutan Pajak Penghasilan Pasal 22 atas Impor", number="PMK 1/2030", type="PMK"
)


def _words(question: str) -> set[str]:
    return {w for c in question_concepts(understand(question), question) for phrase in c for w in phrase}


# -- a tax the story names in passing ----------------------------------------------------------------------


def test_the_taxes_asked_are_those_the_asking_sentences_name() -> None:
    story = "Tagihan jasa desain 12jt belum termasuk PPN. PPh 23 nya berapa persen?"
    assert asked_tax_names(story) == {"PPh 23"}
    # an ask that names no tax: the story's tax is the topic
    assert asked_tax_names("Kami PKP dan menagih PPN ke pembeli. Kapan faktur dibuat?") == {"PPN"}


def test_a_document_about_one_income_tax_article_is_about_it_only_when_its_title_says_so() -> None:
    omnibus = DocumentMeta(
        id="uu-1-2030", title="Cipta Kerja", number="UU 1/2030", type="UU", tax_types=("PPh 26", "PPN")
    )
    assert document_article(PPH22_PMK) == {"PPh 22"}
    assert document_article(omnibus) == set()


def test_a_passage_of_another_articles_regulation_is_another_tax_for_a_rate_asked_of_one() -> None:
    question = "Tagihan jasa desain 12jt belum termasuk PPN. PPh 23 nya berapa persen?"
    item = sample_chunk(
        "pmk-1-2030",
        "pasal-3/ayat-1/huruf-h",
        "h. atas pembelian kopi sebesar 0,25% dari harga pembelian tidak termasuk Pajak Pertambahan Nilai.",
        location="Pasal 3 ayat (1) huruf h",
        seq=1,
        pasal="3",
    )
    request = ComposeRequest(
        question, "id", TODAY, understand(question), (Hit(item, PPH22_PMK, 1.0, ("bm25",)),)
    )
    assert lead_features(0, request.hits[0], 0.5, request)["other_tax"] == 1.0


# -- the answers a question offers -------------------------------------------------------------------------


def test_the_answers_a_question_offers_are_found() -> None:
    asked = "Honor pembicara seminar, DPP PPh 21 nya dihitung penuh 8jt atau separuh?"
    assert [asked[a:b] for a, b in choice_spans(asked)] == ["penuh 8jt atau separuh"]
    # a yes/no ask offers nothing; "dan/atau" is no choice; an offer that closes no ask is a list
    assert choice_spans("Biaya jamuan boleh dibiayakan atau tidak?") == []
    assert choice_spans("Apakah natura dan/atau kenikmatan kena PPh 21?") == []
    assert choice_spans("Sewa gedung atau tanah, kena PPh final berapa?") == []
    # a clause that asks with a word of its own asks about both alternatives
    assert choice_spans("Paling lama berapa bulan izin mengangsur atau menunda pembayaran?") == []
    # three answers offered are one offer
    assert choice_spans("1,5% atau 2,5% atau 3%?") == [(0, 22)]
    # a decimal comma is no clause end
    tariff = "Tarif PPh final jasa konstruksi berapa? 1,75% atau 2,65%?"
    assert [tariff[a:b] for a, b in choice_spans(tariff)] == ["1,75% atau 2,65%"]


def test_a_sentence_that_only_offers_answers_is_no_part_of_its_own() -> None:
    assert only_offers("penuh atau separuh?")
    assert not only_offers("DPP nya penuh atau separuh?")
    assert message_parts("DPP PPh 21 pembicara seminar dihitung berapa? penuh atau separuh?") == []


# -- an activity called "internal" -------------------------------------------------------------------------


def test_an_activity_held_in_house_is_no_company_document() -> None:
    assert not lexicon.names_policy("honor narasumber untuk pelatihan internal 5jt, PPh 21 nya berapa?")
    assert not lexicon.names_policy("fee auditor internal kena PPh 23?")
    assert lexicon.names_policy("menurut kebijakan internal, batas approval berapa?")
    assert lexicon.names_policy("apa ada SOP internal untuk ini?")


# -- end to end on the sample corpus -----------------------------------------------------------------------


@pytest.fixture(scope="module")
def answered(services: Any) -> dict[str, Any]:
    principal = services.cli_principal(None)  # the law alone
    messages = {
        "offer": "honor pembicara seminar untuk pelatihan internal 5jt. DPP PPh 21 bukan pegawai berapa? "
        "penuh atau separuh?",
        "late": "SPT Tahunan PPh badan paling lambat kapan disampaikan? kalau telat lapor dendanya berapa? "
        "bos sedang cuti nih",
    }
    return {k: answer_message(m, principal, services, as_of=TODAY) for k, m in messages.items()}


def test_the_non_employee_base_is_answered_though_the_asker_offers_penuh_or_separuh(
    answered: dict[str, Any],
) -> None:
    answer = answered["offer"]
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert lead.source.doc_id == "pmk-168-2023" and lead.source.location == "Pasal 12 ayat (3)"
    assert "50% (lima puluh persen)" in lead.quote


def test_a_conditional_second_ask_is_about_the_first_asks_case(
    services: Any, answered: dict[str, Any]
) -> None:
    message = (
        "SPT Tahunan badan paling lambat kapan disampaikan? kalau telat lapor dendanya berapa? bos cuti nih"
    )
    _first, second = part_texts(message, message_parts(message), understand(message), None)
    assert "SPT Tahunan badan paling lambat disampaikan." in second[1]
    answer = answered["late"]
    assert [p.status for p in answer.parts] == ["answered", "answered"]
    fine = answer.claims[answer.parts[1].claim_numbers[0] - 1]
    assert fine.source.location.startswith("Pasal 7 ayat (1)")
    assert "Rp1.000.000,00" in fine.quote


def test_filing_a_return_is_written_menyampaikan_in_the_law() -> None:
    concepts = question_concepts(understand("lapor SPT Masa paling lambat tanggal berapa?"), None)
    concept = next(c for c in concepts if ("lapor",) in c)
    assert ("disampai",) in concept  # the stem of "disampaikan"


# -- chat spellings of function words and verbs, the manner frame, a ruled-out kind of party ---------------


def test_chat_function_words_and_the_manner_frame_are_no_concepts() -> None:
    words = _words("tokonya bakal dipungut PPh 22 gk? gmn caranya biar gk dipungut?")
    assert not {"bakal", "biar", "cara"} & words
    assert "gaes" not in _words("gaes, surat perjanjian sewa wajib pake meterai gak?")
    # a procedure asked by name keeps its word
    assert "cara" in _words("tata cara pengembalian kelebihan pembayaran pajak apa saja?")


def test_a_chat_verb_without_its_prefix_is_covered_by_the_acts_forms() -> None:
    concepts = question_concepts(understand("klien mau motong PPh 23 dan nyetor sendiri, boleh?"), None)
    motong = next(c for c in concepts if ("motong",) in c)
    nyetor = next(c for c in concepts if ("nyetor",) in c)
    assert ("pemotong",) in motong or ("dipotong",) in motong
    pake = next(c for c in question_concepts(understand("boleh pake tarif lama?"), None) if ("pake",) in c)
    assert ("mengguna",) in pake or ("menggunakan",) in pake
    assert ("penyetor",) in nyetor or ("disetor",) in nyetor


def test_a_two_letter_kind_of_party_does_not_hide_the_ruled_out_case() -> None:
    from bot.answer.extractive import negated_conditions

    # the acts write "Wajib Pajak dengan kriteria tertentu", never "WP"
    assert negated_conditions("lebih bayar PPh badan (bukan WP kriteria tertentu), SKP terbit kapan?") == (
        ("kriteria", "tertentu"),
    )


def test_skp_is_the_acts_tax_assessment_letter(services: Any) -> None:
    plan = understand("SKP paling lama terbit kapan?", aliases=services.aliases)
    assert any("surat ketetapan pajak" in e.added for e in plan.expansions)


def test_a_reviewed_term_keeps_the_negation_of_its_name(services: Any) -> None:
    from kb.lexical import coverage

    plan = understand("PTKP setahun berapa?", aliases=services.aliases)
    concepts = question_concepts(plan, "PTKP setahun berapa?")
    ptkp = next(c for c in concepts if ("ptkp",) in c)
    assert ("penghasil", "tidak", "kena", "pajak") in ptkp
    # taxable income is the opposite of the non-taxable threshold
    assert coverage([ptkp], "Penghasilan Kena Pajak setahun Rp120.000.000") == 0.0
    assert coverage([ptkp], "(1) Penghasilan Tidak Kena Pajak per tahun diberikan paling sedikit: ...") == 1.0


def test_a_month_by_month_computation_in_a_lampiran_is_a_worked_example() -> None:
    from bot.answer.extractive import _illustrates

    doc = DocumentMeta(id="pmk-1-2030", title="PPh 21", number="PMK 1/2030", type="PMK")
    table = "Juli 8.000.000 1,50% 120.000 Agustus 8.000.000 1,50% 120.000 September 8.000.000 1,50% 120.000"
    rows = sample_chunk("pmk-1-2030", "lampiran/part-3", table, location="Lampiran", seq=3, kind="lampiran")
    assert _illustrates(Hit(rows, doc, 1.0, ("bm25",)))
    # a rate table of a Lampiran states the rule
    rates = sample_chunk(
        "pmk-1-2030",
        "lampiran/part-1",
        "Kategori A: 0 - 5.400.000 0%; 5.400.001 - 5.650.000 0,25%",
        location="Lampiran",
        seq=1,
        kind="lampiran",
    )
    assert not _illustrates(Hit(rates, doc, 1.0, ("bm25",)))


def test_a_worked_example_does_not_answer_the_ptkp_question(services: Any) -> None:
    # the PMK tables work one employee's year through; their PTKP row is that case's, not the rule
    answer = answer_message(
        "PTKP K/1 setahun berapa ya?", services.cli_principal(None), services, as_of=TODAY
    )
    assert all(c.source.location != "Lampiran" for c in answer.claims)
    assert answer.status != "answered" or answer.claims[0].source.location.startswith("Pasal 7 ayat (1)")
