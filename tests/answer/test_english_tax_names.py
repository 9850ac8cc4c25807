"""An English question names PPN as "VAT" or "value added tax": the composer's asked taxes (which make a
passage on another tax "other_tax") read it so.  Before session 58 "What is the VAT on imported goods?" named
no tax."""

from __future__ import annotations

from bot.answer.conflicts import mentioned_taxes
from bot.answer.extractive import asked_tax_names


def test_vat_is_ppn() -> None:
    assert asked_tax_names("What is the VAT on imported goods?") == frozenset({"PPN"})
    assert mentioned_taxes("Is value-added tax due on exported services?") == ["PPN"]
    assert mentioned_taxes("Value added tax and PPh 23 on the same invoice") == ["PPN", "PPh 23"]
    # a word that merely starts with the letters names nothing
    assert mentioned_taxes("VATable supplies") == []
