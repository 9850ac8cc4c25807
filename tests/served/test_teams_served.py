"""``dasar serve teams`` as a process: Bot Framework activities in, replies through a stand-in Bot Connector.

Authentication is disabled only by the explicit test setting (``DASAR_TEAMS_AUTH_DISABLED=true``).
"""

from __future__ import annotations

import json
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from tests.served.conftest import base_env, served
from tests.support.ports import free_port
from tests.teams.harness import AAD, TAX_CHANNEL, TENANT, text_activity
from tests.teams.mock_services import MockBotConnector
from tests.tickets.conftest import pg_dsn, pg_uri  # noqa: F401 (fixtures)

#: A sentence of UU 7/2021 (Pasal 7 UU PPN as amended): the VAT rate from 1 April 2022.
PPN_QUOTE = "sebesar 11% (sebelas persen) yang mulai berlaku pada tanggal 1 April 2022"
#: The tax-team-only memo (corpus/internal/memo-pph26-sg-software.md, access: [tax-team]).
MEMO_NUMBER = "SNR-MEMO-TAX-2026-002"


def _env(tmp_path: Path, kb: Path, connector: MockBotConnector, port: int) -> dict[str, str]:
    return base_env(
        tmp_path,
        kb,
        DASAR_TEAMS_AUTH_DISABLED="true",  # test configuration only
        DASAR_TEAMS_SERVICE_URL=connector.url,
        DASAR_TEAMS_TAX_CHANNEL_ID=TAX_CHANNEL,
        DASAR_TEAMS_TENANT_ID=TENANT,
        DASAR_TEAMS_JOURNAL_DB=str(tmp_path / "journal.sqlite"),
        DASAR_TEAMS_PORT=str(port),
        DASAR_OUTBOX_POLL_SECONDS="3600",
    )


