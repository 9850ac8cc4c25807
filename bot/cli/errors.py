"""One line for every error a user or operator can cause: what went wrong, and what to fix.

``main`` calls :func:`describe` for any exception a command raises. A known cause (a bad file, a
setting, a missing optional extra, an unreachable service) becomes one line and exit code 2; an
unknown exception is a bug, reported as one line that says how to get the traceback (``-v``).
"""

from __future__ import annotations

import re

#: Top-level modules of the optional extras, and the extra that installs each.
EXTRAS: dict[str, str] = {
    "slack_bolt": "slack",
    "slack_sdk": "slack",
    "botbuilder": "teams",
    "aiohttp": "teams",
    "redis": "redis",
    "psycopg": "postgres",
    "psycopg_binary": "postgres",
    "pgvector": "postgres",
    "strands": "agent",
    "boto3": "bedrock",
    "botocore": "bedrock",
}

MAX_CHARS = 400


def one_line(text: str, limit: int = MAX_CHARS) -> str:
    """Collapse whitespace and cut to ``limit`` characters (a message must never flood a terminal)."""
    flat = re.sub(r"\s+", " ", text).strip()
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def missing_extra(exc: ImportError) -> str | None:
    """``pip install 'dasar[teams]'`` advice when ``exc`` is a missing optional dependency, else None."""
    name = (getattr(exc, "name", None) or "").split(".")[0]
    extra = EXTRAS.get(name)
    if extra is None:
        return None
    return f"this needs the optional '{extra}' extra ({name} is not installed): pip install 'dasar[{extra}]'"


def _type_names(exc: BaseException) -> set[str]:
    return {f"{k.__module__}.{k.__qualname__}" for k in type(exc).__mro__}


def describe(exc: BaseException) -> tuple[str, int] | None:
    """``(message, exit code)`` for an error the user or operator can fix; None for an unexpected one."""
    from bot.cli.common import CliError

    if isinstance(exc, CliError):
        return one_line(str(exc)), 2
    if isinstance(exc, ImportError):
        advice = missing_extra(exc)
        return (advice, 2) if advice else None
    names = _type_names(exc)
    ours = (
        "kb.errors.KbError",
        "identity.errors.IdentityError",
        "tickets.errors.TicketError",
        "guardrails.errors.GuardrailError",
        "bot.settings.SettingsError",
        "bot.slack.errors.SlackFrontEndError",
        "bot.teams.errors.TeamsError",
    )
    if names & set(ours):
        message = str(exc)
        if message.startswith("no knowledge base at"):
            message += "; `dasar doctor` shows where dasar looks and what to run"
        return one_line(message), 2
    if "slack_sdk.errors.SlackApiError" in names:
        return one_line(
            f"Slack API refused the request ({_slack_error(exc)}); check DASAR_SLACK_BOT_TOKEN"
        ), 2
    if names & {"slack_sdk.errors.SlackRequestError", "slack_sdk.errors.SlackClientError"}:
        return one_line(
            f"cannot reach the Slack API ({exc}); check the network or DASAR_SLACK_API_BASE_URL"
        ), 2
    if names & {"redis.exceptions.ConnectionError", "redis.exceptions.TimeoutError"}:
        return one_line(f"cannot reach Redis at DASAR_REDIS_URL ({exc}); start it or fix the URL"), 2
    if names & {"psycopg.OperationalError", "psycopg.errors.OperationalError"}:
        return one_line(f"cannot reach PostgreSQL ({exc}); check DASAR_KB_URL / DASAR_TICKETS_URL"), 2
    if "yaml.error.YAMLError" in names:
        return one_line(f"invalid YAML: {exc}"), 2
    if "urllib.error.URLError" in names:
        reason = getattr(exc, "reason", exc)
        return one_line(
            f"cannot reach a remote service at start-up ({reason}); check the network, the "
            "service's URL (e.g. DASAR_SLACK_API_BASE_URL) and any proxy settings"
        ), 2
    if isinstance(exc, (ConnectionError, TimeoutError)):
        return one_line(f"cannot reach a remote service ({exc}); check the network and the configured URL"), 2
    if isinstance(exc, FileNotFoundError):
        return one_line(f"file not found: {exc.filename or exc}"), 2
    if isinstance(exc, PermissionError):
        return one_line(f"permission denied: {exc.filename or exc}"), 2
    if isinstance(exc, IsADirectoryError | NotADirectoryError):
        return one_line(f"expected a file, got a folder (or the reverse): {exc.filename or exc}"), 2
    if isinstance(exc, OSError) and exc.errno is not None:
        return one_line(f"{exc.strerror or exc}: {exc.filename or ''}"), 2
    if isinstance(exc, UnicodeDecodeError):
        return one_line(f"a file is not UTF-8 text ({exc.reason} at byte {exc.start})"), 2
    if isinstance(exc, RecursionError | MemoryError):
        return "an input file nests or repeats too deeply (a YAML alias bomb?); fix the file", 2
    return None


def _slack_error(exc: BaseException) -> str:
    response = getattr(exc, "response", None)
    try:
        return str(response["error"]) if response is not None else str(exc)
    except (KeyError, TypeError):
        return str(exc)
