"""PrincipalResolver: slack/teams/cli resolution, guests, fail-closed outages, cache TTL."""

from __future__ import annotations

import inspect
import logging
import typing
from pathlib import Path

import pytest

from identity.cache import MemoryPrincipalCache
from identity.directory import DirectoryEntry
from identity.errors import DirectoryFormatError, DirectoryUnavailable, PrincipalCacheError
from identity.hashing import log_hash
from identity.principal import Principal, VerifiedEnvelope
from identity.resolver import PrincipalResolver
from identity.yaml_directory import YamlDirectory
from tests.identity.conftest import AAD_TENANT, SITI_AAD, SLACK_TEAM, FakeClock


class FlakyDirectory:
    """Wraps a real directory; ``down`` makes every call raise ``DirectoryUnavailable``."""

    def __init__(self, inner: YamlDirectory):
        self.inner = inner
        self.down = False
        self.calls = 0

    def lookup_email(self, email: str) -> DirectoryEntry | None:
        self.calls += 1
        if self.down:
            raise DirectoryUnavailable("directory down")
        return self.inner.lookup_email(email)

    def lookup_platform_id(self, platform: str, tenant: str, user_id: str) -> DirectoryEntry | None:
        self.calls += 1
        if self.down:
            raise DirectoryUnavailable("directory down")
        return self.inner.lookup_platform_id(platform, tenant, user_id)


class FakeSlackInfo:
    def __init__(self, emails: dict[str, str]):
        self.emails = emails
        self.calls: list[str] = []

    def email_for(self, user_id: str) -> str | None:
        self.calls.append(user_id)
        return self.emails.get(user_id)


class BrokenCache:
    def get(self, key: str) -> Principal | None:
        raise PrincipalCacheError("redis down")

    def set(self, key: str, principal: Principal, ttl: float) -> None:
        raise PrincipalCacheError("redis down")


@pytest.fixture
def flaky(directory_file: Path) -> FlakyDirectory:
    return FlakyDirectory(YamlDirectory(directory_file))


def _resolver(directory: object, clock: FakeClock, **kw: object) -> PrincipalResolver:
    return PrincipalResolver(directory, MemoryPrincipalCache(clock=clock), **kw)  # type: ignore[arg-type]


def test_slack_user_resolved_by_slack_id(flaky: FlakyDirectory, clock: FakeClock) -> None:
    p = _resolver(flaky, clock).resolve(VerifiedEnvelope("slack", SLACK_TEAM, "U0SITI001"))
    assert p.id == f"slack:{SLACK_TEAM}:U0SITI001"
    assert (p.email, p.display_name, p.is_guest) == ("siti.rahma@example.co.id", "Siti Rahma", False)
    assert p.groups == frozenset({"tax-team", "finance", "everyone"})
    assert p.roles == frozenset({"tax_team", "requester"})
    assert p.entities == frozenset({"PT-ABC"})
    assert p.can_read(["tax-team"]) is True
    assert p.may_read_confidential_memos is True
    assert p.may_approve_faq is False


def test_teams_user_resolved_by_aad_object_id(flaky: FlakyDirectory, clock: FakeClock) -> None:
    p = _resolver(flaky, clock).resolve(VerifiedEnvelope("teams", AAD_TENANT, SITI_AAD))
    assert (p.platform, p.tenant, p.platform_user_id) == ("teams", AAD_TENANT, SITI_AAD)
    assert p.email == "siti.rahma@example.co.id"
    assert p.has_role("tax_team")


def test_cli_user_resolved_by_email(flaky: FlakyDirectory, clock: FakeClock) -> None:
    p = _resolver(flaky, clock).resolve(VerifiedEnvelope("cli", "local", "ADMIN@example.co.id"))
    assert p.display_name == "Dewi Admin"
    assert p.may_approve_faq and p.may_act_on_tickets and p.may_read_confidential_memos
    assert p.groups == frozenset({"everyone"})


def test_slack_email_fallback_via_users_info(flaky: FlakyDirectory, clock: FakeClock) -> None:
    slack = FakeSlackInfo({"U0NEWID99": "budi@example.co.id"})
    resolver = _resolver(flaky, clock, slack_user_info=slack)
    p = resolver.resolve(VerifiedEnvelope("slack", SLACK_TEAM, "U0NEWID99"))
    assert (p.email, p.locale, p.platform_user_id) == ("budi@example.co.id", "en", "U0NEWID99")
    assert p.roles == frozenset({"requester"}) and p.may_escalate
    # users.info is only consulted when the slack id itself is unknown
    resolver.resolve(VerifiedEnvelope("slack", SLACK_TEAM, "U0SITI001"))
    assert slack.calls == ["U0NEWID99"]


def test_unknown_users_are_guests(flaky: FlakyDirectory, clock: FakeClock) -> None:
    resolver = _resolver(flaky, clock, slack_user_info=FakeSlackInfo({"U0STRANGE": "stranger@other.com"}))
    for env in [
        VerifiedEnvelope("slack", SLACK_TEAM, "U0STRANGE"),
        VerifiedEnvelope("slack", SLACK_TEAM, "U0NOEMAIL"),
        VerifiedEnvelope("teams", AAD_TENANT, "00000000-0000-4000-8000-000000000000"),
        VerifiedEnvelope("cli", "local", "nobody@example.co.id"),
    ]:
        p = resolver.resolve(env)
        assert p == Principal.guest(env.platform, env.tenant, env.user_id)
        assert p.can_read(["tax-team"]) is False
        assert p.can_read(["everyone"]) is True
        assert p.may_see_tickets is False


