"""A table's rows name their own taxes: one row's "selain" excludes within that row only.

The company's rate matrix lists PPh 23 rows first; its second row reads "Sewa harta selain tanah/bangunan",
and the exclusion cut the whole table there, so the matrix was "about PPh 23" only.  Its row for small
construction contractors (PPh 4(2), 1,75%) then counted as another tax's, and "Tarif PPh 4 ayat 2 untuk jasa
konstruksi kecil berapa?" (session 72, a probe of our own) was led by UU PPh Pasal 23 ayat (1).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from bot.answer.conflicts import mentioned_taxes
from bot.answer.pipeline import answer_question

MATRIX = (
    "## Matriks Tarif\n\n| Jenis penghasilan / jasa | Pasal PPh | Tarif | Catatan |\n|---|---|---|---|\n"
    "| Sewa harta selain tanah/bangunan (kendaraan) | PPh 23 | 2% | dari bruto |\n"
    "| Jasa konstruksi, pelaksana kualifikasi kecil/perseorangan | PPh 4(2) | 1,75% | final |\n"
)


def test_each_row_names_its_tax() -> None:
    assert mentioned_taxes(MATRIX) == ["PPh 23", "PPh 4(2)"]


def test_prose_still_ends_at_its_exclusion() -> None:
    assert mentioned_taxes("Dipotong PPh 23, kecuali yang telah dipotong PPh 26.") == ["PPh 23"]


def test_the_construction_row_answers(services: Any) -> None:
    principal = services.cli_principal("tax.lead@sinarnusantara.co.id")
    question = "Tarif PPh 4 ayat 2 untuk jasa konstruksi kecil berapa?"
    answer = answer_question(question, principal, services, as_of=dt.date(2026, 12, 1))
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert lead.source.doc_id == "wht-matrix-2024", lead.source
    assert "kualifikasi kecil" in lead.quote and "1,75%" in lead.quote
