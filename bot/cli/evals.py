"""``dasar eval retrieval|answers``: measure retrieval and answers on evaluation sets (checkout only)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from bot.argtypes import positive_int
from bot.cli.common import RETRIEVAL_MODES, CliError, console, kb_option, print_json, services

EVAL_DIR = Path(__file__).resolve().parents[2] / "eval"
DEFAULT_RETRIEVAL_SET = EVAL_DIR / "retrieval.yaml"
DEFAULT_ANSWER_SET = EVAL_DIR / "answers.yaml"
SPLITS = ("all", "tune", "check")
SPLIT_HELP = "half of a repository set (tune: fitted on; check: held out); outside .jsonl sets run whole"


def _existing(path: str, what: str) -> Path:
    file = Path(path)
    if not file.is_file():
        raise CliError(
            f"{what} evaluation set {file} not found (pass --set FILE; eval/ ships with the checkout)"
        )
    return file


def cmd_eval_retrieval(args: argparse.Namespace) -> int:
    from bot.evals.retrieval import run_retrieval_eval

    path = _existing(args.set, "retrieval")
    report = run_retrieval_eval(
        services(args),
        path,
        modes=args.modes,
        include_naive=not args.no_naive,
        facqa=Path(args.facqa) if args.facqa else None,
        k=args.k,
        facqa_limit=args.facqa_limit,
        console=None if args.json else console,
        split=args.split,
    )
    if args.json:
        print_json(report)
    return 0


def cmd_eval_answers(args: argparse.Namespace) -> int:
    from bot.evals.answers import print_report, run_answer_eval

    path = _existing(args.set, "answer")
    report = run_answer_eval(services(args), path, split=args.split, mode=args.mode)
    if args.json:
        print_json(report)
    else:
        print_report(report, console)
    return 0


def register(sub: Any) -> None:
    p = sub.add_parser("eval", help="measure retrieval / answers on evaluation sets")
    ev = p.add_subparsers(dest="eval_command", required=True, metavar="WHAT")
    q = ev.add_parser("retrieval", help="recall@k, MRR@10, context precision per retrieval mode")
    kb_option(q)
    q.add_argument("--set", default=str(DEFAULT_RETRIEVAL_SET))
    q.add_argument(
        "--modes",
        nargs="+",
        default=["hybrid", "bm25", "dense", "deterministic"],
        choices=("hybrid", "bm25", "dense", "deterministic"),
    )
    q.add_argument("--no-naive", action="store_true", help="skip the naive fixed-window baseline")
    q.add_argument("--facqa", help="also run the facqa_id outside check from this folder")
    q.add_argument("--facqa-limit", type=positive_int, default=200)
    q.add_argument("-k", type=positive_int, default=5)
    q.add_argument("--split", choices=SPLITS, default="all", help=SPLIT_HELP)
    q.add_argument("--json", action="store_true")
    q.set_defaults(func=cmd_eval_retrieval)
    q = ev.add_parser(
        "answers", help="status accuracy, citation precision, gates, abstention, leaks, latency"
    )
    kb_option(q)
    q.add_argument("--directory", type=Path, help="identity directory YAML")
    q.add_argument(
        "--set",
        default=str(DEFAULT_ANSWER_SET),
        help="answer evaluation set: our YAML, or a .jsonl set of real questions "
        "(e.g. ../shared/eval/realworld/dev.jsonl)",
    )
    q.add_argument("--split", choices=SPLITS, default="all", help=SPLIT_HELP)
    q.add_argument("--mode", choices=RETRIEVAL_MODES, help="retrieval mode (default: the configured one)")
    q.add_argument("--json", action="store_true")
    q.set_defaults(func=cmd_eval_answers)
