"""What a question is, read by both providers (provider/focus.py, answering.py): the round-3 rules of README "What a
provider reveals, and to what", each on both sides, in English and Chinese where the rule is language-specific.

- a list of alternatives holds one kind of option: a pasted note, the task name or another kind in it makes a spray;
- a bare "Which X exactly?" asks which X is meant: only a choice of kind X;
- a bare "which X?" asks its choice once Jax has raised X;
- "multiple castles ... unsure when Henry appears" is a time, not a castle;
- a question offering a choice's options is answered even when the matcher or the model proposed nothing;
- a decimal point or "No. 2" ends no question;
- a choice's options are the names whose head is its kind ("which gem" is no choice of gem stores);
- a which / what that governs a list of alternatives, or a list of three alternatives or more, asks a choice among
  them: never a detail or a kind its listed words touch;
- a choice of a thing (which gem) is asked by what it is, not by where / how / when over a word of it; a choice among
  places also by where;
- an open request about two things ("tell me more about the A and the B") asks about the first.
"""

from __future__ import annotations

import json

import pytest
from provider_helpers import synthetic_task
from upstream_paths import UPSTREAM_DATA, needs_upstream

from clarq_bench.core.tasks import ResponseTree, Split, Task, TaskBrief
from clarq_bench.core.transcript import ReplyKind, Speaker, Turn
from clarq_bench.llm import LLMClient, LLMSettings
from clarq_bench.provider.answering import answer
from clarq_bench.provider.focus import FocusIndex
from clarq_bench.provider.lexical import tokens
from clarq_bench.provider.llm_provider import LLMProvider
from clarq_bench.provider.offline.provider import OfflineProvider
from clarq_bench.testing import ScriptedModel

ROOT = {"en": "Trade a gem with Henry, then meet him at the castle.", "zh": "和亨利交易一颗宝石，然后去城堡见他。"}
NODES = {
    "en": [
        ("0", ROOT["en"], None),
        (
            "1",
            "Henry needs the starlight gem.",
            "The previous responses did not say which gem Henry needs. Note: Use this response only if the other party "
            "has noticed the issue of not knowing which gem Henry needs.",
        ),
        (
            "2",
            "Henry will appear at the castle at noon every day.",
            "There are multiple castles in the game scenario, and the previous response did not specify when Henry will "
            "appear. Note: Use this response only if the other party has noticed that there are multiple castles and "
            "is unsure when Henry will appear.",
        ),
        (
            "2.1",
            "You can find Henry at Frost Castle.",
            "There are multiple castles in the game scenario, and the previous response did not specify which castle "
            "Henry will be at. Note: Use this response only if the other party has noticed that there are multiple "
            "castles and is unsure which one to go to.",
        ),
        (
            "3",
            "Pay for the trade with the 500 gold coins you carry.",
            "Jax mentioned the trade but did not explain how to pay for it. Note: Use this response only if the other "
            "party has noticed the lack of information on how to pay for the trade.",
        ),
    ],
    "zh": [
        ("0", ROOT["zh"], None),
        (
            "1",
            "亨利需要星光宝石。",
            "这个回复用于解答亨利需要哪一种宝石的疑问。注：只有在对方注意到不确定亨利需要哪一种宝石才使用。",
        ),
        (
            "2",
            "亨利每天中午出现在城堡。",
            "游戏场景中有多座城堡，之前的回复没有说明亨利什么时候出现。注：只有在对方注意到存在多座城堡且不确定亨利什么时候出现才使用。",
        ),
        (
            "2.1",
            "你可以在冰霜城堡找到亨利。",
            "游戏场景中有多座城堡，之前的回复没有说明亨利在哪座城堡。注：只有在对方注意到存在多座城堡且不确定应该去哪一座才使用。",
        ),
        (
            "3",
            "用你随身带的500金币支付这笔交易。",
            "Jax提到了交易但没有说明如何支付。注：只有在对方注意到不知道如何支付交易才使用。",
        ),
    ],
}
BRIEFS = {
    "en": TaskBrief(
        role="adventurer",
        task_name="trading with Henry",
        items=("Starlight Gem", "Moonlight Gem", "Sun Gem", "500 gold coins"),
        skills=("Unleash fire magic (requires a fire crystal)", "Unleash water magic"),
        scenes=("Frost Castle", "Twilight Castle", "Gloomy Castle", "Town Hall"),
        background="Trade with Henry.",
    ),
    "zh": TaskBrief(
        role="冒险者",
        task_name="和亨利交易",
        items=("星光宝石", "月光宝石", "太阳宝石", "500金币"),
        skills=("释放火魔法（需要火晶石）", "释放水魔法"),
        scenes=("冰霜城堡", "暮光城堡", "幽暗城堡", "市政厅"),
        background="和亨利交易。",
    ),
}


