"""HttpDirectory against httpx.MockTransport: SCIM queries, mapping, and failure classes."""

from __future__ import annotations

from collections.abc import Callable

import httpx
import pytest

from identity.errors import DirectoryError, DirectoryFormatError, DirectoryUnavailable
from identity.http_directory import HttpDirectory

BASE = "https://idp.test/scim/v2"

SITI = {
    "schemas": ["urn:ietf:params:scim:schemas:core:2.0:User"],
    "id": "2819c223",
    "externalId": "slack:T123:U456",
    "userName": "Siti.Rahma@example.co.id",
    "displayName": "Siti Rahma",
    "active": True,
    "emails": [
        {"value": "siti.personal@example.com", "primary": False},
        {"value": "Siti.Rahma@example.co.id", "primary": True},
    ],
    "groups": [{"value": "g1", "display": "tax-team"}, {"value": "finance"}],
    "roles": [{"value": "tax_team"}, {"value": "sharepoint_owner"}],
    "entitlements": [{"value": "urn:dasar:entity:PT-ABC"}, {"value": "vpn"}],
    "preferredLanguage": "id-ID",
}


def _list(*users: dict[str, object]) -> dict[str, object]:
    return {
        "schemas": ["urn:ietf:params:scim:api:messages:2.0:ListResponse"],
        "totalResults": len(users),
        "Resources": list(users),
    }


def _directory(handler: Callable[[httpx.Request], httpx.Response], **kw: object) -> HttpDirectory:
    return HttpDirectory(BASE, transport=httpx.MockTransport(handler), **kw)  # type: ignore[arg-type]


def test_lookup_by_email_sends_scim_filter_and_maps_fields() -> None:
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, json=_list(SITI))

    with _directory(handler, token="s3cret") as d:
        entry = d.lookup_email("SITI.rahma@example.co.id")

    assert seen[0].url.path == "/scim/v2/Users"
    assert seen[0].url.params["filter"] == 'userName eq "siti.rahma@example.co.id"'
    assert seen[0].headers["Authorization"] == "Bearer s3cret"
    assert entry is not None
    assert entry.email == "siti.rahma@example.co.id"  # primary email wins
    assert entry.display_name == "Siti Rahma"
    assert entry.groups == frozenset({"tax-team", "finance"})
    assert entry.roles == frozenset({"tax_team"})  # unknown roles dropped
    assert entry.entities == frozenset({"PT-ABC"})  # only urn:dasar:entity:* entitlements
    assert entry.locale == "id"
    assert entry.slack_id == "U456"


def test_lookup_by_platform_id_uses_external_id() -> None:
    filters: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        filters.append(request.url.params["filter"])
        user = {"userName": "budi@example.co.id", "name": {"formatted": "Budi S"}, "locale": "en_US"}
        return httpx.Response(200, json=_list(user))

    d = _directory(handler)
    entry = d.lookup_platform_id("teams", "tid", "6F1C3C8E-2B7A-4D2E-9D55-0C1F1A2B3C4D")
    slack_entry = d.lookup_platform_id("slack", "T123", "U456")
    assert filters == [
        'externalId eq "teams:tid:6f1c3c8e-2b7a-4d2e-9d55-0c1f1a2b3c4d"',
        'externalId eq "slack:T123:U456"',
    ]
    assert entry is not None
    assert (entry.email, entry.display_name, entry.locale) == ("budi@example.co.id", "Budi S", "en")
    assert entry.aad_object_id == "6f1c3c8e-2b7a-4d2e-9d55-0c1f1a2b3c4d"
    assert entry.groups == frozenset() and entry.roles == frozenset()
    assert slack_entry is not None and slack_entry.slack_id == "U456"


def test_filter_value_is_escaped() -> None:
    filters: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        filters.append(request.url.params["filter"])
        return httpx.Response(200, json=_list())

    assert _directory(handler).lookup_email('x" or userName pr or "@example.com') is None
    assert filters == ['userName eq "x\\" or username pr or \\"@example.com"']


@pytest.mark.parametrize(
    "response",
    [
        httpx.Response(404, json={"detail": "not found"}),
        httpx.Response(200, json=_list()),
        httpx.Response(200, json={"totalResults": 0}),
        httpx.Response(200, json=_list({**SITI, "active": False})),
    ],
    ids=["404", "empty", "no-resources", "inactive"],
)
def test_not_found_returns_none(response: httpx.Response) -> None:
    assert _directory(lambda request: response).lookup_email("a@example.com") is None


@pytest.mark.parametrize("status", [500, 502, 503, 429])
def test_server_errors_are_unavailable(status: int) -> None:
    d = _directory(lambda request: httpx.Response(status, text="oops"))
    with pytest.raises(DirectoryUnavailable, match=f"HTTP {status}") as info:
        d.lookup_email("siti@example.co.id")
    assert "siti" not in str(info.value)  # no PII in the message


def test_timeout_and_connection_errors_are_unavailable() -> None:
    def timeout(request: httpx.Request) -> httpx.Response:
        raise httpx.ReadTimeout("slow", request=request)

    def refused(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("refused", request=request)

    with pytest.raises(DirectoryUnavailable, match="timed out"):
        _directory(timeout).lookup_email("a@example.com")
    with pytest.raises(DirectoryUnavailable, match="unreachable \\(ConnectError\\)"):
        _directory(refused).lookup_platform_id("slack", "T1", "U1")


def test_auth_errors_and_bad_payloads_are_directory_errors() -> None:
    with pytest.raises(DirectoryError, match="HTTP 401") as info:
        _directory(lambda r: httpx.Response(401)).lookup_email("a@example.com")
    assert not isinstance(info.value, DirectoryUnavailable)
    with pytest.raises(DirectoryFormatError, match="not JSON"):
        _directory(lambda r: httpx.Response(200, text="<html>")).lookup_email("a@example.com")
    with pytest.raises(DirectoryFormatError, match="2 active users match"):
        _directory(lambda r: httpx.Response(200, json=_list(SITI, SITI))).lookup_email("a@example.com")
    with pytest.raises(DirectoryFormatError, match="neither emails"):
        _directory(lambda r: httpx.Response(200, json=_list({"userName": "siti"}))).lookup_email(
            "a@example.com"
        )


def test_injected_client_is_used_and_not_closed() -> None:
    client = httpx.Client(transport=httpx.MockTransport(lambda r: httpx.Response(200, json=_list(SITI))))
    with HttpDirectory(BASE + "/", client=client) as d:
        entry = d.lookup_email("siti.rahma@example.co.id")
    assert entry is not None and entry.roles == frozenset({"tax_team"})
    assert client.is_closed is False
    client.close()
