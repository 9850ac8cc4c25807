"""Answer-eval metrics on hand-made records: real-question loading, Stanford coding, ECE, risk-coverage."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest

from bot.evals.answers import (
    AnswerItem,
    _gold_laws,
    _gold_match,
    _provision_match,
    ece,
    load_items,
    risk_coverage,
    stanford_code,
)


def _item(allowed: list[str], gold: list[dict[str, str]] | None = None) -> AnswerItem:
    return AnswerItem("t1", "c", "q", None, None, {"status_in": allowed, "cites_any": gold or []})


def test_realworld_jsonl_maps_statuses_and_gold(tmp_path: Path) -> None:
    rows = [
        {"id": "T1", "question": "Tarif bea meterai dokumen berapa?", "language": "id", "as_of": "2022-03-01",
         "expected_status": "answered", "gold": [{"doc_id": "uu-10-2020", "pasal": "5", "ayat": None}]},
        {"id": "T2", "question": "Bolehkah harga jual ditulis lebih rendah?", "language": "en", "as_of": None,
         "expected_status": "refuse_advice", "gold": []},
    ]  # fmt: skip
    path = tmp_path / "set.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    a, b = load_items(path)
    assert (a.allowed, a.gold[0]["pasal"], a.as_of.isoformat() if a.as_of else None) == (
        ["answered"],
        "5",
        "2022-03-01",
    )
    assert (b.allowed, b.should_decline, b.answerable, b.category) == (
        ["escalated", "refused"],
        True,
        False,
        "refuse_advice/en",
    )


def test_realworld_jsonl_rejects_an_unknown_status(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps({"id": "T9", "question": "x", "expected_status": "maybe"}) + "\n")
    with pytest.raises(ValueError, match="line 1"):
        load_items(path)


def test_gold_match_at_pasal_and_ayat_level() -> None:
    chunk = SimpleNamespace(
        doc_id="uu-28-2007", provision="uu-6-1983:pasal-9", pasal="9", ayat="2a", section=None
    )
    whole = SimpleNamespace(doc_id="uu-28-2007", provision=None, pasal="9", ayat=None, section=None)
    gold = {"doc_id": "uu-6-1983", "pasal": "9", "ayat": "2b"}
    assert not _gold_match(chunk, gold) and _gold_match(chunk, gold, ayat=False)
    assert _gold_match(chunk, {"doc_id": "uu-28-2007", "pasal": "9", "ayat": "2a"})
    assert _gold_match(whole, {"doc_id": "uu-28-2007", "pasal": "9", "ayat": "2a"})  # a Pasal kept whole
    assert not _gold_match(whole, {"doc_id": "uu-28-2007", "pasal": "8"})


def test_provision_match_counts_any_act_wording_of_the_gold_provision(services: object) -> None:
    """Gold labelled against UU 36/2008's Pasal 26 is matched by UU 6/2023's restated Pasal 26 (one UU PPh
    provision), not by UU 6/2023's wording of another Pasal, and never by the strict test."""
    store = services.store  # type: ignore[attr-defined]
    gold = {"doc_id": "uu-36-2008", "pasal": "26", "ayat": "1"}
    laws = _gold_laws(store, gold)
    assert laws == {"uu-36-2008", "uu-7-1983"}
    later = {c.id: c for c in store.chunks_of("uu-6-2023")}
    ayat1 = next(c for c in later.values() if c.pasal == "26" and c.ayat == "1" and c.kind != "penjelasan")
    other = next(c for c in later.values() if c.pasal == "2" and c.base_doc == "uu-7-1983")
    assert _provision_match(ayat1, gold, laws) and not _gold_match(ayat1, gold)
    assert not _provision_match(other, gold, laws)
    assert _provision_match(ayat1, {**gold, "ayat": "2"}, laws, ayat=False)
    assert not _provision_match(ayat1, {**gold, "ayat": "2"}, laws)


