"""The Turn's answer cache: a repeat question is served from it, another reader never gets it, a change of
the corpus invalidates it (hashing-embedder index of the real sample corpus)."""

from __future__ import annotations

import datetime as dt
import json
import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.answer_cache import AnswerCache, answer_from_json, cacheable, related_documents
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


def _caching_turn(svc: Services, cache: AnswerCache) -> Turn:
    return Turn(
        svc,
        resolver=svc.resolver(),
        history=MemoryHistory(),
        audit=MemoryAuditLog(),
        today=lambda: TODAY,
        answer_cache=cache,
    )


@pytest.fixture
def world(behaviour_kb: Path, tmp_path: Path) -> Iterator[Any]:
    """A private copy of the behaviour index (this test writes to it) with a Turn that caches."""
    kb = tmp_path / "kb.sqlite"
    shutil.copyfile(behaviour_kb, kb)
    svc = Services(
        Settings(kb=kb, directory=DIRECTORY, tickets_db=tmp_path / "t.sqlite", embedder="hashing-256")
    )
    cache = AnswerCache(svc.store)
    turn = _caching_turn(svc, cache)
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


# --- invalidation per document: exactly the entries resting on what changed --------------------------------

REGS = ROOT / "corpus" / "regulations"
LEAD = "tax.lead@sinarnusantara.co.id"
PPN_Q = "Berapa tarif PPN pada 1 Mei 2022?"  # rests on the UU PPN chain (UU 8/1983, UU 42/2009, ...)
UMKM_Q = "Berapa tarif PPh final UMKM menurut PP 55/2022?"  # rests on PP 55/2022 and the WHT matrix
UNRELATED = """---
id: parking-reimbursement-policy
title: Kebijakan Penggantian Biaya Parkir Kantor
number: SNR-POL-GA-031
type: policy
jurisdiction: ID
language: id
effective_from: 2025-01-01
status: in_force
source_url: https://intranet.sinarnusantara.co.id/policies/ga/SNR-POL-GA-031
accessed: 2026-02-16
owner: ga.manager@sinarnusantara.co.id
approved_by: ga.manager@sinarnusantara.co.id
entities: [SNR]
access: [finance, tax-team]
---
# Kebijakan Penggantian Biaya Parkir Kantor

## Ketentuan

Karyawan yang membawa kendaraan ke kantor pusat dapat mengajukan penggantian biaya parkir paling banyak
Rp 300.000 per bulan dengan melampirkan struk parkir asli kepada bagian General Affairs.
"""


def _hit(reply: Any) -> bool:
    return "cache_ms" in reply.answer["timings"]


def _cited_docs(reply: Any) -> set[str]:
    return {c["source"]["doc_id"] for c in reply.answer["claims"]}


def _record(svc: Any, cache: AnswerCache, impact: Any, tmp_path: Path) -> None:
    """What ``dasar ingest`` does after writing: assess and log the impact, purge the cache."""
    from bot.impact import ImpactLog, record

    record(impact, store=svc.store, log=ImpactLog(tmp_path / "impact.jsonl"), answer_cache=cache)


def test_ingesting_an_unrelated_document_keeps_every_entry(world: Any, tmp_path: Path) -> None:
    svc, turn, cache = world
    first = {q: _ask(svc, turn, LEAD, q, f"a{i}") for i, q in enumerate((QUESTION, PPN_Q, UMKM_Q))}
    assert [r.status for r in first.values()] == ["answered"] * 3 and cache.puts == 3
    assert svc.store.cached_answer_count() == 3

    src = tmp_path / "new" / "parking-reimbursement-policy.md"
    src.parent.mkdir()
    src.write_text(UNRELATED, encoding="utf-8")
    report = ingest_paths([src.parent], svc.store, HashingEmbedder(), flagger=injection_flagger)
    assert report.added == ["parking-reimbursement-policy"], report.to_json()
    assert report.impact is not None and report.impact.doc_ids == {"parking-reimbursement-policy"}
    _record(svc, cache, report.impact, tmp_path)  # purges the new document's entries: there are none

    assert svc.store.cached_answer_count() == 3
    again = {q: _ask(svc, turn, LEAD, q, f"b{i}") for i, q in enumerate((QUESTION, PPN_Q, UMKM_Q))}
    assert {q: _hit(r) for q, r in again.items()} == {QUESTION: True, PPN_Q: True, UMKM_Q: True}
    assert cache.stats()["stale"] == 0
    for q in again:
        assert _deterministic(again[q].answer) == _deterministic(first[q].answer)


