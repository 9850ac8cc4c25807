"""The Slack app manifest asks for exactly what the front end uses."""

from __future__ import annotations

from pathlib import Path

import yaml

MANIFEST = Path(__file__).resolve().parents[2] / "infra" / "slack" / "manifest.yaml"


def test_manifest_scopes_events_and_endpoints_match_the_app() -> None:
    from bot.slack.app import EVENTS_PATH

    manifest = yaml.safe_load(MANIFEST.read_text(encoding="utf-8"))
    settings = manifest["settings"]
    assert set(settings["event_subscriptions"]["bot_events"]) == {
        "app_mention",
        "message.im",
        "message.channels",
        "message.groups",
        "message.mpim",
    }
    assert settings["event_subscriptions"]["request_url"].endswith(EVENTS_PATH)
    assert settings["interactivity"] == {
        "is_enabled": True,
        "request_url": settings["event_subscriptions"]["request_url"],
    }
    assert settings["socket_mode_enabled"] is False
    scopes = set(manifest["oauth_config"]["scopes"]["bot"])
    # chat.postMessage/postEphemeral, reactions.add/remove, conversations.members, users.info (email).
    assert {
        "chat:write",
        "reactions:write",
        "channels:read",
        "groups:read",
        "users:read",
        "users:read.email",
        "app_mentions:read",
        "im:history",
        "channels:history",
    } <= scopes
    assert not any(s.startswith(("admin", "files:", "chat:write.customize")) for s in scopes)
