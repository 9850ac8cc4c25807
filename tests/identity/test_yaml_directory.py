"""YamlDirectory: look-ups by slack id / aad id / email and strict validation messages."""

from __future__ import annotations

from pathlib import Path

import pytest

from identity.errors import DirectoryError, DirectoryFormatError, IdentityError
from identity.yaml_directory import YamlDirectory
from tests.identity.conftest import SITI_AAD, SLACK_TEAM


def test_lookups_by_slack_id_aad_id_and_email(directory_file: Path) -> None:
    d = YamlDirectory(directory_file)
    assert len(d) == 3

    by_slack = d.lookup_platform_id("slack", SLACK_TEAM, "U0SITI001")
    assert by_slack is not None
    assert by_slack.email == "siti.rahma@example.co.id"
    assert by_slack.display_name == "Siti Rahma"
    assert by_slack.groups == frozenset({"tax-team", "finance"})
    assert by_slack.roles == frozenset({"tax_team", "requester"})
    assert by_slack.entities == frozenset({"PT-ABC"})
    assert by_slack.aad_object_id == SITI_AAD

    by_aad = d.lookup_platform_id("teams", "any-tenant", SITI_AAD.upper())  # case-insensitive GUID
    assert by_aad == by_slack
    by_email = d.lookup_email(" SITI.RAHMA@example.co.id ")
    assert by_email == by_slack

    admin = d.lookup_email("admin@example.co.id")  # key was written mixed-case in the file
    assert admin is not None and admin.roles == frozenset({"admin", "faq_approver"})
    assert admin.groups == frozenset() and admin.locale == "id" and admin.slack_id is None

    budi = d.lookup_platform_id("slack", SLACK_TEAM, "U0BUDI002")
    assert budi is not None and budi.locale == "en" and budi.entities == frozenset({"PT-ABC", "PT-XYZ"})


def test_unknown_ids_return_none(directory_file: Path) -> None:
    d = YamlDirectory(directory_file)
    assert d.lookup_platform_id("slack", SLACK_TEAM, "U0NOBODY1") is None
    assert d.lookup_platform_id("teams", "t", "not-a-guid") is None
    assert d.lookup_platform_id("teams", "t", "00000000-0000-4000-8000-000000000000") is None
    assert d.lookup_platform_id("cli", "local", "siti.rahma@example.co.id") is None
    assert d.lookup_email("nobody@example.co.id") is None


def _load(tmp_path: Path, text: str) -> DirectoryFormatError:
    path = tmp_path / "dir.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DirectoryFormatError) as info:
        YamlDirectory(path)
    assert str(path) in str(info.value)
    return info.value


def test_error_hierarchy() -> None:
    assert issubclass(DirectoryFormatError, DirectoryError)
    assert issubclass(DirectoryError, IdentityError)


def test_unknown_key_names_user_and_key(tmp_path: Path) -> None:
    err = _load(tmp_path, "users:\n  a@example.com:\n    group: [x]\n")
    assert err.user == "a@example.com"
    assert "unknown keys ['group']" in str(err)


def test_non_list_groups_names_field(tmp_path: Path) -> None:
    err = _load(tmp_path, "users:\n  a@example.com:\n    groups: tax-team\n")
    assert (err.user, err.field) == ("a@example.com", "groups")
    assert "must be a list of strings, got str" in str(err)


def test_duplicate_slack_id_names_both_users(tmp_path: Path) -> None:
    err = _load(
        tmp_path,
        "users:\n  a@example.com:\n    slack_id: U0AAA\n  b@example.com:\n    slack_id: U0AAA\n",
    )
    assert (err.user, err.field) == ("b@example.com", "slack_id")
    assert "'a@example.com'" in str(err)


def test_duplicate_aad_id_and_email_case(tmp_path: Path) -> None:
    err = _load(
        tmp_path,
        f"users:\n  a@example.com:\n    aad_object_id: {SITI_AAD}\n"
        f"  b@example.com:\n    aad_object_id: '{SITI_AAD.upper()}'\n",
    )
    assert err.field == "aad_object_id"
    err = _load(tmp_path, "users:\n  a@example.com: {}\n  A@example.com: {}\n")
    assert "duplicate email" in str(err)


def test_duplicate_yaml_key_is_not_silently_overwritten(tmp_path: Path) -> None:
    err = _load(tmp_path, "users:\n  a@example.com:\n    roles: [admin]\n  a@example.com:\n    roles: []\n")
    assert "duplicate key 'a@example.com'" in str(err)
    assert "line 4" in str(err)


@pytest.mark.parametrize(
    ("text", "field", "fragment"),
    [
        ("users:\n  a@example.com:\n    roles: [root]\n", "roles", "unknown roles ['root']"),
        ("users:\n  a@example.com:\n    slack_id: alice\n", "slack_id", "Slack user id"),
        ("users:\n  a@example.com:\n    aad_object_id: 1234\n", "aad_object_id", "UUID"),
        ("users:\n  a@example.com:\n    locale: 7\n", "locale", "language tag"),
        ("users:\n  a@example.com:\n    groups: [ok, 3]\n", "groups", "non-empty strings"),
        ("users:\n  a@example.com:\n    name: ''\n", "name", "non-empty"),
    ],
)
def test_field_validation(tmp_path: Path, text: str, field: str, fragment: str) -> None:
    err = _load(tmp_path, text)
    assert err.field == field
    assert fragment in str(err)


def test_file_level_errors(tmp_path: Path) -> None:
    assert "not found" in str(_load_missing(tmp_path))
    assert "top-level 'users'" in str(_load(tmp_path, "- a\n- b\n"))
    assert "unknown top-level keys ['groups']" in str(_load(tmp_path, "users: {}\ngroups: {}\n"))
    assert "invalid YAML at line" in str(_load(tmp_path, "users: [\n"))
    assert "email address" in str(_load(tmp_path, "users:\n  not-an-email: {}\n"))


def _load_missing(tmp_path: Path) -> DirectoryFormatError:
    with pytest.raises(DirectoryFormatError) as info:
        YamlDirectory(tmp_path / "absent.yaml")
    return info.value


def test_empty_users_is_a_valid_empty_directory(tmp_path: Path) -> None:
    path = tmp_path / "dir.yaml"
    path.write_text("users: {}\n", encoding="utf-8")
    assert len(YamlDirectory(path)) == 0
