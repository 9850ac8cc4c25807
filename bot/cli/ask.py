"""``dasar ask``: one question, one answer with quotes and citations.

Exit 0 for every answer status (answered, clarify, abstained, escalated): a status is a result, not an
error. An empty question is a usage error (exit 2).
"""

from __future__ import annotations

import argparse
import datetime as dt
from typing import Any

from bot.argtypes import question_text
from bot.cli.common import RETRIEVAL_MODES, console, identity_options, kb_option, print_json, services


def cmd_ask(args: argparse.Namespace) -> int:
    from bot.answer.parts import answer_message
    from bot.turn import refused_answer
    from guardrails.inbound import inspect
    from guardrails.injection import normalise
    from guardrails.pii import MaskingSession

    svc = services(args)
    principal = svc.cli_principal(args.user)
    # the same inbound guardrails as every chat front end: a secret is refused before anything reads or keeps
    # it, personal identifiers are masked before the question reaches retrieval or a model
    text = normalise(args.question)
    inspection = inspect(text, MaskingSession())
    if inspection.refused:
        refused = refused_answer(
            inspection.refusal_kinds, text, args.as_of or dt.date.today(), svc.store.corpus_version()
        )
        if args.json:
            print_json(refused)
        else:
            console.print(f"refused · {', '.join(inspection.refusal_kinds)}", style="dim", markup=False)
            console.print(refused["answer"], markup=False)
        return 0
    answer = answer_message(
        inspection.masked, principal, svc, as_of=args.as_of, mode=args.mode, explain=args.explain
    )
    if args.json:
        print_json(answer.to_json())
        return 0
    who = principal.email or "anonymous (documents open to everyone only)"
    console.print(
        f"{answer.status} · as of {answer.as_of} · {who} · confidence "
        f"{answer.confidence.band} ({answer.confidence.score:.2f})",
        style="dim",
        markup=False,
    )
    from bot.answer.render import render_terminal

    console.print(render_terminal(answer))  # rich markup, user text escaped by the renderer
    if answer.escalation and answer.escalation.offered:
        console.print(
            f"escalation offered: {answer.escalation.reason} (in `dasar chat`, /ticket asks the tax team)",
            style="dim",
            markup=False,
        )
    elif answer.escalation:  # out of scope: nothing the tax team could answer, so no ticket is offered
        console.print(f"declined: {answer.escalation.reason} (no ticket offered)", style="dim", markup=False)
    if args.explain and answer.explain:
        for side in answer.explain.get("retrieval", []):
            console.print(
                f"retrieval as of {side['as_of']} ({side['mode']}): "
                f"{', '.join(r['chunk_id'] for r in side['results'])}",
                style="dim",
                markup=False,
            )
    return 0


def register(sub: Any) -> None:
    p = sub.add_parser("ask", help="answer a question from the knowledge base, with quotes and citations")
    p.add_argument("question", type=question_text)
    kb_option(p)
    identity_options(p)
    p.add_argument("--mode", choices=RETRIEVAL_MODES, help="retrieval mode")
    p.add_argument(
        "--json", action="store_true", help="print the answer object (the chat front ends' contract)"
    )
    p.add_argument("--explain", action="store_true", help="add what retrieval found and why")
    p.set_defaults(func=cmd_ask)
