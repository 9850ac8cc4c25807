"""Calibrated answer confidence (bot.answer.confidence) and its fit (bot.evals.calibrate)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from bot.answer.confidence import ConfidenceConfig, combine, retrieval_quality
from bot.evals.calibrate import FALLBACK_THRESHOLD, fit

ROOT = Path(__file__).resolve().parents[2]

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


def test_lead_features_enter_the_score_only_through_fitted_weights(tmp_path: Path) -> None:
    from bot.answer.confidence import ConfidenceConfig, combine, lead_claim_features
    from bot.evals.calibrate import write_defaults

    feats = lead_claim_features(
        lead_quote="(2) Ketentuan lebih lanjut mengenai tata cara diatur dengan Peraturan Menteri Keuangan.",
        lead_location="Pasal 23 ayat (2)",
        asked="rate",
        states_asked=False,
        lead_coverage=0.5,
        concepts=6,
        documents=2,
    )
    assert feats["lead_delegates"] == 1.0 and feats["lead_misses_asked"] == 1.0
    assert feats["lead_states_asked"] == 0.0 and feats["question_length"] == 0.5
    plain = combine(1.0, 0.6, 0.7, ConfidenceConfig())
    shipped = combine(1.0, 0.6, 0.7, ConfidenceConfig(), feats)
    assert shipped.score == plain.score  # no fitted lead weights ship: the features are only reported
    assert dict(shipped.features)["lead_delegates"] == 1.0
    assert shipped.to_json()["features"]["lead_misses_asked"] == 1.0
    weighted = combine(1.0, 0.6, 0.7, ConfidenceConfig(feature_weights=(("lead_delegates", -2.0),)), feats)
    assert weighted.score < plain.score

    copy = tmp_path / "confidence.py"
    copy.write_text((ROOT / "bot" / "answer" / "confidence.py").read_text(encoding="utf-8"), encoding="utf-8")
    params = {
        "judge_weight": 0.0,
        "retrieval_weight": 2.0,
        "self_weight": 1.0,
        "bias": -2.0,
        "medium": 0.4,
        "feature_weights": [["lead_delegates", -1.5], ["lead_penjelasan", -0.5]],
    }
    write_defaults(params, copy)
    text = copy.read_text(encoding="utf-8")
    pairs = '(("lead_delegates", -1.5), ("lead_penjelasan", -0.5))'
    assert f"feature_weights: tuple[tuple[str, float], ...] = {pairs}" in text


def test_deterministic_retrieval_has_its_own_calibration(tmp_path: Path) -> None:
    """Without dense scores the ranker's probabilities run lower: the hybrid calibration escalated
    deterministic answers as low confidence (check half status 0.98 -> 0.91), so each mode is fitted on its
    own tune run."""
    from bot.answer.confidence import DETERMINISTIC, ConfidenceConfig, combine, config_for_mode
    from bot.evals.calibrate import write_deterministic

    hybrid = ConfidenceConfig()
    assert config_for_mode("deterministic", hybrid, DETERMINISTIC) is DETERMINISTIC
    assert config_for_mode("hybrid", hybrid, DETERMINISTIC) is hybrid
    assert config_for_mode(None, hybrid, DETERMINISTIC) is hybrid
    # a middling retrieval is an answer in deterministic mode and the same inputs score lower under hybrid's
    det = combine(None, 0.45, 0.7, DETERMINISTIC)
    assert det.band == "medium"
    assert combine(None, 0.45, 0.7, hybrid).score < det.score

    copy = tmp_path / "confidence.py"
    copy.write_text((ROOT / "bot" / "answer" / "confidence.py").read_text(encoding="utf-8"), encoding="utf-8")
    write_deterministic({"retrieval_weight": 3.0, "self_weight": 0.5, "bias": -2.0, "medium": 0.25}, copy)
    text = copy.read_text(encoding="utf-8")
    line = "DETERMINISTIC = ConfidenceConfig(retrieval_weight=3.0, self_weight=0.5, bias=-2.0, medium=0.25)"
    assert line in text
    assert text.count("DETERMINISTIC = ConfidenceConfig(") == 1
