"""``dasar doctor [--json]``: what is configured and where, whether each store opens, which optional
extras are installed, and the next command to run. It never creates a store and never prints a secret.

Exit 0 when nothing is broken (a store not created yet is not broken), 1 when a configured store,
file or service fails to open.
"""

from __future__ import annotations

import argparse
import functools
import importlib.util
import sys
from pathlib import Path
from typing import Any

from bot.cli.common import console, kb_option, print_json, reject_yaml_aliases

#: extra -> modules it provides (checked with importlib.util.find_spec: nothing is imported).
EXTRA_MODULES: dict[str, tuple[str, ...]] = {
    "slack": ("slack_bolt", "slack_sdk", "prometheus_client"),
    "teams": ("botbuilder.core", "botbuilder.integration.aiohttp", "aiohttp", "prometheus_client"),
    "redis": ("redis",),
    "postgres": ("psycopg", "pgvector"),
    "agent": ("strands",),
    "bedrock": ("boto3",),
}


def _installed(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def extras() -> dict[str, bool]:
    return {extra: all(_installed(m) for m in mods) for extra, mods in EXTRA_MODULES.items()}


def _check(status: str, location: str, detail: str = "", **more: Any) -> dict[str, Any]:
    return {"status": status, "location": location, "detail": detail, **more}


def _failed(exc: BaseException) -> str:
    from bot.cli.errors import describe, one_line

    described = describe(exc)
    return described[0] if described else one_line(f"{type(exc).__name__}: {exc}")


def _kb(s: Any) -> dict[str, Any]:
    from bot.settings import secret_or_none
    from kb.store.factory import open_store

    url = secret_or_none(s.kb_url)
    location = "DASAR_KB_URL (PostgreSQL)" if url else str(s.kb)
    if not url and not Path(s.kb).exists():
        return _check("missing", location, "not built yet", backend="sqlite")
    try:
        store = open_store(s.kb, url, None, create=False)
        try:
            stats = store.stats()
            embedder = store.get_meta("embedder") if hasattr(store, "get_meta") else None
        finally:
            store.close()
    except Exception as exc:
        return _check("error", location, _failed(exc), backend="postgres" if url else "sqlite")
    detail = f"{stats['documents']} documents, {stats['chunks']} chunks, embedder {embedder or '?'}"
    status = "ok" if stats["documents"] else "empty"
    return _check(status, location, detail, backend="postgres" if url else "sqlite", **stats)


def _tickets(s: Any) -> dict[str, Any]:
    from bot.settings import secret_or_none
    from tickets.factory import open_ticket_store

    url = secret_or_none(s.tickets_url)
    location = "DASAR_TICKETS_URL (PostgreSQL)" if url else str(s.tickets_db)
    if not url and not Path(s.tickets_db).exists():
        return _check("missing", location, "created by the first escalation (/ticket in `dasar chat`)")
    try:
        store = open_ticket_store(s.tickets_db, url)
        try:
            count = len(store.list())
        finally:
            store.shutdown()
    except Exception as exc:
        return _check("error", location, _failed(exc))
    return _check("ok", location, f"{count} tickets", tickets=count)


def _file(path: Path, what: str) -> dict[str, Any]:
    if path.is_file():
        return _check("ok", str(path), f"{path.stat().st_size:,} bytes")
    if path.exists():
        return _check("error", str(path), f"{what} path exists but is not a file")
    return _check("missing", str(path), f"created on first use ({what})")


def _faq(path: Path) -> dict[str, Any]:
    if path.is_dir():
        files = sorted(path.rglob("*.md"))
        return _check("ok", str(path), f"{len(files)} FAQ files")
    if path.exists():
        return _check("error", str(path), "FAQ path exists but is not a folder")
    return _check("missing", str(path), "created by the first reviewed FAQ")


def _directory(s: Any) -> dict[str, Any]:
    from bot.settings import PACKAGED_DIRECTORY, SAMPLE_DIRECTORY

    path = Path(s.directory)
    sample = path.resolve() in (SAMPLE_DIRECTORY.resolve(), PACKAGED_DIRECTORY.resolve())
    try:
        from identity.yaml_directory import YamlDirectory

        reject_yaml_aliases(path)
        users = len(YamlDirectory(path))
    except Exception as exc:
        return _check("error", str(path), _failed(exc))
    note = " (the bundled fictitious sample; set DASAR_DIRECTORY for your own)" if sample else ""
    return _check("ok", str(path), f"{users} users{note}", users=users, sample=sample)


def _aliases(s: Any) -> dict[str, Any]:
    from kb.query import DEFAULT_ALIASES_PATH, AliasDictionary

    path = Path(s.aliases) if s.aliases else DEFAULT_ALIASES_PATH
    try:
        reject_yaml_aliases(path)
        aliases = AliasDictionary.load(path)
    except Exception as exc:
        return _check("error", str(path), _failed(exc))
    count = len(aliases.entries)
    return _check("ok", str(path), f"{count} reviewed entries" + ("" if s.aliases else " (bundled)"))


def _redis(s: Any) -> dict[str, Any]:
    from bot.settings import secret_or_none

    url = secret_or_none(s.redis_url)
    if not url:
        return _check("not configured", "in-process", "dedupe, history and caches live in each process")
    if not _installed("redis"):
        return _check("error", "DASAR_REDIS_URL", "pip install 'dasar[redis]'")
    try:
        import redis

        client = redis.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=2)
        client.ping()
        client.close()
    except Exception as exc:
        return _check("error", "DASAR_REDIS_URL", _failed(exc))
    return _check("ok", "DASAR_REDIS_URL", "ping answered")


