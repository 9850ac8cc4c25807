"""An amending act sends the affected FAQ's owner and the affected ticket's assignee a Teams card.

Real corpus text, hashing embedder, the scenario of ``test_impact_citations``: UU 8/1983 + UU 42/2009 are
ingested, an FAQ owned by the tax analyst cites UU 42/2009's Pasal 7 (PPN 10%), a claimed ticket cites the
same Pasal, then UU 7/2021 (PPN 11% from 1 April 2022) is ingested and assessed.  The ticket outbox must
then hold exactly one notice card per affected person, with a Teams mention of that person (Entra ID
object id from the directory, else the e-mail as UPN), naming the FAQ / ticket and the changed provision;
assessing the same change again (``record`` twice, ``catch_up`` after an interrupted run) must queue
nothing more; and the Teams outbox worker must post each card once to a loopback Bot Connector.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from bot.impact import ImpactReport, catch_up, load_baseline, record, save_baseline
from bot.settings import SAMPLE_DIRECTORY
from bot.teams import cards
from identity.yaml_directory import YamlDirectory
from tests.kb.test_impact_citations import NOW, PASAL1_1, PASAL1_1_LOC, PASAL7, PASAL7_LOC, TAX, World
from tests.teams.harness import AAD, FakeClock, make_deps, make_settings, run, running
from tests.teams.mock_services import MockBotConnector
from tests.teams.test_cards import schema_errors
from tickets.outbox import CHANNEL_PERSON, KIND_NOTICE

#: Claims the affected ticket; not in the sample directory, so mentioned by UPN (e-mail).
ASSIGNEE = "konsultan.pajak@sinarnusantara.co.id"
DIRECTORY = YamlDirectory(SAMPLE_DIRECTORY)


class Scenario:
    """The world before the amendment: one FAQ and tickets that do or do not rely on UU 42/2009 Pasal 7."""

    def __init__(self, tmp: Path, tickets: Any | None = None) -> None:
        self.world = w = World(tmp)
        if tickets is not None:  # another ticket store (PostgreSQL) instead of the world's SQLite file
            w.tickets.shutdown()
            w.tickets = tickets
        quote = "Tarif Pajak Pertambahan Nilai adalah 10% (sepuluh persen)."
        self.faq = w.approved_faq(1, PASAL7_LOC, quote)  # owner: TAX (its tickets are answered, not active)
        self.ticket = w.open_ticket_citing(3, PASAL7, PASAL7_LOC)
        w.tickets.claim(self.ticket, ASSIGNEE)
        self.unassigned = w.open_ticket_citing(4, PASAL7, PASAL7_LOC)  # affected, nobody to tell
        self.unaffected = w.open_ticket_citing(5, PASAL1_1, PASAL1_1_LOC)
        w.tickets.claim(self.unaffected, ASSIGNEE)
        save_baseline(w.store)  # the corpus as the last assessment saw it

    def record(self, impact: Any) -> Any:
        w = self.world
        return record(
            impact,
            store=w.store,
            log=w.log,
            faqs=w.faqs,
            tickets=w.tickets,
            audit_log=w.audit_path,
            now=NOW,
            directory=DIRECTORY,
        )

    def notices(self) -> list[Any]:
        return sorted(self.world.tickets.outbox.messages(kind=KIND_NOTICE), key=lambda m: m.key)


@pytest.fixture()
def scenario(tmp_path: Path) -> Scenario:
    return Scenario(tmp_path)


def _amend(world: World) -> Any:
    """Ingest UU 7/2021 (amends UU 8/1983 Pasal 7: PPN 11% from 1 April 2022); its impact."""
    report: Any = world.amend()
    assert report.ok
    return report.impact


def _by_recipient(messages: list[Any]) -> dict[str, Any]:
    out = {m.payload["notice"]["recipient"]: m for m in messages}
    assert len(out) == len(messages)
    return out


def test_the_amendment_queues_one_card_for_the_faq_owner_and_one_for_the_assignee(scenario: Scenario) -> None:
    w = scenario.world
    before = load_baseline(w.store)
    report: Any = w.amend()
    assert report.ok and "uu-7-2021" in report.added
    out = scenario.record(report.impact)
    assert out is not None
    assert [(f.faq_id, f.status) for f in out.faqs] == [(scenario.faq, "needs_review")]
    assert sorted(t.ticket_id for t in out.tickets) == sorted([scenario.ticket, scenario.unassigned])

    notices = scenario.notices()
    by = _by_recipient(notices)
    assert set(by) == {TAX, ASSIGNEE}  # not the unassigned ticket, not the unaffected one
    faq_msg, ticket_msg = by[TAX], by[ASSIGNEE]
    assert (faq_msg.channel, faq_msg.kind, faq_msg.status) == (CHANNEL_PERSON, KIND_NOTICE, "pending")
    assert faq_msg.ticket_id == ""  # an FAQ notice belongs to no ticket
    assert ticket_msg.ticket_id == scenario.ticket
    assert faq_msg.key.startswith("notice:") and faq_msg.key.endswith(f":faq:{scenario.faq}:{TAX}")
    assert ticket_msg.key.endswith(f":ticket:{scenario.ticket}:{ASSIGNEE}")

    # the FAQ owner is in the directory: mentioned by Entra ID object id, by name
    faq_card = faq_msg.payload["card"]
    (entity,) = faq_card["msteams"]["entities"]
    assert entity == {
        "type": "mention",
        "text": "<at>Tax Analyst</at>",
        "mentioned": {"id": AAD["tax.analyst"], "name": "Tax Analyst"},
    }
    faq_text = "\n".join(cards.texts_of(faq_card))
    assert "<at>Tax Analyst</at>, you own FAQ faq-t-000001" in faq_text
    assert f"FAQ {scenario.faq} needs review" in faq_text
    # the changed provision, in words: UU 7/2021's wording applies from 1 April 2022
    assert (
        f"- {PASAL7_LOC} (uu-42-2009): was in force from 2010-04-01; now in force from 2010-04-01, "
        "no longer from 2022-04-01"
    ) in faq_text
    assert "Changed with: UU 7/2021" in faq_text
    assert "Approve FAQ" in faq_text  # what to do
    assert cards.verbs_of(faq_card) == [cards.APPROVE_FAQ]
    assert faq_card["actions"][0]["data"]["doc_id"] == scenario.faq

    # the assignee is not: mentioned by UPN (the e-mail tickets record)
    ticket_card = ticket_msg.payload["card"]
    (entity,) = ticket_card["msteams"]["entities"]
    assert entity["mentioned"] == {"id": ASSIGNEE, "name": ASSIGNEE}
    ticket_text = "\n".join(cards.texts_of(ticket_card))
    assert f"<at>{ASSIGNEE}</at>, ticket {scenario.ticket} assigned to you (Claimed)" in ticket_text
    assert PASAL7_LOC in ticket_text and "Check ticket" in ticket_text

    for card in (faq_card, ticket_card):  # valid Adaptive Cards 1.5 (msteams is Teams' own extension)
        assert schema_errors({k: v for k, v in card.items() if k != "msteams"}) == []
        assert len(json.dumps(card).encode()) <= cards.MAX_CARD_BYTES

    # the report lists them (and keeps its stable fields)
    as_json = out.to_json()
    assert {"at", "trigger", "documents", "provisions", "faqs", "tickets", "answers"} <= set(as_json)
    assert sorted((n["recipient"], n["subject"], n["kind"], n["status"]) for n in as_json["notices"]) == [
        (ASSIGNEE, f"ticket:{scenario.ticket}", KIND_NOTICE, "queued"),
        (TAX, f"faq:{scenario.faq}", KIND_NOTICE, "queued"),
    ]
    assert {n["mention_id"] for n in as_json["notices"]} == {AAD["tax.analyst"], ASSIGNEE}
    assert w.log.since()[-1]["notices"] == as_json["notices"]  # logged for `dasar kb impact`

    # the same change assessed again: nothing more queued, no second note on the ticket
    notes = [e for e in w.tickets.events(scenario.ticket) if e.kind == "note_added"]
    assert len(notes) == 1
    again = scenario.record(report.impact)
    assert again is not None
    assert [n.status for n in again.notices] == ["already_queued", "already_queued"]
    assert [m.key for m in scenario.notices()] == [m.key for m in notices]
    assert len([e for e in w.tickets.events(scenario.ticket) if e.kind == "note_added"]) == 1

    # an interrupted run (baseline not moved) caught up later: it also sees the withdrawn FAQ's own
    # chunks, yet each person's card is keyed by what changed for their FAQ or ticket -> no duplicate
    assert before is not None
    save_baseline(w.store, before)
    caught = catch_up(
        w.store,
        log=w.log,
        faqs=w.faqs,
        tickets=w.tickets,
        audit_log=w.audit_path,
        now=NOW,
        directory=DIRECTORY,
    )
    assert isinstance(caught, ImpactReport)
    assert caught.impact_id != out.impact_id  # a different change set ...
    assert {n.key for n in caught.notices} == {m.key for m in notices}  # ... the same cards
    assert {n.status for n in caught.notices} == {"already_queued"}
    assert len(scenario.notices()) == 2
    assert len([e for e in w.tickets.events(scenario.ticket) if e.kind == "note_added"]) == 1


def test_without_an_outbox_the_report_warns_instead_of_dropping_cards_silently(scenario: Scenario) -> None:
    w = scenario.world
    report: Any = w.amend()
    out = record(report.impact, store=w.store, log=w.log, faqs=w.faqs, now=NOW, directory=DIRECTORY)
    assert out is not None and out.notices == ()
    assert any("no cards queued" in warning for warning in out.warnings)
    assert scenario.notices() == []


def test_the_teams_worker_posts_each_card_once_to_the_bot_connector(
    tmp_path: Path, scenario: Scenario
) -> None:
    w = scenario.world
    out = scenario.record(_amend(w))
    assert out is not None and len(out.notices) == 2
    keys = sorted(n.key for n in out.notices)

    async def deliver(connector: MockBotConnector) -> tuple[Any, Any]:
        settings = make_settings(tmp_path, connector.url)
        deps = make_deps(tmp_path, connector.url, FakeClock(NOW))  # the same tickets.sqlite
        async with running(settings, deps) as bot:
            first = await bot.flush()
            second = await bot.flush()  # nothing is due any more
        return first, second

    with MockBotConnector() as connector:
        first, second = run(lambda: deliver(connector))
        posts = connector.posts()
    # (the FAQ's source ticket also relays its answer to a Slack thread: no Slack relay here, it fails)
    assert set(keys) <= set(first.delivered) and not set(keys) & {*first.failed, *first.dead}
    assert second.delivered == ()
    notice_posts = sorted(
        (p for p in posts if p.body["channelData"]["dasar"]["outbox_key"].startswith("notice:")),
        key=lambda p: p.body["channelData"]["dasar"]["outbox_key"],
    )
    assert [p.body["channelData"]["dasar"]["outbox_key"] for p in notice_posts] == keys  # once each
    by_key = {m.key: m for m in scenario.notices()}
    for post in notice_posts:
        assert post.conversation_id == "19:taxteam@thread.tacv2"  # the tax-team channel
        (attachment,) = post.body["attachments"]
        assert attachment["contentType"] == cards.CARD_CONTENT_TYPE
        msg = by_key[post.body["channelData"]["dasar"]["outbox_key"]]
        assert attachment["content"] == msg.payload["card"]  # the queued card, mention included
        assert (msg.status, msg.external_ref) == ("delivered", post.activity_id)
    mentioned = {
        p.body["attachments"][0]["content"]["msteams"]["entities"][0]["mentioned"]["id"] for p in notice_posts
    }
    assert mentioned == {AAD["tax.analyst"], ASSIGNEE}
    faq_post = next(
        p for p in notice_posts if f":faq:{scenario.faq}:" in p.body["channelData"]["dasar"]["outbox_key"]
    )
    assert f"FAQ {scenario.faq} needs review" in cards.texts_of(faq_post.body["attachments"][0]["content"])[0]
    assert faq_post.body["channelData"]["dasar"]["ticket_id"] is None


def test_a_redelivery_after_a_crash_does_not_post_the_card_twice(tmp_path: Path, scenario: Scenario) -> None:
    """The worker died after the Bot Connector POST but before the outbox marked the card delivered: the
    journal turns the redelivery into the posted activity id, not a second post."""
    w = scenario.world
    scenario.record(_amend(w))
    clock = FakeClock(NOW)

    def crash_after_notice(msg: Any, ref: str) -> None:
        if msg.kind == KIND_NOTICE:
            raise KeyboardInterrupt  # a BaseException: not a send failure, the message stays pending

    async def deliver(connector: MockBotConnector, after_send: Any) -> Any:
        deps = make_deps(tmp_path, connector.url, clock)
        settings = make_settings(tmp_path, connector.url)
        async with running(settings, deps) as bot:
            bot.runtime.sender.after_send = after_send
            try:
                return await bot.flush()
            except KeyboardInterrupt:
                return None

    with MockBotConnector() as connector:
        assert run(lambda: deliver(connector, crash_after_notice)) is None
        (posted,) = [
            p for p in connector.posts() if p.body["channelData"]["dasar"]["outbox_key"].startswith("notice:")
        ]
        key = posted.body["channelData"]["dasar"]["outbox_key"]
        assert w.tickets.outbox.get(key).status == "pending"
        clock.advance(minutes=5)  # after the crashed worker's lease
        result = run(lambda: deliver(connector, None))
        notice_posts = [
            p for p in connector.posts() if p.body["channelData"]["dasar"]["outbox_key"].startswith("notice:")
        ]
    assert key in result.delivered
    assert [p.body["channelData"]["dasar"]["outbox_key"] for p in notice_posts].count(key) == 1
    assert w.tickets.outbox.get(key).external_ref == posted.activity_id
    assert {m.status for m in scenario.notices()} == {"delivered"}


def test_a_directory_outage_still_mentions_by_upn() -> None:
    from bot.impact import mention_for

    class Down:
        def lookup_email(self, email: str) -> None:
            raise RuntimeError("directory unavailable")

    assert mention_for(TAX, Down()) == (TAX, TAX)
    assert mention_for(TAX, DIRECTORY) == (AAD["tax.analyst"], "Tax Analyst")
    assert mention_for(f"teams:tenant:{AAD['tax.lead']}") == (
        AAD["tax.lead"],
        f"teams:tenant:{AAD['tax.lead']}",
    )
    assert mention_for("slack:T1:U04TAXAN4R") == (None, "slack:T1:U04TAXAN4R")  # named, not mentioned


def test_a_card_without_a_mention_id_names_the_person_and_has_no_entity() -> None:
    notice = {
        "subject_kind": "ticket",
        "subject_id": "T-000009",
        "status": "claimed",
        "mention": {"id": None, "name": "slack:T1:U1"},
        "documents": ["UU 7/2021"],
        "citations": ["UU 42/2009 Pasal 7"],
        "changes": [
            {"chunk_id": "c", "doc_id": "uu-42-2009", "location": "Pasal 7", "change": "wording"},
            {
                "chunk_id": "d",
                "doc_id": "uu-8-1983",
                "location": "Pasal 7",
                "change": "validity",
                "valid_before": [None, None],
                "valid_after": [None, "2010-04-01"],
            },
            {"chunk_id": "e", "doc_id": "uu-18-2000", "location": "Pasal 7", "change": "removed"},
        ],
        "impact_id": "abc",
        "at": NOW.isoformat(),
    }
    card = cards.impact_notice_card(notice)
    assert "msteams" not in card
    text = "\n".join(cards.texts_of(card))
    assert "slack:T1:U1, ticket T-000009" in text and "<at>" not in text
    assert "Pasal 7 (uu-42-2009): wording changed" in text
    assert (
        "Pasal 7 (uu-8-1983): was in force without dates; now in force until the day before 2010-04-01"
        in text
    )
    assert "Pasal 7 (uu-18-2000): removed from the knowledge base" in text


def test_dasar_ingest_json_reports_the_queued_cards(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The CLI path: `dasar ingest --json` (settings, sample directory, the home's ticket database)."""
    from bot.cli import main
    from bot.faq import FaqService
    from kb.embed.hashing import HashingEmbedder
    from kb.store.sqlite import SqliteStore
    from tests.kb.test_impact_citations import LEAD, REGS
    from tests.kb.test_impact_cli import _ingested_home
    from tickets import SqliteTicketStore
    from tickets.model import Evidence, Requester, ThreadRef

    home, src = _ingested_home(tmp_path, monkeypatch, capsys, ("uu-8-1983", "uu-42-2009"))
    store = SqliteStore(home / "kb.sqlite", embedder_name="hashing-256")
    tickets = SqliteTicketStore(home / "tickets.sqlite")
    requester = Requester(principal_id="slack:T1:U1", platform="slack", tenant="T1", user_id="U1")
    t, _ = tickets.open_ticket(
        ThreadRef("slack", "T1", "C1", "1700000001.000100"),
        requester,
        "Tarif PPN?",
        [],
        Evidence(),
        "gap",
        "advice",
    )
    tickets.claim(t.id, TAX)
    answered = tickets.answer(
        t.id, TAX, "Tarif PPN 10%.", [{"number": "UU 42/2009", "location": PASAL7_LOC, "quote": "10%"}]
    )
    faqs = FaqService(home / "faq", store, HashingEmbedder())
    faq_id = faqs.propose_faq(answered, TAX)
    faqs.approve_faq(faq_id, LEAD)
    cite = {"chunk_id": PASAL7, "doc_id": "uu-42-2009", "doc_number": "UU 42/2009", "location": PASAL7_LOC}
    t2, _ = tickets.open_ticket(
        ThreadRef("slack", "T1", "C1", "1700000002.000100"),
        requester,
        "Masih 10%?",
        [],
        Evidence.of(citations=[cite]),
        "gap",
        "low_confidence",
    )
    tickets.claim(t2.id, ASSIGNEE)
    store.close()
    tickets.shutdown()

    shutil.copytree(REGS / "uu-7-2021", src / "uu-7-2021")
    assert main(["ingest", str(src), "--json", "--no-progress"]) == 0
    affected = json.loads(capsys.readouterr().out)["affected"]
    assert [(f["faq_id"], f["status"]) for f in affected["faqs"]] == [(faq_id, "needs_review")]
    assert sorted(
        (n["recipient"], n["subject"], n["mention_id"], n["status"]) for n in affected["notices"]
    ) == [
        (ASSIGNEE, f"ticket:{t2.id}", ASSIGNEE, "queued"),
        (TAX, f"faq:{faq_id}", AAD["tax.analyst"], "queued"),
    ]
    with SqliteTicketStore(home / "tickets.sqlite") as reopened:
        queued = reopened.outbox.messages(kind=KIND_NOTICE)
    assert sorted(m.key for m in queued) == sorted(n["key"] for n in affected["notices"])

    assert main(["kb", "impact", "--json"]) == 0  # logged: listed with the same notices, nothing re-queued
    (logged,) = json.loads(capsys.readouterr().out)["impacts"]
    assert logged["notices"] == affected["notices"]


