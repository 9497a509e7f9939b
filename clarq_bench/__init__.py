"""clarq: a benchmark of how well language-model agents ask clarification questions.

Importing the package is cheap on purpose: heavy modules (litellm, numpy, matplotlib) load only where used.
"""

__version__ = "0.1.0"
