"""Who, where, when and how a reply of Jax's leaves open, for the rule-based seeker: the persons it names and whether
they are placed, the places of a named one ("its lair"), an agreed time not said, an entry that is closed, and the
steps of an instruction. Like phrasing.py (which words the questions), it reads the dialogue only, never the tree.
"""

from __future__ import annotations

import re

from .phrasing import lower_first

#: A person named in an English reply: capitalised words inside a sentence ("find Henry", "Professor Henry").
_EN_PERSON = re.compile(
    r"(?<=[a-z,] )(?<!\bthe )(?<!\ban )(?<!\ba )"
    r"((?:(?:Professor|Prof|Mr|Mrs|Ms|Dr|Captain|Chief|Uncle|Aunt|Sir|Lady|Master|Wizard|Father|Mother|"
    r"Brother|Sister|Elder|Priest|General|Officer|Doctor|Miss|Madam|Prince|Princess|King|Queen)\.? )?"
    r"[A-Z][a-z]+)\b(?!\s+[A-Z]|-)"
)
_EN_PLACED = re.compile(
    r"^\W*(?:is|are|was|works?|lives?|stays?|waits?|will be)?\s*(?:at|in|inside|on|near)\b"
    r"(?!\s+(?:the\s+|an?\s+)?(?:[a-z]+\s+)?(?:time|moment|hour|noon|night|dawn|dusk|o'clock)\b)",
    re.I,
)  # ("at the agreed time" says when, not where)
#: (zh) someone to find or meet: 找到亨利, 见露西, 把宝石交给乔治.
_ZH_PERSON = re.compile(
    r"(?<![在到里])(?:找到|找|见到|拜访|交给|遇到)(?![到回他她它])([\u4e00-\u9fff]{2,3}?)"
    r"(?=[，。；,.！]|$|[他她拿买要报购交换学借领])"
)
_TITLES = {
    "Professor",
    "Prof",
    "Mr",
    "Mrs",
    "Ms",
    "Dr",
    "Captain",
    "Chief",
    "Uncle",
    "Aunt",
    "Sir",
    "Lady",
    "Master",
    "Wizard",
    "Father",
    "Mother",
    "Brother",
    "Sister",
    "Elder",
    "Priest",
    "General",
    "Officer",
    "Doctor",
    "Miss",
    "Madam",
    "Prince",
    "Princess",
    "King",
    "Queen",
}
_ZH_PLACED = re.compile(r"^[^，。；,.]{0,3}(?:在|位于)")


def placed(reply: str, name: str, language: str) -> bool:
    """Does the reply say where `name` is ("Henry is at the Mystic Tavern", "find Henry at the tavern",
    "在旅行者酒馆找到士兵")?"""
    for match in re.finditer(re.escape(name), reply):
        if language == "en" and _EN_PLACED.match(reply[match.end() :]):
            return True
        if language != "en" and (
            _ZH_PLACED.match(reply[match.end() :]) or "在" in re.split(r"[，。；,.！？]", reply[: match.start()])[-1]
        ):
            return True
    return False


def persons(reply: str, language: str, known: str) -> list[tuple[int, str]]:
    """(position, name) of the people a reply sends the seeker to without saying where they are ("Find Henry and
    trade with him"; not "Henry is at the tavern", not a name of the brief's `known` text)."""
    found = []
    for match in (_EN_PERSON if language == "en" else _ZH_PERSON).finditer(reply):
        name = match.group(1)
        if name.lower() in known.lower() or name in ("Jax", "I") or name in _TITLES or placed(reply, name, language):
            continue
        if language == "en" and re.search(r"[a-z,]\s+[A-Z][\w']*\s+$", reply[: match.start()]):
            continue  # the second word of a capitalised name ("Mystic Tavern")
        found.append((match.start(), name))
    return found


#: An agreed time the reply leaves open ("at the agreed time", "约定的时间").
_TIME = {
    "en": re.compile(
        r"\b(?:agreed|appointed|arranged|specified|certain|specific|set)\s+(?:trading\s+)?time\b", re.IGNORECASE
    ),
    "zh": re.compile(r"(?:约定|约好|指定|特定|规定)的?(?:交易)?时间"),
}


