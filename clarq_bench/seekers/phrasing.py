"""How a rule-based seeker words things like a person: the opening request, which listed options are real
alternatives, which parenthesised notes are restrictions, what a reply left open, and when a choice was answered.

Why: the honest heuristic is the baseline every seeker is read against; "I am a Adventurer and I have to Train your
subordinates", a choice between a seed and the fruit it grows, or "How do I deal with this at Garlic: 50 grams?"
make it a straw man. Everything here reads the brief and the dialogue only (never the tree); the wording itself
stays in prompts/seeker/.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from functools import lru_cache

PARENTHESES = re.compile(r"\s*[(（]([^()（）]*)[)）]\s*")
EN_LEAD = re.compile(r"^(an?|the)\s+", re.IGNORECASE)
_EN_DETERMINER = re.compile(r"^(?:an?|the|my|your|his|her|our|their)\s", re.IGNORECASE)
#: A parenthesised note that restricts (needs, forbids, guards) rather than describes ("50 grams", "1st movement").
RESTRICTION = {
    "en": re.compile(
        r"\b(?:requires?|required|requirement|needs?|needed|must|only|cannot|can't|can not|locked|closed|"
        r"guard(?:s|ed)?|forbidden|prohibited|permit|license|licence|key|access|pass\b(?!\s+through)|"
        r"let you in|not allowed|outsiders|not selling|not open)",
        re.IGNORECASE,
    ),
    "zh": re.compile(
        r"需要|需|才能|才可|必须|只有|只能|无法|不能|锁|关闭|把守|守卫|禁止|许可|通行证|钥匙|不会让|不让|不许|"
        r"外人|看守|很难靠近|不对外"
    ),
}


def plain(entry: str) -> str:
    """A listed entry without its note and trailing full stop ("Play Autumn Sound on the flute." -> "... flute")."""
    return PARENTHESES.sub(" ", entry).strip().rstrip("。.").strip()


def lower_first(phrase: str, language: str) -> str:
    """ "Unleash fire magic" -> "unleash fire magic" in an English sentence; names ("Starlight Gem") and acronyms
    keep their capitals."""
    words = phrase.split()
    if (
        language != "en"
        or not words
        or len(words[0]) < 2
        or not words[0][1:].islower()
        or any(w[0].isupper() for w in words[1:])
    ):
        return phrase
    return phrase[0].lower() + phrase[1:]


def with_article(role: str) -> str:
    """ "adventurer" -> "an adventurer", "Adventurer" -> "an adventurer", "the messenger of King Beta" as it is."""
    role = lower_first(role.strip(), "en")
    if _EN_DETERMINER.match(role + " "):
        return role
    return ("an " if role[:1].lower() in "aeiou" else "a ") + role


def task_phrase(task_name: str) -> tuple[str, bool]:
    """(the task as the seeker says it, whether it is a verb phrase): "Train your subordinates" -> ("train my
    subordinates", True); "making a shady deal with Henry" and "air monitoring" are no verb phrases (they follow
    "my task is", not "I have to")."""
    text = lower_first(task_name.strip().rstrip("。.").strip(), "en")
    text = re.sub(r"\byour\b", "my", re.sub(r"\byourself\b", "myself", text))
    text = re.sub(r"\bYour\b", "My", text)
    words = text.split()
    if not words:
        return text, False
    first, last = words[0].lower(), words[-1].lower()
    gerund = first.endswith("ing") and len(first) > 4
    noun = len(words) <= 3 and last.endswith(("ing", "ion", "ment")) and not first.endswith("ing")
    return text, not (gerund or noun)


def _tail(name: str, language: str) -> str | None:
    if language != "en":
        return name[-2:]
    word = name.split()[-1].lower().rstrip("s")
    return None if any(c.isdigit() for c in word) else word


def _last_character(name: str, language: str) -> str | None:
    """(zh) A name's last character, where it is a word of its own: "碧峰山", "金川山" are both mountains."""
    return name[-1] if language == "zh" and len(name) >= 3 and "\u4e00" <= name[-1] <= "\u9fff" else None