def make_task(language: str) -> Task:
    return synthetic_task(language, BRIEFS[language], NODES[language], 14, "Trade Task")


def dialogue(language: str, *exchanges: tuple[str, str], last: str) -> list[Turn]:
    """Greeting, opening, root, then (seeker, Jax) exchanges, ending on the seeker's `last`."""
    turns = [
        Turn(speaker=Speaker.provider, text="hi", kind=ReplyKind.greeting),
        Turn(speaker=Speaker.seeker, text="How do I trade with Henry?"),
        Turn(speaker=Speaker.provider, text=ROOT[language], kind=ReplyKind.root, revealed=["0"]),
    ]
    for seeker, jax in exchanges:
        turns += [
            Turn(speaker=Speaker.seeker, text=seeker),
            Turn(speaker=Speaker.provider, text=jax, kind=ReplyKind.response_ii),
        ]
    return turns + [Turn(speaker=Speaker.seeker, text=last)]


def revealed(
    language: str, last: str, frontier: list[str], candidates: list[str] | None = None, *exchanges: tuple[str, str]
) -> list[str]:
    """What the shared rule answers, with the matcher or model proposing `candidates` (default: the frontier)."""
    focus = FocusIndex(make_task(language))
    proposed = frontier if candidates is None else candidates
    return answer(focus, dialogue(language, *exchanges, last=last), proposed, multi_info=False, frontier=frontier)


# --- a list of alternatives holds one kind of option ---------------------------------------------------------------

LISTS = {
    "en": (
        "Should I give Henry the Starlight Gem, the Moonlight Gem or the Sun Gem?",
        "I wonder how trading with Henry, the Starlight Gem, the Moonlight Gem or the Sun Gem come in, and which "
        "one of them I should take care of first?",
        "Which step involves the Starlight Gem, the Moonlight Gem, requires a fire crystal or the Sun Gem?",
    ),
    "zh": (
        "我应该给亨利星光宝石、月光宝石还是太阳宝石？",
        "和亨利交易、星光宝石、月光宝石或太阳宝石，这些和任务有什么关系，我应该先处理哪一个？",
        "星光宝石、月光宝石、需要火晶石还是太阳宝石，哪一步会用到？",
    ),
}


@pytest.mark.parametrize("language", ["en", "zh"])
def test_a_list_of_our_options_asks_the_choice_and_a_pasted_phrase_in_it_makes_a_spray(language: str) -> None:
    plain, with_task_name, with_note = LISTS[language]
    assert revealed(language, plain, ["1", "2", "3"]) == ["1"]
    assert revealed(language, with_task_name, ["1", "2", "3"]) == []  # the task name is no gem
    assert revealed(language, with_note, ["1", "2", "3"]) == []  # nor is a skill's note


def test_a_name_with_a_clause_of_its_own_ends_the_list() -> None:
    """ "Which castle, Frost or Twilight Castle, has the Town Hall's keys?": the last piece says what the castle must
    have; it is no third option, so the list is pure."""
    text = (
        "Could you tell me which castle, the Frost Castle or the Twilight Castle, has Henry waiting in its great hall?"
    )
    assert revealed("en", text, ["2.1"], [], ("Where do I go?", "Go to the castle.")) == ["2.1"]


# --- a bare "Which X exactly?" ---------------------------------------------------------------------------------------

BARE = {
    "en": ("Which trade exactly?", "Which castle exactly?", "How should I pay for the trade?"),
    "zh": ("具体是哪个交易？", "具体是哪座城堡？", "我该怎么支付这笔交易？"),
}


@pytest.mark.parametrize("language", ["en", "zh"])
def test_a_bare_which_x_asks_only_the_choice_of_kind_x(language: str) -> None:
    trade, castle, how = BARE[language]
    assert revealed(language, trade, ["3"]) == []  # "trade" is the thing of a detail node: a bare which asks no how
    assert revealed(language, how, ["3"]) == ["3"]  # the same thing asked properly
    assert revealed(language, castle, ["2.1"]) == ["2.1"]  # Jax's root spoke of the castle: a real choice


# --- a bare "which X?" asks its choice once Jax has raised X ---------------------------------------------------------


@pytest.mark.parametrize("language", ["en", "zh"])
def test_a_bare_which_x_asks_its_choice_only_once_jax_has_spoken_of_x(language: str) -> None:
    gem = "Which gem should I choose?" if language == "en" else "我应该选哪种宝石？"
    focus = FocusIndex(make_task(language))
    silent = dialogue(language, last=gem)
    silent[2] = silent[2].model_copy(update={"text": "Meet Henry." if language == "en" else "去见亨利。"})
    assert answer(focus, silent, ["1"], multi_info=False) == []  # no gem came up yet: a guess at what may be asked
    assert answer(focus, dialogue(language, last=gem), ["1"], multi_info=False) == ["1"]  # the root names a gem
    full = "Which gem does Henry need for the trade?" if language == "en" else "亨利交易需要哪一种宝石？"
    assert answer(focus, dialogue(language, last=full), ["1"], multi_info=False) == ["1"]


