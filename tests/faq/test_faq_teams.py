"""FAQ through Teams: Propose on the ticket card -> approval card -> approver approves -> answers, expires."""

from __future__ import annotations

import asyncio
import datetime as dt

from bot.faq import FaqService
from bot.teams import cards
from bot.teams import strings as S
from tests.faq.test_faq import ANSWER, kb, search_ids  # noqa: F401 -- kb is a fixture
from tests.teams.harness import (
    TAX_CHANNEL,
    FakeClock,
    data,
    execute_activity,
    make_deps,
    make_settings,
    open_ticket,
    run,
    running,
)
from tests.teams.mock_services import MockBotConnector


def test_faq_is_approved_in_teams_then_answers_and_expiry_reminds_in_the_channel(tmp_path, kb) -> None:  # noqa: F811
    store, emb = kb
    clock = FakeClock()
    faq = FaqService(tmp_path / "faq", store, emb, review_days=30, clock=clock)
    with MockBotConnector() as connector:
        url = connector.url
        deps = make_deps(tmp_path, url, clock, faq=faq)
        ticket = open_ticket(deps.tickets)
        deps.tickets.claim(ticket.id, "tax.analyst@sinarnusantara.co.id")
        deps.tickets.answer(
            ticket.id,
            "tax.analyst@sinarnusantara.co.id",
            ANSWER,
            [{"ref": "WHT matrix 2024", "doc_id": "wht-matrix-2024"}],
        )
        out: dict = {}

        async def scenario() -> None:
            async with running(make_settings(tmp_path, url), deps) as bot:
                await bot.flush()
                _, out["propose"] = await bot.post(
                    execute_activity("tax.analyst", "propose_faq", data("propose_faq", ticket.id), url)
                )
                doc_id = "faq-t-000001"
                approve = {"dasar": 1, "verb": "approve_faq", "doc_id": doc_id}
                _, out["denied"] = await bot.post(
                    execute_activity("tax.analyst", "approve_faq", approve, url)
                )
                out["before"] = search_ids(store, emb, {"finance"}, dt.date(2026, 3, 3))
                clock.advance(days=1)
                _, out["approved"] = await bot.post(execute_activity("tax.lead", "approve_faq", approve, url))
                out["after"] = search_ids(store, emb, {"finance"}, dt.date(2026, 3, 4))
                clock.advance(days=31)
                out["expired"] = await asyncio.to_thread(faq.expire_faqs, clock())
                out["after_expiry"] = search_ids(store, emb, {"finance"}, dt.date(2026, 3, 4))

        run(scenario)
        posts = connector.posts()
    doc_id = "faq-t-000001"
    assert out["propose"]["type"] == cards.CARD_CONTENT_TYPE  # the ticket card, unchanged status
    faq_post = posts[1]  # posts[0] is the ticket card
    assert faq_post.conversation_id == TAX_CHANNEL
    draft_card = faq_post.body["attachments"][0]["content"]
    assert cards.texts_of(draft_card)[0] == f"FAQ draft {doc_id}: draft"
    assert "Owner: Tax Analyst" in cards.texts_of(draft_card)
    assert "Readable by groups: ap, finance, tax-team" in cards.texts_of(draft_card)
    assert cards.verbs_of(draft_card) == ["approve_faq"]
    assert out["denied"]["value"] == S.NOT_APPROVER
    assert doc_id not in out["before"]
    approved_card = out["approved"]["value"]
    assert cards.texts_of(approved_card)[0] == f"FAQ draft {doc_id}: in_force"
    assert "Approved by: Tax Lead" in cards.texts_of(approved_card)
    assert cards.verbs_of(approved_card) == []
    assert doc_id in out["after"]
    assert [d.doc_id for d in out["expired"]] == [doc_id]
    assert doc_id not in out["after_expiry"]
    reminder = posts[-1]
    assert reminder.conversation_id == TAX_CHANNEL
    assert (
        reminder.body["text"].startswith(f"FAQ {doc_id} (")
        and "passed its review date 2026-04-01" in reminder.body["text"]
    )