def test_stanford_coding() -> None:
    gold = [{"doc_id": "d", "pasal": "1"}]
    answerable = _item(["answered"], gold)
    decline = _item(["abstained", "escalated"])
    assert stanford_code(answerable, "answered", lead_gold=True, any_gold=True) == "accurate"
    assert stanford_code(answerable, "answered", lead_gold=False, any_gold=True) == "incomplete"
    assert stanford_code(answerable, "answered", lead_gold=False, any_gold=False) == "hallucinated"
    assert stanford_code(answerable, "abstained", lead_gold=False, any_gold=False) == "incomplete"
    assert stanford_code(decline, "escalated", lead_gold=False, any_gold=False) == "accurate"
    assert stanford_code(decline, "answered", lead_gold=False, any_gold=False) == "hallucinated"


def test_ece_and_risk_coverage() -> None:
    points = [(0.95, True), (0.95, True), (0.85, False), (0.25, False)]
    # bins: [0.9,1.0) conf .95 acc 1 -> .05 * 2/4; [0.8,0.9) .85 vs 0 -> .85 * 1/4; [0.2,0.3) .25 -> .25/4
    assert ece(points) == pytest.approx(0.025 + 0.2125 + 0.0625)
    assert ece([]) is None
    rows = {r["threshold"]: r for r in risk_coverage(points, n_items=8)}
    assert (rows[0.9]["answered"], rows[0.9]["coverage"], rows[0.9]["accuracy"]) == (2, 0.25, 1.0)
    assert (rows[0.0]["answered"], rows[0.0]["risk"]) == (4, 0.5)
    assert rows[0.95]["answered"] == 2 and rows[0.95]["risk"] == 0.0


def test_citation_precision_any_version_counts_todays_wording_of_a_gold_provision(
    services: object, tmp_path: Path
) -> None:
    """A label written against UU 28/2007's KUP Pasal 9 ayat (1), whose wording ended on 2020-11-02, is
    answered today from UU 6/2023's restatement: the strict share counts that citation wrong, the
    any-version share counts it (both are reported; neither replaces the other)."""
    from bot.evals.answers import run_answer_eval

    question = "PPh yg terutang wajib disetor paling lama brp hari stlh Masa Pajak berakhir?"
    row = {"id": "T3", "question": question, "language": "id", "as_of": None, "expected_status": "answered",
           "gold": [{"doc_id": "uu-28-2007", "pasal": "9", "ayat": "1"}]}  # fmt: skip
    path = tmp_path / "one.jsonl"
    path.write_text(json.dumps(row) + "\n", encoding="utf-8")
    report = run_answer_eval(services, path, runs=1)
    (item,) = report["rows"]
    assert item["status"] == "answered"
    assert item["claims"][0]["doc_id"] == "uu-6-2023"
    assert report["citation_precision"] == 0.0
    assert report["citation_precision_any_version"] > 0.0


def test_a_composer_failure_is_counted_not_hidden_as_a_decline(
    services: object, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The agent loop answers a composer exception with no claims (the user hears "no source"); the eval
    names the items it happened on, so a composer bug is not read as honest declines."""
    from bot.answer import extractive
    from bot.evals.answers import run_answer_eval

    compose = extractive.ExtractiveComposer.compose

    def failing(self: extractive.ExtractiveComposer, request: object) -> object:
        if "meterai" in request.question:  # type: ignore[attr-defined]
            raise ValueError("too many values to unpack")
        return compose(self, request)  # type: ignore[arg-type]

    monkeypatch.setattr(extractive.ExtractiveComposer, "compose", failing)
    stamp, wht = [{"doc_id": "uu-10-2020", "pasal": "5"}], [{"doc_id": "uu-36-2008", "pasal": "23"}]
    rows = [
        {"id": "T4", "question": "Berapa tarif bea meterai atas dokumen perjanjian?", "language": "id",
         "as_of": "2026-06-01", "expected_status": "answered", "gold": stamp},
        {"id": "T5", "question": "Berapa tarif PPh Pasal 23 atas jasa teknik?", "language": "id",
         "as_of": "2026-06-01", "expected_status": "answered", "gold": wht},
    ]  # fmt: skip
    path = tmp_path / "two.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    report = run_answer_eval(services, path, runs=1)
    failed, fine = report["rows"]
    assert report["composer_failures"] == 1
    assert failed["composer_failed"] and failed["status"] != "answered"
    assert any("composer failed" in p for p in failed["problems"]) and not failed["ok"]
    assert not fine["composer_failed"] and fine["status"] == "answered" and fine["ok"]
