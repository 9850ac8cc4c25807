"""`dasar kb impact`: records a baseline, then lists the FAQ, ticket and answer an amendment affected."""

from __future__ import annotations

import datetime as dt
import json
import shutil
from pathlib import Path

import pytest

from bot.audit import AuditRecord, JsonlAuditLog
from bot.cli import main
from bot.faq import FaqService
from kb.embed.hashing import HashingEmbedder
from kb.store.sqlite import SqliteStore
from tests.kb.test_impact_citations import LEAD
from tickets import SqliteTicketStore
from tickets.model import Evidence, Requester, ThreadRef

REGS = Path(__file__).resolve().parents[2] / "corpus" / "regulations"
PASAL7 = "uu-42-2009#pasal-I/angka-8/pasal-7"
PASAL7_LOC = "Pasal 7 UU 8/1983 (Pasal I angka 8 UU 42/2009)"
TAX = "tax.analyst@sinarnusantara.co.id"


def _ingested_home(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    doc_ids: tuple[str, ...],
) -> tuple[Path, Path]:
    """A DASAR_HOME (hashing embedder) whose knowledge base holds ``doc_ids``, ingested by `dasar ingest`."""
    home = tmp_path / "home"
    monkeypatch.setenv("DASAR_HOME", str(home))
    monkeypatch.setenv("DASAR_EMBEDDER", "hashing-256")
    src = tmp_path / "corpus"
    for doc_id in doc_ids:
        shutil.copytree(REGS / doc_id, src / doc_id)
    assert main(["ingest", str(src), "--json", "--no-progress"]) == 0
    capsys.readouterr()
    return home, src


def test_kb_impact_lists_what_an_ingested_amendment_affected(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    home, src = _ingested_home(tmp_path, monkeypatch, capsys, ("uu-8-1983", "uu-42-2009"))

    # an approved FAQ citing UU 42/2009's Pasal 7 (written as the FAQ service writes it), an open ticket
    now = dt.datetime.now(dt.UTC)
    store = SqliteStore(home / "kb.sqlite", embedder_name="hashing-256")
    tickets = SqliteTicketStore(home / "tickets.sqlite")
    thread = ThreadRef(platform="slack", tenant="T1", channel="C1", thread_id="1700000001.000100")
    requester = Requester(principal_id="slack:T1:U1", platform="slack", tenant="T1", user_id="U1")
    t, _ = tickets.open_ticket(thread, requester, "Tarif PPN?", [], Evidence(), "gap", "low_confidence")
    tickets.claim(t.id, TAX)
    answered = tickets.answer(
        t.id, TAX, "Tarif PPN 10%.", [{"number": "UU 42/2009", "location": PASAL7_LOC, "quote": "10%"}]
    )
    faqs = FaqService(home / "faq", store, HashingEmbedder())
    faq_id = faqs.propose_faq(answered, TAX)
    faqs.approve_faq(faq_id, LEAD)
    thread2 = ThreadRef(platform="slack", tenant="T1", channel="C1", thread_id="1700000002.000100")
    cite = {"chunk_id": PASAL7, "doc_id": "uu-42-2009", "doc_number": "UU 42/2009", "location": PASAL7_LOC}
    t2, _ = tickets.open_ticket(
        thread2, requester, "Masih 10%?", [], Evidence.of(citations=[cite]), "gap", "low_confidence"
    )
    JsonlAuditLog(home / "audit.jsonl").write(
        AuditRecord(
            at=now.isoformat(timespec="seconds"),
            reference_id="ref-1",
            principal_id="slack:T1:U1",
            platform="slack",
            question_hash="h",
            status="answered",
            cited_chunks=(PASAL7,),
        )
    )
    store.close()
    tickets.shutdown()

    assert main(["kb", "impact", "--json"]) == 0  # first run: the baseline (unless ingest recorded one)
    first = json.loads(capsys.readouterr().out)
    assert first["impacts"] == []

    shutil.copytree(REGS / "uu-7-2021", src / "uu-7-2021")
    assert main(["ingest", str(src), "--json", "--no-progress"]) == 0
    capsys.readouterr()
    assert main(["kb", "impact", "--since", now.date().isoformat(), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["baseline"] == "compared" and len(out["impacts"]) == 1
    rep = out["impacts"][0]
    assert set(rep) >= {"at", "trigger", "documents", "provisions", "faqs", "tickets", "answers"}
    assert [(f["faq_id"], f["status"]) for f in rep["faqs"]] == [(faq_id, "needs_review")]
    assert [t["ticket_id"] for t in rep["tickets"]] == [t2.id]
    assert [a["reference_id"] for a in rep["answers"]] == ["ref-1"]
    assert "uu-8-1983:pasal-7" in rep["provisions"]

    assert main(["kb", "impact"]) == 0  # text form; nothing new, the logged report is shown
    text = capsys.readouterr().out
    assert f"FAQ {faq_id}" in text and "in_force -> needs_review" in text and f"ticket {t2.id}" in text
    assert main(["kb", "impact", "--since", "2999-01-01", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["impacts"] == []


def test_record_ingest_is_the_one_call_an_ingest_makes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from bot.impact import record_ingest
    from bot.settings import load_settings
    from bot.wiring import Services
    from kb.ingest import ingest_paths

    _home, src = _ingested_home(tmp_path, monkeypatch, capsys, ("uu-8-1983", "uu-42-2009", "uu-7-2021"))
    svc = Services(load_settings(), create_kb=True)
    chunk = "uu-7-2021#pasal-4/angka-2/pasal-7"
    cite = {
        "chunk_id": chunk,
        "doc_id": "uu-7-2021",
        "location": "Pasal 7 UU 8/1983 (Pasal 4 angka 2 UU 7/2021)",
    }
    thread = ThreadRef(platform="slack", tenant="T1", channel="C1", thread_id="1700000003.000100")
    requester = Requester(principal_id="slack:T1:U3", platform="slack", tenant="T1", user_id="U3")
    t, _ = svc.tickets.open_ticket(
        thread, requester, "PPN 12%?", [], Evidence.of(claims=[cite]), "gap", "low_confidence"
    )
    assert record_ingest(None, svc) is None  # nothing written: nothing to assess (the baseline is set)

    # a corrected text of UU 7/2021 (the OCR'd "Januari2025" fixed) rewords its restated Pasal 7
    text = src / "uu-7-2021" / "text.txt"
    text.write_text(text.read_text(encoding="utf-8").replace("Januari2025", "Januari 2025"), encoding="utf-8")
    report = ingest_paths([src], svc.store, svc.embedder)
    assert report.updated == ["uu-7-2021"]
    out = record_ingest(report.impact, svc)
    assert out is not None and out.trigger == "ingest"
    assert [(a.ticket_id, a.changed_chunks) for a in out.tickets] == [(t.id, (chunk,))]
    assert any(
        c["change"] == "wording" and c["chunk_id"] == chunk for c in report.impact.to_json()["changes"]
    )
    assert main(["kb", "impact", "--json"]) == 0  # already recorded: listed once, nothing new to catch up
    listed = json.loads(capsys.readouterr().out)["impacts"]
    assert [r["trigger"] for r in listed] == ["ingest"] and listed[0]["tickets"][0]["ticket_id"] == t.id
    svc.store.close()
