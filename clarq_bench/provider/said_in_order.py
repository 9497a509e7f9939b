"""(zh) Does a question say the very question a node's explanation says the seeker asks (R107)?

Why apart: the explanation's own question ("仅当对方询问羊在哪里") is matched character by character, in order, with a
little room for words a person puts inside it ("羊现在在哪里"); the focus reading only asks whether it is said.
"""

from __future__ import annotations

#: Characters a question may put inside the explanation's own question ("羊现在在哪里" says "羊在哪里").
SAID_GAP = 3


def says_in_order(piece: str, text: str) -> bool:
    """Does `text` say `piece` in order, with at most SAID_GAP other characters between its first and last one?"""
    start = text.find(piece[0])
    while start >= 0:
        position, found = start, True
        for char in piece[1:]:
            position = text.find(char, position + 1)
            if position < 0 or position - start + 1 > len(piece) + SAID_GAP:
                found = False
                break
        if found:
            return True
        start = text.find(piece[0], start + 1)
    return False
