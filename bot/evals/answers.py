"""``dasar eval answers``: does the answer pipeline say the right thing, from the right source, safely?

Per item of the answer set (``eval/answers.yaml``, format in that file) the pipeline runs twice for
the item's user and date.  Reported:

* status accuracy, overall and per category (``status`` or ``status_in``), plus item pass rate
  (status and every other expectation);
* citation precision: shown claims whose cited location is a gold one (items with ``cites_any``);
* quote-gate pass rate of what is *shown* (re-checked here against the stored chunk: must be 100%);
* number-gate catches (claims withheld with ``ANGKA_TANPA_DASAR``);
* abstention precision / recall (gold abstain = expected status ``abstained``);
* access leaks: shown claims citing a document the user may not read (must be 0), and
  ``must_not_cite`` violations;
* determinism: byte-identical JSON (timings removed) across the two runs;
* latency p50 / p95 per answer (both runs).
"""

from __future__ import annotations

import datetime as dt
import json
import statistics
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from guardrails.verify import ANGKA_TANPA_DASAR, normalize_ws


@dataclass(frozen=True)
class AnswerItem:
    id: str
    category: str
    question: str
    user: str | None
    as_of: dt.date | None
    expect: dict[str, Any] = field(default_factory=dict)


def load_items(path: Path) -> list[AnswerItem]:
    data = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    raw = data.get("items", data) if isinstance(data, dict) else data
    if not isinstance(raw, list):
        raise ValueError(f"{path}: expected a list of items (or a mapping with 'items')")
    out = []
    for i, it in enumerate(raw):
        if not isinstance(it, dict) or "question" not in it or "expect" not in it:
            raise ValueError(f"{path}: item #{i + 1} needs 'question' and 'expect'")
        as_of = it.get("as_of")
        if isinstance(as_of, str):
            as_of = dt.date.fromisoformat(as_of)
        out.append(
            AnswerItem(
                str(it.get("id", f"#{i + 1}")),
                str(it.get("category", "uncategorised")),
                str(it["question"]),
                it.get("user"),
                as_of,
                dict(it["expect"] or {}),
            )
        )
    return out


def _s(v: Any) -> str | None:
    return None if v is None else str(v)


def _gold_match(chunk: Any, gold: dict[str, Any]) -> bool:
    if chunk is None:
        return False
    base = chunk.provision.split(":", 1)[0] if chunk.provision else chunk.doc_id
    if gold.get("doc_id") not in (chunk.doc_id, base):
        return False
    if gold.get("pasal") is not None and _s(gold["pasal"]) != chunk.pasal:
        return False
    if gold.get("ayat") is not None and _s(gold["ayat"]) != chunk.ayat:
        return False
    return not (gold.get("section") is not None and (chunk.section or "").lower() != str(gold["section"]).lower())


