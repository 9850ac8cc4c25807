"""The most common failure kinds of an answer-eval run (``bench/eval_answer_sets.py --out FILE``).

Each failing item gets one kind from its status, escalation reason, expected outcome and where its
leading claim points relative to the gold; the table lists each kind with its count and one example id
(outside-set items are named by id only: their questions are never printed).

Usage::

    python bench/failure_kinds.py REPORT.json [--top 10]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # runnable as a script from anywhere
    sys.path.insert(0, str(ROOT))

from bot.evals.answers import load_items  # noqa: E402


def kind(row: dict[str, Any], gold_docs: set[str]) -> str | None:
    expected, status, reason = row["expected"], row["status"], row["reason"]
    answerable = "answered" in expected
    decline = set(expected) <= {"abstained", "escalated", "refused"}
    if answerable and row["correct_usable"]:
        return None
    if not answerable and status in expected:
        return None
    if decline and status == "answered":
        return "answered a question the KB cannot settle (or advice to refuse)"
    if "clarify" in expected and status != "clarify":
        return f"missing clarification ({status})"
    if answerable and status == "clarify":
        return "asked to clarify an answerable question"
    if answerable and status == "escalated":
        return f"escalated an answerable question ({reason})"
    if answerable and status == "abstained":
        return "declined an answerable question (no source)"
    if answerable and status == "answered":
        lead_doc = (row["lead"] or "").split(" ", 1)[0]
        if row.get("correct_usable_any_version"):
            # the gold Pasal in the wording of a later act that restates it (UU 6/2023 for UU PPh Pasal 26):
            # the set names the older act; the answer is right in any version, so it is no retrieval failure
            return "lead cites the gold provision in another act's wording"
        if row["gold_cited"]:
            return "gold cited, but not by the leading claim (or wrong ayat)"
        if lead_doc in gold_docs:
            return "lead cites the right document, wrong Pasal"
        return "lead cites another document (no gold provision shown)"
    return f"other ({status} vs {expected})"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("report", type=Path)
    ap.add_argument("--top", type=int, default=10)
    args = ap.parse_args(argv)
    reports = json.loads(args.report.read_text(encoding="utf-8"))
    counts: Counter[str] = Counter()
    examples: dict[str, list[str]] = defaultdict(list)
    for rep in reports:
        gold = {it.id: {str(g["doc_id"]) for g in it.gold} for it in load_items(Path(rep["set"]))}
        for row in rep["rows"]:
            k = kind(row, gold.get(row["id"], set()))
            if k is None:
                continue
            counts[k] += 1
            examples[k].append(f"{row['id']} (lead: {row['lead'] or '-'})")
    print("| failure kind | items | example |\n|---|---|---|")
    for k, n in counts.most_common(args.top):
        print(f"| {k} | {n} | {examples[k][0]} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
