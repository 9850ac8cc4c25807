"""A question "Kapan PPN terutang?" asks the moment a tax falls due, which UU PPN Pasal 11 states as a
list ("Terutangnya pajak terjadi pada saat: a. penyerahan Barang Kena Pajak; ..."), in the word "pajak" only.
Before session 60 the question was answered with PP 49/2022 Pasal 32 ayat (5), the month to pay a tax owed
once an exemption lapses: Pasal 11 ranked 37th among the candidates (its act's tax was no word of it), and
its items, judged without their lead-in, stated no time.  Now the act's tax counts for the candidates as it
did for the composer (``kb.query.act_tax_name``), the state asked ("terutang") is the asked act, a payment
period binds another act, and an item is read with a lead-in that states the moment.  Questions are our
own."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from bot.answer.extractive import (
    Unit,
    _fact_text,
    _light_verb_subjects,
    deadline_of_asked_act,
    deadline_of_other_act,
    states_moment_of,
)
from kb.lexical import asked_state
from kb.query import act_tax_name
from kb.store.protocol import SearchFilter
from tests.answer.chunk_sample import anonymous_answer

EVERYONE = SearchFilter(groups=frozenset({"everyone"}), as_of=dt.date(2026, 12, 1))
PAYMENT_PERIOD = (
    "(5) Pembayaran Pajak Pertambahan Nilai terutang sebagaimana dimaksud pada ayat (1) wajib dilakukan oleh "
    "Wajib Pajak, orang pribadi, atau badan dalam jangka waktu paling lama 1 (satu) bulan terhitung sejak "
    "Barang Kena Pajak tersebut digunakan tidak sesuai dengan tujuan semula."
)
MOMENT = "Pasal 11\n(1) Terutangnya pajak terjadi pada saat:\na. penyerahan Barang Kena Pajak;"


@pytest.mark.parametrize(
    ("question", "state"),
    [
        ("Kapan PPN terutang?", "terutang"),
        ("kapan pajaknya terutang ya?", "terutang"),
        # a limit of a duty is asked, not a moment
        ("Kapan batas waktu setor pajak terutang?", None),
        ("Kapan PPh 21 harus disetor?", None),
    ],
)
def test_the_state_whose_moment_is_asked(question: str, state: str | None) -> None:
    assert asked_state(question) == state


def test_the_moment_of_the_state_is_stated() -> None:
    assert states_moment_of("terutang", MOMENT)
    assert states_moment_of("terutang", "saat terutangnya pajak adalah pada saat pembayaran")
    assert not states_moment_of("terutang", PAYMENT_PERIOD)


def test_the_moment_binds_the_asked_state_and_a_payment_period_another_act() -> None:
    question = "Kapan PPN terutang?"
    assert deadline_of_asked_act(question, MOMENT)
    assert not deadline_of_asked_act(question, PAYMENT_PERIOD)
    assert deadline_of_other_act(question, PAYMENT_PERIOD)


def test_a_light_verb_with_its_agent_still_limits_its_subject() -> None:
    # "Pembayaran ... wajib dilakukan oleh <agent> dalam jangka waktu ...": the payment is limited, and the
    # clause's capitalised first word is the sentence's, not a document's name
    assert _light_verb_subjects(PAYMENT_PERIOD) == {"pembayaran"}
    assert _light_verb_subjects("Hasil Pemeriksaan dilakukan paling lama 6 (enam) bulan") == set()


def test_an_item_states_the_moment_with_its_lead_in() -> None:
    item = Unit(
        "a. penyerahan Barang Kena Pajak;",
        "Terutangnya pajak terjadi pada saat: a. penyerahan Barang Kena Pajak;",
        False,
    )
    assert _fact_text("deadline", item) == item.text
    assert _fact_text("rate", item) == item.quote
    # a lead-in with a figure is not read into the item: the figure would not be in its quote
    dated = Unit(
        "a. PPh Pasal 21;", "disetor paling lambat tanggal 15 bulan berikutnya: a. PPh Pasal 21;", False
    )
    assert _fact_text("deadline", dated) == dated.quote


def test_the_acts_of_one_tax_name_it() -> None:
    assert act_tax_name("UU 8/1983") == "Pajak Pertambahan Nilai"
    assert act_tax_name("UU 7/1983") == "Pajak Penghasilan"
    assert act_tax_name("UU 10/2020") == "Bea Meterai"
    assert act_tax_name("UU 6/1983") == ""


def test_uu_ppn_pasal_11_is_a_candidate_of_the_question(services: Any) -> None:
    found = services.retriever.search("Kapan PPN terutang?", EVERYONE, top_k=5).results
    assert any(h.chunk.doc_id == "uu-42-2009" and h.chunk.key.endswith("/pasal-11") for h in found)


def test_the_exclusions_of_uu_pph_are_a_candidate_of_the_question(services: Any) -> None:
    # "Yang dikecualikan dari objek pajak adalah:" writes no "penghasilan": its act is about income tax
    found = services.retriever.search(
        "Apa saja penghasilan yang dikecualikan dari objek pajak?", EVERYONE, top_k=5
    ).results
    assert any(
        h.chunk.base_doc == "uu-7-1983" and h.chunk.location.startswith("Pasal 4 ayat (3)") for h in found
    )


def test_the_moment_ppn_falls_due_is_answered_by_uu_ppn_pasal_11(services: Any) -> None:
    answer = anonymous_answer(services, "Kapan PPN terutang?", as_of=dt.date(2026, 12, 1))
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert lead.source.doc_id == "uu-42-2009" and lead.source.location.startswith("Pasal 11")
    assert lead.quote.startswith("a. penyerahan Barang Kena Pajak")
    assert "Terutangnya pajak terjadi pada saat" in answer.answer
