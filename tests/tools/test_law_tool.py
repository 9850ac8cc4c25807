"""``law_as_of`` as an agent tool: the consolidated Pasal on a date, fenced, cited by chunk id, read with the
principal's scope only (hashing-embedder index of the real sample corpus)."""

from __future__ import annotations

import datetime as dt

from kb.scope import ReaderScope
from tools.build import FORBIDDEN_ARGUMENTS
from tools.fence import FENCE_HEADER, is_fenced, parse_passages
from tools.law import MAX_PASAL, NOT_FOUND, LawArgs, make_law_as_of
from tools.ledger import Ledger
from tools.strict import StrictTool


def _tool(principal, deps) -> tuple[StrictTool, Ledger]:
    ledger = Ledger()
    return StrictTool("law_as_of", LawArgs, make_law_as_of(principal, deps), ledger), ledger


def test_pasal_7_of_uu_ppn_on_three_dates_comes_from_the_amending_acts(people, make_deps) -> None:
    tool, ledger = _tool(people["clerk"], make_deps(default_as_of=dt.date(2022, 5, 1)))
    expected = {
        "2005-06-01": ("uu-11-1994#pasal-I/angka-11/pasal-7", "UU 11/1994", "10% (sepuluh persen)"),
        "2010-05-01": ("uu-42-2009#pasal-I/angka-8/pasal-7", "UU 42/2009", "10% (sepuluh persen)"),
        None: ("uu-7-2021#pasal-4/angka-2/pasal-7", "UU 7/2021", "11% (sebelas persen)"),  # the default date
    }
    for as_of, (chunk_prefix, act, rate) in expected.items():
        out = tool.invoke({"law": "UU PPN", "pasal": ["7"], **({"as_of": as_of} if as_of else {})})
        assert out.ok and is_fenced(out.text) and out.text.startswith(FENCE_HEADER)
        passages = parse_passages(out.text)
        assert passages and all(p.attrs["pasal"] == "7" and p.attrs["law"] == "UU 8/1983" for p in passages)
        assert passages[0].id.startswith(chunk_prefix), (as_of, passages[0].id)
        assert passages[0].attrs["doc"] == act and f"wording of {act}" in passages[0].attrs["wording"]
        assert rate in " ".join(p.text for p in passages)
        assert {h.chunk.id for h in out.hits} == {p.id for p in passages}  # citable like search results
        # every act that restated UU PPN Pasal 7 is in the knowledge base: no "may have changed" warning
        assert "may have changed through" not in passages[0].attrs["wording"]
    assert any(h.chunk_id.startswith("uu-7-2021#") for h in ledger.hits)


def test_without_pasal_the_contents_list_each_wording_and_revoked_pasal(people, make_deps) -> None:
    tool, _ = _tool(people["guest"], make_deps())
    out = tool.invoke({"law": "UU PPN", "as_of": "2022-05-01"})
    assert out.ok and not out.hits and not parse_passages(out.text)
    assert "Pasal 7: wording of UU 7/2021, in force from 2022-04-01" in out.text
    assert "Pasal 6: REVOKED -- wording of UU 18/2000" in out.text
    missing = tool.invoke({"law": "UU PPN", "as_of": "2022-05-01", "pasal": ["99"]})
    assert missing.ok and "No Pasal 99 of UU 8/1983 in force on 2022-05-01." in missing.text


def test_reads_only_with_the_principals_scope_and_takes_no_identity(people, make_deps) -> None:
    deps = make_deps()
    clerk, _ = _tool(people["clerk"], deps)
    # a restricted document and an absent law get the same refusal (no existence leak)
    restricted = clerk.invoke({"law": "memo-pph26-sg-software"})
    absent = clerk.invoke({"law": "UU 99/2099"})
    assert (restricted.ok, restricted.text, restricted.outcome) == (False, NOT_FOUND, "not_found")
    assert absent.text == NOT_FOUND
    lead, _ = _tool(people["lead"], deps)
    assert lead.invoke({"law": "memo-pph26-sg-software"}).ok  # the lead may read it (no Pasal chain)
    # an audience that only opens public documents narrows even the lead
    narrowed, _ = _tool(people["lead"], make_deps(audience=ReaderScope.public()))
    assert narrowed.invoke({"law": "memo-pph26-sg-software"}).text == NOT_FOUND

    props = set(clerk.tool_spec["inputSchema"]["json"]["properties"])
    assert props == {"law", "as_of", "pasal"} and not props & FORBIDDEN_ARGUMENTS
    refused = clerk.invoke({"law": "UU PPN", "user_email": "tax.lead@sinarnusantara.co.id"})
    assert not refused.ok and refused.outcome == "rejected_arguments"
    too_many = clerk.invoke({"law": "UU PPN", "pasal": [str(n) for n in range(1, MAX_PASAL + 2)]})
    assert not too_many.ok and too_many.outcome == "rejected_arguments"
    bad_date = clerk.invoke({"law": "UU PPN", "as_of": "1 Mei 2022"})
    assert not bad_date.ok and bad_date.outcome == "bad_input"
