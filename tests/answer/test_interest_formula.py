"""KUP's monthly interest is a formula, "suku bunga acuan ditambah 5% (lima persen) dan dibagi 12": the first
line said "tarifnya 5%", a figure an asker would apply as the monthly rate (outside tester, session 33)."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from bot.answer.pipeline import answer_question


def test_the_monthly_interest_is_stated_as_its_formula(services: Any) -> None:
    answer = answer_question(
        "Tarif bunga sanksi per bulan itu dihitung berapa persen?",
        services.cli_principal(None),
        services,
        as_of=dt.date(2024, 6, 1),
    )
    assert answer.status == "answered"
    first = answer.answer.split("\n")[0]
    assert re.search(
        r"tarifnya suku bunga acuan ditambah \d+% \([a-z ]+\) dan dibagi 12 \(dua belas\) \[1\]", first
    )
    assert "acuan ditambah" in answer.claims[0].quote
