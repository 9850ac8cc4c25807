"""A term an Undang-Undang defines is answered from the act, not from a PMK that repeats the definition word
for word for its own use (five PMKs restate KUP's "Nomor Pokok Wajib Pajak adalah ...")."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from bot.answer.pipeline import answer_question


@pytest.mark.parametrize(
    ("question", "defined"),
    [
        ("Apa pengertian Nomor Pokok Wajib Pajak?", "Nomor Pokok Wajib Pajak adalah"),
        ("Apa arti Masa Pajak?", "Masa Pajak adalah"),
        # staff write the acronym and put it first; the act defines the long form
        ("DPP itu apa?", "Dasar Pengenaan Pajak adalah"),
        ("Kak, PKP tuh apa sih?", "Pengusaha Kena Pajak adalah"),
        ("SKPKB itu apa ya?", "Surat Ketetapan Pajak Kurang Bayar adalah"),
    ],
)
def test_the_act_defines_the_term(services: Any, question: str, defined: str) -> None:
    answer = answer_question(question, services.cli_principal(None), services, as_of=dt.date(2026, 6, 1))
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert lead.source.number.startswith("UU "), lead.source.number
    assert lead.source.location.startswith("Pasal 1 ")
    assert defined in lead.quote
    # the neighbour definitions of the act's Pasal 1 are not shown beside it
    pkp = "Pengusaha Kena Pajak adalah"
    neighbour = "Penanggung Pajak adalah" if defined == pkp else pkp
    assert not any(neighbour in c.quote for c in answer.claims)


def test_a_tax_acronym_alone_is_a_tax_question(services: Any) -> None:
    # "NTPN" is no word of any other trade: it was declined as outside Indonesian tax
    when = dt.date(2026, 6, 1)
    answer = answer_question("NTPN itu apa?", services.cli_principal(None), services, as_of=when)
    assert answer.status == "answered"
    assert "Nomor Transaksi Penerimaan Negara adalah" in answer.claims[0].quote
