"""Chat-style multi-part messages: numbered asks, follow-ups that lean on the message, parts whose answer
does not address them (bot.answer.parts).

A clerk numbers two asks after the case ("honor ...: 1) ... 2) ..."), follows a question with "Kalau PPh
21?", or asks a second thing about the company the first part named.  Each part must get the message's
topic and case, and a part whose lead says nothing of what it asks must say so instead of showing filler.
Messages are our own, written against the sample corpus (never taken from an eval set).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from typing import Any

import pytest

from bot.answer.model import Answer
from bot.answer.parts import answer_message, message_parts, part_texts, unaddressed
from bot.answer.pipeline import answer_question, known_acts
from kb.query import understand

AS_OF = dt.date(2026, 6, 1)
AP = "ap.clerk@sinarnusantara.co.id"  # reads the company's own documents (the FAQ, the closing calendar)
NUMBERED = (
    "honor narasumber Rp4jt: 1) bisa dibayar dari kas kecil? 2) DPP PPh 21 nya berapa persen dari bruto?"
)
FOLLOW_UP = "Sanksi terlambat lapor SPT Masa PPN berapa? Kalau PPh 21?"
CASE = "biaya jasa SNR ke SNL berapa persen mark-up nya? Terus SNL potong PPh 23 ga?"
HEAD_OFFICE = "NITKU itu berapa digit? trus utk kantor pusat kodenya apa?"


def _texts(message: str) -> list[tuple[str, str]]:
    parts = message_parts(message)
    return part_texts(message, parts, understand(message), None)


def test_numbered_asks_are_parts_and_the_words_before_them_are_the_case() -> None:
    assert message_parts(NUMBERED) == [
        "bisa dibayar dari kas kecil?",
        "DPP PPh 21 nya berapa persen dari bruto?",
    ]
    asked = [text for _own, text in _texts(NUMBERED)]
    # the case goes with both parts; the first borrows the message's tax type from the second
    assert asked == [
        "honor narasumber Rp4jt: PPh 21. bisa dibayar dari kas kecil?",
        "honor narasumber Rp4jt: DPP PPh 21 nya berapa persen dari bruto?",
    ]


def test_a_part_naming_only_a_topic_asks_the_question_before_it_again() -> None:
    first, second = _texts(FOLLOW_UP)
    assert first == (
        "Sanksi terlambat lapor SPT Masa PPN berapa?",
        "Sanksi terlambat lapor SPT Masa PPN berapa?",
    )
    # told as a statement (no "berapa", no "?"): the text answered still asks one thing
    assert second == (
        "Sanksi terlambat lapor SPT Masa PPN. Kalau PPh 21?",
        "Sanksi terlambat lapor SPT Masa PPN. Kalau PPh 21?",
    )


def test_a_part_gets_the_names_the_case_was_told_by_and_loses_its_joining_word() -> None:
    _first, second = _texts(CASE)
    assert second[1] == "SNR. SNL potong PPh 23 ga?"
    assert second[0] == "SNL potong PPh 23 ga?"


@pytest.fixture(scope="module")
def answers(services: Any) -> dict[str, Answer]:
    principal = services.cli_principal(AP)
    return {
        "follow_up": answer_message(FOLLOW_UP, principal, services, as_of=AS_OF),
        "head_office": answer_message(HEAD_OFFICE, principal, services, as_of=AS_OF),
    }


def _lead(answer: Answer, part: int) -> Any:
    record = answer.parts[part - 1]
    return answer.claims[record.claim_numbers[0] - 1]


def test_the_follow_up_is_answered_on_the_question_it_repeats(answers: dict[str, Answer]) -> None:
    answer = answers["follow_up"]
    assert [p.status for p in answer.parts] == ["answered", "answered"]
    assert answer.parts[1].asked == "Sanksi terlambat lapor SPT Masa PPN. Kalau PPh 21?"
    # its own answer, judged on the repeated question: not a line that only names PPh 21
    assert answer.parts[1].answer.claims and answer.parts[1].line


def test_a_short_follow_up_without_a_tax_type_gets_the_message_topic(answers: dict[str, Answer]) -> None:
    answer = answers["head_office"]
    assert answer.status == "answered"
    assert answer.parts[1].asked == "NITKU. utk kantor pusat kodenya apa?"
    lead = _lead(answer, 2)
    assert lead.source.number == "SNR-FAQ-TAX-001" and "000000" in lead.quote
    assert "000000" in answer.parts[1].line


def test_a_claim_that_addresses_the_part_leads_instead_of_one_that_does_not(services: Any) -> None:
    principal = services.cli_principal(AP)
    asked = "NITKU. utk kantor pusat kodenya apa?"
    real = answer_question(asked, principal, services, as_of=AS_OF)
    addressing = next(c for c in real.claims if "000000" in c.quote)
    # the same claims with one that names neither "kantor" nor "pusat" first
    others = tuple(c for c in real.claims if c is not addressing)
    assert others and "pusat" not in others[0].quote.lower()
    shuffled = dataclasses.replace(real, claims=(*others, addressing))
    acts = known_acts(services)
    got = unaddressed("utk kantor pusat kodenya apa?", asked, shuffled, services.aliases, acts, "id")
    assert got.status == "answered" and got.claims[0] is addressing
    assert "000000" in got.answer and "[1]" in got.answer


def test_a_part_whose_claims_mention_nothing_it_asks_says_so(services: Any) -> None:
    principal = services.cli_principal(None)  # the law alone: its rate rule leads
    rate = answer_question("Berapa tarif PPh Pasal 23 atas jasa teknik?", principal, services, as_of=AS_OF)
    assert rate.status == "answered" and "2% (dua persen)" in rate.claims[0].quote
    own = "Kapan paling lambat bukti potong dikirimkan kepada penerima?"
    got = unaddressed(own, own, rate, services.aliases, known_acts(services), "id")
    assert got.status == "abstained" and got.claims == ()
    assert got.escalation is not None and got.escalation.reason == "no_source" and got.escalation.offered
    assert got.answer.startswith("Saya tidak menemukan sumber yang menjawab pertanyaan ini")
    assert "UU 36/2008" in got.answer or "UU 7/1983" in got.answer
    # the part's own question answered by its own rule is left alone
    assert (
        unaddressed("Berapa tarif PPh Pasal 23 atas jasa teknik?", "", rate, services.aliases, None, "id")
        is rate
    )


def test_a_part_checking_a_rate_the_lead_states_stays_answered(services: Any) -> None:
    # "does the payer really withhold 2% on this?": the rate rule states the 2% in the act's words ("dipotong
    # pajak oleh pihak yang wajib membayarkan"), none of the asker's ("klien", "ngambil") -- session 37
    principal = services.cli_principal(None)
    rate = answer_question("Berapa tarif PPh Pasal 23 atas jasa teknik?", principal, services, as_of=AS_OF)
    assert rate.status == "answered" and "2% (dua persen)" in rate.claims[0].quote
    acts = known_acts(services)
    checked = unaddressed("klien bakal ngambil PPh 23 2% gk ya?", "", rate, services.aliases, acts, "id")
    assert checked is rate
    # a rate the lead does not state is no such check: the part is still declined
    other = unaddressed("klien bakal ngambil PPh 23 15% gk ya?", "", rate, services.aliases, acts, "id")
    assert other.status == "abstained" and other.claims == ()