def test_an_amending_act_purges_only_the_entries_resting_on_what_it_amends(
    behaviour_kb: Path, tmp_path: Path
) -> None:
    """The cache is filled before UU 7/2021 (HPP) is in the knowledge base; ingesting it amends the UU PPN
    chain the PPN answer cites (Pasal 7: 10% -> 11%), not PP 55/2022 nor the memo."""
    from kb.linking import relink

    kb = tmp_path / "kb.sqlite"
    shutil.copyfile(behaviour_kb, kb)
    svc = Services(
        Settings(kb=kb, directory=DIRECTORY, tickets_db=tmp_path / "t.sqlite", embedder="hashing-256")
    )
    svc.store.remove_document("uu-7-2021")
    relink(svc.store)
    cache = AnswerCache(svc.store)
    turn = _caching_turn(svc, cache)
    try:
        before = {q: _ask(svc, turn, LEAD, q, f"a{i}") for i, q in enumerate((QUESTION, PPN_Q, UMKM_Q))}
        assert [r.status for r in before.values()] == ["answered"] * 3 and cache.puts == 3
        assert "uu-7-2021" not in _cited_docs(before[PPN_Q])
        assert _cited_docs(before[PPN_Q]) & {"uu-8-1983", "uu-42-2009", "uu-18-2000"}

        with sqlite3.connect(kb) as db:  # what each entry rests on, as the cache recorded it
            rested: dict[str, set[str]] = {}
            for key, doc_id in db.execute("SELECT key, doc_id FROM answer_cache_docs"):
                rested.setdefault(key, set()).add(doc_id)
        assert len(rested) == 3

        report = ingest_paths([REGS / "uu-7-2021"], svc.store, HashingEmbedder(), flagger=injection_flagger)
        assert report.added == ["uu-7-2021"], report.to_json()
        assert report.impact is not None
        _record(svc, cache, report.impact, tmp_path)
        # the entries resting on a law UU 7/2021 amends go (the PPN entry, on the UU PPN chain; the memo's
        # when its run retrieved a passage of UU PPh or UU KUP), the others stay (the UMKM entry: PP 55/2022
        # and the WHT matrix)
        related = related_documents(svc.store, report.impact.doc_ids)
        assert {"uu-8-1983", "uu-42-2009", "uu-36-2008"} <= related
        stays = [key for key, docs in rested.items() if not docs & related]
        assert 1 <= len(stays) <= 2
        assert svc.store.cached_answer_count() == len(stays)

        after = {q: _ask(svc, turn, LEAD, q, f"b{i}") for i, q in enumerate((PPN_Q, UMKM_Q))}
        assert {q: _hit(r) for q, r in after.items()} == {PPN_Q: False, UMKM_Q: True}
        assert "uu-7-2021" in _cited_docs(after[PPN_Q])  # answered afresh from the amending act
        assert _deterministic(after[UMKM_Q].answer) == _deterministic(before[UMKM_Q].answer)
    finally:
        svc.store.close()


