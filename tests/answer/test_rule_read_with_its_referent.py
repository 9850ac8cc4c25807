"""A rule naming its subject by another Pasal of its act is read with that Pasal.

UU Bea Meterai Pasal 5 states the rate of "Dokumen sebagaimana dimaksud dalam Pasal 3"; only Pasal 3 lists the
documents (a contract is among them).  "tarif bea meterai untuk kontrak berapa?" (a probe of our own, session
52) was answered with Pasal 3's futures contracts: Pasal 5 shares no word with "kontrak" and was left out as
irrelevant.  For the rate or time limit such a rule states, its relevance counts the referent's words
(``bot.answer.extractive._referent_texts``); the retriever also brings in a rule stating a rate as a fixed
amount that refers to the best hit (``kb.retrieve._RATE_FIGURE``).  An amount asked ("di atas berapa?") may be
a bound of the referent itself and is not read this way.
"""

from __future__ import annotations

from typing import Any

from bot.answer.extractive import _referent_texts
from kb.model import DocumentMeta, Hit
from tests.answer.chunk_sample import anonymous_answer, sample_chunk

DOC = DocumentMeta(id="uu-bm", number="UU 1/2099", title="Bea Meterai", type="UU")
LIST = sample_chunk(
    "uu-bm",
    "pasal-3",
    "Pasal 3 (1) Bea Meterai dikenakan atas: a. surat perjanjian; b. kontrak berjangka.",
    location="Pasal 3",
    seq=3,
    kind="pasal",
    pasal="3",
)
RATE = sample_chunk(
    "uu-bm",
    "pasal-5",
    "Pasal 5 Dokumen sebagaimana dimaksud dalam Pasal 3 dikenai Bea Meterai dengan tarif tetap sebesar "
    "Rp10.000,00 (sepuluh ribu rupiah).",
    location="Pasal 5",
    seq=5,
    kind="pasal",
    pasal="5",
)
OTHER_ACT = sample_chunk(
    "uu-bm",
    "pasal-6",
    "Pasal 6 Dokumen sebagaimana dimaksud dalam Pasal 3 Undang-Undang Nomor 9 Tahun 2099 dikenai tarif "
    "sebesar Rp3.000,00.",
    location="Pasal 6",
    seq=6,
    kind="pasal",
    pasal="6",
)


def _hits(*chunks: Any) -> list[Hit]:
    return [Hit(c, DOC, 1.0 - i / 10) for i, c in enumerate(chunks)]


def test_a_rate_rule_is_read_with_the_pasal_it_names() -> None:
    referents = _referent_texts(_hits(LIST, RATE), "rate")
    assert "kontrak berjangka" in referents[RATE.id]
    assert LIST.id not in referents


def test_no_referent_for_an_amount_asked_another_acts_pasal_or_an_absent_one() -> None:
    assert _referent_texts(_hits(LIST, RATE), "amount") == {}
    assert _referent_texts(_hits(LIST, OTHER_ACT), "rate") == {}
    assert _referent_texts(_hits(RATE), "rate") == {}


def test_the_stamp_duty_on_a_contract_is_its_rate(services: Any) -> None:
    answer = anonymous_answer(services, "tarif bea meterai untuk kontrak berapa?")
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert (lead.source.doc_id, lead.source.location) == ("uu-10-2020", "Pasal 5")
    assert "Rp10.000,00" in lead.quote


def test_a_bound_asked_stays_with_the_listing_pasal(services: Any) -> None:
    answer = anonymous_answer(services, "Nota penerimaan uang nilainya di atas berapa baru kena bea meterai?")
    lead = answer.claims[0]
    assert (lead.source.doc_id, lead.source.location) == ("uu-10-2020", "Pasal 3")
    assert "Rp5.000.000,00" in lead.quote


def test_the_rate_by_reference_leads_over_a_better_match_of_the_case(services: Any) -> None:
    # the listing Pasal matches the question's own bound ("above Rp5 million") far better, but states no rate;
    # the Pasal stating the rate of its documents leads (session 52, a probe of our own)
    answer = anonymous_answer(services, "How much is the stamp duty on a receipt above Rp5 million?")
    lead = answer.claims[0]
    assert (lead.source.doc_id, lead.source.location) == ("uu-10-2020", "Pasal 5")
    assert "Rp10.000,00" in lead.quote


def test_states_for_needs_the_referents_pasal_and_the_asked_fact() -> None:
    from bot.answer.extractive import _states_for

    listing, rate, other = _hits(LIST, RATE, OTHER_ACT)
    assert _states_for(rate, listing, "rate")
    assert not _states_for(rate, listing, "amount")
    assert not _states_for(other, listing, "rate")
    assert not _states_for(listing, rate, "rate")
