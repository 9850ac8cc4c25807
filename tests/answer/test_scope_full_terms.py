"""A tax-administration term written out in full is a tax question as its acronym is: "Apa itu Nomor
Identitas Tempat Kegiatan Usaha?" was declined as out of scope while "NITKU" was in scope (session 57)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from bot.answer import scope
from tests.answer.chunk_sample import anonymous_answer


@pytest.mark.parametrize(
    "question",
    [
        "Apa itu Nomor Identitas Tempat Kegiatan Usaha?",
        "Kapan surat pemberitahuan masa disampaikan?",
        "Apa itu surat keterangan bebas?",
        "Apa fungsi nomor transaksi penerimaan negara?",
    ],
)
def test_full_terms_are_in_scope(question: str) -> None:
    assert scope.classify(question, has_tax_signal=False).kind == "in_scope"


def test_no_tax_word_is_still_out_of_scope() -> None:
    assert scope.classify("Apa resep nasi goreng kampung?", has_tax_signal=False).kind == "out_of_scope"


def test_the_nitku_definition_is_answered(services: Any) -> None:
    answer = anonymous_answer(
        services, "Apa itu Nomor Identitas Tempat Kegiatan Usaha?", as_of=dt.date(2026, 12, 1)
    )
    assert answer.status == "answered"
    assert "Nomor Identitas Tempat Kegiatan Usaha adalah" in answer.claims[0].quote
