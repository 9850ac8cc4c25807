"""Measure the inbound guardrails on the shared eval sets and print one table.

Usage::

    python bench/eval_guardrails.py [--json] [--data /work/shared/eval]

What is measured (nothing here tunes anything; rules and thresholds live in ``guardrails/``):

* PII recall per entity type on presidio's own recognizer test cases, for the entity types we mask
  (a hit = a detected span of the same type overlapping the expected span), and false positives on
  presidio's negative cases for those types;
* Indonesian NIK/NPWP vectors: recall on the valid ones, false positives on the structurally invalid ones;
* secret recall / false positives on LLM Guard's secret tests;
* injection recall on CyberSecEval (per variant) and LLM Guard attacks; benign false-positive rate on
  NotInject and LLM Guard's benign prompts;
* latency of ``guardrails.inbound.inspect`` on a 300-character message after warm-up.

Imports only ``guardrails`` (plus the standard library).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from guardrails.inbound import inspect
from guardrails.injection import scan_injection
from guardrails.pii import MaskingSession, detect, get_analyzer, supported_entities
from guardrails.secrets import scan_secrets

DEFAULT_DATA = Path("/work/shared/eval")
ID_TYPES = ("ID_NIK", "ID_NPWP", "ID_NITKU")


def _load(path: Path) -> list[dict[str, Any]]:
    with path.open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def _ratio(hit: int, total: int) -> float | None:
    return round(hit / total, 4) if total else None


def eval_presidio_cases(data: Path) -> dict[str, Any]:
    """Recall/FP per supported entity type on presidio's recognizer test cases."""
    supported = set(supported_entities())
    hits: dict[str, int] = defaultdict(int)
    totals: dict[str, int] = defaultdict(int)
    negatives: dict[str, int] = defaultdict(int)
    false_pos: dict[str, int] = defaultdict(int)
    recognizer_types: dict[str, set[str]] = defaultdict(set)
    records = _load(data / "pii" / "presidio_recognizer_test_cases.jsonl")
    for record in records:
        for entity in record["entities"]:
            recognizer_types[record["recognizer_test"]].add(entity["type"])
    for record in records:
        types = recognizer_types[record["recognizer_test"]] & supported
        if not types:
            continue
        found = detect(record["text"])
        if record["is_negative"]:
            for entity_type in types:
                negatives[entity_type] += 1
                false_pos[entity_type] += any(f.type == entity_type for f in found)
            continue
        for expected in record["entities"]:
            if expected["type"] not in supported:
                continue
            totals[expected["type"]] += 1
            hits[expected["type"]] += any(
                f.type == expected["type"] and f.start < expected["end"] and expected["start"] < f.end
                for f in found
            )
    return {
        entity_type: {
            "recall": _ratio(hits[entity_type], totals[entity_type]),
            "hits": hits[entity_type],
            "positives": totals[entity_type],
            "negatives": negatives[entity_type],
            "false_positives": false_pos[entity_type],
        }
        for entity_type in sorted(set(totals) | set(negatives))
    }


def eval_indonesian_ids(data: Path) -> dict[str, Any]:
    """Recall on valid NIK/NPWP vectors; false positives on structurally invalid ones."""
    valid_hit = valid_total = invalid_fp = invalid_total = 0
    misses: list[str] = []
    flagged_invalid: list[str] = []
    for record in _load(data / "pii" / "indonesian_nik_npwp_examples.jsonl"):
        expected = record["entities"][0]
        found = [f for f in detect(record["text"]) if f.type in ID_TYPES]
        if record["valid_per_python_stdnum"]:
            valid_total += 1
            ok = any(
                f.type == expected["type"] and f.start <= expected["start"] and f.end >= expected["end"]
                for f in found
            )
            valid_hit += ok
            if not ok:
                misses.append(record["id"])
        else:
            invalid_total += 1
            if found:
                invalid_fp += 1
                flagged_invalid.append(record["id"])
    return {
        "valid_recall": _ratio(valid_hit, valid_total),
        "valid": valid_total,
        "missed_valid": misses,
        "invalid": invalid_total,
        "invalid_masked": invalid_fp,
        "invalid_masked_ids": flagged_invalid,
    }


def eval_secrets(data: Path) -> dict[str, Any]:
    """Secret recall (any kind refused) and false refusals."""
    pos_hit = pos_total = neg_fp = neg_total = 0
    for record in _load(data / "pii" / "llmguard_secrets_tests.jsonl"):
        found = scan_secrets(record["text"]).found
        if record["is_negative"]:
            neg_total += 1
            neg_fp += found
        else:
            pos_total += 1
            pos_hit += found
    return {
        "recall": _ratio(pos_hit, pos_total),
        "positives": pos_total,
        "negatives": neg_total,
        "false_refusals": neg_fp,
    }


