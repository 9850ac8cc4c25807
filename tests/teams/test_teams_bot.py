"""The Teams front end driven through its real aiohttp endpoint with Bot Framework activities.

A local mock Bot Connector (the activities' ``serviceUrl``) records every card post and update, a mock
Slack Web API records relays.  Authentication is disabled only through the test settings.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from slack_sdk import WebClient

from bot.teams import cards
from bot.teams import strings as S
from bot.teams.app import build_teams_app
from bot.teams.errors import TeamsConfigError
from bot.teams.relay import SlackWebRelay
from tests.teams.harness import (
    SLACK_THREAD,
    TAX_CHANNEL,
    FakeClock,
    data,
    execute_activity,
    make_deps,
    make_settings,
    open_ticket,
    run,
    running,
    submit_activity,
    text_activity,
)
from tests.teams.mock_services import MockBotConnector, MockSlackWebApi
from tickets import Requester, ThreadRef


@pytest.fixture()
def connector():
    with MockBotConnector() as mock:
        yield mock


@pytest.fixture()
def slack():
    with MockSlackWebApi() as mock:
        yield mock


@pytest.fixture()
def clock() -> FakeClock:
    return FakeClock()


def _card(activity: dict) -> dict:
    (att,) = activity["attachments"]
    assert att["contentType"] == cards.CARD_CONTENT_TYPE
    return att["content"]


def _deps(
    tmp_path: Path, connector: MockBotConnector, clock: FakeClock, slack: MockSlackWebApi | None = None, **kw
):
    relays = {"slack": SlackWebRelay(WebClient(token="xoxb-test", base_url=slack.url))} if slack else {}
    return make_deps(tmp_path, connector.url, clock, relays=relays, **kw)


APP_ID = "00000000-0000-0000-0000-00000000a99"


def _auth_settings(tmp_path: Path, connector: MockBotConnector):
    """Settings with Bot Framework authentication on (app id and password configured)."""
    from pydantic import SecretStr

    return make_settings(tmp_path, connector.url).model_copy(
        update={
            "teams_auth_disabled": False,
            "teams_app_id": APP_ID,
            "teams_app_password": SecretStr("secret"),
        }
    )


def test_new_ticket_is_posted_once_as_a_card_with_everything_the_team_needs(
    tmp_path, connector, clock
) -> None:
    deps = _deps(tmp_path, connector, clock)
    ticket = open_ticket(deps.tickets)
    clock.advance(hours=2, minutes=5)

    async def scenario() -> None:
        async with running(make_settings(tmp_path, connector.url), deps) as bot:
            first = await bot.flush()
            second = await bot.flush()
            assert first.delivered == (f"{ticket.id}:1:tax_team",)
            assert second.delivered == ()

    run(scenario)
    (post,) = connector.posts()
    assert post.conversation_id == TAX_CHANNEL
    assert "replyToId" not in post.body  # a new channel post, not a reply
    assert post.body["channelData"]["dasar"] == {
        "outbox_key": f"{ticket.id}:1:tax_team",
        "ticket_id": ticket.id,
    }
    card = _card(post.body)
    assert card["version"] == "1.5"
    texts = cards.texts_of(card)
    assert texts[0] == f"Ticket {ticket.id}: Open"
    assert "Why dasar escalated: No source in the knowledge base" in texts
    assert "Requester: AP Clerk SNR <ap.clerk@sinarnusantara.co.id>" in texts
    assert "Asked: 2026-03-02 09:00 UTC (2 h 5 min ago)" in texts
    assert "Berapa tarif PPh 23 atas jasa angkutan dari vendor <VENDOR_1> tanpa NPWP?" in texts
    assert "- vendor tidak punya NPWP" in texts
    assert "\u201csebesar 2% (dua persen) dari jumlah bruto\u201d" in texts
    assert "[UU 36/2008 Pasal 23 ayat (1)](https://example.test/uu-36-2008#pasal-23)" in texts
    assert "Tarif untuk vendor tanpa NPWP (kenaikan 100%) tidak ditemukan di KB." in texts
    assert cards.verbs_of(card) == ["claim", "ask_info", "reject"]
    # Every Execute button carries a Submit fallback with identical data (older clients).
    claim = card["actions"][0]
    assert claim["fallback"] == {"type": "Action.Submit", "title": "Claim", "data": claim["data"]}
    assert deps.tickets.outbox.card_ref(ticket.id) == post.activity_id


def test_claim_answer_relays_to_slack_thread_and_updates_card_for_everyone(
    tmp_path, connector, slack, clock
) -> None:
    deps = _deps(tmp_path, connector, clock, slack)
    ticket = open_ticket(deps.tickets)
    url = connector.url

    async def scenario() -> None:
        async with running(make_settings(tmp_path, url), deps) as bot:
            await bot.flush()
            card_id = connector.posts()[0].activity_id
            status, body = await bot.post(
                execute_activity("tax.analyst", "claim", data("claim", ticket.id), url, card_id)
            )
            assert status == 200
            assert body["type"] == cards.CARD_CONTENT_TYPE  # refreshed card for the clicker
            assert cards.texts_of(body["value"])[0] == f"Ticket {ticket.id}: Claimed"
            assert cards.verbs_of(body["value"]) == ["answer", "ask_info", "reject"]
            clock.advance(minutes=30)
            status, body = await bot.post(
                execute_activity(
                    "tax.analyst",
                    "answer",
                    data(
                        "answer",
                        ticket.id,
                        answer_text="Tarif 4% (dua kali tarif) karena vendor tanpa NPWP.",
                        answer_sources="UU 36/2008 Pasal 23 ayat (1a)",
                    ),
                    url,
                    card_id,
                )
            )
            assert status == 200 and body["type"] == cards.CARD_CONTENT_TYPE
            status, body = await bot.post(
                execute_activity("tax.lead", "close", data("close", ticket.id), url, card_id)
            )
            assert cards.texts_of(body["value"])[0] == f"Ticket {ticket.id}: Closed"

    run(scenario)
    puts = connector.puts()
    assert [p.activity_id for p in puts] == [connector.posts()[0].activity_id] * 3
    states = [cards.texts_of(_card(p.body))[0] for p in puts]
    assert states == [
        f"Ticket {ticket.id}: Claimed",
        f"Ticket {ticket.id}: Answered",
        f"Ticket {ticket.id}: Closed",
    ]
    answered = cards.texts_of(_card(puts[1].body))
    assert "Assignee: Tax Analyst" in answered
    assert "Answer by Tax Analyst, 2026-03-02 09:30 UTC" in answered
    (relay,) = slack.calls
    assert relay.method == "chat.postMessage"
    assert relay.body["channel"] == SLACK_THREAD.channel
    assert relay.body["thread_ts"] == SLACK_THREAD.thread_id
    text = relay.body["text"]
    assert text.startswith(
        "*Jawaban Tim Pajak / Tax team answer*\nTarif 4% (dua kali tarif) karena vendor tanpa NPWP."
    )
    assert "Sumber / sources: UU 36/2008 Pasal 23 ayat (1a)" in text
    assert f"(ticket {ticket.id})" in text
    assert "answered by Tax Analyst, 2026-03-02 09:30 UTC" in text
    assert relay.body["blocks"][0]["text"]["text"] == text
    final = deps.tickets.get(ticket.id)
    assert (final.status, final.assignee, final.answer_by) == (
        "closed",
        "tax.analyst@sinarnusantara.co.id",
        "tax.analyst@sinarnusantara.co.id",
    )
    assert final.answer_sources == (
        {"ref": "UU 36/2008 Pasal 23 ayat (1a)", "number": "UU 36/2008", "location": "Pasal 23 ayat (1a)"},
    )


def test_illegal_transitions_are_refused_with_a_message_and_change_nothing(
    tmp_path, connector, clock
) -> None:
    deps = _deps(tmp_path, connector, clock)
    ticket = open_ticket(deps.tickets)
    url = connector.url
    replies: list[str] = []

    async def scenario() -> None:
        async with running(make_settings(tmp_path, url), deps) as bot:
            await bot.flush()
            for user, verb, extra in [
                ("tax.analyst", "close", {}),
                ("tax.analyst", "answer", {"answer_text": "x"}),
                ("tax.lead", "propose_faq", {}),
            ]:
                status, body = await bot.post(
                    execute_activity(user, verb, data(verb, ticket.id, **extra), url)
                )
                assert status == 200 and body["type"] == "application/vnd.microsoft.activity.message"
                replies.append(body["value"])
            await bot.post(execute_activity("tax.analyst", "claim", data("claim", ticket.id), url))
            status, body = await bot.post(
                execute_activity("tax.lead", "answer", data("answer", ticket.id, answer_text="y"), url)
            )
            replies.append(body["value"])
            status, body = await bot.post(
                execute_activity("tax.analyst", "answer", data("answer", ticket.id), url)
            )
            replies.append(body["value"])

    run(scenario)
    tid = ticket.id
    assert replies == [
        f"Not done: ticket {tid} is open: cannot close; close is allowed only when the ticket is answered; "
        "reject it instead if it will not be answered",
        f"Not done: ticket {tid} is open: cannot answer; answer is allowed only when the ticket is claimed; "
        "claim it first",
        S.NEED_ANSWERED_FOR_FAQ,
        f"Not done: ticket {tid} is claimed: cannot answer; tax.lead@sinarnusantara.co.id is not the "
        "assignee (tax.analyst@sinarnusantara.co.id); claim it first or ask "
        "tax.analyst@sinarnusantara.co.id to unclaim",
        S.NEED_ANSWER_TEXT,
    ]
    assert [e.kind for e in deps.tickets.events(tid)] == ["opened", "claimed"]
    assert len(connector.puts()) == 1  # only the successful claim updated the card


def test_concurrent_claims_one_wins_the_other_loses_cleanly(tmp_path, connector, clock) -> None:
    deps = _deps(tmp_path, connector, clock)
    ticket = open_ticket(deps.tickets)
    url = connector.url

    async def scenario() -> list:
        async with running(make_settings(tmp_path, url), deps) as bot:
            await bot.flush()
            return await asyncio.gather(
                *[
                    bot.post(execute_activity(u, "claim", data("claim", ticket.id), url))
                    for u in ("tax.analyst", "tax.lead", "tax.analyst", "tax.lead")
                ]
            )

    results = run(scenario)
    assert all(status == 200 for status, _ in results)
    winner = deps.tickets.get(ticket.id).assignee
    assert winner in ("tax.analyst@sinarnusantara.co.id", "tax.lead@sinarnusantara.co.id")
    won = [b for _, b in results if b["type"] == cards.CARD_CONTENT_TYPE]
    lost = [b["value"] for _, b in results if b["type"] != cards.CARD_CONTENT_TYPE]
    # the winner's double-click is an idempotent no-op (card again); the other person loses with a reason
    assert len(won) == 2 and len(lost) == 2
    assert all(f"already claimed by {winner}" in m for m in lost)
    assert [e.kind for e in deps.tickets.events(ticket.id)] == ["opened", "claimed"]
    assert len(connector.puts()) == 1


def test_unauthorised_users_cannot_act(tmp_path, connector, clock) -> None:
    deps = _deps(tmp_path, connector, clock)
    ticket = open_ticket(deps.tickets)
    url = connector.url
    bodies: list = []

    async def scenario() -> None:
        async with running(make_settings(tmp_path, url), deps) as bot:
            await bot.flush()
            for user in ("ap.clerk", "stranger"):
                bodies.append(
                    (await bot.post(execute_activity(user, "claim", data("claim", ticket.id), url)))[1]
                )
            # an activity without an AAD id (e.g. a bot or anonymous caller) is a guest
            act = execute_activity("tax.lead", "claim", data("claim", ticket.id), url)
            del act["from"]["aadObjectId"]
            bodies.append((await bot.post(act))[1])

    run(scenario)
    assert [b["value"] for b in bodies] == [S.NOT_TAX_TEAM] * 3
    assert deps.tickets.get(ticket.id).status == "open"
    assert connector.puts() == []


def test_submit_fallback_for_older_clients(tmp_path, connector, clock) -> None:
    deps = _deps(tmp_path, connector, clock)
    ticket = open_ticket(deps.tickets)
    url = connector.url

    async def scenario() -> None:
        async with running(make_settings(tmp_path, url), deps) as bot:
            await bot.flush()
            card_id = connector.posts()[0].activity_id
            status, _ = await bot.post(submit_activity("tax.analyst", data("claim", ticket.id), url, card_id))
            assert status == 201
            await bot.post(submit_activity("tax.analyst", data("ask_info", ticket.id), url, card_id))

    run(scenario)
    replies = [p.body["text"] for p in connector.posts()[1:]]
    assert replies == [S.OK_CLAIMED.format(ticket_id=ticket.id), S.NEED_ASK_TEXT]
    assert deps.tickets.get(ticket.id).status == "claimed"
    (put,) = connector.puts()
    assert cards.texts_of(_card(put.body))[0] == f"Ticket {ticket.id}: Claimed"


def test_ask_info_and_reject_are_relayed_and_requester_reply_reopens(
    tmp_path, connector, slack, clock
) -> None:
    deps = _deps(tmp_path, connector, clock, slack)
    ticket = open_ticket(deps.tickets)
    url = connector.url

    async def scenario() -> None:
        async with running(make_settings(tmp_path, url), deps) as bot:
            await bot.flush()
            await bot.post(
                execute_activity(
                    "tax.analyst",
                    "ask_info",
                    data("ask_info", ticket.id, info_question="Apakah vendor punya NIK?"),
                    url,
                )
            )
            # the asker answers in the Slack thread (the Slack front end calls requester_reply)
            deps.tickets.requester_reply(ticket.id, "Tidak ada NIK.")
            await bot.flush()
            await bot.post(
                execute_activity(
                    "tax.lead",
                    "reject",
                    data("reject", ticket.id, reject_reason="Di luar cakupan tim pajak."),
                    url,
                )
            )

    run(scenario)
    assert [c.body["text"] for c in slack.calls] == [
        S.RELAY_ASK.format(ticket_id=ticket.id, text="Apakah vendor punya NIK?"),
        S.RELAY_REJECTED.format(ticket_id=ticket.id, text="Di luar cakupan tim pajak."),
    ]
    assert all(c.body["thread_ts"] == SLACK_THREAD.thread_id for c in slack.calls)
    assert [cards.texts_of(_card(p.body))[0] for p in connector.puts()] == [
        f"Ticket {ticket.id}: Waiting for the requester",
        f"Ticket {ticket.id}: Open",
        f"Ticket {ticket.id}: Rejected",
    ]
    assert cards.verbs_of(_card(connector.puts()[-1].body)) == []


def _ticket_turn(deps):
    """The real channel-neutral turn over the ticket store (the KB is not needed for ticket follow-ups)."""
    from types import SimpleNamespace

    from bot.audit import MemoryAuditLog
    from bot.turn import Turn
    from identity.cache import MemoryPrincipalCache
    from identity.resolver import PrincipalResolver
    from identity.yaml_directory import YamlDirectory
    from tests.teams.harness import SAMPLE_DIRECTORY

    services = SimpleNamespace(store=SimpleNamespace(corpus_version=lambda: "test-corpus"))
    resolver = PrincipalResolver(YamlDirectory(SAMPLE_DIRECTORY), MemoryPrincipalCache())
    return Turn(services, resolver=resolver, tickets=deps.tickets, audit=MemoryAuditLog())


def _answered_teams_ticket(tmp_path, connector, clock):
    deps = _deps(tmp_path, connector, clock)
    deps.turn = _ticket_turn(deps)
    chat = "a:1personal-chat-ap-clerk"
    aad = "1b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c5d"
    from tests.teams.harness import TENANT

    requester = Requester(
        principal_id=f"teams:{TENANT}:{aad}",
        platform="teams",
        tenant=TENANT,
        user_id=aad,
        email="ap.clerk@sinarnusantara.co.id",
        display_name="AP Clerk SNR",
    )
    ticket = open_ticket(deps.tickets, ThreadRef("teams", TENANT, chat, chat), requester)
    return deps, chat, ticket


def _answer_then_reply(tmp_path, deps, connector, clock, ticket, chat, text):
    url = connector.url

    async def scenario() -> None:
        async with running(make_settings(tmp_path, url), deps) as bot:
            await bot.flush()
            await bot.post(execute_activity("tax.analyst", "claim", data("claim", ticket.id), url))
            await bot.post(
                execute_activity(
                    "tax.analyst", "answer", data("answer", ticket.id, answer_text="Tarifnya 4%."), url
                )
            )
            clock.advance(days=1)
            status, _ = await bot.post(text_activity("ap.clerk", text, url, chat))
            assert status == 201

    run(scenario)
    return [p for p in connector.posts() if p.conversation_id == chat]


def test_teams_chat_asker_gets_the_answer_and_a_reply_reopens_the_ticket(tmp_path, connector, clock) -> None:
    deps, chat, ticket = _answered_teams_ticket(tmp_path, connector, clock)
    chat_posts = _answer_then_reply(
        tmp_path, deps, connector, clock, ticket, chat, "Bagaimana kalau vendor punya NIK?"
    )
    assert chat_posts[0].body["text"].startswith("*Jawaban Tim Pajak / Tax team answer*\nTarifnya 4%.")
    assert "answered by Tax Analyst, 2026-03-02 09:00 UTC" in chat_posts[0].body["text"]
    assert ticket.id in chat_posts[1].body["text"]  # the turn's follow-up confirmation
    reopened = deps.tickets.get(ticket.id)
    assert (reopened.status, reopened.assignee) == ("open", None)
    assert [e.kind for e in deps.tickets.events(ticket.id)][-1] == "reopened"
    assert cards.texts_of(_card(connector.puts()[-1].body))[0] == f"Ticket {ticket.id}: Open"


def test_teams_ticket_reply_is_stored_masked(tmp_path, connector, clock) -> None:
    """Finding: Teams stored a requester's reply unmasked (bot/teams/bot.py skipped inspect)."""
    nik, account, phone = "3174012503900007", "1234567890", "081234567890"
    deps, chat, ticket = _answered_teams_ticket(tmp_path, connector, clock)
    _answer_then_reply(
        tmp_path,
        deps,
        connector,
        clock,
        ticket,
        chat,
        f"NIK vendor {nik}, rekening BCA {account}, telepon {phone}.",
    )
    events = deps.tickets.events(ticket.id)
    stored = " ".join(str(e.data) for e in events)
    reply_event = [e for e in events if e.kind == "reopened"][-1]
    assert "NIK vendor" in str(reply_event.data)
    for raw in (nik, account, phone):
        assert raw not in stored
    card_text = " ".join(str(p.body) for p in connector.calls)
    for raw in (nik, account, phone):
        assert raw not in card_text