# --- "multiple castles ... unsure when" is a time ---------------------------------------------------------------------


@pytest.mark.parametrize("language", ["en", "zh"])
def test_a_node_about_when_is_asked_by_when_not_by_which_castle(language: str) -> None:
    which, when = (
        ("Which castle should I choose?", "When will Henry appear at the castle?")
        if language == "en"
        else ("我应该选哪座城堡？", "亨利什么时候出现在城堡？")
    )
    assert revealed(language, which, ["2"]) == []
    assert revealed(language, when, ["2"]) == ["2"]


# --- offered options are answered whatever the matcher or model proposed -----------------------------------------------


@pytest.mark.parametrize("language", ["en", "zh"])
def test_offered_options_are_answered_when_nothing_was_proposed(language: str) -> None:
    plain = LISTS[language][0]
    assert revealed(language, plain, ["1", "3"], candidates=[]) == ["1"]
    bet = "Should I give Henry the Starlight Gem?" if language == "en" else "我应该给亨利星光宝石吗？"
    assert revealed(language, bet, ["1", "3"], candidates=[]) == []  # one option alone stays a bet


def test_the_offline_provider_answers_offered_options_on_the_frontier_only() -> None:
    provider = OfflineProvider(make_task("en"))
    castles = "Should I go to the Frost Castle, the Twilight Castle or the Gloomy Castle?"
    assert provider.decide(dialogue("en", last=castles)).revealed == []  # 2.1 is locked behind 2
    turns = dialogue("en", last=castles)
    turns[-2:-1] = [
        Turn(speaker=Speaker.provider, text=ROOT["en"], kind=ReplyKind.root, revealed=["0"]),
        Turn(speaker=Speaker.seeker, text="When does Henry appear?"),
        Turn(speaker=Speaker.provider, text=NODES["en"][2][1], kind=ReplyKind.response_i, revealed=["2"]),
    ]
    assert provider.decide(turns).revealed == ["2.1"]


class _Recorder:
    def __init__(self, *replies: object) -> None:
        self.replies = [json.dumps(r) for r in replies]

    def __call__(self, messages: list[dict]) -> str:
        return self.replies.pop(0)


@pytest.mark.asyncio
async def test_the_llm_provider_answers_offered_options_its_model_missed() -> None:
    """The model reads the turn as vague and proposes nothing; the shared rule still answers the choice offered, and
    records which ids it added."""
    missed = {"intent": 6, "node_ids": [], "summary_confirmation": False, "rationale": "vague"}
    client = LLMClient(LLMSettings(use_cache=False), scripted={"scripted/jax": ScriptedModel(_Recorder(missed))})
    provider = LLMProvider(make_task("en"), client, model="scripted/jax", mode="single", reading="strict")
    turn = await provider.respond(dialogue("en", last=LISTS["en"][0]))
    assert turn.revealed == ["1"] and turn.kind == ReplyKind.response_i
    assert turn.notes["offered_ids"] == ["1"]


# --- a decimal point or "No. 2" ends no question ----------------------------------------------------------------------


def test_a_decimal_point_or_a_number_sign_ends_no_question() -> None:
    focus = FocusIndex(make_task("en"))
    for text in ("Which castle has the 14.2-inch painting of Henry?", "Which castle is No. 2 on the map of Henry?"):
        assert len(focus.questions(text)) == 1, text


# --- a choice's options are the names whose head is its kind -----------------------------------------------------------

STORES = {"en": ("Shining Gem Store", "Night Sky Gem Store"), "zh": ("闪耀宝石店", "星辉宝石店")}


def task_with_stores(language: str) -> Task:
    """The test task with two gem stores among the scenes: names that carry "gem" but are stores, not gems."""
    task = make_task(language)
    brief = task.brief.model_copy(update={"scenes": (*task.brief.scenes, *STORES[language])})
    return task.model_copy(update={"brief": brief})


@pytest.mark.parametrize("language", ["en", "zh"])
def test_which_gem_is_a_choice_of_gems_not_of_gem_stores(language: str) -> None:
    focus = FocusIndex(task_with_stores(language))
    gems = BRIEFS[language].items[:3]
    assert [o.name for o in focus.nodes["1"].options] == list(gems)
    stores = (
        "Should I go to the Shining Gem Store or the Night Sky Gem Store?"
        if language == "en"
        else "我应该去闪耀宝石店还是星辉宝石店？"
    )
    turns = dialogue(language, last=stores)
    assert answer(focus, turns, ["1"], multi_info=False, frontier=["1"]) == []  # stores offered: no gem asked
    assert answer(focus, dialogue(language, last=LISTS[language][0]), ["1"], multi_info=False, frontier=["1"]) == ["1"]


