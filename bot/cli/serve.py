"""``dasar serve slack|teams``: run a chat front end until interrupted.

Start-up failures an operator can fix (a missing token, Slack unreachable, a missing extra) end in one
line naming what to fix; see ``bot.cli.errors``.
"""

from __future__ import annotations

import argparse
import errno
import urllib.error
from pathlib import Path
from typing import Any

from bot.cli.common import CliError, console, kb_option, services

SLACK_PORT = 3000


def _report_warm_up(channel: str, took: dict[str, float]) -> None:
    parts = ", ".join(f"{name} {ms:.0f} ms" for name, ms in took.items())
    console.print(f"dasar serve {channel}: ready: warmed up before serving ({parts})", markup=False)


def _serve_slack(args: argparse.Namespace) -> int:
    from bot.slack.app import require_settings, serve

    svc = services(args)
    require_settings(svc.settings, socket=args.socket)  # the missing tokens first, before anything is built
    turn = svc.turn()
    _report_warm_up("slack", svc.warm_up())  # /healthz says ready only once a first question is fast
    base = svc.settings.slack_api_base_url or "https://slack.com/api/"
    port = args.port or SLACK_PORT
    try:
        serve(svc.settings, turn, socket=args.socket, port=port)
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            raise CliError(f"port {port} is already in use; stop the other server or pass --port") from None
        if not isinstance(exc, urllib.error.URLError):
            raise
        # auth.test at start-up could not reach Slack
        raise CliError(
            f"cannot reach the Slack API at {base} at start-up ({exc.reason}); check network access or proxy "
            "to slack.com, or DASAR_SLACK_API_BASE_URL"
        ) from None
    return 0


def _serve_teams(args: argparse.Namespace) -> int:
    from bot.teams.app import deps_from_settings
    from bot.teams.app import serve as serve_teams

    svc = services(args)
    deps = deps_from_settings(svc.settings, services=svc, turn=svc.turn())
    _report_warm_up("teams", svc.warm_up())  # everything a turn needs is loaded before /healthz answers
    serve_teams(svc.settings, deps, port=args.port or svc.settings.teams_port)
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    return _serve_slack(args) if args.channel == "slack" else _serve_teams(args)


def register(sub: Any) -> None:
    p = sub.add_parser(
        "serve",
        help="run a chat front end (slack: HTTP or --socket; teams: Bot Framework messaging endpoint)",
        description="Run a chat front end until interrupted. Both answer GET /healthz, GET /metrics "
        "(Prometheus) and GET /law/<doc>?as_of=YYYY-MM-DD (public regulations as they stood on a date; "
        "citations link it when DASAR_PUBLIC_URL is set). Settings come from "
        "DASAR_* variables (see the README's deployment guide).",
    )
    p.add_argument("channel", choices=("slack", "teams"))
    p.add_argument("--socket", action="store_true", help="Slack Socket Mode instead of HTTP")
    p.add_argument(
        "--port",
        type=int,
        default=None,
        help=f"HTTP port (slack: {SLACK_PORT}, in Socket Mode only /healthz, /metrics and /law/; "
        "teams: $DASAR_TEAMS_PORT, 3978)",
    )
    kb_option(p)
    p.add_argument("--directory", type=Path, help="identity directory YAML (default: the bundled sample)")
    p.add_argument("--tickets-db", type=Path, help="ticket database (default $DASAR_TICKETS_DB)")
    p.set_defaults(func=cmd_serve)