def test_a_refused_card_is_retried_and_a_lost_response_is_not_posted_again(
    tmp_path: Path, scenario: Scenario
) -> None:
    """The first notice post loses its response (it may have arrived: ``uncertain``, never resent by the
    worker), the second is refused with a 500 (nothing posted: retried after its back-off, posted once)."""
    w = scenario.world
    clock = FakeClock(NOW)

    def notice_posts(connector: MockBotConnector) -> list[str]:
        return [
            p.body["channelData"]["dasar"]["outbox_key"]
            for p in connector.posts()
            if p.body["channelData"]["dasar"]["outbox_key"].startswith("notice:")
        ]

    async def flush(connector: MockBotConnector) -> Any:
        async with running(
            make_settings(tmp_path, connector.url), make_deps(tmp_path, connector.url, clock)
        ) as bot:
            return await bot.flush()

    with MockBotConnector() as connector:
        run(lambda: flush(connector))  # the tickets' own cards go out first
        out = scenario.record(_amend(w))
        assert out is not None and len(out.notices) == 2
        connector.state.drop_post_responses = 1
        connector.state.fail_posts = [500]
        first = run(lambda: flush(connector))
        (lost,) = first.uncertain
        assert lost.startswith("notice:") and len(first.failed) == 1
        (refused,) = first.failed
        assert refused.startswith("notice:") and refused != lost
        assert notice_posts(connector) == [lost]  # the refused one was never recorded as posted
        clock.advance(minutes=5)  # past the first back-off (30 s)
        second = run(lambda: flush(connector))
        assert refused in second.delivered and lost not in second.delivered
        posted = notice_posts(connector)
    assert sorted(posted) == sorted([lost, refused])  # each card once
    assert w.tickets.outbox.get(lost).status == "uncertain"  # an operator resolves or re-drives it
    assert w.tickets.outbox.get(refused).status == "delivered"
