"""The ranker's question cues read chat Indonesian: "tarifnya brp?" asks a rate as much as "berapa tarif?",
"brp lama" a length of time (the cue was 0 for them, so a rate passage got no lift for a chatty question)."""

from __future__ import annotations

import pytest

from kb.retrieve import _DEADLINE_Q, _RATE_Q


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
    assert _RATE_Q.search(question)


@pytest.mark.parametrize(
    "question", ["brp lama wajib simpan dokumen?", "batas waktunya kapan?", "jatuh temponya tgl brp?"]
)
def test_deadline_cues(question: str) -> None:
    assert _DEADLINE_Q.search(question)


def test_words_that_only_start_like_a_cue_are_not_cues() -> None:
    assert not _RATE_Q.search("tarifan jasa kurir")
    assert not _DEADLINE_Q.search("kapanpun boleh")
