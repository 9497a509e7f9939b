"""What makes a sentence a question besides its question mark: the words people ask with when they say what they do
not know instead of asking it.

Why apart: a person says "I don't know which tavern you mean" or "不记得是啥时候了" as often as "Which tavern?", and
the paper's provider answers both; a sentence that asks nothing is screened out before any rule reads it
(S006), so what counts as asked is decided here, once, for every rule. Saying one does not know is no cheaper than
asking: every reading after this one still needs the sentence to name the uncertainty.
"""

from __future__ import annotations

import re

#: Not knowing said of a wh-clause: "I don't really know which crystal", "no idea when", "never said which one".
_NOT_KNOWING_EN = (
    r"(?:do not|don't|dont|did not|didn't|does not|doesn't) (?:really |quite |even )?know|no idea|no clue|"
    r"(?:not sure|unsure|not certain|uncertain|unclear|not clear)(?: about)?|can't tell|cannot tell|can not tell|can't figure out|"
    r"(?:never|didn't|did not|don't|do not) (?:say|said|tell|told|mention|mentioned|specify|specified)|"
    r"(?:won't|will not|wouldn't|would not) know"
)
#: A sentence that says what one does not know, up to the interrogative that opens what is not known ("I don't
#: really know which crystal ...": the question "which crystal ...?").
SAID_DOUBT_EN = re.compile(
    r"^(?P<before>[^.!?\n]*?)\b(?:i\s+|i'm\s+|i am\s+|you\s+|he\s+)?(?:have\s+|got\s+)?(?:really\s+|just\s+)?(?:"
    + _NOT_KNOWING_EN
    + r")\s+(?:me\s+)?(?P<asked>(?:which|what|where|how|when|who|whom|whose|whether|if)\b[^.!?\n]*)[.!]*\s*$",
    re.IGNORECASE,
)
#: What each of _NOT_KNOWING_EN's ways of not knowing holds (lower-cased, its single spaces kept), one of which a
#: sentence must hold for SAID_DOUBT_EN or INDIRECT_QUESTION_EN to match it: a plain test rules out the rest ("make
#: sure", "tell me" hold none).
DOUBT_WORDS_EN = (
    *("t know", "not know", "really know", "quite know", "even know", "no idea", "no clue", "t figure out"),
    *("not sure", "unsure", "not certain", "uncertain", "unclear", "not clear"),
    *(f"{no} {verb}" for no in ("never", "t", "not") for verb in ("say", "said", "tell", "told", "mention", "specif")),
)
#: SAID_DOUBT_ZH's ways of not knowing, one of which a sentence must hold for it to match.
DOUBT_WORDS_ZH = ("不知道", "不确定", "不清楚", "不记得", "搞不清", "弄不清", "拿不准", "拿不定", "吃不准")
#: (zh) A sentence that says what one does not know before what it asks ("不知道是哪颗宝石。", "我也不清楚亨利在哪"):
#: the question is what follows the not-knowing.
SAID_DOUBT_ZH = re.compile(
    r"^(?P<before>[^。！？!?\n]*?)(?:我)?(?:也|还|真|实在|都)?(?:有点|有些)?(?:不知道|不确定|不清楚|不记得|搞不清楚?|弄不清楚?|"
    r"拿不准|拿不定|吃不准)"
    r"(?:是|该|要|应该|到底)?(?P<asked>[^。！？!?\n]*(?:哪|什么|怎么|如何|怎样|谁|多少|几)[^。！？!?\n]*?)[。！!～~]*$"
)
#: A lack said as the last clause of a sentence ("I don't have a shovel.", "I can't find the key.", "我手上没有能挖坑的工
#: 具啊", "找不到去书房的路"): the question is where to get (find) the thing. Not a feeling or a state ("I have no idea",
#: "我没有问题") nor, in Chinese, an action not done ("我没有去过城堡": a thing that opens with a verb).
SAID_LACK_EN = re.compile(
    r"^(?P<before>(?:[^.!?\n]*[,;:]\s*)?(?:(?:but|and|so|yet|though|sadly|unfortunately),?\s+)?)(?:i|we)\s+"
    r"(?P<verb>(?:don't|do not|dont|didn't|did not)\s+(?:have|own|carry)|have\s+no|(?:can't|cannot|can not|couldn't|"
    r"could not)\s+(?P<find>find|locate|see|get|buy))\s+(?:any\s+)?"
    r"(?P<thing>(?!(?:an?\s+)?(?:idea|clue|problems?|questions?|doubts?|worries|objections?|preference|time to|"
    r"way)\b)[^.!?\n,;]{1,40}?)(?:\s+(?:yet|anymore|with me|on me|here|at all))?\s*[.!]*\s*$",
    re.IGNORECASE,
)
SAID_LACK_ZH = re.compile(
    r"^(?P<before>(?:[^。！？!?\n]*(?:[，,]|以后|之后|可是|但是|但|可))?)(?:我们|咱们|我)?(?:现在|目前|手上|手头|手里|身上|这里|这儿)*"
    r"(?:也|还|都|根本|完全)?(?P<verb>没有|缺少|缺|(?P<find>找不到)|买不到|弄不到)"
    r"(?P<thing>(?!说|告诉|提|讲|问题|办法|头绪|想法|主意|关系|事|去|来|到|做|用|看|听|想|问|见|时间)"
    r"[^。！？!?\n，,哪什怎谁几吗]{1,16}?)(?:啊|呀|哦|了|呢|诶|哎|啦)*[。！!～~…]*$"
)
#: A doubt said about a thing, not a wh-clause ("I'm unsure about the voltage for the line to Blue Sky.",
#: "通往蓝天城变电站的线路电压，我有点拿不准。"): the question is what that thing is.
SAID_DOUBT_ABOUT_EN = re.compile(
    r"^(?P<before>(?:[^.!?\n]*[,;:]\s*)?(?:but|and|so)?\s*)(?:i'm|i am|i'm still|i am still)\s+(?:a bit\s+|a little\s+|"
    r"quite\s+|really\s+)?(?:not sure|unsure|uncertain|not clear|unclear|confused)\s+(?:about|of|on)\s+"
    r"(?P<thing>(?:the|my|that|this|those|these)\s+[^.!?\n,;]{2,60}?)\s*[.!]*\s*$",
    re.IGNORECASE,
)
#: The words of not being sure each SAID_DOUBT_ABOUT_* pattern needs (lower-cased), a cheap test before it is tried.
DOUBT_ABOUT_WORDS = {
    "en": ("not sure", "unsure", "uncertain", "not clear", "unclear", "confused"),
    "zh": ("拿不准", "拿不定", "吃不准", "不确定", "不清楚", "不知道", "搞不清", "弄不清", "没把握"),
}
SAID_DOUBT_ABOUT_ZH = re.compile(
    r"^(?P<thing>[^，,。！？!?\n]{4,30})[，,]\s*(?:我|可我|但我)?(?:还|也|真|实在)?(?:有点|有些|还是)?"
    r"(?:拿不准|拿不定|吃不准|不确定|不清楚|不知道|搞不清楚?|弄不清楚?|没把握)[了啊呀哦]*[。！!～~…]*$"
)
#: Requests phrased as statements ("I'd like to know which ...", "please tell me where ...", "I wonder which ...").
INDIRECT_QUESTION_EN = re.compile(
    r"\b(tell me|let me know|i wonder|wondering|curious (?:which|what|where|how|who|whether)|(like|need|want) to know|"
    r"advise|guide me|point me|(?:" + _NOT_KNOWING_EN + r") (?:me )?(?:which|what|where|how|when|who|whom|whose|"
    r"whether|if)\b)"
)
#: Words one of INDIRECT_QUESTION_EN's requests holds, one of which a text must hold for it to match.
INDIRECT_WORDS_EN = (
    *DOUBT_WORDS_EN,
    *("tell me", "let me know", "wonder", "curious", "to know", "advise", "guide me", "point me"),
)