def _head(name: str, language: str) -> str | None:
    """Two leading words (en: one shared verb is no shared kind: "Use a camera" / "Use the flute") or two leading
    characters (zh)."""
    if language != "en":
        return name[:2]
    words = EN_LEAD.sub("", name).lower().split()
    return " ".join(words[:2]) if len(words) > 2 else None


def option_groups(entries: tuple[str, ...], language: str) -> list[list[str]]:
    """Entries of one list (items, skills or scenes) that are real alternatives: grouped by a shared head noun (last
    word, en; last two characters, zh; numbers are no head), leftovers by two shared leading words (en) or characters
    (zh), then (zh) by a shared last character ("碧峰山", "金川山"). Left out: a name inside another ("energy fruit" /
    "energy fruit seeds" is a seed and what it grows), and an entry whose note names another of its group (a route
    through it, not an alternative to it). Groups of one are dropped."""
    notes = {plain(entry): " ".join(PARENTHESES.findall(entry)).lower() for entry in entries}
    left = [name for name in dict.fromkeys(plain(entry) for entry in entries) if name]
    groups: list[list[str]] = []
    for key in (_tail, _head, _last_character):
        by_key: dict[str, list[str]] = {}
        for name in left:
            found = key(name, language)
            if found:
                by_key.setdefault(found, []).append(name)
        if key is _tail and language == "en":  # "Tropical Rainforest" is a forest too
            for name in left:
                found = key(name, language)
                head = next(
                    (
                        h
                        for h in by_key
                        if len(by_key[h]) > 1 and found and found != h and len(h) >= 4 and found.endswith(h)
                    ),
                    None,
                )
                if head and found:
                    by_key[head].append(name)
                    by_key[found].remove(name)
        for group in by_key.values():
            group = [
                name
                for name in group
                if not any(
                    other != name and (other.lower() in name.lower() or other.lower() in notes.get(name, ""))
                    for other in group
                )
            ]
            if len(group) > 1:
                groups.append(group)
        used = {name for group in groups for name in group}
        left = [name for name in left if name not in used]
    return groups


def restrictions(entries: tuple[str, ...], language: str = "en") -> list[tuple[list[str], str]]:
    """(subjects, note) for every note that restricts; entries sharing one note are asked about together."""
    by_note: dict[str, list[str]] = {}
    for entry in entries:
        match = PARENTHESES.search(entry)
        note = match.group(1).strip() if match else ""
        if note and RESTRICTION[language].search(note):
            by_note.setdefault(note, []).append(plain(entry))
    return [(subjects, note) for note, subjects in by_note.items()]


def _stem(word: str) -> str:
    """ "batteries" -> "battery", "taverns" -> "tavern": enough for a reply's word to meet the brief's."""
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("ches", "shes", "sses", "xes")):
        return word[:-2]
    return word[:-1] if word.endswith("s") and not word.endswith("ss") and len(word) > 4 else word


def content_terms(text: str, language: str) -> set[str]:
    """Rough content words: lower-cased words of 4+ letters without their plural ending (en), or character pairs
    (zh)."""
    return set(_terms(text, language))


#: Each heuristic turn re-reads every earlier reply against every open choice: the same texts, many times over, in
#: every dialogue of a run. Memoised (pure functions of their text), so a reply is read once per run.
_CACHE = 1 << 16


@lru_cache(maxsize=_CACHE)
def _terms(text: str, language: str) -> frozenset[str]:
    if language == "en":
        return frozenset(_stem(word) for word in re.findall(r"[a-z]{4,}", text.lower()))
    chars = [c for c in text if "\u4e00" <= c <= "\u9fff"]
    return frozenset(a + b for a, b in itertools.pairwise(chars))


