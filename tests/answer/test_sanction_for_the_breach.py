"""A sanction question is led by the ayat that sanctions the breach, read as a sanction.

UU KUP Pasal 14 ayat (1) lists when a tax collection letter may be issued; its huruf c ("Wajib Pajak dikenai
sanksi administratif berupa denda dan/atau bunga") names sanctions as a condition and measures none. "apa
sanksi kalau tidak membuat faktur pajak?" (a probe of our own, session 52) was led by it; ayat (4) states
the sanction for huruf d (a PKP that makes no Faktur Pajak): "denda sebesar 1% ... dari Dasar Pengenaan
Pajak". Its answer line read the percentage as a tax base ("dasar pengenaannya 1%"); a sanction measured on
the base is the sanction.
"""

from __future__ import annotations

from typing import Any

from bot.answer.extractive import states_asked
from tests.answer.chunk_sample import anonymous_answer

QUESTION = "apa sanksi kalau tidak membuat faktur pajak?"


def test_a_sanction_named_as_a_condition_states_none() -> None:
    condition = "c. Wajib Pajak dikenai sanksi administratif berupa denda dan/atau bunga;"
    measured = (
        "dikenai sanksi administratif berupa denda sebesar 1% (satu persen) dari Dasar Pengenaan Pajak."
    )
    assert not states_asked(QUESTION, None, condition)
    assert states_asked(QUESTION, None, measured)


def test_not_making_a_tax_invoice_is_answered_with_its_sanction(services: Any) -> None:
    answer = anonymous_answer(services, QUESTION)
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert lead.source.location.startswith("Pasal 14 ayat (4)")
    assert "1% (satu persen)" in lead.quote
    assert answer.answer.startswith("Menurut UU 7/2021, sanksinya denda 1% dari Dasar Pengenaan Pajak [1].")
