"""Probes (not registered): no-skill seekers aimed at R108, the "clear match" of a lone question.

Each turn is ONE short question (one question word, one thing, no option of the brief named) built only from the
words Jax has said or the brief's background: the bet is that the offline matcher scores a frontier node far above
the rest whenever the question shares words with that node's text or explanation. They never see the tree.
"""

from __future__ import annotations

import re

from ..core.transcript import Speaker
from ..data.loader import strip_speaker
from .adversarial import RedTeamSeeker
from .base import DialogueView

_WORD = re.compile(r"[A-Za-z][A-Za-z'-]{2,}")
_CJK = re.compile(r"[\u4e00-\u9fff]{2,}")
_STOP = frozenset(
    "the and for that this with from have will your you them they then there their what when where which while would "
    "could should about after before into just only also more most some such than very once need must make sure know "
    "here are was were been being has had not but can cannot don't does did its it's his her him she he our out off "
    "over under again any all each other one two three first next last well good right yes okay sure get got use used "
    "using let like want going take give find way thing things something anything everything need needs needed "
    "jax hello thanks thank please help task really just able might maybe still".split()
)


def _option_words(view: DialogueView) -> set[str]:
    words: set[str] = set()
    for name in listed_options_view(view):
        words.update(w.lower() for w in _WORD.findall(name))
    return words


def listed_options_view(view: DialogueView) -> list[str]:
    brief = view.brief
    return [*brief.items, *brief.skills, *brief.scenes]


def _replies(view: DialogueView) -> list[str]:
    return [strip_speaker(t.text) for t in view.turns[1:] if t.speaker == Speaker.provider]


def reply_words(view: DialogueView, *, latest_first: bool = True, skip_options: bool = True) -> list[str]:
    """Content words of Jax's replies (latest reply first), without stop words and (by default) option words."""
    skip = _option_words(view) if skip_options else set()
    replies = _replies(view)
    if latest_first:
        replies = replies[::-1]
    if view.language == "zh":
        out = [run[i : i + 2] for text in replies for run in _CJK.findall(text) for i in range(len(run) - 1)]
        return list(dict.fromkeys(out))
    words = [w.lower() for text in replies for w in _WORD.findall(text)]
    return list(dict.fromkeys(w for w in words if w not in _STOP and w not in skip and len(w) > 3))


def reply_phrases(view: DialogueView) -> list[str]:
    """Runs of two or three content words of Jax's replies, latest reply first."""
    skip = _option_words(view)
    out: list[str] = []
    for text in _replies(view)[::-1]:
        for chunk in re.split(r"[^A-Za-z' -]+", text):
            words = [w.lower() for w in _WORD.findall(chunk)]
            run: list[str] = []
            for w in [*words, ""]:
                if w and w not in _STOP and w not in skip:
                    run.append(w)
                    continue
                if len(run) >= 2:
                    out.append(" ".join(run[-3:]))
                run = []
    return list(dict.fromkeys(out))


def brief_words(view: DialogueView) -> list[str]:
    skip = _option_words(view)
    text = view.brief.background
    if view.language == "zh":
        return list(dict.fromkeys(run[i : i + 2] for run in _CJK.findall(text) for i in range(len(run) - 1)))
    words = [w.lower() for w in _WORD.findall(text)]
    return list(dict.fromkeys(w for w in words if w not in _STOP and w not in skip and len(w) > 3))


def _used(view: DialogueView) -> str:
    return " ".join(t.text.lower() for t in view.turns if t.speaker == Speaker.seeker)


def fresh(view: DialogueView, words: list[str]) -> list[str]:
    """Words the seeker has not asked with yet (else all of them again)."""
    used = _used(view)
    new = [w for w in words if w not in used]
    return new or words


