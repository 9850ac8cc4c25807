"""An ayat that names its subject only by its sibling is read with that ayat (session 48).

PP 55/2022 Pasal 56 puts the rule and its rate in two ayat: "(1) Atas penghasilan dari usaha ... yang memiliki
peredaran bruto tertentu, dikenai Pajak Penghasilan yang bersifat final ..." and "(2) Tarif Pajak Penghasilan
yang bersifat final sebagaimana dimaksud pada ayat (1) sebesar 0,5%".  OCR had run ayat (2) into ayat (1), so
the rate was found with the words of its subject; once the marker was repaired, ayat (2) alone shared no word
with a question about the final tax on a certain gross turnover and the answer was a transitional Pasal.  Now
retrieval reads such an ayat with the one it refers to (``Hit.lead_in``, as a list item is read with the
sentence opening its list) and the composer judges its relevance on both; the quote stays ayat (2)'s own.
Messages are our own.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from bot.answer.pipeline import answer_question
from kb.model import Chunk
from kb.retrieve import _sibling_ayat

TODAY = dt.date(2026, 12, 5)


def _ayat(key: str, text: str, kind: str = "ayat", ayat: str | None = "2") -> Chunk:
    pasal = key.split("/")[0]
    return Chunk(
        f"pp-1-2099#{key}", "pp-1-2099", key, kind, key, text, "", f"pp-1-2099#{pasal}",
        pasal.removeprefix("pasal-"), ayat, None, None, None, None, False, 0,
    )  # fmt: skip


def test_an_ayat_naming_its_subject_by_a_sibling_points_at_it() -> None:
    rate = "(2) Tarif Pajak Penghasilan yang bersifat final sebagaimana dimaksud pada ayat (1) sebesar 0,5%."
    assert _sibling_ayat(_ayat("pasal-56/ayat-2", rate)) == "pp-1-2099#pasal-56/ayat-1"
    lettered = "(2a) Jangka waktu sebagaimana dimaksud dalam ayat (2) paling lama 3 (tiga) bulan."
    assert _sibling_ayat(_ayat("pasal-9/ayat-2a", lettered, ayat="2a")) == "pp-1-2099#pasal-9/ayat-2"


def test_other_references_are_not_a_sibling() -> None:
    # another act's ayat, the ayat itself, a reference far into a long condition, a list item
    other_act = (
        "(3) Penghasilan sebagaimana dimaksud pada ayat (1) Undang-Undang Pajak Penghasilan dikenai 2%."
    )
    assert _sibling_ayat(_ayat("pasal-7/ayat-3", other_act, ayat="3")) is None
    itself = "(2) Pemotongan sebagaimana dimaksud pada ayat (2) ini sebesar 2% setiap bulan."
    assert _sibling_ayat(_ayat("pasal-7/ayat-2", itself)) is None
    late = "(2) " + "Dalam hal Wajib Pajak menyampaikan pemberitahuan secara tertulis kepada kantor, " * 3
    late += "sebagaimana dimaksud pada ayat (1) sebesar 1%."
    assert _sibling_ayat(_ayat("pasal-7/ayat-2", late)) is None
    item = "a. tarif sebagaimana dimaksud pada ayat (1) sebesar 1%;"
    assert _sibling_ayat(_ayat("pasal-7/ayat-2/huruf-a", item, kind="huruf")) is None


def test_an_ayat_stating_no_figure_says_what_it_is_about_itself() -> None:
    # an exception to its sibling names what it exempts: read with ayat (1) it would look like the rule
    exception = "(4) Pemotongan sebagaimana dimaksud pada ayat (1) tidak dilakukan atas penghasilan bunga."
    assert _sibling_ayat(_ayat("pasal-23/ayat-4", exception, ayat="4")) is None


def test_the_rate_of_the_final_tax_on_a_certain_turnover_is_ayat_2_read_with_ayat_1(services: Any) -> None:
    answer = answer_question(
        "Usaha dengan peredaran bruto tertentu dikenai PPh yang bersifat final, "
        "tarifnya sekarang berapa persen?",
        services.cli_principal(None),
        services,
        as_of=TODAY,
    )
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert lead.source.chunk_id == "pp-55-2022#pasal-56/ayat-2"
    assert "sebesar 0,5% (nol koma lima persen)" in lead.quote
    # what the rate is for is quoted beside it, from ayat (1)'s words
    assert any(
        "memiliki peredaran bruto tertentu, dikenai Pajak Penghasilan" in c.quote for c in answer.claims[1:]
    )
