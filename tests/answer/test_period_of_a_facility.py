"""How long a rule lasts: the Pasal that states the period of the rule it refers to (session 38).

PP 55/2022 Pasal 56 ayat (1) puts small businesses under the final 0,5% "dalam jangka waktu tertentu"; the
years are stated in Pasal 59 ("Jangka waktu tertentu ... sebagaimana dimaksud dalam Pasal 56 ayat (1) paling
lama: a. 7 (tujuh) Tahun Pajak ..."), which shares no word with "sampai berapa tahun" and never reached the
candidates.  Asked how long, dasar answered with Pasal 56's rate or with unrelated passages.  Now a passage
that refers to the best hit and states the asked figure joins the results after it
(``kb.retrieve.Retriever._with_referrer``); several Tahun Pajak are a length of time; the legal form the
question names picks the item; and a rate the question only states is no second ask.  A rate works the same
way (PP 46/2013 Pasal 3 states the rate of Pasal 2), and the referring passage's sentence that states the
figure is the one quoted.  Messages are our own.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from bot.answer.extractive import PERIOD_TEXT, asked_facts, question_objects
from bot.answer.pipeline import answer_question
from bot.wiring import search_filter
from kb import lexicon
from kb.lexical import question_concepts
from kb.query import understand

TODAY = dt.date(2026, 12, 4)
ASKS_PERIOD = lexicon.question_kind("period")


def test_the_years_of_a_facility_are_asked_as_a_period() -> None:
    for asked in (
        "PT kami boleh pakai tarif itu sampai berapa tahun?",
        "sampe brp tahun ya fasilitas ini?",
        "sampai kapan fasilitasnya berlaku buat kami?",
        "How many years can we use it?",
    ):
        assert ASKS_PERIOD.search(lexicon.plain_question(asked)), asked
    assert asked_facts("PT kami boleh pakai tarif 0,5% sampai berapa tahun?") == ("deadline",)
    # asked to confirm, the stated rate is asked too; asked outright, it always is
    assert asked_facts("tarif 0,5% itu benar? sampai berapa tahun boleh dipakai?") == ("rate", "deadline")
    assert asked_facts("tarifnya berapa persen dan sampai berapa tahun?") == ("rate", "deadline")


def test_several_tax_years_are_a_length_of_time_one_is_a_tax_year() -> None:
    import re

    period = re.compile(PERIOD_TEXT, re.I)
    assert period.search("paling lama: a. 7 (tujuh) Tahun Pajak bagi Wajib Pajak orang pribadi")
    assert period.search("selama 3 (tiga) tahun sejak terdaftar")
    assert not period.search("peredaran bruto dalam 1 (satu) Tahun Pajak tidak melebihi")


def test_the_unit_of_the_period_asked_and_the_modal_name_no_topic() -> None:
    plan = understand("Usaha kami boleh pakai PPh final sampai berapa tahun? kalau CV beda?")
    words = {w for concept in question_concepts(plan) for alt in concept for w in alt}
    assert {"boleh", "tahun", "beda"} & words == set()
    assert "final" in words


def test_a_company_form_the_question_names_first_counts_first() -> None:
    assert question_objects("PT kami ... kalau CV gimana?") == ("limited_company", "partnership")
    assert question_objects("CV kami ... kalau PT gimana?") == ("partnership", "limited_company")


def test_the_pasal_stating_the_years_joins_after_the_rule_it_completes(services: Any) -> None:
    flt = search_filter(services.cli_principal(None), TODAY)
    result = services.retriever.search("PT boleh pakai tarif 0,5% sampai berapa tahun?", flt)
    ids = [h.chunk.id for h in result.results]
    # the rate's ayat (2) is read with ayat (1), which Pasal 59 refers to
    assert ids[:2] == ["pp-55-2022#pasal-56/ayat-2", "pp-55-2022#pasal-59"]
    assert result.results[1].via == ("graph:referrer",)
    assert "paling lama" in result.results[1].chunk.text
    # a question that asks no period or rate adds nothing by reference
    plain = services.retriever.search("apa yang dimaksud dengan peredaran bruto tertentu?", flt)
    assert all("graph:referrer" not in h.via for h in plain.results)


def test_how_long_a_pt_may_use_the_final_rate_is_answered_from_pasal_59(services: Any) -> None:
    answer = answer_question(
        "PT kami pakai PPh final 0,5%. Berapa tahun jangka waktunya untuk PT?",
        services.cli_principal(None),
        services,
        as_of=TODAY,
    )
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert (lead.source.doc_id, lead.source.location) == ("pp-55-2022", "Pasal 59")
    assert "3 (tiga) Tahun Pajak bagi Wajib Pajak badan berbentuk perseroan terbatas" in lead.quote
    assert "jangka waktunya 3 (tiga) Tahun Pajak" in answer.answer


def test_an_individual_is_answered_with_seven_years(services: Any) -> None:
    answer = answer_question(
        "Berapa tahun jangka waktu PPh final 0,5% bagi wajib pajak orang pribadi?",
        services.cli_principal(None),
        services,
        as_of=TODAY,
    )
    assert answer.status == "answered"
    assert answer.claims[0].source.location == "Pasal 59"
    assert "7 (tujuh) Tahun Pajak bagi Wajib Pajak orang pribadi" in answer.claims[0].quote
    assert "7 (tujuh) Tahun Pajak" in answer.answer


def test_the_rate_of_a_rule_is_read_from_the_pasal_that_states_it(services: Any) -> None:
    # PP 46/2013 Pasal 2 ayat (1) puts small businesses under a final tax; Pasal 3, which refers to Pasal 2
    # as a whole, states "adalah 1% (satu persen)".  The lead quotes that sentence of Pasal 3.
    answer = answer_question(
        "Di tahun 2016, PPh final UMKM tarifnya berapa persen?",
        services.cli_principal(None),
        services,
        as_of=dt.date(2016, 6, 1),
    )
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert (lead.source.doc_id, lead.source.location) == ("pp-46-2013", "Pasal 3")
    assert "1% (satu persen)" in lead.quote
    assert "1%" in answer.answer and "0,75%" not in answer.answer


def test_a_cvs_years_read_through_its_own_kind(services: Any) -> None:
    """PP 55/2022 Pasal 59 huruf b gives 4 years to "koperasi, persekutuan komanditer, firma, ..."; the line
    stopped at "koperasi" and named another kind than the asker's (session 67).  "mau konfirmasi" names no
    topic (lexicon ``generic_words``): the question had been declined for want of a passage naming it."""
    answer = answer_question(
        "Sore, mau konfirmasi: PPh final 0,5% untuk CV kami bisa dipakai sampai berapa tahun?",
        services.cli_principal(None),
        services,
        as_of=TODAY,
    )
    assert answer.status == "answered"
    assert answer.claims[0].source.location == "Pasal 59"
    assert (
        "jangka waktunya 4 (empat) Tahun Pajak bagi Wajib Pajak badan berbentuk koperasi, persekutuan "
        in (answer.answer)
    )
    assert "komanditer [1]" in answer.answer
    firm = answer_question(
        "Firma boleh pakai PPh final berapa tahun?", services.cli_principal(None), services, as_of=TODAY
    )
    assert "koperasi, persekutuan komanditer, firma [1]" in firm.answer
    # a kind the item names first reads as before
    coop = answer_question(
        "Koperasi bisa pakai PPh final 0,5% berapa tahun?",
        services.cli_principal(None),
        services,
        as_of=TODAY,
    )
    assert "4 (empat) Tahun Pajak bagi Wajib Pajak badan berbentuk koperasi [1]" in coop.answer
