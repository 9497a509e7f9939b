"""What a seeker's words cost, in queries of the human path: the charge behind the efficiency figure.

Counting turns alone lets a seeker pack every ask into one turn for free, so a dialogue is charged three ways, each in
the human path's own currency (the path asks one thing a turn: one question per required node, then goodbye, so it
takes H = required + 1 queries after the root, the count AQD subtracts), and the dearest of the three is its charge:

- turns: Q, the seeker's turns after the root (as AQD counts them);
- asks: A + 1, the things those turns ask plus the closing turn (see `asks`; the human path asks H - 1 things);
- words: W / B, the tokens those turns hold over B, a human seeker's turn in the same unit (the human path holds
  H x B tokens). B is the paper's human AQL (8.1 spaces in English, 17.0 characters in Chinese) turned into the token
  unit by the tokens-per-released-unit ratio of the released GPT-4o seeker turns (benchmarks/efficiency_budget.py).

efficiency = S x H / max(H, C), C = max(Q, A + 1, W / B): 1 for a success that costs no more than the human path, a
failure 0, and never higher for more turns, more asks or more words. Packing asks into fewer turns keeps A and W;
splitting them keeps A and raises Q; padding raises W. The unit is the verdict's cross-language token unit (o200k_base
subword tokens, else cjk+words: a CJK character or a Latin word each), so punctuation costs what it holds, a script
without spaces is counted in tokens, not spaces, and text in any script costs its tokens (in the fallback, only CJK
and Latin letters and digits count). Asks are read from English
and Chinese question words and list marks (other languages: by question marks and commas); the words charge covers
what that reading misses.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

#: B: tokens of a human seeker's turn, per (token unit, task language). Paper's human AQL x tokens per released unit
#: over the released GPT-4o seeker turns (Comp files): en 8.1 x 1.252 (o200k) / 1.051 (cjk+words); zh 17.0 x 0.742
#: / 0.842. A language of its own tasks without a figure uses English's.
HUMAN_TURN_TOKENS: dict[tuple[str, str], float] = {
    ("o200k_base", "en"): 10.1,
    ("o200k_base", "zh"): 12.6,
    ("cjk+words", "en"): 8.5,
    ("cjk+words", "zh"): 14.3,
}

#: One question word = one ask ("where and how" asks two things). Longest first: 为什么 before 什么.
_WH = re.compile(  # (the lookahead on first letters lets the scan skip the other places fast)
    r"(?=[wh为什哪谁怎如多几何])"
    r"(?:\b(?:what|which|where|when|who|whom|whose|why|how)\b|为什么|什么|哪|谁|怎么|怎样|如何|多少|几|何时|何处|何地)"
)
#: A sentence and the marks that close it.
_SENTENCE = re.compile(r"[^.!?;。！？；…\n]+(?:(?<=\d)\.(?=\d)[^.!?;。！？；…\n]*)*[.!?;。！？；…\n]*")  # "1.1": one
#: A yes/no question without a question word: closed by a question mark, or by a Chinese question particle.
_YES_NO = re.compile(r"[?？]|[吗呢][\s\"'”’）)]*$")
#: List joints (commas, enumeration marks, slashes, pipes, bullets, dashes, "and"): each one inside a question, after
#: its first question word, adds a thing asked. "or" does not: the options of one choice are one ask.
_JOINT = re.compile(
    r"(?=[,，、/&+|·•—–apw以并而还和与及])(?:[,，、/&+|·•—–]|\b(?:and|plus|as well as)\b|以及|并且|而且|还有|和|与|及)"
)
#: The joints of a yes/no question (or one in a language without question words here): conjunctions and
#: enumeration marks, and commas when there are two or more (a list; one comma is a pause: "Okay, do I need it?").
_YES_NO_JOINT = re.compile(r"、|\b(?:and|plus|as well as)\b|以及|还有|和|与|及")
_COMMA = re.compile(r"[,，]")
#: The last alternative of a choice: "A, B or C" / "A、B还是C" offers the options of one ask, so its marks list
#: nothing; a conjunction ("A, B and C") still does.
_LAST_ALTERNATIVE = re.compile(r"\bor\b|还是|或者|或")
_LIST_MARK = re.compile(r"[,，、/&+|·•—–]")
_CONTENT = re.compile(r"\w")
#: A clause opened by a connective goes on with the same ask ("..., so what should I do?"), it lists nothing.
_CONNECTIVE = re.compile(
    r"\s*(?:so|but|because|since|if|as|though|although|while|thus|hence|therefore)\b|\s*(?:所以|但是|但|因为|如果|因此|那么)"
)


def _normal(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold()


@lru_cache(maxsize=8192)  # a pure function of the text; a run's seeker says the same turns in many dialogues
def asks(text: str) -> int:
    """The things one turn asks: per sentence that asks anything (a question word, a question mark or 吗/呢), its
    question words plus the list items that follow the first of them (or, in a question without an English or
    Chinese question word, its conjunctions, enumeration marks and commas when two or more); at least one per asking
    sentence. Before the first question word a comma is a pause ("Okay, which cave?" asks one thing); "or" joins the
    options of one ask, and so do the marks before it ("Which one: A, B or C?" asks one thing, "A, B and C" three). A goodbye turn asks nothing (the judge gives it 0: nothing is answered after it)."""
    total = 0
    for match in _SENTENCE.finditer(_normal(text)):
        sentence = match.group(0)
        if not _CONTENT.search(sentence):
            continue
        wh = list(_WH.finditer(sentence))
        if wh:
            rest = sentence[wh[0].end() :]
            parts = _JOINT.split(rest)
            if len(parts) > 1 and _LAST_ALTERNATIVE.search(parts[-1]) and _only_marks(rest):
                parts = parts[:1]  # "which one: A, B or C?": one choice
            items = [
                part
                for part in parts[1:]
                if _CONTENT.search(part) and not _WH.search(part) and not _CONNECTIVE.match(part)
            ]
            total += len(wh) + len(items)
        elif _YES_NO.search(sentence.strip()):
            commas = len(_COMMA.findall(sentence))
            total += 1 + len(_YES_NO_JOINT.findall(sentence)) + (commas if commas >= 2 else 0)
    return total


def _only_marks(rest: str) -> bool:
    """Are all the joints of this question's rest list marks (no "and", 和, 以及 ...)?"""
    return len(_JOINT.findall(rest)) == len(_LIST_MARK.findall(rest))