def test_teams_ticket_reply_with_a_password_is_refused(tmp_path, connector, clock) -> None:
    deps, chat, ticket = _answered_teams_ticket(tmp_path, connector, clock)
    chat_posts = _answer_then_reply(
        tmp_path, deps, connector, clock, ticket, chat, "password: Sinar#2026rahasia untuk portal DJP"
    )
    assert "Sinar#2026rahasia" not in " ".join(str(e.data) for e in deps.tickets.events(ticket.id))
    assert deps.tickets.get(ticket.id).status == "answered"  # nothing recorded, nothing re-opened
    assert "rahasia" in chat_posts[-1].body["text"] or "secret" in chat_posts[-1].body["text"]


def test_authentication_is_required_outside_the_test_configuration(tmp_path, connector, clock) -> None:
    settings = _auth_settings(tmp_path, connector)
    deps = _deps(tmp_path, connector, clock)
    ticket = open_ticket(deps.tickets)

    async def scenario() -> int:
        async with running(settings, deps) as bot:
            status, _ = await bot.post(
                execute_activity("tax.lead", "claim", data("claim", ticket.id), connector.url)
            )
            return status

    assert run(scenario) == 401
    assert deps.tickets.get(ticket.id).status == "open"
    no_creds = make_settings(tmp_path, connector.url).model_copy(update={"teams_auth_disabled": False})
    with pytest.raises(TeamsConfigError, match="DASAR_TEAMS_APP_ID"):
        build_teams_app(no_creds, deps)
    both = settings.model_copy(update={"teams_auth_disabled": True})
    with pytest.raises(TeamsConfigError, match="tests only"):
        build_teams_app(both, deps)


