"""``GET /metrics`` of the Teams app: Prometheus exposition of Teams turns, Bot Connector errors and
retries, and the outbox and database gauges (``bot.metrics``; its registry is process-wide, so tests
compare deltas)."""

from __future__ import annotations

from pathlib import Path

from prometheus_client.parser import text_string_to_metric_families

from bot.teams.answering import RetryPolicy
from tests.teams.harness import FakeClock, make_deps, make_settings, open_ticket, run, running, text_activity
from tests.teams.mock_services import MockBotConnector
from tests.teams.test_answer_after_response import HeldTurn

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


def _parse(text: str) -> Samples:
    out: Samples = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            out[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return out


def _delta(after: Samples, before: Samples, name: str, **labels: str) -> float:
    key = (name, tuple(sorted(labels.items())))
    return after.get(key, 0.0) - before.get(key, 0.0)


def test_metrics_count_teams_turns_connector_errors_retries_and_the_outbox(tmp_path: Path) -> None:
    with MockBotConnector() as connector:
        deps = make_deps(
            tmp_path,
            connector.url,
            FakeClock(),
            turn=HeldTurn(held=False),
            retry=RetryPolicy(attempts=3, base_delay_s=0.01),
        )
        open_ticket(deps.tickets)  # one card waiting in the outbox
        connector.state.fail_posts = [429, 500]  # the first answer is refused twice, then sent

        async def scenario() -> tuple[str, str, str]:
            async with running(make_settings(tmp_path, connector.url), deps) as bot:
                async with bot.session.get(bot.server.make_url("/metrics")) as resp:
                    assert resp.status == 200
                    content_type = resp.headers["Content-Type"]
                    before = await resp.text()
                await bot.post(text_activity("ap.clerk", "Tarif PPN?", connector.url, "a:1chat"))
                connector.state.fail_posts = [403]  # the second answer is refused for good
                await bot.post(text_activity("ap.clerk", "Tarif PPh?", connector.url, "a:2chat"))
                async with bot.session.get(bot.server.make_url("/metrics")) as resp:
                    after = await resp.text()
                return content_type, before, after

        content_type, before_text, after_text = run(scenario)
    assert content_type.startswith("text/plain")
    before, after = _parse(before_text), _parse(after_text)
    assert _delta(after, before, "dasar_turns_total", platform="teams", status="clarify") == 2
    assert _delta(after, before, "dasar_answer_seconds_count", platform="teams") == 2
    retries = {"platform": "teams", "method": "send_activity"}
    assert _delta(after, before, "dasar_platform_api_retries_total", **retries, kind="rate_limited") == 1
    assert _delta(after, before, "dasar_platform_api_retries_total", **retries, kind="server_error") == 1
    assert _delta(after, before, "dasar_platform_api_errors_total", **retries, kind="http_403") == 1
    assert after[("dasar_outbox_depth", ())] == 1  # the ticket card, never flushed in this test
    assert after[("dasar_database_up", (("database", "tickets"),))] == 1
    assert "Tarif" not in after_text and "a:1chat" not in after_text  # no text, no ids in labels
