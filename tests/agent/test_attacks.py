"""Scripted-model attacks through the real agent loop: every one fails the gates.

Each script searches with the real tool, then "answers" with a forged claim computed from what it was
shown.  The pipeline's one verification runs after the loop whatever the model said (the scripts run as
the pipeline's :class:`AgentComposer`, with the turn's closure tools or with seeded passages only).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

import pytest

from bot.agent import AgentComposer
from bot.llm import ScriptedModel, tool_call
from guardrails.verify import (
    ANGKA_TANPA_DASAR,
    DUKUNGAN_BERTENTANGAN,
    KUTIPAN_TIDAK_COCOK,
    SUMBER_TIDAK_ADA,
    SUMBER_TIDAK_BOLEH_DIBACA,
)
from tests.agent.scripts import answer_with, first_with, obey, sentence_with
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
        if " wajib me" in p.text
        for q in [sentence_with(p.text, " wajib me")]
        if q.lower().count("wajib") == 1
    )
    return [{"text": quote.replace(" wajib me", " tidak wajib me", 1), "quote": quote, "source_id": p.id}]


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


WHEN = dt.date(2022, 5, 1)


def _withheld_codes(answer: Any) -> list[tuple[str, ...]]:
    return [u.codes for u in answer.unsupported_claims]


@pytest.mark.parametrize("name", sorted(ATTACKS))
def test_scripted_attack_fails_the_gates(people, make_deps, name: str) -> None:
    query, build, code = ATTACKS[name]
    model = _script(query, build)
    answer = answer_with(model, "Berapa tarif PPN?", people["clerk"], make_deps(), as_of=WHEN)
    assert answer.claims == (), [c.quote for c in answer.claims]
    assert any(code in codes for codes in _withheld_codes(answer)), _withheld_codes(answer)


def test_control_claim_with_exact_quote_passes(people, make_deps) -> None:
    model = _script(PPN_QUERY, _control)
    answer = answer_with(model, "Berapa tarif PPN?", people["clerk"], make_deps(), as_of=WHEN)
    assert [c.quote for c in answer.claims] and "11%" in answer.claims[0].quote
    assert answer.claims[0].support == "entailed" and not answer.unsupported_claims


def test_citing_a_chunk_the_user_cannot_read_fails(people, make_deps, services) -> None:
    model = _script({"query": "PPh 26 software licence Singapore"}, _memo_claim(services))
    answer = answer_with(model, "PPh 26 software?", people["guest"], make_deps())
    assert answer.claims == ()
    # withheld by the access gate; the pipeline does not even confirm that the restricted memo exists
    restricted = {SUMBER_TIDAK_BOLEH_DIBACA, SUMBER_TIDAK_ADA}
    assert any(restricted & set(codes) for codes in _withheld_codes(answer)), _withheld_codes(answer)
    assert MEMO not in answer.to_json().__repr__()
    # the same claim from tax.lead, who was shown the memo, passes: the gate is about the reader
    lead_model = _script(
        {"query": "PPh 26 software licence fee Singapore vendor DGT form treaty rate"}, _memo_claim(services)
    )
    lead = answer_with(lead_model, "PPh 26 software?", people["lead"], make_deps())
    assert [c.source.doc_id for c in lead.claims] == [MEMO], _withheld_codes(lead)


def test_readable_chunk_never_shown_this_turn_counts_as_absent(people, make_deps, services) -> None:
    """A model may cite only what the tools gave it this turn, not ids it remembers or guesses."""
    chunk = next(c for c in services.store.chunks_of("uu-7-2021") if "11%" in c.text)
    quote = sentence_with(chunk.text, "11%")
    model = ScriptedModel([obey(lambda _p: [{"text": quote, "quote": quote, "source_id": chunk.id}])])
    answer = answer_with(model, "Kapan batas waktu lapor SPT?", people["lead"], make_deps())
    assert answer.claims == ()
    assert any(SUMBER_TIDAK_ADA in codes for codes in _withheld_codes(answer)), _withheld_codes(answer)


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
