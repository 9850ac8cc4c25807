"""``bot.law_links.law_link`` and ``DASAR_PUBLIC_URL``: citation links to the consolidated law view."""

from __future__ import annotations

import datetime as dt

import pytest

from bot.law_links import is_public_statute, law_link
from bot.settings import SettingsError, load_settings
from kb.model import DocumentMeta

BASE = "https://dasar.example.co.id"
MAY_2022 = dt.date(2022, 5, 1)


def test_a_pasal_of_a_public_regulation_links_to_its_anchor_on_the_date() -> None:
    assert (
        law_link(BASE, "uu-36-2008", "Pasal 4 ayat (1) huruf a", MAY_2022, True)
        == "https://dasar.example.co.id/law/uu-36-2008?as_of=2022-05-01#pasal-4"
    )
    assert (
        law_link(BASE, "uu-8-1983", "Pasal 4A ayat (2)", dt.date(2015, 1, 1), True)
        == "https://dasar.example.co.id/law/uu-8-1983?as_of=2015-01-01#pasal-4A"
    )


def test_wording_restated_by_an_amending_act_links_to_the_base_law_through_its_provision() -> None:
    # a chunk of UU 7/2021 restating Pasal 7 UU PPN: the page is UU 8/1983 on the date, not UU 7/2021
    location = "Pasal 7 UU 8/1983 (Pasal I angka 2 UU 7/2021)"
    assert (
        law_link(BASE, "uu-7-2021", location, MAY_2022, True, provision="uu-8-1983:pasal-7")
        == "https://dasar.example.co.id/law/uu-8-1983?as_of=2022-05-01#pasal-7"
    )
    # without the provision the other act's Pasal is not guessed as an anchor of UU 7/2021's page
    assert law_link(BASE, "uu-7-2021", location, MAY_2022, True) == (
        "https://dasar.example.co.id/law/uu-7-2021?as_of=2022-05-01"
    )


def test_parts_without_a_pasal_link_to_the_page_and_roman_pasal_keep_their_number() -> None:
    assert (
        law_link(BASE, "uu-7-2021", "Menimbang", MAY_2022, True) == f"{BASE}/law/uu-7-2021?as_of=2022-05-01"
    )
    assert law_link(BASE, "uu-7-2021", None, MAY_2022, True) == f"{BASE}/law/uu-7-2021?as_of=2022-05-01"
    assert (
        law_link(BASE, "uu-42-2009", "Pasal I angka 8", MAY_2022, True, provision="uu-42-2009:pasal-I")
        == f"{BASE}/law/uu-42-2009?as_of=2022-05-01#pasal-I"
    )


def test_no_link_without_a_base_url_or_for_what_not_everyone_may_read() -> None:
    assert law_link(None, "uu-36-2008", "Pasal 4", MAY_2022, True) is None
    assert law_link("", "uu-36-2008", "Pasal 4", MAY_2022, True) is None
    assert law_link(BASE, "memo-pph26-sg-software", "Pasal 1", MAY_2022, False) is None


def test_a_base_url_with_a_path_prefix_and_odd_ids_stay_one_url() -> None:
    assert (
        law_link(BASE + "/dasar/", "uu 8/1983", "Pasal 7", MAY_2022, True)
        == "https://dasar.example.co.id/dasar/law/uu%208%2F1983?as_of=2022-05-01#pasal-7"
    )


def _meta(doc_type: str, access: tuple[str, ...]) -> DocumentMeta:
    return DocumentMeta(
        id="x", title="t", number="n", type=doc_type, jurisdiction="ID", language="id", access=access
    )


def test_only_regulations_readable_by_everyone_are_public_statutes() -> None:
    assert is_public_statute(_meta("UU", ("everyone",)))
    assert is_public_statute(_meta("PMK", ("everyone", "tax-team")))
    assert not is_public_statute(_meta("UU", ("tax-team",)))
    assert not is_public_statute(_meta("faq", ("everyone",)))  # internal, even when everyone may read it
    assert not is_public_statute(_meta("memo", ("tax-team",)))


def test_public_url_setting_is_validated_and_normalised(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DASAR_PUBLIC_URL", "https://dasar.example.co.id/")
    assert load_settings().public_url == "https://dasar.example.co.id"
    monkeypatch.setenv("DASAR_PUBLIC_URL", "https://dasar.example.co.id:8443/tax")
    assert load_settings().public_url == "https://dasar.example.co.id:8443/tax"
    monkeypatch.setenv("DASAR_PUBLIC_URL", "")
    assert load_settings().public_url is None
    monkeypatch.delenv("DASAR_PUBLIC_URL")
    assert load_settings().public_url is None


@pytest.mark.parametrize(
    "bad",
    [
        "http://dasar.example.co.id",
        "dasar.example.co.id",
        "https://",
        "https://dasar.example.co.id/?a=1",
        "https://dasar.example.co.id/#x",
        "https://user@dasar.example.co.id",
        "https://dasar example.co.id",
        "https://dasar.example.co.id/a|b>",
    ],
)
def test_a_bad_public_url_is_one_line_naming_the_variable(monkeypatch: pytest.MonkeyPatch, bad: str) -> None:
    monkeypatch.setenv("DASAR_PUBLIC_URL", bad)
    with pytest.raises(SettingsError) as err:
        load_settings()
    message = str(err.value)
    assert message.startswith("DASAR_PUBLIC_URL in the environment: ")
    assert "must be an https:// base URL" in message and "\n" not in message
