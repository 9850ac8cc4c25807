"""A line quoting the consequence of a condition keeps the condition: "Dalam hal wanita kawin ... telah
memiliki Nomor Pokok Wajib Pajak sebelum kawin, wanita kawin tersebut tidak perlu mendaftarkan diri ..." was
read as "… wanita kawin tersebut tidak perlu mendaftarkan diri ...", the exception stated as the rule
(session 57, a probe of our own)."""

from __future__ import annotations

from bot.answer.render import answer_line
from tests.answer.multipart_sample import claim

QUOTE = (
    "(5) Dalam hal wanita kawin yang dikenai pajak secara terpisah sebagaimana dimaksud pada ayat (4) "
    "telah memiliki Nomor Pokok Wajib Pajak sebelum kawin, wanita kawin tersebut tidak perlu mendaftarkan "
    "diri untuk memperoleh Nomor Pokok Wajib Pajak."
)


def test_the_condition_stays_with_its_consequence() -> None:
    married = claim(QUOTE, "Pasal 2 ayat (5)", "pp-50-2022:p2-5")
    line = answer_line([married], "id", "Apakah wanita kawin perlu mendaftarkan diri untuk memperoleh NPWP?")
    assert "Dalam hal wanita kawin" in line
    assert "sebelum kawin, wanita kawin tersebut tidak perlu mendaftarkan diri" in line


def test_a_sentence_without_a_condition_reads_as_before() -> None:
    rule = claim(
        "(1) Setiap Wajib Pajak yang telah memenuhi persyaratan subjektif dan objektif wajib mendaftarkan "
        "diri pada kantor Direktorat Jenderal Pajak.",
        "Pasal 2 ayat (1)",
        "pp-50-2022:p2-1",
    )
    line = answer_line([rule], "id", "Siapa yang wajib mendaftarkan diri?")
    assert "Dalam hal" not in line
    assert "wajib mendaftarkan diri" in line
