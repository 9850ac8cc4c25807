"""One wiring: ``build_runtime`` builds each client once per process, and the served Slack app reuses them."""

from __future__ import annotations

import ast
from pathlib import Path

from pydantic import SecretStr

from bot.runtime import build_runtime
from bot.settings import REPO_ROOT, SAMPLE_DIRECTORY, Settings


def _settings(tmp_path: Path, **extra: object) -> Settings:
    return Settings(
        _env_file=None,  # type: ignore[call-arg]
        directory=SAMPLE_DIRECTORY,
        tickets_db=tmp_path / "tickets.sqlite",
        audit_log=tmp_path / "audit.jsonl",
        **extra,
    )


def test_one_redis_client_and_one_resolver_per_process(tmp_path: Path) -> None:
    """Findings: up to three Redis clients ran per process, and ``dasar serve slack`` resolved the asker and
    the channel audience with two different resolvers."""
    from bot.slack.app import runtime_clients

    settings = _settings(
        tmp_path,
        redis_url=SecretStr("redis://127.0.0.1:1/0"),  # never contacted: clients connect lazily
        slack_bot_token=SecretStr("xoxb-test"),
        slack_signing_secret=SecretStr("s3cret"),
    )
    runtime = build_runtime(settings)
    turn = runtime.turn()
    clients = runtime_clients(settings, turn)
    assert clients["resolver"] is turn.resolver is runtime.shared_resolver
    assert clients["web_client"] is runtime.slack
    redis = runtime.redis
    assert redis is not None
    assert runtime.history._r is redis
    assert runtime.principal_cache.primary._redis is redis  # behind the in-process fallback
    assert turn.rate_limiter.primary._client is redis  # Redis first, the in-process window while it is down
    for name in ("dedupe", "history"):
        assert clients[name].primary._client is redis, name
    # one outage state for the process: the turn's stores, the Slack stores and /healthz agree
    health = runtime.redis_health
    assert clients["redis_health"] is health is runtime.history.health is turn.rate_limiter.health
    assert clients["dedupe"].health is health
    # the rate limit is the turn's (every platform); the Slack front end does not count a second time
    assert clients["rate_limiter"].hit("x").allowed and type(clients["rate_limiter"]).__name__ == "_Unlimited"
    # the resolver has the Slack e-mail fallback, through the same Web API client
    assert turn.resolver.slack_user_info is not None


def test_services_is_the_runtime(tmp_path: Path) -> None:
    from bot.runtime import Runtime
    from bot.wiring import Services

    assert Services is Runtime
    runtime = Services(_settings(tmp_path))
    assert runtime.resolver() is runtime.resolver()
    assert runtime.tickets is runtime.tickets


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            out.add(node.module)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
    return out


def test_no_import_cycles_between_wiring_turn_pipeline_and_teams_app_worker() -> None:
    """Findings: wiring -> turn -> pipeline -> wiring; teams app <-> outbox worker."""
    pipeline = _imports(REPO_ROOT / "bot/answer/pipeline.py")
    assert not pipeline & {"bot.wiring", "bot.runtime", "bot.turn"}
    turn = _imports(REPO_ROOT / "bot/turn.py")
    assert not turn & {"bot.wiring", "bot.runtime"}
    worker = _imports(REPO_ROOT / "bot/teams/outbox_worker.py")
    assert "bot.teams.app" not in worker
