"""What an answer shows beside its lead: passages of the lead's own Pasal, the definitions it uses, and
other provisions only when the ranker scores them nearly as high as the lead
(``PipelineConfig.secondary_score_ratio``); a further citation the ranker rates well below the lead rarely
answers the question, and each one is a citation the reader must check for nothing."""

from __future__ import annotations

import dataclasses
import datetime as dt
from typing import Any

from bot.answer.pipeline import PipelineConfig, answer_question

QUESTION = "Kapan batas waktu penyetoran PPh Pasal 21?"


def _ask(services: Any, ratio: float) -> Any:
    config = dataclasses.replace(PipelineConfig(), secondary_score_ratio=ratio)
    return answer_question(
        QUESTION,
        services.cli_principal(None),
        services,
        as_of=dt.date(2024, 6, 1),
        explain=True,
        config=config,
    )


def test_other_provisions_are_shown_only_near_the_leads_score(services: Any) -> None:
    every = _ask(services, 0.0)
    near = _ask(services, 0.9)
    assert near.claims[0].source.chunk_id == every.claims[0].source.chunk_id  # the lead never changes
    assert near.confidence == every.confidence  # judged on all the verified evidence
    assert [c.source.chunk_id for c in near.claims] == [
        c.source.chunk_id for c in every.claims if c in near.claims
    ]
    scores = {r["chunk_id"]: r["score"] for r in near.explain["retrieval"][0]["results"]}
    lead = near.claims[0].source
    for c in near.claims[1:]:
        if (
            c.source.chunk_id in scores
            and c.source.location.split(" ayat")[0] != lead.location.split(" ayat")[0]
        ):
            assert scores[c.source.chunk_id] >= 0.9 * scores[lead.chunk_id], c.source.location
    # the ratio only removes claims (another Pasal of a regulation under a rule's lead is not shown at any
    # ratio: tests/answer/test_supporting_claims.py)
    assert len(every.claims) >= len(near.claims)
