"""``dasar chat``: the interactive terminal over the same turn as Slack and Teams (stdin when piped).

``/ticket`` (or ``/escalate``) asks the tax team about the current thread, as the Slack and Teams buttons do.
"""

from __future__ import annotations

import argparse
import json
import sys
import uuid
from pathlib import Path
from typing import Any

from bot.argtypes import iso_date
from bot.cli.common import console, kb_option, services

TICKET_COMMANDS = ("/ticket", "/escalate")


def render_terminal(reply: Any) -> str:
    """Plain-text rendering of a reply for the terminal: the answer text plus ticket id when there is one."""
    out = [reply.text]
    if reply.ticket_id:
        out.append(f"[ticket {reply.ticket_id}]")
    return "\n".join(out)


def cmd_chat(args: argparse.Namespace) -> int:
    from bot.messages import InboundMessage

    svc = services(args)
    turn = svc.turn()
    user = args.user or "anonymous@local"
    thread = uuid.uuid4().hex[:12]
    interactive = sys.stdin.isatty() and not args.json
    principal = turn.principal_for(
        InboundMessage(
            platform="cli",
            tenant="local",
            user_id=user,
            channel="cli",
            thread_id=thread,
            message_id="0",
            text="",
        )
    )
    if interactive:
        who = principal.email or "guest (documents open to everyone only)"
        console.print(
            f"dasar chat as {who}. Ask in Indonesian or English; /ticket asks the tax team; Ctrl-D to quit.",
            markup=False,
        )
    n = 0
    while True:
        try:
            line = input("> " if interactive else "")
        except EOFError:
            break
        if not line.strip():
            continue
        n += 1
        message = InboundMessage(
            platform="cli",
            tenant="local",
            user_id=user,
            channel="cli",
            thread_id=thread,
            message_id=str(n),
            text=line,
            as_of=args.as_of,
        )
        reply = turn.escalate(message) if line.strip() in TICKET_COMMANDS else turn.handle(message)
        if args.json:
            record = {"reference_id": reply.reference_id, "ticket_id": reply.ticket_id, **reply.answer}
            sys.stdout.write(json.dumps(record, ensure_ascii=False) + "\n")
        else:
            console.print(render_terminal(reply), markup=False)
    return 0


def register(sub: Any) -> None:
    p = sub.add_parser(
        "chat",
        help="interactive chat over the same turn as Slack/Teams (stdin when piped; /ticket escalates)",
    )
    p.add_argument("--user", help="directory user (email); unknown/absent = guest")
    kb_option(p)
    p.add_argument("--directory", type=Path, help="identity directory YAML (default: the bundled sample)")
    p.add_argument("--tickets-db", type=Path, help="ticket database (default $DASAR_TICKETS_DB)")
    p.add_argument("--as-of", type=iso_date, help="transaction date for every question of this chat")
    p.add_argument("--json", action="store_true", help="one JSON answer object per line")
    p.set_defaults(func=cmd_chat)
