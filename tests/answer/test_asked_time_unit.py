"""A time limit in another unit than the one asked does not state the asked fact (session 49).

"Berapa hari ...?" is not answered by "10 (sepuluh) tahun", nor "how many years ...?" by "1 (satu) bulan": a
bookkeeping rule led a probe of our own about the days of presence that make a resident because it stated a
time limit and an obligation word.  A date-based limit ("tanggal 15 bulan berikutnya") answers any unit.
Acts and messages are our own.
"""

from __future__ import annotations

import datetime as dt

from bot.answer.extractive import ExtractiveComposer, asked_unit, other_unit_only
from bot.answer.protocol import ComposeRequest
from kb.model import DocumentMeta, Hit
from kb.query import understand
from tests.answer.chunk_sample import sample_chunk

TODAY = dt.date(2026, 12, 5)
DOC = DocumentMeta(id="uu-99-2030", title="Undang-Undang Uji", number="UU 99/2030", type="UU")

KEEPING = (
    "(11) Dokumen pembukuan Wajib Pajak dalam negeri wajib disimpan selama 10 (sepuluh) tahun di Indonesia, "
    "di tempat tinggal Wajib Pajak."
)
PRESENCE = (
    "(3) Orang pribadi yang berada di Indonesia lebih dari 183 (seratus delapan puluh tiga) hari dalam "
    "jangka waktu 12 (dua belas) bulan merupakan subjek pajak dalam negeri."
)


def test_the_unit_a_question_counts_in() -> None:
    assert asked_unit("Berapa hari seseorang harus tinggal di sini?") == "hari"
    assert asked_unit("How many years may the office look back?") == "tahun"
    assert asked_unit("Kapan batas setornya?") is None


def test_a_limit_in_another_unit_only_is_not_the_answer() -> None:
    assert other_unit_only("hari", KEEPING)
    assert not other_unit_only("hari", PRESENCE)
    assert not other_unit_only(
        "tahun", "disetor paling lambat tanggal 15 bulan berikutnya, atau 2 (dua) bulan"
    )
    assert not other_unit_only(None, KEEPING)


def test_a_days_question_is_led_by_the_rule_counting_days() -> None:
    keeping = sample_chunk(DOC.id, "pasal-28/ayat-11", KEEPING, location="Pasal 28 ayat (11)", seq=50)
    presence = sample_chunk(DOC.id, "pasal-2/ayat-3", PRESENCE, location="Pasal 2 ayat (3)", seq=5)
    hits = (Hit(keeping, DOC, 0.9, ("bm25",)), Hit(presence, DOC, 0.8, ("bm25",)))
    question = "Berapa hari tinggal di Indonesia sampai wajib pajak dianggap dalam negeri?"
    request = ComposeRequest(question, "id", TODAY, understand(question), hits)
    assert ExtractiveComposer().compose(request).claims[0].source_chunk_id == "uu-99-2030#pasal-2/ayat-3"
