"""Errors raised by the inbound guardrails.

Guardrails sit in front of every model call, so a failure here must stop the turn loudly rather than
let unmasked text through. Everything derives from one base so callers can fail closed with a single
``except GuardrailError``.

Hierarchy::

    GuardrailError
    +-- RecognizerConfigError   the recognizer data table (recognizers.yaml) is malformed
    +-- PiiEngineError          the offline presidio engine could not be built
"""

from __future__ import annotations


class GuardrailError(Exception):
    """Base class of every guardrail failure; catch it to fail closed."""


class RecognizerConfigError(GuardrailError):
    """The recognizer table is malformed (unknown validator, bad regex, missing field).

    The message names the recognizer and the field so the table can be fixed directly.
    """


class PiiEngineError(GuardrailError):
    """The offline presidio analyzer could not be built (e.g. spaCy language data missing).

    Masking cannot run without it, so the turn must be refused rather than sent unmasked.
    """
