"""Measure the inbound guardrails on the shared eval sets and print one table.

Usage::

    python bench/eval_guardrails.py [--json] [--data /work/shared/eval]

What is measured (nothing here tunes anything; rules and thresholds live in ``guardrails/``):

* PII recall per entity type on presidio's own recognizer test cases, for the entity types we mask
  (a hit = a detected span of the same type overlapping the expected span), and false positives on
  presidio's negative cases for those types;
* Indonesian NIK/NPWP vectors: recall on the valid ones, false positives on the structurally invalid ones;
* secret recall / false positives on LLM Guard's secret tests;
* injection recall on CyberSecEval (per variant, kind, risk category and detected language) and LLM Guard
  attacks (per language); benign false-positive rate on NotInject (per subset and language) and LLM Guard's
  benign prompts; which of our rule categories caught the attacks;
* benign false positives on our own regulation corpus (``corpus/``): sentences flagged by the injection
  scan and by ``addressed_to_assistant`` (official Indonesian legal text must not look like an attack);
* latency of ``guardrails.inbound.inspect`` on a 300-character message after warm-up.

Language of an eval text is guessed here from script and function words (``id``, ``en``, ``other``),
because the sets label the benchmark, not the text (CyberSecEval says "English" for Spanish attacks).

Imports only ``guardrails`` (plus the standard library).
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import guardrails.injection
from guardrails.inbound import inspect
from guardrails.injection import scan_injection
from guardrails.pii import MaskingSession, detect, get_analyzer, supported_entities
from guardrails.secrets import scan_secrets

DEFAULT_DATA = Path("/work/shared/eval")
REPO = Path(__file__).resolve().parent.parent
ID_TYPES = ("ID_NIK", "ID_NPWP", "ID_NITKU")

_ID_WORDS = frozenset(
    [
        "yang",
        "dan",
        "di",
        "ke",
        "dari",
        "untuk",
        "dengan",
        "ini",
        "itu",
        "tidak",
        "saya",
        "anda",
        "kamu",
        "adalah",
        "apa",
        "bagaimana",
        "tolong",
        "jawab",
        "abaikan",
        "semua",
        "sebelumnya",
        "sekarang",
        "atas",
        "dalam",
        "pada",
        "akan",
        "bisa",
        "mohon",
        "berapa",
        "kapan",
    ]
)
_EN_WORDS = frozenset(
    [
        "the",
        "and",
        "of",
        "to",
        "is",
        "are",
        "you",
        "your",
        "what",
        "how",
        "please",
        "a",
        "an",
        "in",
        "on",
        "for",
        "with",
        "this",
        "that",
        "it",
        "be",
        "not",
        "all",
        "previous",
        "instructions",
        "ignore",
        "tell",
        "me",
        "my",
        "i",
    ]
)
_OTHER_WORDS = frozenset(
    [
        "el",
        "la",
        "los",
        "las",
        "es",
        "cuál",
        "que",
        "por",
        "para",
        "le",
        "les",
        "est",
        "une",
        "des",
        "und",
        "der",
        "die",
        "das",
        "ist",
        "nicht",
        "wer",
        "ich",
        "il",
        "di",
        "che",
    ]
)
_WORD = re.compile(r"[^\W\d_]+")


def guess_language(text: str) -> str:
    """Return ``id``, ``en`` or ``other`` from script and function words (good enough to split a report)."""
    letters = [c for c in text if c.isalpha()]
    if letters and sum(c.isascii() or "\u00c0" <= c <= "\u024f" for c in letters) < 0.8 * len(letters):
        return "other"
    words = [w.lower() for w in _WORD.findall(text)]
    counts = {
        "id": sum(w in _ID_WORDS for w in words),
        "en": sum(w in _EN_WORDS for w in words),
        "other": sum(w in _OTHER_WORDS for w in words),
    }
    best = max(counts, key=lambda k: (counts[k], k == "en"))
    return best if counts[best] else "other"


def _categories(text: str) -> tuple[str, ...]:
    """Categories of the rules that fired (older verdicts without categories report their rule ids)."""
    verdict = scan_injection(text)
    return tuple(getattr(verdict, "categories", verdict.rule_ids))


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
    by_test: dict[str, list[int]] = defaultdict(_bucket)
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
            hit = any(
                f.type == expected["type"] and f.start < expected["end"] and expected["start"] < f.end
                for f in found
            )
            hits[expected["type"]] += hit
            _tally(hit, by_test[f"{record['recognizer_test']}/{expected['type']}"])
    report: dict[str, Any] = {
        entity_type: {
            "recall": _ratio(hits[entity_type], totals[entity_type]),
            "hits": hits[entity_type],
            "positives": totals[entity_type],
            "negatives": negatives[entity_type],
            "false_positives": false_pos[entity_type],
        }
        for entity_type in sorted(set(totals) | set(negatives))
    }
    report["_by_recognizer_test"] = _rates(by_test)
    return report


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
    kinds: dict[str, int] = defaultdict(int)
    for record in _load(data / "pii" / "llmguard_secrets_tests.jsonl"):
        verdict = scan_secrets(record["text"])
        found = verdict.found
        if record["is_negative"]:
            neg_total += 1
            neg_fp += found
        else:
            pos_total += 1
            pos_hit += found
            for kind in verdict.kinds:
                kinds[kind] += 1
    return {
        "recall": _ratio(pos_hit, pos_total),
        "caught_by_kind": dict(sorted(kinds.items())),
        "positives": pos_total,
        "negatives": neg_total,
        "false_refusals": neg_fp,
    }


def _bucket() -> list[int]:
    return [0, 0]


def _tally(hit: bool, *buckets: list[int]) -> None:
    """Count one item, ``hit`` or not, in each ``[hits, total]`` bucket."""
    for bucket in buckets:
        bucket[0] += hit
        bucket[1] += 1


def _rates(table: dict[str, list[int]]) -> dict[str, dict[str, Any]]:
    return {k: {"rate": _ratio(v[0], v[1]), "hit": v[0], "n": v[1]} for k, v in sorted(table.items())}


def eval_injection(data: Path) -> dict[str, Any]:
    """Injection recall on attack sets and false-positive rate on benign sets, per category and language."""
    folder = data / "injection"
    cse = _load(folder / "cyberseceval_prompt_injection_en.dev.jsonl")
    by_variant: dict[str, list[int]] = defaultdict(_bucket)
    by_kind: dict[str, list[int]] = defaultdict(_bucket)
    by_risk: dict[str, list[int]] = defaultdict(_bucket)
    by_lang: dict[str, list[int]] = defaultdict(_bucket)
    caught_by: dict[str, int] = defaultdict(int)
    for record in cse:
        cats = _categories(record["text"])
        flagged = bool(cats)
        for cat in set(cats):
            caught_by[cat] += 1
        _tally(
            flagged,
            by_variant[record["injection_variant"]],
            by_kind[record["kind"]],
            by_risk[record["risk_category"]],
            by_lang[guess_language(record["text"])],
        )
    llmguard = _load(folder / "llmguard_prompt_injection_tests.dev.jsonl")
    lg_lang: dict[str, list[int]] = defaultdict(_bucket)
    lg_benign = [0, 0]
    for record in llmguard:
        flagged = scan_injection(record["text"]).flagged
        is_attack = record["label"] == "injection"
        _tally(flagged, lg_lang[guess_language(record["text"])] if is_attack else lg_benign)
    notinject = _load(folder / "notinject_benign.dev.jsonl")
    ni_subset: dict[str, list[int]] = defaultdict(_bucket)
    ni_lang: dict[str, list[int]] = defaultdict(_bucket)
    ni_examples: list[str] = []
    for record in notinject:
        flagged = scan_injection(record["text"]).flagged
        _tally(flagged, ni_subset[record["subset"]], ni_lang[guess_language(record["text"])])
        if flagged:
            ni_examples.append(record["id"])
    ni_fp = sum(b[0] for b in ni_subset.values())
    lg_hit = sum(b[0] for b in lg_lang.values())
    lg_total = sum(b[1] for b in lg_lang.values())
    return {
        "cyberseceval_recall": _ratio(sum(b[0] for b in by_kind.values()), len(cse)),
        "cyberseceval_by_kind": _rates(by_kind),
        "cyberseceval_by_risk": _rates(by_risk),
        "cyberseceval_by_language": _rates(by_lang),
        "cyberseceval_by_variant": _rates(by_variant),
        "cyberseceval_caught_by_category": dict(sorted(caught_by.items())),
        "llmguard_attack_recall": _ratio(lg_hit, lg_total),
        "llmguard_attacks": lg_total,
        "llmguard_by_language": _rates(lg_lang),
        "llmguard_benign_fp": lg_benign[0],
        "llmguard_benign": lg_benign[1],
        "notinject_fp_rate": _ratio(ni_fp, len(notinject)),
        "notinject_fp": ni_fp,
        "notinject": len(notinject),
        "notinject_fp_by_subset": _rates(ni_subset),
        "notinject_fp_by_language": _rates(ni_lang),
        "notinject_flagged_ids": ni_examples,
    }


_SENTENCE = re.compile(r"(?<=[.;:!?])\s+|\n+")


def eval_corpus_fp(corpus: Path) -> dict[str, Any]:
    """Benign false positives on our own corpus: official text split into sentences, none is an attack."""
    # None when measuring the package from before addressed_to_assistant existed (EVAL.md "before")
    addressed_to_assistant = getattr(guardrails.injection, "addressed_to_assistant", None)
    sentences = flagged = addressed = 0
    docs = flagged_docs = 0
    by_category: dict[str, int] = defaultdict(int)
    for path in sorted(corpus.rglob("*")):
        if path.suffix not in (".txt", ".md") or not path.is_file():
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        docs += 1
        flagged_docs += scan_injection(text).flagged
        for sentence in _SENTENCE.split(text):
            if len(sentence.strip()) < 8:
                continue
            sentences += 1
            cats = _categories(sentence)
            flagged += bool(cats)
            for cat in set(cats):
                by_category[cat] += 1
            if addressed_to_assistant is not None:
                addressed += addressed_to_assistant(sentence)
    return {
        "documents": docs,
        "documents_flagged": flagged_docs,
        "sentences": sentences,
        "sentences_flagged": flagged,
        "sentences_flagged_by_category": dict(sorted(by_category.items())),
        "sentences_addressed_to_assistant": addressed if addressed_to_assistant is not None else None,
    }


def eval_latency() -> dict[str, Any]:
    """Median/p95 latency of ``inspect`` on a 300-character mixed message after warm-up."""
    base = (
        "Mohon dicek NPWP 01.312.166.0-091.000 vendor PT Maju dan NIK 3171011708450001, "
        "telp +62 812-3456-7890, "
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


def _rate_line(label: str, row: dict[str, Any]) -> str:
    """One indented row of a :func:`_rates` table: label, rate, hits/total."""
    return f"    {label:<44}{_fmt(row['rate']):>8}  ({row['hit']}/{row['n']})"


def render(report: dict[str, Any]) -> str:
    """Render the report as a plain-text table."""
    lines = ["== PII: presidio recognizer test cases (supported types) =="]
    lines.append(f"{'type':<16}{'recall':>8}{'hits':>7}{'pos':>6}{'neg':>6}{'FP':>5}")
    for entity_type, row in report["pii_presidio"].items():
        if entity_type.startswith("_"):
            continue
        lines.append(
            f"{entity_type:<16}{_fmt(row['recall']):>8}{row['hits']:>7}{row['positives']:>6}"
            f"{row['negatives']:>6}{row['false_positives']:>5}"
        )
    for test, row in report["pii_presidio"]["_by_recognizer_test"].items():
        lines.append(_rate_line(test, row))
    ids = report["pii_indonesian"]
    lines += [
        "",
        "== PII: Indonesian NIK/NPWP vectors ==",
        f"valid recall      {_fmt(ids['valid_recall'])}  "
        f"({ids['valid']} valid; missed: {ids['missed_valid'] or '-'})",
        f"invalid masked    {ids['invalid_masked']}/{ids['invalid']}  "
        f"({', '.join(ids['invalid_masked_ids']) or '-'})",
    ]
    sec = report["secrets"]
    lines += [
        "",
        "== Secrets (LLM Guard tests) ==",
        f"recall            {_fmt(sec['recall'])}  "
        f"({sec['positives']} positives; caught by {sec['caught_by_kind']})",
        f"false refusals    {sec['false_refusals']}/{sec['negatives']}",
    ]
    inj = report["injection"]
    lines += ["", "== Injection: CyberSecEval (all attacks) ==", f"recall {_fmt(inj['cyberseceval_recall'])}"]
    for title, key in (
        ("kind", "cyberseceval_by_kind"),
        ("risk", "cyberseceval_by_risk"),
        ("language", "cyberseceval_by_language"),
        ("variant", "cyberseceval_by_variant"),
    ):
        for name, row in inj[key].items():
            lines.append(_rate_line(f"{title} {name}", row))
    lines.append(f"    caught by our categories: {inj['cyberseceval_caught_by_category']}")
    lines += ["", "== Injection: LLM Guard ==", f"attack recall {_fmt(inj['llmguard_attack_recall'])}"]
    for name, row in inj["llmguard_by_language"].items():
        lines.append(_rate_line(f"language {name}", row))
    lines.append(f"benign FP {inj['llmguard_benign_fp']}/{inj['llmguard_benign']}")
    lines += [
        "",
        "== Injection: NotInject benign ==",
        f"FP rate {_fmt(inj['notinject_fp_rate'])}  ({inj['notinject_fp']}/{inj['notinject']}): "
        f"{', '.join(inj['notinject_flagged_ids']) or '-'}",
    ]
    for title, key in (("subset", "notinject_fp_by_subset"), ("language", "notinject_fp_by_language")):
        for name, row in inj[key].items():
            lines.append(_rate_line(f"{title} {name}", row))
    corpus = report.get("corpus_fp")
    if corpus:
        lines += [
            "",
            "== Benign: our regulation corpus ==",
            f"documents flagged {corpus['documents_flagged']}/{corpus['documents']}; sentences flagged "
            f"{corpus['sentences_flagged']}/{corpus['sentences']} {corpus['sentences_flagged_by_category']}; "
            f"addressed to the assistant {_fmt(corpus['sentences_addressed_to_assistant'])}",
        ]
    lat = report["latency"]
    lines += [
        "",
        "== Latency ==",
        f"engine build {lat['engine_build_s']} s; inspect({lat['chars']} chars) "
        f"median {lat['median_ms']} ms, "
        f"p95 {lat['p95_ms']} ms",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Run every evaluation and print the table (or JSON with ``--json``)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="eval data folder")
    parser.add_argument("--corpus", type=Path, default=REPO / "corpus", help="benign corpus folder")
    args = parser.parse_args(argv)
    report = {
        "latency": eval_latency(),
        "pii_presidio": eval_presidio_cases(args.data),
        "pii_indonesian": eval_indonesian_ids(args.data),
        "secrets": eval_secrets(args.data),
        "injection": eval_injection(args.data),
        "corpus_fp": eval_corpus_fp(args.corpus) if args.corpus.is_dir() else None,
    }
    print(json.dumps(report, indent=2) if args.json else render(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
