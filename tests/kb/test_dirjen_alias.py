"""The acts write "Direktur Jenderal Pajak" in full and never "Dirjen": a question naming "Dirjen Pajak"
found no passage (session 57, "Berapa lama Dirjen Pajak harus memutus keberatan?")."""

from __future__ import annotations

import datetime as dt
from typing import Any

from tests.answer.chunk_sample import anonymous_answer


def test_dirjen_pajak_is_the_director_general(services: Any) -> None:
    answer = anonymous_answer(
        services, "Berapa lama Dirjen Pajak harus memutus keberatan?", as_of=dt.date(2026, 12, 1)
    )
    assert answer.status == "answered"
    assert "12 (dua belas) bulan" in answer.claims[0].quote
    assert "keberatan" in answer.claims[0].quote
