"""Test doubles for the LLM layer: a scripted model (no HTTP) and a fake OpenAI-compatible server on 127.0.0.1.

Standard library only, so importing them costs nothing; later issues' tests use both. Below llm (which routes
`scripted/...` models here); imports core only.
"""

from .fake_openai import Behaviour, FakeOpenAIServer, error, estimate_tokens, garbage, reply
from .scripted import ScriptedModel, ScriptExhausted

__all__ = [
    "Behaviour",
    "FakeOpenAIServer",
    "ScriptExhausted",
    "ScriptedModel",
    "error",
    "estimate_tokens",
    "garbage",
    "reply",
]