def _pct(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    s = sorted(values)
    return s[min(len(s) - 1, round(q * (len(s) - 1)))]


def run_answer_eval(services: Any, set_path: Path) -> dict[str, Any]:
    """Run every item twice; return the metrics report (JSON-ready)."""
    from bot.answer.pipeline import answer_question

    items = load_items(set_path)
    store = services.store
    docs = services.retriever.documents()
    per_cat: dict[str, list[bool]] = defaultdict(list)
    rows: list[dict[str, Any]] = []
    latencies: list[float] = []
    cited = cited_gold = shown_total = quote_ok = 0
    number_catches = leaks = forbidden_hits = deterministic = 0
    abst_tp = abst_fp = abst_fn = 0
    for item in items:
        principal = services.cli_principal(item.user)
        outs = []
        for _ in range(2):
            t = time.perf_counter()
            ans = answer_question(item.question, principal, services, as_of=item.as_of)
            latencies.append((time.perf_counter() - t) * 1000)
            outs.append(ans)
        ans = outs[0]
        j = [json.dumps(a.to_json(include_timings=False), ensure_ascii=False, sort_keys=False) for a in outs]
        deterministic += j[0] == j[1]
        exp = item.expect
        allowed = exp.get("status_in") or [exp.get("status")]
        status_ok = ans.status in allowed
        per_cat[item.category].append(status_ok)
        problems: list[str] = [] if status_ok else [f"status {ans.status} not in {allowed}"]
        chunks = store.get_chunks([c.source.chunk_id for c in ans.claims])
        for c in ans.claims:
            shown_total += 1
            ch = chunks.get(c.source.chunk_id)
            if ch is not None and normalize_ws(c.quote) and normalize_ws(c.quote) in normalize_ws(ch.text):
                quote_ok += 1
            meta = docs.get(c.source.doc_id)
            if meta is None or not principal.can_read(meta.access):
                leaks += 1
                problems.append(f"access leak {c.source.doc_id}")
        gold = exp.get("cites_any") or []
        if gold and ans.claims:
            hits = [any(_gold_match(chunks.get(c.source.chunk_id), g) for g in gold) for c in ans.claims]
            cited += len(hits)
            cited_gold += sum(hits)
            if not any(hits):
                problems.append("no claim cites a gold location")
        for doc_id in exp.get("must_not_cite") or []:
            if any(c.source.doc_id == doc_id for c in ans.claims) or doc_id in ans.answer:
                forbidden_hits += 1
                problems.append(f"cites forbidden {doc_id}")
        for s in exp.get("quote_contains") or []:
            if not any(str(s) in c.quote for c in ans.claims):
                problems.append(f"no quote contains {s!r}")
        for s in exp.get("claims_must_not_contain") or []:
            if any(str(s) in c.quote or str(s) in c.text for c in ans.claims):
                problems.append(f"a claim contains {s!r}")
        if exp.get("escalation_reason") and (
            ans.escalation is None or ans.escalation.reason != exp["escalation_reason"]
        ):
            problems.append(
                f"escalation {ans.escalation.reason if ans.escalation else None} != "
                f"{exp['escalation_reason']}"
            )
        number_catches += sum(ANGKA_TANPA_DASAR in u.codes for u in ans.unsupported_claims)
        gold_abstain = allowed == ["abstained"]
        pred_abstain = ans.status == "abstained"
        abst_tp += gold_abstain and pred_abstain
        abst_fp += pred_abstain and not gold_abstain and "abstained" not in allowed
        abst_fn += gold_abstain and not pred_abstain
        rows.append(
            {
                "id": item.id,
                "category": item.category,
                "status": ans.status,
                "expected": allowed,
                "ok": not problems,
                "problems": problems,
            }
        )
    n = len(items)
    status_acc = sum(sum(v) for v in per_cat.values()) / n if n else 0.0
    return {
        "set": str(set_path),
        "items": n,
        "corpus_version": store.corpus_version(),
        "status_accuracy": round(status_acc, 4),
        "status_accuracy_by_category": {
            k: {"n": len(v), "accuracy": round(sum(v) / len(v), 4)} for k, v in sorted(per_cat.items())
        },
        "item_pass_rate": round(sum(r["ok"] for r in rows) / n, 4) if n else 0.0,
        "citation_precision": round(cited_gold / cited, 4) if cited else None,
        "shown_claims": shown_total,
        "quote_gate_pass_rate_shown": round(quote_ok / shown_total, 4) if shown_total else 1.0,
        "number_gate_catches": number_catches,
        "abstention_precision": round(abst_tp / (abst_tp + abst_fp), 4) if abst_tp + abst_fp else None,
        "abstention_recall": round(abst_tp / (abst_tp + abst_fn), 4) if abst_tp + abst_fn else None,
        "access_leaks": leaks,
        "must_not_cite_violations": forbidden_hits,
        "deterministic_items": deterministic,
        "determinism": round(deterministic / n, 4) if n else 1.0,
        "latency_ms": {
            "p50": round(statistics.median(latencies), 1) if latencies else 0.0,
            "p95": round(_pct(latencies, 0.95), 1),
        },
        "failures": [r for r in rows if not r["ok"]],
    }


def print_report(report: dict[str, Any], console: Any) -> None:
    from rich.table import Table

    console.print(
        f"[bold]Answer evaluation[/bold] {report['set']}: {report['items']} items, corpus "
        f"{report['corpus_version'][:12]}"
    )
    t = Table("category", "n", "status accuracy")
    for cat, v in report["status_accuracy_by_category"].items():
        t.add_row(cat, str(v["n"]), f"{v['accuracy']:.2f}")
    console.print(t)
    for key in (
        "status_accuracy",
        "item_pass_rate",
        "citation_precision",
        "quote_gate_pass_rate_shown",
        "number_gate_catches",
        "abstention_precision",
        "abstention_recall",
        "access_leaks",
        "must_not_cite_violations",
        "determinism",
        "latency_ms",
    ):
        console.print(f"  {key}: {report[key]}")
    for r in report["failures"]:
        console.print(f"  [yellow]{r['id']}[/yellow] ({r['category']}): {'; '.join(r['problems'])}")
