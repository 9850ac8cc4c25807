"""Errors of the answer-verification gates.

Gate *failures* (a quote that does not match, a figure without basis) are not exceptions: they are
data (:class:`~guardrails.verify.records.GateFailure`) reported on every claim, because the caller
must show the user which claims were withheld and why.  Exceptions are reserved for programming or
configuration mistakes that make verification itself impossible, so a caller can never mistake a
broken verifier for a clean answer.

Hierarchy (under the package-wide :class:`guardrails.errors.GuardrailError`, so a caller can fail
closed with one ``except GuardrailError``)::

    GuardrailError                   guardrails.errors
     +-- VerifyError                 base of everything raised by guardrails.verify
          +-- InvalidInputError      claims/sources are malformed (wrong types, mapping key != SourceText.id)
          +-- JudgeError             a support judge broke its contract (bad verdict, score outside [0, 1])
               +-- JudgeConfigError  a pluggable judge could not be built from its configuration
"""

from __future__ import annotations

from guardrails.errors import GuardrailError


class VerifyError(GuardrailError):
    """Base class: verification could not be carried out; no claim of the answer may be shown."""


class InvalidInputError(VerifyError, ValueError):
    """The claims or sources handed to the gates are malformed.

    The message names the offending claim/source id so the caller can fix the resolver that built them.
    """


class JudgeError(VerifyError):
    """A support judge returned something outside its contract (unknown verdict, score outside [0, 1])."""


class JudgeConfigError(JudgeError):
    """A pluggable judge (e.g. an NLI model named in configuration) could not be loaded."""