_EN_ASK = [
    "How do I deal with the {w}?",
    "Where do I get the {w}?",
    "What do I need for the {w}?",
    "Will the {w} be a problem?",
    "Who can help me with the {w}?",
    "When should I handle the {w}?",
]
_ZH_ASK = [
    "{w}要怎么处理？",
    "{w}在哪里能拿到？",
    "{w}需要准备什么？",
    "{w}会不会有问题？",
    "谁能帮我解决{w}？",
    "什么时候处理{w}？",
]


def _ask(language: str, word: str, k: int) -> str:
    asks = _ZH_ASK if language == "zh" else _EN_ASK
    return asks[k % len(asks)].format(w=word)


class _Probe(RedTeamSeeker):
    strategy = "probe"


class HowNewWordSeeker(_Probe):
    """ "How do I deal with the <w>?", w the first word of Jax's latest reply not yet asked about."""

    strategy = "probe-how-new"

    def attack(self, view: DialogueView, turn: int) -> str:
        words = fresh(view, reply_words(view)) or brief_words(view) or ["task"]
        return _ask(self.language, words[0], 0)


class RotateWordSeeker(_Probe):
    """One question a turn, question word rotating (how/where/what/will/who/when), about a fresh word of Jax's."""

    strategy = "probe-rotate"

    def attack(self, view: DialogueView, turn: int) -> str:
        words = fresh(view, reply_words(view)) or brief_words(view) or ["task"]
        return _ask(self.language, words[0], turn)


class PhraseSeeker(_Probe):
    """ "What do I need for the <phrase>?", phrase a run of content words from Jax's replies, latest first."""

    strategy = "probe-phrase"

    def attack(self, view: DialogueView, turn: int) -> str:
        if self.language == "zh":
            words = fresh(view, reply_words(view)) or ["任务"]
            return _ask("zh", words[0], turn)
        phrases = fresh(view, reply_phrases(view)) or fresh(view, reply_words(view)) or brief_words(view) or ["task"]
        return _ask("en", phrases[0], 2 + turn)


class BriefWordSeeker(_Probe):
    """One question a turn about a background word of the brief (never Jax's), walking the background."""

    strategy = "probe-brief"

    def attack(self, view: DialogueView, turn: int) -> str:
        words = brief_words(view) or ["task"]
        return _ask(self.language, words[(turn - 1) % len(words)], turn)


class PairWordSeeker(_Probe):
    """ "How do I <w1> the <w2>?": two fresh words of Jax's latest reply in one question (more overlap a turn)."""

    strategy = "probe-pair"

    def attack(self, view: DialogueView, turn: int) -> str:
        words = fresh(view, reply_words(view)) or brief_words(view) or ["task", "plan"]
        a = words[0]
        b = words[1] if len(words) > 1 else a
        if self.language == "zh":
            return f"{a}和{b}要怎么处理？"
        return f"How should I handle the {a} {b}?"


class LastReplySeeker(_Probe):
    """ "How do I handle that: <Jax's last reply's content words>?": the whole latest reply's words in one question."""

    strategy = "probe-last"

    def attack(self, view: DialogueView, turn: int) -> str:
        replies = _replies(view)
        last = replies[-1] if replies else view.brief.background
        skip = _option_words(view)
        if self.language == "zh":
            return f"{''.join(_CJK.findall(last))[:30]}要怎么处理？"
        words = [w.lower() for w in _WORD.findall(last) if w.lower() not in _STOP and w.lower() not in skip]
        return f"How do I handle the {' '.join(list(dict.fromkeys(words))[:8])}?"


#: The provider's stock replies (read off one played dialogue: they recur word for word in every task); a reply of
#: this shape carries no words of the task, so its words are never asked about.
_STOCK = re.compile(
    r"right track|not related to our task|already told you|anything else you are unsure|as i said before|"
    r"what can help you|enough information to complete|方向是对的|与我们的任务无关|已经告诉过你|我之前说过|收集到足够|"
    r"有什么可以帮助你",
    re.IGNORECASE,
)
_DET = re.compile(
    r"\b(?:the|a|an|your|his|her|their|its|this|these|those|some|any|each)\s+((?:[A-Za-z][A-Za-z'-]*\s*){1,4})",
    re.IGNORECASE,
)
_CUT = _STOP | frozenset(
    "is are was were be to of in on at by for with from and or but as so if that which who whom whose where when "
    "how why can could will would should may might must do does did have has had need needs you he she it they we "
    "i me my".split()
)


