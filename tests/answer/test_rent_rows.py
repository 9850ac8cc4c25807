"""A rent question is about the row for renting land and buildings, not the row for renting everything
else: "Sewa harta selain tanah/bangunan (kendaraan, ...)" mentions land only to exclude it, and "PPh 4 ayat 2"
written out in a question is PPh 4(2).  An outside tester asked about renting a warehouse and got the 2%
vehicle row."""

from __future__ import annotations

from bot.answer.conflicts import mentioned_taxes
from bot.answer.extractive import object_match

OTHER_ASSETS = (
    "| Sewa harta selain tanah/bangunan (kendaraan, alat berat, forklift) | PPh 23 | 2% | dari bruto |"
)
LAND_AND_BUILDINGS = "| Sewa tanah dan/atau bangunan (kantor, gudang) | PPh 4(2) | 10% | final |"


def test_an_object_named_only_after_selain_inside_the_match_is_an_exclusion() -> None:
    objects = ("land_building_rent",)
    assert object_match(objects, LAND_AND_BUILDINGS) == 1.0
    assert object_match(objects, OTHER_ASSETS) == -1.0


def test_pph_4_ayat_2_written_out_is_pph_4_2() -> None:
    assert mentioned_taxes("potong PPh 4 ayat 2 atau PPh 23?") == ["PPh 4(2)", "PPh 23"]
    assert mentioned_taxes("PPh Pasal 4 ayat (2) bersifat final") == ["PPh 4(2)"]
    assert mentioned_taxes("PPh 21 dan PPh 26") == ["PPh 21", "PPh 26"]
