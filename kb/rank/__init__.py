"""Learned re-rank: the probability that a passage answers the question, from what retrieval computes.

The retriever (:mod:`kb.retrieve`) describes every candidate passage by the features below; a logistic
regression fitted on labelled questions (the *tune* half of ``eval/retrieval.yaml`` and the gold citations
of the tune half of ``eval/answers.yaml``, never an outside set) turns them into one probability.  The
weights live in ``kb/rank/model.json``, rebuilt by ``python scripts/fit_ranker.py`` (it records the data,
the regularisation and the cross-validated ranking metrics next to the weights).

Two models share the file: ``hybrid`` uses every feature; ``deterministic`` is fitted without the dense
features, so a knowledge base without vectors ranks by the same kind of model, not by a fallback rule.

Features (all in [0, 1] except where noted):

* ``rrf_bm25`` / ``rrf_dense`` / ``rrf_routed``: ``rrf_k / (rrf_k + rank)`` of the passage in each candidate
  list (0 when not in it down to the rank depth), and ``bm25_rel`` / ``dense_sim`` (BM25 score relative to the
  best of the list; cosine similarity);
* ``named_doc``: the passage belongs to a document the question names;
* ``pasal_named`` / ``ayat_named``: the question writes out this Pasal (of this law) / this ayat;
  ``pasal_other``: the question writes out a Pasal of this passage's law, and the passage is another Pasal;
  ``pasal_hint``: the Pasal implied by a tax type ("PPh 23" -> UU PPh Pasal 23); ``pasal_unresolved``: the
  Pasal number matches a "Pasal n" whose law the question leaves open;
* intents with a structural answer: ``definition`` (a definition for a "what is meant by" question),
  ``definition_unasked`` (a definition when none was asked: padding), ``revocation``, ``commencement``,
  ``rate`` (the passage states a rate and the question asks one), ``deadline`` (the passage states a time
  limit and the question asks when / by when);
* kinds: ``penjelasan``, ``lampiran``, ``frame`` (preamble / closing), ``example``;
* ``tax_type``: the document is about a tax type the question names;
* ``coverage`` / ``phrases``: share of the question's concepts / word pairs in the passage
  (:mod:`kb.lexical`); ``coverage_gap`` / ``dense_gap`` (<= 0): how far the passage's coverage / cosine
  similarity is below the best candidate's (an absolute probability needs to know "best of this pool");
* ``position``: 1 for a Pasal's first ayat (or a Pasal kept whole), 1/n for its n-th ayat.
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kb.errors import KbError

FEATURES: tuple[str, ...] = (
    "rrf_bm25",
    "bm25_rel",
    "rrf_dense",
    "dense_sim",
    "rrf_routed",
    "named_doc",
    "pasal_named",
    "pasal_other",
    "ayat_named",
    "pasal_hint",
    "pasal_unresolved",
    "definition",
    "definition_unasked",
    "revocation",
    "commencement",
    "rate",
    "deadline",
    "penjelasan",
    "lampiran",
    "frame",
    "example",
    "tax_type",
    "coverage",
    "coverage_gap",
    "phrases",
    "position",
    "dense_gap",
)
#: features a knowledge base without vectors cannot compute
DENSE_FEATURES: frozenset[str] = frozenset({"rrf_dense", "dense_sim", "dense_gap"})
DEFAULT_MODEL_PATH = Path(__file__).with_name("model.json")


class RankModelError(KbError):
    """The ranking model file is missing or malformed."""


@dataclass(frozen=True)
class LinearModel:
    """``p = sigmoid(bias + sum(weights[f] * x[f]))`` over named features."""

    features: tuple[str, ...]
    weights: tuple[float, ...]
    bias: float

    def logit(self, x: Mapping[str, float]) -> float:
        return self.bias + sum(w * x.get(f, 0.0) for f, w in zip(self.features, self.weights, strict=True))

    def probability(self, x: Mapping[str, float]) -> float:
        z = self.logit(x)
        if z >= 0:
            return 1.0 / (1.0 + math.exp(-z))
        e = math.exp(z)
        return e / (1.0 + e)

    def to_json(self) -> dict[str, Any]:
        return {
            "bias": round(self.bias, 6),
            "weights": {f: round(w, 6) for f, w in zip(self.features, self.weights, strict=True)},
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> LinearModel:
        weights = data.get("weights")
        if not isinstance(weights, Mapping):
            raise RankModelError("a model needs a 'weights' mapping")
        unknown = sorted(set(weights) - set(FEATURES))
        if unknown:
            raise RankModelError(f"unknown feature(s) {unknown}")
        names = tuple(f for f in FEATURES if f in weights)
        return cls(names, tuple(float(weights[f]) for f in names), float(data.get("bias", 0.0)))


@dataclass(frozen=True)
class RankModel:
    """The fitted models, one per retrieval mode that re-ranks."""

    hybrid: LinearModel
    deterministic: LinearModel
    meta: Mapping[str, Any]

    def for_mode(self, mode: str) -> LinearModel:
        return self.hybrid if mode == "hybrid" else self.deterministic

    @classmethod
    def load(cls, path: str | Path | None = None) -> RankModel:
        file = Path(path) if path is not None else DEFAULT_MODEL_PATH
        try:
            data = json.loads(file.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise RankModelError(f"{file}: cannot read the ranking model ({exc})") from exc
        try:
            models = data["models"]
            return cls(
                LinearModel.from_json(models["hybrid"]),
                LinearModel.from_json(models["deterministic"]),
                {k: v for k, v in data.items() if k != "models"},
            )
        except (KeyError, TypeError) as exc:
            raise RankModelError(f"{file}: malformed ranking model ({exc})") from exc

    def to_json(self) -> dict[str, Any]:
        return {
            **self.meta,
            "models": {"hybrid": self.hybrid.to_json(), "deterministic": self.deterministic.to_json()},
        }


@functools.lru_cache(maxsize=1)
def default_model() -> RankModel:
    """The packaged model (``kb/rank/model.json``), loaded once per process."""
    return RankModel.load()


def vector(x: Mapping[str, float], features: Sequence[str]) -> list[float]:
    """The features of one candidate in a fixed order (for fitting)."""
    return [float(x.get(f, 0.0)) for f in features]
