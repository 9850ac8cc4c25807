"""Answer confidence: a calibrated probability that the leading claim is correct, and three bands.

Inputs (all in [0, 1]): the support judge's mean score of the shown claims (``judge``; ``None`` when no
judge ran), retrieval quality (the learned re-rank's probability that the best passage answers,
``kb.rank``, blended with the share of the question's concepts the shown quotes cover) and the composer's
self-assessment.  A logistic model turns them into the probability that the leading claim cites a
provision that answers the question:

    score = sigmoid(bias + judge_weight * judge + retrieval_weight * retrieval + self_weight * self
                    + sum(weight[f] * feature[f] for f in FEATURES))

where the features (:func:`lead_claim_features`, each in [0, 1]) describe the leading claim itself: whether it
states the kind of fact asked (a percentage for a rate question, a time limit for a deadline one) or
misses it, whether it is an elucidation or a clause that only delegates the rule to another regulation,
how much of the question its quote covers, how long the question is (chatty, multi-part questions are
answered less reliably) and how many documents the answer draws on.

fitted (Platt scaling) on the *tune* half of ``eval/answers.yaml`` only -- never on the check half or
an outside set -- by ``python scripts/fit_confidence.py`` (``bot.evals.calibrate``), which also picks the
answer threshold: the lowest score at which, on the tune half, at least ``target_precision`` (0.9) of
the answered items are correct.  ``dasar eval answers`` prints the calibration error (ECE) and a
risk-coverage table for any set.

Bands: ``high`` >= ``high``; ``medium`` >= ``medium`` (the answer threshold); else ``low`` -- a low answer
is escalated with reason ``low_confidence`` instead of being shown as an answer.  Without a judge verdict
(``judge is None``) the judge term counts as 0 *and* the score is capped at ``high - 0.01``: an answer
nobody judged can never be "high".
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass

from bot.answer.model import Confidence

#: the lead-claim features of the calibrated model, in the order the fit reports them
FEATURES: tuple[str, ...] = (
    "lead_states_asked",
    "lead_misses_asked",
    "lead_penjelasan",
    "lead_delegates",
    "lead_coverage",
    "question_length",
    "documents",
)

#: "Ketentuan lebih lanjut mengenai ... diatur dengan Peraturan Menteri Keuangan": the rule is elsewhere
DELEGATION = re.compile(
    r"\b(?:diatur|ditetapkan)\s+(?:dengan|dalam)\s+(?:atau\s+berdasarkan\s+)?(?:Peraturan|Keputusan)\b", re.I
)


@dataclass(frozen=True)
class ConfidenceConfig:
    """Calibration weights and thresholds; change them here (or pass another instance), never inline.

    Defaults: fitted by ``scripts/fit_confidence.py`` (see the module docstring for the data).
    """

    judge_weight: float = 0.0
    retrieval_weight: float = 5.6817
    self_weight: float = 0.7399
    bias: float = -4.5599
    #: weights of :data:`FEATURES` (name, weight); absent names weigh 0
    feature_weights: tuple[tuple[str, float], ...] = ()
    #: answer threshold: lowest calibrated score with >= ``target_precision`` correct among answered (tune)
    medium: float = 0.15
    high: float = 0.9
    target_precision: float = 0.9


#: deterministic retrieval (no dense scores: the ranker's probabilities run lower) has its own calibration,
#: fitted the same way on the tune half answered in deterministic mode
#: (``scripts/fit_confidence.py --mode deterministic --write``)
DETERMINISTIC = ConfidenceConfig(retrieval_weight=4.0758, self_weight=0.2475, bias=-2.1887, medium=0.2)


def config_for_mode(
    mode: str | None, hybrid: ConfidenceConfig, deterministic: ConfidenceConfig
) -> ConfidenceConfig:
    """The calibration of the retrieval mode an answer was made with."""
    return deterministic if mode == "deterministic" else hybrid


def band_of(score: float, config: ConfidenceConfig) -> str:
    if score >= config.high:
        return "high"
    if score >= config.medium:
        return "medium"
    return "low"


def retrieval_quality(top_score: float, coverage: float, config: ConfidenceConfig | None = None) -> float:
    """Blend of the best hit's ranker probability and the question-concept coverage of the shown quotes.

    ``config`` is accepted for compatibility; the blend has no parameters.
    """
    top = max(0.0, min(1.0, top_score))
    return round(0.5 * top + 0.5 * max(0.0, min(1.0, coverage)), 6)


def lead_claim_features(
    *,
    lead_quote: str,
    lead_location: str,
    asked: str | None,
    states_asked: bool,
    lead_coverage: float,
    concepts: int,
    documents: int,
) -> dict[str, float]:
    """The features of :data:`FEATURES` for one answer (see the module docstring)."""
    return {
        "lead_states_asked": float(asked is not None and states_asked),
        "lead_misses_asked": float(asked is not None and not states_asked),
        "lead_penjelasan": float(lead_location.lower().startswith("penjelasan")),
        "lead_delegates": float(bool(DELEGATION.search(lead_quote))),
        "lead_coverage": max(0.0, min(1.0, lead_coverage)),
        "question_length": min(concepts, 12) / 12,
        "documents": min(documents, 4) / 4,
    }


def probability(
    judge: float | None,
    retrieval: float,
    self_score: float,
    config: ConfidenceConfig,
    features: Mapping[str, float] | None = None,
) -> float:
    """The calibrated probability that the leading claim is correct (before the no-judge cap)."""
    j = 0.0 if judge is None else max(0.0, min(1.0, judge))
    r = max(0.0, min(1.0, retrieval))
    s = max(0.0, min(1.0, self_score))
    z = config.bias + config.judge_weight * j + config.retrieval_weight * r + config.self_weight * s
    if features:
        z += sum(w * max(0.0, min(1.0, features.get(name, 0.0))) for name, w in config.feature_weights)
    return 1.0 / (1.0 + math.exp(-z)) if z >= 0 else math.exp(z) / (1.0 + math.exp(z))


def combine(
    judge: float | None,
    retrieval: float,
    self_score: float,
    config: ConfidenceConfig | None = None,
    features: Mapping[str, float] | None = None,
) -> Confidence:
    """The calibrated confidence of an answer (all inputs in [0, 1])."""
    cfg = config or ConfidenceConfig()
    r = max(0.0, min(1.0, retrieval))
    s = max(0.0, min(1.0, self_score))
    score = probability(judge, r, s, cfg, features)
    if judge is None:
        score = min(score, cfg.high - 0.01)
    score = round(score, 6)
    feats = tuple((name, float((features or {}).get(name, 0.0))) for name in FEATURES) if features else ()
    return Confidence(score=score, band=band_of(score, cfg), judge=judge, retrieval=r, self=s, features=feats)


NO_CONFIDENCE = Confidence(score=0.0, band="low", judge=None, retrieval=0.0, self=0.0)
