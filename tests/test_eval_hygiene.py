"""Unit tests use their own questions: an eval question copied into a test measures nothing.

Fails when any question of the repository's eval sets (``eval/*.yaml``) or of the outside sets in
``../shared/eval/realworld/`` appears verbatim (case- and whitespace-normalised) in a test file.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
SHARED_REALWORLD = ROOT.parent / "shared" / "eval" / "realworld"
MIN_CHARS = 20  # shorter strings ("tarif PPN") are vocabulary, not a copied question


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().lower()


def _questions_in(node: object) -> list[str]:
    found: list[str] = []
    if isinstance(node, dict):
        for key, value in node.items():
            if key in ("question", "query", "q") and isinstance(value, str):
                found.append(value)
            else:
                found.extend(_questions_in(value))
    elif isinstance(node, list):
        for item in node:
            found.extend(_questions_in(item))
    return found


def _eval_questions() -> dict[str, str]:
    out: dict[str, str] = {}
    for path in sorted((ROOT / "eval").glob("*.yaml")):
        for q in _questions_in(yaml.safe_load(path.read_text(encoding="utf-8"))):
            out.setdefault(_norm(q), f"eval/{path.name}")
    # JSONL sets: the blind eval/fresh.jsonl and the outside real-question set (absent on some machines)
    for folder, label in ((ROOT / "eval", "eval"), (SHARED_REALWORLD, "shared/eval/realworld")):
        for path in sorted(folder.glob("*.jsonl")):
            for line in path.read_text(encoding="utf-8").splitlines():
                if line.strip():
                    for q in _questions_in(json.loads(line)):
                        out.setdefault(_norm(q), f"{label}/{path.name}")
    return {q: src for q, src in out.items() if len(q) >= MIN_CHARS}


def test_no_eval_question_is_reused_verbatim_in_unit_tests() -> None:
    questions = _eval_questions()
    assert len(questions) > 100
    copied: list[str] = []
    for path in sorted((ROOT / "tests").rglob("*.py")):
        if path.name == Path(__file__).name:
            continue
        text = _norm(path.read_text(encoding="utf-8"))
        rel = path.relative_to(ROOT)
        copied += [f"{rel}: {q!r} (from {src})" for q, src in questions.items() if q in text]
    assert copied == [], "\n".join(copied)


#: a run of this many words shared with a blind or outside question is a near copy (a reworded test question
#: shares a tax term or two, not a clause: "boleh pakai PPh final 0,5% sampai ..." was one)
SHINGLE = 5
#: the share of the shorter text's word runs that may be shared
MAX_SHARED = 0.5


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


def _runs(words: list[str]) -> set[tuple[str, ...]]:
    return {tuple(words[i : i + SHINGLE]) for i in range(len(words) - SHINGLE + 1)}


def _blind_questions() -> dict[str, set[tuple[str, ...]]]:
    """The questions we may not write tests from at all: the blind set and the outside real-question set."""
    out: dict[str, set[tuple[str, ...]]] = {}
    for path in [*sorted((ROOT / "eval").glob("*.jsonl")), *sorted(SHARED_REALWORLD.glob("*.jsonl"))]:
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                record = json.loads(line)
                for q in _questions_in(record):
                    out[f"{path.name}:{record.get('id', '?')}"] = _runs(_words(q))
    return out


def _string_constants(path: Path) -> list[tuple[int, str]]:
    import ast

    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        (n.lineno, n.value)
        for n in ast.walk(tree)
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and len(n.value) >= MIN_CHARS
    ]


def test_no_blind_or_real_question_is_reworded_into_unit_tests() -> None:
    blind = {k: v for k, v in _blind_questions().items() if v}
    assert blind, "the blind set eval/fresh.jsonl is missing"
    near: list[str] = []
    for path in sorted((ROOT / "tests").rglob("*.py")):
        if path.name == Path(__file__).name:
            continue
        for line, text in _string_constants(path):
            runs = _runs(_words(text))
            if not runs:
                continue
            for qid, q_runs in blind.items():
                shared = len(runs & q_runs) / min(len(runs), len(q_runs))
                if shared >= MAX_SHARED:
                    where = f"{path.relative_to(ROOT)}:{line}"
                    near.append(f"{where} shares {shared:.0%} of its word runs with {qid}")
    assert near == [], "\n".join(near)
