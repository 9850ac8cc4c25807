"""What the extractive composer was asked, for measurement scripts that study its choice.

``scripts/fit_lead.py`` and ``bench/gold_funnel.py`` both need the passages retrieval handed the composer for
each question and which of them it found relevant; recording them here, around the unchanged composer, keeps
one way of doing it (and one restore of the patched method).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from bot.answer.extractive import ExtractiveComposer, question_concepts
from bot.answer.protocol import ComposeRequest
from kb.model import Hit

#: one composer call: the request and the relevant hits (with their coverage) the composer chose among
Call = tuple[ComposeRequest, list[tuple[Hit, float]]]


@contextlib.contextmanager
def composer_calls() -> Iterator[list[Call]]:
    """Every :class:`ExtractiveComposer` call made inside the block, in order (clear the list between
    questions); the composer's own behaviour is unchanged."""
    calls: list[Call] = []
    original = ExtractiveComposer.compose

    def recording(self: ExtractiveComposer, request: ComposeRequest) -> Any:
        calls.append((request, self.relevant_hits(request, question_concepts(request))))
        return original(self, request)

    ExtractiveComposer.compose = recording  # type: ignore[method-assign]
    try:
        yield calls
    finally:
        ExtractiveComposer.compose = original  # type: ignore[method-assign]