# --- a which that governs a list, or a list of three alternatives, asks a choice among them ----------------------------

WHICH_OF = {
    "en": (
        "Which trade, castle, coins or payment exactly?",
        "What trade, castle or payment do you mean?",
        "How do I use the trade, the castle, the coins or the payment, and when?",
        "Which gem: the Starlight Gem, the Moonlight Gem or the Sun Gem?",
        "How do I pay for the trade, the gem and the coins?",
    ),
    "zh": (
        "具体是哪个交易、城堡、金币还是支付？",
        "交易、城堡、金币还是支付具体是哪个？",
        "交易、城堡、金币还是支付怎么用，什么时候用？",
        "哪种宝石，星光宝石、月光宝石还是太阳宝石？",
        "我该怎么支付交易、宝石和金币？",
    ),
}


@pytest.mark.parametrize("language", ["en", "zh"])
def test_a_which_over_a_list_of_alternatives_asks_a_choice_among_them_only(language: str) -> None:
    which_list, list_which, list_how, which_gems, how_and = WHICH_OF[language]
    frontier = ["1", "2", "3"]
    for text in (which_list, list_which, list_how):  # the words of node 3 ("trade", "pay") are listed, not asked
        assert revealed(language, text, frontier) == [], text
        assert OfflineProvider(make_task(language)).decide(dialogue(language, last=text)).revealed == [], text
    assert revealed(language, which_gems, frontier) == ["1"]  # a real choice among the listed options
    assert revealed(language, how_and, ["3"]) == ["3"]  # "A, B and C" lists what a how-question is about


def test_an_or_inside_a_question_about_one_thing_is_no_list_of_alternatives() -> None:
    """ "..., or do I need ...?" opens a clause of its own: no alternatives, the question keeps its own reading."""
    focus = FocusIndex(make_task("en"))
    text = "How should I pay for the trade, or do I need to bring something else?"
    (question,) = focus.questions(text)
    assert not focus.asks_which_of(question)
    assert revealed("en", text, ["3"]) == ["3"]


@pytest.mark.parametrize("language", ["en", "zh"])
def test_a_yes_no_question_between_two_things_asks_what_its_frame_asks(language: str) -> None:
    """ "Is it the A or the B?" asks which of them and nothing else: it gets a node only as a choice among its options
    or through its frame ("Can I pay for the trade with coins or gems?" asks how to pay)."""
    focus = FocusIndex(make_task(language))
    bare, framed = (
        ("Is it the trade or the castle?", "Can I pay for the trade with coins or gems?")
        if language == "en"
        else ("是交易还是城堡？", "这笔交易我能付金币还是宝石？")
    )
    (question,) = focus.questions(bare)
    anchors = set().union(*(node.anchor for node in focus.nodes.values()))
    assert focus.asks_which_of(question) and not set(tokens(focus.alternatives_frame(question), language)) & anchors
    assert revealed(language, bare, ["1", "2", "3"]) == []  # "trade" is listed, not asked about
    (question,) = focus.questions(framed)
    assert focus.asks_which_of(question)
    assert revealed(language, framed, ["3"]) == ["3"]


@pytest.mark.asyncio
async def test_the_llm_provider_keeps_listed_words_from_revealing_a_node_its_model_proposed() -> None:
    """The model proposes the payment node for "Which trade, castle, coins or payment exactly?"; the shared rule
    takes it away (the words are listed, not asked), while "How should I pay for the trade?" keeps it."""
    proposed = {"intent": 2, "node_ids": ["3"], "summary_confirmation": False, "rationale": "payment"}
    for text, expected in ((WHICH_OF["en"][0], []), ("How should I pay for the trade?", ["3"])):
        replies = _Recorder(proposed)
        replies.replies.append("Don't worry, just ask me about one thing at a time.")  # the Response II call
        client = LLMClient(LLMSettings(use_cache=False), scripted={"scripted/jax": ScriptedModel(replies)})
        provider = LLMProvider(make_task("en"), client, model="scripted/jax", mode="single", reading="strict")
        turn = await provider.respond(dialogue("en", last=text))
        assert turn.revealed == expected, text


# --- a list that asks nothing particular; "those" points back; the names of a list are items ---------------------------


