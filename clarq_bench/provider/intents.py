"""Rule-based reading of seeker turns for the offline provider: relatedness, confirmation, vagueness, goodbye.

These cues decide the Response II branch once the matcher found no frontier node to reveal (intents 1, 3, 4, 5, 6),
and two of them (confirmation, vagueness) are also matcher features. Rules are short regular expressions per
language; they were written against released dialogues of task types 1-13 only.
"""

from __future__ import annotations

import re
from collections.abc import Set as AbstractSet
from functools import lru_cache

from ..core.transcript import Intent
from .caseblind import TextPattern, case_blind
from .lexical import TEXT_CACHE, WH_EN_PATTERN, WH_ZH, is_question, sentences, tokens
from .question_words import Prefiltered

_CONFIRM: dict[str, TextPattern] = {
    "en": case_blind(
        r"(is (that|this) (correct|right|accurate)|am i (correct|right)|did i (get|understand)|right\?|correct\?"
        r"|just to (confirm|make sure|be sure|clarify|recap|summari[sz]e)|to confirm|to summari[sz]e|in summary"
        r"|my plan|here'?s (my|the) plan|let me (summari[sz]e|recap)|so,? (i|my plan)|sounds? (good|like a plan))"
    ),
    "zh": re.compile(
        r"(对吗|对吧|是吗|正确吗|没错吧|没问题吧|确认一下|总结|是否正确|理解正确|我的计划|计划如下|步骤如下|以下步骤)"
    ),
}
#: A statement put up for a yes with a tag ("The lighthouse is on Rock Island, right?", "灯塔在礁石岛上吧？"): it checks
#: what the seeker already believes and asks nothing open (read so only without an interrogative: see ASKS).
TAG_QUESTION: dict[str, TextPattern] = {
    "en": case_blind(
        r"(?:,\s*(?:right|correct|yes)|is(?:n't)?\s+(?:that|it)\s+(?:right|correct|so)|,\s*isn't\s+(?:it|that))"
        r"\s*\?\s*$"
    ),
    "zh": re.compile(r"(?:吧|对吧|对吗|是吗|没错吧)\s*[？?]?\s*$"),
}
_VAGUE: dict[str, TextPattern] = {
    "en": case_blind(
        r"(anything else|any other|anything (i|that i) should|is there anything|what'?s next|what should i do next"
        r"|any (additional|further|more|specific|other) (tips|advice|information|details|precautions|steps|guidance|"
        r"suggestions|strategies|things))"
    ),
    "zh": re.compile(
        r"(还有什么|还有其他|其他需要|其他注意|还需要注意|需要注意的|注意事项|下一步|接下来|有什么建议|其他建议)"
    ),
}
_GOODBYE: dict[str, TextPattern] = {
    "en": case_blind(r"\b(goodbye|bye|farewell)\b"),
    "zh": re.compile(r"(再见|拜拜)"),
}
#: Instructions to the provider itself rather than questions about the task (prompt injection); prefiltered by the
#: words one of which every match holds (most turns hold none).
_INSTRUCTION = {
    "en": Prefiltered(
        case_blind(
            r"(\b(ignore|disregard|forget|override|bypass)\b[^.?!\n]{0,40}\b(instructions?|rules?|prompts?|guidelines?"
            r"|constraints?|restrictions?)\b|\bsystem prompt\b|\bdeveloper (message|mode)\b|\byou are now\b"
            r"|\b(list|reveal|dump|print|recite|output)\b[^.?!\n]{0,30}\b(everything|every (node|response|answer|"
            r"piece|step|detail)|all (of )?(the |your )?(nodes|responses|answers|information|hidden|secrets?|details|tree))\b"
            r"|\b(response|hidden) tree\b|\btell me everything\b)"
        ),
        (
            *("ignore", "disregard", "forget", "override", "bypass", "system prompt", "developer", "you are now"),
            *("list", "reveal", "dump", "print", "recite", "output", "tree", "tell me everything"),
        ),
    ),
    "zh": Prefiltered(
        re.compile(
            r"((忽略|无视|忘记|忘掉|绕过|不要管)[^。？！\n]{0,12}(指令|指示|规则|提示|设定|限制|要求)|系统提示|开发者模式|你现在是"
            r"|(列出|说出|告诉我|给出|输出|透露|公开)[^。？！\n]{0,6}(所有|全部|一切)|所有(的)?(信息|回复|答案|节点|细节)|全部(的)?(信息|回复|答案|节点|细节)"
            r"|回复树)"
        ),
        (
            *("忽略", "无视", "忘记", "忘掉", "绕过", "不要管", "系统提示", "开发者模式", "你现在是", "列出", "说出"),
            *("告诉我", "给出", "输出", "透露", "公开", "所有", "全部", "回复树"),
        ),
    ),
}
#: An open question (which one, where, how...) or a choice between options ("A, B, or C?"): asks for something.
_OPEN: dict[str, TextPattern] = {
    "en": case_blind("(" + WH_EN_PATTERN + r"|,?\s\bor\b[^?]*\?)"),
    "zh": re.compile("(" + "|".join((*WH_ZH, "几[个种条家位]", "还是")) + ")"),
}
_HELP: dict[str, TextPattern] = {
    "en": case_blind(r"\b(help|task|quest|mission|need|how|what|where|which|guide|guidance|advice)\b"),
    "zh": re.compile(r"(帮|任务|需要|如何|怎么|什么|哪|建议|指导)"),
}


