"""``dasar eval answers``: does the answer pipeline say the right thing, from the right source, safely?

Runs any set of one of two shapes (``--set FILE``):

* the repository's answer set (``eval/answers.yaml``, format in that file): ``expect`` holds ``status`` or
  ``status_in``, ``cites_any`` (gold locations), ``must_not_cite``, ``quote_contains``, ...;
* an outside set of the real-question shape (JSONL, ``../shared/eval/realworld/README.md``):
  ``expected_status`` (answered / abstain_or_escalate / clarify / refuse_advice) and ``gold``
  ``{doc_id, pasal, ayat}``.

Per item the pipeline runs twice for the item's user and date.  Reported per set:

* status accuracy, overall and per category; item pass rate (status and every other expectation);
* gold provision cited: answerable items (gold given) where a shown claim cites a gold Pasal;
* correct and usable: status answered and the *leading* claim cites a gold provision at Pasal level, or at
  ayat level when the gold names an ayat (a chunk that keeps its Pasal whole counts);
* answered when it should decline: items whose expected status is a decline (abstain / escalate / refuse
  advice) that were answered;
* the Stanford legal-RAG coding (Magesh et al. 2024): *accurate* (the right status, and for an answerable
  item a leading claim citing gold), *incomplete* (a refusal or clarification of an answerable item, or an
  answer whose gold citation is not the leading claim), *hallucinated* (answered from passages that are not a
  gold provision, or answered when it should decline);
* confidence reliability: expected calibration error (10 equal-width bins) of ``confidence.score`` as the
  probability that the leading claim is correct, over items with a shown claim, and a risk-coverage table;
* citation precision: shown claims whose cited location is a gold one (items with ``cites_any``);
* quote-gate pass rate of what is *shown* (re-checked here against the stored chunk: must be 100%);
* number-gate catches, abstention precision / recall, access leaks (must be 0), ``must_not_cite``
  violations, determinism (byte-identical JSON across the two runs), latency p50 / p95.

``split`` ("tune" / "check", :mod:`bot.evals.split`) restricts a repository set to one half; outside sets
are always run whole.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import logging
import statistics
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from bot.evals.split import keep, sides
from guardrails.verify import ANGKA_TANPA_DASAR, normalize_ws

#: expected status of the real-question shape -> statuses that satisfy it
REALWORLD_STATUS: dict[str, list[str]] = {
    "answered": ["answered"],
    "abstain_or_escalate": ["abstained", "escalated"],
    "clarify": ["clarify"],
    "refuse_advice": ["escalated", "refused"],
}
DECLINES = frozenset({"abstained", "escalated", "refused"})
#: confidence thresholds of the risk-coverage table
RISK_COVERAGE_THRESHOLDS = (0.0, 0.3, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95)
ECE_BINS = 10
DEFAULT_RETRIEVAL_SET = Path(__file__).resolve().parents[2] / "eval" / "retrieval.yaml"


@dataclass(frozen=True)
class AnswerItem:
    id: str
    category: str
    question: str
    user: str | None
    as_of: dt.date | None
    expect: dict[str, Any] = field(default_factory=dict)

    @property
    def allowed(self) -> list[str]:
        return list(self.expect.get("status_in") or [self.expect.get("status")])

    @property
    def gold(self) -> list[dict[str, Any]]:
        return list(self.expect.get("cites_any") or [])

    @property
    def answerable(self) -> bool:
        """An answer is an acceptable outcome and the set says what it must cite (or nothing to cite)."""
        return "answered" in self.allowed

    @property
    def should_decline(self) -> bool:
        return bool(self.allowed) and set(self.allowed) <= DECLINES


def _date(v: Any) -> dt.date | None:
    if isinstance(v, dt.date):
        return v
    return dt.date.fromisoformat(str(v)) if v else None


def load_items(path: Path) -> list[AnswerItem]:
    """Items of a YAML answer set or of a JSONL set of the real-question shape."""
    path = Path(path)
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".jsonl":
        return _load_realworld(path, text)
    data = yaml.safe_load(text)
    raw = data.get("items", data) if isinstance(data, dict) else data
    if not isinstance(raw, list):
        raise ValueError(f"{path}: expected a list of items (or a mapping with 'items')")
    out = []
    for i, it in enumerate(raw):
        if not isinstance(it, dict) or "question" not in it or "expect" not in it:
            raise ValueError(f"{path}: item #{i + 1} needs 'question' and 'expect'")
        out.append(
            AnswerItem(
                str(it.get("id", f"#{i + 1}")),
                str(it.get("category", "uncategorised")),
                str(it["question"]),
                it.get("user"),
                _date(it.get("as_of")),
                dict(it["expect"] or {}),
            )
        )
    return out


def _load_realworld(path: Path, text: str) -> list[AnswerItem]:
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
            status = str(rec["expected_status"])
            allowed = REALWORLD_STATUS[status]
            gold = [
                {"doc_id": g["doc_id"], "pasal": g.get("pasal"), "ayat": g.get("ayat")}
                for g in rec.get("gold") or []
            ]
            item = AnswerItem(
                str(rec["id"]),
                f"{status}/{rec.get('language', 'id')}",
                str(rec["question"]),
                None,
                _date(rec.get("as_of")),
                {"status_in": allowed, "cites_any": gold if status == "answered" else []},
            )
        except (KeyError, TypeError, ValueError, json.JSONDecodeError) as exc:
            raise ValueError(f"{path}: line {n} is not a real-question record ({exc})") from None
        out.append(item)
    return out


def select(
    items: list[AnswerItem], split: str, anchors_path: Path | None = DEFAULT_RETRIEVAL_SET
) -> list[AnswerItem]:
    """The items of one half of a repository set (near-duplicates of retrieval questions follow them)."""
    if split == "all":
        return items
    anchors: list[tuple[str, str]] = []
    if anchors_path is not None and Path(anchors_path).exists():
        raw = yaml.safe_load(Path(anchors_path).read_text(encoding="utf-8"))
        anchors = [(str(q["id"]), str(q["question"])) for q in raw]
    side = sides([(it.id, it.question) for it in items], anchors)
    return [it for it in items if keep(side[it.id], split)]


def _s(v: Any) -> str | None:
    return None if v is None else str(v)


def _gold_match(chunk: Any, gold: dict[str, Any], *, ayat: bool = True) -> bool:
    """``chunk`` lies in the gold location (document + Pasal, + ayat when ``ayat`` and the gold names one).

    A chunk that keeps its Pasal whole (no ayat of its own) matches an ayat-level gold of that Pasal.
    """
    if chunk is None:
        return False
    base = chunk.provision.split(":", 1)[0] if chunk.provision else chunk.doc_id
    if gold.get("doc_id") not in (chunk.doc_id, base):
        return False
    if gold.get("pasal") is not None and _s(gold["pasal"]) != chunk.pasal:
        return False
    if ayat and gold.get("ayat") is not None and chunk.ayat is not None and _s(gold["ayat"]) != chunk.ayat:
        return False
    return not (
        gold.get("section") is not None and (chunk.section or "").lower() != str(gold["section"]).lower()
    )


def _gold_laws(
    store: Any, gold: dict[str, Any], cache: dict[tuple[str, str | None], frozenset[str]] | None = None
) -> frozenset[str]:
    """The laws whose provision the gold location words (UU 36/2008's Pasal 26 is UU 7/1983's Pasal 26).

    ``cache`` keeps the answer per (document, Pasal) for one run: many items share a gold document, and
    reading its chunks once per item was most of the metric's cost."""
    doc, pasal = str(gold.get("doc_id") or ""), _s(gold.get("pasal"))
    if cache is not None and (doc, pasal) in cache:
        return cache[(doc, pasal)]
    laws = {doc}
    if pasal is not None and doc:
        laws |= {ch.base_doc for ch in store.chunks_of(doc) if ch.pasal == pasal}
    found = frozenset(x for x in laws if x)
    if cache is not None:
        cache[(doc, pasal)] = found
    return found