@pytest.mark.parametrize("language", ["en", "zh"])
def test_a_list_that_asks_nothing_of_its_things_takes_no_detail(language: str) -> None:
    vague, pointed, back = (
        (
            "What do I need to know about the trade, the castle and the coins?",
            "How do I pay for the trade, the gem and the coins?",
            "What about the trade, the gem and the coins? How do I pay for those?",
        )
        if language == "en"
        else (
            "关于交易、城堡和金币，我需要知道什么？",
            "我该怎么支付交易、宝石和金币？",
            "那交易、宝石和金币呢？这些我该怎么支付？",
        )
    )
    assert revealed(language, vague, ["3"]) == []  # "trade" is one of three things, nothing is asked of it
    assert revealed(language, pointed, ["3"]) == ["3"]  # how to pay for them
    assert revealed(language, back, ["3"]) == ["3"]  # "those" are the things of the question before


def test_names_of_the_brief_listed_after_a_frame_leave_the_frame_asking() -> None:
    """ "Where should I meet Henry: the Frost Castle, the Twilight Castle or the Gloomy Castle?" lists names (each an item,
    whatever words lead into it) and its frame asks where to meet Henry: the castle choice is offered, and answered."""
    text = "When will Henry appear: at the Frost Castle, the Twilight Castle or the Gloomy Castle?"
    focus = FocusIndex(make_task("en"))
    (question,) = focus.questions(text)
    assert focus.asks_which_of(question) and "appear" in focus.alternatives_frame(question)
    assert revealed("en", text, ["2"]) == ["2"]  # the frame asks when Henry appears


@pytest.mark.parametrize("language", ["en", "zh"])
def test_the_kind_of_detail_missing_is_no_anchor(language: str) -> None:
    """Node 2 misses *when* Henry appears: "time" names what is missing, not the thing it is missing for, so a
    question that only says "time" asks nothing of Henry's appearance."""
    focus = FocusIndex(make_task(language))
    assert not focus.nodes["2"].anchor & {"time", "时间", "时候"}
    filler = (
        "How much time do I have, since I would hate to waste time?"
        if language == "en"
        else "我有多少时间？我可不想浪费时间。"
    )
    assert revealed(language, filler, ["2"]) == []
    when = "When will Henry appear at the castle?" if language == "en" else "亨利什么时候出现在城堡？"
    assert revealed(language, when, ["2"]) == ["2"]


@pytest.mark.parametrize("language", ["en", "zh"])
def test_two_things_joined_by_an_or_are_asked_about_without_knowing_which(language: str) -> None:
    """ "Where do I use the trade or the gem?" asks where one of two things goes without knowing which: it gets no
    detail its listed words touch, while "Where can I find Henry: at the Frost Castle or the Town Hall?" asks where
    Henry is in its frame."""
    listed, framed = (
        ("Where do I use the trade or the coins, and how?", "When will Henry appear, at noon or at night?")
        if language == "en"
        else ("交易还是金币在哪里用，怎么用？", "亨利什么时候出现，中午还是晚上？")
    )
    assert revealed(language, listed, ["3"]) == []  # "trade" is one of the two things, not asked about
    assert revealed(language, framed, ["2"]) == ["2"]  # the frame asks when Henry appears


@pytest.mark.parametrize("language", ["en", "zh"])
def test_a_word_of_its_own_between_our_options_spoils_the_list(language: str) -> None:
    """Names taken from Jax's replies count like the brief's: "the Starlight Gem, the castle or the Moonlight Gem"
    lists a castle among the gems, so it is no choice among gems (the plain list of gems is)."""
    mixed = (
        "Should I give Henry the Starlight Gem, the castle or the Moonlight Gem?"
        if language == "en"
        else "我应该给亨利星光宝石、城堡还是月光宝石？"
    )
    assert revealed(language, mixed, ["1"]) == []
    assert revealed(language, LISTS[language][0], ["1"]) == ["1"]


def test_one_chinese_bigram_is_a_fragment_not_the_thing_a_choice_is_for() -> None:
    """A choice asked about in a question's own words ("where do I get the crystal?") needs, in Chinese, two bigrams of
    its anchor: one ("风力" of "风力发电站") is a fragment any word of Jax's carries. English words are whole."""
    zh, en = FocusIndex(make_task("zh")), FocusIndex(make_task("en"))
    anchor = frozenset({"风力", "力发", "发电"})
    assert not zh._overlaps(anchor, {"风力", "关系"}, least=2)
    assert zh._overlaps(anchor, {"风力", "力发"}, least=2)
    assert en._overlaps(frozenset({"crystal"}), {"crystal"}, least=2)


# --- a which governing a part of the job asks for that part, not which option ----------------------------------------

FRAMES = {
    "en": (
        "Which step involves the Starlight Gem or the Moonlight Gem?",
        "Which one should I give Henry, the Starlight Gem or the Moonlight Gem?",
    ),
    "zh": ("星光宝石还是月光宝石，哪一步会用到？", "我应该给亨利哪一个，星光宝石还是月光宝石？"),
}