def _front_ends(s: Any) -> dict[str, Any]:
    def missing(*names: str) -> list[str]:
        return [f"DASAR_{n.upper()}" for n in names if not getattr(s, n)]

    slack_http = missing("slack_bot_token", "slack_signing_secret")
    slack_socket = missing("slack_bot_token", "slack_app_token")
    teams = missing("teams_app_id", "teams_app_password", "teams_tenant_id", "teams_service_url")
    teams += missing("teams_tax_channel_id")
    return {
        "slack": {
            "http": "ready" if not slack_http else "missing " + ", ".join(slack_http),
            "socket": "ready" if not slack_socket else "missing " + ", ".join(slack_socket),
        },
        "teams": "ready" if not teams else "missing " + ", ".join(teams),
    }


def _next(report: dict[str, Any]) -> str:
    stores = report["stores"]
    broken = [name for name, c in stores.items() if c["status"] == "error"]
    if broken:
        return f"fix {', '.join(broken)} (see above), then run `dasar doctor` again"
    if stores["knowledge_base"]["status"] in ("missing", "empty"):
        if report["install"]["mode"] == "checkout":
            return "make demo   (or: dasar ingest corpus)"
        return "dasar ingest /path/to/your/corpus   (see the README: your own corpus and directory)"
    return 'dasar ask "Berapa tarif PPN?"'


def build_report(args: argparse.Namespace) -> dict[str, Any]:
    from bot.cli.common import settings
    from bot.settings import REPO_ROOT, checkout_root, data_home_source, settings_file

    s = settings(args)
    root = checkout_root()
    home, why = data_home_source()
    env_file = settings_file()
    report: dict[str, Any] = {
        "install": {
            "mode": "checkout" if root else "installed",
            "location": str(root or REPO_ROOT),
            "python": sys.executable,
        },
        "home": {
            "path": str(s.home),
            "source": "DASAR_HOME" if "home" in s.model_fields_set else why,
            "default": str(home),
        },
        "settings_file": {"path": str(env_file), "exists": env_file.is_file()},
        "composer": s.composer,
        "retrieval_mode": s.retrieval_mode,
        "embedder": s.embedder,
        "stores": {
            "knowledge_base": _kb(s),
            "tickets": _tickets(s),
            "audit_log": _file(Path(s.audit_log), "audit log"),
            "faq": _faq(Path(s.faq_dir)),
            "directory": _directory(s),
            "aliases": _aliases(s),
            "redis": _redis(s),
        },
        "extras": extras(),
        "front_ends": _front_ends(s),
    }
    report["next"] = _next(report)
    return report


STYLE = {"ok": "green", "empty": "yellow", "missing": "yellow", "error": "red", "not configured": "dim"}


def cmd_doctor(args: argparse.Namespace) -> int:
    report = build_report(args)
    failed = any(c["status"] == "error" for c in report["stores"].values())
    if args.json:
        print_json(report)
        return 1 if failed else 0
    inst, home = report["install"], report["home"]
    out = functools.partial(console.print, soft_wrap=True)
    out(f"install        {inst['mode']} at {inst['location']}", markup=False)
    out(f"data folder    {home['path']}  (from {home['source']})", markup=False)
    sf = report["settings_file"]
    out(
        f"settings file  {sf['path']} ({'read' if sf['exists'] else 'not found, environment only'})",
        markup=False,
    )
    out(f"answering      composer {report['composer']}, retrieval {report['retrieval_mode']}", markup=False)
    for name, c in report["stores"].items():
        label = name.replace("_", " ")
        out(f"{label:<14} {c['location']}", markup=False, end="")
        out(f"  {c['status']}", style=STYLE.get(c["status"], ""), markup=False, end="")
        out(f": {c['detail']}" if c["detail"] else "", markup=False)
    ex = report["extras"]
    have = ", ".join(k for k, v in ex.items() if v) or "none"
    lack = ", ".join(k for k, v in ex.items() if not v)
    out(f"extras         installed: {have}" + (f"; not installed: {lack}" if lack else ""), markup=False)
    fe = report["front_ends"]
    out(f"slack          HTTP {fe['slack']['http']}; Socket Mode {fe['slack']['socket']}", markup=False)
    out(f"teams          {fe['teams']}", markup=False)
    out(f"next           {report['next']}", style="bold", markup=False)
    return 1 if failed else 0


def register(sub: Any) -> None:
    p = sub.add_parser(
        "doctor", help="what is configured and where, whether each store opens, what to run next"
    )
    kb_option(p)
    p.add_argument("--directory", type=Path, help="identity directory YAML to check")
    p.add_argument("--tickets-db", type=Path, help="ticket database to check")
    p.add_argument("--json", action="store_true", help="the same report as JSON")
    p.set_defaults(func=cmd_doctor)