def _provision_match(chunk: Any, gold: dict[str, Any], laws: frozenset[str], *, ayat: bool = True) -> bool:
    """``chunk`` words the gold *provision*, in any act's wording: an undated question answered by today's
    wording (UU 6/2023 restating UU PPh Pasal 26) cites the provision a label written against UU 36/2008's
    wording names.  Which wording is valid on the item's date is the reader scope's business."""
    if chunk is None or chunk.base_doc not in laws:
        return False
    return _gold_match(chunk, {**gold, "doc_id": chunk.doc_id}, ayat=ayat)


def _pct(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    s = sorted(values)
    return s[min(len(s) - 1, round(q * (len(s) - 1)))]


def stanford_code(item: AnswerItem, status: str, lead_gold: bool, any_gold: bool) -> str:
    """accurate / incomplete / hallucinated (see the module docstring)."""
    status_ok = status in item.allowed
    if status != "answered":
        if status_ok:
            return "accurate"
        return "incomplete"  # a refusal, clarification or escalation of an answerable item
    if item.should_decline or not item.answerable:
        return "hallucinated"
    if not item.gold:
        return "accurate"
    if lead_gold:
        return "accurate"
    return "incomplete" if any_gold else "hallucinated"


def ece(points: list[tuple[float, bool]], bins: int = ECE_BINS) -> float | None:
    """Expected calibration error of ``(probability, correct)`` pairs (equal-width bins)."""
    if not points:
        return None
    total = 0.0
    for b in range(bins):
        lo, hi = b / bins, (b + 1) / bins
        sel = [(p, y) for p, y in points if lo <= p < hi or (b == bins - 1 and p == 1.0)]
        if sel:
            conf = sum(p for p, _ in sel) / len(sel)
            acc = sum(y for _, y in sel) / len(sel)
            total += len(sel) / len(points) * abs(conf - acc)
    return round(total, 4)


def risk_coverage(points: list[tuple[float, bool]], n_items: int) -> list[dict[str, Any]]:
    """For each threshold: share of all items answered at or above it, and the error rate among them."""
    rows = []
    for t in RISK_COVERAGE_THRESHOLDS:
        sel = [y for p, y in points if p >= t]
        rows.append(
            {
                "threshold": t,
                "answered": len(sel),
                "coverage": round(len(sel) / n_items, 4) if n_items else 0.0,
                "accuracy": round(sum(sel) / len(sel), 4) if sel else None,
                "risk": round(1 - sum(sel) / len(sel), 4) if sel else None,
            }
        )
    return rows


class _FailureCounter(logging.Handler):
    """Counts the composer failures the agent loop logs while an item is answered.

    The agent loop turns a composer or model exception into an answer without claims, and the pipeline then
    escalates it as ``answer_failed`` -- unless a later attempt of the same message (the corrective retry, a
    part answered alone) composed an answer, which then hides the failure.  Before session 44 every such
    answer read as an honest "no source": a composer that failed on every question with a period in it once
    showed as three fewer right answers.  Counting every failure the loop logs catches the hidden ones too;
    each row says whether its answer failed this way, and the report counts them.
    """

    def __init__(self) -> None:
        super().__init__(level=logging.WARNING)
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        if "agent loop failed" in record.getMessage():
            self.count += 1


@contextlib.contextmanager
def _counting_failures() -> Iterator[_FailureCounter]:
    counter = _FailureCounter()
    source = logging.getLogger("bot.agent")
    source.addHandler(counter)
    try:
        yield counter
    finally:
        source.removeHandler(counter)


def run_answer_eval(
    services: Any,
    set_path: Path,
    *,
    split: str = "all",
    mode: str | None = None,
    runs: int = 2,
    anchors_path: Path | None = DEFAULT_RETRIEVAL_SET,
) -> dict[str, Any]:
    """Run every item ``runs`` times; return the metrics report (JSON-ready).

    ``split`` keeps one half of a repository set (outside ``.jsonl`` sets are always run whole).
    """
    from bot.answer.parts import answer_message  # what users get: a multi-part message part by part

    items = load_items(set_path)
    if Path(set_path).suffix != ".jsonl":
        items = select(items, split, anchors_path)
    store = services.store
    docs = services.retriever.documents()
    per_cat: dict[str, list[bool]] = defaultdict(list)
    rows: list[dict[str, Any]] = []
    latencies: list[float] = []
    cited = cited_gold = shown_total = quote_ok = 0
    number_catches = leaks = forbidden_hits = deterministic = 0
    abst_tp = abst_fp = abst_fn = 0
    answerable_gold = gold_cited = usable = 0
    gold_cited_any = usable_any = cited_gold_any = 0
    gold_laws: dict[tuple[str, str | None], frozenset[str]] = {}
    decline_items = answered_decline = 0
    codes: Counter[str] = Counter()
    points: list[tuple[float, bool]] = []
    composer_failures = 0
    for item in items:
        principal = services.cli_principal(item.user)
        outs = []
        with _counting_failures() as failed:
            for _ in range(max(1, runs)):
                t = time.perf_counter()
                ans = answer_message(item.question, principal, services, as_of=item.as_of, mode=mode)
                latencies.append((time.perf_counter() - t) * 1000)
                outs.append(ans)
        composer_failures += failed.count > 0
        ans = outs[0]
        j = [json.dumps(a.to_json(include_timings=False), ensure_ascii=False, sort_keys=False) for a in outs]
        deterministic += all(x == j[0] for x in j)
        exp = item.expect
        allowed = item.allowed
        status_ok = ans.status in allowed
        per_cat[item.category].append(status_ok)
        problems: list[str] = [] if status_ok else [f"status {ans.status} not in {allowed}"]
        if failed.count:
            problems.append(f"the composer failed {failed.count} time(s) (see the bot.agent warnings)")
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
        gold = item.gold
        lead = chunks.get(ans.claims[0].source.chunk_id) if ans.claims else None
        any_gold = bool(gold) and any(
            _gold_match(chunks.get(c.source.chunk_id), g, ayat=False) for c in ans.claims for g in gold
        )
        lead_gold = bool(gold) and any(_gold_match(lead, g) for g in gold)
        hits = [any(_gold_match(chunks.get(c.source.chunk_id), g) for g in gold) for c in ans.claims]
        if gold and ans.claims:
            cited += len(hits)
            cited_gold += sum(hits)
            if not any(hits):
                problems.append("no claim cites a gold location")
        laws = [(g, _gold_laws(store, g, gold_laws)) for g in gold]
        any_version = bool(gold) and any(
            _provision_match(chunks.get(c.source.chunk_id), g, ls, ayat=False)
            for c in ans.claims
            for g, ls in laws
        )
        lead_any_version = bool(gold) and any(_provision_match(lead, g, ls) for g, ls in laws)
        if gold and ans.claims:
            cited_gold_any += sum(
                any(_provision_match(chunks.get(c.source.chunk_id), g, ls) for g, ls in laws)
                for c in ans.claims
            )
        if gold and item.answerable:
            answerable_gold += 1
            gold_cited += any_gold
            gold_cited_any += any_version
        correct = ans.status == "answered" and item.answerable and (lead_gold or not gold)
        usable += correct
        usable_any += ans.status == "answered" and item.answerable and (lead_any_version or not gold)
        if item.should_decline:
            decline_items += 1
            answered_decline += ans.status == "answered"
        code = stanford_code(item, ans.status, lead_gold, any_gold)
        codes[code] += 1
        if ans.claims:
            points.append((float(ans.confidence.score), item.answerable and (lead_gold or not gold)))
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
        conf = ans.confidence
        rows.append(
            {
                "id": item.id,
                "category": item.category,
                "status": ans.status,
                "expected": allowed,
                "reason": ans.escalation.reason if ans.escalation else None,
                "ok": not problems,
                "problems": problems,
                "composer_failed": failed.count > 0,
                "code": code,
                "correct_usable": correct,
                "gold_cited": any_gold,
                "gold_cited_any_version": any_version,
                "correct_usable_any_version": ans.status == "answered"
                and item.answerable
                and (lead_any_version or not gold),
                "lead": (
                    f"{ans.claims[0].source.doc_id} {ans.claims[0].source.location}" if ans.claims else None
                ),
                "confidence": {
                    "score": conf.score,
                    "judge": conf.judge,
                    "retrieval": conf.retrieval,
                    "self": conf.self,
                    "features": dict(conf.features),
                },
                "lead_correct": bool(ans.claims) and item.answerable and (lead_gold or not gold),
                # what the user reads: a change of quote or wording under the same citation shows here only
                "answer": ans.answer,
                # a message of several questions: each part's status, in order ([] for one question)
                "parts": [p.status for p in ans.parts],
                # every shown claim: which citation precision counts as a gold location (None: no gold)
                "claims": [
                    {
                        "doc_id": c.source.doc_id,
                        "location": c.source.location,
                        "role": c.role,
                        "quote": c.quote,
                        "gold": hit if gold else None,
                    }
                    for c, hit in zip(ans.claims, hits, strict=True)
                ],
            }
        )
    n = len(items)
    status_acc = sum(sum(v) for v in per_cat.values()) / n if n else 0.0

    def ratio(a: int, b: int) -> float | None:
        return round(a / b, 4) if b else None

    return {
        "set": str(set_path),
        "split": split if Path(set_path).suffix != ".jsonl" else "all",
        "items": n,
        "corpus_version": store.corpus_version(),
        "status_accuracy": round(status_acc, 4),
        "status_accuracy_by_category": {
            k: {"n": len(v), "accuracy": round(sum(v) / len(v), 4)} for k, v in sorted(per_cat.items())
        },
        "item_pass_rate": round(sum(r["ok"] for r in rows) / n, 4) if n else 0.0,
        "gold_cited": ratio(gold_cited, answerable_gold),
        "answerable_with_gold": answerable_gold,
        "correct_and_usable": ratio(usable, sum(it.answerable for it in items)),
        # the same two, counting a gold provision in any act's wording valid on the item's date
        "gold_cited_any_version": ratio(gold_cited_any, answerable_gold),
        "correct_and_usable_any_version": ratio(usable_any, sum(it.answerable for it in items)),
        "answered_when_should_decline": ratio(answered_decline, decline_items),
        "should_decline": decline_items,
        "stanford": {k: codes.get(k, 0) for k in ("accurate", "incomplete", "hallucinated")},
        "ece": ece(points),
        "risk_coverage": risk_coverage(points, n),
        "citation_precision": round(cited_gold / cited, 4) if cited else None,
        # the same share when a claim citing the gold provision in another act's wording counts (an undated
        # question answered by UU 6/2023's restatement of a Pasal a label names in UU 28/2007's wording)
        "citation_precision_any_version": round(cited_gold_any / cited, 4) if cited else None,
        # items answered part by part (bot.answer.parts), and how many of those had every part answered
        "multi_part_items": sum(bool(r["parts"]) for r in rows),
        "multi_part_all_answered": sum(bool(r["parts"]) and set(r["parts"]) == {"answered"} for r in rows),
        "shown_claims": shown_total,
        "quote_gate_pass_rate_shown": round(quote_ok / shown_total, 4) if shown_total else 1.0,
        "number_gate_catches": number_catches,
        "abstention_precision": ratio(abst_tp, abst_tp + abst_fp),
        "abstention_recall": ratio(abst_tp, abst_tp + abst_fn),
        "access_leaks": leaks,
        "must_not_cite_violations": forbidden_hits,
        "deterministic_items": deterministic,
        "determinism": round(deterministic / n, 4) if n else 1.0,
        "composer_failures": composer_failures,
        "latency_ms": {
            "p50": round(statistics.median(latencies), 1) if latencies else 0.0,
            "p95": round(_pct(latencies, 0.95), 1),
        },
        "rows": rows,
        "failures": [r for r in rows if not r["ok"]],
    }


def print_report(report: dict[str, Any], console: Any) -> None:
    from rich.table import Table

    console.print(
        f"[bold]Answer evaluation[/bold] {report['set']} ({report['split']}): {report['items']} items, "
        f"corpus {report['corpus_version'][:12]}"
    )
    t = Table("category", "n", "status accuracy")
    for cat, v in report["status_accuracy_by_category"].items():
        t.add_row(cat, str(v["n"]), f"{v['accuracy']:.2f}")
    console.print(t)
    for key in (
        "status_accuracy",
        "gold_cited",
        "correct_and_usable",
        "gold_cited_any_version",
        "correct_and_usable_any_version",
        "answered_when_should_decline",
        "stanford",
        "ece",
        "item_pass_rate",
        "citation_precision",
        "citation_precision_any_version",
        "quote_gate_pass_rate_shown",
        "number_gate_catches",
        "abstention_precision",
        "abstention_recall",
        "access_leaks",
        "must_not_cite_violations",
        "determinism",
        "composer_failures",
        "latency_ms",
    ):
        console.print(f"  {key}: {report[key]}")
    rc = Table("confidence >=", "answered", "coverage", "accuracy", "risk", title="risk-coverage")
    for r in report["risk_coverage"]:
        rc.add_row(
            f"{r['threshold']:.2f}",
            str(r["answered"]),
            f"{r['coverage']:.2f}",
            "-" if r["accuracy"] is None else f"{r['accuracy']:.2f}",
            "-" if r["risk"] is None else f"{r['risk']:.2f}",
        )
    console.print(rc)
    for r in report["failures"]:
        console.print(f"  [yellow]{r['id']}[/yellow] ({r['category']}): {'; '.join(r['problems'])}")


def summary_row(report: dict[str, Any]) -> dict[str, Any]:
    """The headline numbers of one report (one row of the side-by-side table)."""
    return {
        "set": Path(report["set"]).name + ("" if report["split"] == "all" else f" ({report['split']})"),
        "items": report["items"],
        "status_accuracy": report["status_accuracy"],
        "gold_cited": report["gold_cited"],
        "correct_and_usable": report["correct_and_usable"],
        "answered_when_should_decline": report["answered_when_should_decline"],
        "citation_precision": report["citation_precision"],
        "citation_precision_any_version": report["citation_precision_any_version"],
        "ece": report["ece"],
        **{f"stanford_{k}": v for k, v in report["stanford"].items()},
    }
