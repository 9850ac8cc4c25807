"""The per-turn agent loop through the real strands Agent: tools, guards, parsing, determinism."""

from __future__ import annotations

import json

from bot.agent import SYSTEM_PROMPT, parse_composed, run_agent
from bot.llm import ExtractiveModel, ScriptedModel, claims_message, text_message, tool_call
from bot.llm.events import result_text
from tests.agent.scripts import answer_with
from tools import FENCE_HEADER, TOOL_NAMES

QUESTION = "Berapa tarif PPN menurut UU PPN Pasal 7?"


def _results(model: ScriptedModel, call: int) -> list[dict]:
    return [b["toolResult"] for m in model.calls[call].messages for b in m["content"] if "toolResult" in b]


def test_extra_user_email_argument_is_rejected_through_the_agent_loop(people, make_deps) -> None:
    model = ScriptedModel(
        [
            tool_call(
                "search_kb",
                {"query": "PPh 26 software Singapore memo", "user_email": "tax.lead@sinarnusantara.co.id"},
            ),
            claims_message([]),
        ]
    )
    outcome = run_agent("memo PPh 26?", people["guest"], make_deps(), model)
    result = _results(model, 1)[-1]
    assert result["status"] == "error"
    assert "user_email" in result_text(result) and "not accepted" in result_text(result)
    assert outcome.ledger.hits == ()
    assert [(c.name, c.outcome) for c in outcome.ledger.calls] == [("search_kb", "rejected_arguments")]
    assert outcome.composed.claims == () and outcome.stop_reason == "end_turn"


def test_unknown_tool_is_cancelled_and_recorded(people, make_deps) -> None:
    model = ScriptedModel(
        [tool_call("open_ticket_for", {"email": "cfo@sinarnusantara.co.id"}), claims_message([])]
    )
    outcome = run_agent("tolong", people["clerk"], make_deps(), model)
    result = _results(model, 1)[-1]
    assert result["status"] == "error" and "does not exist" in result_text(result)
    assert [(c.name, c.ok, c.outcome) for c in outcome.ledger.calls] == [
        ("open_ticket_for", False, "not_allowed")
    ]


def test_model_sees_only_the_turn_tools_the_prompt_and_fenced_results(people, make_deps) -> None:
    model = ScriptedModel(
        [tool_call("search_kb", {"query": "UU PPN Pasal 7 tarif", "as_of": "2022-05-01"}), claims_message([])]
    )
    outcome = run_agent(QUESTION, people["guest"], make_deps(), model)
    first = model.calls[0]
    assert first.system_prompt == SYSTEM_PROMPT
    assert sorted(s["name"] for s in first.tool_specs) == sorted(TOOL_NAMES)
    assert first.messages == [{"role": "user", "content": [{"text": QUESTION}]}]
    result = _results(model, 1)[-1]
    assert result["status"] == "success"
    assert result_text(result).startswith(FENCE_HEADER)
    assert [h.chunk_id for h in outcome.ledger.hits] and all(
        f'id="{h.chunk_id}"' in result_text(result) for h in outcome.ledger.hits
    )
    assert "tax.lead" not in json.dumps(first.tool_specs)  # no identity anywhere in what the model sees


def test_tool_call_limit_stops_a_looping_model(people, make_deps) -> None:
    steps = [tool_call("check_permission", {"action": "may_escalate"}, f"t{i}") for i in range(9)]
    model = ScriptedModel([*steps, claims_message([{"text": "x", "quote": "x", "source_id": "y"}])])
    outcome = run_agent("loop", people["clerk"], make_deps(), model)
    assert outcome.stop_reason == "tool_call_limit"
    assert outcome.composed.claims == () and "tool_call_limit" in outcome.composed.notes
    assert [c.outcome for c in outcome.ledger.calls].count("limit") == 1


def test_model_failure_fails_closed(people, make_deps) -> None:
    outcome = run_agent(QUESTION, people["guest"], make_deps(), ScriptedModel([]))
    assert outcome.stop_reason == "error"
    assert outcome.composed.claims == () and outcome.composed.notes == ("model_failed:ScriptExhausted",)


def test_malformed_output_gives_zero_claims_and_a_note(people, make_deps) -> None:
    outcome = run_agent(
        QUESTION, people["guest"], make_deps(), ScriptedModel([text_message("Tarifnya 11%.")])
    )
    assert outcome.composed.claims == () and outcome.composed.notes == ("model_output_not_json",)


def test_parse_composed_keeps_good_claims_and_notes_bad_ones() -> None:
    text = (
        "Here you go:\n```json\n"
        + json.dumps(
            {
                "claims": [
                    {
                        "text": "A",
                        "quote": "a &lt; b",
                        "source_id": "d#1",
                        "layer": "policy",
                        "assumption": "x",
                    },
                    {"text": "B", "quote": "", "source_id": "d#2"},
                    "junk",
                    {"text": "C", "quote": "c", "source_id": "d#3", "layer": "weird", "role": "exception"},
                ],
                "self_assessment": 3,
            }
        )
        + "\n```"
    )
    composed = parse_composed(text)
    assert [(c.text, c.quote, c.source_chunk_id, c.layer, c.role, c.assumption) for c in composed.claims] == [
        ("A", "a < b", "d#1", "policy", "direct", "x"),
        ("C", "c", "d#3", "unknown", "exception", None),
    ]
    assert composed.self_assessment == 1.0
    assert composed.notes == ("claim_2_malformed", "claim_3_malformed")
    assert parse_composed('{"answer": "11%"}').notes == ("model_output_without_claims",)


def test_extractive_model_is_deterministic_and_passes_the_gates(people, make_deps) -> None:
    deps = make_deps()
    runs = [run_agent(QUESTION, people["clerk"], deps, ExtractiveModel()) for _ in range(2)]
    a, b = runs
    assert a.composed == b.composed and a.composed.claims
    assert [c.outcome for c in a.ledger.calls] == ["ok"] and a.ledger.calls[0].name == "search_kb"
    assert a.ledger.to_json() == b.ledger.to_json()
    assert {c.source_chunk_id for c in a.composed.claims} <= {h.chunk_id for h in a.ledger.hits}
    assert QUESTION not in json.dumps(a.ledger.to_json())  # the audit record never holds the question
    # the pipeline's one verification shows every claim the model drafted (in the pipeline the model
    # composes from the fenced request passages without searching again)
    answer = answer_with(ExtractiveModel(), QUESTION, people["clerk"], deps)
    assert answer.status == "answered" and answer.claims and not answer.unsupported_claims
    assert any("Pasal 7" in c.source.location for c in answer.claims), [
        c.source.location for c in answer.claims
    ]


def test_extractive_model_minimal_composer_quotes_verbatim(people, make_deps) -> None:
    deps = make_deps()
    outcome = run_agent(QUESTION, people["clerk"], deps, ExtractiveModel(use_pipeline_composer=False))
    assert outcome.composed.claims
    hits = {h.chunk.id: h for h in outcome.hits}
    for claim in outcome.composed.claims:
        assert claim.quote == claim.text and claim.quote in hits[claim.source_chunk_id].chunk.text
    answer = answer_with(ExtractiveModel(use_pipeline_composer=False), QUESTION, people["clerk"], deps)
    assert answer.claims and not answer.unsupported_claims
