"""Answer-cache hit rate and saved latency: each question of ``eval/answers.yaml`` asked twice via the Turn.

Usage::

    python bench/bench_answer_cache.py [--kb PATH] [--embedder NAME]

Pass 1 fills the cache (only answered, verified answers are cached); pass 2 asks the same questions as the
same users in new threads. Prints the hit rate and the latency of pass 1, of pass-2 hits and of misses.
"""

from __future__ import annotations

import argparse
import datetime as dt
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # runnable as a script from anywhere
    sys.path.insert(0, str(ROOT))


def main(argv: list[str] | None = None) -> int:
    import yaml

    from bot.answer_cache import AnswerCache
    from bot.audit import MemoryAuditLog
    from bot.history import MemoryHistory
    from bot.messages import InboundMessage
    from bot.settings import load_settings
    from bot.turn import Turn
    from bot.wiring import Services

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--kb", type=Path, help="knowledge base (default: the configured one)")
    ap.add_argument("--embedder", help="embedder name (default: the configured one)")
    args = ap.parse_args(argv)
    overrides: dict[str, object] = {"tickets_db": Path(tempfile.mkdtemp()) / "tickets.sqlite"}
    if args.kb:
        overrides["kb"] = args.kb
    if args.embedder:
        overrides["embedder"] = args.embedder
    svc = Services(load_settings(**overrides))
    cache = AnswerCache(svc.store)
    today = dt.date(2026, 11, 30)
    turn = Turn(
        svc,
        resolver=svc.resolver(),
        history=MemoryHistory(),
        audit=MemoryAuditLog(),
        today=lambda: today,
        answer_cache=cache,
    )
    items = yaml.safe_load((ROOT / "eval" / "answers.yaml").read_text(encoding="utf-8"))
    items = items["items"] if isinstance(items, dict) else items

    def ask(item: dict, n: int) -> float:
        user = item.get("user")
        person = svc.directory.lookup_email(user) if user else None
        uid = person.slack_id if person and person.slack_id else "UNKNOWN001"
        as_of = dt.date.fromisoformat(str(item["as_of"])) if item.get("as_of") else None
        started = time.perf_counter()
        turn.handle(
            InboundMessage(
                platform="slack",
                tenant="T0SINAR01",
                user_id=uid,
                channel="D1",
                thread_id=f"{item['id']}-{n}",
                message_id=f"m-{item['id']}-{n}",
                text=item["question"],
                as_of=as_of,
            )
        )
        return (time.perf_counter() - started) * 1000

    ask({"id": "warm", "question": "tarif PPN"}, 0)
    first = [ask(it, 1) for it in items]
    hits0 = cache.hits
    hit_ms: list[float] = []
    miss_ms: list[float] = []
    for it in items:
        before = cache.hits
        ms = ask(it, 2)
        (hit_ms if cache.hits > before else miss_ms).append(ms)
    hits = cache.hits - hits0
    print(f"questions {len(items)}; pass-2 hits {hits} ({hits / len(items):.0%})")
    print(f"pass 1: mean {statistics.mean(first):.0f} ms, median {statistics.median(first):.0f} ms")
    if hit_ms:
        mean, median = statistics.mean(hit_ms), statistics.median(hit_ms)
        print(f"pass 2 hits: mean {mean:.1f} ms, median {median:.1f} ms")
    if miss_ms:
        print(f"pass 2 misses: mean {statistics.mean(miss_ms):.0f} ms")
    saved = sum(first) - sum(hit_ms) - sum(miss_ms)
    print(f"time saved on pass 2: {saved / 1000:.1f} s ({saved / max(sum(first), 1):.0%})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
