"""A part's lead that states the fact the part asks stays the lead, though another claim shares more of the
part's words.  Session 59: a part asking which PPh 22 rate customs collects on an import was led by PMK
51/2025 Pasal 3 ayat (2), the definition of the import value ("bea masuk ... kepabeanan" shares "customs"
and "import"), ahead of the item stating "sebesar 2,5% ... dari nilai impor"; the answer line still gave the
rate, but from a second claim.  The quotes are PMK 51/2025's; the question is our own."""

from __future__ import annotations

import datetime as dt
from typing import Any

from bot.answer.model import ShownClaim, SourceRef
from bot.answer.parts import unaddressed
from bot.answer.pipeline import known_acts
from tests.answer.multipart_sample import part_answer

RATE_ITEM = (
    "e) barang selain barang sebagaimana dimaksud dalam huruf a), huruf b), huruf c), dan huruf d) yang "
    "menggunakan angka pengenal impor, sebesar 2,5% (dua koma lima persen) dari nilai impor;"
)
IMPORT_VALUE = (
    "(2) Nilai impor sebagaimana dimaksud pada ayat (1) huruf a angka 1 merupakan nilai berupa uang yang "
    "menjadi dasar penghitungan bea masuk yaitu cost insurance and freight ditambah dengan bea masuk dan "
    "pungutan lainnya yang dikenakan berdasarkan ketentuan peraturan perundang-undangan di bidang kepabeanan."
)


def _claim(quote: str, location: str, chunk: str) -> ShownClaim:
    source = SourceRef(
        "pmk-51-2025", "PMK 51/2025", "Pemungutan PPh Pasal 22", location, dt.date(2025, 8, 1), None,
        "in_force", None, False, chunk,
    )  # fmt: skip
    return ShownClaim(quote, quote, "regulation", False, "entailed", source)


def test_the_claim_stating_the_asked_rate_keeps_the_lead(services: Any) -> None:
    rate = _claim(RATE_ITEM, "Pasal 3 ayat (1) huruf a", "pmk-51-2025#pasal-3/ayat-1/huruf-a")
    value = _claim(IMPORT_VALUE, "Pasal 3 ayat (2)", "pmk-51-2025#pasal-3/ayat-2")
    answer = part_answer(
        "answered", "Under PMK 51/2025, the rate is 2,5% (dari nilai impor) [1].", (rate, value)
    )
    own = "Which PPh 22 rate do customs officers collect on our imports?"
    got = unaddressed(own, own, answer, services.aliases, known_acts(services), "en")
    assert got.status == "answered"
    assert got.claims[0] is rate
    assert "2,5%" in got.answer and "[1]" in got.answer
