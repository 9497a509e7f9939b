"""Does an utterance carry a tree node's text? The released judge's deterministic rule, shared by the judge,
the provider replay and submission checks.

Rule (REFERENCE.md): compare after normalising (speaker prefix stripped, English lower-cased): equal, or the node
text without trailing punctuation `，。？！,.?!` occurs inside the utterance.
"""

from __future__ import annotations

from .loader import strip_speaker

TRAILING_PUNCTUATION = "，。？！,.?!"


def normalise(text: str, language: str) -> str:
    text = strip_speaker(text)
    return text.lower() if language == "en" else text


def carries_node(utterance: str, node_text: str, language: str) -> bool:
    """True when `utterance` holds `node_text` exactly or as a substring (trailing punctuation ignored)."""
    said = normalise(utterance, language)
    gold = normalise(node_text, language)
    if said == gold:
        return True
    core = gold.rstrip(TRAILING_PUNCTUATION).strip()
    return bool(core) and core in said
