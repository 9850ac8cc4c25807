"""search_kb and the access tools over the real sample index: identity only from the closure."""

from __future__ import annotations

import pytest

from tools import FENCE_HEADER, FORBIDDEN_ARGUMENTS, TOOL_NAMES, build_tools, parse_passages
from tools.access import NO_ACCESS

MEMO = "memo-pph26-sg-software"
MODES = ("hybrid", "bm25", "dense", "deterministic")
#: Questions aimed straight at restricted internal documents (tax-team memo, finance/AP procedures).
PROBES = (
    "PPh 26 software licence fee Singapore vendor DGT form treaty rate",
    "Tax memo royalty warehouse management software Vendor SG",
    "intercompany shared services charging policy SNR SNL",
    "honorarium bukan pegawai kas kecil PPh 21",
    "WHT matrix withholding tax rates vendor",
)

EXPECTED_PROPERTIES = {
    "search_kb": {"query", "as_of", "tax_type"},
    "law_as_of": {"law", "as_of", "pasal"},
    "check_document_access": {"doc_id"},
    "check_permission": {"action"},
    "create_ticket": {"summary", "reason"},
    "update_ticket": {"ticket_id", "note"},
}


def test_tool_schemas_have_no_identity_arguments(people, make_deps) -> None:
    tools = build_tools(people["lead"], make_deps())
    assert tools.names == TOOL_NAMES
    for tool in tools:
        schema = tool.tool_spec["inputSchema"]["json"]
        props = set(schema["properties"])
        assert props == EXPECTED_PROPERTIES[tool.tool_name]
        assert schema["additionalProperties"] is False
        assert not props & FORBIDDEN_ARGUMENTS
        assert not [p for p in props if any(w in p for w in ("user", "email", "group", "tenant"))]
        assert len(tool.tool_spec["description"]) > 80  # the docstring is the tool's prompt


def test_extra_user_argument_is_rejected_without_searching(people, make_deps) -> None:
    tools = build_tools(people["guest"], make_deps())
    out = tools.get("search_kb").invoke({"query": PROBES[0], "user_email": "tax.lead@sinarnusantara.co.id"})
    assert (out.ok, out.outcome, out.hits) == (False, "rejected_arguments", ())
    assert "user_email" in out.text
    assert tools.ledger.hits == ()
    assert [c.outcome for c in tools.ledger.calls] == ["rejected_arguments"]


@pytest.mark.parametrize("who", ["guest", "clerk"])
@pytest.mark.parametrize("mode", MODES)
def test_search_never_returns_unreadable_documents_in_any_mode(
    people, make_deps, mode: str, who: str
) -> None:
    """Guests see only documents open to everyone; the AP clerk (ap, finance) never the tax-team memo."""
    principal = people[who]
    tools = build_tools(principal, make_deps(mode=mode))
    search = tools.get("search_kb")
    seen_docs: set[str] = set()
    for probe in PROBES:
        out = search.invoke({"query": probe})
        assert out.ok
        for hit in out.hits:
            assert principal.can_read(hit.doc.access), (mode, hit.chunk.id)
            if who == "guest":
                assert "everyone" in hit.doc.access, (mode, hit.chunk.id)
            seen_docs.add(hit.doc.id)
        # the text shown to the model holds exactly the recorded hits
        assert [p.id for p in parse_passages(out.text)] == [h.chunk.id for h in out.hits]
        assert MEMO not in out.text
    assert MEMO not in seen_docs and seen_docs  # something was found, never the memo
    if who == "clerk":  # the clerk's own groups do open internal documents: the filter is not "public only"
        assert any("everyone" not in h.doc.access for h in tools.ledger.hit_objects())
    assert all(h.doc_id != MEMO for h in tools.ledger.hits)


@pytest.mark.parametrize("mode", MODES)
def test_tax_lead_finds_the_memo_in_every_mode(people, make_deps, mode: str) -> None:
    tools = build_tools(people["lead"], make_deps(mode=mode))
    out = tools.get("search_kb").invoke({"query": PROBES[0]})
    assert out.ok and out.text.startswith(FENCE_HEADER)
    assert MEMO in {h.doc.id for h in out.hits}
    recorded = {h.chunk_id for h in tools.ledger.hits}
    assert recorded == {h.chunk.id for h in out.hits}
    assert all(h.call == 1 and len(h.text_sha) == 16 for h in tools.ledger.hits)


def test_as_of_argument_selects_the_wording_in_force(people, make_deps) -> None:
    search = build_tools(people["guest"], make_deps(mode="deterministic")).get("search_kb")
    old = search.invoke({"query": "UU PPN Pasal 7 tarif", "as_of": "2015-06-01"})
    new = search.invoke({"query": "UU PPN Pasal 7 tarif", "as_of": "2022-05-01"})
    old_docs = {h.doc.id for h in old.hits}
    new_docs = {h.doc.id for h in new.hits}
    assert "uu-7-2021" not in old_docs and "uu-7-2021" in new_docs
    assert any("11%" in h.chunk.text for h in new.hits)


@pytest.mark.parametrize("bad", ["2024-13-01", "yesterday", "01/02/2024", "2024-1-1"])
def test_bad_as_of_is_a_tool_error_not_an_exception(people, make_deps, bad: str) -> None:
    tools = build_tools(people["guest"], make_deps())
    out = tools.get("search_kb").invoke({"query": "tarif PPN", "as_of": bad})
    assert (out.ok, out.outcome) == (False, "bad_input")
    assert "YYYY-MM-DD" in out.text and out.hits == ()


def test_check_document_access_does_not_reveal_existence(people, make_deps) -> None:
    guest = build_tools(people["guest"], make_deps()).get("check_document_access")
    lead = build_tools(people["lead"], make_deps()).get("check_document_access")
    assert guest.invoke({"doc_id": MEMO}).text == NO_ACCESS
    assert guest.invoke({"doc_id": "SNR-MEMO-TAX-2026-002"}).text == NO_ACCESS
    assert guest.invoke({"doc_id": "no-such-doc-123"}).text == NO_ACCESS
    granted = lead.invoke({"doc_id": MEMO}).text
    assert granted.startswith("yes: SNR-MEMO-TAX-2026-002 (Tax Memo: PPh 26")
    assert lead.invoke({"doc_id": "SNR-MEMO-TAX-2026-002"}).text == granted
    assert guest.invoke({"doc_id": "PMK 168/2023"}).text.startswith("yes: PMK 168/2023")


def test_check_permission_uses_the_closure_principal(people, make_deps) -> None:
    def ask(who: str, action: str) -> str:
        return build_tools(people[who], make_deps()).get("check_permission").invoke({"action": action}).text

    assert ask("guest", "may_escalate") == "no"
    assert ask("clerk", "may_escalate") == "yes"
    assert ask("clerk", "may_read_confidential_memos") == "no"
    assert ask("lead", "may_read_confidential_memos") == "yes"
    assert ask("lead", "may_approve_faq") == "yes"
    unknown = (
        build_tools(people["lead"], make_deps()).get("check_permission").invoke({"action": "may_delete_kb"})
    )
    assert (unknown.ok, unknown.outcome) == (False, "rejected_arguments")
