"""Load benchmark of the Slack front end: signed events at concurrency against the running HTTP app.

Usage::

    python bench/bench_slack.py [--events 500] [--concurrency 50] [--duplicates 0.1] [--turn-ms 20]

What runs (loopback only, bounded in count and time): a throw-away ``redis-server`` (dedupe,
rate limit and thread state in Redis, as in production), a mock Slack Web API recording the
posts, and the real bolt app in HTTP mode with a fast in-bench TurnService (``--turn-ms`` per
turn).  ``--events`` signed deliveries are fired, about ``--duplicates`` of them re-deliveries of
earlier events (Slack retries with ``X-Slack-Retry-Num``), in a fixed pseudo-random order (seed).

Printed: ack latency p50/p99/max (target p99 < 1 s), answers posted vs distinct events (must be
equal), duplicate answers (must be 0).  Exit status 1 when a target is missed.
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import statistics
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bot.settings import Settings  # noqa: E402
from tests.slack.fake_turn import FakeTurn  # noqa: E402
from tests.slack.mock_slack import SIGNING_SECRET, MockSlackApi, event_body, signed_headers  # noqa: E402

DEADLINE_S = 120.0


def build_requests(
    events: int, duplicate_share: float, seed: int
) -> tuple[list[tuple[str, dict[str, str]]], int]:
    """Signed (body, headers) pairs: distinct DM questions plus retries of some of them, shuffled."""
    rng = random.Random(seed)
    distinct = max(1, round(events / (1 + duplicate_share)))
    bodies = []
    for i in range(distinct):
        user = f"U9BENCH{i % 97:03d}"
        event = {
            "type": "message",
            "channel_type": "im",
            "channel": f"D9BENCH{i % 97:03d}",
            "user": user,
            "text": "Berapa tarif PPN?",
            "ts": f"1700001000.{i:06d}",
        }
        bodies.append(json.dumps(event_body(event, f"EvBench{i:05d}")))
    requests = [(body, signed_headers(body)) for body in bodies]
    for n in range(events - distinct):
        body = bodies[rng.randrange(distinct)]
        requests.append((body, signed_headers(body, retry=1 + n % 3)))
    rng.shuffle(requests)
    return requests, distinct


def fire(port: int, body: str, headers: dict[str, str]) -> tuple[int, float]:
    """POST one delivery; (status, seconds until the ack arrived)."""
    started = time.perf_counter()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("POST", "/slack/events", body=body.encode(), headers=headers)
        response = conn.getresponse()
        response.read()
        return response.status, time.perf_counter() - started
    finally:
        conn.close()


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered)) - 1))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--events", type=int, default=500)
    parser.add_argument("--concurrency", type=int, default=50)
    parser.add_argument("--duplicates", type=float, default=0.1, help="share of re-deliveries (0.1 = ~10%%)")
    parser.add_argument("--turn-ms", type=float, default=20.0, help="time the in-bench turn takes")
    parser.add_argument("--workers", type=int, default=16, help="turn threads of the app")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)
    if not 1 <= args.events <= 5000 or not 1 <= args.concurrency <= 200:
        parser.error("--events must be 1..5000 and --concurrency 1..200")

    from slack_sdk import WebClient

    from bot.slack.app import build_slack_app
    from bot.slack.redis_backends import RedisDeduper, RedisRateLimiter, RedisThreadState, redis_client
    from tests.support.redis_server import running_redis

    requests, distinct = build_requests(args.events, args.duplicates, args.seed)
    api = MockSlackApi()
    base_url = api.start()
    turn = FakeTurn(delay=args.turn_ms / 1000)
    with running_redis() as url:
        client = redis_client(url)
        settings = Settings(
            slack_bot_token="xoxb-bench", slack_signing_secret=SIGNING_SECRET, slack_workers=args.workers
        )
        frontend = build_slack_app(
            settings,
            turn,
            web_client=WebClient(token="xoxb-bench", base_url=base_url),
            dedupe=RedisDeduper(client, 600),
            rate_limiter=RedisRateLimiter(client, 1000, 60),
            history=RedisThreadState(client),
        )
        server = frontend.start_http("127.0.0.1", 0)
        try:
            fire(server.port, *requests[0])  # warm-up outside the measurement: auth, first connections
            started = time.perf_counter()
            with ThreadPoolExecutor(max_workers=args.concurrency) as pool:
                results = list(pool.map(lambda r: fire(server.port, *r), requests[1:]))
            fired_s = time.perf_counter() - started
            deadline = time.monotonic() + DEADLINE_S
            while len(api.calls_of("chat.postMessage")) < distinct and time.monotonic() < deadline:
                time.sleep(0.05)
            answered_s = time.perf_counter() - started
            time.sleep(0.5)  # late duplicates would show up here
        finally:
            frontend.close()
            api.stop()

    latencies = [seconds for _, seconds in results]
    statuses: dict[int, int] = {}
    for status, _ in results:
        statuses[status] = statuses.get(status, 0) + 1
    posts = api.calls_of("chat.postMessage")
    per_thread: dict[tuple[str, str], int] = {}
    for post in posts:
        key = (str(post.params.get("channel")), str(post.params.get("thread_ts")))
        per_thread[key] = per_thread.get(key, 0) + 1
    duplicates = sum(n - 1 for n in per_thread.values())
    p50, p99 = percentile(latencies, 0.50), percentile(latencies, 0.99)
    stats = frontend.listeners.stats
    print(
        f"deliveries sent     : {len(requests)} ({distinct} distinct events, {len(requests) - distinct} "
        f"re-deliveries), concurrency {args.concurrency}, turn {args.turn_ms:.0f} ms, {args.workers} workers"
    )
    print(f"http statuses       : {dict(sorted(statuses.items()))} (+1 warm-up)")
    print(
        f"ack latency         : p50 {p50 * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms, "
        f"max {max(latencies) * 1000:.1f} ms, mean {statistics.fmean(latencies) * 1000:.1f} ms "
        "(target p99 < 1000)"
    )
    print(f"throughput          : {len(results) / fired_s:.0f} acks/s; all answers after {answered_s:.2f} s")
    print(f"answers posted      : {len(posts)} / distinct events {distinct}")
    print(f"duplicate answers   : {duplicates}")
    print(
        f"dropped as duplicate: {stats['duplicates_dropped']} deliveries, errors {stats['errors']}, "
        f"turns run {len(turn.handled)}"
    )
    ok = p99 < 1.0 and len(posts) == distinct and duplicates == 0 and statuses == {200: len(results)}
    print("RESULT              :", "PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
