"""clarq's version: recorded in every run folder and submission, and read by packaging (pyproject.toml)."""

__version__ = "0.1.0"
