"""Seekers: the systems under test, their protocol and registry, and the shipped baselines.

Importing this package is cheap: shipped seekers are registered lazily and imported when first built. An agent
beside provider/: imports llm, data and core only; a seeker never sees the tree, the provider, or the judge.
"""

from .base import DialogueView, Seeker
from .registry import SeekerConfig, SeekerTask, build_seeker, register_seeker, seekers

__all__ = ["DialogueView", "Seeker", "SeekerConfig", "SeekerTask", "build_seeker", "register_seeker", "seekers"]
