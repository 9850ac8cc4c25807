"""The answer evaluation of several sets side by side: our own set (both halves) and outside sets.

Runs :func:`bot.evals.answers.run_answer_eval` on each set and prints one row per set (status accuracy,
gold cited, correct and usable, answered-when-should-decline, citation precision, ECE, Stanford coding),
then the risk-coverage table of all sets pooled.  The knowledge base comes from ``DASAR_KB`` as for the
CLI; ``--mode`` picks the retrieval mode.

Usage::

    DASAR_KB=/path/kb.sqlite python bench/eval_answer_sets.py [--mode deterministic] [--runs 1]
        [--out report.json] [--set eval/answers.yaml:tune --set ../shared/eval/realworld/dev.jsonl ...]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # runnable as a script from anywhere
    sys.path.insert(0, str(ROOT))

from bot.evals.answers import ece, risk_coverage, run_answer_eval, summary_row  # noqa: E402

DEFAULT_SETS = (
    f"{ROOT / 'eval' / 'answers.yaml'}:tune",
    f"{ROOT / 'eval' / 'answers.yaml'}:check",
    str(ROOT.parent / "shared" / "eval" / "realworld" / "dev.jsonl"),
    # written blind (eval/FRESH.md): measure on it, never tune on it
    str(ROOT / "eval" / "fresh.jsonl"),
)
COLUMNS = (
    "set",
    "items",
    "status_accuracy",
    "gold_cited",
    "correct_and_usable",
    "answered_when_should_decline",
    "citation_precision",
    "ece",
    "stanford_accurate",
    "stanford_incomplete",
    "stanford_hallucinated",
)


def _fmt(v: Any) -> str:
    if v is None:
        return "-"
    return f"{v:.2f}" if isinstance(v, float) else str(v)


def markdown(rows: list[dict[str, Any]], pooled: list[dict[str, Any]], pooled_ece: float | None) -> str:
    out = ["| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    out += ["| " + " | ".join(_fmt(r[c]) for c in COLUMNS) + " |" for r in rows]
    out += ["", f"Pooled ECE: {_fmt(pooled_ece)}", "", "| confidence >= | answered | coverage | accuracy |"]
    out.append("|---|---|---|---|")
    out += [
        f"| {r['threshold']:.2f} | {r['answered']} | {_fmt(r['coverage'])} | {_fmt(r['accuracy'])} |"
        for r in pooled
    ]
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    from bot.settings import load_settings
    from bot.wiring import Services

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--set", action="append", help="FILE or FILE:tune / FILE:check (repeatable)")
    ap.add_argument("--mode", choices=("hybrid", "bm25", "dense", "deterministic"))
    ap.add_argument("--runs", type=int, default=1, help="runs per item (2 also checks determinism)")
    ap.add_argument("--out", type=Path, help="write every report (with per-item rows) as JSON here")
    args = ap.parse_args(argv)
    services = Services(load_settings(retrieval_mode=args.mode))
    reports = []
    for spec in args.set or DEFAULT_SETS:
        path, _, split = spec.rpartition(":") if spec.endswith((":tune", ":check")) else (spec, "", "all")
        rep = run_answer_eval(services, Path(path), split=split or "all", mode=args.mode, runs=args.runs)
        reports.append(rep)
        print(json.dumps(summary_row(rep), ensure_ascii=False), file=sys.stderr)
    points = [
        (r["confidence"]["score"], r["lead_correct"]) for rep in reports for r in rep["rows"] if r["lead"]
    ]
    n_items = sum(rep["items"] for rep in reports)
    pooled = risk_coverage(points, n_items)
    print(markdown([summary_row(r) for r in reports], pooled, ece(points)))
    if args.out:
        args.out.write_text(json.dumps(reports, ensure_ascii=False, indent=1, default=str), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
