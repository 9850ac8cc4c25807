"""Records, id format, timestamps, evidence merging and the outbox retry policy."""

from __future__ import annotations

import datetime as dt

import pytest

from tickets import Evidence, OutboxPolicy, ThreadRef, outbox_key
from tickets.model import format_ticket_id, text_to_ts, ts_to_text
from tickets.reporting import compute_report, normalise_topic
from tickets.sql import load_schema, split_statements


def test_thread_key_and_ids() -> None:
    assert ThreadRef("teams", "tn", "19:abc", "m1").key == "teams:tn:19:abc:m1"
    assert format_ticket_id(42) == "T-000042" and format_ticket_id(1234567) == "T-1234567"
    assert outbox_key("T-000001", 3, "requester") == "T-000001:3:requester"


def test_timestamps_roundtrip_and_reject_naive() -> None:
    wib = dt.timezone(dt.timedelta(hours=7))
    ts = dt.datetime(2025, 1, 31, 15, 0, 0, 123, tzinfo=wib)
    assert ts_to_text(ts) == "2025-01-31T08:00:00.000123Z"
    assert text_to_ts(ts_to_text(ts)) == ts
    with pytest.raises(ValueError, match="timezone-aware"):
        ts_to_text(dt.datetime(2025, 1, 31))


def test_evidence_merge_keeps_order_and_reports_new() -> None:
    a = Evidence.of(claims=[{"text": "a"}, {"text": "b"}], citations=[{"doc": "x", "loc": 1}])
    b = Evidence.of(claims=[{"text": "b"}, {"text": "c"}], citations=[{"loc": 1, "doc": "x"}])
    merged, new = a.merge(b)
    assert [c["text"] for c in merged.claims] == ["a", "b", "c"]
    assert new == Evidence.of(claims=[{"text": "c"}])
    assert merged.citations == ({"doc": "x", "loc": 1},)
    assert Evidence().is_empty() and not new.is_empty()
    assert Evidence.from_json(merged.to_json()) == merged


def test_backoff_policy_schedule() -> None:
    p = OutboxPolicy(base_seconds=30, cap_seconds=300, max_attempts=8)
    assert [p.delay(n).total_seconds() for n in range(1, 7)] == [30, 60, 120, 240, 300, 300]


def test_schema_splits_into_statements() -> None:
    stmts = split_statements(load_schema())
    assert len(stmts) == 14
    assert stmts[0].startswith("CREATE TABLE IF NOT EXISTS ticket_counters")
    assert stmts[-2].startswith("CREATE TABLE IF NOT EXISTS answer_feedback")
    assert not any(s.lstrip().startswith("--") for s in stmts)


def test_empty_report_and_topic_normalisation() -> None:
    now = dt.datetime(2025, 1, 1, tzinfo=dt.UTC)
    rep = compute_report([], {}, now)
    assert rep.total == 0 and rep.median_time_to_answer_seconds is None and rep.top_topics == ()
    assert all(a.count == 0 and a.oldest_age_seconds is None for a in rep.aging)
    assert normalise_topic("  PPh 21\tBonus ") == "pph 21 bonus"