def informative_replies(view: DialogueView) -> list[str]:
    """Jax's replies that are not stock replies, newest first."""
    return [text for text in _replies(view)[::-1] if not _STOCK.search(text)]


def noun_phrases(text: str, skip: set[str]) -> list[str]:
    """Runs of up to three words after a determiner ("the agreed trading time"), cut at the first function word;
    phrases that hold an option word of the brief are left out (a bet is never read by R108)."""
    out = []
    for match in _DET.finditer(text):
        words = []
        for w in match.group(1).split():
            lw = w.lower().strip("'")
            if lw in _CUT:
                break
            words.append(lw)
        words = words[:3]
        if words and not any(w in skip for w in words) and len(" ".join(words)) > 3:
            out.append(" ".join(words))
    return list(dict.fromkeys(out))


def phrase_pool(view: DialogueView, *, newest_first: bool = True, skip_options: bool = False) -> list[str]:
    """Noun phrases of Jax's informative replies, then their other content words (the brief's background is the
    same boilerplate in every task: never used)."""
    skip = _option_words(view) if skip_options else set()
    replies = informative_replies(view)
    if not newest_first:
        replies = replies[::-1]
    pool = [p for text in replies for p in noun_phrases(text, skip)]
    pool += [
        w.lower()
        for text in replies
        for w in _WORD.findall(text)
        if w.lower() not in _CUT and w.lower() not in skip and len(w) > 3
    ]
    return list(dict.fromkeys(pool))


def _unasked(view: DialogueView, pool: list[str]) -> list[str]:
    asked = [t.text.lower() for t in view.turns if t.speaker == Speaker.seeker]
    return [p for p in pool if not any(p in a for a in asked)]


class NounNewestSeeker(_Probe):
    """One question a turn about a noun phrase ("the agreed trading time") of Jax's newest informative reply first,
    then older replies, then the brief's background; the question word rotates each turn."""

    strategy = "probe-np-newest"
    newest_first = True
    rotate_ask = True
    skip_options = False

    def attack(self, view: DialogueView, turn: int) -> str:
        if self.language == "zh":
            words = fresh(view, [w for t in informative_replies(view) for w in _zh_pairs(t)] + brief_words(view))
            return _ask("zh", words[0] if words else "任务", turn if self.rotate_ask else 0)
        pool = _unasked(view, phrase_pool(view, newest_first=self.newest_first, skip_options=self.skip_options))
        pool = pool or ["task"]
        return _ask("en", pool[0], turn if self.rotate_ask else 4)


class NounOldestSeeker(NounNewestSeeker):
    """As probe-np-newest, but walking Jax's replies oldest first (the root's things before the later ones')."""

    strategy = "probe-np-oldest"
    newest_first = False


class NounFixedAskSeeker(NounNewestSeeker):
    """As probe-np-newest, always "Who can help me with the <phrase>?"."""

    strategy = "probe-np-fixed"
    rotate_ask = False


def _zh_pairs(text: str) -> list[str]:
    return list(dict.fromkeys(run[i : i + 2] for run in _CJK.findall(text) for i in range(len(run) - 1)))


class NounNoOptionSeeker(NounOldestSeeker):
    """As probe-np-oldest, leaving out every phrase that holds a word of a listed option (no bet, no kind)."""

    strategy = "probe-np-nooption"
    skip_options = True


class NeedSeeker(NounOldestSeeker):
    """As probe-np-oldest, always "What do I need for the <phrase>?" (the wording that got most reveals)."""

    strategy = "probe-np-need"

    def attack(self, view: DialogueView, turn: int) -> str:
        if self.language == "zh":
            return super().attack(view, 2)
        pool = _unasked(view, phrase_pool(view, newest_first=self.newest_first)) or ["task"]
        return f"What do I need for the {pool[0]}?"


