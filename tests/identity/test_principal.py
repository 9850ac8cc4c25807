"""Principal: frozen, guest semantics, groups, permissions table, serialisation."""

from __future__ import annotations

import dataclasses

import pytest

from identity.principal import (
    EVERYONE,
    ROLE_PERMISSIONS,
    ROLES,
    Permission,
    Principal,
    VerifiedEnvelope,
    permissions_for,
)


def _staff(**overrides: object) -> Principal:
    fields: dict[str, object] = dict(
        platform="slack",
        tenant="T1",
        platform_user_id="U1",
        email="siti@example.co.id",
        display_name="Siti",
        groups=frozenset({"tax-team"}),
        roles=frozenset({"tax_team"}),
        entities=frozenset({"PT-ABC"}),
        locale="id",
    )
    fields.update(overrides)
    return Principal(**fields)  # type: ignore[arg-type]


def test_guest_reads_only_everyone_documents_and_has_no_permissions() -> None:
    guest = Principal.guest("slack", "T1", "U9")
    assert guest.is_guest is True
    assert guest.groups == frozenset({EVERYONE})
    assert guest.roles == frozenset()
    assert guest.email is None
    assert guest.can_read(["everyone"]) is True
    assert guest.can_read(["tax-team"]) is False
    assert guest.can_read(["tax-team", "everyone"]) is True
    assert guest.can_read([]) is False
    assert guest.permissions == frozenset()
    assert guest.may_see_tickets is False
    assert guest.may_escalate is False
    assert guest.id == "slack:T1:U9"


def test_non_guest_is_always_in_everyone_and_lists_are_coerced() -> None:
    p = _staff(groups=["tax-team"])  # a list from a careless caller still becomes a frozenset
    assert p.groups == frozenset({"tax-team", EVERYONE})
    assert isinstance(p.groups, frozenset)
    assert p.can_read(["everyone"]) is True
    assert p.can_read(["tax-team"]) is True
    assert p.can_read(["board"]) is False


def test_principal_is_frozen() -> None:
    p = _staff()
    with pytest.raises(dataclasses.FrozenInstanceError):
        p.roles = frozenset({"admin"})  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        p.is_guest = False  # type: ignore[misc]
    with pytest.raises(AttributeError):
        p.groups.add("board")  # type: ignore[attr-defined]


def test_can_read_rejects_a_single_string() -> None:
    with pytest.raises(TypeError, match="not a single string"):
        _staff().can_read("tax-team")


def test_permission_table_per_role() -> None:
    assert set(ROLES) == {"requester", "tax_team", "faq_approver", "admin"}
    assert permissions_for(["requester"]) == {Permission.MAY_ESCALATE, Permission.MAY_SEE_TICKETS}
    assert Permission.MAY_READ_CONFIDENTIAL_MEMOS in ROLE_PERMISSIONS["tax_team"]
    assert Permission.MAY_ACT_ON_TICKETS in ROLE_PERMISSIONS["tax_team"]
    assert Permission.MAY_APPROVE_FAQ not in ROLE_PERMISSIONS["tax_team"]
    assert permissions_for(["faq_approver"]) == {Permission.MAY_APPROVE_FAQ, Permission.MAY_SEE_TICKETS}
    assert permissions_for(["admin"]) == frozenset(Permission)
    assert permissions_for(["nonsense"]) == frozenset()

    requester = _staff(roles=frozenset({"requester"}))
    assert (requester.may_escalate, requester.may_see_tickets, requester.may_act_on_tickets) == (
        True,
        True,
        False,
    )
    assert requester.may_read_confidential_memos is False
    assert requester.has_role("requester") and not requester.has_role("admin")
    approver = _staff(roles=frozenset({"faq_approver", "requester"}))
    assert approver.may_approve_faq is True
    assert approver.may(Permission.MAY_ESCALATE) is True


def test_unknown_role_and_elevated_guest_are_rejected() -> None:
    with pytest.raises(ValueError, match="unknown roles"):
        _staff(roles=frozenset({"superuser"}))
    with pytest.raises(ValueError, match="guest"):
        _staff(is_guest=True)
    with pytest.raises(ValueError, match="platform"):
        _staff(platform="email")


def test_to_dict_round_trip_is_sorted_and_exact() -> None:
    p = _staff(groups=frozenset({"z-group", "a-group"}), roles=frozenset({"tax_team", "requester"}))
    data = p.to_dict()
    assert data["groups"] == ["a-group", "everyone", "z-group"]
    assert data["roles"] == ["requester", "tax_team"]
    assert Principal.from_dict(data) == p
    with pytest.raises(ValueError, match="unknown"):
        Principal.from_dict({**data, "token": "x"})
    with pytest.raises(ValueError, match="list"):
        Principal.from_dict({**data, "groups": "tax-team"})


def test_verified_envelope_validates_and_has_stable_id() -> None:
    env = VerifiedEnvelope("teams", "tenant-1", "oid-1")
    assert env.id == "teams:tenant-1:oid-1"
    with pytest.raises(ValueError, match="platform"):
        VerifiedEnvelope("whatsapp", "T1", "U1")
    with pytest.raises(ValueError, match="user_id"):
        VerifiedEnvelope("slack", "T1", " ")
    with pytest.raises(dataclasses.FrozenInstanceError):
        env.user_id = "other"  # type: ignore[misc]
