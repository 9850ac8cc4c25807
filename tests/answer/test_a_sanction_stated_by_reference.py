"""A sanction question whose best rule names the sanction without its size gets the ayat that states it.

UU KUP Pasal 14 ayat (1) lists when an STP is issued ("d. pengusaha ... tidak membuat Faktur Pajak atau
membuat Faktur Pajak, tetapi tidak tepat waktu") and says only "dikenai sanksi administratif berupa denda
dan/atau bunga"; the fine, 1% of the tax base, is in ayat (4), which names its subject by reference
("Terhadap pengusaha atau Pengusaha Kena Pajak sebagaimana dimaksud pada ayat (1) huruf d ...") and ranked
11th.  As for a rate or a time limit, a rule that refers to the best hit and states the asked figure -- here a
fine or interest with its size -- now joins the results (`kb.retrieve._with_referrer`, `_SANCTION_FIGURE`),
read with the ayat it refers to.  "Faktur pajak yang terlambat dibuat kena sanksi apa?" had been answered from
PP 9/2021's elucidation of a Pasal PP 44/2022 revoked, then (once that no longer answered later dates) with
huruf c of ayat (1), "Wajib Pajak dikenai sanksi administratif berupa denda dan/atau bunga".  Session 64; the
question is our own."""

from __future__ import annotations

import datetime as dt
from typing import Any

from kb.retrieve import _SANCTION_FIGURE
from tests.answer.chunk_sample import anonymous_answer


def test_a_sanction_with_its_size_is_the_asked_figure() -> None:
    assert _SANCTION_FIGURE.search("dikenai sanksi administratif berupa denda sebesar 1% (satu persen) dari")
    assert _SANCTION_FIGURE.search("sanksi administratif berupa bunga sebesar 2% (dua persen) per bulan")
    assert _SANCTION_FIGURE.search("dikenai sanksi administratif berupa denda sebesar Rp100.000,00")
    assert not _SANCTION_FIGURE.search(
        "Wajib Pajak dikenai sanksi administratif berupa denda dan/atau bunga;"
    )


def test_the_late_invoice_fine_is_answered_from_the_ayat_that_states_it(services: Any) -> None:
    answer = anonymous_answer(
        services, "Faktur pajak yang terlambat dibuat kena sanksi apa?", as_of=dt.date(2026, 12, 1)
    )
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert lead.source.location.startswith("Pasal 14 ayat (4) UU 6/1983")
    assert "denda sebesar 1% (satu persen) dari Dasar Pengenaan Pajak" in lead.quote
    assert "1%" in answer.answer