@pytest.mark.parametrize("language", ["en", "zh"])
def test_a_which_governing_a_step_over_offered_options_asks_for_the_step(language: str) -> None:
    step, choice = FRAMES[language]
    assert revealed(language, step, ["1", "3"]) == []
    assert revealed(language, step, ["1", "3"], candidates=[]) == []
    assert revealed(language, choice, ["1", "3"]) == ["1"]
    assert revealed(language, choice, ["1", "3"], candidates=[]) == ["1"]


@pytest.mark.parametrize("language", ["en", "zh"])
def test_a_which_governing_a_list_of_things_governs_no_kind_in_it(language: str) -> None:
    """ "Which gem, magic or castle ...?" governs a list of everything, not the gem: no choice of gem is asked."""
    spray = (
        "Which gem, fire magic or castle should I deal with first?"
        if language == "en"
        else "哪个宝石、火魔法还是城堡我应该先处理？"
    )
    assert revealed(language, spray, ["1", "3"]) == []
    assert revealed(
        language, "Which gem should I deal with first?" if language == "en" else "我应该先处理哪个宝石？", ["1", "3"]
    ) == ["1"]


def test_a_chinese_list_of_three_things_asks_a_detail_only_with_two_bigrams_of_its_thing() -> None:
    """(zh) Three things or more listed together are named in a word or two each, so one bigram of a node's thing is
    a fragment of any of them ("交易、城堡和月光怎么处理？" sprays three words); the thing said in more of its own
    words ("...怎么支付？") or a list of two whole words ("交易和城堡") still asks it."""
    assert revealed("zh", "交易、城堡和月光怎么处理？", ["1", "3"]) == []
    assert revealed("zh", "交易、城堡和月光怎么支付？", ["1", "3"]) == ["3"]
    assert revealed("zh", "交易和城堡怎么处理？", ["1", "3"]) == ["3"]
    assert revealed("zh", "这笔交易怎么支付？", ["1", "3"]) == ["3"]


# --- a choice of a thing is asked by what it is, not by where / how / when over its words ---------------------------

THING_CHOICE = {
    "en": (
        (
            "Where do I find the gem?",
            "When do I need the gem and the trade?",
            "How does the gem come into the trade?",
            "How do I use the gem?",
        ),
        ("What gem does Henry need?", "What does Henry need for the trade?", "Which gem does Henry need?"),
    ),
    "zh": (
        ("我在哪里能找到宝石？", "什么时候需要宝石和交易？", "宝石在交易里怎么用？", "亨利需要的宝石在哪里？"),
        ("亨利需要什么宝石？", "亨利需要哪种宝石？", "我去哪里找合适的宝石？"),
    ),
}


@pytest.mark.parametrize("language", ["en", "zh"])
def test_a_choice_of_a_thing_is_asked_by_what_it_is_not_by_where_how_or_when_over_its_words(language: str) -> None:
    """ "Which gem Henry needs" is a choice of a thing: "What (gem) does Henry need?" asks it; "Where do I find the
    gem?", "When do I need the gem?" ask where or when of a gem, and a template that puts every word Jax said under
    a rotating where / how / when would otherwise take every such choice (issue 26's list spray)."""
    others, asked = THING_CHOICE[language]
    for text in others:
        assert revealed(language, text, ["1"]) == [], text
    for text in asked:
        assert revealed(language, text, ["1"]) == ["1"], text


def test_chinese_several_and_almost_ask_nothing() -> None:
    """(zh) 好几 (several) and 几乎 (almost) are no 几 (how many): "有好几座城堡，你说的是哪一座？" is one question, read
    with the statement before it, and counts one thing asked."""
    from clarq_bench.provider.asks import count_asks

    focus = FocusIndex(make_task("zh"))
    (question,) = focus.questions("附近有好几座城堡，你说的是哪一座？")
    assert question.text.startswith("附近有好几座城堡") and question.classes == {"identity"}
    (almost,) = focus.questions("城堡几乎都关门了，我该去哪一座？")
    assert "quantity" not in almost.classes
    assert count_asks("附近有好几座城堡，你说的是哪一座？", "zh") == 1
    assert len(focus.questions("城堡有几座，你说的是哪一座？")) == 2  # (a real 几 still asks)


def test_chinese_when_where_and_who_are_no_what() -> None:
    """(zh) 什么时候 / 什么地方 / 什么人 and 哪里 ask a time, a place, a person: not the identity 什么 / 哪 asks; "是怎样的"
    (what is it like) does ask what a thing is."""
    focus = FocusIndex(make_task("zh"))
    assert focus.questions("亨利什么时候来？")[0].classes == {"time"}
    assert "identity" not in focus.questions("我在哪里能找到宝石？")[0].classes
    assert "identity" not in focus.questions("要去什么地方？")[0].classes
    assert "identity" in focus.questions("宝石是怎样的？")[0].classes
    assert "identity" in focus.questions("亨利需要什么？")[0].classes


