"""A person who works or lives in Indonesia is taxed by residence, and a progressive scale has no one rate.

Before session 44 an expatriate's "do I pay income tax here, at what rate?" was read as a payment to a payee
abroad ("foreign" -> PPh 26) and answered "the rate is 20%" from UU PPh Pasal 26 ayat (1) (dividends paid
abroad); asked without "foreign" it was asked which PPh was meant although the asker works in Indonesia; a
plain individual-rate question was led by Pasal 17 ayat (2c), the dividend rate, at high confidence; and
Pasal 17 ayat (1) was read as "the rate is 5%", the first bracket's rate.  Messages are our own.
"""

from __future__ import annotations

import datetime as dt

import pytest

from bot.answer.pipeline import answer_question
from bot.answer.render import _layered_rates

EXPAT_RATE = (
    "I am a foreign employee in Indonesia with a work permit. Do I have to pay income tax here, "
    "and at what rate?"
)
INDIVIDUAL_RATE = "Tarif PPh orang pribadi dalam negeri menurut Pasal 17 berapa?"


def _ask(services, question: str, day: dt.date):
    return answer_question(question, services.cli_principal(None), services, as_of=day)


@pytest.mark.parametrize(
    ("day", "doc", "scale"),
    [
        (dt.date(2010, 2, 1), "uu-36-2008", "5%, 15%, 25% and 30%"),
        # UU HPP added the 35% bracket above Rp5 miliar (its scan had lost that cell: restored in session 53)
        (dt.date(2024, 6, 1), "uu-7-2021", "5%, 15%, 25%, 30% and 35%"),
    ],
)
def test_an_expatriate_rate_question_is_answered_with_the_resident_scale(services, day, doc, scale) -> None:
    answer = _ask(services, EXPAT_RATE, day)
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert lead.source.doc_id == doc and lead.source.location.startswith("Pasal 17 ayat (1)")
    assert f"the rate is {scale} by taxable-income bracket" in answer.answer
    assert any("resident-taxpayer rule" in w for w in answer.warnings)
    assert not any("Article 26" in w for w in answer.warnings)  # not read as a payment abroad


def test_working_in_indonesia_is_no_reason_to_ask_which_income_tax(services) -> None:
    answer = _ask(
        services,
        "I am a foreigner working in Indonesia with a work permit. Do I have to pay income tax here, and at "
        "what rate?",
        dt.date(2024, 6, 1),
    )
    assert answer.status == "answered"
    assert answer.claims[0].source.location.startswith("Pasal 17 ayat (1)")


def test_the_dividend_rate_does_not_lead_a_plain_individual_rate_question(services) -> None:
    answer = _ask(services, INDIVIDUAL_RATE, dt.date(2024, 6, 1))
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert lead.source.doc_id == "uu-7-2021" and lead.source.location.startswith("Pasal 17 ayat (1)")
    assert "dividen" not in lead.quote
    # nor is it shown beside the scale as if it were a condition of it
    assert not any("ayat (2c)" in c.source.location for c in answer.claims)
    assert "tarifnya 5%, 15%, 25%, 30% dan 35% menurut lapisan Penghasilan Kena Pajak" in answer.answer


def test_a_payee_abroad_is_still_searched_under_pph_26(services) -> None:
    answer = _ask(
        services, "Kami bayar jasa konsultan ke perusahaan Singapura, potong PPh berapa?", dt.date(2024, 6, 1)
    )
    assert any("PPh Pasal 26" in w for w in answer.warnings)
    assert not any("subjek pajak dalam negeri" in w for w in answer.warnings)
    assert answer.claims and "Pasal 26 ayat (1)" in answer.claims[0].source.location


def test_a_question_in_the_acts_own_residence_terms_is_searched_as_asked(services) -> None:
    answer = _ask(
        services,
        "How many days must an expatriate stay in Indonesia to become a resident taxpayer?",
        dt.date(2024, 6, 1),
    )
    assert not any("resident-taxpayer rule" in w for w in answer.warnings)
    assert answer.claims and answer.claims[0].source.location.startswith("Pasal 2 ayat (3)")


def test_a_scale_is_read_whichever_side_of_its_rate_a_bound_is_written() -> None:
    bound_first = (
        "a. orang pribadi: sampai dengan Rp50.000.000,00 (lima puluh juta rupiah) 5% (lima persen) di atas "
        "Rp50.000.000,00 (lima puluh juta rupiah) 15% (lima belas persen) di atas Rp250.000.000,00 "
        "(dua ratus lima puluh juta rupiah) 30% (tiga puluh persen) b. Wajib Pajak badan dalam negeri "
        "dan bentuk usaha tetap adalah sebesar 28% (dua puluh delapan persen)."
    )
    assert _layered_rates(bound_first, ["5%", "15%", "30%", "28%"], "id") == (
        "5%, 15% dan 30% menurut lapisan Penghasilan Kena Pajak"
    )
    rate_first = (
        "Tarif Pajak 5% (lima persen) sampai dengan Rp60.000.000,00 (enam puluh juta rupiah) di atas "
        "Rp60.000.000,00 sampai dengan Rp250.000.000,00 (dua ratus lima puluh juta rupiah) 15% (lima belas "
        "persen) di atas Rp250.000.000,00 (dua ratus lima puluh juta rupiah) 25% (dua puluh lima persen)"
    )
    assert (
        _layered_rates(rate_first, ["5%", "15%", "25%"], "en") == "5%, 15% and 25% by taxable-income bracket"
    )
    two = "sampai dengan Rp4.800.000.000,00 0,5% dan di atas Rp4.800.000.000,00 22%"
    assert _layered_rates(two, ["0,5%", "22%"], "id") is None  # two rates are no scale


def test_services_in_a_story_pasted_below_do_not_make_it_a_service_payment(services) -> None:
    # the worker's own income tax is asked; "services" is only in the text the asker quoted underneath
    message = (
        "Does someone who works in Indonesia on a work permit pay income tax, and what is the rate? "
        "I read that foreigners are exempt, see the note below.\n\nCity levy\n\n"
        "The city levy paid for services the city gave to foreign residents. It was abolished in 1998."
    )
    answer = _ask(services, message, dt.date(2010, 2, 1))
    assert answer.status == "answered"
    assert not answer.clarifying_questions
    lead = answer.claims[0]
    assert lead.source.doc_id == "uu-36-2008" and lead.source.location.startswith("Pasal 17 ayat (1)")
