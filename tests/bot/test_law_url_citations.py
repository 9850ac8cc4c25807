"""Citations of public regulations link dasar's own page of the law as it stood on the answer's date."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.answer.pipeline import answer_question
from bot.settings import Settings
from bot.slack.render import citation_link
from bot.teams.cards import answer_activity
from bot.wiring import Services
from tests.conftest import DIRECTORY


@pytest.fixture(scope="module")
def linked_services(behaviour_kb: Path) -> Iterator[Services]:
    svc = Services(
        Settings(
            kb=behaviour_kb,
            directory=DIRECTORY,
            tickets_db=behaviour_kb.parent / "tickets-law-url.sqlite",
            embedder="hashing-256",
            public_url="https://dasar.example.co.id/",
        )
    )
    yield svc
    svc.store.close()


def test_amended_wording_links_the_amended_law_at_its_pasal_on_the_answer_date(
    linked_services: Services,
) -> None:
    answer = answer_question(
        "Berapa tarif PPN menurut UU PPN Pasal 7?",
        linked_services.cli_principal(None),
        linked_services,
        as_of=dt.date(2022, 5, 1),
    )
    assert answer.status == "answered"
    lead = answer.claims[0].source
    assert lead.doc_id == "uu-7-2021"
    # the wording lives in UU 7/2021, the page is UU PPN's as it stood on 2022-05-01, opened at Pasal 7
    assert lead.law_url == "https://dasar.example.co.id/law/uu-8-1983?as_of=2022-05-01#pasal-7"
    assert lead.to_json()["law_url"] == lead.law_url
    link = citation_link(lead.to_json())
    assert link.startswith("<https://dasar.example.co.id/law/uu-8-1983?as_of=2022-05-01#pasal-7|")
    # Teams: the card's citation link and the activity's citation entity open the same page
    activity = answer_activity(answer.to_json(), reference="R-law")
    (entity,) = activity["entities"]
    assert entity["citation"][0]["appearance"]["url"] == lead.law_url
    assert f"]({lead.law_url})" in json.dumps(activity["attachments"][0]["content"])


def test_without_a_public_url_citations_link_the_official_text(behaviour_services: Services) -> None:
    answer = answer_question(
        "Berapa tarif PPN menurut UU PPN Pasal 7?",
        behaviour_services.cli_principal(None),
        behaviour_services,
        as_of=dt.date(2022, 5, 1),
    )
    lead = answer.claims[0].source
    assert lead.law_url is None
    assert lead.url is not None and lead.url.startswith("https://peraturan.go.id/")
    assert citation_link(lead.to_json()).startswith(f"<{lead.url}|")
