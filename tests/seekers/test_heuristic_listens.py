"""The heuristic listens like a person (issue 26): it follows up on what each reply of Jax leaves open, re-asks a
choice once when Jax later raises its kind (never one a reply answered), and never reads the response tree.

A scripted Jax says fixed lines in order, so every test reads what the seeker does with words alone.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from runner_helpers import make_task

from clarq_bench.core.tasks import ResponseTree
from clarq_bench.core.transcript import ReplyKind, Speaker
from clarq_bench.provider.base import ProviderTurn
from clarq_bench.runner.dialogue import play_dialogue
from clarq_bench.seekers.baselines import join_options
from clarq_bench.seekers.phrasing import group_kind, open_things, option_groups, said_once, short_options
from clarq_bench.seekers.registry import SeekerTask, build_seeker
from clarq_bench.seekers.reply_details import persons, placed

SEEKERS = Path(__file__).resolve().parents[2] / "clarq_bench" / "seekers"

BRIEFS = {
    "en": {
        "items": ("Starlight Gem", "Agate"),
        "skills": ("Unleash fire magic (requires a fire crystal)",),
        "scenes": ("Mystic Tavern", "Forest Tavern", "Riverside Tavern", "Town Hall"),
    },
    "zh": {
        "items": ("星光宝石", "玛瑙"),
        "skills": ("释放火魔法（需要火晶石）",),
        "scenes": ("神秘酒馆", "森林酒馆", "河边酒馆", "市政厅"),
    },
}
TAVERNS = {"en": ["Mystic Tavern", "Forest Tavern", "Riverside Tavern"], "zh": ["神秘酒馆", "森林酒馆", "河边酒馆"]}


def tavern_task(language: str):
    task = make_task(language=language)
    brief = task.brief.model_copy(
        update={**BRIEFS[language], "task_name": "trade with Henry" if language == "en" else "和亨利交易"}
    )
    return task.model_copy(update={"brief": brief})


class Scripted:
    """Jax says `lines` in order (the first is the root), then "Carry on." / "继续。"; it reveals nothing."""

    def __init__(self, task, lines: list[str]) -> None:
        self.task, self.lines, self.calls = task, list(lines), 0

    def greeting(self) -> ProviderTurn:
        return ProviderTurn(text="what can help you?", kind=ReplyKind.greeting)

    async def respond(self, turns) -> ProviderTurn:
        self.calls += 1
        if self.calls == 1:
            return ProviderTurn(text=self.lines[0], kind=ReplyKind.root, revealed=["0"])
        more = "Carry on." if self.task.language == "en" else "继续。"
        text = self.lines[self.calls - 1] if self.calls <= len(self.lines) else more
        return ProviderTurn(text=text, kind=ReplyKind.response_ii)


async def dialogue(task, lines: list[str]) -> list[tuple[str, str]]:
    """(seeker line, the reply it got) for every question after the opening."""
    transcript = await play_dialogue(task, build_seeker("heuristic", task), Scripted(task, lines), max_turns=12)
    turns = transcript.turns
    return [
        (turns[i].text, turns[i + 1].text if i + 1 < len(turns) else "")
        for i in range(len(turns))
        if turns[i].speaker == Speaker.seeker
    ][1:]


def tavern_asks(pairs, language: str) -> list[int]:
    """The turns that ask the tavern choice by its options (in English by the words that set them apart)."""
    listed = join_options(said_once(short_options(TAVERNS[language], "tavern", language), language), language)
    return [i for i, (line, _) in enumerate(pairs) if listed in line]


NOTHING = {"en": "Don't worry, you are on the right track.", "zh": "别担心，方向是对的。"}
RAISES = {"en": "Henry is at the tavern.", "zh": "亨利在酒馆。"}
NAMES = {"en": "Henry is at the Mystic Tavern.", "zh": "亨利在神秘酒馆。"}
ROOT = {"en": "Make the deal.", "zh": "完成交易。"}


@pytest.mark.parametrize("language", ["en", "zh"])
async def test_a_choice_jax_passed_over_is_asked_again_once_when_he_raises_its_kind(language):
    task = tavern_task(language)
    pairs = await dialogue(task, [ROOT[language]] + [NOTHING[language]] * 4 + [RAISES[language]] * 6)
    asks = tavern_asks(pairs, language)
    assert len(asks) == 2, pairs  # asked before Jax spoke of taverns, and once more when he did: never a third time
    first, again = asks
    assert pairs[first][1] == NOTHING[language] and pairs[again - 1][1] == RAISES[language]  # right after he raised it
    assert pairs[first][0] != pairs[again][0]  # in new words, so it is no repeat of the same question
    assert ("tavern" in pairs[again][0]) if language == "en" else ("酒馆到底是哪一个" in pairs[again][0])


@pytest.mark.parametrize("language", ["en", "zh"])
async def test_a_choice_whose_reply_spoke_of_its_kind_is_not_asked_again_in_the_same_terms(language):
    """The tavern question asked in Jax's words (he had spoken of the tavern) gets a reply that speaks of taverns
    with no word of any one of them (he answered about taverns, for something else): the same choice asked again
    without saying what for would only ask the same again, which a provider reads as a repeat of a twin choice
    (README, twin choices)."""
    task = tavern_task(language)
    closes = "The taverns close at midnight." if language == "en" else "酒馆半夜关门。"
    pairs = await dialogue(task, [RAISES[language]] + [closes] * 10)
    asks = tavern_asks(pairs, language)
    assert len(asks) == 1 and pairs[asks[0]][1] == closes, pairs


@pytest.mark.parametrize("language", ["en", "zh"])
async def test_a_choice_a_reply_answered_is_never_asked_again(language):
    task = tavern_task(language)
    pairs = await dialogue(task, [ROOT[language], NOTHING[language], NAMES[language]] + [RAISES[language]] * 8)
    asks = tavern_asks(pairs, language)
    named_at = next(i for i, (_, reply) in enumerate(pairs) if reply == NAMES[language])
    assert asks and all(i <= named_at for i in asks), pairs  # "Henry is at the Mystic Tavern" settled it for good


@pytest.mark.parametrize("language", ["en", "zh"])
async def test_a_choice_raised_before_it_was_asked_names_the_kind(language):
    task = tavern_task(language)
    pairs = await dialogue(task, [RAISES[language]])
    if language == "en":  # the kind named, each tavern by the word that sets it apart
        expected = "Which tavern do you mean: Mystic, Forest or Riverside?"
    else:  # (a Chinese name keeps its ending, said once on the last of the list)
        expected = "你说的酒馆是哪一个：神秘、森林还是河边酒馆？"
    assert short_options(TAVERNS[language], "tavern", language) == (
        ["Mystic", "Forest", "Riverside"] if language == "en" else TAVERNS[language]
    )
    assert pairs[0][0] == expected and len(tavern_asks(pairs, language)) == 1


LATER = {
    "en": [
        "Make the deal.",
        "Don't worry.",
        "Exchange the gem he needs for a fire crystal.",
        "Meet George at the agreed time.",
    ],
    "zh": ["完成交易。", "别担心。", "用他需要的宝石交换火晶石。", "你需要找乔治。约定的时间不能错过。"],
}


@pytest.mark.parametrize("language", ["en", "zh"])
async def test_it_follows_up_on_what_a_later_reply_leaves_open(language):
    task = tavern_task(language)
    pairs = await dialogue(task, LATER[language])
    lines = [line for line, _ in pairs]
    after = {reply: lines[i + 1] for i, (_, reply) in enumerate(pairs[:-1])}
    gem, meet = LATER[language][2], LATER[language][3]
    if language == "en":
        assert after[gem] == "Which gem do you mean?"
        assert after[meet] == "Where do I find George?"
        assert "What time should I be there?" in lines[lines.index(after[meet]) :]
    else:
        assert after[gem] == "你说的宝石具体是哪一个？"
        assert after[meet] == "我去哪里能找到乔治？"
        assert "具体是什么时间？" in lines[lines.index(after[meet]) :]
    assert len(set(lines)) == len(lines)  # each once


@pytest.mark.parametrize("language", ["en", "zh"])
async def test_it_asks_how_to_get_what_it_is_told_it_needs(language):
    task = tavern_task(language)
    told = {"en": "You will need a map so that you can find your way.", "zh": "首先，你需要玄幻森林的地图。"}[language]
    pairs = await dialogue(task, [ROOT[language], told])
    after = next(pairs[i + 1][0] for i, (_, reply) in enumerate(pairs) if reply == told)
    assert after == ("How do I get the map?" if language == "en" else "我要怎么获得地图？")


@pytest.mark.parametrize(
    "language, reply, expected",
    [
        ("en", "Exchange the gem he needs for a crystal.", [(9, "gem", "which"), (30, "crystal", "")]),
        ("en", "Build it on one of the safer coastlines.", [(12, "coastline", "which")]),
        ("en", "Then switch to a faster mode of transportation.", [(15, "mode of transportation", "which")]),
        ("en", "But only one city gate is open.", [(4, "gate", "which")]),
        ("en", "Don't worry, you are on the right track. If something specific is still unclear, ask.", []),
        ("zh", "用他需要的宝石交换一颗晶石。", [(1, "宝石", "which"), (9, "晶石", "")]),
        ("zh", "目前只有一个城门是开的。", [(4, "城门", "which")]),
        ("zh", "选用适合的车护送伤员。", []),
        ("en", "Before you go in, you will need a map so that you can find your way.", [(32, "map", "where")]),
        ("zh", "首先，你需要玄幻森林的地图，其次你需要学会追踪魔法。", [(3, "地图", "where")]),
        ("zh", "首先，你需要收买的办公楼的守卫。", []),  # no thing to get: a verb before the 的
    ],
)
def test_open_things(language, reply, expected):
    assert open_things(reply, language) == expected


def test_people_and_places():
    assert persons("Trade with Henry and bring the gem.", "en", "") == [(11, "Henry")]
    assert persons("Henry is at the Mystic Tavern.", "en", "") == []  # it says where he is
    assert persons("Find the Orc King.", "en", "") == []  # no name: "the" Orc, and a name of two capitals
    assert persons("Go to the Mystic Tavern.", "en", "Mystic Tavern") == []  # the brief's own names
    assert persons("你可以找亚瑟购买。", "zh", "") == [(3, "亚瑟")]
    assert persons("你可以在旅行者酒馆找到士兵。", "zh", "") == []
    assert placed("Professor Henry works at the King's Magic School.", "Professor Henry", "en")
    assert not placed("See Professor Henry to learn flying.", "Professor Henry", "en")


def test_kinds_of_alternatives():
    assert group_kind(["Mystic Tavern", "Forest Tavern"], "en") == "tavern"
    assert group_kind(["Cook with high heat", "Cook with low heat"], "en") == "heat"
    assert group_kind(["东方山脉", "西方山脉", "北方山脉"], "zh") == "山脉"  # not 方山脉
    assert group_kind(["西矿山", "北矿山"], "zh") == "矿山"
    assert group_kind(["国王魔法学校", "女王魔法学校", "安琪拉魔法学校"], "zh") == "魔法学校"
    assert option_groups(("Primeval Forest", "Tropical Rainforest", "Mystical Forest", "Town Hall"), "en") == [
        ["Primeval Forest", "Mystical Forest", "Tropical Rainforest"]
    ]  # a rainforest is a forest
    assert group_kind(["Primeval Forest", "Tropical Rainforest"], "en") == "forest"
    # a Chinese kind is the noun after the names' 的, and a last character of its own groups names ("碧峰山": a 山)
    assert group_kind(["红色的木材", "黑色的木材"], "zh") == "木材"
    assert group_kind(["X形状的宝箱钥匙", "Y形状的宝箱钥匙"], "zh") == "宝箱钥匙"
    assert option_groups(("碧峰山", "玉峦山", "金川山", "东方学府", "沙河"), "zh") == [["碧峰山", "玉峦山", "金川山"]]


@pytest.mark.parametrize(
    ("names", "said"),
    [
        (["使用火焰魔法攻击", "使用寒风魔法攻击", "使用雷电魔法攻击"], ["使用火焰", "寒风", "雷电魔法攻击"]),
        (["微型风力发电设备", "微型太阳能发电设备"], ["微型风力", "太阳能发电设备"]),
        (["设置模式为4K120Hz", "设置模式为4K60Hz", "设置模式为8K60Hz"], ["设置模式为4K120Hz", "4K60Hz", "8K60Hz"]),
        (["X形状的钥匙", "Y形状的钥匙"], ["X", "Y形状的钥匙"]),  # (a Latin letter stands for its name)
        (["东迷宫", "西迷宫", "北迷宫"], ["东迷宫", "西迷宫", "北迷宫"]),  # one character is too short to stand alone
        (["莉莉安魔法学校", "女王魔法学校"], ["莉莉安魔法学校", "女王魔法学校"]),  # 莉莉安 is also a tavern's
        (["铁剑", "木盾"], ["铁剑", "木盾"]),  # nothing shared
    ],
)
def test_a_chinese_list_says_what_its_names_share_once(names: list[str], said: list[str]) -> None:
    assert said_once(names, "zh", [*names, "莉莉安酒馆"]) == said


@pytest.mark.parametrize(
    ("names", "said"),
    [
        (["Cook with high heat", "Cook with low heat"], ["Cook with high", "low heat"]),
        (["Garden District No. 101", "Garden District No. 201"], ["Garden District No. 101", "201"]),
        (["Play Spring with the flute", "Play Summer with the flute"], ["Play Spring", "Summer with the flute"]),
        (["High Voltage Lines", "Ultra High Voltage Lines"], ["High Voltage Lines", "Ultra High Voltage Lines"]),
        (["Mystic Tavern", "Forest Tavern"], ["Mystic Tavern", "Forest Tavern"]),  # "Forest" is also a scene's
    ],
)
def test_an_english_list_says_what_its_names_share_once(names: list[str], said: list[str]) -> None:
    assert said_once(names, "en", [*names, "Forest Road"]) == said


async def test_it_never_reads_the_tree():
    task = tavern_task("en")
    seeker = build_seeker("heuristic", task)
    assert isinstance(seeker.task, SeekerTask) and not hasattr(seeker.task, "tree")  # type: ignore[attr-defined]
    # another tree under the same brief: the same questions, word for word
    other = task.model_copy(
        update={
            "tree": ResponseTree.build(
                [
                    ("0", "Go to the Riverside Tavern and ask for Henry.", None),
                    ("1", "Henry needs the agate.", "Jax did not say which gem Henry needs."),
                ]
            )
        }
    )
    lines = [await dialogue(t, LATER["en"]) for t in (task, other)]
    assert lines[0] == lines[1]
    for module in (
        "baselines.py",
        "phrasing.py",
        "reply_details.py",
    ):  # and the code never touches a tree or the provider
        source = (SEEKERS / module).read_text(encoding="utf-8")
        tree = ast.parse(source)
        assert not [n for n in ast.walk(tree) if isinstance(n, ast.Attribute) and n.attr in ("tree", "nodes")]
        imported = [n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
        assert not [m for m in imported if "provider" in m], module
