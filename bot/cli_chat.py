"""``dasar chat``, ``dasar mask`` and ``dasar serve``: the interactive terminal over the same turn as Slack and
Teams, the operator's masking preview, and the chat servers."""

from __future__ import annotations

import argparse
import json
import sys
import uuid
from pathlib import Path
from typing import Any

from rich.console import Console

from bot.argtypes import iso_date

console = Console(highlight=False)


def _services(args: argparse.Namespace):
    from bot.settings import load_settings
    from bot.wiring import Services

    return Services(
        load_settings(
            kb=getattr(args, "kb", None),
            directory=getattr(args, "directory", None),
            tickets_db=getattr(args, "tickets_db", None),
        )
    )


def render_terminal(reply: Any) -> str:
    """Plain-text rendering of a reply for the terminal: the answer text plus ticket id when there is one."""
    out = [reply.text]
    if reply.ticket_id:
        out.append(f"[ticket {reply.ticket_id}]")
    return "\n".join(out)


def cmd_chat(args: argparse.Namespace) -> int:
    from bot.messages import InboundMessage

    services = _services(args)
    turn = services.turn()
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
        console.print(f"[bold]dasar chat[/bold] as {who}. Ask in Indonesian or English; Ctrl-D to quit.")
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
        reply = turn.escalate(message) if line.strip() in ("/ticket", "/escalate") else turn.handle(message)
        if args.json:
            sys.stdout.write(
                json.dumps(
                    {"reference_id": reply.reference_id, "ticket_id": reply.ticket_id, **reply.answer},
                    ensure_ascii=False,
                )
                + "\n"
            )
        else:
            console.print(render_terminal(reply))
            if interactive:
                console.print("[dim](/ticket asks the tax team about this thread)[/dim]")
    return 0


def cmd_mask(args: argparse.Namespace) -> int:
    from guardrails.inbound import inspect
    from guardrails.pii import MaskingSession

    text = args.text if args.text != "-" else sys.stdin.read()
    result = inspect(text, MaskingSession())
    if args.json:
        sys.stdout.write(result.to_json() + "\n")
        return 0
    data: dict[str, Any] = result.to_dict()  # type: ignore[assignment]
    if data["refused"]:
        console.print(
            f"[red]refused[/red]: contains a secret ({', '.join(data.get('refusal_kinds', []))}); "
            "the message would not be processed or stored"
        )
    else:
        console.print(data["masked"])
    for ent in data["entities"]:
        console.print(f"  [dim]{ent['type']} at {ent['start']}-{ent['end']} (score {ent['score']})[/dim]")
    inj = data.get("injection") or {}
    if inj.get("flagged"):
        console.print(f"  [yellow]instruction-like text[/yellow]: {', '.join(inj.get('rule_ids', []))}")
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    from bot.cli import CliError

    services = _services(args)
    if args.channel == "slack":
        from bot.slack.app import require_settings, serve
        from bot.slack.errors import SlackConfigError

        try:
            require_settings(services.settings, socket=args.socket)
            serve(services.settings, services.turn(), socket=args.socket, port=args.port)
        except SlackConfigError as exc:
            raise CliError(str(exc)) from None
        return 0
    from bot.teams.app import deps_from_settings
    from bot.teams.app import serve as serve_teams
    from bot.teams.errors import TeamsError

    try:
        deps = deps_from_settings(services.settings, services=services, turn=services.turn())
        serve_teams(
            services.settings, deps, port=args.port if args.port != 3000 else services.settings.teams_port
        )
    except TeamsError as exc:
        raise CliError(str(exc)) from None
    return 0


def register(sub: Any) -> None:
    p = sub.add_parser("chat", help="interactive chat over the same turn as Slack/Teams (stdin when piped)")
    p.add_argument("--user", help="directory user (email); unknown/absent = guest")
    p.add_argument("--kb", type=Path)
    p.add_argument("--directory", type=Path)
    p.add_argument("--tickets-db", type=Path)
    p.add_argument("--as-of", type=iso_date, help="transaction date for every question of this chat")
    p.add_argument("--json", action="store_true", help="one JSON answer object per line")
    p.set_defaults(func=cmd_chat)

    p = sub.add_parser("mask", help="show what would be masked or refused in TEXT ('-' reads stdin)")
    p.add_argument("text")
    p.add_argument("--json", action="store_true", help='{"masked", "refused", "entities": [...]}')
    p.set_defaults(func=cmd_mask)

    p = sub.add_parser("serve", help="run a chat front end")
    p.add_argument("channel", choices=("slack", "teams"))
    p.add_argument("--socket", action="store_true", help="Slack Socket Mode instead of HTTP")
    p.add_argument("--port", type=int, default=3000)
    p.add_argument("--kb", type=Path)
    p.add_argument("--directory", type=Path)
    p.add_argument("--tickets-db", type=Path)
    p.set_defaults(func=cmd_serve)
