"""Contract every TicketStore backend must satisfy (haystack-style: one base class, a fixture per backend).

A backend's test module subclasses :class:`TicketStoreContract` and provides two fixtures:
``store`` (a fresh, empty store using the ``clock`` fixture) and ``make_store`` (a factory opening ANOTHER
instance on the same database, for concurrency tests).
"""

from __future__ import annotations

import datetime as dt
import threading
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest

from tests.tickets.conftest import T0, FakeClock, evidence, open_args, requester, thread
from tickets import (
    AlreadyClaimed,
    Evidence,
    IllegalTransition,
    NotAssignee,
    OutboxMessage,
    OutboxPolicy,
    TicketNotFound,
    TicketStore,
)
from tickets.model import Feedback
from tickets.protocol import FeedbackStore
from tickets.sql import SqlTicketStore


class Crash(BaseException):
    """Simulates the process dying (not an ``Exception``, so nothing inside the store swallows it)."""


class TicketStoreContract:
    """Behaviour shared by all backends. Subclasses provide ``store`` and ``make_store`` fixtures."""

    # -- opening -------------------------------------------------------------------------------------
    def test_satisfies_protocol(self, store: SqlTicketStore) -> None:
        assert isinstance(store, TicketStore)

    def test_open_assigns_sequential_ids_and_records_fields(
        self, store: SqlTicketStore, clock: FakeClock
    ) -> None:
        t1, c1 = store.open_ticket(**open_args(1))
        clock.advance(minutes=1)
        t2, c2 = store.open_ticket(**open_args(2, reason="advice", topic=None))
        assert (t1.id, c1, t2.id, c2) == ("T-000001", True, "T-000002", True)
        got = store.get("T-000001")
        assert got == t1
        assert got.status == "open" and got.assignee is None and got.version == 1
        assert got.thread == thread(1) and got.requester == requester(1)
        assert got.facts == ("employee resident", "bonus paid in March")
        assert got.evidence.claims == ({"text": "bonus is income"},)
        assert got.evidence.citations[0]["location"] == "Pasal 5 ayat (1)"
        assert got.created_at == T0 and store.get("T-000002").created_at == T0 + dt.timedelta(minutes=1)
        assert [(e.seq, e.kind, e.actor) for e in store.events("T-000001")] == [(1, "opened", "p-1")]
        assert store.events("T-000001")[0].data == {"reason": "no_source", "topic": "PPh 21 bonus"}

    def test_open_is_idempotent_per_thread(self, store: SqlTicketStore, clock: FakeClock) -> None:
        t1, created = store.open_ticket(**open_args(1))
        again, created_again = store.open_ticket(**open_args(1))
        assert created and not created_again
        assert again == t1  # same evidence: nothing changed, no event
        assert [e.kind for e in store.events(t1.id)] == ["opened"]

        clock.advance(seconds=5)
        more, created3 = store.open_ticket(
            **open_args(1, evidence=evidence("bonus is income", "TER applies"))
        )
        assert not created3 and more.id == t1.id and more.version == 2
        assert [c["text"] for c in more.evidence.claims] == ["bonus is income", "TER applies"]
        assert len(more.evidence.citations) == 1  # duplicate citation not repeated
        ev = store.events(t1.id)
        assert [e.kind for e in ev] == ["opened", "evidence_added"]
        assert ev[1].data == {
            "added": {"claims": [{"text": "TER applies"}], "citations": [], "candidates": []}
        }
        assert [t.id for t in store.list()] == ["T-000001"]

    def test_open_for_thread_with_only_finished_ticket_creates_new(self, store: SqlTicketStore) -> None:
        t1, _ = store.open_ticket(**open_args(1))
        store.claim(t1.id, "tax-ana")
        store.answer(t1.id, "tax-ana", "Ya, kena PPh 21.")
        store.close(t1.id, "tax-ana")
        t2, created = store.open_ticket(**open_args(1))
        assert created and t2.id == "T-000002"
        assert store.find_by_thread(thread(1)).id == "T-000002"

    def test_open_rejects_unknown_reason(self, store: SqlTicketStore) -> None:
        with pytest.raises(ValueError, match="unknown escalation reason 'bored'"):
            store.open_ticket(**open_args(1, reason="bored"))
        assert store.list() == []

    def test_concurrent_open_same_thread_creates_one(
        self, store: SqlTicketStore, make_store: Callable[[], Any]
    ) -> None:
        other = make_store()
        barrier = threading.Barrier(2)
        results: list[tuple[str, bool]] = []
        lock = threading.Lock()

        def run(s: SqlTicketStore) -> None:
            barrier.wait()
            t, created = s.open_ticket(**open_args(7))
            with lock:
                results.append((t.id, created))

        threads = [threading.Thread(target=run, args=(s,)) for s in (store, other)]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        assert sorted(results) == [("T-000001", False), ("T-000001", True)]
        assert [t.id for t in store.list()] == ["T-000001"]

    # -- reads ---------------------------------------------------------------------------------------
    def test_get_unknown_raises_not_found(self, store: SqlTicketStore) -> None:
        with pytest.raises(TicketNotFound, match="ticket T-000099 not found"):
            store.get("T-000099")
        with pytest.raises(TicketNotFound):
            store.claim("T-000099", "tax-ana")

    def test_list_filters(self, store: SqlTicketStore) -> None:
        for n in (1, 2, 3):
            store.open_ticket(**open_args(n))
        store.claim("T-000002", "tax-ana")
        assert [t.id for t in store.list(status="open")] == ["T-000001", "T-000003"]
        assert [t.id for t in store.list(status="claimed")] == ["T-000002"]
        assert [t.id for t in store.list(requester_principal_id="p-3")] == ["T-000003"]
        assert store.list(status="claimed", requester_principal_id="p-3") == []
        with pytest.raises(ValueError, match="unknown status 'pending'"):
            store.list(status="pending")

    def test_find_by_thread(self, store: SqlTicketStore) -> None:
        assert store.find_by_thread(thread(1)) is None
        t, _ = store.open_ticket(**open_args(1))
        assert store.find_by_thread(thread(1)).id == t.id
        assert store.find_by_thread(thread(2)) is None

    # -- lifecycle -----------------------------------------------------------------------------------
    def test_full_lifecycle_events_in_order(self, store: SqlTicketStore, clock: FakeClock) -> None:
        t, _ = store.open_ticket(**open_args(1))
        clock.advance(minutes=10)
        assert store.claim(t.id, "tax-ana").assignee == "tax-ana"
        asked = store.ask_info(t.id, "tax-ana", "Is the employee a resident taxpayer?")
        assert (asked.status, asked.assignee) == ("needs_info", "tax-ana")
        replied = store.requester_reply(t.id, "Yes, resident since 2019.")
        assert (replied.status, replied.assignee) == ("open", None)
        store.claim(t.id, "tax-budi")
        store.add_note(t.id, "tax-budi", "checked PMK 168/2023")
        clock.advance(hours=2)
        answered = store.answer(
            t.id, "tax-budi", "Bonus is taxed under TER.", [{"doc_id": "pmk-168-2023", "location": "Pasal 5"}]
        )
        assert (answered.status, answered.answer, answered.answer_by) == (
            "answered",
            "Bonus is taxed under TER.",
            "tax-budi",
        )
        assert answered.answer_sources == ({"doc_id": "pmk-168-2023", "location": "Pasal 5"},)
        reopened = store.requester_reply(t.id, "What about the December bonus?")
        assert (reopened.status, reopened.assignee) == ("open", None)
        store.claim(t.id, "tax-budi")
        store.answer(t.id, "tax-budi", "Same rule; December uses the annual rate.", [])
        closed = store.close(t.id, "tax-budi")
        assert closed.status == "closed" and closed.version == 11

        ev = store.events(t.id)
        assert [(e.seq, e.kind, e.actor) for e in ev] == [
            (1, "opened", "p-1"),
            (2, "claimed", "tax-ana"),
            (3, "info_requested", "tax-ana"),
            (4, "requester_replied", "p-1"),
            (5, "claimed", "tax-budi"),
            (6, "note_added", "tax-budi"),
            (7, "answered", "tax-budi"),
            (8, "reopened", "p-1"),
            (9, "claimed", "tax-budi"),
            (10, "answered", "tax-budi"),
            (11, "closed", "tax-budi"),
        ]
        assert ev[2].data == {"question": "Is the employee a resident taxpayer?"}
        assert ev[6].data == {
            "text": "Bonus is taxed under TER.",
            "sources": [{"doc_id": "pmk-168-2023", "location": "Pasal 5"}],
        }
        assert ev[1].at == T0 + dt.timedelta(minutes=10) and ev[6].at == T0 + dt.timedelta(
            hours=2, minutes=10
        )

    def test_reject_from_each_active_status(self, store: SqlTicketStore) -> None:
        for n in (1, 2, 3):
            store.open_ticket(**open_args(n))
        store.claim("T-000002", "tax-ana")
        store.ask_info("T-000003", "tax-ana", "Which year?")
        for tid in ("T-000001", "T-000002", "T-000003"):
            assert store.reject(tid, "tax-lead", "needs a tax consultant (advice)").status == "rejected"
        assert store.events("T-000002")[-1].data == {"reason": "needs a tax consultant (advice)"}

    def test_unclaim_by_assignee_only(self, store: SqlTicketStore) -> None:
        t, _ = store.open_ticket(**open_args(1))
        store.claim(t.id, "tax-ana")
        with pytest.raises(NotAssignee, match="tax-budi is not the assignee"):
            store.unclaim(t.id, "tax-budi")
        back = store.unclaim(t.id, "tax-ana")
        assert (back.status, back.assignee) == ("open", None)
        assert store.claim(t.id, "tax-budi").assignee == "tax-budi"

    # -- illegal transitions -------------------------------------------------------------------------
    def test_answer_open_ticket_is_illegal(self, store: SqlTicketStore) -> None:
        t, _ = store.open_ticket(**open_args(1))
        with pytest.raises(IllegalTransition) as err:
            store.answer(t.id, "tax-ana", "x")
        assert type(err.value) is IllegalTransition
        assert str(err.value).startswith("ticket T-000001 is open: cannot answer")
        assert "claim it first" in str(err.value)
        assert (err.value.ticket_id, err.value.status, err.value.action) == ("T-000001", "open", "answer")

    def test_close_open_ticket_is_illegal(self, store: SqlTicketStore) -> None:
        t, _ = store.open_ticket(**open_args(1))
        with pytest.raises(
            IllegalTransition, match="ticket T-000001 is open: cannot close; close is allowed only when"
        ):
            store.close(t.id, "tax-ana")
        assert store.get(t.id).version == 1
        assert [e.kind for e in store.events(t.id)] == ["opened"]

    def test_answer_by_non_assignee(self, store: SqlTicketStore) -> None:
        t, _ = store.open_ticket(**open_args(1))
        store.claim(t.id, "tax-ana")
        with pytest.raises(NotAssignee) as err:
            store.answer(t.id, "tax-budi", "x")
        assert isinstance(err.value, IllegalTransition)
        assert (err.value.actor, err.value.assignee) == ("tax-budi", "tax-ana")
        assert store.get(t.id).status == "claimed"

    def test_claim_rules(self, store: SqlTicketStore) -> None:
        t, _ = store.open_ticket(**open_args(1))
        claimed = store.claim(t.id, "tax-ana")
        same = store.claim(t.id, "tax-ana")  # double-clicked button: no-op
        assert same == claimed and [e.kind for e in store.events(t.id)] == ["opened", "claimed"]
        with pytest.raises(AlreadyClaimed, match="already claimed by tax-ana"):
            store.claim(t.id, "tax-budi")
        store.answer(t.id, "tax-ana", "x")
        with pytest.raises(IllegalTransition) as err:
            store.claim(t.id, "tax-budi")
        assert type(err.value) is IllegalTransition and err.value.status == "answered"

    def test_terminal_states_refuse_everything_but_notes(self, store: SqlTicketStore) -> None:
        t, _ = store.open_ticket(**open_args(1))
        store.reject(t.id, "tax-lead", "duplicate of T-000000")
        for call in (
            lambda: store.claim(t.id, "a"),
            lambda: store.requester_reply(t.id, "hello?"),
            lambda: store.close(t.id, "a"),
            lambda: store.reject(t.id, "a", "again"),
            lambda: store.ask_info(t.id, "a", "q"),
        ):
            with pytest.raises(IllegalTransition, match="ticket T-000001 is rejected"):
                call()
        assert store.add_note(t.id, "tax-lead", "requester informed").status == "rejected"

    def test_reopen_refused_when_thread_has_newer_active_ticket(self, store: SqlTicketStore) -> None:
        t1, _ = store.open_ticket(**open_args(1))
        store.claim(t1.id, "tax-ana")
        store.answer(t1.id, "tax-ana", "x")
        t2, created = store.open_ticket(**open_args(1))
        assert created and t2.id == "T-000002"
        with pytest.raises(IllegalTransition, match="already has active ticket T-000002"):
            store.requester_reply(t1.id, "one more thing")
        assert store.get(t1.id).status == "answered"

    # -- concurrency ---------------------------------------------------------------------------------
    def test_concurrent_claims_exactly_one_wins(
        self, store: SqlTicketStore, make_store: Callable[[], Any]
    ) -> None:
        t, _ = store.open_ticket(**open_args(1))
        stores = [store, make_store(), make_store(), make_store()]
        barrier = threading.Barrier(len(stores))
        outcomes: dict[str, str] = {}
        lock = threading.Lock()

        def run(i: int, s: SqlTicketStore) -> None:
            barrier.wait()
            try:
                s.claim(t.id, f"tax-{i}")
                res = "won"
            except AlreadyClaimed:
                res = "lost"
            with lock:
                outcomes[f"tax-{i}"] = res

        threads = [threading.Thread(target=run, args=(i, s)) for i, s in enumerate(stores)]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        winners = [a for a, r in outcomes.items() if r == "won"]
        assert len(outcomes) == 4 and len(winners) == 1
        final = store.get(t.id)
        assert (final.status, final.assignee, final.version) == ("claimed", winners[0], 2)
        assert [(e.kind, e.actor) for e in store.events(t.id)] == [("opened", "p-1"), ("claimed", winners[0])]

    def test_stale_read_loses_on_version_compare_and_set(
        self, store: SqlTicketStore, make_store: Callable[[], Any], monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """The guard is the SQL ``version`` check, not Python state: feed B a stale snapshot."""
        t, _ = store.open_ticket(**open_args(1))
        stale = store.get(t.id)
        store.claim(t.id, "tax-ana")
        other = make_store()
        real_load = other._load
        calls = {"n": 0}

        def load(tx: Any, ticket_id: str) -> Any:
            calls["n"] += 1
            return stale if calls["n"] == 1 else real_load(tx, ticket_id)

        monkeypatch.setattr(other, "_load", load)
        with pytest.raises(AlreadyClaimed, match="already claimed by tax-ana"):
            other.claim(t.id, "tax-budi")
        assert calls["n"] == 2  # CAS failed on the stale version, re-read, re-checked
        assert store.get(t.id).assignee == "tax-ana"

    # -- outbox --------------------------------------------------------------------------------------
    def test_outbox_messages_follow_notify_table(self, store: SqlTicketStore) -> None:
        t, _ = store.open_ticket(**open_args(1))
        store.claim(t.id, "tax-ana")
        store.ask_info(t.id, "tax-ana", "Which month?")
        store.requester_reply(t.id, "March")
        store.claim(t.id, "tax-ana")
        store.answer(t.id, "tax-ana", "Taxed via TER.", [{"doc_id": "pmk-168-2023"}])
        msgs = store.outbox.messages(ticket_id=t.id)
        assert [(m.key, m.kind) for m in msgs] == [
            ("T-000001:1:tax_team", "post_card"),
            ("T-000001:2:tax_team", "update_card"),
            ("T-000001:3:requester", "ask_requester"),
            ("T-000001:3:tax_team", "update_card"),
            ("T-000001:4:tax_team", "update_card"),
            ("T-000001:5:tax_team", "update_card"),
            ("T-000001:6:requester", "relay_answer"),
            ("T-000001:6:tax_team", "update_card"),
        ]
        relay = msgs[6]
        assert relay.payload["ticket"]["answer"] == "Taxed via TER."
        assert relay.payload["ticket"]["thread"]["key"] == thread(1).key
        assert relay.payload["event"] == {
            "seq": 6,
            "kind": "answered",
            "actor": "tax-ana",
            "at": "2025-03-03T08:00:00.000000Z",
            "data": {"text": "Taxed via TER.", "sources": [{"doc_id": "pmk-168-2023"}]},
        }
        assert all(m.status == "pending" and m.attempts == 0 for m in msgs)

    def test_failure_after_ticket_insert_rolls_back_everything(
        self, store: SqlTicketStore, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        def boom(*a: Any, **k: Any) -> None:
            raise RuntimeError("disk full while enqueuing")

        monkeypatch.setattr(store, "_enqueue", boom)
        with pytest.raises(RuntimeError, match="disk full"):
            store.open_ticket(**open_args(1))
        monkeypatch.undo()
        assert store.list() == [] and store.outbox.messages() == []
        t, created = store.open_ticket(**open_args(1))
        assert (t.id, created) == ("T-000001", True)  # counter was rolled back too

        monkeypatch.setattr(store, "_enqueue", boom)
        with pytest.raises(RuntimeError):
            store.claim(t.id, "tax-ana")
        monkeypatch.undo()
        after = store.get(t.id)
        assert (after.status, after.version, after.assignee) == ("open", 1, None)
        assert [e.kind for e in store.events(t.id)] == ["opened"]
        assert [m.key for m in store.outbox.messages()] == ["T-000001:1:tax_team"]

    def test_deliver_pending_in_order_and_card_ref(self, store: SqlTicketStore) -> None:
        t, _ = store.open_ticket(**open_args(1))
        store.claim(t.id, "tax-ana")
        store.answer(t.id, "tax-ana", "ok")
        sent: list[str] = []

        def sender(m: OutboxMessage) -> str:
            sent.append(m.key)
            return f"ext-{m.event_seq}-{m.channel}"

        res = store.outbox.deliver_pending(sender, T0)
        assert sent == [
            "T-000001:1:tax_team",
            "T-000001:3:requester",
            "T-000001:2:tax_team",
            "T-000001:3:tax_team",
        ]
        assert res.delivered == tuple(sent) and res.failed == () and res.dead == ()
        assert store.outbox.card_ref(t.id) == "ext-1-tax_team"
        assert store.outbox.get("T-000001:3:requester").external_ref == "ext-3-requester"
        assert store.outbox.due(T0 + dt.timedelta(days=1)) == []
        assert store.outbox.deliver_pending(sender, T0 + dt.timedelta(days=1)).delivered == ()

    def test_update_card_waits_for_failed_card_post(self, store: SqlTicketStore) -> None:
        t, _ = store.open_ticket(**open_args(1))
        store.claim(t.id, "tax-ana")

        def down(m: OutboxMessage) -> str:
            raise ConnectionError("teams unavailable")

        res = store.outbox.deliver_pending(down, T0)
        assert res.failed == ("T-000001:1:tax_team",)
        later = T0 + dt.timedelta(minutes=10)
        assert [m.key for m in store.outbox.due(later)] == ["T-000001:1:tax_team"]  # update not before post
        res2 = store.outbox.deliver_pending(lambda m: "card-1", later)
        assert res2.delivered == ("T-000001:1:tax_team", "T-000001:2:tax_team")

    def test_redelivery_after_crash_uses_same_key(
        self, store: SqlTicketStore, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        store.open_ticket(**open_args(1))
        seen: list[str] = []

        def sender(m: OutboxMessage) -> str:
            seen.append(m.key)
            return "activity-42"

        def crash(key: str, ref: str) -> None:
            raise Crash("process killed between send and mark")

        monkeypatch.setattr(store.outbox, "mark_delivered", crash)
        with pytest.raises(Crash):
            store.outbox.deliver_pending(sender, T0)
        monkeypatch.undo()
        msg = store.outbox.get("T-000001:1:tax_team")
        assert msg.status == "pending" and msg.attempts == 0
        lease = dt.timedelta(seconds=store.outbox.policy.lease_seconds)
        assert msg.next_attempt_at == T0 + lease
        assert store.outbox.deliver_pending(sender, T0 + lease - dt.timedelta(seconds=1)).delivered == ()
        res = store.outbox.deliver_pending(sender, T0 + lease)
        assert seen == ["T-000001:1:tax_team", "T-000001:1:tax_team"]
        assert res.delivered == ("T-000001:1:tax_team",)
        assert store.outbox.get("T-000001:1:tax_team").external_ref == "activity-42"

    def test_backoff_schedule_and_dead_after_max_attempts(self, store: SqlTicketStore) -> None:
        store.outbox.policy = OutboxPolicy(base_seconds=10, cap_seconds=30, max_attempts=4, lease_seconds=5)
        store.open_ticket(**open_args(1))
        key = "T-000001:1:tax_team"

        def down(m: OutboxMessage) -> str:
            raise TimeoutError(f"attempt {m.attempts + 1} timed out")

        now = T0
        schedule = []
        for _ in range(3):
            res = store.outbox.deliver_pending(down, now)
            assert res.failed == (key,)
            msg = store.outbox.get(key)
            schedule.append((msg.attempts, (msg.next_attempt_at - now).total_seconds()))
            assert store.outbox.due(msg.next_attempt_at - dt.timedelta(microseconds=1)) == []
            now = msg.next_attempt_at
        assert schedule == [(1, 10.0), (2, 20.0), (3, 30.0)]  # 10, 20, capped at 30
        res = store.outbox.deliver_pending(down, now)
        assert res.dead == (key,) and res.failed == ()
        dead = store.outbox.get(key)
        assert (dead.status, dead.attempts, dead.last_error) == (
            "dead",
            4,
            "TimeoutError: attempt 4 timed out",
        )
        assert store.outbox.due(now + dt.timedelta(days=365)) == []
        assert [m.key for m in store.outbox.messages(status="dead")] == [key]

    def test_mark_failed_direct(self, store: SqlTicketStore) -> None:
        store.open_ticket(**open_args(1))
        key = "T-000001:1:tax_team"
        m = store.outbox.mark_failed(key, "HTTP 503", T0)
        assert (m.attempts, m.next_attempt_at, m.last_error) == (1, T0 + dt.timedelta(seconds=30), "HTTP 503")
        store.outbox.mark_delivered(key, "ref-1")
        store.outbox.mark_delivered(key, "ref-1")  # idempotent
        assert store.outbox.get(key).status == "delivered"
        from tickets import StoreError

        with pytest.raises(StoreError, match="is delivered, not pending"):
            store.outbox.mark_failed(key, "late failure", T0)
        with pytest.raises(StoreError, match="outbox message nope not found"):
            store.outbox.mark_delivered("nope", "x")

    def test_lost_response_stays_uncertain_until_an_operator_acts(self, store: SqlTicketStore) -> None:
        from tickets import DeliveryUncertain, StoreError, outbox_stats

        t1, _ = store.open_ticket(**open_args(1))
        store.claim(t1.id, "tax-ana")  # an update_card behind the card post
        store.open_ticket(**open_args(2))
        posts: list[str] = []

        def lost_first_card(m: OutboxMessage) -> str:
            posts.append(m.key)
            if m.key == "T-000001:1:tax_team":
                raise DeliveryUncertain("POST sent, connection reset before the response")
            return f"ext-{m.key}"

        res = store.outbox.deliver_pending(lost_first_card, T0)
        assert res.uncertain == ("T-000001:1:tax_team",)
        assert res.delivered == ("T-000002:1:tax_team",)  # another message's success ...
        msg = store.outbox.get("T-000001:1:tax_team")
        assert (msg.status, msg.attempts) == ("uncertain", 1)  # ... does not clear the uncertain one
        assert msg.last_error == "DeliveryUncertain: POST sent, connection reset before the response"
        # Never re-posted by later runs, and the card update behind it waits too.
        for days in (1, 30):
            later = T0 + dt.timedelta(days=days)
            assert store.outbox.due(later) == []
            assert store.outbox.deliver_pending(lost_first_card, later) == type(res)()
        assert posts == ["T-000001:1:tax_team", "T-000002:1:tax_team"]
        # A stray late success for it is ignored: only an operator resolves an uncertain message.
        store.outbox.mark_delivered("T-000001:1:tax_team", "late")
        assert store.outbox.get("T-000001:1:tax_team").status == "uncertain"
        stats = outbox_stats(store, T0 + dt.timedelta(hours=2))
        assert (stats.pending, stats.uncertain, stats.dead, stats.depth) == (1, 1, 0, 2)
        assert stats.oldest_pending_age_seconds == 7200.0  # the waiting update_card
        with pytest.raises(StoreError, match="is uncertain, not pending"):
            store.outbox.mark_failed("T-000001:1:tax_team", "x", T0)

        store.outbox.redrive("T-000001:1:tax_team", "ops-budi")
        assert msg.redriven_at is None
        again = store.outbox.get("T-000001:1:tax_team")
        assert (again.status, again.attempts, again.redriven_at) == ("pending", 0, T0)
        ev = store.events(t1.id)[-1]
        assert (ev.kind, ev.actor, ev.data["key"], ev.data["was"]) == (
            "outbox_redriven",
            "ops-budi",
            "T-000001:1:tax_team",
            "uncertain",
        )
        assert store.get(t1.id).status == "claimed"  # an operator event changes no ticket state
        res3 = store.outbox.deliver_pending(lambda m: f"ext-{m.key}", T0 + dt.timedelta(days=31))
        assert res3.delivered == ("T-000001:1:tax_team", "T-000001:2:tax_team")
        assert outbox_stats(store, T0).depth == 0

    def test_resolve_uncertain_as_delivered(self, store: SqlTicketStore) -> None:
        from tickets import DeliveryUncertain, StoreError

        t, _ = store.open_ticket(**open_args(1))

        def lost(m: OutboxMessage) -> str:
            raise DeliveryUncertain("timeout after POST")

        store.outbox.deliver_pending(lost, T0)
        store.open_ticket(**open_args(2))
        store.outbox.deliver_pending(lambda m: "ok", T0)
        with pytest.raises(StoreError, match="is delivered; only dead or uncertain"):
            store.outbox.redrive("T-000002:1:tax_team", "ops")
        m = store.outbox.resolve_delivered("T-000001:1:tax_team", "ops-budi", "activity-7")
        assert (m.status, m.external_ref) == ("delivered", "activity-7")
        assert store.outbox.card_ref(t.id) == "activity-7"
        assert store.events(t.id)[-1].kind == "outbox_resolved"
        with pytest.raises(StoreError, match="only uncertain ones can be resolved"):
            store.outbox.resolve_delivered("T-000001:1:tax_team", "ops-budi")
        with pytest.raises(StoreError, match="not found"):
            store.outbox.redrive("T-999999:1:tax_team", "ops")

    def test_dead_letter_logs_error_without_the_body(
        self, store: SqlTicketStore, caplog: pytest.LogCaptureFixture
    ) -> None:
        import logging

        from tickets import outbox_stats

        store.outbox.policy = OutboxPolicy(base_seconds=1, cap_seconds=1, max_attempts=2, lease_seconds=1)
        t, _ = store.open_ticket(**open_args(1))

        def down(m: OutboxMessage) -> str:
            raise ConnectionError("HTTP 502 from connector")

        caplog.set_level(logging.INFO, logger="tickets.sql")
        store.outbox.deliver_pending(down, T0)
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
        res = store.outbox.deliver_pending(down, T0 + dt.timedelta(seconds=5))
        assert res.dead == ("T-000001:1:tax_team",)
        errors = [r.getMessage() for r in caplog.records if r.levelno == logging.ERROR]
        assert len(errors) == 1
        assert errors[0].startswith(
            "outbox_key=T-000001:1:tax_team, ticket_id=T-000001, channel=tax_team, kind=post_card, "
            "attempts=2, error_type=ConnectionError | outbox message is dead"
        )
        assert t.question_masked not in errors[0] and "HTTP 502" not in errors[0]
        assert outbox_stats(store, T0).dead == 1

        store.outbox.redrive("T-000001:1:tax_team", "ops-budi")
        assert [e.kind for e in store.events(t.id)][-1] == "outbox_redriven"
        assert store.events(t.id)[-1].data["was"] == "dead"
        assert [m.key for m in store.outbox.due(T0 + dt.timedelta(seconds=10))] == ["T-000001:1:tax_team"]

    # -- misc ----------------------------------------------------------------------------------------
    def test_evidence_roundtrip_keeps_dict_content(self, store: SqlTicketStore) -> None:
        ev = Evidence.of(
            claims=[
                {"text": "Tarif 5%", "quote": "dikenai tarif sebesar 5% (lima persen)", "span": [10, 48]}
            ],
            citations=[{"doc_id": "uu-36-2008", "location": "Pasal 17 ayat (1) huruf a"}],
        )
        t, _ = store.open_ticket(**open_args(3, evidence=ev))
        assert store.get(t.id).evidence == ev
        assert replace(ev) == store.get(t.id).evidence

    # -- reporting -----------------------------------------------------------------------------------
    def test_report_numbers(self, store: SqlTicketStore, clock: FakeClock) -> None:
        from tickets import StatusAging, build_report

        def at(**kw: float) -> None:
            clock.now = T0 + dt.timedelta(**kw)

        store.open_ticket(**open_args(1, reason="no_source", topic="PPh 21 bonus"))
        at(minutes=30)
        store.open_ticket(**open_args(2, reason="low_confidence", topic="pph 21  BONUS"))
        at(hours=1)
        store.claim("T-000001", "ana")
        store.open_ticket(**open_args(3, reason="advice", topic="PPN impor"))
        at(hours=1, minutes=30)
        store.open_ticket(**open_args(4, reason="no_source", topic="ppn impor"))
        at(hours=2)
        store.claim("T-000003", "bob")
        store.answer("T-000003", "bob", "first")
        store.reject("T-000004", "lead", "duplicate")
        store.open_ticket(**open_args(5, reason="no_source", topic=None))
        at(hours=2, minutes=30)
        store.claim("T-000005", "ana")
        at(hours=3)
        store.answer("T-000001", "ana", "x")
        at(hours=4)
        store.requester_reply("T-000003", "follow-up")
        at(hours=5)
        store.claim("T-000003", "bob")
        store.answer("T-000003", "bob", "second")
        at(hours=7)
        store.answer("T-000005", "ana", "y")
        at(hours=7, minutes=30)
        store.close("T-000001", "ana")

        rep = build_report(store, T0 + dt.timedelta(hours=8), top_n=1)
        assert rep.total == 5
        assert rep.aging == (
            StatusAging("open", 1, 27000.0, "T-000002"),
            StatusAging("claimed", 0, None, None),
            StatusAging("needs_info", 0, None, None),
            StatusAging("answered", 2, 10800.0, "T-000003"),
            StatusAging("closed", 1, 1800.0, "T-000001"),
            StatusAging("rejected", 1, 21600.0, "T-000004"),
        )
        assert rep.by_reason == (
            ("no_source", 3),
            ("low_confidence", 1),
            ("out_of_scope", 0),
            ("advice", 1),
            ("protected_determination", 0),
            ("user_request", 0),
            ("answer_failed", 0),
        )
        assert rep.top_topics == (("pph 21 bonus", 2),)  # tie with "ppn impor" broken by text
        assert build_report(store, T0 + dt.timedelta(hours=8), top_n=5).top_topics == (
            ("pph 21 bonus", 2),
            ("ppn impor", 2),
        )
        # first answers: T1 3h, T3 1h (its second answer does not count), T5 5h -> median 3h
        assert rep.answered_count == 3
        assert rep.median_time_to_answer_seconds == 10800.0

    # -- answer feedback -----------------------------------------------------------------------------
    def test_feedback_is_stored_once_per_answer_and_user_latest_verdict_wins(
        self, store: SqlTicketStore, clock: FakeClock
    ) -> None:
        assert isinstance(store, FeedbackStore)
        first = store.record_feedback(
            feedback("SLK-1", "U1", "not_helpful", comment="angka salah <PERSON_1>")
        )
        assert (first.verdict, first.comment_masked, first.created_at) == (
            "not_helpful",
            "angka salah <PERSON_1>",
            T0,
        )
        clock.advance(minutes=5)
        again = store.record_feedback(feedback("SLK-1", "U1", "helpful"))
        assert again.verdict == "helpful" and again.comment_masked == "angka salah <PERSON_1>"
        assert (again.created_at, again.updated_at) == (T0, T0 + dt.timedelta(minutes=5))
        store.record_feedback(feedback("SLK-1", "U2", "not_helpful", band="low"))
        store.record_feedback(feedback("TMS-7", "U1", "helpful", platform="teams"))
        rows = store.list_feedback()
        assert [(f.answer_ref, f.user_id, f.verdict) for f in rows] == [
            ("SLK-1", "U1", "helpful"),
            ("SLK-1", "U2", "not_helpful"),
            ("TMS-7", "U1", "helpful"),
        ]
        assert [f.user_id for f in store.list_feedback(verdict="not_helpful")] == ["U2"]
        assert (
            store.list_feedback(since=T0 + dt.timedelta(minutes=1), verdict="helpful")[0].answer_ref
            == "SLK-1"
        )
        with pytest.raises(ValueError, match="unknown verdict"):
            store.list_feedback(verdict="meh")

    def test_feedback_comment_is_capped_and_blank_comment_is_none(self, store: SqlTicketStore) -> None:
        long = store.record_feedback(feedback("R-1", "U1", "not_helpful", comment="x" * 5000))
        assert long.comment_masked == "x" * 1000
        blank = store.record_feedback(feedback("R-2", "U1", "not_helpful", comment="   "))
        assert blank.comment_masked is None

    def test_feedback_survives_reopening_the_store(self, make_store: Callable[[], SqlTicketStore]) -> None:
        make_store().record_feedback(feedback("R-9", "U9", "not_helpful"))
        (row,) = make_store().list_feedback()
        assert (row.answer_ref, row.user_id, row.corpus_version) == ("R-9", "U9", "c0ffee12")


def feedback(
    ref: str,
    user: str,
    verdict: str,
    *,
    comment: str | None = None,
    band: str = "high",
    status: str = "answered",
    platform: str = "slack",
) -> Feedback:
    return Feedback(
        answer_ref=ref,
        user_id=user,
        platform=platform,
        tenant="T01",
        corpus_version="c0ffee12",
        answer_status=status,
        confidence_band=band,
        verdict=verdict,
        comment_masked=comment,
    )