#: A place the reply names by whose it is, not where ("find it at its habitat", "去它的栖息地找到它").
_WHOSE_PLACE = {
    "en": re.compile(
        r"\b(?:its|his|her|their)\s+(habitat|lair|nest|den|hideout|home|base|camp|hiding place)\b", re.IGNORECASE
    ),
    "zh": re.compile(r"(?:它|他|她|它们|他们)的(栖息地|巢穴|住处|老巢|藏身处|据点|营地|家)"),
}


def whose_places(reply: str, language: str) -> list[tuple[int, str]]:
    """(position, place) of every place a reply names only by whose it is: an attentive listener asks where."""
    return [(m.start(), m.group(1).lower()) for m in _WHOSE_PLACE[language].finditer(reply)]


def open_time(reply: str, language: str) -> int | None:
    """Where a reply speaks of a time it does not give, or None."""
    match = _TIME[language].search(reply)
    return match.start() if match else None


#: A note that keeps you out of a place ("entry requires a permit", "won't let you in", "No Outsiders Allowed"): what
#: a person asks about it is how to get in.
ENTRY = {
    "en": re.compile(r"\b(?:entry|enter|entering|let you in|outsiders|locked|closed|access|admission)\b", re.I),
    "zh": re.compile(r"进入|进去|入内|让你进|外人|靠近|锁"),
}


#: A clause of an English reply that opens with one of these is no instruction ("it burns", "you will need").
#: Verbs an instruction opens with ("Find the atlas", "refill the lamp"): a clause that opens with another word is a
#: statement ("sea air rusts a steel valve"), which no rule can tell from an instruction by its first word alone.
_STEP_VERBS = frozenset(
    "go find get take bring buy put fit fill refill climb use give offer check load cross hang write build paint "
    "replace seal sound sell let sign trace light polish ask talk speak visit travel walk enter open pick collect "
    "carry make cook prepare set place meet pay show read send deliver return fetch follow search look wait keep "
    "choose select call tell cut dig fix repair install connect test measure mix add clean wash plant water feed "
    "catch defeat fight protect hide ride drive row sail lift move push pull turn press hold throw borrow rent hire "
    "gather harvest store wrap pack cover mark record report register apply fill prepare lead guide escort".split()
)
#: A step is asked in a few words of its own ("find Henry", not "find Henry at the tavern at the agreed time"): a
#: person asks what to do, and never quotes Jax's sentence back.
STEP_WORDS = 4
_STEP_END = re.compile(
    r"\s+(?:to|in|at|with|before|after|onto|into|from|on|by|until|so|because|which|that|where|when)\s+", re.IGNORECASE
)
_CLAUSE_CUT = re.compile(r"\s*(?:[,;:]|\band then\b|\bthen\b|\band\b)\s*", re.IGNORECASE)
_EN_SENTENCE = re.compile(r"[^.!?]+")


def steps(reply: str, language: str) -> list[tuple[int, str]]:
    """(position, clause) of every instruction an English reply gives ("Climb up to its lamp room, put in a new wick,
    refill the lamp": three steps), for asking how to do one a person is unsure of. Chinese: none (its instructions
    carry no mark a rule can read without a parser)."""
    if language != "en":
        return []
    found: list[tuple[int, str]] = []
    for sentence in _EN_SENTENCE.finditer(reply):
        start = sentence.start()
        for clause in _CLAUSE_CUT.split(sentence.group(0)):
            words = clause.split()
            if len(words) < 2 or words[0].lower() not in _STEP_VERBS:
                continue
            if words[0][0].isupper() and not sentence.group(0).lstrip().startswith(clause.strip()):
                continue  # a capitalised word inside a sentence is a name, not an instruction
            short = " ".join(_STEP_END.split(clause.strip(), maxsplit=1)[0].split()[:STEP_WORDS])
            if len(short.split()) < 2:
                continue  # "put", "go": what remains says nothing to ask about
            found.append((start + max(0, sentence.group(0).find(clause)), lower_first(short, language)))
    return found