def asks_indirectly(lowered: str) -> bool:
    """INDIRECT_QUESTION_EN.search of lower-cased text, by a plain test for its words first: most sentences hold
    none, and the pattern tries every word of them."""
    return any(word in lowered for word in INDIRECT_WORDS_EN) and INDIRECT_QUESTION_EN.search(lowered) is not None


#: (zh) A sentence asks when it has one of these: a question mark or particle, an interrogative (啥 the spoken
#: "what": 啥时候, 用啥), or words of not knowing (不知道, 不记得, 搞不清, 没说).
QUESTION_MARKERS_ZH = (
    "？",
    "?",
    "吗",
    "呢",
    "哪",
    "什么",
    "啥",
    "如何",
    "怎么",
    "怎样",
    "请问",
    "是否",
    "多少",
    "几",
    "告诉我",
    "想知道",
    "不确定",
    "不清楚",
    "不知道",
    "不记得",
    "搞不清",
    "弄不清",
    "拿不准",
    "拿不定",
    "吃不准",
    "没把握",
    "没说",
    "指点",
    "说明一下",
)

__all__ = [
    "DOUBT_ABOUT_WORDS",
    "DOUBT_WORDS_EN",
    "DOUBT_WORDS_ZH",
    "INDIRECT_QUESTION_EN",
    "QUESTION_MARKERS_ZH",
    "SAID_DOUBT_ABOUT_EN",
    "SAID_DOUBT_ABOUT_ZH",
    "SAID_DOUBT_EN",
    "SAID_DOUBT_ZH",
    "SAID_LACK_EN",
    "SAID_LACK_ZH",
    "asks_indirectly",
]
