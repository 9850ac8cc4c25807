"""``dasar`` command line: one module per command group, registered in :data:`GROUPS`.

Every command that prints results takes ``--json`` for machines; human output goes through rich.
Exit codes: 0 success, 1 some inputs failed (e.g. ingest errors) or ``doctor`` found a broken store,
2 bad usage or an error the user can fix (one line on stderr naming what to fix; ``-v`` adds the
traceback), 130 interrupted.

Start-up is kept fast: this package imports no heavy module (pydantic settings, numpy, presidio,
the Slack/Teams SDKs, strands); each command imports what it needs when it runs.
"""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Sequence

from bot.cli import ask, chat, doctor, evals, ingest, kb, law, mask, search, serve, tickets
from bot.cli.common import CliError, UsageError, console, err_console, print_json, services, settings

__all__ = [
    "GROUPS",
    "CliError",
    "UsageError",
    "build_parser",
    "console",
    "err_console",
    "main",
    "print_json",
    "services",
    "settings",
]

#: Command groups in the order ``dasar --help`` lists them; each module has ``register(subparsers)``.
GROUPS = (ingest, kb, law, search, ask, chat, mask, tickets, serve, doctor, evals)

EPILOG = """examples:
  dasar doctor                      where everything lives, what to run next
  dasar ingest corpus/              build or update the knowledge base
  dasar ask "Berapa tarif PPN?" --as-of 2022-05-01
  dasar search "tarif PPN" --explain
  dasar kb list

Settings come from DASAR_* environment variables or a .env file (see the README); local state lives in
$DASAR_HOME (default: .dasar/ in a checkout, else ~/.local/share/dasar)."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="dasar",
        description="dasar answers tax questions only from an approved knowledge base, with exact quotes.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "-v", "--verbose", action="store_true", help="debug logs and full tracebacks on stderr"
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for group in GROUPS:
        group.register(sub)
    return parser


def _fail(message: str) -> None:
    err_console.print(f"error: {message}", markup=False, highlight=False, soft_wrap=True)


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.WARNING,
        stream=sys.stderr,
        format="%(levelname)s %(name)s %(message)s",
    )
    from bot.cli.errors import describe, one_line

    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        err_console.print("interrupted")
        return 130
    except Exception as exc:
        if args.verbose:
            raise
        known = describe(exc)
        if known is None:
            _fail(
                one_line(f"unexpected {type(exc).__name__}: {exc}")
                + " (a bug in dasar: run again with -v for the traceback and report it)"
            )
            return 1
        message, code = known
        _fail(message)
        return code


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
