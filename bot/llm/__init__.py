"""Model providers for the per-turn strands agent.

* ``extractive``    ExtractiveModel -- default, offline, deterministic search-then-quote "model"
* ``scripted``      ScriptedModel -- replays scripted assistant messages (tests, attack scripts)
* ``openai_compat`` OpenAICompatModel -- any OpenAI-compatible chat-completions endpoint over httpx
* ``factory``       make_model(settings): extractive | bedrock (strands BedrockModel, boto3) | openai
* ``events``        whole assistant message -> strands stream events
* ``errors``        LlmError hierarchy
"""

from bot.llm.errors import LlmConfigError, LlmError, LlmResponseError, ScriptExhausted
from bot.llm.extractive import ExtractiveModel
from bot.llm.factory import make_model
from bot.llm.scripted import ScriptedCall, ScriptedModel, claims_message, text_message, tool_call

__all__ = [
    "ExtractiveModel",
    "LlmConfigError",
    "LlmError",
    "LlmResponseError",
    "ScriptExhausted",
    "ScriptedCall",
    "ScriptedModel",
    "claims_message",
    "make_model",
    "text_message",
    "tool_call",
]
