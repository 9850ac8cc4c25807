"""Answer confidence: one composite score, three bands.

Why a composite: no single signal is trustworthy alone.  The support judge knows whether the shown
claims follow from their quotes; retrieval knows whether the passages are about the question; the
composer knows how much of the question its claims cover.  Weights (defaults from the issue):

    score = 0.45 * judge + 0.35 * retrieval + 0.20 * self

Without a judge verdict (``judge is None``) the judge term counts as 0 *and* the score is capped at
``high - 0.01``: an answer nobody judged can never be "high".  Bands: ``high`` >= 0.75,
``medium`` >= 0.50, else ``low`` (a low answer is escalated with reason ``low_confidence``).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.answer.model import Confidence


@dataclass(frozen=True)
class ConfidenceConfig:
    """Weights and thresholds; change them here (or pass another instance), never inline."""

    judge_weight: float = 0.45
    retrieval_weight: float = 0.35
    self_weight: float = 0.20
    high: float = 0.75
    medium: float = 0.50
    #: A top retrieval score at or above this counts as full retrieval quality (RRF*k + rule boosts:
    #: ~1.0 for a first rank in one list, ~2-3 when several signals and a named Pasal agree, plus up to
    #: 0.85 when the passage covers every concept and phrase of the question, kb.lexical).
    retrieval_full: float = 2.75


def band_of(score: float, config: ConfidenceConfig) -> str:
    if score >= config.high:
        return "high"
    if score >= config.medium:
        return "medium"
    return "low"


def retrieval_quality(top_score: float, coverage: float, config: ConfidenceConfig) -> float:
    """Blend of the best hit's score (scaled to [0, 1]) and the question-term coverage of the shown quotes."""
    scaled = max(0.0, min(1.0, top_score / config.retrieval_full))
    return round(0.5 * scaled + 0.5 * max(0.0, min(1.0, coverage)), 6)


def combine(
    judge: float | None, retrieval: float, self_score: float, config: ConfidenceConfig | None = None
) -> Confidence:
    """The composite confidence of an answer (all inputs in [0, 1])."""
    cfg = config or ConfidenceConfig()
    j = 0.0 if judge is None else max(0.0, min(1.0, judge))
    r = max(0.0, min(1.0, retrieval))
    s = max(0.0, min(1.0, self_score))
    score = cfg.judge_weight * j + cfg.retrieval_weight * r + cfg.self_weight * s
    if judge is None:
        score = min(score, cfg.high - 0.01)
    score = round(score, 6)
    return Confidence(score=score, band=band_of(score, cfg), judge=judge, retrieval=r, self=s)


NO_CONFIDENCE = Confidence(score=0.0, band="low", judge=None, retrieval=0.0, self=0.0)
