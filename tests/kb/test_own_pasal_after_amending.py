"""An act's own Pasal after an amending Pasal is its own, and a rate ayat is found through the ayat it names.

PMK 11/2025 Pasal 11 restates PMK 79/2024 Pasal 6; its own Pasal 12 to 21 (Pasal 14 to 20 amend five more
PMKs) were cut as parts of Pasal 11, so the used-car rate was cited "PMK 11/2025 Pasal 11" and PP 9/2021's own
Pasal 7 to 11 sat under its Pasal 6 (found in session 72).  A standalone heading numbered right after an
amending Pasal that no amendment item announces starts the act's next Pasal, in the act's body as inside an
annexed act (``RegulationChunker._own_next_pasal``).  Read Pasal by Pasal, the restated used-car Pasal (1,232
characters) is cut by ayat, and its ayat (5) ("Besaran tertentu sebagaimana dimaksud pada ayat (2) ditetapkan
sebesar: ... 1,1% ... dari Harga Jual") names no used car: the retriever brings in a rule stating the asked
figure that refers to any ayat of the best rule's Pasal among the results, not only to the best rule itself
(``kb.retrieve.Retriever._with_referrer``).
"""

from __future__ import annotations

from typing import Any

from tests.answer.chunk_sample import anonymous_answer
from tests.kb.corpus_acts import chunks


def _by_key(doc_id: str) -> dict[str, str]:
    return {c.key: c.text for c in chunks(doc_id)}


def test_pmk_11_2025_own_pasal_after_its_amending_pasal_11() -> None:
    keys = _by_key("pmk-11-2025")
    assert not any("kendaraan bermotor bekas" in t for k, t in keys.items() if k.startswith("pasal-11"))
    assert keys["pasal-12"].startswith("Pasal 12\nContoh penghitungan Pajak Pertambahan Nilai")
    used_car = keys["pasal-16/pasal-2/ayat-5"]
    assert "1,1% (satu koma satu persen) dari Harga Jual" in used_car
    locations = {c.key: c.location for c in chunks("pmk-11-2025")}
    assert locations["pasal-16/pasal-2/ayat-5"] == "Pasal 2 ayat (5) PMK 65/2022 (Pasal 16 PMK 11/2025)"
    assert locations["pasal-17/pasal-3/huruf-b"] == "Pasal 3 huruf b PMK 71/2022 (Pasal 17 PMK 11/2025)"


def test_pp_9_2021_own_pasal_after_its_amending_pasal_6() -> None:
    keys = _by_key("pp-9-2021")
    # the transitional rule for bond interest was "Pasal 7 PP 74/2011 (Pasal 6 angka 18 PP 9/2021)"
    assert "Bunga Obligasi" in keys["pasal-7"]
    assert not any(k.startswith("pasal-6/angka-18/pasal-7") for k in keys)
    assert keys["pasal-11"] == "Pasal 11\nPeraturan Pemerintah ini mulai berlaku pada tanggal diundangkan."


def test_used_car_vat_is_answered_with_its_rate_ayat(services: Any) -> None:
    answer = anonymous_answer(services, "ppn atas penjualan mobil bekas berapa?")
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert lead.source.doc_id == "pmk-11-2025"
    assert lead.source.location == "Pasal 2 ayat (5) PMK 65/2022 (Pasal 16 PMK 11/2025)"
    assert "1,1%" in lead.quote
