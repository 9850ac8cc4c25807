"""A rate asked for an income object with its own rule is stated for that object, or not at all (session 39).

The final tax on renting land or buildings and on construction services is set by their own regulations
(PPh Pasal 4 ayat (2)), which the sample knowledge base does not hold.  Asked the rate of the final tax on
renting out land, dasar answered with the 2,5% of PP 34/2016 -- the rate for *transferring* land and
buildings -- and asked about construction it quoted PMK 37/2025's list that only names the object.  Now,
when the leading quote states no rate for the object the question names, the answer says that no source
states that rate and offers a ticket (``bot.answer.extractive.unstated_object_rate``).  Messages are our own.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from bot.answer.pipeline import answer_question

TODAY = dt.date(2026, 12, 4)


def test_only_a_quote_stating_a_rate_for_the_object_answers_it() -> None:
    from bot.answer.extractive import unstated_object_rate

    asked = "Tarif PPh final persewaan tanah kosong kami berapa persen?"
    transfer = (
        "a. 2,5% (dua koma lima persen) dari jumlah bruto nilai pengalihan hak atas tanah dan/atau bangunan"
    )
    listed = (
        "a. Pajak Penghasilan ... atas persewaan tanah dan/atau bangunan, usaha jasa konstruksi, atau ..."
    )
    stated = (
        "Pajak Penghasilan atas penghasilan dari persewaan tanah dan/atau bangunan sebesar 10% dari bruto"
    )
    excluded = (
        "2% dari bruto atas sewa dan penghasilan lain sehubungan dengan penggunaan harta, kecuali sewa tanah"
    )
    assert unstated_object_rate(asked, transfer) == "land_building_rent"
    assert unstated_object_rate(asked, listed) == "land_building_rent"  # names the object, states no rate
    assert unstated_object_rate(asked, excluded) == "land_building_rent"  # the object only as an exception
    assert unstated_object_rate(asked, stated) is None
    # no rate asked, or no such object named: nothing to check
    assert unstated_object_rate("Siapa yang memotong PPh atas sewa gedung?", transfer) is None
    assert unstated_object_rate("Berapa tarif PPh atas pengalihan hak atas tanah?", transfer) is None
    building = (
        "pekerjaan konstruksi oleh penyedia jasa bersertifikat kecil dikenai tarif 1,75% (satu koma tujuh"
    )
    assert unstated_object_rate("Tarif PPh final jasa konstruksi berapa persen?", listed) == "construction"
    assert unstated_object_rate("Tarif PPh final jasa konstruksi berapa persen?", building) is None


def test_the_pph_23_list_naming_construction_is_not_its_final_rate() -> None:
    # UU PPh Pasal 23 ayat (1) huruf c lists "jasa konstruksi" beside its 2% withholding, which is credited
    # against the year's tax: a question asking the *final* tax on construction is not answered by it
    from bot.answer.extractive import unstated_object_rate

    pph23 = "c. sebesar 2% (dua persen) dari jumlah bruto atas: ... jasa teknik, jasa konstruksi, jasa lain"
    restated = "Pasal 23 ayat (1) UU 7/1983 (Pasal I angka 18 UU 36/2008) UU 36/2008"
    final = "Tarif PPh final jasa konstruksi untuk kontraktor kecil berapa persen?"
    assert unstated_object_rate(final, pph23, restated) == "construction"
    assert unstated_object_rate(final, pph23, "Pasal 23 ayat (1) UU 7/1983") == "construction"
    # the same list answers a question that does not ask for a final tax, and another act's Pasal 23 is not
    # UU PPh's
    assert unstated_object_rate("PPh 23 jasa konstruksi berapa persen?", pph23, restated) is None
    assert unstated_object_rate(final, pph23, "Pasal 23 ayat (1) PP 99/2099") is None


def test_the_rent_rate_is_not_answered_with_the_transfer_rate(services: Any) -> None:
    answer = answer_question(
        "Kami menyewakan sebidang tanah kosong kepada koperasi. "
        "Tarif PPh final persewaan tanahnya berapa persen?",
        services.cli_principal(None),
        services,
        as_of=TODAY,
    )
    assert answer.status == "abstained"
    assert answer.claims == ()
    assert "2,5%" not in answer.answer
    assert "tarif untuk sewa tanah dan/atau bangunan" in answer.answer
    assert answer.escalation is not None and answer.escalation.offered


def test_a_list_naming_construction_is_not_its_rate(services: Any) -> None:
    answer = answer_question(
        "Kontraktor jembatan kami berkualifikasi kecil. "
        "Tarif PPh final atas jasa konstruksinya berapa persen?",
        services.cli_principal(None),
        services,
        as_of=TODAY,
    )
    assert answer.status == "abstained"
    assert "tarif untuk jasa konstruksi" in answer.answer


def test_the_transfer_rate_still_answers_a_transfer_question(services: Any) -> None:
    answer = answer_question(
        "Berapa tarif PPh atas pengalihan hak atas tanah dan/atau bangunan?",
        services.cli_principal(None),
        services,
        as_of=TODAY,
    )
    assert answer.status == "answered"
    assert answer.claims[0].source.doc_id == "pp-34-2016"
    assert "2,5%" in answer.claims[0].quote
