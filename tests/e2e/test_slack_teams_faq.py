"""End to end with the real turn: a Slack question without a source -> "Ask the tax team" -> ticket ->
Teams card -> claim -> answer -> the Slack thread receives the answer -> FAQ proposed, approved, ingested ->
the same Slack question is now answered with the FAQ cited.

Everything runs for real on loopback: the bolt app over HTTP with signed requests, the Teams aiohttp bot with
Bot Framework activities (auth disabled only in this test configuration), a mock Slack Web API and a mock Bot
Connector recording what was posted, the real index (a writable copy of the session index), tickets and
outbox in SQLite.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from pathlib import Path

import pytest

from bot.audit import MemoryAuditLog
from bot.faq import faq_id_for
from bot.settings import Settings
from bot.wiring import Services
from tests.conftest import DIRECTORY
from tests.slack.mock_slack import SIGNING_SECRET, TEAM, MockSlackApi, action_form, event_body, signed_headers
from tests.teams.harness import TAX_CHANNEL, TENANT, data, execute_activity, run, running
from tests.teams.mock_services import MockBotConnector

FINANCE_MANAGER = "U04FINMGR2"  # corpus/directory.yaml
QUESTION = "Apakah biaya langganan aplikasi desain dari vendor Australia dipotong PPh 26 atau kena PPN PMSE?"
TAX_ANSWER = (
    "Untuk langganan aplikasi dari vendor luar negeri yang ditunjuk sebagai pemungut PPN PMSE, PPN dipungut "
    "oleh vendor; tidak ada pemotongan PPh 26 oleh SNR atas langganan standar tanpa lisensi khusus."
)


def _copy_kb(src: Path, dst: Path) -> None:
    with sqlite3.connect(src) as a, sqlite3.connect(dst) as b:
        a.backup(b)


def _post(url: str, body: str, headers: dict[str, str]) -> int:
    import urllib.request

    req = urllib.request.Request(url, data=body.encode(), headers=headers, method="POST")
    with urllib.request.urlopen(req, timeout=10) as resp:
        return resp.status


def _dm(text: str, ts: str) -> dict:
    return {
        "type": "message",
        "channel_type": "im",
        "channel": "D0FINMGR01",
        "user": FINANCE_MANAGER,
        "text": text,
        "ts": ts,
    }


def _buttons(call) -> dict[str, str]:
    out = {}
    for block in call.params.get("blocks", []):
        for element in block.get("elements", []) if block.get("type") == "actions" else []:
            out[element["action_id"]] = element["value"]
    return out


@pytest.mark.slow
def test_no_source_question_travels_to_teams_and_comes_back_as_faq(
    behaviour_kb: Path, tmp_path: Path
) -> None:
    from slack_sdk import WebClient

    from bot.slack.app import build_slack_app
    from bot.teams.app import deps_from_settings

    kb = tmp_path / "kb.sqlite"
    _copy_kb(behaviour_kb, kb)  # a flow test: the hashing-embedder index, not ranking quality
    api = MockSlackApi(members={})
    slack_url = api.start()
    with MockBotConnector() as connector:
        settings = Settings(
            _env_file=None,  # type: ignore[call-arg]
            kb=kb,
            embedder="hashing-256",
            directory=DIRECTORY,
            tickets_db=tmp_path / "tickets.sqlite",
            audit_log=tmp_path / "audit.jsonl",
            faq_dir=tmp_path / "faq",
            slack_bot_token="xoxb-test-token",
            slack_signing_secret=SIGNING_SECRET,
            slack_api_base_url=slack_url,
            slack_workers=2,
            teams_auth_disabled=True,
            teams_service_url=connector.url,
            teams_tax_channel_id=TAX_CHANNEL,
            teams_tenant_id=TENANT,
            teams_journal_db=tmp_path / "journal.sqlite",
            outbox_poll_seconds=3600,
        )
        services = Services(settings)
        turn = services.turn(audit=MemoryAuditLog())
        frontend = build_slack_app(
            settings, turn, web_client=WebClient(token="xoxb-test-token", base_url=slack_url)
        )
        server = frontend.start_http("127.0.0.1", 0)
        try:
            # 1. the question has no source in the knowledge base
            root = "1772500000.000100"
            body = json.dumps(event_body(_dm(QUESTION, root), "EvE2E1"))
            assert _post(server.url, body, signed_headers(body)) == 200
            first = api.wait_for("chat.postMessage", 1, timeout=60)[0]
            assert first.params["thread_ts"] == root
            assert turn.audit.records[0].status in ("abstained", "escalated")
            # 2. the asker presses "Ask the tax team"
            value = _buttons(first)["dasar_escalate"]
            payload = {
                "type": "block_actions",
                # the same workspace as the question: only the asker of this thread may escalate it
                "team": {"id": TEAM, "domain": "snr"},
                "user": {"id": FINANCE_MANAGER, "team_id": TEAM},
                "api_app_id": "A0DASAR",
                "token": "legacy",
                "container": {
                    "type": "message",
                    "message_ts": first.params.get("ts", root),
                    "channel_id": "D0FINMGR01",
                    "is_ephemeral": False,
                },
                "trigger_id": "1.2.3",
                "channel": {"id": "D0FINMGR01", "name": "dm"},
                "message": {
                    "type": "message",
                    "ts": "1772500001.000200",
                    "thread_ts": root,
                    "text": "answer",
                },
                "actions": [
                    {
                        "action_id": "dasar_escalate",
                        "block_id": "dasar_feedback",
                        "value": value,
                        "type": "button",
                        "action_ts": "1772500002.000001",
                        "text": {"type": "plain_text", "text": "x"},
                    }
                ],
            }
            form = action_form(payload)
            assert (
                _post(
                    server.url, form, signed_headers(form, content_type="application/x-www-form-urlencoded")
                )
                == 200
            )
            confirm = api.wait_for("chat.postMessage", 2, timeout=30)[1]
            (ticket,) = turn.tickets.list()
            assert ticket.id in json.dumps(confirm.params) and confirm.params["thread_ts"] == root
            assert ticket.requester.email == "finance.manager@sinarnusantara.co.id"
            assert "<" not in ticket.question_masked or "_" in ticket.question_masked  # masked form only

            # 3-5. Teams: card, claim, answer, relay to the Slack thread, FAQ proposed and approved
            deps = deps_from_settings(settings, services=services, turn=turn)
            doc_id = faq_id_for(ticket.id)

            async def until(predicate, timeout: float = 30.0):
                """The bot's own outbox worker may deliver before our flush does: wait for the effect."""
                deadline = time.monotonic() + timeout
                while not predicate():
                    assert time.monotonic() < deadline, "timed out waiting for the outbox"
                    await bot_ref[0].flush()
                    await asyncio.sleep(0.05)

            bot_ref: list = []

            async def teams() -> None:
                async with running(settings, deps) as bot:
                    bot_ref.append(bot)
                    await until(lambda: connector.posts())
                    card_id = connector.posts()[0].activity_id
                    url = connector.url
                    status, _ = await bot.post(
                        execute_activity("tax.lead", "claim", data("claim", ticket.id), url, card_id)
                    )
                    assert status == 200
                    status, _ = await bot.post(
                        execute_activity(
                            "tax.lead",
                            "answer",
                            data("answer", ticket.id, answer_text=TAX_ANSWER, answer_sources="UU 7/2021"),
                            url,
                            card_id,
                        )
                    )
                    assert status == 200
                    await until(lambda: len(api.calls_of("chat.postMessage")) >= 3)
                    status, _ = await bot.post(
                        execute_activity(
                            "tax.lead", "propose_faq", data("propose_faq", ticket.id), url, card_id
                        )
                    )
                    assert status == 200
                    approve = {"dasar": 1, "verb": "approve_faq", "doc_id": doc_id}
                    status, _ = await bot.post(execute_activity("tax.lead", "approve_faq", approve, url))
                    assert status == 200

            run(teams)
            card = connector.posts()[0].body["attachments"][0]["content"]
            assert ticket.id in json.dumps(card)
            relayed = api.wait_for("chat.postMessage", 3, timeout=30)[2]
            assert relayed.params["thread_ts"] == root and relayed.params["channel"] == "D0FINMGR01"
            assert "PMSE" in json.dumps(relayed.params)
            assert services.store.get_document(doc_id) is not None
            assert services.store.get_document(doc_id).meta.status == "in_force"  # type: ignore[union-attr]

            # 6. the same question, asked again in a new thread, is answered from the approved FAQ
            root2 = "1772600000.000100"
            body = json.dumps(event_body(_dm(QUESTION, root2), "EvE2E2"))
            assert _post(server.url, body, signed_headers(body)) == 200
            deadline = time.monotonic() + 60
            answer = None
            while time.monotonic() < deadline and answer is None:
                posted = [c for c in api.calls_of("chat.postMessage") if c.params.get("thread_ts") == root2]
                answer = posted[0] if posted else None
                time.sleep(0.05)
            assert answer is not None
            assert doc_id in json.dumps(answer.params) or "FAQ-" in json.dumps(answer.params)
            last = turn.audit.records[-1]
            assert last.status == "answered" and doc_id in last.cited_documents
        finally:
            frontend.close()
            api.stop()
            services.tickets.shutdown()
