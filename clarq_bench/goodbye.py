"""When does a seeker turn end the dialogue? One rule, shared by the dialogue loop and the judge.

English: "goodbye", "good-bye" or "good bye", in any case, as a whole word: "Goodbye!", "GOODBYE.", "ok...goodbye",
"谢谢goodbye" count; "goodbyes", "goodbyeing", "goodbye-party", "say-goodbye" do not. Word boundaries are ASCII
letters, digits, "_" and "-" (not Python's Unicode \\w, under which a Chinese character next to the word would
hide it). Chinese: 再见 / 再見 (or 再会 / 再會), except in 再见到 / 再见面 / 再见过 ("see again"). Plain "bye" does
not end a dialogue. Both languages are checked whatever the task language.

The released code looked for "Goodbye" case-sensitively (missing "goodbye", "GOODBYE", "good-bye") and for 再见
only (missing 再見 and 再会).
"""

from __future__ import annotations

import re

ENGLISH_GOODBYE = re.compile(r"(?<![A-Za-z0-9_-])good(?:\s*-\s*|\s+)?bye(?![A-Za-z0-9_-])", re.IGNORECASE)
CHINESE_GOODBYE = re.compile(r"再[见見会會](?![到面过過])")


def is_goodbye(text: str) -> bool:
    """Does this seeker turn say goodbye (and so end the dialogue)? See the module docstring for the rule."""
    return bool(ENGLISH_GOODBYE.search(text) or CHINESE_GOODBYE.search(text))
