"""The simulated provider: state shared by every provider, the offline provider and the LLM provider."""

from .base import Provider, ProviderState, ProviderTurn

__all__ = ["Provider", "ProviderState", "ProviderTurn"]