def _last_term(name: str, language: str) -> frozenset[str]:
    """The head noun's term ("tavern" of "Mystic Tavern", "酒馆" of "森林酒馆"), or nothing ("to dig")."""
    return _terms(name.split()[-1] if language == "en" and name.split() else name[-2:], language)


_SENTENCE_END = re.compile(r"(?<=[.!?。！？；;])\s*")


def answered_option(group: list[str], replies: list[str], language: str) -> str | None:
    """The option of `group` a reply already named, if any: one sentence of a reply holds every word that sets the
    option apart from the others of its group, and its head noun ("You can find Henry at the Mystic Tavern" names
    "Mystic Tavern"; "cross the forest" names no "Forest Tavern"; "dig with a small shovel" names "Summon the small
    shovel to dig")."""
    options = tuple(group)
    for reply in replies:
        named = _named_in(options, reply, language)
        if named is not None:
            return named
    return None


@lru_cache(maxsize=_CACHE)
def _named_in(group: tuple[str, ...], reply: str, language: str) -> str | None:
    """The option of `group` one reply names (see answered_option), or None."""
    said = reply.lower()
    whole = [name for name in group if (EN_LEAD.sub("", name) if language == "en" else name).lower() in said]
    if len(whole) == 1:  # the whole name, the one of its group ("A Y-shaped key is needed")
        return whole[0]
    terms = {name: _terms(name, language) for name in group}
    wanted = []  # per option: the words that set it apart, with its head noun (none when nothing sets it apart)
    for name in group:
        own = terms[name] - frozenset().union(*(terms[o] for o in group if o != name))
        wanted.append((name, own | _last_term(name, language) if own else None))
    for sentence in _SENTENCE_END.split(reply):
        words = _terms(sentence, language)
        for name, needed in wanted:
            if needed is not None and needed <= words:
                return name
    return None


_EN_OPEN = re.compile(
    r"\b(?:an?|some|the right|the correct|the proper|the appropriate|the required|the necessary|"
    r"the specific|a specific|a certain|a particular|the suitable|a suitable|one of the|[Oo]nly one|"
    r"(?<!\bthe )(?<!\ba )specific|(?<!\ba )certain)\s+"
    r"((?:[a-z-]+\s+){0,2}?[a-z-]{3,})(?=\s+(?:for|to|that|which|he|she|they|you|in|at|from|and|"
    r"with|of|on|is|are|was|will|can|has|so|because|but|or|as|when|before|after|if|then|by|"
    r"into|near|until)\b|[,.;!?]|$)"
)
_ZH_OPEN = re.compile(
    r"(?:一|某|哪)(?:个|颗|把|张|种|些|份|位|辆|件|块|条|本|台|座|家|间|样|枚|根|只|瓶)"
    r"([\u4e00-\u9fff]{1,5}?)(?=[用来去到给在的，。、；,.了和与是有就都会可能被要也还]|$)"
)
_VAGUE = {"specific", "certain", "particular", "right", "suitable", "special", "new", "good", "few", "little", "lot"}
#: Words of talk, not things of the task ("you are on the right track", "if something specific is still unclear").
_TALK = {
    "track",
    "unclear",
    "question",
    "questions",
    "information",
    "info",
    "detail",
    "details",
    "thing",
    "things",
    "is",
    "are",
    "was",
    "were",
    "be",
    "still",
    "way",
    "step",
    "steps",
    "bit",
    "idea",
    "answer",
    "moment",
    "while",
    "that",
    "this",
    "these",
    "those",
    "which",
    "what",
    "there",
    "here",
    "first",
    "second",
    "last",
    "other",
    "same",
    "different",
    "difficult",
    "sharp",
    "few",
    "much",
    "many",
}


def open_nouns(reply: str, language: str) -> list[str]:
    """Things a reply mentions without saying which ("a crystal", "the right batteries", "一颗晶石"): what an
    attentive listener asks about next (open_things, without where and how)."""
    return list(dict.fromkeys(noun for _, noun, _ in open_things(reply, language)))