def test_removing_a_cited_document_misses_only_its_entries(world: Any) -> None:
    from kb.linking import relink

    svc, turn, cache = world
    for i, q in enumerate((QUESTION, PPN_Q, UMKM_Q)):
        assert _ask(svc, turn, LEAD, q, f"a{i}").status == "answered"
    svc.store.remove_document("memo-pph26-sg-software")  # `dasar kb remove`
    relink(svc.store)
    assert svc.store.cached_answer_count() == 2
    again = {q: _ask(svc, turn, LEAD, q, f"b{i}") for i, q in enumerate((QUESTION, PPN_Q, UMKM_Q))}
    assert {q: _hit(r) for q, r in again.items()} == {QUESTION: False, PPN_Q: True, UMKM_Q: True}
    assert "memo-pph26-sg-software" not in _cited_docs(again[QUESTION])
    assert (cache.hits, cache.stale) == (2, 0)  # the store deleted the memo's entry; nothing found stale


def test_a_missed_purge_is_caught_on_read(world: Any, redis_url: str) -> None:
    """Another process changed the corpus and nobody purged Redis: the hit is verified against the store's
    passages, found stale, deleted and answered afresh; the unaffected entry is still served."""
    import redis

    from bot.answer.pipeline import answer_question
    from tools.ledger import Ledger

    svc, _turn, _ = world
    client = redis.Redis.from_url(redis_url)
    cache = AnswerCache(svc.store, redis=client, prefix="test:stale:")
    lead = svc.cli_principal(LEAD)
    for q in (QUESTION, UMKM_Q):
        ledger = Ledger()
        assert cache.put(q, lead, TODAY, answer_question(q, lead, svc, today=TODAY, ledger=ledger), ledger)
    # the memo is re-ingested with other wording (a new version) and nothing tells Redis
    changed = Path(svc.settings.kb).parent / "memos" / MEMO.name
    changed.parent.mkdir()
    changed.write_text(
        MEMO.read_text(encoding="utf-8").replace(
            "withhold PPh 26 at 20% of the gross fee", "withhold PPh 26 at 10% of the gross fee"
        ),
        encoding="utf-8",
    )
    svc.store.remove_document("memo-pph26-sg-software")
    assert ingest_paths([changed], svc.store, HashingEmbedder(), flagger=injection_flagger).ok
    assert client.exists(f"test:stale:{cache.key(QUESTION, lead, TODAY)}") == 1

    assert cache.get(QUESTION, lead, TODAY) is None
    assert cache.stats()["stale"] == 1
    assert client.exists(f"test:stale:{cache.key(QUESTION, lead, TODAY)}") == 0  # dropped
    assert cache.get(UMKM_Q, lead, TODAY) is not None
    assert cache.stats()["hits"] == 1


def test_redis_amendment_purges_only_the_entries_resting_on_the_amended_chain(
    behaviour_kb: Path, tmp_path: Path, redis_url: str
) -> None:
    import redis

    from bot.answer.pipeline import answer_question
    from kb.linking import relink
    from tools.ledger import Ledger

    kb = tmp_path / "kb.sqlite"
    shutil.copyfile(behaviour_kb, kb)
    svc = Services(
        Settings(kb=kb, directory=DIRECTORY, tickets_db=tmp_path / "t.sqlite", embedder="hashing-256")
    )
    try:
        svc.store.remove_document("uu-7-2021")
        relink(svc.store)
        client = redis.Redis.from_url(redis_url)
        cache = AnswerCache(svc.store, redis=client, prefix="test:amend:")
        lead = svc.cli_principal(LEAD)
        for q in (PPN_Q, UMKM_Q):
            ledger = Ledger()
            assert cache.put(
                q, lead, TODAY, answer_question(q, lead, svc, today=TODAY, ledger=ledger), ledger
            )
        report = ingest_paths([REGS / "uu-7-2021"], svc.store, HashingEmbedder(), flagger=injection_flagger)
        assert report.impact is not None and "uu-7-2021" in report.impact.doc_ids
        assert cache.purge_documents(report.impact.doc_ids) == 1  # the PPN entry, deleted in Redis
        assert client.exists(f"test:amend:{cache.key(PPN_Q, lead, TODAY)}") == 0
        assert cache.get(UMKM_Q, lead, TODAY) is not None and cache.stats()["stale"] == 0
    finally:
        svc.store.close()


