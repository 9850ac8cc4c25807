"""How well do the default support judge and the number gate catch hallucinated claims?

Data: RAGTruth QA, split into sentence-level claims (``/work/shared/eval/hallucination``); each row
has a ``claim``, the ``source_passages`` the answer was generated from, and ``label``
(``hallucinated`` / ``supported``).  The judge sees the claim and all passages joined, numbered as
the generator saw them ("passage 1: ...").

Positive class = hallucinated.  A claim is *caught* when the lexical judge says anything but
``entailed`` or when the number gate finds a claim figure absent from the passages.  Thresholds are
the library defaults (chosen from first principles and the unit tests), never tuned on this file.

The data is English (MS MARCO questions); dasar's corpus is Indonesian.  The numbers therefore
measure the language-independent mechanics (coverage, negation, figures), not Indonesian quality.

Usage::

    python bench/eval_hallucination.py [--json] [--limit N] [--data PATH]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # runnable as a script from anywhere
    sys.path.insert(0, str(ROOT))

from guardrails.verify import LexicalSupportJudge, unbacked_figures  # noqa: E402

DEFAULT_DATA = Path("/work/shared/eval/hallucination/ragtruth_qa_claims.dev.jsonl")


def load_rows(path: Path, limit: int | None) -> list[dict[str, Any]]:
    """Read the JSONL file in file order (first ``limit`` rows when given)."""
    rows: list[dict[str, Any]] = []
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                rows.append(json.loads(line))
            if limit is not None and len(rows) >= limit:
                break
    return rows


def build_passage(row: dict[str, Any]) -> str:
    """Join the source passages as the generator saw them, numbered ("passage 1: ...").

    RAGTruth responses cite "Passage 2"; without the numbering that figure would look invented.
    """
    passages = sorted(row["source_passages"], key=lambda p: p["passage_no"])
    return "\n\n".join(f"passage {p['passage_no']}: {p['text']}" for p in passages)


def _prf(tp: int, fp: int, fn: int) -> dict[str, float]:
    p = tp / (tp + fp) if tp + fp else 0.0
    r = tp / (tp + fn) if tp + fn else 0.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    return {"precision": round(p, 4), "recall": round(r, 4), "f1": round(f, 4)}


def _confusion(pairs: list[tuple[bool, bool]]) -> dict[str, int]:
    """pairs = (is_hallucinated, caught)."""
    return {
        "tp": sum(1 for h, c in pairs if h and c),
        "fp": sum(1 for h, c in pairs if not h and c),
        "fn": sum(1 for h, c in pairs if h and not c),
        "tn": sum(1 for h, c in pairs if not h and not c),
    }


def _metrics(pairs: list[tuple[bool, bool]]) -> dict[str, Any]:
    cm = _confusion(pairs)
    out: dict[str, Any] = {"n": len(pairs), "confusion": cm, **_prf(cm["tp"], cm["fp"], cm["fn"])}
    out["accuracy"] = round((cm["tp"] + cm["tn"]) / len(pairs), 4) if pairs else 0.0
    return out


def evaluate(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Run judge + number gate over the rows and compute the report."""
    judge = LexicalSupportJudge()
    started = time.perf_counter()
    records: list[dict[str, Any]] = []
    for row in rows:
        passage = build_passage(row)
        result = judge.judge(row["claim"], passage)
        missing = [f.surface for f in unbacked_figures(row["claim"], passage)]
        records.append(
            {
                "id": row["id"],
                "hallucinated": row["label"] == "hallucinated",
                "has_number": bool(row.get("claim_has_number")),
                "verdict": result.verdict,
                "number_gate": bool(missing),
                "caught": result.verdict != "entailed" or bool(missing),
            }
        )
    elapsed = time.perf_counter() - started

    pairs = [(r["hallucinated"], r["caught"]) for r in records]
    report: dict[str, Any] = {
        "data": str(DEFAULT_DATA.name),
        "judge": "LexicalSupportJudge(default thresholds) + number gate",
        "seconds": round(elapsed, 3),
        "labels": dict(sorted(Counter("hallucinated" if h else "supported" for h, _ in pairs).items())),
        "overall": _metrics(pairs),
        "judge_only": _metrics([(r["hallucinated"], r["verdict"] != "entailed") for r in records]),
        "number_gate_only": _metrics([(r["hallucinated"], r["number_gate"]) for r in records]),
        "claims_with_numbers": _metrics(
            [(r["hallucinated"], r["caught"]) for r in records if r["has_number"]]
        ),
        "claims_without_numbers": _metrics(
            [(r["hallucinated"], r["caught"]) for r in records if not r["has_number"]]
        ),
        "baseline_flag_everything": _metrics([(h, True) for h, _ in pairs]),
        "verdicts_by_label": {
            label: dict(
                sorted(
                    Counter(
                        r["verdict"] for r in records if r["hallucinated"] == (label == "hallucinated")
                    ).items()
                )
            )
            for label in ("hallucinated", "supported")
        },
    }
    return report


def _print_text(report: dict[str, Any]) -> None:
    print(f"data: {report['data']}  judge: {report['judge']}  time: {report['seconds']}s")
    print(
        f"labels: {report['labels']}  "
        "(positive = hallucinated, caught = verdict != entailed or figure missing)"
    )
    print()
    print(f"{'slice':<26}{'n':>5}{'P':>8}{'R':>8}{'F1':>8}{'acc':>8}   tp  fp  fn  tn")
    for key in (
        "overall",
        "judge_only",
        "number_gate_only",
        "claims_with_numbers",
        "claims_without_numbers",
        "baseline_flag_everything",
    ):
        m = report[key]
        cm = m["confusion"]
        print(
            f"{key:<26}{m['n']:>5}{m['precision']:>8.3f}{m['recall']:>8.3f}{m['f1']:>8.3f}{m['accuracy']:>8.3f}"
            f"  {cm['tp']:>3} {cm['fp']:>3} {cm['fn']:>3} {cm['tn']:>3}"
        )
    cm = report["overall"]["confusion"]
    print()
    print("confusion matrix (overall)      caught   passed")
    print(f"  hallucinated                  {cm['tp']:>6}   {cm['fn']:>6}")
    print(f"  supported                     {cm['fp']:>6}   {cm['tn']:>6}")
    print()
    print(f"verdicts by label: {report['verdicts_by_label']}")


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point; returns the process exit code."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--limit", type=int, default=None, help="only the first N rows (file order)")
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="claims JSONL file")
    args = parser.parse_args(argv)
    if not args.data.is_file():
        print(f"data file not found: {args.data}", file=sys.stderr)
        return 2
    rows = load_rows(args.data, args.limit)
    report = evaluate(rows)
    report["data"] = args.data.name
    if args.json:
        print(json.dumps(report, indent=2, sort_keys=True))
    else:
        _print_text(report)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
