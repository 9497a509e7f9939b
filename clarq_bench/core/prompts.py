"""Prompt and reply templates: the one door to the wording kept under `prompts/`.

Every piece of wording a model or a rule-based agent says lives in `prompts/<name>.<lang>.md` (one file per prompt
and language), never in module constants, so wording can be reviewed and translated without touching code.
Templates use str.format-style `{placeholders}`; a missing template is a ClarqError naming the file.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from .errors import ClarqError
from .resources import shipped

#: prompts/: inside the installed package (a wheel), else at the top of the source checkout (core/resources.py).
PROMPT_ROOT = shipped("prompts")


def template_path(name: str, language: str) -> Path:
    """Where the template `name` (e.g. `provider/offline_positive`) for `language` lives."""
    return PROMPT_ROOT / f"{name}.{language}.md"


@lru_cache(maxsize=256)
def load(name: str, language: str) -> str:
    """The template text (trailing newline removed). Raises ClarqError when the file is missing."""
    path = template_path(name, language)
    try:
        return path.read_text(encoding="utf-8").rstrip("\n")
    except FileNotFoundError:
        raise ClarqError(
            f"missing prompt template {name!r} for language {language!r} ({path})",
            "reinstall clarq (the wheel carries prompts/) or add the template file",
        ) from None


def render(name: str, language: str, **variables: object) -> str:
    """The template filled with `variables` (str.format). A placeholder without a value is a ClarqError."""
    text = load(name, language)
    try:
        return text.format(**variables)
    except (KeyError, IndexError) as exc:
        raise ClarqError(f"prompt template {name!r} ({language}) needs a value for {exc}") from None
