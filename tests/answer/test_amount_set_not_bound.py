"""An amount question is answered by the rule that sets an amount, not by one naming an amount as a bound.

"Dokumen yang menyatakan jumlah uang dengan nilai nominal lebih dari Rp5.000.000,00 (lima juta rupiah)" names
the case a duty applies to; "dikenai Bea Meterai dengan tarif tetap sebesar Rp10.000,00" sets the duty.  A
stamp-duty probe of our own asking how many rupiah a contract costs was led by the first (it shares more of
the question's words).  A question asking the limit itself ("berapa batas ...") keeps the bound (session 49).
Acts and messages are our own.
"""

from __future__ import annotations

import datetime as dt

from bot.answer.extractive import ExtractiveComposer, sets_amount
from bot.answer.protocol import ComposeRequest
from kb.model import DocumentMeta, Hit
from kb.query import understand
from tests.answer.chunk_sample import sample_chunk

TODAY = dt.date(2026, 12, 5)
DOC = DocumentMeta(id="uu-99-2030", title="Undang-Undang Uji", number="UU 99/2030", type="UU")

SCOPE = (
    "Bea Meterai dikenakan atas surat perjanjian, akta, dan dokumen yang menyatakan jumlah uang dengan nilai "
    "nominal lebih dari Rp5.000.000,00 (lima juta rupiah)."
)
DUTY = (
    "Dokumen sebagaimana dimaksud dalam Pasal 3 dikenai Bea Meterai dengan tarif tetap sebesar Rp10.000,00."
)


def _lead(question: str) -> str:
    scope = sample_chunk(DOC.id, "pasal-3", SCOPE, location="Pasal 3", seq=3, kind="pasal", pasal="3")
    duty = sample_chunk(DOC.id, "pasal-5", DUTY, location="Pasal 5", seq=5, kind="pasal", pasal="5")
    hits = (Hit(scope, DOC, 0.9, ("bm25",)), Hit(duty, DOC, 0.8, ("bm25",)))
    request = ComposeRequest(question, "id", TODAY, understand(question), hits)
    return ExtractiveComposer().compose(request).claims[0].source_chunk_id


def test_a_bound_and_its_spelled_out_words_set_no_amount() -> None:
    assert not sets_amount(SCOPE)
    assert sets_amount(DUTY)


def test_how_many_rupiah_is_answered_by_the_amount_set() -> None:
    assert _lead("Dokumen itu kena bea meterai berapa rupiah?") == "uu-99-2030#pasal-5"


def test_a_question_asking_the_limit_keeps_the_bound() -> None:
    assert _lead("Berapa batas nilai nominal dokumen yang kena bea meterai?") == "uu-99-2030#pasal-3"