def _released_answer(task_id: str, text: str, frontier: list[str]) -> list[str]:
    from clarq_bench.data.loader import load_tasks

    task = next(t for t in load_tasks(UPSTREAM_DATA, (task_id[:2],)) if t.id == task_id)
    turns = [
        Turn(speaker=Speaker.provider, text="hi", kind=ReplyKind.greeting),
        Turn(speaker=Speaker.seeker, text="How do I get this done?"),
        Turn(speaker=Speaker.provider, text=task.tree.root.text, kind=ReplyKind.root, revealed=["0"]),
        Turn(speaker=Speaker.seeker, text=text),
    ]
    return answer(FocusIndex(task), turns, frontier, multi_info=False, frontier=frontier)


@needs_upstream
def test_released_choices_of_a_thing_and_of_a_place() -> None:
    # en/14/0: "Henry needs the starlight gem" answers which gem, not where Henry is (session 9's leftover)
    assert "1" not in _released_answer("en/14/0", "Where do I find Henry?", ["1", "2", "3"])
    assert _released_answer("en/14/0", "What gem does Henry need?", ["1", "2", "3"]) == ["1"]
    # en/14/4 node 1 is a choice among gems the brief does not list: the same rule
    assert _released_answer("en/14/4", "How do the complete and trade come into this job?", ["1"]) == []
    assert _released_answer("en/14/4", "When do I need the trade?", ["1"]) == []
    assert _released_answer("en/14/4", "What does Henry need for the trade?", ["1"]) == ["1"]
    # en/23/2 node 3: which fertilizer, among options that include the factories (places): where asks it too
    assert _released_answer("en/23/2", "Where can I get fertilizer?", ["1", "2", "3", "4"]) == ["3"]
    assert _released_answer("en/23/2", "When do I spray the fertilizer?", ["1", "2", "3", "4"]) == []


# --- an open request about two things asks about the first ----------------------------------------------------------

OPEN_TWO = {
    "en": (
        "Could you tell me more about the trade and the castle?",
        "Could you tell me more about the castle and the trade?",
        "What do I need to know about the castle and the trade?",
        "How do I handle the castle and the trade?",
        "Could you tell me more about the gem and the castle?",
        "Could you tell me more about the castle and the gem?",
    ),
    "zh": (
        "能具体说说交易和城堡吗？",
        "能具体说说城堡和交易吗？",
        "关于城堡和交易，我需要知道什么？",
        "城堡和交易怎么处理？",
        "能具体说说宝石和城堡吗？",
        "能具体说说城堡和宝石吗？",
    ),
}


@pytest.mark.parametrize("language", ["en", "zh"])
def test_an_open_request_about_two_things_asks_about_the_first(language: str) -> None:
    """A request that asks nothing particular of two things (no where, how, who, when, which, no alternatives) asks
    about the first: an open request over two of Jax's words at a time would otherwise ask twice what one about one
    thing asks (a template doing so won 20% of English tasks). A question that asks something of both still does."""
    trade_first, castle_first, know_about, how_both, gem_first, castle_then_gem = OPEN_TWO[language]
    assert revealed(language, trade_first, ["1", "3"]) == ["3"]  # how to pay for the trade
    assert revealed(language, castle_first, ["1", "3"]) == []
    assert revealed(language, know_about, ["1", "3"]) == []
    assert revealed(language, how_both, ["1", "3"]) == ["3"]  # a how asks of every thing it names
    assert revealed(language, gem_first, ["1", "3"]) == ["1"]  # which gem Henry needs
    assert revealed(language, castle_then_gem, ["1", "3"]) == []
    if language == "en":  # a which asks something particular of every thing it names
        assert revealed(language, "Which payment should I prepare for the castle and the trade?", ["1", "3"]) == ["3"]


def test_a_chinese_which_after_its_kind_governs_it_and_where_does_not() -> None:
    """(zh) "宝石是哪一种？" names the kind before its which and asks which gem, as "哪种宝石" does; "宝石在哪里？" asks
    where a gem is, not which one (哪里 / 哪儿 ask a place)."""
    assert revealed("zh", "宝石是哪一种？", ["1"]) == ["1"]
    assert revealed("zh", "城堡具体是哪座？", ["2.1"]) == ["2.1"]
    assert revealed("zh", "宝石在哪里？", ["1"]) == []