def group_kind(group: list[str], language: str) -> str | None:
    """What the options of a group are, as a person would name them: the head noun they share ("tavern" of the
    Mystic / Forest Tavern), the characters they end with (zh: 酒馆, 山), or None (no shared head: "Cook with high
    heat" / "Cook with low heat")."""
    if language == "en":
        heads = {name.split()[-1].lower() for name in group if name.split()}
        head = min(heads, key=len)  # ("forest" of the Primeval Forest and the Tropical Rainforest)
        return head if all(h.endswith(head) for h in heads) and head.isalpha() and len(head) >= 3 else None
    suffix = ""  # the shared ending: two characters, longer only where every name keeps two of its own (东方山脉: 山脉)
    shortest = min(len(name) for name in group)
    while len(suffix) < shortest and len({name[-len(suffix) - 1 :] for name in group}) == 1:
        longer = group[0][-len(suffix) - 1 :]
        if len(longer) > 2 and shortest - len(longer) < 2:
            break
        suffix = longer
    suffix = suffix.rpartition("的")[2]  # "红色的木材": 木材; "X形状的宝箱钥匙": 宝箱钥匙
    return suffix if suffix and all("\u4e00" <= c <= "\u9fff" for c in suffix) else None


#: Words that make the shared head of skill names an object or an instrument ("Use an axe to chop wood"), not the
#: thing the names choose between.
_EN_LINKS = frozenset({"to", "for", "with", "into", "in", "on", "by", "from", "using", "and"})


def skill_kind(group: list[str], language: str) -> str | None:
    """The kind of a group of skills, where the names choose between kinds of one thing: they share their first words
    (the action) and their head noun, and differ only in the words just before it ("Cast fire magic" / "Cast earth
    magic": magic; "Simmer over high heat" / "... low heat": heat). Not where the words that differ hold a link
    ("Use an axe to chop wood": the wood is what is chopped, the choice is the tool), nor where the actions differ
    ("Planting watermelons" / "Fertilizing watermelons"); Chinese names carry no word breaks to read this by: None."""
    kind = group_kind(group, language)
    if language != "en" or kind is None:
        return None
    words = [name.lower().split() for name in group]
    prefix = _shared_lead(words)
    suffix = _shared_lead([w[::-1] for w in words])
    if prefix == 0 or any(len(w) <= prefix + suffix for w in words):  # the same action, own words, then the head
        return None
    after = [word for w in words for word in w[prefix:]]  # the own words and the head: no link among them
    return None if _EN_LINKS.intersection(after) else kind


def _shared_lead(lists: Sequence[Sequence[str]]) -> int:
    """How many first words (or characters) every list shares."""
    return next((i for i, words in enumerate(zip(*lists, strict=False)) if len(set(words)) > 1), min(map(len, lists)))


def short_options(group: list[str], kind: str | None, language: str) -> list[str]:
    """The options of a kind group by the words that set them apart, as a person says them once the kind is named
    ("Which tavern: Mystic or Forest?"): the words every option shares dropped, each keeping one of its own. English
    only (a Chinese name without its ending is no name); without a kind, or where two would read alike, the names."""
    if language != "en" or not kind or len(group) < 2:
        return group
    words = [name.split() for name in group]
    shared = set.intersection(*({word.lower() for word in name} for name in words))
    short = [" ".join(word for word in name if word.lower() not in shared) for name in words]
    if not all(short) or len({name.lower() for name in short}) < len(short):
        return group
    return short


def _joined(pair: str) -> bool:
    """Two characters of one Latin word or number ("4K"), which a list must not cut apart."""
    return len(pair) == 2 and pair.isascii() and pair.isalnum()


