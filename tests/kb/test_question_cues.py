"""The ranker's question cues read chat Indonesian: "tarifnya brp?" asks a rate as much as "berapa tarif?",
"brp lama" a length of time (the cue was 0 for them, so a rate passage got no lift for a chatty question)."""

from __future__ import annotations

import pytest

from kb.query import understand
from kb.retrieve import _Intent


def cues(question: str) -> _Intent:
    """The question cues as the retriever works them out once per search."""
    return _Intent.of(understand(question), [], lambda _laws: [])


@pytest.mark.parametrize(
    "question",
    [
        "Berapa tarif PPN?",
        "pph final tanah tarifnya brp?",
        "brp persen ya?",
        "dipotong berapa %?",
        "how much?",
    ],
)
def test_rate_cues(question: str) -> None:
    assert cues(question).rate


@pytest.mark.parametrize(
    "question", ["brp lama wajib simpan dokumen?", "batas waktunya kapan?", "jatuh temponya tgl brp?"]
)
def test_deadline_cues(question: str) -> None:
    assert cues(question).deadline


def test_words_that_only_start_like_a_cue_are_not_cues() -> None:
    assert not cues("tarifan jasa kurir").rate
    assert not cues("kapanpun boleh").deadline
