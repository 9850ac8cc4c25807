"""Load benchmark of the Slack front end: signed events at concurrency against the running HTTP app.

Usage::

    python bench/bench_slack.py [--events 500] [--concurrency 50] [--duplicates 0.1] [--turn-ms 20]
    python bench/bench_slack.py --real [--questions 40] [--real-concurrency 10] [--kb PATH --embedder NAME]

What runs (loopback only, bounded in count and time): a throw-away ``redis-server`` (dedupe,
rate limit and thread state in Redis, as in production), a mock Slack Web API recording the
posts, and the real bolt app in HTTP mode with a fast in-bench TurnService (``--turn-ms`` per
turn).  ``--events`` signed deliveries are fired, about ``--duplicates`` of them re-deliveries of
earlier events (Slack retries with ``X-Slack-Retry-Num``), in a fixed pseudo-random order (seed).

Printed: ack latency p50/p99/max (target p99 < 1 s), answers posted vs distinct events (must be
equal), duplicate answers (must be 0).  Exit status 1 when a target is missed.

``--real``: after the fake-turn run, the served product: ``dasar serve slack`` started as a process
(configured by ``DASAR_*`` variables only, as in ``tests/served``) over a knowledge base of the sample
corpus (built with the hashing embedder unless ``--kb``), with a throw-away Redis and the stand-in Slack
API.  ``--questions`` real tax questions from distinct directory users are fired at
``--real-concurrency`` (answer cache off unless ``--answer-cache``), with a feedback click on an earlier
answer after every fifth question (clicks must be acked while the answer pool is busy).  Printed next to
the fake-turn figures: event and click ack p50/p99, time-to-reply p50/p95 (delivery sent to
``chat.postMessage`` received by the stand-in) and answers per second.  Questions are written for this
bench from the corpus topics (no evaluation set).
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import statistics
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bot.settings import Settings  # noqa: E402
from tests.slack.fake_turn import FakeTurn  # noqa: E402
from tests.slack.mock_slack import (  # noqa: E402
    SIGNING_SECRET,
    MockSlackApi,
    action_form,
    event_body,
    signed_headers,
)

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


def fire(port: int, body: str, headers: dict[str, str], timeout: float = 10) -> tuple[int, float]:
    """POST one delivery; (status, seconds until the ack arrived)."""
    started = time.perf_counter()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
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


def run_fake(args: argparse.Namespace) -> tuple[dict[str, float], bool]:
    """The fake-turn run: prints its report; returns (figures, targets met)."""
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
            sent_at: dict[str, float] = {}

            def send(request: tuple[str, dict[str, str]]) -> tuple[int, float]:
                ts = json.loads(request[0])["event"]["ts"]
                sent_at.setdefault(ts, time.monotonic())
                return fire(server.port, *request)

            with ThreadPoolExecutor(max_workers=args.concurrency) as pool:
                results = list(pool.map(send, requests[1:]))
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
    replies = [
        p.at - sent_at[str(p.params["thread_ts"])] for p in posts if str(p.params["thread_ts"]) in sent_at
    ]
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
    figures = {
        "ack_p50": p50,
        "ack_p99": p99,
        "reply_p50": percentile(replies, 0.50) if replies else float("nan"),
        "reply_p95": percentile(replies, 0.95) if replies else float("nan"),
        "answers_per_s": (len(posts) - 1) / answered_s if answered_s > 0 else float("nan"),
        "answered": float(len(posts) - 1),
        "asked": float(distinct - 1),
    }
    return figures, ok


# -- the served product with real turns ------------------------------------------------------------

#: Questions written for this bench from the sample corpus's topics (not from any evaluation set).
REAL_QUESTIONS = (
    "Berapa tarif PPN yang berlaku sejak 1 April 2022?",
    "Berapa tarif PPh 23 atas jasa?",
    "Apakah honorarium narasumber bukan pegawai dipotong PPh 21?",
    "Bagaimana prosedur penerbitan faktur pajak?",
    "What is the VAT rate from 1 April 2022?",
    "Siapa yang harus menyetujui posisi pajak berisiko tinggi?",
    "Berapa tarif PPh 26 atas lisensi software dari Singapura?",
    "Apa saja dokumen yang diperlukan untuk onboarding vendor baru?",
    "What withholding tax applies to freight services?",
    "Berapa tarif PPh orang pribadi untuk penghasilan kena pajak sampai 60 juta rupiah?",
    "Kapan NPWP 16 digit dan NITKU mulai dipakai?",
    "Apakah biaya entertainment boleh dibiayakan?",
    "Kapan batas waktu tax closing bulanan?",
    "Apakah pembayaran kas kecil ke vendor dipotong PPh?",
    "How are intercompany service charges treated for tax?",
    "Berapa tarif PPN untuk tahun 2025?",
)
#: Directory users (corpus/directory.yaml) who ask, round robin.
REAL_USERS = ("U04APCLRK1", "U04FINMGR2", "U04TAXLD3Q", "U04TAXAN4R", "U05SNLACC5", "U05HRPAY6S")


def _real_question(i: int) -> tuple[str, str, dict[str, str]]:
    """(ts, body, headers) of the i-th question DM."""
    user = REAL_USERS[i % len(REAL_USERS)]
    ts = f"1772900000.{i:06d}"
    event = {
        "type": "message",
        "channel_type": "im",
        "channel": "D" + user[1:],
        "user": user,
        "text": REAL_QUESTIONS[i % len(REAL_QUESTIONS)],
        "ts": ts,
    }
    body = json.dumps(event_body(event, f"EvReal{i:05d}"))
    return ts, body, signed_headers(body)


def _feedback_click(value: str, user: str, channel: str, n: int) -> tuple[str, dict[str, str]]:
    from tests.slack.mock_slack import TEAM

    payload = {
        "type": "block_actions",
        "team": {"id": TEAM, "domain": "snr"},
        "user": {"id": user, "team_id": TEAM},
        "api_app_id": "A0DASAR",
        "container": {"type": "message", "message_ts": "1772900000.999999", "channel_id": channel},
        "channel": {"id": channel, "name": "dm"},
        "message": {"type": "message", "ts": "1772900000.999999", "text": "answer"},
        "actions": [
            {
                "action_id": "dasar_feedback",
                "block_id": "dasar_feedback",
                "value": value,
                "type": "button",
                "action_ts": f"1772900500.{n:06d}",
            }
        ],
    }
    body = action_form(payload)
    return body, signed_headers(body, content_type="application/x-www-form-urlencoded")


def _feedback_value(blocks: list[dict[str, Any]]) -> str | None:
    for block in blocks:
        for element in block.get("elements") or []:
            if isinstance(element, dict) and element.get("type") == "feedback_buttons":
                return str(element["positive_button"]["value"])
    return None


def _build_kb(directory: Path) -> Path:
    from tests.served.conftest import build_served_kb

    path = directory / "kb.sqlite"
    errors = build_served_kb(path)
    if errors:
        raise SystemExit(f"ingest failed: {errors[:3]}")
    return path


def run_real(args: argparse.Namespace) -> tuple[dict[str, float], bool]:
    """Real turns through ``dasar serve slack`` as a process; prints its report."""
    from tests.served.conftest import base_env, served
    from tests.support.ports import free_port
    from tests.support.redis_server import running_redis

    api = MockSlackApi()
    slack_url = api.start()
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="dasar-bench-slack-") as tmp:
        tmp_path = Path(tmp)
        t0 = time.perf_counter()
        kb = args.kb or _build_kb(tmp_path)
        print(f"real: knowledge base ready in {time.perf_counter() - t0:.1f} s ({kb})", flush=True)
        try:
            with running_redis() as redis_url:
                env = base_env(
                    tmp_path,
                    kb,
                    DASAR_EMBEDDER=args.embedder,
                    DASAR_SLACK_BOT_TOKEN="xoxb-bench",
                    DASAR_SLACK_SIGNING_SECRET=SIGNING_SECRET,
                    DASAR_SLACK_API_BASE_URL=slack_url,
                    DASAR_SLACK_HTTP_HOST="127.0.0.1",
                    DASAR_SLACK_WORKERS=str(args.workers),
                    DASAR_SLACK_RATE_LIMIT="100000",
                    DASAR_REDIS_URL=redis_url,
                    DASAR_ANSWER_CACHE="true" if args.answer_cache else "false",
                )
                t0 = time.perf_counter()
                with served(["serve", "slack", "--port", str(port)], env, port, tmp_path / "slack.log"):
                    print(
                        f"real: dasar serve slack healthy after {time.perf_counter() - t0:.1f} s", flush=True
                    )
                    return _drive_real(args, api, port)
        finally:
            api.stop()


def _drive_real(args: argparse.Namespace, api: MockSlackApi, port: int) -> tuple[dict[str, float], bool]:
    # one question outside the measurement: its answer carries the feedback button clicked under load
    _, body, headers = _real_question(args.questions)
    fire(port, body, headers, timeout=30)
    (first,) = api.wait_for("chat.postMessage", 1, timeout=DEADLINE_S)
    feedback = _feedback_value(first.params.get("blocks") or [])
    asker = REAL_USERS[args.questions % len(REAL_USERS)]

    sent_at: dict[str, float] = {}
    acks: list[tuple[str, int, float]] = []
    lock = threading.Lock()

    def job(step: tuple[str, int]) -> None:
        kind, n = step
        if kind == "click":
            assert feedback is not None
            status, seconds = fire(port, *_feedback_click(feedback, asker, "D" + asker[1:], n), timeout=30)
            with lock:
                acks.append(("click", status, seconds))
            return
        ts, body, headers = _real_question(n)
        with lock:
            sent_at[ts] = time.monotonic()
        status, seconds = fire(port, body, headers, timeout=30)
        with lock:
            acks.append(("event", status, seconds))

    plan: list[tuple[str, int]] = []
    for n in range(args.questions):
        plan.append(("question", n))
        if n % 5 == 4 and feedback is not None:  # a feedback click after every fifth question
            plan.append(("click", n))
    started = time.monotonic()
    with ThreadPoolExecutor(max_workers=args.real_concurrency) as pool:
        list(pool.map(job, plan))
    fired_s = time.monotonic() - started
    asked = len(sent_at)
    deadline = time.monotonic() + args.real_deadline
    while time.monotonic() < deadline:
        if (
            len([p for p in api.calls_of("chat.postMessage") if p.params.get("thread_ts") in sent_at])
            >= asked
        ):
            break
        time.sleep(0.1)
    posts = [p for p in api.calls_of("chat.postMessage") if p.params.get("thread_ts") in sent_at]
    firsts: dict[str, float] = {}
    for post in posts:
        firsts.setdefault(str(post.params["thread_ts"]), post.at)
    replies = [firsts[ts] - sent_at[ts] for ts in firsts]
    last = max(firsts.values()) if firsts else started
    events = [s for kind, _, s in acks if kind == "event"]
    clicks = [s for kind, _, s in acks if kind == "click"]
    bad = [(kind, status) for kind, status, _ in acks if status != 200]
    apologies = sum("SLK-" in json.dumps(p.params, ensure_ascii=False) for p in posts)
    print(
        f"real: {asked} questions + {len(clicks)} feedback clicks at concurrency {args.real_concurrency}, "
        f"{args.workers} workers, answer cache {'on' if args.answer_cache else 'off'}, "
        f"sent in {fired_s:.1f} s; {len(firsts)} answered, {apologies} apologies, "
        f"non-200 acks {bad or 'none'}"
    )
    figures = {
        "ack_p50": percentile(events, 0.50),
        "ack_p99": percentile(events, 0.99),
        "click_ack_p50": percentile(clicks, 0.50) if clicks else float("nan"),
        "click_ack_p99": percentile(clicks, 0.99) if clicks else float("nan"),
        "reply_p50": percentile(replies, 0.50) if replies else float("nan"),
        "reply_p95": percentile(replies, 0.95) if replies else float("nan"),
        "answers_per_s": len(firsts) / (last - started) if firsts and last > started else float("nan"),
        "answered": float(len(firsts)),
        "asked": float(asked),
    }
    ok = not bad and len(firsts) == asked and max(events + clicks) < 3.0
    return figures, ok


def _print_side_by_side(fake: dict[str, float], real: dict[str, float], args: argparse.Namespace) -> None:
    def ms(v: float | None) -> str:
        return "-" if v is None or v != v else f"{v * 1000:.0f} ms"

    def sec(v: float | None) -> str:
        return "-" if v is None or v != v else f"{v:.2f} s"

    rows = [
        ("event ack p50", ms(fake["ack_p50"]), ms(real["ack_p50"])),
        ("event ack p99", ms(fake["ack_p99"]), ms(real["ack_p99"])),
        ("click ack p50", "-", ms(real.get("click_ack_p50"))),
        ("click ack p99", "-", ms(real.get("click_ack_p99"))),
        ("time-to-reply p50", sec(fake["reply_p50"]), sec(real["reply_p50"])),
        ("time-to-reply p95", sec(fake["reply_p95"]), sec(real["reply_p95"])),
        ("answers per second", f"{fake['answers_per_s']:.1f}", f"{real['answers_per_s']:.2f}"),
        (
            "answered / asked",
            f"{fake['answered']:.0f}/{fake['asked']:.0f}",
            f"{real['answered']:.0f}/{real['asked']:.0f}",
        ),
    ]
    print()
    print(f"{'':22}{'fake turn (' + str(int(args.turn_ms)) + ' ms)':>22}{'real turns (served)':>22}")
    for name, a, b in rows:
        print(f"{name:22}{a:>22}{b:>22}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--events", type=int, default=500)
    parser.add_argument("--concurrency", type=int, default=50)
    parser.add_argument("--duplicates", type=float, default=0.1, help="share of re-deliveries (0.1 = ~10%%)")
    parser.add_argument("--turn-ms", type=float, default=20.0, help="time the in-bench turn takes")
    parser.add_argument("--workers", type=int, default=16, help="turn threads of the app")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--real", action="store_true", help="also drive dasar serve slack with real turns")
    parser.add_argument("--questions", type=int, default=40, help="--real: questions asked")
    parser.add_argument("--real-concurrency", type=int, default=10, help="--real: deliveries in flight")
    parser.add_argument(
        "--real-deadline", type=float, default=600.0, help="--real: seconds to wait for answers"
    )
    parser.add_argument("--kb", type=Path, default=None, help="--real: an existing knowledge base")
    parser.add_argument("--embedder", default="hashing-256", help="--real: the knowledge base's embedder")
    parser.add_argument(
        "--answer-cache",
        action="store_true",
        help="--real: keep the answer cache on (default off: every question is composed, the worst case)",
    )
    args = parser.parse_args(argv)
    if not 1 <= args.events <= 5000 or not 1 <= args.concurrency <= 200:
        parser.error("--events must be 1..5000 and --concurrency 1..200")
    if not 1 <= args.questions <= 1000 or not 1 <= args.real_concurrency <= 100:
        parser.error("--questions must be 1..1000 and --real-concurrency 1..100")
    fake, ok = run_fake(args)
    if not args.real:
        return 0 if ok else 1
    real, real_ok = run_real(args)
    _print_side_by_side(fake, real, args)
    print(
        "REAL RESULT         :",
        "PASS" if real_ok else "FAIL",
        "(every question answered, every ack 200 < 3 s)",
    )
    return 0 if ok and real_ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