def said_once(group: list[str], language: str, names: Sequence[str] = ()) -> list[str]:
    """A list of names said as a person says it, what they all share said once: the shared start on the first, the
    shared ending on the last ("Cook with high or low heat", "Garden District No. 101, 201 or 301", "使用火焰、寒风还是
    雷电魔法攻击"). The names as they are where nothing is shared, where a name keeps nothing of its own or (zh) under
    two characters (东、西还是北: too short to stand for the name), or where a name's own part is in another of the
    brief's `names` (莉莉安 of 莉莉安酒馆: it stands for no one name)."""
    if len(group) < 2:
        return group
    if language == "en":
        words = [name.split() for name in group]
        lead = _shared_lead([[w.lower() for w in name] for name in words])
        end = _shared_lead([[w.lower() for w in reversed(name)] for name in words])
        own = [" ".join(name[lead : len(name) - end]) for name in words]
        if not (lead or end) or not all(own) or _in_others(own, group, names):
            return group
        first, last = words[0][:lead], words[0][len(words[0]) - end :]
        return [" ".join([*first, own[0]]), *own[1:-1], " ".join([own[-1], *last])]
    lead = _shared_lead(group)
    while lead and any(_joined(name[lead - 1 : lead + 1]) for name in group):  # "4K120Hz", "4K60Hz": no cut in 4K
        lead -= 1
    end = _shared_lead([name[::-1] for name in group])
    while end and any(_joined(name[-end - 1 : len(name) - end + 1]) for name in group):  # nor in "120Hz"
        end -= 1
    own = [name[lead : len(name) - end] for name in group]
    if not (lead or end) or any(not part or (len(part) < 2 and not part.isascii()) for part in own):
        return group
    if _in_others(own, group, names):
        return group
    return [group[0][:lead] + own[0], *own[1:-1], own[-1] + group[0][len(group[0]) - end :]]


def _in_others(own: list[str], group: list[str], names: Sequence[str]) -> bool:
    """Is a name's own part in a name outside its group (then it stands for no one name)?"""
    return any(part.lower() in name.lower() for part in own for name in names if name not in group)


def kind_pattern(kind: str, language: str) -> re.Pattern[str]:
    """Where a reply speaks of a kind ("the tavern", "taverns", "酒馆")."""
    if language == "en":
        stem = kind[:-1] if kind.endswith("y") else kind
        ending = "(?:ies|y)" if kind.endswith("y") else "(?:s|es)?"
        return re.compile(rf"\b{re.escape(stem)}{ending}\b", re.IGNORECASE)
    return re.compile(re.escape(kind))


#: "the gem he needs", "the key you want": a thing named by what someone needs, not by which it is.
_EN_NEEDED = re.compile(
    r"\bthe\s+([a-z-]{3,})\s+(?:he|she|they)\s+(?:needs?|wants?|requires?|asks? for)\b", re.IGNORECASE
)
_ZH_NEEDED = re.compile(
    r"(?:他|她|他们|她们|对方)(?:需要|想要|所需|要)的([\u4e00-\u9fff]{2})(?=[，。、；,.和与来去换给交]|$)"
)


