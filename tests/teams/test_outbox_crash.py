"""The outbox survives a crash between the Bot Connector POST and ``mark_delivered``: no duplicate card."""

from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
import sys
from pathlib import Path

from bot.settings import REPO_ROOT, SAMPLE_DIRECTORY
from tests.teams.crash_worker import CRASH_EXIT
from tests.teams.harness import T0, TAX_CHANNEL, TENANT, open_ticket
from tests.teams.mock_services import MockBotConnector
from tickets import SqliteTicketStore


def _worker(tmp_path: Path, service_url: str, mode: str, now: dt.datetime) -> subprocess.CompletedProcess:
    env = {
        "PATH": os.environ.get("PATH", ""),
        "PYTHONPATH": str(REPO_ROOT),
        "DASAR_SETTINGS": str(tmp_path / "no-such.env"),
        "DASAR_TICKETS_DB": str(tmp_path / "tickets.sqlite"),
        "DASAR_TEAMS_JOURNAL_DB": str(tmp_path / "journal.sqlite"),
        "DASAR_TEAMS_AUTH_DISABLED": "true",  # test configuration only
        "DASAR_TEAMS_SERVICE_URL": service_url,
        "DASAR_TEAMS_TAX_CHANNEL_ID": TAX_CHANNEL,
        "DASAR_TEAMS_TENANT_ID": TENANT,
        "DASAR_DIRECTORY": str(SAMPLE_DIRECTORY),
    }
    return subprocess.run(
        [sys.executable, "-m", "tests.teams.crash_worker", mode, now.isoformat()],
        cwd=REPO_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_killed_worker_restarts_without_posting_a_second_card(tmp_path) -> None:
    store = SqliteTicketStore(tmp_path / "tickets.sqlite", clock=lambda: T0)
    ticket = open_ticket(store)
    key = f"{ticket.id}:1:tax_team"
    with MockBotConnector() as connector:
        crashed = _worker(tmp_path, connector.url, "crash", T0)
        assert crashed.returncode == CRASH_EXIT, crashed.stderr
        assert len(connector.posts()) == 1  # the POST happened ...
        msg = store.outbox.get(key)
        assert (msg.status, msg.external_ref) == ("pending", None)  # ... but was never marked delivered

        # Restart while the dead worker's lease still holds: nothing is due, nothing is sent.
        early = _worker(tmp_path, connector.url, "normal", T0 + dt.timedelta(seconds=60))
        assert json.loads(early.stdout) == {"delivered": [], "failed": []}

        # After the lease the message is redelivered with the same key -> the journal turns it into an update.
        later = _worker(tmp_path, connector.url, "normal", T0 + dt.timedelta(minutes=5))
        assert later.returncode == 0, later.stderr
        assert json.loads(later.stdout) == {"delivered": [key], "failed": []}
        posts, puts = connector.posts(), connector.puts()
    assert len(posts) == 1
    assert [p.activity_id for p in puts] == [posts[0].activity_id]
    assert puts[0].body["channelData"]["dasar"]["outbox_key"] == key
    delivered = store.outbox.get(key)
    assert (delivered.status, delivered.external_ref) == ("delivered", posts[0].activity_id)
    assert store.outbox.card_ref(ticket.id) == posts[0].activity_id
