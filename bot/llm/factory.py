"""``make_model(settings)``: the configured model of the agent loop.

``composer`` = ``extractive`` (default: offline, deterministic), ``bedrock`` (strands ``BedrockModel`` over
boto3; model id from ``llm_model``) or ``openai`` (any OpenAI-compatible endpoint: ``llm_base_url``,
``llm_model``, ``llm_api_key``).  Provider modules are imported lazily so the default needs neither boto3
nor network.
"""

from __future__ import annotations

from typing import Any

from strands.models import Model

from bot.llm.errors import LlmConfigError


def make_model(settings: Any) -> Model:
    """Build the model for ``settings.composer``.

    Raises:
        LlmConfigError: unknown composer or missing model id / base URL.
    """
    kind = getattr(settings, "composer", "extractive")
    if kind == "extractive":
        from bot.llm.extractive import ExtractiveModel

        return ExtractiveModel()
    if kind == "bedrock":
        if not settings.llm_model:
            raise LlmConfigError(
                "composer=bedrock needs DASAR_LLM_MODEL (a Bedrock model or inference profile id)"
            )
        from strands.models.bedrock import BedrockModel

        return BedrockModel(model_id=settings.llm_model, temperature=0.0)
    if kind == "openai":
        from bot.llm.openai_compat import OpenAICompatModel

        key = settings.llm_api_key.get_secret_value() if settings.llm_api_key else None
        return OpenAICompatModel(
            model_id=settings.llm_model or "", base_url=settings.llm_base_url or "", api_key=key
        )
    raise LlmConfigError(f"unknown composer {kind!r}; use extractive, bedrock or openai")
