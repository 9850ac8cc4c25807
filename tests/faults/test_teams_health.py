"""``/healthz`` of the Teams app reports ``degraded`` (with the reason) while Redis is down, ``ok`` after."""

from __future__ import annotations

from pathlib import Path

from bot.slack.redis_backends import RedisHealth
from tests.teams.harness import FakeClock, make_deps, make_settings, run, running


class _FlakyRedis:
    """A Redis client whose PING fails until ``up`` is set."""

    up = False

    def ping(self) -> bool:
        if not self.up:
            raise ConnectionError("Connection refused")
        return True


def test_teams_healthz_is_degraded_while_redis_is_down_and_ok_after(tmp_path: Path) -> None:
    redis = _FlakyRedis()
    health = RedisHealth(redis, probe_interval=0.0)
    service_url = "http://127.0.0.1:9/"  # never called: no activity is posted
    deps = make_deps(tmp_path, service_url, FakeClock(), redis_health=health)

    async def scenario() -> tuple[dict[str, object], dict[str, object]]:
        async with running(make_settings(tmp_path, service_url), deps) as bot:
            async with bot.session.get(bot.server.make_url("/healthz")) as resp:
                assert resp.status == 200
                down = await resp.json()
            redis.up = True
            async with bot.session.get(bot.server.make_url("/healthz")) as resp:
                assert resp.status == 200
                back = await resp.json()
            return down, back

    down, back = run(scenario)
    assert down == {"ok": True, "status": "degraded", "reason": "redis unavailable (PING: ConnectionError)"}
    assert back == {"ok": True, "status": "ok"}
