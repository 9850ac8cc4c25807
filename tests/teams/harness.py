"""Shared test scaffolding: a fake clock, the sample directory's people, Bot Framework activity builders,
and an async harness that runs the REAL aiohttp app on a loopback port."""

from __future__ import annotations

import asyncio
import datetime as dt
import itertools
from collections.abc import Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp.test_utils import TestServer

from bot.settings import SAMPLE_DIRECTORY, Settings
from bot.teams.app import TaxChannel, TeamsDeps, build_teams_app, runtime_of
from bot.teams.journal import DeliveryJournal
from identity.cache import MemoryPrincipalCache
from identity.resolver import PrincipalResolver
from identity.yaml_directory import YamlDirectory
from tickets import Evidence, Requester, SqliteTicketStore, ThreadRef, Ticket

TENANT = "c0ffee00-0000-4000-8000-00000000d5a5"
TAX_CHANNEL = "19:taxteam@thread.tacv2"
T0 = dt.datetime(2026, 3, 2, 9, 0, tzinfo=dt.UTC)

#: AAD object ids from corpus/directory.yaml
AAD = {
    "tax.lead": "3d4e5f60-7182-4c9d-8e0f-2a3b4c5d6e7f",  # tax_team + faq_approver
    "tax.analyst": "4e5f6071-8293-4dae-9f10-3b4c5d6e7f80",  # tax_team
    "ap.clerk": "1b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c5d",  # requester only
    "stranger": "99999999-9999-4999-8999-999999999999",  # not in the directory -> guest
}


class FakeClock:
    """Deterministic, manually advanced time."""

    def __init__(self, start: dt.datetime = T0) -> None:
        self.now = start

    def __call__(self) -> dt.datetime:
        return self.now

    def advance(self, **kw: float) -> None:
        self.now = self.now + dt.timedelta(**kw)


def make_settings(tmp_path: Path, service_url: str, **extra: Any) -> Settings:
    """The ONLY place authentication is disabled: test configuration."""
    return Settings(
        _env_file=None,  # type: ignore[call-arg]
        teams_auth_disabled=True,
        teams_service_url=service_url,
        teams_tax_channel_id=TAX_CHANNEL,
        teams_tenant_id=TENANT,
        tickets_db=tmp_path / "tickets.sqlite",
        teams_journal_db=tmp_path / "journal.sqlite",
        directory=SAMPLE_DIRECTORY,
        kb=tmp_path / "kb.sqlite",
        faq_dir=tmp_path / "faq",
        **extra,
    )


def people(actor: str) -> str:
    entry = YamlDirectory(SAMPLE_DIRECTORY).lookup_email(actor)
    return entry.display_name if entry else actor


def make_deps(tmp_path: Path, service_url: str, clock: FakeClock, **kw: Any) -> TeamsDeps:
    resolver = PrincipalResolver(YamlDirectory(SAMPLE_DIRECTORY), MemoryPrincipalCache())
    return TeamsDeps(
        tickets=SqliteTicketStore(tmp_path / "tickets.sqlite", clock=clock),
        resolve_principal=resolver.resolve,
        tax_channel=TaxChannel(service_url, TAX_CHANNEL, TENANT),
        journal=DeliveryJournal(tmp_path / "journal.sqlite"),
        people=people,
        clock=clock,
        poll_seconds=None,
        **kw,
    )


SLACK_THREAD = ThreadRef("slack", "T0SNR", "C0TAXQ", "1772442000.000100")
SLACK_REQUESTER = Requester(
    principal_id="slack:T0SNR:U04APCLRK1",
    platform="slack",
    tenant="T0SNR",
    user_id="U04APCLRK1",
    email="ap.clerk@sinarnusantara.co.id",
    display_name="AP Clerk SNR",
)


def open_ticket(
    store: SqliteTicketStore, thread: ThreadRef = SLACK_THREAD, requester: Requester = SLACK_REQUESTER
) -> Ticket:
    ticket, created = store.open_ticket(
        thread,
        requester,
        "Berapa tarif PPh 23 atas jasa angkutan dari vendor <VENDOR_1> tanpa NPWP?",
        ["vendor tidak punya NPWP", "invoice Rp <AMOUNT_1>"],
        Evidence.of(
            claims=[
                {
                    "text": "Tarif PPh 23 atas jasa adalah 2% dari jumlah bruto.",
                    "quote": "sebesar 2% (dua persen) dari jumlah bruto",
                    "doc_id": "uu-36-2008",
                    "number": "UU 36/2008",
                    "location": "Pasal 23 ayat (1)",
                    "url": "https://example.test/uu-36-2008#pasal-23",
                }
            ]
        ),
        "Tarif untuk vendor tanpa NPWP (kenaikan 100%) tidak ditemukan di KB.",
        "no_source",
        topic="PPh 23 jasa angkutan",
    )
    assert created
    return ticket