def test_a_name_of_the_brief_with_an_and_in_it_is_one_thing() -> None:
    """ "The Salt and Pepper Shop" is one thing of the brief, not two: an open request about it is read whole, and one
    about it and another thing keeps its whole name."""
    task = make_task("en")
    task = task.model_copy(
        update={"brief": task.brief.model_copy(update={"scenes": (*task.brief.scenes, "Salt and Pepper Shop")})}
    )
    focus = FocusIndex(task)

    def read(text: str) -> str:
        return focus.first_thing_only(focus.questions(text)[0]).text

    assert (
        read("Could you tell me more about the Salt and Pepper Shop?")
        == "Could you tell me more about the Salt and Pepper Shop?"
    )
    assert (
        read("Could you tell me more about the Salt and Pepper Shop and the castle?")
        == "Could you tell me more about the Salt and Pepper Shop"
    )
    assert (
        read("Could you tell me more about the trade and the Salt and Pepper Shop?")
        == "Could you tell me more about the trade"
    )


@pytest.mark.parametrize("language", ["en", "zh"])
def test_a_joint_before_the_list_cuts_nothing(language: str) -> None:
    """ "Also, could you tell me more about the A and the B?" opens with a comma that is no list: the request still
    asks about the A (and only the A), so neither an honest "Also, ..." nor a template's loses or gains by it."""
    trade_first, castle_first = (
        (
            "Also, could you tell me more about the trade and the castle?",
            "Also, could you tell me more about the castle and the trade?",
        )
        if language == "en"
        else ("另外，能具体说说交易和城堡吗？", "另外，能具体说说城堡和交易吗？")
    )
    assert revealed(language, trade_first, ["1", "3"]) == ["3"]
    assert revealed(language, castle_first, ["1", "3"]) == []


def test_a_chinese_which_one_takes_its_kind_from_the_seekers_clause_before_it() -> None:
    """(zh) "有三座城堡，你说的是哪一座？": the clause before the which, in the same sentence, names the kind it asks
    (R101, as "哪座城堡" would). Jax's own clause said back names nothing the seeker noticed."""
    task = make_task("zh")
    focus = FocusIndex(task)
    heard = task.tree.root.text

    def rule(text: str) -> str | None:
        return focus.asking_rule(focus.questions(text, heard)[0], "2.1")

    assert rule("有三座城堡，你说的是哪一座？") == "R101"
    assert rule("城堡有三座，哪一座？") == "R101"
    assert rule("然后去城堡见他，你说的是哪一座？") != "R101"
    assert rule("你说的是哪一座？") is None


# --- a Chinese kind of one character ----------------------------------------------------------------------------------


def lamp_task(root: str) -> Task:
    nodes = [
        ("0", root, None),
        (
            "1",
            "灯里要加煤油，鲸油会把灯头糊住。",
            "Jax没说加哪种油，而看守人既有煤油也有鲸油。仅当对方询问该用哪一种时，才使用此回复。",
        ),
    ]
    brief = TaskBrief(
        role="灯塔看守人",
        task_name="点亮灯塔",
        items=("灯用煤油", "鲸油"),
        skills=("修剪灯芯",),
        scenes=("北灯塔",),
        background="点亮灯塔。",
    )
    return Task(
        id="zh/14/1",
        language="zh",
        type_number=14,
        type_name="Task",
        index=1,
        split=Split.test,
        brief=brief,
        tree=ResponseTree.build(nodes),
    )


def test_what_governs_a_kind_of_one_character_once_jax_has_spoken_of_it() -> None:
    """ "应该用什么油？" asks which oil (煤油 or 鲸油 share only "油") once Jax has said "加满油"; before he spoke of oil,
    the brief's "油" is a guess at what may be asked."""
    said = lamp_task("爬到灯室，把灯加满油，然后点亮它。")
    turns = [
        Turn(speaker=Speaker.provider, text="hi", kind=ReplyKind.greeting),
        Turn(speaker=Speaker.seeker, text="怎么点亮灯塔？"),
        Turn(speaker=Speaker.provider, text=said.tree.root.text, kind=ReplyKind.root, revealed=["0"]),
        Turn(speaker=Speaker.seeker, text="应该用什么油？"),
    ]
    assert answer(FocusIndex(said), turns, ["1"], multi_info=False, frontier=["1"]) == ["1"]
    unsaid = lamp_task("爬到灯室，换好灯芯，然后点亮它。")
    turns[2] = Turn(speaker=Speaker.provider, text=unsaid.tree.root.text, kind=ReplyKind.root, revealed=["0"])
    assert answer(FocusIndex(unsaid), turns, ["1"], multi_info=False, frontier=["1"]) == []


def test_whose_asks_which_thing_not_who() -> None:
    """ "Whose palace?" asks which palace (by its owner): a question of which thing, not of a person."""
    focus = FocusIndex(make_task("en"))
    (question,) = focus.questions("Whose key opens the chest?")
    assert "identity" in question.classes and "person" not in question.classes
