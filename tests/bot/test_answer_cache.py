"""The Turn's answer cache: a repeat question is served from it, another reader never gets it, a change of
the corpus invalidates it (hashing-embedder index of the real sample corpus)."""

from __future__ import annotations

import datetime as dt
import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.answer_cache import AnswerCache, answer_from_json, cacheable
from bot.audit import MemoryAuditLog
from bot.cli import main
from bot.history import MemoryHistory, conversation_key
from bot.messages import InboundMessage
from bot.settings import Settings
from bot.turn import Turn
from bot.wiring import Services, injection_flagger
from kb.embed.hashing import HashingEmbedder
from kb.ingest import ingest_paths

ROOT = Path(__file__).resolve().parents[2]
DIRECTORY = ROOT / "corpus" / "directory.yaml"
MEMO = ROOT / "corpus" / "internal" / "memo-pph26-sg-software.md"
QUESTION = "What does the PPh 26 memo on the Singapore software licence conclude?"
TODAY = dt.date(2026, 11, 30)


@pytest.fixture(scope="module")
def redis_url() -> Iterator[str]:
    from tests.support.redis_server import running_redis

    with running_redis() as url:
        yield url


@pytest.fixture
def world(behaviour_kb: Path, tmp_path: Path) -> Iterator[Any]:
    """A private copy of the behaviour index (this test writes to it) with a Turn that caches."""
    kb = tmp_path / "kb.sqlite"
    shutil.copyfile(behaviour_kb, kb)
    svc = Services(
        Settings(kb=kb, directory=DIRECTORY, tickets_db=tmp_path / "t.sqlite", embedder="hashing-256")
    )
    cache = AnswerCache(svc.store)
    turn = Turn(
        svc,
        resolver=svc.resolver(),
        history=MemoryHistory(),
        audit=MemoryAuditLog(),
        today=lambda: TODAY,
        answer_cache=cache,
    )
    yield svc, turn, cache
    svc.store.close()


def _ask(svc: Any, turn: Turn, email: str, text: str, thread: str) -> Any:
    entry = svc.directory.lookup_email(email)
    msg = InboundMessage(
        platform="slack",
        tenant="T0SINAR01",
        user_id=entry.slack_id,
        channel="D0DM0001",
        thread_id=thread,
        message_id="m1",
        text=text,
    )
    return turn.handle(msg)


def _evidence(svc: Any, turn: Turn, email: str, thread: str) -> dict[str, Any]:
    entry = svc.directory.lookup_email(email)
    key = conversation_key("slack", "T0SINAR01", entry.slack_id, thread)
    meta = next(e.meta for e in reversed(turn.history.recent(key)) if e.role == "assistant" and e.meta)
    evidence: dict[str, Any] = json.loads(meta)["evidence"]
    return evidence


def _deterministic(answer: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in answer.items() if k != "timings"}


def test_repeat_question_is_served_from_the_cache_and_never_to_another_reader(world: Any) -> None:
    svc, turn, cache = world
    first = _ask(svc, turn, "tax.lead@sinarnusantara.co.id", QUESTION, "t1")
    assert first.status == "answered"
    assert any(c["source"]["doc_id"] == "memo-pph26-sg-software" for c in first.answer["claims"])
    assert cache.stats()["puts"] == 1 and cache.hits == 0

    # same question, other thread, extra spaces and capitals: served from the cache, identical answer
    again = _ask(
        svc,
        turn,
        "tax.lead@sinarnusantara.co.id",
        "  what does the PPh 26 memo on the  Singapore software licence conclude? ",
        "t2",
    )
    assert cache.hits == 1
    assert "cache_ms" in again.answer["timings"] and "cache_ms" not in first.answer["timings"]
    assert _deterministic(again.answer) == _deterministic(first.answer)
    assert turn.audit.records[-1].cited_chunks == turn.audit.records[0].cited_chunks
    # the thread keeps the same escalation evidence (a later "please escalate" files it on the ticket)
    first_ev, again_ev = (_evidence(svc, turn, "tax.lead@sinarnusantara.co.id", t) for t in ("t1", "t2"))
    assert again_ev["claims"] and again_ev["claims"] == first_ev["claims"]
    assert {c["chunk_id"] for c in again_ev["citations"]} == {c["chunk_id"] for c in first_ev["citations"]}
    assert [c["chunk_id"] for c in again_ev["candidates"]] == [c["chunk_id"] for c in first_ev["candidates"]]
    assert len(first_ev["candidates"]) > len(first_ev["citations"])  # retrieval candidates, not only cited

    # an AP clerk (no tax-team group) asks the same: not a hit, and the restricted memo is not cited
    clerk = _ask(svc, turn, "ap.clerk@sinarnusantara.co.id", QUESTION, "t3")
    assert cache.hits == 1 and cache.misses == 2
    assert all(c["source"]["doc_id"] != "memo-pph26-sg-software" for c in clerk.answer["claims"])
    assert clerk.answer["answer"] != first.answer["answer"]