_QUALIFIED = re.compile(
    r"right|correct|proper|appropriate|required|necessary|specific|certain|particular|suitable|one of|"
    r"only one|某|特定|合适|适合|专门|特殊",
    re.IGNORECASE,
)
#: A modifier that sets one apart from others of its kind ("a faster mode of transportation", "the safest route").
_COMPARING = re.compile(
    r"^(?:best|better|faster|stronger|safer|sturdier|cheaper|lighter|heavier|bigger|smaller|"
    r"[a-z]{3,}est)$"
)
#: "mode of transportation", "kind of herb": the thing is the whole phrase.
_CLASSIFIERS = {"mode", "means", "kind", "type", "sort", "form", "method", "piece", "pair", "set", "source"}
_EN_OF = re.compile(r"\s+of\s+([a-z-]{3,})", re.IGNORECASE)
#: Just before a thing: a verb of getting it ("you need to buy a helmet", "找一张地图").
_GETTING = {
    "en": re.compile(r"\b(?:need|get|buy|find|collect|bring|obtain|purchase|acquire|carry)\s+$", re.IGNORECASE),
    "zh": re.compile(r"(?:买|找|拿|获得|收集|取得|购买|准备|弄|需要)到?$"),
}
#: (zh) "你需要玄幻森林的地图": a thing the seeker is told it needs, which the brief does not give it.
_ZH_NEEDS = re.compile(
    r"你(?:还)?(?:需要|得)(?:先)?(?:取得|获得|拿到|弄到|买到)?(?:(?:(?!的)[\u4e00-\u9fff]){1,6}的)?"
    r"([\u4e00-\u9fff]{2})(?=[，。；,.！]|$)"
)
_EN_TYPE_OF = re.compile(
    r"\bthe\s+(?:type|kind|sort)\s+of\s+([a-z-]{3,})"
    r"|\b(?:its|his|her|their)\s+(?:favou?rite|preferred)\s+([a-z-]{3,})",
    re.IGNORECASE,
)
_ZH_VERB_AFTER = set("护送用来去到给在把让是有")
_ZH_QUALIFIED = re.compile(r"(?:特定|合适|适合|专门|特殊|最爱吃|爱吃|最喜欢|喜欢)的([\u4e00-\u9fff]{2})")


def open_things(reply: str, language: str) -> list[tuple[int, str, str]]:
    """(position, noun, how) of every thing a reply mentions without saying which: "a crystal", "the right
    batteries", "the gem he needs", "the type of magic", "一颗晶石", "他需要的宝石". `how` is "which" where the
    reply says there is a right one ("the right batteries", "the gem he needs"), "where" where it tells you to get
    one ("buy a helmet"), else ""."""
    found: list[tuple[int, str, str]] = []
    if language == "en":
        for match in _EN_OPEN.finditer(reply):
            words = [w for w in match.group(1).lower().split() if w not in _VAGUE]
            if words and not set(match.group(1).lower().split()) & _TALK and not words[-1].endswith("ed"):
                lead = match.group(0)[: match.start(1) - match.start()]
                modifiers = match.group(1).lower().split()[:-1]
                compared = any(_VAGUE.__contains__(w) or _COMPARING.match(w) for w in modifiers)
                how = (
                    "which"
                    if _QUALIFIED.search(lead) or compared
                    else "where"
                    if _GETTING["en"].search(reply[: match.start()]) and not words[-1].endswith(("ing", "ed"))
                    else ""
                )
                of = _EN_OF.match(reply, match.end(1))
                head = _stem(words[-1]) if "one of" in lead else words[-1]  # "one of the safer coastlines"
                noun = f"{head} of {of.group(1).lower()}" if of and head in _CLASSIFIERS else head
                found.append((match.start(), noun, how))
        found += [(m.start(), _stem(m.group(1).lower()), "which") for m in _EN_NEEDED.finditer(reply)]
        found += [(m.start(), (m.group(1) or m.group(2)).lower(), "which") for m in _EN_TYPE_OF.finditer(reply)]
    else:
        for match in _ZH_OPEN.finditer(reply):
            if len(match.group(1)) >= 2:
                how = (
                    "which"
                    if match.group(0).startswith("某") or reply[: match.start()].endswith("只有")
                    else "where"
                    if _GETTING["zh"].search(reply[: match.start()])
                    else ""
                )
                found.append((match.start(), match.group(1), how))
        for match in _ZH_QUALIFIED.finditer(reply):
            if match.group(1)[1] not in _ZH_VERB_AFTER:  # "适合的车护送伤员" names a 车, no 车护
                found.append((match.start(), match.group(1), "which"))
        found += [(m.start(), m.group(1), "which") for m in _ZH_NEEDED.finditer(reply)]
        found += [(m.start(), m.group(1), "where") for m in _ZH_NEEDS.finditer(reply)]
    first: dict[str, tuple[int, str, str]] = {}
    for pos, noun, how in sorted(found):
        first.setdefault(noun, (pos, noun, how))
    return list(first.values())
