"""DASAR_EMBED_* settings reach the remote embedders through the factory; bad values fail clearly."""

from __future__ import annotations

import pytest

from bot.settings import SettingsError, load_settings
from kb.embed.bedrock import BedrockEmbedder
from kb.embed.factory import make_embedder
from kb.embed.openai_compat import OpenAICompatEmbedder
from kb.errors import EmbedderError


def test_openai_settings_build_the_endpoint_embedder(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DASAR_EMBED_PROVIDER", "openai")
    monkeypatch.setenv("DASAR_EMBED_MODEL", "text-embedding-3-small")
    monkeypatch.setenv("DASAR_EMBED_BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("DASAR_EMBED_API_KEY", "sk-test-not-a-real-key")
    monkeypatch.setenv("DASAR_EMBED_BATCH", "16")
    monkeypatch.setenv("DASAR_EMBED_CONCURRENCY", "3")
    monkeypatch.setenv("DASAR_EMBED_DIMENSIONS", "256")
    monkeypatch.setenv("DASAR_EMBED_TIMEOUT", "12.5")
    s = load_settings()
    assert s.embedder_name() == "openai:text-embedding-3-small"
    assert "sk-test-not-a-real-key" not in repr(s)
    options = s.embed_options()
    assert options == {
        "base_url": "http://127.0.0.1:9/v1",
        "api_key": "sk-test-not-a-real-key",
        "dimensions": 256,
        "batch_size": 16,
        "max_concurrency": 3,
        "timeout": 12.5,
    }
    # the environment no longer matters once the settings pass their values
    monkeypatch.setenv("DASAR_EMBED_BATCH", "not read")
    made = make_embedder(s.embedder_name(), options)
    assert isinstance(made, OpenAICompatEmbedder)
    assert made.name == "openai:text-embedding-3-small:d256"
    assert (made.base_url, made.batch_size, made.max_concurrency) == ("http://127.0.0.1:9/v1", 16, 3)


def test_bedrock_settings_and_the_embedder_setting_still_work(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DASAR_EMBED_PROVIDER", "bedrock")
    monkeypatch.setenv("DASAR_EMBED_MODEL", "titan-v2")
    monkeypatch.setenv("DASAR_EMBED_DIMENSIONS", "512")
    monkeypatch.setenv("DASAR_BEDROCK_REGION", "ap-southeast-3")
    s = load_settings()
    assert s.embed_options() == {"region": "ap-southeast-3", "dimensions": 512}
    made = make_embedder(s.embedder_name(), s.embed_options())
    assert isinstance(made, BedrockEmbedder) and made.name == "bedrock:amazon.titan-embed-text-v2:0:d512"

    monkeypatch.delenv("DASAR_EMBED_PROVIDER")
    monkeypatch.delenv("DASAR_EMBED_MODEL")
    monkeypatch.setenv("DASAR_EMBEDDER", "hashing-256")
    s = load_settings()
    assert s.embedder_name() == "hashing-256" and s.embed_options() == {}
    assert make_embedder(s.embedder_name(), s.embed_options()).name == "hashing-256"


@pytest.mark.parametrize(
    ("env", "value", "message"),
    [
        (
            "DASAR_EMBED_BATCH",
            "0",
            "DASAR_EMBED_BATCH='0' in the environment: Input should be greater than or equal to 1",
        ),
        (
            "DASAR_EMBED_CONCURRENCY",
            "lots",
            "DASAR_EMBED_CONCURRENCY='lots' in the environment: Input should be a valid integer",
        ),
        (
            "DASAR_EMBED_DIMENSIONS",
            "-5",
            "DASAR_EMBED_DIMENSIONS='-5' in the environment: Input should be greater",
        ),
        (
            "DASAR_EMBED_TIMEOUT",
            "0",
            "DASAR_EMBED_TIMEOUT='0' in the environment: Input should be greater than 0",
        ),
        (
            "DASAR_EMBED_BASE_URL",
            "localhost:8080/v1",
            "DASAR_EMBED_BASE_URL in the environment: Value error, must be an http",
        ),
        (
            "DASAR_EMBED_PROVIDER",
            "cohere",
            "DASAR_EMBED_PROVIDER='cohere' in the environment: Input should be 'openai' or 'bedrock'",
        ),
    ],
)
def test_bad_settings_name_the_variable(
    monkeypatch: pytest.MonkeyPatch, env: str, value: str, message: str
) -> None:
    monkeypatch.setenv(env, value)
    with pytest.raises(SettingsError) as err:
        load_settings()
    assert str(err.value).startswith(message), str(err.value)


def test_provider_and_model_go_together(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DASAR_EMBED_PROVIDER", "openai")
    with pytest.raises(SettingsError, match=r"DASAR_EMBED_MODEL.*needs DASAR_EMBED_MODEL"):
        load_settings()
    monkeypatch.delenv("DASAR_EMBED_PROVIDER")
    monkeypatch.setenv("DASAR_EMBED_MODEL", "text-embedding-3-small")
    with pytest.raises(SettingsError, match=r"DASAR_EMBED_MODEL.*needs DASAR_EMBED_PROVIDER"):
        load_settings()


def test_the_factory_checks_values_it_is_given_or_reads(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(EmbedderError, match=r"DASAR_EMBED_BATCH=0 must be at least 1"):
        make_embedder("openai:m", {"batch_size": 0})
    with pytest.raises(EmbedderError, match=r"DASAR_EMBED_BASE_URL='127.0.0.1:8080' must be an http"):
        make_embedder("openai:m", {"base_url": "127.0.0.1:8080"})
    with pytest.raises(EmbedderError, match="region do not apply"):
        make_embedder("openai:m", {"region": "ap-southeast-3"})
    with pytest.raises(EmbedderError, match="names no model"):
        make_embedder("openai:")
    with pytest.raises(EmbedderError, match=r"DASAR_EMBED_RETRIES=True is not a valid int"):
        make_embedder("bedrock:titan-v2", {"max_retries": True})
    monkeypatch.setenv("DASAR_EMBED_CONCURRENCY", "0")
    with pytest.raises(EmbedderError, match=r"DASAR_EMBED_CONCURRENCY='0' must be at least 1"):
        make_embedder("openai:m")
    monkeypatch.setenv("DASAR_EMBED_CONCURRENCY", "100000")
    with pytest.raises(EmbedderError, match=r"must be at most 256"):
        make_embedder("openai:m")