def human_turn_tokens(unit: str, language: str) -> float:
    """B for a token unit and a task language; a unit without a figure is refused (its charge cannot be stated)."""
    figure = HUMAN_TURN_TOKENS.get((unit, language)) or HUMAN_TURN_TOKENS.get((unit, "en"))
    if figure is None:
        raise ValueError(f"no human turn length is known in the token unit {unit!r}")
    return figure


def charge(turns: int, asked: int, tokens: int, budget: float) -> float:
    """C = max(Q, A + 1, W / B), in human-path queries; 0 when nothing was said after the root."""
    if min(turns, asked, tokens) < 0 or budget <= 0:
        raise ValueError(
            f"charge of negative counts or a non-positive budget (Q={turns}, A={asked}, W={tokens}, B={budget})"
        )
    if turns == 0:
        return 0.0
    return max(float(turns), float(asked + 1), tokens / budget)


def success_weighted(success: bool, human: float, cost: float) -> float:
    """S x H / max(H, C), the form of SPL (Anderson et al. 2018): 1 for a success that cost no more than the human
    path's H, H/C for one that cost more, 0 for a failure. H = C = 0 counts as efficient; H = 0 < C is 0."""
    if human < 0 or cost < 0:
        raise ValueError(f"query counts cannot be negative (H={human}, C={cost})")
    if not success:
        return 0.0
    return 1.0 if cost <= human else human / cost
