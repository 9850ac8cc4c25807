"""Lexical evidence for the re-rank: how much of the question a passage covers, and in what order.

BM25 over an OR query rewards a passage for repeating one rare term as much as for matching every
term of the question, and it is blind to word order.  Regulations are full of near-identical
passages (ayat (2) and ayat (4) of one Pasal share most of their words), so the passage that
answers is usually the one that covers *all* the question's concepts and repeats its phrases
("kategori tarif efektif bulanan", "Pajak Keluaran lebih besar daripada Pajak Masukan").

Two deterministic features, both in [0, 1]:

* ``coverage``: the share of the question's concepts found in the passage.  A concept is a content
  word of the question, or one reviewed alias entry (any of its surface forms counts, so "VAT
  invoice" is covered by "faktur pajak");
* ``phrases``: adjacent content-word pairs of the question found adjacent in the passage, capped.

They are computed from the passage's own text (an internal section keeps its "## Facts" heading
line), never from the retrieval prefix of document titles, which every passage of a document shares.
"""

from __future__ import annotations

import functools
import itertools
import re
from dataclasses import dataclass

from kb.query import FRAME_WORDS, STOPWORDS, QueryPlan, tokenize

_PHRASE_CAP = 3
#: a one-character token counts only when it is a number ("PPh 4 ayat 2" keeps "4")
_NUMBERISH = re.compile(r"\d+")


@dataclass(frozen=True)
class Concepts:
    """The question side, built once per search."""

    groups: tuple[tuple[tuple[str, ...], ...], ...]  # each concept: its surface forms as token tuples
    pairs: tuple[tuple[str, str], ...]  # adjacent content-word pairs of the question

    @classmethod
    def of(cls, plan: QueryPlan) -> Concepts:
        ref_tokens = {t for ref in plan.doc_refs for t in tokenize(ref)}
        tokens = tokenize(plan.text)
        covered_by_alias: set[str] = set()
        groups: list[tuple[tuple[str, ...], ...]] = []
        for exp in plan.expansions:
            surface = tuple(tokenize(exp.term))
            forms = {surface, *(tuple(tokenize(a)) for a in exp.added)}
            forms.discard(())
            if surface and all(t in ref_tokens for t in surface):
                continue  # the alias of a named document ("PMK 168/2023" -> "peraturan menteri keuangan")
            covered_by_alias.update(surface)
            groups.append(tuple(sorted(forms)))
        seen: set[str] = set()
        for tok in tokens:
            if (
                tok in STOPWORDS
                or tok in FRAME_WORDS
                or tok in covered_by_alias
                or tok in ref_tokens
                or tok in seen
            ):
                continue
            if len(tok) < 2 and not _NUMBERISH.fullmatch(tok):
                continue
            seen.add(tok)
            groups.append(((tok,),))
        pairs = tuple(
            dict.fromkeys(
                (a, b)
                for a, b in itertools.pairwise(tokens)
                if not {a, b} & (STOPWORDS | FRAME_WORDS | ref_tokens)
            )
        )
        return cls(tuple(groups), pairs)


@functools.lru_cache(maxsize=4096)  # ~20 searches of candidates; bounded memory in a long-running bot
def _passage(text: str) -> tuple[frozenset[str], frozenset[tuple[str, str]], str]:
    tokens = tokenize(text)
    return frozenset(tokens), frozenset(itertools.pairwise(tokens)), " " + " ".join(tokens) + " "


def _has(form: tuple[str, ...], words: frozenset[str], joined: str) -> bool:
    if len(form) == 1:
        return form[0] in words
    return all(t in words for t in form) and (" " + " ".join(form) + " ") in joined


def evidence(concepts: Concepts, text: str) -> tuple[float, float]:
    """``(coverage, phrases)`` of one passage, each in [0, 1]."""
    if not concepts.groups:
        return 0.0, 0.0
    words, bigrams, joined = _passage(text)
    covered = sum(1 for forms in concepts.groups if any(_has(f, words, joined) for f in forms))
    phrases = sum(1 for p in concepts.pairs if p in bigrams)
    return covered / len(concepts.groups), min(phrases, _PHRASE_CAP) / _PHRASE_CAP