class NeedWhereSeeker(NounOldestSeeker):
    """As probe-np-oldest, alternating "What do I need for the <p>?" and "Where do I get the <p>?"."""

    strategy = "probe-np-need-where"

    def attack(self, view: DialogueView, turn: int) -> str:
        if self.language == "zh":
            return super().attack(view, 1 + turn % 2)
        pool = _unasked(view, phrase_pool(view, newest_first=self.newest_first)) or ["task"]
        return (f"What do I need for the {pool[0]}?", f"Where do I get the {pool[0]}?")[turn % 2]


_CLAUSE = re.compile(r"[.;:!?,]|\band\b|\bso\b|\bbut\b|\bthen\b", re.IGNORECASE)
_LEAD = re.compile(r"^\s*(?:you|i|we)\s+(?:need|have|must|should|will need|can)\s+(?:to\s+)?", re.IGNORECASE)


def clauses(view: DialogueView) -> list[str]:
    out = []
    for text in informative_replies(view)[::-1]:
        for part in _CLAUSE.split(text):
            words = part.split()
            if len(words) >= 3:
                out.append(_LEAD.sub("", " ".join(words)).rstrip())
    return list(dict.fromkeys(c for c in out if c))


class ClauseSeeker(_Probe):
    """ "What do I need for this: <a clause of Jax's reply>?", walking the clauses of his replies oldest first."""

    strategy = "probe-clause"

    def attack(self, view: DialogueView, turn: int) -> str:
        if self.language == "zh":
            parts = [p for t in informative_replies(view)[::-1] for p in re.split(r"[，。；！？、]", t) if len(p) >= 3]
            parts = _unasked(view, list(dict.fromkeys(parts))) or ["任务"]
            return f"{parts[0]}需要准备什么？"
        parts = _unasked(view, [c.lower() for c in clauses(view)]) or ["task"]
        return f"What do I need to {parts[0]}?"


def _short(clause: str, limit: int) -> str:
    return " ".join(clause.split()[:limit])


class ClauseShortSeeker(_Probe):
    """As probe-clause, the clause cut to its first six words (a copied sentence is read as an echo)."""

    strategy = "probe-clause-short"
    limit = 6
    newest_first = False

    def attack(self, view: DialogueView, turn: int) -> str:
        if self.language == "zh":
            parts = [p for t in informative_replies(view)[::-1] for p in re.split(r"[，。；！？、]", t) if len(p) >= 3]
            parts = _unasked(view, list(dict.fromkeys(p[:8] for p in parts))) or ["任务"]
            return f"{parts[0]}需要准备什么？"
        found = [_short(c.lower(), self.limit) for c in clauses(view)]
        if self.newest_first:
            found = [_short(c.lower(), self.limit) for t in informative_replies(view) for c in _clauses_of(t)] or found
        parts = _unasked(view, list(dict.fromkeys(found))) or ["task"]
        return f"What do I need to {parts[0]}?"


def _clauses_of(text: str) -> list[str]:
    out = []
    for part in _CLAUSE.split(text):
        words = part.split()
        if len(words) >= 3:
            out.append(_LEAD.sub("", " ".join(words)).rstrip())
    return [c for c in out if c]


class ClauseNewestSeeker(ClauseShortSeeker):
    """As probe-clause-short, Jax's newest informative reply's clauses first."""

    strategy = "probe-clause-newest"
    newest_first = True


class ClauseFourSeeker(ClauseShortSeeker):
    """As probe-clause-short, cut to four words."""

    strategy = "probe-clause-four"
    limit = 4


_PRONOUNS = {"you": "I", "your": "my", "yours": "mine", "you'll": "I'll", "you're": "I'm", "yourself": "myself"}


def first_person(clause: str) -> str:
    """Jax's "you" said back as "I" (a paraphrase, so the turn is no copied sentence)."""
    return " ".join(_PRONOUNS.get(w.lower(), w) for w in clause.split())


