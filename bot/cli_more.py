"""Commands of the answer layer: ``dasar ask`` and ``dasar eval answers``.

``bot.cli`` calls :func:`register` with its top-level subparsers; ``eval answers`` is added to the
existing ``eval`` group.  ``ask`` exits 0 for every answer status (answered, clarify, abstained,
escalated): a status is a result, not an error.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from bot.argtypes import iso_date

DEFAULT_ANSWER_SET = Path(__file__).resolve().parents[1] / "eval" / "answers.yaml"


def cmd_ask(args: argparse.Namespace) -> int:
    from bot.answer.pipeline import answer_question
    from bot.cli import _print_json, _services, console

    services = _services(args)
    principal = services.cli_principal(args.user)
    answer = answer_question(
        args.question, principal, services, as_of=args.as_of, mode=args.mode, explain=args.explain
    )
    if args.json:
        _print_json(answer.to_json())
        return 0
    who = principal.email or "anonymous (documents open to everyone only)"
    console.print(
        f"[dim]{answer.status} · as of {answer.as_of} · {who} · confidence "
        f"{answer.confidence.band} ({answer.confidence.score:.2f})[/dim]"
    )
    console.print(answer.answer, markup=False)
    if answer.escalation:
        console.print(f"[dim]escalation offered: {answer.escalation.reason}[/dim]")
    if args.explain and answer.explain:
        for side in answer.explain.get("retrieval", []):
            console.print(
                f"[dim]retrieval as of {side['as_of']} ({side['mode']}): "
                f"{', '.join(r['chunk_id'] for r in side['results'])}[/dim]"
            )
    return 0


def cmd_eval_answers(args: argparse.Namespace) -> int:
    from bot.cli import CliError, _print_json, _services, console
    from bot.evals.answers import print_report, run_answer_eval

    path = Path(args.set)
    if not path.exists():
        raise CliError(f"answer evaluation set {path} not found (pass --set FILE)")
    report = run_answer_eval(_services(args), path)
    if args.json:
        _print_json(report)
    else:
        print_report(report, console)
    return 0


def _subparsers_of(parser: argparse.ArgumentParser) -> Any:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return action
    return None


def register(sub: Any) -> None:
    """Add ``ask`` and ``eval answers`` to the ``dasar`` parser."""
    p = sub.add_parser("ask", help="answer a question from the knowledge base, with quotes and citations")
    p.add_argument("question")
    p.add_argument("--kb", type=Path, help="knowledge-base file (default $DASAR_KB or ~/.local/share/dasar)")
    p.add_argument("--directory", type=Path, help="identity directory YAML (default: the bundled sample)")
    p.add_argument(
        "--user", help="ask as this directory user (email); unknown/absent = sees public docs only"
    )
    p.add_argument(
        "--as-of", type=iso_date, help="transaction date YYYY-MM-DD (default: from the question, else today)"
    )
    p.add_argument("--mode", choices=("hybrid", "bm25", "dense", "deterministic"), help="retrieval mode")
    p.add_argument(
        "--json", action="store_true", help="print the answer object (the chat front ends' contract)"
    )
    p.add_argument("--explain", action="store_true", help="add what retrieval found and why")
    p.set_defaults(func=cmd_ask)

    ev_parser = sub.choices.get("eval")
    ev = _subparsers_of(ev_parser) if ev_parser is not None else None
    if ev is None:
        ev_parser = sub.add_parser("eval", help="measure answers on evaluation sets")
        ev = ev_parser.add_subparsers(dest="eval_command", required=True, metavar="WHAT")
    q = ev.add_parser(
        "answers", help="status accuracy, citation precision, gates, abstention, leaks, latency"
    )
    q.add_argument("--kb", type=Path, help="knowledge-base file")
    q.add_argument("--directory", type=Path, help="identity directory YAML")
    q.add_argument("--set", default=str(DEFAULT_ANSWER_SET), help="answer evaluation set (YAML)")
    q.add_argument("--json", action="store_true")
    q.set_defaults(func=cmd_eval_answers)
