"""A SCIM-style directory over HTTP (production backend; imported lazily).

WHY SCIM: it is what identity providers (Entra ID, Okta, Google) already speak, so an internal
identity service can expose our look-ups without a custom API.  Only two filtered ``GET /Users``
queries are used:

* by email: ``GET {base}/Users?filter=userName eq "siti@example.co.id"``
* by platform id: ``GET {base}/Users?filter=externalId eq "slack:T123:U456"`` -- the identity
  service indexes each platform identity as ``"<platform>:<tenant>:<user_id>"`` (``teams`` uses the
  AAD tenant id and object id).

Mapping of a SCIM User resource to :class:`~identity.directory.DirectoryEntry`:

===================  ===========================================================================
entry field          SCIM attribute
===================  ===========================================================================
email                ``emails[]`` value with ``primary: true``, else the first, else ``userName``
display_name         ``displayName``, else ``name.formatted``, else the email
groups               ``groups[].display`` (falling back to ``groups[].value``)
roles                ``roles[].value`` restricted to our role vocabulary (others ignored)
entities             ``entitlements[].value`` of the form ``urn:dasar:entity:<ENTITY>``
locale               primary subtag of ``preferredLanguage`` or ``locale`` (``id-ID`` -> ``id``)
slack_id / aad id    parsed from ``externalId`` when it is ``slack:...`` / ``teams:...``
===================  ===========================================================================

Users with ``active: false`` count as not found (they become guests).  Zero results or HTTP 404
mean "not found"; more than one result is ambiguous and raises ``DirectoryFormatError`` (the
resolver then fails closed).  Timeouts, connection errors, HTTP 429 and 5xx raise
``DirectoryUnavailable``.  Error messages never include the filter value (it holds an email).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from typing import Any

import httpx

from identity.directory import DirectoryEntry
from identity.errors import DirectoryError, DirectoryFormatError, DirectoryUnavailable
from identity.principal import DEFAULT_LOCALE, ROLES
from identity.yaml_directory import normalize_aad_id

logger = logging.getLogger(__name__)

ENTITY_URN_PREFIX = "urn:dasar:entity:"


def scim_string(value: str) -> str:
    """Quote ``value`` as a SCIM filter string literal (JSON string escaping)."""
    return json.dumps(value, ensure_ascii=False)


class HttpDirectory:
    """Directory backed by a SCIM ``/Users`` endpoint.

    Args:
        base_url: SCIM base, e.g. ``https://idp.internal/scim/v2``.
        client: Pre-built ``httpx.Client`` (tests, connection pooling); the caller closes it.
        transport: Transport for a client we build ourselves (e.g. ``httpx.MockTransport``).
        token: Bearer token sent as ``Authorization``; never logged or cached.
        timeout: Seconds per request; a slow directory must not stall a chat turn.
    """

    def __init__(
        self,
        base_url: str,
        *,
        client: httpx.Client | None = None,
        transport: httpx.BaseTransport | None = None,
        token: str | None = None,
        timeout: float = 5.0,
    ):
        self.base_url = base_url.rstrip("/")
        headers = {"Accept": "application/scim+json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        self._headers = headers
        self._owns_client = client is None
        self._client = client or httpx.Client(transport=transport, timeout=timeout)
        self._timeout = timeout

    def close(self) -> None:
        """Close the HTTP client if we created it."""
        if self._owns_client:
            self._client.close()

    def __enter__(self) -> HttpDirectory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def lookup_email(self, email: str) -> DirectoryEntry | None:
        """User whose ``userName`` equals ``email`` (lower-cased), or None."""
        return self._query(f"userName eq {scim_string(email.strip().lower())}", external_id=None)

    def lookup_platform_id(self, platform: str, tenant: str, user_id: str) -> DirectoryEntry | None:
        """User whose ``externalId`` is ``"<platform>:<tenant>:<user_id>"``, or None."""
        if platform == "teams":
            user_id = normalize_aad_id(user_id) or user_id
        external_id = f"{platform}:{tenant}:{user_id}"
        return self._query(f"externalId eq {scim_string(external_id)}", external_id=external_id)

    # -- internals ---------------------------------------------------------------------------------

    def _query(self, scim_filter: str, *, external_id: str | None) -> DirectoryEntry | None:
        url = f"{self.base_url}/Users"
        try:
            response = self._client.get(
                url, params={"filter": scim_filter}, headers=self._headers, timeout=self._timeout
            )
        except httpx.TimeoutException as exc:
            raise DirectoryUnavailable(f"directory {self.base_url} timed out; check the service") from exc
        except httpx.TransportError as exc:
            raise DirectoryUnavailable(
                f"directory {self.base_url} unreachable ({type(exc).__name__}); check the URL and network"
            ) from exc
        status = response.status_code
        if status == 404:
            return None
        if status == 429 or status >= 500:
            raise DirectoryUnavailable(f"directory {self.base_url} answered HTTP {status}; retry later")
        if status in (401, 403):
            raise DirectoryError(
                f"directory {self.base_url} refused our credentials (HTTP {status}); check the token"
            )
        if status != 200:
            raise DirectoryError(f"directory {self.base_url} answered unexpected HTTP {status}")
        try:
            body = response.json()
        except ValueError:
            raise DirectoryFormatError(self.base_url, "response is not JSON") from None
        if not isinstance(body, dict):
            raise DirectoryFormatError(self.base_url, "response is not a SCIM ListResponse object")
        resources = body.get("Resources", [])
        if resources is None:
            resources = []
        if not isinstance(resources, list):
            raise DirectoryFormatError(self.base_url, "'Resources' must be a list", field="Resources")
        if not all(isinstance(r, dict) for r in resources):
            raise DirectoryFormatError(
                self.base_url, "every item of 'Resources' must be an object", field="Resources"
            )
        active = [r for r in resources if r.get("active", True) is not False]
        if not active:
            return None
        if len(active) > 1:
            raise DirectoryFormatError(
                self.base_url,
                f"{len(active)} active users match one identity; fix the directory",
                field="Resources",
            )
        return self._entry(active[0], external_id)

    def _entry(self, user: Mapping[str, Any], external_id: str | None) -> DirectoryEntry:
        email = _primary_email(user)
        if not email:
            raise DirectoryFormatError(
                self.base_url, "user has neither emails nor an email userName", field="emails"
            )
        name = user.get("displayName")
        if not isinstance(name, str) or not name.strip():
            formatted = (
                (user.get("name") or {}).get("formatted") if isinstance(user.get("name"), dict) else None
            )
            name = formatted if isinstance(formatted, str) and formatted.strip() else email
        groups = frozenset(
            g
            for g in (_text(item, "display") or _text(item, "value") for item in _items(user, "groups"))
            if g
        )
        role_values = {_text(item, "value") for item in _items(user, "roles")}
        roles = frozenset(r for r in role_values if r in ROLES)
        entities = frozenset(
            value[len(ENTITY_URN_PREFIX) :]
            for value in (_text(item, "value") for item in _items(user, "entitlements"))
            if value and value.startswith(ENTITY_URN_PREFIX) and len(value) > len(ENTITY_URN_PREFIX)
        )
        locale = _locale(user)
        ext = user.get("externalId") if isinstance(user.get("externalId"), str) else external_id
        slack_id = aad = None
        if ext:
            platform, _, rest = ext.partition(":")
            _tenant, _, uid = rest.partition(":")
            if platform == "slack" and uid:
                slack_id = uid
            elif platform == "teams" and uid:
                aad = normalize_aad_id(uid)
        return DirectoryEntry(
            email=email,
            display_name=name.strip(),
            groups=groups,
            roles=roles,
            entities=entities,
            locale=locale,
            slack_id=slack_id,
            aad_object_id=aad,
        )


def _items(user: Mapping[str, Any], name: str) -> list[Mapping[str, Any]]:
    value = user.get(name) or []
    return [item for item in value if isinstance(item, dict)] if isinstance(value, list) else []


def _text(item: Mapping[str, Any], key: str) -> str | None:
    value = item.get(key)
    return value.strip() if isinstance(value, str) and value.strip() else None


def _primary_email(user: Mapping[str, Any]) -> str | None:
    emails = [e for e in _items(user, "emails") if _text(e, "value")]
    chosen = next((e for e in emails if e.get("primary") is True), emails[0] if emails else None)
    if chosen is not None:
        return _text(chosen, "value").lower()  # type: ignore[union-attr]
    user_name = user.get("userName")
    if isinstance(user_name, str) and "@" in user_name:
        return user_name.strip().lower()
    return None


def _locale(user: Mapping[str, Any]) -> str:
    for key in ("preferredLanguage", "locale"):
        value = user.get(key)
        if isinstance(value, str) and value.strip():
            primary = value.strip().replace("_", "-").split("-")[0].split(",")[0].lower()
            if primary.isalpha() and 2 <= len(primary) <= 3:
                return primary
    return DEFAULT_LOCALE