class ClauseFrameSeeker(_Probe):
    """As probe-clause with "you" turned to "I" and a frame of its own (`frame`, {c} the clause)."""

    strategy = "probe-clause-frame"
    frame = "What do I need to {c}?"
    zh_frame = "{c}需要准备什么？"
    swap = True

    def attack(self, view: DialogueView, turn: int) -> str:
        if self.language == "zh":
            parts = [p for t in informative_replies(view)[::-1] for p in re.split(r"[，。；！？、]", t) if len(p) >= 3]
            parts = [p.replace("你", "我") if self.swap else p for p in dict.fromkeys(parts)]
            parts = _unasked(view, parts) or ["任务"]
            return self.zh_frame.format(c=parts[0])
        said = [c.lower() for c in clauses(view)]
        parts = _unasked(view, [first_person(c) for c in said] if self.swap else said) or ["task"]
        return self.frame.format(c=parts[0])


class ClauseUseSeeker(ClauseFrameSeeker):
    """ "What should I use to <clause>?"."""

    strategy = "probe-clause-use"
    frame = "What should I use to {c}?"
    zh_frame = "{c}该用哪个？"


class ClauseHowSeeker(ClauseFrameSeeker):
    """ "How exactly do I <clause>?"."""

    strategy = "probe-clause-how"
    frame = "How exactly do I {c}?"
    zh_frame = "{c}具体该怎么做？"


class ClauseUseKeepSeeker(ClauseUseSeeker):
    """ "What should I use to <clause>?", the clause as Jax said it."""

    strategy = "probe-clause-use-keep"
    swap = False


class ClauseWhichKeepSeeker(ClauseFrameSeeker):
    """ "Which one do I need to <clause>?", the clause as Jax said it."""

    strategy = "probe-clause-which"
    frame = "Which one do I need to {c}?"
    zh_frame = "{c}需要哪一个？"
    swap = False


class ClauseWhichPickSeeker(ClauseWhichKeepSeeker):
    """ "Which one should I pick to <clause>?" / "{clause}该选哪一个？"."""

    strategy = "probe-clause-pick"
    frame = "Which one should I pick to {c}?"
    zh_frame = "{c}该选哪一个？"


class ClauseWhichOwnSeeker(ClauseWhichKeepSeeker):
    """As probe-clause-which, Chinese "你" said back as "我"."""

    strategy = "probe-clause-which-own"
    swap = True


class ClausePickNaiveSeeker(ClauseWhichPickSeeker):
    """As probe-clause-pick, without knowing the provider's stock replies: only a reply said twice word for word
    in this dialogue is skipped (so its clauses are asked about too)."""

    strategy = "probe-clause-pick-naive"

    def attack(self, view: DialogueView, turn: int) -> str:
        replies = _replies(view)
        seen = [r for i, r in enumerate(replies) if r in replies[:i]]
        said = [c.lower() for text in replies if text not in seen for c in _clauses_of(text)]
        parts = _unasked(view, list(dict.fromkeys(said))) or ["task"]
        if self.language == "zh":
            zh = [p for t in replies if t not in seen for p in re.split(r"[，。；！？、]", t) if len(p) >= 3]
            parts = _unasked(view, list(dict.fromkeys(zh))) or ["任务"]
            return self.zh_frame.format(c=parts[0])
        return self.frame.format(c=parts[0])


class ClauseUseOwnSeeker(ClauseWhichOwnSeeker):
    """"<clause>，该用哪一个？" (Chinese; "你" said back as "我")."""

    strategy = "probe-clause-use-own"
    frame = "Which one should I pick to {c}?"
    swap = True
    zh_frame = "{c}，该用哪一个？"


class ClauseWhatOwnSeeker(ClauseWhichOwnSeeker):
    """"<clause>要用什么？" (Chinese; "你" said back as "我")."""

    strategy = "probe-clause-what-own"
    zh_frame = "{c}要用什么？"
