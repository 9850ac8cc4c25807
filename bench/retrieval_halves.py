"""Retrieval recall@5 / MRR@10 on both halves of ``eval/retrieval.yaml`` and on facqa_id, one mode list.

Usage::

    DASAR_KB=/path/kb.sqlite python bench/retrieval_halves.py [--modes hybrid deterministic] [--facqa DIR]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # runnable as a script from anywhere
    sys.path.insert(0, str(ROOT))

from bot.evals.retrieval import run_facqa, run_retrieval_eval  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    from bot.settings import load_settings
    from bot.wiring import Services

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--modes", nargs="+", default=["hybrid", "deterministic"])
    ap.add_argument("--facqa", type=Path)
    ap.add_argument("--facqa-limit", type=int, default=200)
    args = ap.parse_args(argv)
    services = Services(load_settings())
    out: dict[str, dict[str, dict[str, float]]] = {}
    for split in ("tune", "check"):
        rep = run_retrieval_eval(
            services, ROOT / "eval" / "retrieval.yaml", modes=args.modes, include_naive=False, split=split
        )
        out[split] = {m: {"recall@5": v["recall@k"], "mrr@10": v["mrr@10"]} for m, v in rep["modes"].items()}
    if args.facqa:
        f = run_facqa(
            services.embedder, services.aliases, args.facqa, modes=args.modes, k=5, limit=args.facqa_limit
        )
        out["facqa"] = {m: {"recall@5": v["recall@k"], "mrr@10": v["mrr@10"]} for m, v in f["modes"].items()}
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
