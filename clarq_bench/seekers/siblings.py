"""Things said together: what a person asks next when Jax settles a choice for one of them.

Why: a reply such as "Garlic is only sold at ABC" settles the supermarket for the garlic, and the garlic was one of
"the garlic and onion" of Jax's first reply; a person then asks "And which supermarket for the onion?". The reader
here finds, in a text, the things coordinated with a given word ("A and B", "A, B and C"; "A和B", "A、B"), each as
the words of its run. It reads text only, never the tree.
"""

from __future__ import annotations

import re
from functools import lru_cache

from .phrasing import content_terms

#: Words that end a run of an English thing backwards or forwards (articles, prepositions, pronouns, verbs of steps).
_EN_STOP = frozenset(
    "a an the to in at on of for from with by into onto and or but then after before you your it its them they is are "
    "be can will need needs should must buy get put use cook make take go this that these those some any all".split()
)
_EN_WORD = re.compile(r"[A-Za-z][\w'-]*|[,;:.!?]")
#: Chinese joints of a list and the characters that end a thing's run (verbs and particles around it).
_ZH_LIST = re.compile(r"[\u4e00-\u9fff]{1,8}(?:(?:和|与|及|、)[\u4e00-\u9fff]{1,8})+")
_ZH_JOINT = re.compile(r"和|与|及|、")
_ZH_EDGE = frozenset("把将用在的了给从到去买放加是有要需对向往跟让被先再然后并且还就才能可会也都呢吧吗")
_RUN = 4  # at most this many words make one thing
_ZH_RUN = 6  # (characters in Chinese)
_EN_ARTICLE = frozenset({"a", "an", "the"})


def coordinated(text: str, term: str, language: str) -> list[str]:
    """The things said in one list with a thing whose words hold `term` (a content term, as `content_terms` gives),
    in the order of the text; nothing when `term` is in no list."""
    lists = _zh_lists(text) if language != "en" else _en_lists(text)
    found: list[str] = []
    for items in lists:
        if any(term in content_terms(item, language) for item in items):
            found += [item for item in items if term not in content_terms(item, language) and item not in found]
    return found


#: (en) Words that make a run no thing: a person ("hand him") or a dangling preposition ("units within").
_EN_NOT_A_THING = frozenset({"him", "her", "them", "it", "us", "me", "within"})


def a_thing(words: str, verbs: frozenset[str], language: str) -> bool:
    """(en) Is the run a thing rather than a step: it opens with none of `verbs` (the first words of the brief's
    skills: "fry garlic" when a skill is "Fry garlic in oil") and holds no pronoun ("hand him")? Chinese runs are cut
    at verbs and particles already (_ZH_EDGE)."""
    if language != "en" or not words.split():
        return True
    lowered = words.lower().split()
    return lowered[0] not in verbs and _EN_NOT_A_THING.isdisjoint(lowered)


@lru_cache(maxsize=1024)
def _en_lists(text: str) -> tuple[tuple[str, ...], ...]:
    """Runs of words joined by "and" (and the commas before it), without the articles and verbs around them."""
    words = _EN_WORD.findall(text)
    lists: list[tuple[str, ...]] = []
    for index, word in enumerate(words):
        if word.lower() != "and":
            continue
        rest = words[index + 1 : index + 2 + _RUN]
        after = _run(rest[1:] if rest and rest[0].lower() in _EN_ARTICLE else rest)
        items = [after] if after else []
        at = index
        while True:
            before = _run(words[max(0, at - _RUN) : at][::-1])[::-1]  # (a window: long texts stay linear)
            if not before:
                break
            items.insert(0, before)
            at -= len(before)
            if at < 2 or words[at - 1] != ",":
                break
            at -= 1
        if len(items) > 1:
            lists.append(tuple(" ".join(item) for item in items))
    return tuple(lists)


def _run(words: list[str]) -> list[str]:
    run: list[str] = []
    for word in words[:_RUN]:
        if word.lower() in _EN_STOP or not word[0].isalnum():
            break
        run.append(word)
    return run


@lru_cache(maxsize=1024)
def _zh_lists(text: str) -> tuple[tuple[str, ...], ...]:
    lists = []
    for match in _ZH_LIST.finditer(text):
        pieces = _ZH_JOINT.split(match.group(0))
        first = pieces[0]
        cut = max((i + 1 for i, c in enumerate(first) if c in _ZH_EDGE), default=0)
        pieces[0] = first[cut:][-_ZH_RUN:]
        last = pieces[-1]
        end = next((i for i, c in enumerate(last) if c in _ZH_EDGE), len(last))
        pieces[-1] = last[:end][:_ZH_RUN]
        items = tuple(piece for piece in pieces if len(piece) >= 2)
        if len(items) > 1:
            lists.append(items)
    return tuple(lists)