def test_related_documents_adds_what_an_amending_act_amends(world: Any) -> None:
    from bot.answer_cache import related_documents

    svc, _turn, _ = world
    related = related_documents(svc.store, ["uu-7-2021"])
    # HPP amends the KUP, PPh and PPN laws: their base acts are in; unrelated acts are not
    assert {"uu-7-2021", "uu-8-1983", "uu-7-1983", "uu-6-1983"} <= related
    assert "pp-55-2022" not in related and "memo-pph26-sg-software" not in related
    assert related_documents(svc.store, ["memo-pph26-sg-software"]) == {"memo-pph26-sg-software"}
    # PP 44/2022 revokes PP 9/2021 Pasal 5 (metadata revokes_parts): PP 9/2021's answers change with it
    assert "pp-9-2021" in related_documents(svc.store, ["pp-44-2022"])


def test_faq_status_changes_purge_the_entries_resting_on_the_faq(world: Any, redis_url: str) -> None:
    import redis

    from bot.answer.pipeline import answer_question
    from bot.faq import FaqService
    from tests.teams.harness import FakeClock, open_ticket
    from tickets import SqliteTicketStore
    from tools.ledger import Ledger

    svc, _turn, _ = world
    client = redis.Redis.from_url(redis_url)
    cache = AnswerCache(svc.store, redis=client, prefix="test:faq:")
    purged: list[list[str]] = []

    def on_change(doc_ids: Any) -> None:
        purged.append(list(doc_ids))
        cache.purge_documents(doc_ids)

    clock = FakeClock()
    tickets = SqliteTicketStore(Path(svc.settings.kb).parent / "faq-tickets.sqlite", clock=clock)
    ticket = open_ticket(tickets)
    tickets.claim(ticket.id, "tax.analyst@sinarnusantara.co.id")
    answered = tickets.answer(
        ticket.id,
        "tax.analyst@sinarnusantara.co.id",
        "Untuk vendor jasa angkutan tanpa NPWP, PPh 23 dipotong 4% yaitu 100% lebih tinggi dari tarif 2%.",
        [{"ref": "WHT matrix 2024", "doc_id": "wht-matrix-2024", "location": "PPh 23"}],
    )
    faqs = FaqService(
        Path(svc.settings.kb).parent / "faq",
        svc.store,
        HashingEmbedder(),
        clock=clock,
        flagger=injection_flagger,
        on_change=on_change,
    )
    doc_id = faqs.propose_faq(answered, "tax.analyst@sinarnusantara.co.id")
    faqs.approve_faq(doc_id, svc.cli_principal(LEAD))
    assert purged == [[doc_id]]

    lead = svc.cli_principal(LEAD)
    day = clock().date()
    faq_q = "Berapa tarif PPh 23 atas jasa angkutan dari vendor tanpa NPWP?"
    entries = {}
    for q in (faq_q, PPN_Q):
        ledger = Ledger()
        answer = answer_question(q, lead, svc, today=day, ledger=ledger)
        entries[q] = (answer, {h.doc_id for h in ledger.hits}, ledger)
        assert cache.put(q, lead, day, answer, ledger)
    assert doc_id in entries[faq_q][1] and doc_id not in entries[PPN_Q][1]

    faqs.mark_needs_review(doc_id, ["Pasal 23 UU 36/2008 changed"])  # withdrawn: the hook purges
    assert purged == [[doc_id], [doc_id]]
    assert client.exists(f"test:faq:{cache.key(faq_q, lead, day)}") == 0
    assert cache.get(PPN_Q, lead, day) is not None
    assert cache.get(faq_q, lead, day) is None and cache.stats()["stale"] == 0

    # an entry resting on the FAQ written meanwhile (a process that answered before the withdrawal reached it)
    answer, _docs, ledger = entries[faq_q]
    assert cache.put(faq_q, lead, day, answer, ledger)
    faqs.approve_faq(doc_id, svc.cli_principal(LEAD))  # re-approved: the hook purges again
    assert purged == [[doc_id], [doc_id], [doc_id]]
    assert client.exists(f"test:faq:{cache.key(faq_q, lead, day)}") == 0
    assert cache.get(PPN_Q, lead, day) is not None


