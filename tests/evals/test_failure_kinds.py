"""``bench/failure_kinds.py`` tells a lead citing the gold Pasal in a later act's wording (right in any
version) from a lead citing another document: session 59 found the top failure kind's real-set example was
such a row."""

from __future__ import annotations

from typing import Any

from tests.support.scripts import load_script

fk = load_script("bench/failure_kinds.py")


def _row(**over: Any) -> dict[str, Any]:
    row: dict[str, Any] = {
        "expected": ["answered"],
        "status": "answered",
        "reason": None,
        "correct_usable": False,
        "correct_usable_any_version": False,
        "gold_cited": False,
        "lead": "uu-6-2023 Pasal 26 ayat (1) UU 7/1983 (Pasal 111 angka 2 UU 6/2023)",
    }
    row.update(over)
    return row


def test_a_lead_right_in_another_acts_wording_is_its_own_kind() -> None:
    gold = {"uu-36-2008"}
    assert fk.kind(_row(correct_usable_any_version=True), gold) == (
        "lead cites the gold provision in another act's wording"
    )
    assert fk.kind(_row(), gold) == "lead cites another document (no gold provision shown)"
    assert fk.kind(_row(correct_usable=True, correct_usable_any_version=True), gold) is None
