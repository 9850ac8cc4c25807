"""A passage that only hands a matter to a lower regulation is a delegation in each of the acts' wordings.

"Ketentuan lebih lanjut mengenai ..." was the only wording known; "Tata cara ... diatur dengan atau
berdasarkan Peraturan Menteri Keuangan", "Pelaksanaan ketentuan ... diatur dengan Keputusan Menteri" and
"Perubahan besarnya ... sanksi administrasi ... diatur dengan Peraturan Pemerintah" state no rule either, and
the last led a sanction question of the real set (session 51).  A rule that names its regulation beside what
it states is no delegation.  Acts and messages are our own.
"""

from __future__ import annotations

import pytest

from bot.answer.extractive import delegates
from kb.model import DocumentMeta, Hit
from tests.answer.chunk_sample import lead_chunk_id, sample_chunk

DOC = DocumentMeta(id="uu-99-2030", title="Undang-Undang Uji", number="UU 99/2030", type="UU")
QUESTION = "kalau telat setor pajak uji ada sanksinya?"


def _hit(text: str, key: str = "pasal-37", seq: int = 90) -> Hit:
    chunk = sample_chunk(DOC.id, key, text, location=key.replace("-", " ").title(), seq=seq, kind="pasal")
    return Hit(chunk, DOC, 0.9, ("bm25",))


@pytest.mark.parametrize(
    "text",
    [
        "Pasal 37\nPerubahan besarnya sanksi administrasi berupa bunga dan denda atas pajak uji "
        "diatur dengan Peraturan Pemerintah.",
        "(6) Tata cara penerbitan surat tagihan pajak uji diatur dengan atau berdasarkan Peraturan Menteri "
        "Keuangan.",
        "(3) Pelaksanaan ketentuan sebagaimana dimaksud pada ayat (2) diatur dengan Keputusan Menteri "
        "Keuangan.",
        "(5) Ketentuan mengenai tata cara pemungutan pajak uji diatur dalam Peraturan Menteri.",
    ],
)
def test_each_wording_is_a_delegation(text: str) -> None:
    assert delegates(_hit(text), QUESTION)
    assert not delegates(_hit(text), "sanksi pajak uji diatur dalam peraturan apa?")


def test_a_rule_naming_its_regulation_is_no_delegation() -> None:
    rule = "(2) Besarnya sanksi bunga atas pajak uji adalah 2% per bulan sebagaimana diatur dalam Pasal 9."
    assert not delegates(_hit(rule), QUESTION)


def test_the_sanction_rule_leads_over_the_delegation() -> None:
    delegation = _hit(
        "Pasal 37\nPerubahan besarnya sanksi administrasi berupa bunga atas pajak uji yang telat disetor "
        "diatur dengan Peraturan Pemerintah."
    )
    rule = _hit(
        "(2a) Penyetoran pajak uji yang telat disetor dikenai sanksi administrasi berupa bunga.",
        key="pasal-9",
        seq=20,
    )
    assert lead_chunk_id(QUESTION, [delegation, Hit(rule.chunk, DOC, 0.8, ("bm25",))]) == rule.chunk.id