def test_a_card_post_whose_response_was_lost_stays_uncertain_and_is_not_posted_twice(
    tmp_path, connector, clock
) -> None:
    """Finding: a card post whose response was lost was posted twice, and 'uncertain' was cleared."""
    deps = _deps(tmp_path, connector, clock)
    ticket = open_ticket(deps.tickets)
    key = f"{ticket.id}:1:tax_team"
    connector.state.drop_post_responses = 1

    async def scenario() -> tuple[object, object]:
        async with running(make_settings(tmp_path, connector.url), deps) as bot:
            first = await bot.flush()
            clock.advance(hours=1)
            second = await bot.flush()
            return first, second

    first, second = run(scenario)
    assert first.uncertain == (key,) and first.delivered == ()
    assert second.delivered == () and second.uncertain == ()
    assert len(connector.posts()) == 1  # the one post that reached the channel, never a second
    statuses = {m.key: m.status for m in deps.tickets.outbox.messages(ticket.id)}
    assert statuses[key] == "uncertain"


@pytest.mark.parametrize(
    "authorization",
    ["Bearer not-a-jwt", "Bearer a.b.c", "Basic dXNlcjpwYXNz", "Bearer", "Bearer eyJhbGciOiJub25lIn0.e30."],
)
def test_a_malformed_bearer_token_is_401_not_500(tmp_path, connector, clock, authorization: str) -> None:
    """Finding: a malformed bearer token got HTTP 500 instead of 401."""
    settings = _auth_settings(tmp_path, connector)
    deps = _deps(tmp_path, connector, clock)
    ticket = open_ticket(deps.tickets)

    async def scenario() -> int:
        async with running(settings, deps) as bot:
            activity = execute_activity("tax.lead", "claim", data("claim", ticket.id), connector.url)
            status, _ = await bot.post(activity, headers={"Authorization": authorization})
            return status

    assert run(scenario) == 401
    assert deps.tickets.get(ticket.id).status == "open"


