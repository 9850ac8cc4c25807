"""Slack Indonesian spells function words short ("yg", "brp", "utk", "ga"): the spelling must not change the
answer, because a function word is never a topic term the sources must contain."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from bot.answer.pipeline import answer_question
from kb.query import STOPWORDS

WHEN = dt.date(2024, 6, 1)

PAIRS = [
    (
        "min, tarif PPh 23 utk jasa teknik yg vendornya punya NPWP brp ya?",
        "tarif PPh 23 untuk jasa teknik yang vendornya punya NPWP berapa ya?",
    ),
    ("tarif bea meterai utk surat perjanjian brp sih?", "tarif bea meterai untuk surat perjanjian berapa?"),
]


@pytest.mark.parametrize(("chat", "formal"), PAIRS)
def test_chat_spelling_answers_like_the_formal_spelling(
    behaviour_services: Any, chat: str, formal: str
) -> None:
    principal = behaviour_services.cli_principal(None)
    a = answer_question(chat, principal, behaviour_services, as_of=WHEN)
    b = answer_question(formal, principal, behaviour_services, as_of=WHEN)
    assert a.status == b.status == "answered"
    assert [(c.source.doc_id, c.source.location) for c in a.claims[:1]] == [
        (c.source.doc_id, c.source.location) for c in b.claims[:1]
    ]


def test_chat_function_words_are_stopwords_but_tax_acronyms_are_not() -> None:
    assert {"yg", "brp", "utk", "udh", "ga", "sih", "min", "msh", "jg", "hrs"} <= STOPWORDS
    assert {"gk", "tp", "lg", "jd", "blh", "kpn", "tlg", "mhn"} <= STOPWORDS  # session 46
    assert "spt" not in STOPWORDS  # "SPT" is the tax return, not the chat spelling of "seperti"


def test_formal_spelling_writes_out_chat_spellings_as_whole_words() -> None:
    from kb.lexicon import formal_spelling

    assert formal_spelling("Gmn klo vendor ga punya NPWP, pph brp?") == (
        "bagaimana kalau vendor tidak punya NPWP, pph berapa?"
    )
    assert formal_spelling("pjk krywn gk dipotong, tp kpn?") == "pajak karyawan tidak dipotong, tapi kapan?"
    # inside a word nothing changes ("gaji" is not "ga" + "ji")
    assert formal_spelling("gaji karyawan") == "gaji karyawan"