def _post(port: int, activity: dict, log: Path | None = None, timeout: float = 240) -> int:
    req = urllib.request.Request(
        f"http://127.0.0.1:{port}/api/messages",
        data=json.dumps(activity).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            return resp.status
    except urllib.error.HTTPError as exc:
        tail = log.read_text()[-3000:] if log is not None and log.exists() else ""
        raise AssertionError(f"HTTP {exc.code} from the served bot: {tail}") from None


def _member(user: str) -> dict[str, str]:
    return {"id": f"29:{user}", "name": user, "aadObjectId": AAD[user]}


def _everything(body: dict[str, Any]) -> str:
    """All a posted activity shows: its text, card attachments and citation entities."""
    return json.dumps(body, ensure_ascii=False)


def test_served_teams_answers_a_personal_question_with_a_quote(served_kb: Path, tmp_path: Path) -> None:
    """Finding: every personal or channel message returned HTTP 500 ('Turn' object is not callable)."""
    port = free_port()
    log = tmp_path / "teams.log"
    chat = "a:1personal-ap-clerk"
    with MockBotConnector() as connector:
        env = _env(tmp_path, served_kb, connector, port)
        with served(["serve", "teams", "--port", str(port)], env, port, log):
            question = "Berapa tarif PPN yang berlaku sejak 1 April 2022?"
            assert _post(port, text_activity("ap.clerk", question, connector.url, chat), log) == 201
            (reply,) = connector.wait_for_posts(chat, 1)
    assert PPN_QUOTE in _everything(reply.body)  # the quote sits under its claim in the answer card
    assert reply.body["attachments"][0]["contentType"] == "application/vnd.microsoft.card.adaptive"
    assert reply.body["entities"][0]["additionalType"] == ["AIGeneratedContent"]
    assert connector.member_lookups() == []  # a personal chat reaches the asker only


def test_served_teams_group_chat_gets_only_what_every_member_may_read(
    served_kb: Path, tmp_path: Path
) -> None:
    """Finding: a tax-team member's question in a group chat posted the tax-team-only memo to everyone."""
    port = free_port()
    log = tmp_path / "teams.log"
    group = "19:group-finance-and-tax@thread.v2"
    members = {group: [_member("tax.lead"), _member("ap.clerk"), {"id": "28:dasar-bot", "name": "dasar"}]}
    question = "What PPh 26 rate applies to software licence fees paid to the Singapore vendor?"
    with MockBotConnector(members=members) as connector:
        env = _env(tmp_path, served_kb, connector, port)
        with served(["serve", "teams", "--port", str(port)], env, port, log):
            # the tax lead alone (personal chat) is answered from the memo ...
            personal = "a:1personal-tax-lead"
            assert _post(port, text_activity("tax.lead", question, connector.url, personal), log) == 201
            (alone,) = connector.wait_for_posts(personal, 1)
            # ... but in the group chat with the AP clerk the memo is not quoted
            activity = text_activity(
                "tax.lead", question, connector.url, group, conversation_type="groupChat"
            )
            assert _post(port, activity, log) == 201
            posted = connector.wait_for_posts(group, 2)  # the answer, then the "sent privately" notice
    assert MEMO_NUMBER in _everything(alone.body)
    assert [c.conversation_id for c in connector.member_lookups()] == [group]
    # the tax lead's full answer went to a personal chat created for them, not to the group
    (created,) = connector.created_conversations()
    assert [m["aadObjectId"] for m in created.body["members"]] == [AAD["tax.lead"]]
    private = [p for p in connector.posts() if p.conversation_id == created.conversation_id]
    assert private and MEMO_NUMBER in _everything(private[0].body)
    group_text = " ".join(_everything(p.body) for p in posted)
    assert MEMO_NUMBER not in group_text
    assert "Singapore" not in group_text or "memo" not in group_text.lower()


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_served_teams_ticket_replies_are_masked_and_secrets_refused(
    served_kb: Path, tmp_path: Path, backend: str, request: pytest.FixtureRequest
) -> None:
    """Findings: Teams stored a requester's reply to a ticket unmasked, and a secret in it was not refused.

    Both ticket stores: SQLite, and PostgreSQL from the pgserver wheel (``DASAR_TICKETS_URL``).
    """
    from tests.teams.harness import open_ticket
    from tickets import Requester, ThreadRef
    from tickets.factory import open_ticket_store

    url = request.getfixturevalue("pg_dsn") if backend == "postgres" else None
    store = open_ticket_store(tmp_path / "tickets.sqlite", url)
    chat = "a:1personal-ap-clerk-ticket"
    requester = Requester(
        principal_id=f"teams:{TENANT}:{AAD['ap.clerk']}",
        platform="teams",
        tenant=TENANT,
        user_id=AAD["ap.clerk"],
        email="ap.clerk@sinarnusantara.co.id",
        display_name="AP Clerk SNR",
    )
    ticket = open_ticket(store, ThreadRef("teams", TENANT, chat, chat), requester)  # type: ignore[arg-type]
    store.claim(ticket.id, "tax.analyst@sinarnusantara.co.id")
    store.answer(ticket.id, "tax.analyst@sinarnusantara.co.id", "Tarifnya 4%.", [])
    nik, account, phone = "3174012503900007", "1234567890", "081234567890"
    port = free_port()
    log = tmp_path / "teams.log"
    with MockBotConnector() as connector:
        env = _env(tmp_path, served_kb, connector, port)
        if url:
            env["DASAR_TICKETS_URL"] = url
        with served(["serve", "teams", "--port", str(port)], env, port, log):

            def own() -> list[str]:  # the turn's replies in the chat (not the relayed tax-team answer)
                texts = [p.body.get("text") or "" for p in connector.posts() if p.conversation_id == chat]
                return [t for t in texts if not t.startswith("*Jawaban Tim Pajak")]

            reply = f"NIK vendor {nik}, rekening BCA {account}, telepon {phone}."
            assert _post(port, text_activity("ap.clerk", reply, connector.url, chat), log) == 201
            # the reply comes after the HTTP response: wait for it
            connector.wait_until(lambda: len(own()) >= 1, "the follow-up confirmation")
            confirmations = [t for t in own() if ticket.id in t]
            secret = "password: Sinar#2026rahasia untuk portal DJP"
            assert _post(port, text_activity("ap.clerk", secret, connector.url, chat), log) == 201
            connector.wait_until(lambda: len(own()) >= 2, "the refusal")
            texts = own()
    stored = json.dumps([e.data for e in store.events(ticket.id)], ensure_ascii=False, default=str)
    assert "NIK vendor" in stored  # the reply was recorded ...
    for raw in (nik, account, phone, "Sinar#2026rahasia"):
        assert raw not in stored  # ... masked, and the secret never
    assert confirmations, texts
    refusal = texts[-1]
    assert "Sinar#2026rahasia" not in " ".join(texts)
    assert "password" in refusal.lower() or "sandi" in refusal.lower(), texts


def _actions(node: Any) -> list[dict[str, Any]]:
    """Every Action.Execute/Submit in a card, however deeply nested."""
    found: list[dict[str, Any]] = []
    if isinstance(node, dict):
        if str(node.get("type", "")).startswith("Action.") and "data" in node:
            found.append(node)
        for value in node.values():
            found.extend(_actions(value))
    elif isinstance(node, list):
        for item in node:
            found.extend(_actions(item))
    return found


def test_served_teams_ask_the_tax_team_button_opens_a_ticket_for_the_asker(
    served_kb: Path, tmp_path: Path
) -> None:
    """The answer card's "Ask the tax team" escalates the asker's own question, with its evidence."""
    from tests.teams.harness import execute_activity
    from tickets.factory import open_ticket_store

    port = free_port()
    log = tmp_path / "teams.log"
    chat = "a:1personal-ap-clerk-escalate"
    with MockBotConnector() as connector:
        env = _env(tmp_path, served_kb, connector, port)
        with served(["serve", "teams", "--port", str(port)], env, port, log):
            question = "Berapa tarif PPN yang berlaku sejak 1 April 2022?"
            assert _post(port, text_activity("ap.clerk", question, connector.url, chat), log) == 201
            (answer,) = connector.wait_for_posts(chat, 1)
            card = answer.body["attachments"][0]["content"]
            assert "ask_tax_team" in json.dumps(card)
            button = next(
                a
                for a in _actions(card)
                if (a.get("verb") or a.get("data", {}).get("verb")) == "ask_tax_team"
            )
            click = execute_activity("ap.clerk", "ask_tax_team", button["data"], connector.url)
            click["conversation"].update({"id": chat, "conversationType": "personal", "isGroup": False})
            assert _post(port, click, log) == 200
    store = open_ticket_store(tmp_path / "tickets.sqlite", None)
    tickets = store.list()
    assert len(tickets) == 1
    (ticket,) = tickets
    assert "tarif PPN" in ticket.question_masked
    assert ticket.requester.user_id == AAD["ap.clerk"]
    assert ticket.evidence.citations or ticket.evidence.candidates


def test_served_teams_responds_at_once_then_types_then_answers(served_kb: Path, tmp_path: Path) -> None:
    """Finding: questions ran inside the HTTP request, where the Bot Service gives up after 10 to 15 s.

    The stand-in connector holds its response to the typing indicator: the bot's HTTP response still
    comes back (an inline answer could not: it would wait behind the held typing call), no answer exists
    yet, and the answer follows once the typing call completes.
    """
    port = free_port()
    log = tmp_path / "teams.log"
    chat = "a:1personal-ap-clerk-async"
    gate = threading.Event()
    with MockBotConnector() as connector:
        connector.state.typing_gate = gate
        env = _env(tmp_path, served_kb, connector, port)
        with served(["serve", "teams", "--port", str(port)], env, port, log):
            question = "Berapa tarif PPN yang berlaku sejak 1 April 2022?"
            started = time.monotonic()
            assert (
                _post(port, text_activity("ap.clerk", question, connector.url, chat), log, timeout=30) == 201
            )
            responded = time.monotonic() - started
            at_response = [p for p in connector.posts() if p.conversation_id == chat]
            connector.wait_until(lambda: len(connector.typings()) == 1, "the typing indicator")
            gate.set()
            (answer,) = connector.wait_for_posts(chat, 1)
            answered = time.monotonic() - started
    assert at_response == []
    calls = [c for c in connector.calls if c.conversation_id == chat]
    assert [c.body["type"] for c in calls] == ["typing", "message"]
    assert PPN_QUOTE in _everything(answer.body)
    assert responded < answered
    print(f"teams served: HTTP response {responded * 1000:.0f} ms, answer posted {answered * 1000:.0f} ms")


def test_served_teams_answers_exactly_once_through_connector_faults(served_kb: Path, tmp_path: Path) -> None:
    """A 500, a 429 and a lost response from the Bot Connector: each question gets exactly one answer."""
    port = free_port()
    log = tmp_path / "teams.log"
    question = "Berapa tarif PPN yang berlaku sejak 1 April 2022?"
    with MockBotConnector() as connector:
        env = _env(tmp_path, served_kb, connector, port)
        with served(["serve", "teams", "--port", str(port)], env, port, log):
            for chat, fault in (("a:chat-500", "500"), ("a:chat-429", "429"), ("a:chat-lost", "lost")):
                if fault == "lost":
                    connector.state.drop_post_responses = 1
                else:
                    connector.state.fail_posts = [int(fault)]
                assert _post(port, text_activity("ap.clerk", question, connector.url, chat), log) == 201
                connector.wait_for_posts(chat, 1)
            # the bot has finished with all three (its graceful stop drains accepted answers) ...
    # ... and each chat holds exactly one answer, with its quote
    for chat in ("a:chat-500", "a:chat-429", "a:chat-lost"):
        (answer,) = [p for p in connector.posts() if p.conversation_id == chat]
        assert PPN_QUOTE in _everything(answer.body)
    assert sorted(r.method for r in connector.refused()) == ["REFUSED 429", "REFUSED 500"]
    assert connector.state.drop_post_responses == 0
    assert "response lost" in log.read_text()
