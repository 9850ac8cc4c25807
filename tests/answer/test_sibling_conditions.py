"""Which other ayat of the lead's Pasal an answer shows as its conditions.

A Pasal gathers several rules: the rates, the exemptions, who may be appointed to withhold, the power to
delegate.  On both halves of our eval set, same-Pasal "conditions" cited a gold location 6 times in 27: an
exemption question was followed by the rates ayat, the appointment ayat and the delegation ayat.  A sibling
is shown when it is linked to the lead (one cites the other: "sebagaimana dimaksud pada ayat (1)") or when
it is at least as relevant to the question (it names a concept of the question the lead does not, or the
same ones: the other case of a parallel pair "Apabila ... lebih besar daripada ...").  Passages written
for the test.
"""

from __future__ import annotations

import datetime as dt

from bot.answer.extractive import ExtractiveComposer
from bot.answer.protocol import ComposeRequest
from kb.model import Chunk, DocumentMeta, Hit
from kb.query import understand
from tests.answer.chunk_sample import sample_chunk

TODAY = dt.date(2026, 12, 2)
DOC = DocumentMeta(id="uu-97-2031", title="Undang-Undang Uji", number="UU 97/2031", type="UU")

EXEMPTION = (
    "(4) Pemotongan pajak sebagaimana dimaksud pada ayat (1) tidak dilakukan atas bunga yang dibayar kepada "
    "bank."
)
RATES = "(1) Atas bunga yang dibayar dilakukan pemotongan pajak sebesar 15%."
APPOINTED = (
    "(3) Orang pribadi dapat ditunjuk oleh Direktur Jenderal untuk melakukan pemotongan pajak atas bunga "
    "yang dibayar sebagaimana dimaksud pada ayat (1)."
)
DELEGATION = (
    "(5) Ketentuan lebih lanjut mengenai pemotongan pajak atas bunga yang dibayar diatur dengan Peraturan "
    "Menteri Keuangan."
)


def _ayat(text: str, ayat: str) -> Chunk:
    return sample_chunk(
        DOC.id,
        f"pasal-23/ayat-{ayat}",
        text,
        location=f"Pasal 23 ayat ({ayat})",
        seq=int(ayat),
        parent_key="pasal-23",
        pasal="23",
        ayat=ayat,
    )


def _shown(question: str, *ayat: tuple[str, str]) -> list[str]:
    """The locations the answer cites when each (text, ayat) is a hit, ranked in the order given."""
    hits = tuple(Hit(_ayat(t, a), DOC, 1.0 - 0.1 * i, ("bm25",)) for i, (t, a) in enumerate(ayat))
    composed = ExtractiveComposer().compose(ComposeRequest(question, "id", TODAY, understand(question), hits))
    assert composed.claims, composed.notes
    return [c.source_chunk_id.split("/")[-1] for c in composed.claims]


def test_an_exemption_answer_shows_the_ayat_it_cites_not_the_pasals_other_rules() -> None:
    shown = _shown(
        "Pemotongan pajak atas bunga yang dibayar ke bank gimana?",
        (EXEMPTION, "4"),
        (APPOINTED, "3"),
        (DELEGATION, "5"),
        (RATES, "1"),
    )
    assert shown[0] == "ayat-4"
    # ayat (1) is the rule ayat (4) exempts from: a condition of the lead
    assert "ayat-1" in shown
    # who may be appointed, and the delegation to a PMK, neither cite ayat (4) nor name more of the question
    assert "ayat-3" not in shown
    assert "ayat-5" not in shown


PAYABLE = (
    "(3) Apabila dalam suatu Masa Pajak, Pajak Keluaran lebih besar daripada Pajak Masukan, selisihnya "
    "merupakan pajak yang harus disetor."
)
CARRIED = (
    "(4) Apabila dalam suatu Masa Pajak, Pajak Masukan lebih besar daripada Pajak Keluaran, selisihnya "
    "merupakan kelebihan pajak yang dikompensasikan ke Masa Pajak berikutnya."
)


def test_the_other_case_of_a_parallel_pair_is_kept() -> None:
    # the two ayat share every word of the question: whichever leads, the other is as relevant and is shown
    shown = _shown(
        "Kalau Pajak Masukan lebih besar daripada Pajak Keluaran dalam satu Masa Pajak, selisihnya gmn?",
        (PAYABLE, "3"),
        (CARRIED, "4"),
    )
    assert set(shown) == {"ayat-3", "ayat-4"}
