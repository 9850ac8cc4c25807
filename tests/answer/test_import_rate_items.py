"""The import-rate item that fits the importer (session 56, probes of our own).

PMK 51/2025 Pasal 3 ayat (1) huruf a lists PPh 22 import rates as items "a)" to "g)" under "1. impor:".
Three things made "Berapa tarif PPh Pasal 22 atas impor barang oleh importir yang punya API?" answer 10%
(the rate of the goods listed in its annex) and, once that was mended, 0,5% (soybeans): the "a)" items were
one quotable unit; the residual item "barang selain barang sebagaimana dimaksud dalam huruf a), ..., dan
huruf d) yang menggunakan angka pengenal impor, sebesar 2,5%" lost its own condition to the exclusion it
opens with; and an item holding "dengan atau tanpa menggunakan angka pengenal impor", or one about
soybeans, covered the question as well as the item for an importer with an API.  Passages are the act's own
wording.
"""

from __future__ import annotations

from typing import Any

from bot.answer.extractive import affirmed_text, question_objects, split_units, unasked_specifics
from tests.answer.chunk_sample import anonymous_answer

IMPORT_ITEMS = """a. untuk pemungutan yang dilakukan oleh Direktorat
Jenderal Bea dan Cukai atas:
1. impor:
a) barang tertentu sebesar 10% (sepuluh persen) dari
nilai impor dengan atau tanpa menggunakan
angka pengenal impor;
 b) barang tertentu lainnya sebesar 7,5% (tujuh koma
lima persen) dari nilai impor dengan atau tanpa
menggunakan angka pengenal impor;
c) barang be rupa kedelai, gandum, dan tepung terigu
sebesar 0,5% (nol koma lima persen) dari nilai
impor dengan menggunakan angka pengenal
impor;
e) barang selain barang sebagaimana dimaksud
dalam huruf a), huruf b), huruf c), dan huruf d)
yang menggunakan angka pengenal impor, sebesar
2,5% (dua koma lima persen) dari nilai impor;"""
RESIDUAL = (
    "e) barang selain barang sebagaimana dimaksud dalam huruf a), huruf b), huruf c), dan huruf d) yang "
    "menggunakan angka pengenal impor, sebesar 2,5% (dua koma lima persen) dari nilai impor;"
)


def test_parenthesised_letters_are_items_of_their_own() -> None:
    quotes = [u.quote for u in split_units(IMPORT_ITEMS)]
    assert any(q.startswith("a) barang tertentu sebesar 10%") and "7,5%" not in q for q in quotes)
    assert any(q.startswith("c) barang be rupa kedelai") for q in quotes)
    assert RESIDUAL in quotes


def test_an_exclusion_by_reference_ends_with_the_reference() -> None:
    kept = affirmed_text("tarif impor?", RESIDUAL)
    assert "yang menggunakan angka pengenal impor" in kept  # the item's own condition stays
    assert "huruf a)" not in kept  # the excluded items go
    # an exclusion without a reference still runs to the end of the clause
    assert "berpendingin" not in affirmed_text("sewa gudang?", "sewa gudang selain gudang berpendingin; 2%")


def test_a_condition_held_either_way_covers_nothing() -> None:
    either = (
        "a) barang tertentu sebesar 10% (sepuluh persen) dari nilai impor dengan atau tanpa menggunakan angka"
    )
    assert "pengenal" not in affirmed_text("impor dengan API?", either + " pengenal impor;")


def test_an_item_about_goods_the_question_does_not_name() -> None:
    soy = "c) barang be rupa kedelai, gandum, dan tepung terigu sebesar 0,5% (nol koma lima persen)"
    assert unasked_specifics("tarif PPh 22 impor barang umum?", soy)
    assert not unasked_specifics("tarif PPh 22 impor kedelai?", soy)
    assert not unasked_specifics("tarif PPh 22 impor barang umum?", RESIDUAL)


def test_an_importer_with_an_api_is_answered_by_its_item(services: Any) -> None:
    answer = anonymous_answer(
        services, "Berapa tarif PPh Pasal 22 atas impor barang oleh importir yang punya API?"
    )
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert (lead.source.doc_id, lead.source.location) == ("pmk-51-2025", "Pasal 3 ayat (1) huruf a")
    assert lead.quote.startswith("e) barang selain barang")
    assert "2,5%" in lead.quote and "2,5%" in answer.answer


def test_soybeans_keep_their_own_rate(services: Any) -> None:
    answer = anonymous_answer(services, "Berapa tarif PPh 22 impor kedelai?")
    assert answer.status == "answered"
    assert answer.claims[0].quote.startswith("c) barang be rupa kedelai")
    assert "0,5%" in answer.answer


def test_an_importer_without_an_api_is_named_as_such() -> None:
    for question in (
        "PPh 22 impor kalau ga punya API berapa?",
        "What is the PPh 22 rate on imports without an API?",
    ):
        assert "no_api" in question_objects(question), question
    assert "no_api" not in question_objects("Berapa tarif PPh 22 impor bagi importir yang punya API?")


def test_an_importer_without_an_api_is_answered_by_its_item(services: Any) -> None:
    answer = anonymous_answer(services, "Berapa PPh 22 impor kalau tidak punya API?")
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert lead.quote.startswith("f) barang") and "tidak menggunakan angka pengenal impor" in lead.quote
    assert "7,5%" in answer.answer and "2,5%" not in answer.answer.split("[1]")[0]
