"""Errors of the model providers (``bot.llm``)::

LlmError
├── LlmConfigError       settings do not describe a usable model (missing model id / base URL)
├── ScriptExhausted      a ScriptedModel was asked for more turns than its script has (test bug)
└── LlmResponseError     an OpenAI-compatible endpoint answered with an error or malformed JSON
"""

from __future__ import annotations


class LlmError(Exception):
    """Base of every error raised by :mod:`bot.llm`."""


class LlmConfigError(LlmError):
    """The composer settings are incomplete; set DASAR_LLM_MODEL / DASAR_LLM_BASE_URL as the message says."""


class ScriptExhausted(LlmError):
    """The scripted model has no more messages; add one to the script."""


class LlmResponseError(LlmError):
    """The model endpoint failed or answered something that is not a chat completion."""
