"""``GET /law/<doc>?as_of=...`` on the served processes: the consolidated law as a citation link target.

``dasar serve slack`` (HTTP mode, stand-in Slack API) and ``dasar serve teams`` run as real processes over
the bundled corpus indexed with the hashing embedder (``behaviour_kb``), configured through ``DASAR_*``
variables only.  The page must be what ``dasar law --html`` writes, byte for byte; only regulations
readable by everyone are served, and everything else gets one 404 page.
"""

from __future__ import annotations

import re
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.cli import main
from tests.served.conftest import base_env, served, slack_env
from tests.slack.mock_slack import MockSlackApi
from tests.support.ports import free_port

PPN = "uu-8-1983"  # UU PPN, amended by UU 18/2000, UU 42/2009, UU 11/2020 and UU 7/2021
#: corpus/internal/memo-pph26-sg-software.md (access: [tax-team]) and its number
MEMO_ID, MEMO_NUMBER = "memo-pph26-sg-software", "SNR-MEMO-TAX-2026-002"
#: corpus/internal/faq-npwp-16-digit-nitku.md: readable by everyone, but internal, not statutory text
PUBLIC_FAQ = "faq-npwp-16-digit-nitku"
#: corpus/internal/ap-checklist-legacy.md: quarantined at ingest (no owner)
QUARANTINED = "ap-checklist-legacy"


def _get(port: int, path: str) -> tuple[int, dict[str, str], str]:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=120) as resp:
            return resp.status, dict(resp.headers), resp.read().decode("utf-8")
    except urllib.error.HTTPError as err:
        return err.code, dict(err.headers), err.read().decode("utf-8")


def _section(page: str, anchor: str) -> str:
    m = re.search(rf'<section class="[^"]*" id="{anchor}">.*?</section>', page, re.S)
    assert m, f"no section #{anchor}"
    return m.group(0)


@pytest.fixture(scope="module")
def cli_page(behaviour_kb: Path, tmp_path_factory: pytest.TempPathFactory) -> str:
    """``dasar law uu-8-1983 --as-of 2022-05-01 --html FILE`` over the same knowledge base."""
    out = tmp_path_factory.mktemp("law-cli") / "ppn.html"
    assert main(["law", PPN, "--as-of", "2022-05-01", "--html", str(out), "--kb", str(behaviour_kb)]) == 0
    return out.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def slack_port(behaviour_kb: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    tmp_path = tmp_path_factory.mktemp("law-slack")
    api = MockSlackApi(members={})
    port = free_port()
    try:
        env = slack_env(tmp_path, behaviour_kb, api.start())
        with served(["serve", "slack", "--port", str(port)], env, port, tmp_path / "slack.log"):
            yield port
    finally:
        api.stop()


@pytest.fixture(scope="module")
def teams_port(behaviour_kb: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    tmp_path = tmp_path_factory.mktemp("law-teams")
    port = free_port()
    env = base_env(
        tmp_path,
        behaviour_kb,
        DASAR_TEAMS_AUTH_DISABLED="true",  # test configuration only; no activity is posted here
        DASAR_TEAMS_SERVICE_URL="http://127.0.0.1:9/",
        DASAR_TEAMS_TAX_CHANNEL_ID="19:tax@thread.tacv2",
        DASAR_TEAMS_JOURNAL_DB=str(tmp_path / "journal.sqlite"),
        DASAR_TEAMS_PORT=str(port),
        DASAR_OUTBOX_POLL_SECONDS="3600",
    )
    with served(["serve", "teams", "--port", str(port)], env, port, tmp_path / "teams.log"):
        yield port


def test_slack_serves_uu_ppn_on_a_date_as_dasar_law_html_with_a_pasal_anchor(
    slack_port: int, cli_page: str
) -> None:
    status, headers, page = _get(slack_port, f"/law/{PPN}?as_of=2022-05-01")
    assert status == 200
    assert headers["Content-Type"] == "text/html; charset=utf-8"
    assert page == cli_page  # one renderer: the CLI's page, byte for byte
    pasal_7 = _section(page, "pasal-7")
    assert "wording of UU 7/2021, in force from 2022-04-01" in pasal_7  # UU 7/2021 gave Pasal 7 its wording
    assert "11% (sebelas persen)" in pasal_7
    assert "<title>UU 8/1983 per 2022-05-01</title>" in page
    # another date: the same Pasal from the act in force then
    status, _, page_2015 = _get(slack_port, f"/law/{PPN}?as_of=2015-01-01")
    assert status == 200
    assert "wording of UU 42/2009, in force from 2010-04-01" in _section(page_2015, "pasal-7")
    # by name and by number (URL-encoded, the number's "/" included): the same page
    assert _get(slack_port, "/law/UU%20PPN?as_of=2022-05-01")[2] == cli_page
    assert _get(slack_port, "/law/UU%208%2F1983?as_of=2022-05-01")[2] == cli_page
    assert _get(slack_port, "/law/UU%208/1983?as_of=2022-05-01")[2] == cli_page


def test_slack_answers_restricted_internal_and_unknown_documents_with_one_404_page(slack_port: int) -> None:
    status, _, unknown = _get(slack_port, "/law/uu-99-2001?as_of=2022-05-01")
    assert status == 404 and "No law by that name or id is published here" in unknown
    for name in (
        MEMO_ID,
        MEMO_NUMBER.replace("/", "%2F"),
        PUBLIC_FAQ,
        QUARANTINED,
        "tax-risk-approval-policy",
    ):
        status, headers, page = _get(slack_port, f"/law/{name}?as_of=2022-05-01")
        assert (status, page) == (404, unknown), name
        assert headers["Content-Length"] == str(len(unknown.encode())), name
    # the requested name is never echoed (an injected tag cannot reach the page either)
    status, _, page = _get(slack_port, "/law/%3Cscript%3Ealert(1)%3C%2Fscript%3E?as_of=2022-05-01")
    assert status == 404 and page == unknown and "<script" not in page


def test_slack_refuses_a_bad_date_with_400(slack_port: int) -> None:
    for query in (
        "as_of=2022-13-01",
        "as_of=2022-02-30",
        "as_of=01-05-2022",
        "as_of=20220501",
        "as_of=",
        "as_of=2022-05-01&as_of=2023-01-01",
    ):
        status, _, page = _get(slack_port, f"/law/{PPN}?{query}")
        assert status == 400, query
        assert "as_of must be one date written YYYY-MM-DD, for example ?as_of=2022-05-01" in page
    # a restricted id with a bad date: the same 400 (the date is checked before any document)
    assert _get(slack_port, f"/law/{MEMO_ID}?as_of=nope")[0] == 400


def test_teams_serves_the_same_page_and_the_same_refusals(teams_port: int, cli_page: str) -> None:
    status, headers, page = _get(teams_port, f"/law/{PPN}?as_of=2022-05-01")
    assert status == 200 and headers["Content-Type"] == "text/html; charset=utf-8"
    assert page == cli_page and 'id="pasal-7"' in page
    assert _get(teams_port, "/law/UU%208/1983?as_of=2022-05-01")[2] == cli_page
    status, _, unknown = _get(teams_port, "/law/uu-99-2001?as_of=2022-05-01")
    assert status == 404
    assert _get(teams_port, f"/law/{MEMO_ID}?as_of=2022-05-01")[:3:2] == (404, unknown)
    assert _get(teams_port, f"/law/{PUBLIC_FAQ}?as_of=2022-05-01")[:3:2] == (404, unknown)
    status, _, page = _get(teams_port, f"/law/{PPN}?as_of=2022-02-30")
    assert status == 400 and "YYYY-MM-DD" in page