def eval_injection(data: Path) -> dict[str, Any]:
    """Injection recall on attack sets and false-positive rate on benign sets."""
    folder = data / "injection"
    cse = _load(folder / "cyberseceval_prompt_injection_en.dev.jsonl")
    by_variant: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    by_kind: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for record in cse:
        flagged = scan_injection(record["text"]).flagged
        for bucket in (by_variant[record["injection_variant"]], by_kind[record["kind"]]):
            bucket[0] += flagged
            bucket[1] += 1
    llmguard = _load(folder / "llmguard_prompt_injection_tests.dev.jsonl")
    lg_attacks = [r for r in llmguard if r["label"] == "injection"]
    lg_benign = [r for r in llmguard if r["label"] == "benign"]
    notinject = _load(folder / "notinject_benign.dev.jsonl")
    ni_subset: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for record in notinject:
        bucket = ni_subset[record["subset"]]
        bucket[0] += scan_injection(record["text"]).flagged
        bucket[1] += 1
    ni_fp = sum(b[0] for b in ni_subset.values())
    return {
        "cyberseceval_recall": _ratio(sum(b[0] for b in by_kind.values()), len(cse)),
        "cyberseceval_by_kind": {k: _ratio(*v) for k, v in sorted(by_kind.items())},
        "cyberseceval_by_variant": {k: _ratio(*v) for k, v in sorted(by_variant.items())},
        "llmguard_attack_recall": _ratio(
            sum(scan_injection(r["text"]).flagged for r in lg_attacks), len(lg_attacks)
        ),
        "llmguard_attacks": len(lg_attacks),
        "llmguard_benign_fp": sum(scan_injection(r["text"]).flagged for r in lg_benign),
        "llmguard_benign": len(lg_benign),
        "notinject_fp_rate": _ratio(ni_fp, len(notinject)),
        "notinject_fp": ni_fp,
        "notinject": len(notinject),
        "notinject_fp_by_subset": {k: _ratio(*v) for k, v in sorted(ni_subset.items())},
    }


def eval_latency() -> dict[str, Any]:
    """Median/p95 latency of ``inspect`` on a 300-character mixed message after warm-up."""
    base = (
        "Mohon dicek NPWP 01.312.166.0-091.000 vendor PT Maju dan NIK 3171011708450001, telp +62 812-3456-7890, "
        "transfer ke rekening BCA 1234567890 a.n. Budi sesuai PMK-168/PMK.010/2023 Pasal 17 tarif 5% atas "
        "Rp60.000.000 tanggal 01-12-2023, email budi@maju.co.id. Terima kasih banyak atas bantuannya ya. "
    )
    text = (base * 2)[:300]
    started = time.perf_counter()
    get_analyzer()
    build_s = time.perf_counter() - started
    session = MaskingSession()
    inspect(text, session)
    samples = []
    for _ in range(100):
        t0 = time.perf_counter()
        inspect(text, session)
        samples.append((time.perf_counter() - t0) * 1000)
    samples.sort()
    return {
        "engine_build_s": round(build_s, 2),
        "chars": len(text),
        "median_ms": round(statistics.median(samples), 2),
        "p95_ms": round(samples[94], 2),
    }


def _fmt(value: Any) -> str:
    return "n/a" if value is None else f"{value:.3f}" if isinstance(value, float) else str(value)


def render(report: dict[str, Any]) -> str:
    """Render the report as a plain-text table."""
    lines = ["== PII: presidio recognizer test cases (supported types) =="]
    lines.append(f"{'type':<16}{'recall':>8}{'hits':>7}{'pos':>6}{'neg':>6}{'FP':>5}")
    for entity_type, row in report["pii_presidio"].items():
        lines.append(
            f"{entity_type:<16}{_fmt(row['recall']):>8}{row['hits']:>7}{row['positives']:>6}"
            f"{row['negatives']:>6}{row['false_positives']:>5}"
        )
    ids = report["pii_indonesian"]
    lines += [
        "",
        "== PII: Indonesian NIK/NPWP vectors ==",
        f"valid recall      {_fmt(ids['valid_recall'])}  ({ids['valid']} valid; missed: {ids['missed_valid'] or '-'})",
        f"invalid masked    {ids['invalid_masked']}/{ids['invalid']}  ({', '.join(ids['invalid_masked_ids']) or '-'})",
    ]
    sec = report["secrets"]
    lines += [
        "",
        "== Secrets (LLM Guard tests) ==",
        f"recall            {_fmt(sec['recall'])}  ({sec['positives']} positives)",
        f"false refusals    {sec['false_refusals']}/{sec['negatives']}",
    ]
    inj = report["injection"]
    lines += [
        "",
        "== Injection ==",
        f"CyberSecEval recall   {_fmt(inj['cyberseceval_recall'])}  by kind {inj['cyberseceval_by_kind']}",
    ]
    for variant, value in inj["cyberseceval_by_variant"].items():
        lines.append(f"    {variant:<34}{_fmt(value)}")
    lines += [
        f"LLM Guard attack recall {_fmt(inj['llmguard_attack_recall'])}  ({inj['llmguard_attacks']} attacks); "
        f"benign FP {inj['llmguard_benign_fp']}/{inj['llmguard_benign']}",
        f"NotInject benign FP rate {_fmt(inj['notinject_fp_rate'])}  ({inj['notinject_fp']}/{inj['notinject']}) "
        f"by subset {inj['notinject_fp_by_subset']}",
    ]
    lat = report["latency"]
    lines += [
        "",
        "== Latency ==",
        f"engine build {lat['engine_build_s']} s; inspect({lat['chars']} chars) median {lat['median_ms']} ms, "
        f"p95 {lat['p95_ms']} ms",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Run every evaluation and print the table (or JSON with ``--json``)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="eval data folder")
    args = parser.parse_args(argv)
    report = {
        "latency": eval_latency(),
        "pii_presidio": eval_presidio_cases(args.data),
        "pii_indonesian": eval_indonesian_ids(args.data),
        "secrets": eval_secrets(args.data),
        "injection": eval_injection(args.data),
    }
    print(json.dumps(report, indent=2) if args.json else render(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