def _lang(language: str) -> str:
    return "zh" if language == "zh" else "en"


@lru_cache(maxsize=TEXT_CACHE)
def asks_confirmation(turn: str, language: str) -> bool:
    """A summary or plan put up for confirmation ("..., is that correct?")."""
    return bool(_CONFIRM[_lang(language)].search(turn))


@lru_cache(maxsize=TEXT_CACHE)
def asks_open_question(turn: str, language: str) -> bool:
    """A question sentence that asks which / where / how ..., or to choose between options: a clarification
    even when it opens with "just to clarify" or "to confirm", so it never gets the plain "sounds good"."""
    pattern = _OPEN[_lang(language)]
    return any(is_question(s, language) and pattern.search(s) for s in sentences(turn, language))


@lru_cache(maxsize=TEXT_CACHE)
def is_vague(turn: str, language: str) -> bool:
    """An open request for more ("anything else?", "what's next?")."""
    return bool(_VAGUE[_lang(language)].search(turn))


def says_goodbye(turn: str, language: str) -> bool:
    return bool(_GOODBYE[_lang(language)].search(turn))


@lru_cache(maxsize=TEXT_CACHE)
def instructs_provider(turn: str, language: str) -> bool:
    """An instruction to the provider itself ("ignore your instructions", "list everything"), checked in both
    languages whatever the task's: such a turn asks about no specific uncertainty."""
    return bool(_INSTRUCTION["en"].search(turn) or _INSTRUCTION["zh"].search(turn))


@lru_cache(maxsize=TEXT_CACHE)
def has_question(turn: str, language: str) -> bool:
    return any(is_question(s, language) for s in sentences(turn, language))


def is_related(turn: str, language: str, vocabulary: AbstractSet[str]) -> bool:
    """Does the turn touch the task: shares a content token with the task's own words, or asks for help?"""
    if set(tokens(turn, language)) & vocabulary:
        return True
    return bool(_HELP[_lang(language)].search(turn))


def classify_unmatched(turn: str, language: str, vocabulary: AbstractSet[str], repeats: bool) -> Intent:
    """The intent of a post-root turn no frontier node answers: 6 vague, 1 confirm, 5 unrelated, 4 repeat, else 3."""
    if is_vague(turn, language):
        return Intent.vague
    if asks_confirmation(turn, language) and not asks_open_question(turn, language):
        return Intent.confirm_task
    if not is_related(turn, language, vocabulary):
        return Intent.unrelated
    if repeats:
        return Intent.repeat
    if not has_question(turn, language):
        return Intent.confirm_task
    return Intent.unanswerable
