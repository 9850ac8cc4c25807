"""The feedback section of the ticket report: rates by answer status and confidence band, answers marked
wrong, and the HTML chart -- computed over a real SQLite store."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from tests.tickets.conftest import T0, FakeClock
from tests.tickets.contract import feedback
from tickets import SqliteTicketStore
from tickets.model import Feedback
from tickets.reporting import build_feedback_report, feedback_html, feedback_report_json


def test_feedback_report_rates_by_status_and_band_and_lists_wrong_answers(
    tmp_path: Path, clock: FakeClock
) -> None:
    with SqliteTicketStore(tmp_path / "t.db", clock=clock) as store:
        store.record_feedback(feedback("R-1", "U1", "helpful"))
        store.record_feedback(feedback("R-1", "U2", "helpful"))
        clock.advance(minutes=1)
        store.record_feedback(feedback("R-2", "U1", "not_helpful", band="low", comment="salah tarif"))
        clock.advance(minutes=1)
        store.record_feedback(
            feedback("R-3", "U3", "not_helpful", status="abstained", band="", platform="teams")
        )
        store.record_feedback(feedback("R-4", "U3", "helpful", band="medium"))
        rep = build_feedback_report(store, T0 + dt.timedelta(hours=1))
    data = feedback_report_json(rep)
    assert data["overall"] == {
        "group": "all",
        "helpful": 3,
        "not_helpful": 2,
        "total": 5,
        "helpful_rate": 0.6,
    }
    assert [(r["group"], r["helpful"], r["not_helpful"]) for r in data["by_status"]] == [
        ("answered", 3, 1),
        ("abstained", 0, 1),
    ]
    assert [(r["group"], r["helpful_rate"]) for r in data["by_confidence_band"]] == [
        ("high", 1.0),
        ("medium", 1.0),
        ("low", 0.0),
        ("", 0.0),
    ]
    assert [(w["answer_ref"], w["platform"], w["comment_masked"]) for w in data["marked_wrong"]] == [
        ("R-3", "teams", None),
        ("R-2", "slack", "salah tarif"),
    ]
    page = feedback_html(rep)
    assert page.count("<svg") == 2 and "by confidence band" in page
    assert "<td>R-2</td>" in page and "<td>salah tarif</td>" in page
    assert 'fill="#c62828"' in page and "3 / 1 (75% helpful)" in page


def test_feedback_html_escapes_comments_and_handles_no_feedback(tmp_path: Path, clock: FakeClock) -> None:
    with SqliteTicketStore(tmp_path / "t.db", clock=clock) as store:
        assert "No answer was marked wrong." in feedback_html(build_feedback_report(store, T0))
        store.record_feedback(feedback("R-<1>", "U1", "not_helpful", comment="<script>x</script>"))
        page = feedback_html(build_feedback_report(store, T0))
    assert "<script>" not in page and "&lt;script&gt;" in page and "R-&lt;1&gt;" in page


def test_feedback_record_rejects_unknown_verdict_and_missing_reference() -> None:
    with pytest.raises(ValueError, match="unknown feedback verdict"):
        feedback("R", "U", "meh")
    with pytest.raises(ValueError, match="answer reference"):
        Feedback("", "U", "slack", "T", "v", "answered", "high", "helpful")


def test_feedback_section_goes_into_the_ticket_report_page_and_terminal_lines(
    tmp_path: Path, clock: FakeClock
) -> None:
    from tickets.reporting import feedback_lines, with_feedback_section

    with SqliteTicketStore(tmp_path / "t.db", clock=clock) as store:
        store.record_feedback(feedback("R-2", "U1", "not_helpful", band="low", comment="salah tarif"))
        rep = build_feedback_report(store, T0)
    page = with_feedback_section("<html><body><h1>dasar ticket report</h1></body></html>", rep)
    assert page.index("<h1>") < page.index('<section id="feedback">') < page.index("</body>")
    lines = feedback_lines(rep)
    assert lines[0] == "answer feedback: 1 verdict(s), 0 helpful, 1 not helpful"
    assert lines[-1].startswith("  marked wrong: R-2 (slack, answered, low, ") and lines[-1].endswith(
        "salah tarif"
    )
