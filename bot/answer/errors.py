"""Errors of the answer pipeline (one tree for ``bot.answer``)::

AnswerError                 base: anything the answer pipeline refuses to do
├── AnswerConfigError       a reviewed YAML file (clarify.yaml, scope.yaml) is missing or invalid;
│                           the message names the file and the entry to fix
└── ComposerError           a composer broke its contract (wrong types, out-of-range self-assessment)
"""

from __future__ import annotations


class AnswerError(Exception):
    """Base class of every error raised by ``bot.answer``."""


class AnswerConfigError(AnswerError):
    """A reviewed data file is invalid: says which file, which entry and what to change."""

    def __init__(self, path: str, message: str, *, entry: str | None = None) -> None:
        where = f"{path}" + (f" (entry {entry!r})" if entry else "")
        super().__init__(f"{where}: {message}")
        self.path = path
        self.entry = entry


class ComposerError(AnswerError):
    """A composer returned something that is not a ``ComposedAnswer`` of ``DraftClaim``s."""
