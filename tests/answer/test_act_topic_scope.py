"""Terms of the income tax act asked by name alone are in scope, and a table of lengths is not read as one.

- "hubungan istimewa", "harta berwujud", "masa manfaat", "revaluasi aktiva", "nota retur" name topics of UU
  PPh and UU PPN but no tax type, so questions of our own naming only them were declined as outside
  Indonesian tax (kb/data/scope.yaml, session 51).
- A flattened table of lengths ("Kelompok 1 ... 4 tahun 8 tahun 16 tahun 20 tahun") does not say which row the
  question asks; the answer line had told "20 (dua puluh) tahun" (a bound in the next ayat) for group 1, whose
  length is 4 years.  It now quotes the rule.
- "berapa lama dokumen perpajakan wajib disimpan?" (session 52) was declined as out of scope: "perpajakan"
  (taxation) holds "pajak" inside a word.
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.answer.render import answer_line
from bot.answer.scope import classify
from tests.answer.test_user_reads import claim


@pytest.mark.parametrize(
    "question",
    [
        "hubungan istimewa itu apa aja kriterianya?",
        "harta berwujud kelompok 1 masa manfaatnya berapa tahun?",
        "revaluasi aktiva tetap kena apa?",
        "nota retur harus dibuat kapan?",
        "What counts as a related party?",
        # "perpajakan" holds "pajak" inside a word (session 52)
        "berapa lama dokumen perpajakan wajib disimpan?",
        # UU KUP's preliminary refund names no tax word (session 60)
        "Berapa lama jangka waktu pengembalian pendahuluan?",
    ],
)
def test_act_topics_named_alone_are_in_scope(question: str) -> None:
    assert classify(question, has_tax_signal=False).kind == "in_scope"


def test_a_question_naming_no_tax_topic_stays_out_of_scope() -> None:
    assert classify("resep nasi goreng yang enak apa?", has_tax_signal=False).kind == "out_of_scope"


def test_a_table_of_lengths_is_quoted_not_read_as_one_length(hashing_services: Any) -> None:
    table = claim(hashing_services, "uu-7-2021", "Kelompok 1 Kelompok 2", at="Pasal 11A ayat (2)")
    line = answer_line([table], "id", "harta tak berwujud kelompok 1 masa manfaatnya berapa tahun?")
    assert "jangka waktunya" not in line
    assert "4 tahun 8 tahun 16 tahun 20 tahun" in line


def test_a_single_length_is_still_the_period(hashing_services: Any) -> None:
    keep = claim(hashing_services, "pp-50-2022", "10 (sepuluh) tahun", at="Pasal 11")
    line = answer_line([keep], "id", "Berapa lama dokumen pembukuan wajib disimpan?")
    assert line == "Menurut PP 50/2022, jangka waktunya 10 (sepuluh) tahun di Indonesia [1]."
