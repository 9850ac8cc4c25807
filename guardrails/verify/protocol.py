"""The support-judge contract: does a passage support a claim?

The mechanical gates prove that a quote is real and that figures are copied correctly; they cannot
tell whether the claim *means* what the passage says.  That judgement is pluggable: a deterministic
lexical judge ships as the default (:mod:`guardrails.verify.lexical`), and an NLI model can be
plugged in through :class:`guardrails.verify.nli.NliSupportJudge` without changing the gates.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from guardrails.verify.records import JudgeResult


@runtime_checkable
class SupportJudge(Protocol):
    """Decides whether ``passage`` entails, fails to support, or contradicts ``claim``.

    Implementations must be deterministic for the same inputs and return a score in [0, 1].
    """

    def judge(self, claim: str, passage: str) -> JudgeResult:
        """Judge one claim against one passage (plain strings)."""
        ...
