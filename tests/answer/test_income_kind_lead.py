"""The rule naming the income asked about leads (session 49).

A rate for work and services paid abroad and a rate list naming dividends can both state 20% for a payee
abroad; a question about dividends is answered by the one naming dividends, not the first in the search
(a probe of our own was led by a PPh 26 rule on employment income).  Acts and messages are our own.
"""

from __future__ import annotations

import datetime as dt

from bot.answer.extractive import ExtractiveComposer, question_objects
from bot.answer.protocol import ComposeRequest
from kb.model import DocumentMeta, Hit
from kb.query import understand
from tests.answer.chunk_sample import sample_chunk

TODAY = dt.date(2026, 12, 5)
DOC = DocumentMeta(id="pmk-99-2030", title="Peraturan Menteri Uji", number="PMK 99/2030", type="PMK")

WORK = (
    "(1) Tarif pemotongan pajak atas imbalan pekerjaan dan jasa yang dibayarkan kepada Wajib Pajak "
    "luar negeri sebesar 20% (dua puluh persen) dari jumlah bruto."
)
INCOME_LIST = (
    "(2) Atas penghasilan berupa dividen dan royalti yang dibayarkan kepada Wajib Pajak luar negeri dipotong "
    "pajak sebesar 20% (dua puluh persen) dari jumlah bruto."
)


def _lead(question: str) -> str:
    work = sample_chunk(
        DOC.id, "pasal-4/ayat-1", WORK, location="Pasal 4 ayat (1)", seq=10, pasal="4", ayat="1"
    )
    income = sample_chunk(
        DOC.id, "pasal-9/ayat-2", INCOME_LIST, location="Pasal 9 ayat (2)", seq=30, pasal="9", ayat="2"
    )
    hits = (Hit(work, DOC, 0.9, ("bm25",)), Hit(income, DOC, 0.8, ("bm25",)))
    request = ComposeRequest(question, "en", TODAY, understand(question), hits)
    return ExtractiveComposer().compose(request).claims[0].source_chunk_id


def test_a_dividend_question_is_led_by_the_rule_naming_dividends() -> None:
    assert question_objects("What rate applies to dividends paid to a foreign shareholder?")[0] == "dividend"
    assert (
        _lead("What rate applies to dividends paid to a foreign shareholder?") == "pmk-99-2030#pasal-9/ayat-2"
    )
    assert _lead("Tarif royalti yang dibayar ke luar negeri berapa?") == "pmk-99-2030#pasal-9/ayat-2"


def test_a_question_about_services_abroad_keeps_the_services_rule() -> None:
    assert (
        _lead("What rate applies to services paid to a foreign consultant?") == "pmk-99-2030#pasal-4/ayat-1"
    )
