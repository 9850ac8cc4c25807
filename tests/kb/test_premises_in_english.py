"""An English question names premises the company's documents write in Indonesian ("warehouse" -> "gudang").

Unlisted, "warehouse" counted only against English passages, and "Is there withholding tax on rent of a
warehouse?" was led by a tax-credit Pasal that shares "pemotongan" and "sewa" (session 70, a probe of our
own); the withholding matrix's row "Sewa tanah dan/atau bangunan (kantor, gudang)" states the answer.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from bot.answer.pipeline import answer_question
from kb.lexical import coverage, question_concepts
from kb.query import understand

ROW = (
    "Jenis penghasilan / jasa: Sewa tanah dan/atau bangunan (kantor, gudang); Pasal PPh: PPh 4(2); Tarif: 10%"
)


def test_a_warehouse_is_a_gudang() -> None:
    question = "What is the tax rate on warehouse rent?"
    assert coverage(question_concepts(understand(question), question), ROW) == 1.0


def test_the_matrix_row_answers(services: Any) -> None:
    answer = answer_question(
        "Is there withholding tax on rent of a warehouse?",
        services.cli_principal("ap.clerk@sinarnusantara.co.id"),
        services,
        as_of=dt.date(2026, 12, 1),
    )
    assert answer.status == "answered"
    assert answer.claims[0].source.doc_id == "wht-matrix-2024"
    assert "gudang" in answer.claims[0].quote and "10%" in answer.claims[0].quote
