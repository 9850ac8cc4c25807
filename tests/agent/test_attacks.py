"""Scripted-model attacks through the real agent loop: every one fails the gates.

Each script searches with the real tool, then "answers" with a forged claim computed from what it was
shown.  Verification runs after the loop whatever the model said (:func:`bot.agent.verify_outcome`); the
same scripts also go through the grounded-answer pipeline as an :class:`AgentComposer`.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

import pytest

from bot.agent import AgentComposer, run_agent, verify_outcome
from bot.llm import ScriptedModel, tool_call
from guardrails.verify import (
    ANGKA_TANPA_DASAR,
    DUKUNGAN_BERTENTANGAN,
    KUTIPAN_TIDAK_COCOK,
    SUMBER_TIDAK_ADA,
    SUMBER_TIDAK_BOLEH_DIBACA,
)
from tests.agent.scripts import first_with, obey, sentence_with
from tools import FencedPassage

MEMO = "memo-pph26-sg-software"
PPN_QUERY = {"query": "UU PPN Pasal 7 tarif Pajak Pertambahan Nilai", "as_of": "2022-05-01"}


def _memo_claim(services: Any) -> Callable[[list[FencedPassage]], list[dict[str, Any]]]:
    chunk = next(c for c in services.store.chunks_of(MEMO) if "20%" in c.text)
    quote = sentence_with(chunk.text, "20%")
    return lambda _p: [{"text": quote, "quote": quote, "source_id": chunk.id, "layer": "policy"}]


def _invented(passages: list[FencedPassage]) -> list[dict[str, Any]]:
    p = passages[0]
    return [
        {
            "text": "PPN dikenakan tarif 11% atas semua penyerahan jasa digital.",
            "quote": "PPN dikenakan tarif 11% atas semua penyerahan jasa digital.",
            "source_id": p.id,
        }
    ]


def _nonexistent(passages: list[FencedPassage]) -> list[dict[str, Any]]:
    quote = sentence_with(first_with(passages, "11%").text, "11%")
    return [{"text": quote, "quote": quote, "source_id": "uu-7-2021#pasal-99/ayat-9"}]


def _number_changed(passages: list[FencedPassage]) -> list[dict[str, Any]]:
    quote = sentence_with(first_with(passages, "11%").text, "11%")
    return [
        {"text": quote.replace("11%", "12%"), "quote": quote, "source_id": first_with(passages, "11%").id}
    ]


def _negation_flipped(passages: list[FencedPassage]) -> list[dict[str, Any]]:
    # a sentence stating one obligation (see the xfail below for sentences with two)
    p, quote = next(
        (p, q)
        for p in passages
        if " wajib " in p.text
        for q in [sentence_with(p.text, " wajib ")]
        if q.count("wajib") == 1
    )
    return [{"text": quote.replace(" wajib ", " tidak wajib ", 1), "quote": quote, "source_id": p.id}]


def _control(passages: list[FencedPassage]) -> list[dict[str, Any]]:
    p = first_with(passages, "11%")
    quote = sentence_with(p.text, "11%")
    return [{"text": quote, "quote": quote, "source_id": p.id, "layer": "regulation"}]


ATTACKS: dict[str, tuple[dict[str, Any], Callable[..., Any], str]] = {
    "invented_quote": (PPN_QUERY, _invented, KUTIPAN_TIDAK_COCOK),
    "nonexistent_chunk": (PPN_QUERY, _nonexistent, SUMBER_TIDAK_ADA),
    "number_11_to_12": (PPN_QUERY, _number_changed, ANGKA_TANPA_DASAR),
    "wajib_to_tidak_wajib": (
        {"query": "Pengusaha Kena Pajak wajib memungut PPN faktur pajak"},
        _negation_flipped,
        DUKUNGAN_BERTENTANGAN,
    ),
}


def _script(query: dict[str, Any], build: Callable[..., Any]) -> ScriptedModel:
    return ScriptedModel([tool_call("search_kb", query), obey(build)])


@pytest.mark.parametrize("name", sorted(ATTACKS))
def test_scripted_attack_fails_the_gates(people, make_deps, name: str) -> None:
    query, build, code = ATTACKS[name]
    deps = make_deps()
    outcome = run_agent("Berapa tarif PPN?", people["clerk"], deps, _script(query, build))
    assert len(outcome.composed.claims) == 1, outcome.composed.notes
    [verdict] = verify_outcome(outcome, people["clerk"], deps)
    assert not verdict.passed
    assert code in verdict.codes, verdict.codes
    assert [c.passed for c in outcome.ledger.citations] == [False]


def test_control_claim_with_exact_quote_passes(people, make_deps) -> None:
    deps = make_deps()
    outcome = run_agent("Berapa tarif PPN?", people["clerk"], deps, _script(PPN_QUERY, _control))
    [verdict] = verify_outcome(outcome, people["clerk"], deps)
    assert verdict.passed and verdict.support == "entailed"
    assert "11%" in outcome.composed.claims[0].quote


def test_citing_a_chunk_the_user_cannot_read_fails(people, make_deps, services) -> None:
    deps = make_deps()
    model = _script({"query": "PPh 26 software licence Singapore"}, _memo_claim(services))
    outcome = run_agent("PPh 26 software?", people["guest"], deps, model)
    [verdict] = verify_outcome(outcome, people["guest"], deps)
    assert not verdict.passed and SUMBER_TIDAK_BOLEH_DIBACA in verdict.codes
    # the same claim from tax.lead, who was shown the memo, passes: the gate is about the reader
    lead_outcome = run_agent(
        "PPh 26 software?",
        people["lead"],
        deps,
        _script(
            {"query": "PPh 26 software licence fee Singapore vendor DGT form treaty rate"},
            _memo_claim(services),
        ),
    )
    [lead_verdict] = verify_outcome(lead_outcome, people["lead"], deps)
    assert lead_verdict.passed, lead_verdict.codes


def test_readable_chunk_never_shown_this_turn_counts_as_absent(people, make_deps, services) -> None:
    """A model may cite only what the tools gave it this turn, not ids it remembers or guesses."""
    deps = make_deps()
    chunk = next(c for c in services.store.chunks_of("uu-7-2021") if "11%" in c.text)
    quote = sentence_with(chunk.text, "11%")
    model = ScriptedModel([obey(lambda _p: [{"text": quote, "quote": quote, "source_id": chunk.id}])])
    outcome = run_agent("tarif?", people["lead"], deps, model)
    [verdict] = verify_outcome(outcome, people["lead"], deps)
    assert SUMBER_TIDAK_ADA in verdict.codes


# --- the same scripts through the grounded-answer pipeline -------------------------------------

PIPELINE_QUESTION = "Berapa tarif PPN menurut UU PPN Pasal 7 per 1 Mei 2022?"


@pytest.mark.parametrize("name", ["invented_quote", "nonexistent_chunk", "number_11_to_12"])
def test_pipeline_with_agent_composer_withholds_forged_claims(people, services, name: str) -> None:
    pipeline = pytest.importorskip("bot.answer.pipeline")
    _query, build, code = ATTACKS[name]
    composer = AgentComposer(ScriptedModel([obey(build)] * 4))  # no tools: seeded passages only
    answer = pipeline.answer_question(
        PIPELINE_QUESTION, people["clerk"], services, composer=composer, as_of=dt.date(2022, 5, 1)
    )
    assert answer.claims == ()
    assert any(code in u.codes for u in answer.unsupported_claims), [
        u.codes for u in answer.unsupported_claims
    ]
    assert composer.last_outcome is not None and composer.last_outcome.ledger.hits


def test_pipeline_with_agent_composer_shows_an_honest_claim(people, services) -> None:
    pipeline = pytest.importorskip("bot.answer.pipeline")
    composer = AgentComposer(ScriptedModel([obey(_control)] * 4))
    answer = pipeline.answer_question(
        PIPELINE_QUESTION, people["clerk"], services, composer=composer, as_of=dt.date(2022, 5, 1)
    )
    assert [c.quote for c in answer.claims] and "11%" in answer.claims[0].quote


@pytest.mark.xfail(
    strict=True,
    reason="known gap in guardrails' lexical judge: negating one of two 'wajib' in a "
    "sentence is still judged entailed (reported to the lead)",
)
def test_negating_one_of_two_obligations_is_caught() -> None:
    from guardrails.verify import ClaimInput, SourceText, verify_claims

    quote = (
        "(1) Pengusaha yang melakukan penyerahan sebagaimana dimaksud dalam Pasal 4 ayat (1) huruf a, "
        "huruf c, huruf f, huruf g, dan huruf h, kecuali pengusaha kecil yang batasannya ditetapkan oleh "
        "Menteri Keuangan, wajib melaporkan usahanya untuk dikukuhkan sebagai Pengusaha Kena Pajak dan wajib "
        "memungut, menyetor, dan melaporkan Pajak Pertambahan Nilai dan Pajak Penjualan atas Barang Mewah "
        "yang terutang."
    )
    flipped = quote.replace(" wajib melaporkan", " tidak wajib melaporkan")  # UU 42/2009 Pasal 3A ayat (1)
    [verdict] = verify_claims([ClaimInput(flipped, quote, "s")], {"s": SourceText("s", quote)})
    assert not verdict.passed
