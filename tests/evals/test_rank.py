"""The learned re-rank: model file, probabilities, and the fit on synthetic candidate lists."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from bot.evals.rank_fit import fit_ranker, ranking_metrics
from kb.rank import DENSE_FEATURES, FEATURES, RankModel, RankModelError, default_model


def test_the_shipped_model_loads_and_deterministic_mode_has_no_dense_feature() -> None:
    model = default_model()
    assert set(model.hybrid.features) <= set(FEATURES)
    assert not set(model.deterministic.features) & DENSE_FEATURES
    assert model.for_mode("bm25") is model.deterministic and model.for_mode("hybrid") is model.hybrid
    strong = {"rrf_bm25": 1.0, "bm25_rel": 1.0, "named_doc": 1.0, "pasal_named": 1.0, "coverage": 1.0}
    weak = {"frame": 1.0, "lampiran": 1.0}
    p_strong, p_weak = model.deterministic.probability(strong), model.deterministic.probability(weak)
    assert 0.0 < p_weak < p_strong < 1.0


def test_a_model_file_with_an_unknown_feature_is_rejected(tmp_path: Path) -> None:
    bad = tmp_path / "model.json"
    m = {"bias": 0.0, "weights": {"rrf_bm25": 1.0, "moon_phase": 2.0}}
    bad.write_text(json.dumps({"models": {"hybrid": m, "deterministic": m}}), encoding="utf-8")
    with pytest.raises(RankModelError, match="moon_phase"):
        RankModel.load(bad)


def test_the_fit_learns_which_feature_marks_the_gold_passage() -> None:
    rng = np.random.default_rng(7)
    groups = []
    for q in range(30):
        x = rng.random((20, 3))
        y = np.zeros(20)
        gold = int(np.argmax(x[:, 1]))  # the passage with the highest second feature answers
        y[gold] = 1.0
        groups.append((f"q{q}", x, y))
    w, b = fit_ranker(groups, penalty=0.1)
    assert w[1] > abs(w[0]) and w[1] > abs(w[2])
    metrics = ranking_metrics(groups, w, b)
    assert metrics["recall@5"] == 1.0 and metrics["mrr@10"] >= 0.9
