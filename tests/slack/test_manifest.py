"""The Slack app manifest asks for exactly what the code uses: scopes derived from the Web API methods
the code calls and the events it subscribes to, events that the code listens to."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
MANIFEST = ROOT / "infra" / "slack" / "manifest.yaml"
#: Code that talks to Slack's Web API with the bot token.
SLACK_CODE = [*sorted((ROOT / "bot" / "slack").glob("*.py")), ROOT / "bot" / "teams" / "relay.py"]
SLACK_CODE += [ROOT / "identity" / "slack_user_info.py"]

#: Bot scopes each Web API method needs (docs.slack.dev method reference).  conversations.members is
#: only called for shared conversations (public/private channels, group DMs), never for a DM, so
#: im:read is not needed.  users.info reads the profile email (identity fallback).
METHOD_SCOPES = {
    "chat.postMessage": {"chat:write"},
    "chat.postEphemeral": {"chat:write"},
    "reactions.add": {"reactions:write"},
    "reactions.remove": {"reactions:write"},
    "conversations.members": {"channels:read", "groups:read", "mpim:read"},
    "users.info": {"users:read", "users:read.email"},
    "assistant.threads.setStatus": {"assistant:write"},
    "assistant.threads.setSuggestedPrompts": {"assistant:write"},
    "assistant.threads.setTitle": {"assistant:write"},
}
EVENT_SCOPES = {
    "app_mention": {"app_mentions:read"},
    "message.im": {"im:history"},
    "message.channels": {"channels:history"},
    "message.groups": {"groups:history"},
    "message.mpim": {"mpim:history"},
    "assistant_thread_started": {"assistant:write"},
    "assistant_thread_context_changed": {"assistant:write"},
}
_CALL = re.compile(r"\.((?:chat|reactions|conversations|users|assistant|files|pins|views)_[A-Za-z_]+)\(")
_EVENT = re.compile(r"\.event\(\"([a-z_]+)\"\)")


def web_api_methods() -> set[str]:
    """``client.chat_postMessage(`` -> ``chat.postMessage`` over every Slack-facing module."""
    found: set[str] = set()
    for path in SLACK_CODE:
        for name in _CALL.findall(path.read_text(encoding="utf-8")):
            found.add(name.replace("_", "."))
    return found


def listened_events() -> set[str]:
    found: set[str] = set()
    for path in SLACK_CODE:
        found.update(_EVENT.findall(path.read_text(encoding="utf-8")))
    return found


def manifest() -> dict:
    return yaml.safe_load(MANIFEST.read_text(encoding="utf-8"))


def test_scopes_are_exactly_what_the_code_calls_and_subscribes_to() -> None:
    methods = web_api_methods()
    assert {"chat.postMessage", "assistant.threads.setStatus", "users.info"} <= methods  # the scan works
    unknown = methods - set(METHOD_SCOPES)
    assert not unknown, f"add the scopes of {unknown} to METHOD_SCOPES and the manifest"
    events = set(manifest()["settings"]["event_subscriptions"]["bot_events"])
    needed = set().union(*(METHOD_SCOPES[m] for m in methods), *(EVENT_SCOPES[e] for e in events))
    scopes = manifest()["oauth_config"]["scopes"]["bot"]
    assert len(scopes) == len(set(scopes))
    assert set(scopes) == needed
    assert "im:read" not in scopes and "assistant:write" in scopes


def test_assistant_module_declares_the_methods_it_calls() -> None:
    from bot.slack import assistant

    source = (ROOT / "bot" / "slack" / "assistant.py").read_text(encoding="utf-8")
    called = {name.replace("_", ".") for name in _CALL.findall(source)}
    assert called == set(assistant.WEB_API_METHODS)


def test_events_and_endpoints_match_the_app() -> None:
    from bot.slack.app import EVENTS_PATH

    settings = manifest()["settings"]
    events = set(settings["event_subscriptions"]["bot_events"])
    assert events == set(EVENT_SCOPES)
    listened = listened_events()
    for event in events:
        assert (event.split(".")[0] if event.startswith("message.") else event) in listened, event
    assert settings["event_subscriptions"]["request_url"].endswith(EVENTS_PATH)
    assert settings["interactivity"] == {
        "is_enabled": True,
        "request_url": settings["event_subscriptions"]["request_url"],
    }
    assert settings["socket_mode_enabled"] is False
    assert manifest()["features"]["assistant_view"]["assistant_description"]