def test_directory_outage_fails_closed_to_guest_without_pii_in_logs(
    flaky: FlakyDirectory, clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    flaky.down = True
    resolver = _resolver(flaky, clock)
    env = VerifiedEnvelope("cli", "local", "siti.rahma@example.co.id")
    with caplog.at_level(logging.WARNING, logger="identity.resolver"):
        p = resolver.resolve(env)
    assert p.is_guest and p.roles == frozenset() and p.can_read(["tax-team"]) is False
    assert "failing closed" in caplog.text
    assert log_hash(env.id) in caplog.text
    assert "siti" not in caplog.text and "example.co.id" not in caplog.text
    # the outage guest is not cached: once the directory is back, the real principal appears
    flaky.down = False
    assert resolver.resolve(env).has_role("tax_team")


def test_outage_serves_fresh_cache_within_ttl_but_never_after(
    flaky: FlakyDirectory, clock: FakeClock
) -> None:
    resolver = _resolver(flaky, clock, ttl_seconds=300)
    env = VerifiedEnvelope("slack", SLACK_TEAM, "U0SITI001")
    assert resolver.resolve(env).has_role("tax_team")
    flaky.down = True
    clock.advance(299)
    assert resolver.resolve(env).has_role("tax_team")  # fresh cached entry within TTL
    clock.advance(1)
    stale = resolver.resolve(env)  # TTL over + directory down -> guest, never the stale elevated one
    assert stale.is_guest and stale.roles == frozenset()


def test_cache_hits_skip_the_directory_and_expire_after_ttl(flaky: FlakyDirectory, clock: FakeClock) -> None:
    resolver = _resolver(flaky, clock, ttl_seconds=300, guest_ttl_seconds=60)
    siti = VerifiedEnvelope("slack", SLACK_TEAM, "U0SITI001")
    stranger = VerifiedEnvelope("slack", SLACK_TEAM, "U0NOBODY1")
    resolver.resolve(siti)
    resolver.resolve(stranger)
    assert flaky.calls == 2
    resolver.resolve(siti)
    resolver.resolve(stranger)
    assert flaky.calls == 2
    clock.advance(60)  # guest entry expired, staff entry not
    resolver.resolve(siti)
    resolver.resolve(stranger)
    assert flaky.calls == 3
    clock.advance(240)
    resolver.resolve(siti)
    assert flaky.calls == 4


def test_other_directory_errors_also_fail_closed(clock: FakeClock) -> None:
    class Ambiguous:
        def lookup_email(self, email: str) -> DirectoryEntry | None:
            raise DirectoryFormatError("https://idp", "2 active users match one identity")

        def lookup_platform_id(self, platform: str, tenant: str, user_id: str) -> DirectoryEntry | None:
            raise DirectoryFormatError("https://idp", "2 active users match one identity")

    p = _resolver(Ambiguous(), clock).resolve(VerifiedEnvelope("teams", AAD_TENANT, SITI_AAD))
    assert p.is_guest


def test_broken_cache_is_treated_as_miss(flaky: FlakyDirectory) -> None:
    resolver = PrincipalResolver(flaky, BrokenCache())
    p = resolver.resolve(VerifiedEnvelope("slack", SLACK_TEAM, "U0SITI001"))
    assert p.email == "siti.rahma@example.co.id"


def test_untrusted_tenant_is_guest_without_directory_call(flaky: FlakyDirectory, clock: FakeClock) -> None:
    resolver = _resolver(flaky, clock, trusted_tenants={"slack": [SLACK_TEAM]})
    p = resolver.resolve(VerifiedEnvelope("slack", "T0OTHERORG", "U0SITI001"))
    assert p.is_guest and flaky.calls == 0
    assert resolver.resolve(VerifiedEnvelope("slack", SLACK_TEAM, "U0SITI001")).has_role("tax_team")
    # platforms not listed are not restricted
    assert not resolver.resolve(VerifiedEnvelope("cli", "local", "budi@example.co.id")).is_guest


def test_resolve_accepts_only_a_verified_envelope(flaky: FlakyDirectory, clock: FakeClock) -> None:
    resolver = _resolver(flaky, clock)
    hints = typing.get_type_hints(PrincipalResolver.resolve)
    assert hints == {"envelope": VerifiedEnvelope, "return": Principal}
    assert list(inspect.signature(PrincipalResolver.resolve).parameters) == ["self", "envelope"]
    for bogus in [
        "I am siti.rahma@example.co.id, an admin",
        {"platform": "slack", "tenant": SLACK_TEAM, "user_id": "U0SITI001"},
        ("slack", SLACK_TEAM, "U0SITI001"),
    ]:
        with pytest.raises(TypeError, match="only a VerifiedEnvelope"):
            resolver.resolve(bogus)  # type: ignore[arg-type]
    assert flaky.calls == 0


def test_no_public_api_builds_a_principal_from_text() -> None:
    import identity

    public = {name: getattr(identity, name) for name in identity.__all__}
    text_entry_points = [
        f"{name}.{attr}"
        for name, obj in public.items()
        if inspect.isclass(obj)
        for attr in dir(obj)
        if any(word in attr.lower() for word in ("from_text", "from_message", "parse_message", "from_prompt"))
    ]
    assert text_entry_points == []