def test_ingesting_a_change_invalidates_the_cached_answer(
    world: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    svc, turn, cache = world
    first = _ask(svc, turn, "tax.lead@sinarnusantara.co.id", QUESTION, "t1")
    assert first.status == "answered" and svc.store.cached_answer_count() == 1

    # a new version of the memo from another folder: removed (`dasar kb remove`), then ingested
    changed = tmp_path / "memos" / MEMO.name
    changed.parent.mkdir(parents=True)
    changed.write_text(
        MEMO.read_text(encoding="utf-8").replace(
            "withhold PPh 26 at 20% of the gross fee",
            "withhold PPh 26 at 20% of the gross fee, as confirmed by the tax lead",
        ),
        encoding="utf-8",
    )
    svc.store.remove_document("memo-pph26-sg-software")
    assert svc.store.cached_answer_count() == 0  # the store dropped the entry citing the removed memo
    report = ingest_paths([changed], svc.store, HashingEmbedder(), flagger=injection_flagger)
    assert report.added == ["memo-pph26-sg-software"], report.to_json()

    after = _ask(svc, turn, "tax.lead@sinarnusantara.co.id", QUESTION, "t2")
    assert cache.hits == 0 and cache.misses == 2
    assert after.answer["corpus_version"] != first.answer["corpus_version"]
    assert "cache_ms" not in after.answer["timings"]

    # and `dasar kb cache purge` makes the new entry unreachable too
    assert svc.store.cached_answer_count() == 1
    _ask(svc, turn, "tax.lead@sinarnusantara.co.id", QUESTION, "t3")
    assert cache.hits == 1
    assert main(["kb", "cache", "purge", "--kb", str(svc.settings.kb), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"purged": "all", "entries": 1, "generation": 1}
    _ask(svc, turn, "tax.lead@sinarnusantara.co.id", QUESTION, "t4")
    assert cache.hits == 1 and cache.misses == 3
    turn.purge_answer_cache()  # the turn's own hook (FAQ changes inside a serving process)
    assert cache.generation() == 2


def test_only_verified_answers_are_cached_and_payloads_round_trip(world: Any) -> None:
    from bot.answer.pipeline import answer_question

    svc, _turn, cache = world
    lead = svc.cli_principal("tax.lead@sinarnusantara.co.id")
    answered = answer_question(QUESTION, lead, svc, today=TODAY)
    assert cacheable(answered)
    data = answered.to_json(include_timings=False)
    assert answer_from_json(data).to_json(include_timings=False) == data
    abstained = answer_question("capital of France?", lead, svc, today=TODAY)
    assert not cacheable(abstained)
    assert cache.put("capital of France?", lead, TODAY, abstained) is False
    key = cache.key(QUESTION, lead, TODAY)
    assert key == cache.key(" " + QUESTION.upper(), lead, TODAY)
    assert key != cache.key(QUESTION, lead, TODAY + dt.timedelta(days=1))


def test_redis_backend_purges_exactly_the_entries_citing_changed_documents(
    world: Any, redis_url: str
) -> None:
    import redis

    from bot.answer.pipeline import answer_question

    svc, _turn, _ = world
    client = redis.Redis.from_url(redis_url)
    cache = AnswerCache(svc.store, redis=client, prefix="test:ac:")
    lead = svc.cli_principal("tax.lead@sinarnusantara.co.id")
    memo = answer_question(QUESTION, lead, svc, today=TODAY)
    other_q = "Berapa tarif PPN pada 1 Mei 2022?"
    ppn = answer_question(other_q, lead, svc, today=TODAY)
    assert cacheable(ppn) and {c.source.doc_id for c in ppn.claims}.isdisjoint({"memo-pph26-sg-software"})
    assert cache.put(QUESTION, lead, TODAY, memo) and cache.put(other_q, lead, TODAY, ppn)
    assert cache.get(QUESTION, lead, TODAY) is not None
    assert cache.purge_documents(["memo-pph26-sg-software"]) == 1
    assert cache.get(QUESTION, lead, TODAY) is None
    hit = cache.get(other_q, lead, TODAY)
    assert hit is not None and hit.to_json(include_timings=False) == ppn.to_json(include_timings=False)
    assert cache.purge() >= 1 and cache.get(other_q, lead, TODAY) is None
