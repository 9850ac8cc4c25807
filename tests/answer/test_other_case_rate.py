"""An ayat that lists rates for several kinds of income is quoted for the asker's kind only.  Beside the
item that answers, another item's rate ("15% ... bunga pinjaman" for a question about a surveyor's fee) is
neither a condition nor an exception: it is another case's rate, and a reader skimming the answer takes it for
theirs.  A sentence that states the rate of the sentence before it ("Tarif ... sebagaimana dimaksud pada ayat
(1) sebesar ...") is kept."""

from __future__ import annotations

import datetime as dt

from bot.answer.extractive import ExtractiveComposer
from bot.answer.protocol import ComposeRequest
from kb.model import DocumentMeta, Hit
from kb.query import understand
from tests.answer.chunk_sample import sample_chunk

TODAY = dt.date(2026, 12, 2)
DOC = DocumentMeta(id="uu-99-2030", title="Undang-Undang Uji", number="UU 99/2030", type="UU")
RATES = (
    "(1) Atas penghasilan berikut yang dibayarkan kepada Wajib Pajak dalam negeri dipotong pajak oleh pihak "
    "yang wajib membayarkan:\n"
    "a. sebesar 15% (lima belas persen) dari jumlah bruto atas bunga pinjaman dan royalti;\n"
    "b. sebesar 2% (dua persen) dari jumlah bruto atas imbalan jasa survei dan jasa penilai."
)


def _quotes(question: str) -> list[str]:
    chunk = sample_chunk(
        DOC.id, "pasal-7/ayat-1", RATES, location="Pasal 7 ayat (1)", seq=1, pasal="7", ayat="1"
    )
    request = ComposeRequest(question, "id", TODAY, understand(question), (Hit(chunk, DOC, 0.9, ("bm25",)),))
    return [c.quote for c in ExtractiveComposer().compose(request).claims]


def test_only_the_item_of_the_asked_kind_is_quoted() -> None:
    quotes = _quotes("Berapa persen pajak dipotong dari fee jasa survei lapangan?")
    assert quotes and quotes[0].startswith("b. sebesar 2%")
    assert not any("15%" in q for q in quotes)


def test_an_item_the_question_names_is_still_quoted_beside_the_lead() -> None:
    quotes = _quotes("Tarif potongan atas jasa survei dan atas royalti berapa?")
    assert any(q.startswith("b. sebesar 2%") for q in quotes)
    assert any(q.startswith("a. sebesar 15%") for q in quotes)


def test_a_sentence_stating_the_rate_of_the_one_before_it_is_kept() -> None:
    text = (
        "Atas penghasilan dari usaha penjual keliling dikenai pajak yang bersifat final. Tarif pajak "
        "sebagaimana dimaksud pada kalimat sebelumnya sebesar 1% (satu persen)."
    )
    chunk = sample_chunk(DOC.id, "pasal-8", text, location="Pasal 8", seq=2, pasal="8")
    question = "Tarif pajak final penjual keliling berapa?"
    request = ComposeRequest(question, "id", TODAY, understand(question), (Hit(chunk, DOC, 0.9, ("bm25",)),))
    quotes = [c.quote for c in ExtractiveComposer().compose(request).claims]
    assert any("1% (satu persen)" in q for q in quotes)


def test_a_surcharge_item_is_a_condition_not_another_case() -> None:
    text = (
        "(1) Atas imbalan jasa survei dipotong pajak:\n"
        "a. sebesar 2% (dua persen) dari jumlah bruto atas imbalan jasa survei;\n"
        "b. dalam hal penerima tidak memiliki Nomor Pokok Wajib Pajak, tarifnya 100% (seratus persen) lebih "
        "tinggi daripada tarif pada huruf a."
    )
    chunk = sample_chunk(
        DOC.id, "pasal-9/ayat-1", text, location="Pasal 9 ayat (1)", seq=3, pasal="9", ayat="1"
    )
    question = "Berapa persen pajak dipotong dari fee jasa survei?"
    request = ComposeRequest(question, "id", TODAY, understand(question), (Hit(chunk, DOC, 0.9, ("bm25",)),))
    quotes = [c.quote for c in ExtractiveComposer().compose(request).claims]
    assert quotes[0].startswith("a. sebesar 2%")
    assert any("lebih tinggi" in q for q in quotes)
