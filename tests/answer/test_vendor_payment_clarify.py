"""A rate asked for a payment to a vendor that says neither what is paid for nor which tax (session 39).

"Rekanan kami menagih 12 juta, dipotong berapa persen?" depends on what the vendor is paid for (a service
under PPh 23, a rent, goods); dasar answered it from whatever passage shared its words ("tarifnya 20% dari
Rp100").  It now asks what is paid for, as it already did for "this vendor" (``kb/data/clarify.yaml``
``vendor_payment_unspecified``).  A question that names the service or the tax, or asks about a vendor's
faktur, stamp duty or missing NPWP, is answered as before.  Messages are our own.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from bot.answer.pipeline import answer_question

TODAY = dt.date(2026, 12, 4)


@pytest.mark.parametrize(
    "message",
    [
        "Rekanan kami menagih 12 juta bulan ini, dipotong berapa persen?",
        "Our supplier sent a bill for IDR 40 million. What rate do we withhold?",
    ],
)
def test_what_is_paid_for_is_asked_first(services: Any, message: str) -> None:
    answer = answer_question(message, services.cli_principal(None), services, as_of=TODAY)
    assert answer.status == "clarify"
    assert answer.claims == ()
    assert answer.clarifying_questions[0].slot == "service_type"


@pytest.mark.parametrize(
    ("message", "location"),
    [
        # the service is named: PPh 23's rate answers
        ("Vendor jasa konsultan kami menagih 12 juta, dipotong PPh berapa persen?", "Pasal 23 ayat (1)"),
        # a vendor without an NPWP asks the surcharge, whatever is paid for
        ("Vendor tidak punya NPWP, apakah tarifnya lebih tinggi?", None),
    ],
)
def test_a_named_service_or_the_npwp_surcharge_is_answered(
    services: Any, message: str, location: str | None
) -> None:
    answer = answer_question(message, services.cli_principal(None), services, as_of=TODAY)
    assert answer.status == "answered"
    assert all(q.slot != "service_type" for q in answer.clarifying_questions)
    if location is not None:
        assert answer.claims[0].source.location.startswith(location)
