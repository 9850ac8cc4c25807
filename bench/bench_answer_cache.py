"""Answer-cache hit rate, saved latency and invalidation: each question of ``eval/answers.yaml`` via the Turn.

Usage::

    python bench/bench_answer_cache.py [--kb PATH] [--embedder NAME] [--amend DOC_ID] [--no-changes]

The knowledge base is copied to a temporary file first (the phases below write to it; the configured one is
never changed).  ``DOC_ID`` (default ``uu-7-2021``, UU HPP) is removed from the copy before the cache is
filled, so its ingest in phase 4 is an amendment arriving after the answers were cached.

1. pass 1 fills the cache (only answered, verified answers are cached);
2. pass 2 asks the same questions as the same users in new threads: hit rate, latency of hits and misses;
3. a small unrelated document is ingested (and the impact recorded, as ``dasar ingest`` does), then pass 3:
   the hit rate stays (with the corpus version in the key, as before, every entry was lost here);
4. ``DOC_ID`` is ingested (amending the acts it amends) and the impact recorded, then pass 4: exactly the
   entries resting on the purged documents (``bot.answer_cache.related_documents`` of the impact's
   documents) miss; every other entry still hits.  Unexpected hits or misses are listed.

With ``--no-changes`` only passes 1 and 2 run (on the copy, without removing ``DOC_ID``).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, ClassVar

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # runnable as a script from anywhere
    sys.path.insert(0, str(ROOT))

# the unrelated internal policy the answer-cache tests ingest (one fixture, not a copy)
UNRELATED_ID = "parking-reimbursement-policy"


def _copy_kb(src: Path, dst: Path) -> None:
    """A consistent copy of an SQLite knowledge base (the WAL included), via the backup API."""
    with sqlite3.connect(src) as a, sqlite3.connect(dst) as b:
        a.backup(b)


def main(argv: list[str] | None = None) -> int:
    import yaml

    from bot.answer_cache import AnswerCache, related_documents
    from bot.audit import MemoryAuditLog
    from bot.history import MemoryHistory
    from bot.impact import ImpactLog, record
    from bot.messages import InboundMessage
    from bot.settings import load_settings
    from bot.turn import Turn
    from bot.wiring import Services, injection_flagger
    from kb.ingest import ingest_paths
    from kb.linking import relink

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--kb", type=Path, help="SQLite knowledge base (default: the configured one); copied")
    ap.add_argument("--embedder", help="embedder name (default: the configured one)")
    ap.add_argument("--amend", default="uu-7-2021", metavar="DOC_ID", help="regulation ingested in phase 4")
    ap.add_argument("--no-changes", action="store_true", help="only passes 1 and 2")
    args = ap.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="bench-answer-cache-"))
    overrides: dict[str, object] = {"tickets_db": work / "tickets.sqlite"}
    if args.embedder:
        overrides["embedder"] = args.embedder
    source_kb = args.kb or Path(load_settings().kb)
    if not source_kb.is_file():
        print(f"{source_kb} is not an SQLite knowledge base file; pass --kb", file=sys.stderr)
        return 2
    overrides["kb"] = work / "kb.sqlite"
    _copy_kb(source_kb, work / "kb.sqlite")
    svc = Services(load_settings(**overrides))
    amend_src = ROOT / "corpus" / "regulations" / args.amend
    if not args.no_changes:
        if svc.store.get_document(args.amend) is None or not amend_src.is_dir():
            print(f"{args.amend} must be in the knowledge base and in corpus/regulations", file=sys.stderr)
            return 2
        svc.store.remove_document(args.amend)
        relink(svc.store)

    class Recording(AnswerCache):
        """Remembers the documents the entry of the last hit rests on, and times each verification."""

        last_docs: frozenset[str] = frozenset()
        verified: ClassVar[list[float]] = []  # ms per verification (one instance)

        def _verified(self, data: Any) -> Any:
            t0 = time.perf_counter()
            try:
                return super()._verified(data)
            finally:
                self.verified.append((time.perf_counter() - t0) * 1000)

        def _read(self, key: str) -> str | None:
            raw = super()._read(key)
            self.last_docs = frozenset(json.loads(raw).get("docs") or ()) if raw else frozenset()
            return raw

    cache = Recording(svc.store)
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

    def ask(item: dict[str, Any], n: int) -> tuple[float, bool]:
        user = item.get("user")
        person = svc.directory.lookup_email(user) if user else None
        uid = person.slack_id if person and person.slack_id else "UNKNOWN001"
        as_of = dt.date.fromisoformat(str(item["as_of"])) if item.get("as_of") else None
        before = cache.hits
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
        return (time.perf_counter() - started) * 1000, cache.hits > before

    def run_pass(n: int) -> dict[str, tuple[float, bool]]:
        return {str(it["id"]): ask(it, n) for it in items}

    def hit_line(label: str, res: dict[str, tuple[float, bool]]) -> None:
        hit_ms = [ms for ms, hit in res.values() if hit]
        miss_ms = [ms for ms, hit in res.values() if not hit]
        line = f"{label}: hits {len(hit_ms)}/{len(res)} ({len(hit_ms) / len(res):.0%})"
        if hit_ms:
            line += f"; hit mean {statistics.mean(hit_ms):.1f} ms, median {statistics.median(hit_ms):.1f} ms"
        if miss_ms:
            line += f"; miss mean {statistics.mean(miss_ms):.0f} ms"
        print(line)

    print(f"knowledge base: copy of {source_kb} in {work}; embedder {svc.settings.embedder}")
    if not args.no_changes:
        print(f"{args.amend} removed from the copy before filling the cache")
    ask({"id": "warm", "question": "tarif PPN"}, 0)
    first = run_pass(1)
    first_ms = [ms for ms, _ in first.values()]
    print(f"questions {len(items)}; cache entries after pass 1: {cache.puts}")
    print(f"pass 1: mean {statistics.mean(first_ms):.0f} ms, median {statistics.median(first_ms):.0f} ms")
    second = run_pass(2)
    hit_line("pass 2 (repeat)", second)
    saved = sum(first_ms) - sum(ms for ms, _ in second.values())
    print(f"time saved on pass 2: {saved / 1000:.1f} s ({saved / max(sum(first_ms), 1):.0%})")
    if cache.verified:
        print(
            f"verification on read (get_chunks + get_document per document): mean "
            f"{statistics.mean(cache.verified):.2f} ms, max {max(cache.verified):.2f} ms per hit"
        )
    if args.no_changes:
        print(json.dumps({"answer_cache": cache.stats()}))
        return 0

    # --- phase 3: an unrelated document ------------------------------------------------------------
    log = ImpactLog(work / "impact.jsonl")
    folder = work / "unrelated"
    folder.mkdir()
    from tests.bot.test_answer_cache import UNRELATED

    (folder / f"{UNRELATED_ID}.md").write_text(UNRELATED, encoding="utf-8")
    report = ingest_paths([folder], svc.store, svc.embedder, flagger=injection_flagger)
    assert report.added == [UNRELATED_ID], report.to_json()
    entries = svc.store.cached_answer_count()
    record(report.impact, store=svc.store, log=log, answer_cache=cache)
    print(
        f"phase 3: ingested an unrelated policy; impact documents "
        f"{sorted(report.impact.doc_ids) if report.impact else []}; entries {entries} -> "
        f"{svc.store.cached_answer_count()}"
    )
    third: dict[str, tuple[float, bool]] = {}
    rests_on: dict[str, frozenset[str]] = {}
    for it in items:
        third[str(it["id"])] = ask(it, 3)
        rests_on[str(it["id"])] = cache.last_docs
    hit_line("pass 3 (after the unrelated ingest)", third)
    lost = sorted(i for i in second if second[i][1] and not third[i][1])
    print(f"  entries lost by the unrelated ingest: {len(lost)} {lost[:10]}")

    # --- phase 4: the amending act ------------------------------------------------------------------
    entries = svc.store.cached_answer_count()
    report = ingest_paths([amend_src], svc.store, svc.embedder, flagger=injection_flagger)
    assert report.added == [args.amend], report.to_json()
    changed = set(report.impact.doc_ids) if report.impact else set()
    purged_docs = related_documents(svc.store, changed)
    t0 = time.perf_counter()
    record(report.impact, store=svc.store, log=log, answer_cache=cache)
    record_ms = (time.perf_counter() - t0) * 1000
    print(
        f"phase 4: ingested {args.amend}; impact documents {len(changed)}, purged documents "
        f"{len(purged_docs)}; entries {entries} -> {svc.store.cached_answer_count()} "
        f"(impact record + purge {record_ms:.0f} ms)"
    )
    fourth = run_pass(4)
    hit_line("pass 4 (after the amendment)", fourth)
    cached3 = [i for i in third if third[i][1]]
    expected_miss = sorted(i for i in cached3 if rests_on[i] & purged_docs)
    expected_hit = sorted(i for i in cached3 if not rests_on[i] & purged_docs)
    unexpected_miss = [i for i in expected_hit if not fourth[i][1]]
    unexpected_hit = [i for i in expected_miss if fourth[i][1]]
    print(
        f"  of {len(cached3)} cached entries: {len(expected_miss)} rest on purged documents, "
        f"{len(expected_hit)} do not; missed as expected {len(expected_miss) - len(unexpected_hit)}, "
        f"hit as expected {len(expected_hit) - len(unexpected_miss)}; unexpected misses {unexpected_miss}, "
        f"unexpected hits {unexpected_hit}"
    )
    by_impact = [i for i in cached3 if rests_on[i] & changed]
    print(
        f"  ({len(by_impact)} of them rest on the impact's own documents {sorted(changed)}; the others on "
        f"the documents those amend: {sorted(purged_docs - changed)})"
    )
    print(json.dumps({"answer_cache": cache.stats()}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
