"""What every ``dasar`` command group shares: consoles, the fatal-error type, settings and services.

Kept light on purpose: importing this module must not import pydantic, numpy, presidio or an SDK, so
``dasar --help`` and the small commands start fast. Heavy modules are imported inside the functions
that need them.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.console import Console

if TYPE_CHECKING:
    from bot.settings import Settings
    from bot.wiring import Services

console = Console(highlight=False, soft_wrap=True)  # long paths and quotes stay on one line in pipes
err_console = Console(stderr=True, highlight=False, soft_wrap=True)

RETRIEVAL_MODES = ("hybrid", "bm25", "dense", "deterministic")


class CliError(Exception):
    """A fatal, user-facing CLI error (printed as one line without a traceback, exit code 2)."""


class UsageError(CliError):
    """Bad command-line usage (exit code 2, like argparse's own usage errors)."""


def settings(args: argparse.Namespace) -> Settings:
    """Settings from ``DASAR_*`` with this command's flags (``--kb``, ``--directory``, ...) on top."""
    from bot.settings import load_settings

    return load_settings(
        kb=getattr(args, "kb", None),
        directory=getattr(args, "directory", None),
        retrieval_mode=getattr(args, "mode", None),
        tickets_db=getattr(args, "tickets_db", None),
    )


def services(args: argparse.Namespace) -> Services:
    """The composition root over this command's settings (clients are built lazily, on first use)."""
    from bot.wiring import Services

    s = settings(args)
    for path in (s.directory, s.aliases):
        if path is not None:
            reject_yaml_aliases(Path(path))
    return Services(s)


def reject_yaml_aliases(path: Path) -> None:
    """Refuse a directory or alias file that uses YAML anchors/aliases (``&a`` / ``*a``).

    Neither format needs them, and a few nested aliases ("billion laughs") expand into a structure
    large enough to stall the process when a loader walks or prints it. Parsing events is linear in
    the file's size, so this check is cheap and runs before any loader sees the file.
    """
    import yaml

    if not path.is_file():
        return  # the loader reports a missing file with its own message
    try:
        with path.open(encoding="utf-8") as fh:
            for event in yaml.parse(fh, Loader=yaml.SafeLoader):
                if isinstance(event, yaml.AliasEvent):
                    line = f"line {event.start_mark.line + 1}: " if event.start_mark is not None else ""
                    raise CliError(
                        f"{path}: {line}YAML aliases (*{event.anchor}) are not allowed "
                        "in this file; write the values out"
                    )
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}: " if mark is not None else ""
        raise CliError(f"{path}: {where}not valid YAML ({getattr(exc, 'problem', None) or exc})") from None
    except UnicodeDecodeError:
        raise CliError(f"{path}: not UTF-8 text") from None


def print_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2, sort_keys=False, default=str) + "\n")


def kb_option(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--kb", type=Path, help="knowledge-base file (default $DASAR_KB, else kb.sqlite in the data folder)"
    )


def identity_options(p: argparse.ArgumentParser) -> None:
    from bot.argtypes import iso_date

    p.add_argument("--directory", type=Path, help="identity directory YAML (default: the bundled sample)")
    p.add_argument(
        "--user", help="ask as this directory user (email); unknown/absent = sees public docs only"
    )
    p.add_argument(
        "--as-of", type=iso_date, help="transaction date YYYY-MM-DD (default: from the question, else today)"
    )
