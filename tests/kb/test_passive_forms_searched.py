"""The root and the noun of a passive the asker wrote are searched: "disetor" -> "setor", "penyetoran".

The index matches whole words, and the company's closing calendar names the act by its root ("Setor paling
lambat: tanggal 15 bulan berikutnya"), the acts often by its noun; "Kapan PPh 21 karyawan harus disetor?" had
the calendar's row beyond the first 60 passages (session 70, a probe of our own).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from bot.wiring import search_filter
from kb.lexical import passive_forms
from kb.query import fts_query, understand


@pytest.mark.parametrize(
    ("word", "forms"),
    [
        ("disetor", ("setor", "penyetoran")),
        ("dipotong", ("potong", "pemotongan")),
        ("dipungut", ("pungut", "pemungutan")),
        ("diperhitung", ("perhitung", "perhitungan")),
    ],
)
def test_a_passive_names_its_root_and_noun(word: str, forms: tuple[str, ...]) -> None:
    assert passive_forms(word) == forms


@pytest.mark.parametrize("word", ["disampaikan", "dikenai", "diri", "dinas", "pemotongan", "setor"])
def test_no_forms_for_other_words(word: str) -> None:
    # a -kan or -i verb's root is often another word ("sampai"); short words and nouns are no passives here
    assert passive_forms(word) == ()


def test_only_the_askers_own_passives_are_added() -> None:
    match = fts_query(understand("Kapan PPh 21 harus disetor?"))
    assert '"setor"' in match and '"penyetoran"' in match
    # a search word an alias brought in ("dipotong" for "withheld") adds nothing of its own
    assert '"potong"' not in fts_query(understand("Is PPh 23 withheld on rent?"))


def test_the_calendar_row_is_a_candidate(services: Any) -> None:
    flt = search_filter(services.cli_principal("ap.clerk@sinarnusantara.co.id"), dt.date(2026, 12, 1))
    result = services.retriever.search("Kapan PPh 21 karyawan harus disetor?", flt, top_k=30)
    ids = [h.chunk.id for h in result.results]
    assert "tax-closing-calendar#kalender-penutupan-pajak-bulanan/batas-waktu-eksternal" in ids, ids
