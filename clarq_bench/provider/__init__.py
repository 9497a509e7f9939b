"""The simulated provider: state shared by every provider (base), the turn rules both providers use (screen, focus,
answering, intents, lexical: the text matcher, replies), the offline provider (offline/), the LLM provider, and what
a provider name means (registry.py: one ProviderSpec per name; factory.py builds one for a task).

An agent beside seekers/: imports llm, data and core only; never seekers, scoring, runner or anything above. It plays
one side of one dialogue: it does not run dialogues, read run folders or parse options.
"""

from .base import Provider, ProviderState, ProviderTurn

__all__ = ["Provider", "ProviderState", "ProviderTurn"]
