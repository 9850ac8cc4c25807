"""Calibrated answer confidence (bot.answer.confidence) and its fit (bot.evals.calibrate)."""

from __future__ import annotations

import math

import pytest

from bot.answer.confidence import ConfidenceConfig, combine, retrieval_quality
from bot.evals.calibrate import FALLBACK_THRESHOLD, fit

CFG = ConfidenceConfig(
    judge_weight=1.0, retrieval_weight=4.0, self_weight=0.0, bias=-2.0, medium=0.6, high=0.9
)


def test_score_is_the_logistic_of_the_inputs_and_bands_follow_the_thresholds() -> None:
    c = combine(1.0, 0.75, 0.3, CFG)
    assert c.score == pytest.approx(1 / (1 + math.exp(-(-2.0 + 1.0 + 3.0))), abs=1e-6)
    assert c.band == "medium"
    assert combine(1.0, 1.0, 0.0, CFG).band == "high"  # z = 3 -> 0.953
    assert combine(1.0, 0.4, 1.0, CFG).band == "medium"  # z = 0.6 -> 0.646
    assert combine(0.0, 0.2, 1.0, CFG).band == "low"  # z = -1.2 -> escalated by the pipeline
    assert combine(1.0, 0.9, 1.0, CFG).score > combine(1.0, 0.5, 1.0, CFG).score


def test_an_unjudged_answer_is_never_high() -> None:
    c = combine(None, 1.0, 1.0, ConfidenceConfig(judge_weight=1.0, retrieval_weight=4.0, bias=0.0, high=0.9))
    assert c.score == pytest.approx(0.89) and c.band == "medium" and c.judge is None


def test_retrieval_quality_blends_ranker_probability_and_coverage() -> None:
    assert retrieval_quality(0.8, 0.4) == pytest.approx(0.6)
    assert retrieval_quality(3.0, -1.0) == pytest.approx(0.5)  # clipped to [0, 1]


def test_fit_picks_the_lowest_threshold_reaching_the_target_precision() -> None:
    rows = [([1.0, r / 20, 0.5], r >= 8) for r in range(20)]  # correct exactly when retrieval >= 0.4
    params = fit(rows, target=0.9)
    assert params["target_reached"] and params["tune_precision"] >= 0.9
    assert params["retrieval_weight"] > 0 and params["tune_answered"] >= 10


def test_fit_falls_back_when_the_target_is_out_of_reach() -> None:
    rows = [([1.0, r / 20, 0.5], r % 2 == 0) for r in range(20)]  # retrieval says nothing
    params = fit(rows, target=0.9)
    assert not params["target_reached"] and params["medium"] == FALLBACK_THRESHOLD
