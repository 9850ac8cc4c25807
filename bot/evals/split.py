"""Tuning / check halves of the repository's own eval sets (issue 10 item 5, issue 12).

Anything fitted on ``eval/`` (the learned re-rank of ``kb.rank``, the confidence calibration of
``bot.answer.confidence``) is fitted on the *tune* half only; the *check* half is reported next to it
and never read by a fit.  The side of an item is a pure function of its id, so the split is the same
on every machine and never changes when items are added:

    side(id) = "tune" if sha256(id)[0] is even else "check"

The answer set repeats many retrieval questions (often with a reworded tail), so an answer item whose
question is a near-duplicate of a retrieval question takes that retrieval item's side: otherwise a
ranker fitted on a tuning question would be "checked" on the same question asked again.
Outside sets (``../shared/eval/realworld``) are never split: they are never fitted on.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from typing import Literal

Side = Literal["tune", "check"]
SPLITS = ("all", "tune", "check")
#: token-set Jaccard at or above which two questions count as the same question
NEAR_DUPLICATE = 0.6


def id_side(item_id: str) -> Side:
    """The half an item belongs to, from its id alone."""
    return "tune" if hashlib.sha256(item_id.encode("utf-8")).digest()[0] % 2 == 0 else "check"


def _tokens(text: str) -> frozenset[str]:
    from kb.query import tokenize

    return frozenset(tokenize(text))


def jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    return len(a & b) / len(a | b) if a | b else 0.0


def sides(items: Sequence[tuple[str, str]], anchors: Iterable[tuple[str, str]] = ()) -> dict[str, Side]:
    """``{id: side}`` for ``(id, question)`` items.

    ``anchors`` are ``(id, question)`` pairs of another set whose split wins for near-duplicates (the
    retrieval set when splitting the answer set).
    """
    anchor_toks = [(aid, _tokens(q)) for aid, q in anchors]
    out: dict[str, Side] = {}
    for item_id, question in items:
        toks = _tokens(question)
        best: tuple[float, str] | None = None
        for aid, at in anchor_toks:
            j = jaccard(toks, at)
            if j >= NEAR_DUPLICATE and (best is None or j > best[0]):
                best = (j, aid)
        out[item_id] = id_side(best[1]) if best else id_side(item_id)
    return out


def keep(side: Side, split: str) -> bool:
    """Whether an item of ``side`` is in the requested ``split`` ("all", "tune" or "check")."""
    if split not in SPLITS:
        raise ValueError(f"unknown split {split!r} (use one of {', '.join(SPLITS)})")
    return split == "all" or side == split
