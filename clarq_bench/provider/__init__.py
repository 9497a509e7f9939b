"""The simulated provider: state shared by every provider, the offline provider and the LLM provider, and what a
provider name means (registry.py: one ProviderSpec per name; factory.py builds one for a task).

An agent beside seekers/: imports llm, data and core only; never seekers, scoring, play or anything above.
"""

from .base import Provider, ProviderState, ProviderTurn

__all__ = ["Provider", "ProviderState", "ProviderTurn"]
