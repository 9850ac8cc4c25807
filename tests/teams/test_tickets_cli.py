"""``dasar tickets list|show|report`` over a small ticket database (JSON, table and HTML outputs)."""

from __future__ import annotations

import argparse
import datetime as dt
import json

from bot.tickets_cli import register_ticket_commands
from tests.teams.harness import SLACK_REQUESTER, T0, FakeClock, open_ticket
from tickets import SqliteTicketStore, ThreadRef


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
        page.count("<svg") == 4
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
