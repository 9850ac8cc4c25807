"""The ayat an elucidation among the first hits explains joins the results when search missed it.

Session 74, a probe of our own: "Berapa lama jangka waktu pengajuan keberatan?" found the elucidation of UU
KUP Pasal 25 ayat (3) as restated by UU 7/2021 fourth ("Batas waktu pengajuan surat keberatan ditentukan
dalam waktu 3 (tiga) bulan ...") and the ayat itself ("Keberatan harus diajukan dalam jangka waktu 3 (tiga)
bulan ...") seventeenth, so the answer quoted the elucidation, which is valid only with its ayat's wording.
``kb.retrieve.Retriever._with_elucidated_rule`` reads the ayat from the elucidation's key; the composer then
leads with the ayat (a Pasal leads its own elucidation in a near tie).
"""

from __future__ import annotations

from typing import Any

from kb.model import Chunk
from kb.retrieve import elucidated_ids
from tests.answer.chunk_sample import anonymous_answer, sample_chunk


def _elucidation(doc_id: str, key: str) -> Chunk:
    return sample_chunk(doc_id, key, "Ayat (3) Cukup jelas.", location="x", seq=1, kind="penjelasan")


def test_an_elucidation_names_the_ids_of_the_passage_it_explains() -> None:
    assert elucidated_ids(_elucidation("uu-7-2021", "penjelasan/pasal-2/angka-6/pasal-25/ayat-3")) == [
        "uu-7-2021#pasal-2/angka-6/pasal-25/ayat-3",
        "uu-7-2021#lampiran/pasal-2/angka-6/pasal-25/ayat-3",  # an omnibus act restates in its annex
        "uu-7-2021#pasal-2/angka-6/pasal-25",  # a short Pasal is one passage
        "uu-7-2021#lampiran/pasal-2/angka-6/pasal-25",
    ]
    # an elucidation cut into parts explains its ayat as a whole
    assert (
        elucidated_ids(_elucidation("uu-x", "penjelasan/pasal-26/ayat-6/part-2"))[0] == "uu-x#pasal-26/ayat-6"
    )
    # a general elucidation explains no Pasal
    assert elucidated_ids(_elucidation("uu-x", "penjelasan/umum/part-1")) == []


def test_the_objection_period_is_answered_with_the_ayat_not_its_elucidation(services: Any) -> None:
    answer = anonymous_answer(services, "Berapa lama jangka waktu pengajuan keberatan?")
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert lead.source.doc_id == "uu-7-2021"
    assert lead.source.location == "Pasal 25 ayat (3) UU 6/1983 (Pasal 2 angka 6 UU 7/2021)"
    assert lead.quote.startswith("(3) Keberatan harus diajukan dalam jangka waktu 3 (tiga) bulan")