_ids = itertools.count(1)


def _base(user: str, conversation_id: str, service_url: str) -> dict[str, Any]:
    aad = AAD[user]
    return {
        "id": f"in-{next(_ids)}",
        "channelId": "msteams",
        "serviceUrl": service_url,
        "from": {"id": f"29:{user}", "name": user, "aadObjectId": aad},
        "recipient": {"id": "28:dasar-bot", "name": "dasar"},
        "conversation": {
            "id": conversation_id,
            "isGroup": True,
            "conversationType": "channel",
            "tenantId": TENANT,
        },
        "channelData": {"tenant": {"id": TENANT}},
        "timestamp": "2026-03-02T09:00:00Z",
    }


def execute_activity(
    user: str,
    verb: str,
    data: dict[str, Any],
    service_url: str,
    card_id: str | None = None,
    conversation_id: str = TAX_CHANNEL,
) -> dict[str, Any]:
    """An ``adaptiveCard/action`` invoke as Teams sends it for an Action.Execute click."""
    act = _base(user, conversation_id, service_url)
    act.update(
        {
            "type": "invoke",
            "name": "adaptiveCard/action",
            "replyToId": card_id,
            "value": {"action": {"type": "Action.Execute", "verb": verb, "data": data}, "trigger": "manual"},
        }
    )
    return act


def submit_activity(
    user: str,
    data: dict[str, Any],
    service_url: str,
    card_id: str | None = None,
    conversation_id: str = TAX_CHANNEL,
) -> dict[str, Any]:
    """A message activity with ``value`` as Teams sends it for an Action.Submit click."""
    act = _base(user, conversation_id, service_url)
    act.update({"type": "message", "replyToId": card_id, "value": data, "text": ""})
    return act


def text_activity(
    user: str, text: str, service_url: str, conversation_id: str, conversation_type: str = "personal"
) -> dict[str, Any]:
    act = _base(user, conversation_id, service_url)
    act.update({"type": "message", "text": text})
    act["conversation"]["conversationType"] = conversation_type
    act["conversation"]["isGroup"] = conversation_type != "personal"
    return act


def data(verb: str, ticket_id: str | None = None, **inputs: str) -> dict[str, Any]:
    """Card action data as the client sends it: the button's data merged with the card's inputs."""
    out: dict[str, Any] = {"dasar": 1, "verb": verb, **inputs}
    if ticket_id:
        out["ticket_id"] = ticket_id
    return out


class Bot:
    """Handle on a running app: post activities, flush the outbox."""

    def __init__(self, server: TestServer, session: aiohttp.ClientSession) -> None:
        self.server = server
        self.session = session

    @property
    def runtime(self):
        return runtime_of(self.server.app)

    async def post(
        self, activity: dict[str, Any], headers: dict[str, str] | None = None, *, settle: bool = True
    ) -> tuple[int, Any]:
        """POST an activity; with ``settle`` also wait for the work it started after the response (the
        answer, the outbox delivery), so scenarios run step by step."""
        async with self.session.post(
            self.server.make_url("/api/messages"), json=activity, headers=headers or {}
        ) as resp:
            body = await resp.json() if resp.content_type == "application/json" else await resp.text()
            status = resp.status
        if settle and status < 300:
            await self.settle()
        return status, body

    async def settle(self) -> None:
        """Wait until every answer and background outbox delivery started so far has finished."""
        await self.runtime.settle()

    async def flush(self) -> Any:
        return await self.runtime.worker.flush()


@asynccontextmanager
async def running(settings: Settings, deps: TeamsDeps):
    server = TestServer(build_teams_app(settings, deps), host="127.0.0.1")
    await server.start_server()
    try:
        async with aiohttp.ClientSession() as session:
            yield Bot(server, session)
    finally:
        await server.close()


def run(scenario: Callable[[], Awaitable[Any]]) -> Any:
    return asyncio.run(scenario())