def test_cli_purge_by_document_deletes_exactly_the_entries_resting_on_it(
    world: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    svc, turn, _cache = world
    for i, q in enumerate((QUESTION, UMKM_Q)):
        assert _ask(svc, turn, LEAD, q, f"a{i}").status == "answered"
    capsys.readouterr()
    argv = ["kb", "cache", "purge", "--kb", str(svc.settings.kb), "--doc", "memo-pph26-sg-software", "--json"]
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    assert out == {"purged": "citing memo-pph26-sg-software", "entries": 1, "generation": 0}
    again = {q: _ask(svc, turn, LEAD, q, f"b{i}") for i, q in enumerate((QUESTION, UMKM_Q))}
    assert {q: _hit(r) for q, r in again.items()} == {QUESTION: False, UMKM_Q: True}


def test_an_answer_cached_by_another_version_of_dasar_is_not_served(
    world: Any, redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Redis cache outlives a deployment: the entries the old code wrote must not answer for the new."""
    import bot.answer_cache as answer_cache

    svc, _, _ = world
    settings = Settings(kb=svc.settings.kb, directory=DIRECTORY, redis_url=redis_url)

    def deployed(version: str) -> tuple[AnswerCache, Turn]:
        monkeypatch.setattr(answer_cache, "engine_fingerprint", lambda: version)
        cache = answer_cache.answer_cache_for(settings, svc.store)
        assert cache is not None and cache.redis is not None
        cache.prefix = "test:engine:"
        return cache, _caching_turn(svc, cache)

    old_cache, old_turn = deployed("old-code")
    assert _ask(svc, old_turn, "tax.lead@sinarnusantara.co.id", QUESTION, "t1").status == "answered"
    assert old_cache.puts == 1
    again_cache, again_turn = deployed("old-code")  # a restart of the same code: served
    _ask(svc, again_turn, "tax.lead@sinarnusantara.co.id", QUESTION, "t2")
    assert again_cache.hits == 1
    new_cache, new_turn = deployed("new-code")  # an upgrade: answered afresh and cached apart
    assert _ask(svc, new_turn, "tax.lead@sinarnusantara.co.id", QUESTION, "t3").status == "answered"
    assert new_cache.hits == 0 and new_cache.misses == 1 and new_cache.puts == 1


def test_the_code_fingerprint_follows_code_and_word_lists_only(tmp_path: Path) -> None:
    from bot.answer_cache import code_fingerprint, engine_fingerprint

    (tmp_path / "kb" / "data").mkdir(parents=True)
    (tmp_path / "bot").mkdir()
    (tmp_path / "bot" / "render.py").write_text("RATE = 'tarifnya'\n")
    (tmp_path / "kb" / "data" / "lexicon.yaml").write_text("stopwords: [yang]\n")
    first = code_fingerprint(tmp_path)
    (tmp_path / "bot" / "notes.txt").write_text("not code")
    assert code_fingerprint(tmp_path) == first
    (tmp_path / "kb" / "data" / "lexicon.yaml").write_text("stopwords: [yang, lalu]\n")
    changed = code_fingerprint(tmp_path)
    assert changed != first
    (tmp_path / "bot" / "render.py").write_text("RATE = 'the rate'\n")
    assert code_fingerprint(tmp_path) not in (first, changed)
    assert len(engine_fingerprint()) == 16 and engine_fingerprint() == engine_fingerprint()
