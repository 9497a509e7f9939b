"""Response II wording for the offline provider, rendered from prompts/provider/offline_*.<lang>.md.

Templates never hold node text. The only node text a Response II may carry is the repeat reply's `{previous}`,
which is always a node the seeker already received (revealed earlier or the root), so nothing unrevealed leaks.
"""

from __future__ import annotations

from ..core import prompts
from ..core.transcript import Intent

#: Which template answers which intent when no node is revealed.
TEMPLATES = {
    Intent.confirm_task: "provider/offline_positive",
    Intent.unanswerable: "provider/offline_reassure",
    Intent.vague: "provider/offline_reassure",
    Intent.unrelated: "provider/offline_unrelated",
}


def language_of(language: str) -> str:
    return "zh" if language == "zh" else "en"


def off_topic(language: str) -> str:
    """Before the root: the seeker's turn was not about the task."""
    return prompts.render("provider/offline_off_topic", language_of(language))


def enough(language: str) -> str:
    """The frontier is empty: everything required was already said."""
    return prompts.render("provider/offline_enough", language_of(language))


#: Replies to screened turns (screen.py) that ask for one specific question / for the task's language.
SCREEN_TEMPLATES = {
    "too_long": "provider/screen_one_question",
    "spray": "provider/screen_one_question",
    "instruction": "provider/screen_one_question",
    "names_only": "provider/screen_what_exactly",
    "bare_frame": "provider/screen_what_exactly",
    "one_at_a_time": "provider/screen_one_at_a_time",
    "other_language": "provider/screen_language",
}


def response_ii(intent: Intent, language: str, previous: str | None = None, screen: object = None) -> str:
    """The generated reply for a turn no frontier node answers; `previous` is an already-given text (intent 4);
    `screen` is the screen verdict of a turn read before matching (screen.Verdict), if any."""
    template = SCREEN_TEMPLATES.get(str(getattr(screen, "value", screen)))
    if template:
        return prompts.render(template, language_of(language))
    if intent == Intent.repeat:
        if previous:
            return prompts.render("provider/offline_repeat", language_of(language), previous=previous)
        return prompts.render("provider/offline_repeat_generic", language_of(language))
    return prompts.render(TEMPLATES.get(intent, "provider/offline_reassure"), language_of(language))


def join_nodes(texts: list[str], language: str) -> str:
    """Several node sentences as one reply, each kept intact (multi-info Response I)."""
    return ("" if language == "zh" else " ").join(text.strip() for text in texts)
