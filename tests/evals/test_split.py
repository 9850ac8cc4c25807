"""The tune / check split of our own eval sets is a pure function of the id (near-duplicates follow)."""

from __future__ import annotations

import pytest

from bot.evals.split import id_side, keep, sides


def test_side_is_a_stable_function_of_the_id() -> None:
    ids = [f"x{i:03d}" for i in range(200)]
    first = [id_side(i) for i in ids]
    assert first == [id_side(i) for i in ids]
    assert 70 < first.count("tune") < 130  # a hash split, not everything on one side
    assert [id_side(f"x{i:03d}") for i in range(4)] == ["tune", "tune", "check", "check"]


def test_near_duplicate_questions_take_the_anchor_side() -> None:
    anchors = [("x002", "Berapa lama batas waktu lapor SPT Masa pajak pertambahan nilai?")]
    out = sides(
        [
            ("x000", "Berapa lama batas waktu lapor SPT Masa pajak pertambahan nilai"),
            ("x005", "Siapa yang wajib memungut bea meterai atas dokumen lelang?"),
        ],
        anchors,
    )
    assert out == {"x000": "check", "x005": "check"}  # x000 alone would be "tune"
    assert id_side("x000") == "tune"


def test_keep_rejects_an_unknown_split() -> None:
    assert keep("tune", "all") and keep("check", "check") and not keep("tune", "check")
    with pytest.raises(ValueError, match="unknown split"):
        keep("tune", "train")
