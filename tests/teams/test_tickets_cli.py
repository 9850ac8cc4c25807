"""``dasar tickets list|show|report`` over a small ticket database (JSON, table and HTML outputs)."""

from __future__ import annotations

import argparse
import datetime as dt
import json

from bot.tickets_cli import register_ticket_commands
from tests.teams.harness import SLACK_REQUESTER, T0, FakeClock, open_ticket
from tickets import DeliveryUncertain, Feedback, OutboxMessage, SqliteTicketStore, ThreadRef


def _cli(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="dasar")
    register_ticket_commands(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    return int(args.func(args))


def _db(tmp_path):
    clock = FakeClock()
    store = SqliteTicketStore(tmp_path / "t.sqlite", clock=clock)
    a = open_ticket(store)  # T-000001, topic "PPh 23 jasa angkutan"
    clock.advance(hours=1)
    b = open_ticket(store, ThreadRef("slack", "T0SNR", "C0TAXQ", "2"), SLACK_REQUESTER)
    clock.advance(hours=1)
    store.claim(a.id, "tax.analyst@sinarnusantara.co.id")
    clock.advance(hours=3)
    store.answer(a.id, "tax.analyst@sinarnusantara.co.id", "4%")
    store.shutdown()
    return tmp_path / "t.sqlite", a, b


def test_report_json_and_html(tmp_path, capsys) -> None:
    db, _a, b = _db(tmp_path)
    now = (T0 + dt.timedelta(hours=10)).isoformat()
    html_path = tmp_path / "report.html"
    assert (
        _cli(
            [
                "tickets",
                "--tickets-db",
                str(db),
                "--now",
                now,
                "report",
                "--json",
                "--html",
                str(html_path),
                "--questions",
                "40",
            ]
        )
        == 0
    )
    rep = json.loads(capsys.readouterr().out)
    aging = {x["status"]: x for x in rep["aging"]}
    assert aging["open"] == {
        "status": "open",
        "count": 1,
        "oldest_age_seconds": 9 * 3600.0,
        "oldest_ticket_id": b.id,
    }
    assert aging["answered"]["count"] == 1 and aging["answered"]["oldest_age_seconds"] == 5 * 3600.0
    assert rep["total"] == 2 and rep["escalation_rate"] == 0.05
    assert rep["by_reason"][0] == {"reason": "no_source", "count": 2, "share": 1.0}
    assert rep["top_topics"] == [{"topic": "pph 23 jasa angkutan", "count": 2}]
    assert rep["median_time_to_answer_seconds"] == 5 * 3600.0
    page = html_path.read_text(encoding="utf-8")
    assert (
        page.count("<svg") == 6  # 4 ticket charts + 2 feedback charts
        and "<script" not in page
        and "http://" not in page.replace('xmlns="http://www.w3.org/2000/svg"', "")
    )
    assert "pph 23 jasa angkutan" in page and "5.0%" in page


def test_list_and_show(tmp_path, capsys) -> None:
    db, a, b = _db(tmp_path)
    now = (T0 + dt.timedelta(hours=10)).isoformat()
    assert _cli(["tickets", "--tickets-db", str(db), "--now", now, "list", "--status", "open", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert [(t["ticket_id"], t["status"], t["age_in_status_seconds"]) for t in listed] == [
        (b.id, "open", 32400.0)
    ]
    assert _cli(["tickets", "--tickets-db", str(db), "--now", now, "show", a.id, "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert [e["kind"] for e in shown["events"]] == ["opened", "claimed", "answered"]
    assert shown["requester"]["email"] == "ap.clerk@sinarnusantara.co.id"
    assert _cli(["tickets", "--tickets-db", str(db), "show", "T-000099"]) == 2
    assert "T-000099 not found" in capsys.readouterr().err.replace("\n", " ")
    assert _cli(["tickets", "--tickets-db", str(db), "--now", now, "report"]) == 0
    table = capsys.readouterr().out
    assert "escalation rate: unknown (pass --questions)" in table
    assert "median time to answer: 5h 0m over 1 answered" in table


def test_report_carries_answer_feedback(tmp_path, capsys) -> None:
    db, _a, _b = _db(tmp_path)
    store = SqliteTicketStore(db, clock=FakeClock(T0 + dt.timedelta(hours=6)))
    common = {"platform": "slack", "tenant": "T0SNR", "corpus_version": "c-42"}
    store.record_feedback(
        Feedback("ans-1", "U1", answer_status="answered", confidence_band="high", verdict="helpful", **common)
    )
    store.record_feedback(
        Feedback(
            "ans-2",
            "U2",
            answer_status="partial",
            confidence_band="low",
            verdict="not_helpful",
            comment_masked="tarifnya salah, [EMAIL_1]",
            **common,
        )
    )
    store.shutdown()
    now = (T0 + dt.timedelta(hours=10)).isoformat()
    html_path = tmp_path / "r.html"
    argv = ["tickets", "--tickets-db", str(db), "--now", now, "report", "--json", "--html", str(html_path)]
    assert _cli(argv) == 0
    fb = json.loads(capsys.readouterr().out)["feedback"]
    assert fb["overall"] == {"group": "all", "helpful": 1, "not_helpful": 1, "total": 2, "helpful_rate": 0.5}
    assert [w["answer_ref"] for w in fb["marked_wrong"]] == ["ans-2"]
    assert fb["marked_wrong"][0]["comment_masked"] == "tarifnya salah, [EMAIL_1]"
    page = html_path.read_text(encoding="utf-8")
    assert '<section id="feedback"><h2>Answer feedback</h2>' in page
    assert "2 verdict(s): 1 helpful, 1 not helpful (50% helpful)" in page
    assert "ans-2" in page and "tarifnya salah, [EMAIL_1]" in page
    assert page.index('<section id="feedback">') < page.index("</body>")
    assert _cli(["tickets", "--tickets-db", str(db), "--now", now, "report"]) == 0
    text = capsys.readouterr().out
    assert "answer feedback: 2 verdict(s), 1 helpful, 1 not helpful" in text
    assert "marked wrong: ans-2 (slack, partial, low" in text


def _outbox_db(tmp_path):
    """Ticket 1's card post went out but its response was lost; ticket 2's card post is dead."""
    from tickets import OutboxPolicy

    db = tmp_path / "o.sqlite"
    clock = FakeClock()
    store = SqliteTicketStore(db, clock=clock, policy=OutboxPolicy(max_attempts=1))
    a = open_ticket(store)
    b = open_ticket(store, ThreadRef("slack", "T0SNR", "C0TAXQ", "2"), SLACK_REQUESTER)

    def sender(m: OutboxMessage) -> str:
        if m.ticket_id == a.id:
            raise DeliveryUncertain("POST sent, response lost")
        raise ConnectionError("HTTP 502")

    res = store.outbox.deliver_pending(sender, T0)
    store.shutdown()
    assert res.uncertain == (f"{a.id}:1:tax_team",) and res.dead == (f"{b.id}:1:tax_team",)
    return db, a, b


def test_outbox_lists_uncertain_and_dead_and_redrives(tmp_path, capsys) -> None:
    db, a, b = _outbox_db(tmp_path)
    now = (T0 + dt.timedelta(hours=3)).isoformat()
    base = ["tickets", "--tickets-db", str(db), "--now", now, "outbox"]
    assert _cli([*base, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["pending"], out["uncertain"], out["dead"], out["depth"]) == (0, 1, 1, 1)
    rows = {m["key"]: m for m in out["messages"]}
    ua, db_key = f"{a.id}:1:tax_team", f"{b.id}:1:tax_team"
    assert rows[ua]["status"] == "uncertain" and rows[ua]["attempts"] == 1
    assert rows[db_key]["status"] == "dead" and rows[db_key]["last_error"] == "ConnectionError: HTTP 502"
    assert rows[ua]["age_seconds"] == 3 * 3600.0
    assert "payload" not in rows[ua]
    assert _cli([*base, "--dead", "--json"]) == 0
    assert [m["key"] for m in json.loads(capsys.readouterr().out)["messages"]] == [db_key]
    assert _cli([*base, "--dead"]) == 0
    table = capsys.readouterr().out
    assert "1 dead message(s)" in table and "dead" in table and "uncertain" not in table

    assert _cli([*base, "--redrive", db_key, "--actor", "ops-budi"]) == 0
    assert f"re-driven {db_key}: pending again, attempts reset (was dead after 1 attempt(s))" in (
        capsys.readouterr().out
    )
    store = SqliteTicketStore(db)
    msg = store.outbox.get(db_key)
    assert (msg.status, msg.attempts) == ("pending", 0)
    ev = store.events(b.id)[-1]
    assert (ev.kind, ev.actor, ev.data["was"]) == ("outbox_redriven", "ops-budi", "dead")
    store.shutdown()

    assert _cli([*base, "--redrive", db_key]) == 2  # pending now: nothing to re-drive
    assert "only dead or uncertain messages can be re-driven" in capsys.readouterr().err.replace("\n", " ")
    assert _cli([*base, "--resolve", ua, "--ref", "activity-9", "--actor", "ops-budi"]) == 0
    assert f"resolved {ua}: marked delivered as activity-9" in capsys.readouterr().out
    assert _cli([*base]) == 0
    listing = capsys.readouterr().out
    assert "outbox: 1 pending, 0 uncertain, 0 dead" in listing and "post_card" in listing
