"""A closing clause that revokes acts is no answer about what those acts were about (session 49).

"Pada saat Peraturan Menteri ini mulai berlaku: a. Peraturan Menteri Keuangan Nomor ... tentang Besarnya
Biaya Jabatan atau Biaya Pensiun ...; ... dicabut dan dinyatakan tidak berlaku." shares every word of a
question about the pension-cost deduction and states no rule on it; it led such a question, first in the
search.  It may lead only a question asking whether an act still holds.  Acts and messages are our own.
"""

from __future__ import annotations

import datetime as dt

from bot.answer.extractive import ExtractiveComposer, revocation_clause
from bot.answer.protocol import ComposeRequest
from kb.model import DocumentMeta, Hit
from kb.query import understand
from tests.answer.chunk_sample import sample_chunk

TODAY = dt.date(2026, 12, 5)
DOC = DocumentMeta(id="pmk-99-2030", title="Peraturan Menteri Uji", number="PMK 99/2030", type="PMK")

CLOSING = (
    "Pasal 30\nPada saat Peraturan Menteri ini mulai berlaku:\n"
    "a. Peraturan Menteri Keuangan Nomor 7/PMK.03/2001 tentang Besarnya Biaya Pensiun yang Dapat Dikurangkan "
    "dari Penghasilan Bruto Pegawai; dan\n"
    "b. Peraturan Menteri Keuangan Nomor 8/PMK.03/2001 tentang Tata Cara Pemotongan Pajak atas Gaji,\n"
    "dicabut dan dinyatakan tidak berlaku."
)
RULE = (
    "(3) Iuran pensiun yang dibayar sendiri oleh pegawai merupakan biaya pensiun yang dapat dikurangkan dari "
    "penghasilan bruto pegawai."
)


def _hits() -> tuple[Hit, ...]:
    closing = sample_chunk(DOC.id, "pasal-30", CLOSING, location="Pasal 30", seq=90, kind="pasal", pasal="30")
    rule = sample_chunk(
        DOC.id, "pasal-10/ayat-3", RULE, location="Pasal 10 ayat (3)", seq=20, parent_key="pasal-10",
        pasal="10", ayat="3",
    )  # fmt: skip
    # the closing clause ranks first, as it did from the search
    return (Hit(closing, DOC, 0.9, ("bm25",)), Hit(rule, DOC, 0.8, ("bm25",)))


def _lead(question: str) -> str:
    request = ComposeRequest(question, "id", TODAY, understand(question), _hits())
    return ExtractiveComposer().compose(request).claims[0].source_chunk_id


def test_a_question_about_the_deduction_is_led_by_the_rule_not_the_revoked_titles() -> None:
    assert _lead("Biaya pensiun pegawai boleh dikurangkan dari penghasilan bruto ga?") == (
        "pmk-99-2030#pasal-10/ayat-3"
    )


def test_a_question_whether_the_old_act_still_holds_may_be_led_by_the_closing_clause() -> None:
    closing, rule = _hits()
    assert revocation_clause(closing, "Biaya pensiun pegawai dihitung dengan aturan mana, berapa batasnya?")
    assert not revocation_clause(closing, "Apakah PMK 7/PMK.03/2001 tentang biaya pensiun masih berlaku?")
    assert not revocation_clause(closing, "Is the 2001 pension cost regulation still in force?")
    assert not revocation_clause(rule, "Biaya pensiun pegawai dihitung dengan aturan mana, berapa batasnya?")