def test_a_turn_that_fails_inside_the_bot_gets_an_apology_not_a_500(tmp_path, connector, clock) -> None:
    """Finding: on_error was never attached, so an exception in a turn became HTTP 500 and silence."""

    class BrokenTurn:
        def handle(self, message):  # type: ignore[no-untyped-def]
            raise RuntimeError("index file vanished")

    deps = _deps(tmp_path, connector, clock)
    deps.turn = BrokenTurn()
    chat = "a:1personal-broken"

    async def scenario() -> int:
        async with running(make_settings(tmp_path, connector.url), deps) as bot:
            status, _ = await bot.post(text_activity("ap.clerk", "Berapa tarif PPN?", connector.url, chat))
            return status

    status = run(scenario)
    assert status in (200, 201)
    (apology,) = [p for p in connector.posts() if p.conversation_id == chat]
    assert "ref " in apology.body["text"] and "Maaf" in apology.body["text"]
    assert "index file vanished" not in apology.body["text"]


def test_the_adapter_is_cloud_adapter_with_configuration_authentication(tmp_path, connector) -> None:
    """Issue 14: CloudAdapter (botbuilder-integration-aiohttp), not the older BotFrameworkAdapter; a
    tenant id makes the app single-tenant; the test-only switch disables authentication."""
    import inspect

    from botbuilder.core import BotFrameworkAdapter
    from botbuilder.integration.aiohttp import CloudAdapter, ConfigurationBotFrameworkAuthentication

    import bot.teams.app as teams_app
    import bot.teams.connector as teams_connector
    from bot.teams.app import build_adapter

    disabled = build_adapter(make_settings(tmp_path, connector.url))
    assert isinstance(disabled, CloudAdapter) and not isinstance(disabled, BotFrameworkAdapter)
    assert isinstance(disabled.bot_framework_authentication, ConfigurationBotFrameworkAuthentication)
    configured = _auth_settings(tmp_path, connector)
    adapter = build_adapter(configured)
    factory = adapter.bot_framework_authentication._inner._credentials_factory._inner
    assert (factory.app_id, factory.tenant_id) == (APP_ID, configured.teams_tenant_id)
    for module in (teams_app, teams_connector):
        assert "BotFrameworkAdapter" not in inspect.getsource(module)

    credentials = disabled.bot_framework_authentication._inner._credentials_factory

    async def auth_disabled() -> bool:
        return bool(await credentials.is_authentication_disabled())

    assert run(auth_disabled)
