"""The offline provider: gating, verbatim Response I, no leakage in Response II, English and Chinese."""

from __future__ import annotations

import pytest

from clarq_bench.core import prompts
from clarq_bench.core.errors import ClarqError
from clarq_bench.core.tasks import ResponseTree, Split, Task, TaskBrief
from clarq_bench.core.transcript import Intent, ReplyKind, Speaker, Turn
from clarq_bench.data.textmatch import carries_node
from clarq_bench.provider.factory import make_provider
from clarq_bench.provider.lexical import TaskIndex, tokens
from clarq_bench.provider.offline.linear_model import select
from clarq_bench.provider.offline.provider import OfflineProvider

EN_NODES = [
    ("0", "You can go to the mine to dig for rubies.", None),
    (
        "1",
        "If you stun the monsters, then you can enter the mine.",
        "This response addresses how to enter the mine guarded by monsters. Use it only if the other party noticed "
        "they cannot enter the mine.",
    ),
    (
        "1.1",
        "You can release fog from the swamp into the mine to stun the monsters.",
        "This response addresses how to stun the monsters. Use it only if the other party asks how to stun them.",
    ),
    (
        "2",
        "You should go to the North Mine, as only the North Mine has rubies.",
        "There are two mines, North Mine and West Mine. This response addresses which mine to go to.",
    ),
]
ZH_NODES = [
    ("0", "你可以去山脉挖胡萝卜，然后去山脉高处制造烟雾。", None),
    (
        "1",
        "北方山脉才有很多胡萝卜。",
        "这个回复用于解答应该去哪个山脉挖胡萝卜的疑问。注：只有在对方注意到存在多个山脉且不确定应该去哪一个挖胡萝卜才使用。",
    ),
    (
        "2",
        "你应该前往东方山脉的高处，因为只有东方山脉附近存在村庄。",
        "这个回复用于解答应该去哪个山脉的高处制造烟雾的疑问。",
    ),
]


def make_task(language: str, nodes) -> Task:
    brief = TaskBrief(
        role="adventurer",
        task_name="rubies" if language == "en" else "生存",
        items=("air sucker",),
        skills=("dig",),
        scenes=("North Mine", "West Mine", "Swamp"),
        background="Collect rubies from a mine." if language == "en" else "在山脉中生存。",
    )
    return Task(
        id=f"{language}/01/0",
        language=language,
        type_number=1,
        type_name="Gather Resources",
        index=0,
        split=Split.test,
        brief=brief,
        tree=ResponseTree.build(nodes),
    )


def dialogue(*exchanges: tuple[str, object]) -> list[Turn]:
    """Turns from (seeker text, provider ProviderTurn-or-None) pairs; a None reply ends the list on the seeker."""
    turns = [Turn(speaker=Speaker.provider, text="what can help you?", kind=ReplyKind.greeting)]
    for seeker, reply in exchanges:
        turns.append(Turn(speaker=Speaker.seeker, text=seeker))
        if reply is not None:
            turns.append(reply.to_turn())
    return turns


async def play(provider: OfflineProvider, seeker_turns: list[str]) -> list:
    """Play seeker turns against the provider; returns the provider's replies."""
    turns = [provider.greeting().to_turn()]
    replies = []
    for text in seeker_turns:
        turns.append(Turn(speaker=Speaker.seeker, text=text))
        reply = await provider.respond(turns)
        replies.append(reply)
        turns.append(reply.to_turn())
    return replies


def unrevealed_leak(task: Task, text: str, revealed: set[str]) -> list[str]:
    return [n.id for n in task.tree.required if n.id not in revealed and carries_node(text, n.text, task.language)]


async def test_root_gate_then_verbatim_response_i_en():
    task = make_task("en", EN_NODES)
    provider = OfflineProvider(task)
    first, second = await play(
        provider,
        [
            "Hi, I need help collecting rubies for my quest.",
            "Which mine should I go to, the North Mine or the West Mine?",
        ],
    )
    assert first.kind == ReplyKind.root and first.text == task.tree.root.text and first.revealed == ["0"]
    assert second.kind == ReplyKind.response_i and second.intent == Intent.answerable
    assert second.revealed == ["2"] and second.text == task.tree["2"].text


async def test_unrelated_opening_gets_no_root():
    provider = OfflineProvider(make_task("en", EN_NODES))
    (reply,) = await play(provider, ["lovely weather today"])
    assert reply.kind == ReplyKind.off_topic and reply.revealed == []
    assert reply.text == prompts.render("provider/offline_off_topic", "en")


async def test_child_never_before_parent():
    task = make_task("en", EN_NODES)
    stun = "How do I stun the monsters? Should I release fog from the swamp into the mine?"
    enter = "How can I enter the mine past the monsters?"
    for script in (
        ["I need help collecting rubies.", stun, enter, stun],
        [
            "I need help collecting rubies.",
            "Which mine, North or West?",
            stun,
            "How can I enter the mine past the monsters?",
            stun,
        ],
    ):
        replies = await play(OfflineProvider(task), script)
        seen: set[str] = {"0"}
        for reply in replies[1:]:
            assert reply.revealed == [] or len(reply.revealed) == 1
            for node_id in reply.revealed:
                assert task.tree[node_id].parent in seen, f"{node_id} revealed before its parent"
                assert reply.text == task.tree[node_id].text  # Response I is verbatim
                seen.add(node_id)
        assert "1.1" not in replies[1].revealed  # asked first, before its parent is out
        assert "1.1" in seen  # asked again once the parent is out


async def test_response_ii_never_leaks_unrevealed_text():
    task = make_task("en", EN_NODES)
    provider = OfflineProvider(task)
    turns = [
        "I need help collecting rubies.",
        "Thanks. So my plan is fine, is that correct?",
        "Is there anything else I should know?",
        "Do you like pizza?",
        "How long will the whole quest take?",
        "Which mine should I go to, North or West?",
        "Sorry, tell me again: which one is it, North or West?",
    ]
    replies = await play(provider, turns)
    revealed: set[str] = set()
    kinds = set()
    for reply in replies:
        if reply.kind != ReplyKind.response_i:
            assert unrevealed_leak(task, reply.text, revealed) == []
            kinds.add(reply.intent)
        revealed.update(reply.revealed)
    assert {Intent.confirm_task, Intent.vague, Intent.unrelated, Intent.unanswerable} <= kinds
    assert replies[-2].revealed == ["2"]
    assert replies[-1].intent == Intent.repeat and task.tree["2"].text in replies[-1].text


async def test_enough_when_frontier_empty():
    task = make_task("zh", ZH_NODES)
    provider = OfflineProvider(task)
    turns = dialogue(("我需要在这里生存，请帮帮我。", None))
    turns += [
        task_turn(task, "0", ReplyKind.root),
        Turn(speaker=Speaker.seeker, text="哪个山脉有胡萝卜？"),
        task_turn(task, "1"),
        Turn(speaker=Speaker.seeker, text="哪个山脉的高处可以制造烟雾？"),
        task_turn(task, "2"),
        Turn(speaker=Speaker.seeker, text="还有什么我需要知道的吗？"),
    ]
    reply = await provider.respond(turns)
    assert reply.kind == ReplyKind.enough and reply.revealed == []
    assert reply.text == prompts.render("provider/offline_enough", "zh")


def task_turn(task: Task, node_id: str, kind: ReplyKind = ReplyKind.response_i) -> Turn:
    return Turn(speaker=Speaker.provider, text=task.tree[node_id].text, kind=kind, revealed=[node_id])


async def test_chinese_selects_by_character_bigrams():
    task = make_task("zh", ZH_NODES)
    replies = await play(
        OfflineProvider(task), ["我需要在这里生存，请帮帮我。", "请问我应该去哪个山脉的高处制造烟雾？东方还是西方？"]
    )
    assert replies[0].kind == ReplyKind.root
    assert replies[1].revealed == ["2"] and replies[1].text == task.tree["2"].text


def test_lexical_matcher_alone_ranks_the_asked_node():
    """The lexical path (no embeddings) works by itself in both languages."""
    assert "胡萝" in tokens("哪个山脉有胡萝卜", "zh") and "mine" in tokens("Which mines?", "en")
    en = make_task("en", EN_NODES)
    assert select(TaskIndex(en.tree, "en"), "Which mine has the rubies, North or West?", ["1", "2"]).chosen == ["2"]
    zh = make_task("zh", ZH_NODES)
    assert select(TaskIndex(zh.tree, "zh"), "哪个山脉盛产胡萝卜？", ["1", "2"]).chosen == ["1"]


async def test_multi_info_reveals_all_asked_nodes_intact():
    task = make_task("en", EN_NODES)
    provider = OfflineProvider(task, multi_info=True)
    replies = await play(
        provider,
        [
            "I need help collecting rubies.",
            "How can I enter the mine past the monsters? And which mine, North or West?",
        ],
    )
    reply = replies[1]
    assert reply.revealed == ["1", "2"]
    assert all(carries_node(reply.text, task.tree[i].text, "en") for i in reply.revealed)


def test_factory():
    task = make_task("en", EN_NODES)
    assert isinstance(make_provider("offline", task, "multi-info"), OfflineProvider)
    assert make_provider("offline", task).multi_info is False


def test_templates_exist_for_both_languages_and_hold_no_braces_but_previous():
    for name in (
        "offline_off_topic",
        "offline_positive",
        "offline_reassure",
        "offline_repeat",
        "offline_repeat_generic",
        "offline_unrelated",
        "offline_enough",
    ):
        for language in ("en", "zh"):
            text = prompts.load(f"provider/{name}", language)
            assert text and text.replace("{previous}", "").count("{") == 0
    with pytest.raises(ClarqError):
        prompts.load("provider/no_such_template", "en")


# --- "what must be noticed" focus features -------------------------------------------------------------------------

NOTICED_NODES = [
    ("0", "Get the priest in a castle to bless your pure water.", None),
    (
        "1",
        "The pass to enter the castle can only be requested from Henry's office.",
        "Note: Use this response only if the other party has noticed the need for a pass and is unsure where to "
        "obtain it.",
    ),
    (
        "2",
        "Currently only Dusk Castle has a priest.",
        "Note: Use this response only if the other party has noticed that there are multiple castles and is unsure "
        "which one has a priest.",
    ),
]


def test_focus_phrase_reads_the_note_clause_in_both_languages():
    from clarq_bench.provider.lexical import competing_options, focus_phrase

    explanation = NOTICED_NODES[2][2]
    assert focus_phrase(explanation, "en").startswith("that there are multiple castles")
    assert competing_options(explanation, "en") == ["castles"]
    zh = "前面没有说清楚去哪个工作室。注：只有在对方注意到存在多个工作室且不确定应该去哪一个才使用这个回复。"
    assert focus_phrase(zh, "zh") == "工作室且不确定应该去哪一个"
    focus = TaskIndex(ResponseTree.build([("0", "根", None), ("1", "去莉莉工作室。", zh)]), "zh").focus_terms["1"]
    assert {"工作", "作室"} <= focus and not focus & {"去哪", "哪一", "不确", "应该"}
    assert competing_options(zh, "zh") == ["工作室"]
    # No note: the first sentence (the gap the node fills) stands in; nothing at all gives "".
    assert (
        focus_phrase("There are multiple rivers. This response addresses which.", "en") == "There are multiple rivers."
    )
    assert focus_phrase(None, "en") == "" and competing_options(None, "en") == []


def test_focus_terms_drop_boilerplate():
    index = TaskIndex(make_task("en", NOTICED_NODES).tree, "en")
    assert index.focus_terms["2"] == {"castle", "priest"}
    assert "pass" in index.focus_terms["1"] and "lack" not in index.focus_terms["1"]
    assert "multiple" not in index.focus_terms["2"] and "unsure" not in index.focus_terms["2"]


def test_seeker_must_mention_what_the_node_needs_noticed():
    """Node 1's text shares 'castle' with the turn, but only node 2's noticed uncertainty (which castle) is asked."""
    from clarq_bench.provider.offline.linear_model import node_features

    index = TaskIndex(make_task("en", NOTICED_NODES).tree, "en")
    turn = "Thanks, Jax. Just to clarify, which castle should I go to in order to find the priest?"
    rows = node_features(index, turn, ["1", "2"])
    assert rows[1]["fq"] > rows[0]["fq"] and rows[1]["fo"] == 1.0 and rows[0]["fo"] == 0.0
    assert select(index, turn, ["1", "2"]).chosen == ["2"]


def test_a_question_that_points_back_is_read_with_the_statement_before_it():
    """ "Which one" / "one" stand for what the seeker's statement just named; a statement copied from Jax, a
    preamble ending in a colon or a long statement is not read so."""
    from clarq_bench.provider.offline.linear_model import asked_in_context, node_features

    assert asked_in_context("There are two castles. Which one do you mean?", "en") == [
        "There are two castles. Which one do you mean?"
    ]
    assert asked_in_context("I don't have a pass. Where can I get one?", "en") == [
        "I don't have a pass. Where can I get one?"
    ]
    assert asked_in_context("There are two castles. Which priest should I ask?", "en") == [
        "Which priest should I ask?"
    ]  # nothing points back
    assert asked_in_context("A few questions:\nWhich one?", "en") == ["Which one?"]
    heard = ["You need to bless the water at the castle before dusk."]
    copied = "You said bless the water at the castle before dusk. Which one?"
    assert asked_in_context(copied, "en", heard) == ["Which one?"]
    long = "I went to the market and bought bread, cheese, apples, pears, plums and a knife. Which one is it?"
    assert asked_in_context(long, "en") == ["Which one is it?"]
    index = TaskIndex(make_task("en", NOTICED_NODES).tree, "en")
    rows = node_features(index, "There are several castles. Which one do you mean?", ["1", "2"])
    assert rows[1]["fq"] > 0.0  # the castle is asked


def test_indirect_requests_count_as_questions_but_recaps_do_not():
    from clarq_bench.provider.lexical import is_question, question_text

    assert is_question("I'd like to know which castle has the priest.", "en")
    assert is_question("Please tell me where the pass is issued", "en")
    assert not is_question("I will head to Dusk Castle with the pure water.", "en")
    turn = "I will go to the castle first. I'm not sure which priest to ask."
    assert question_text(turn, "en") == "I'm not sure which priest to ask."


def test_specific_questions_exclude_open_and_confirmation_sentences():
    from clarq_bench.provider.offline.linear_model import node_features

    index = TaskIndex(make_task("en", NOTICED_NODES).tree, "en")
    rows = node_features(
        index, "I will bless the water in a castle, is that correct? Anything else I should know?", ["1", "2"]
    )
    assert all(row["nspec"] == 0.0 and row["sf"] == 0.0 for row in rows)
    assert select(index, "Is there anything else I should know?", ["1", "2"]).chosen == []


def context_dialogue(task: Task, *exchanges: tuple[str, str | None]) -> list[Turn]:
    """Greeting, an opening answered by the root, then (seeker text, revealed node id or None) exchanges; the
    last seeker text gets no reply."""
    turns = [
        Turn(speaker=Speaker.provider, text="what can help you?", kind=ReplyKind.greeting),
        Turn(speaker=Speaker.seeker, text="I need help collecting rubies."),
        task_turn(task, "0", ReplyKind.root),
    ]
    for seeker, node_id in exchanges:
        turns.append(Turn(speaker=Speaker.seeker, text=seeker))
        if node_id is not None:
            turns.append(task_turn(task, node_id))
    return turns


def test_context_features_read_the_dialogue_so_far():
    from clarq_bench.provider.offline.context import CONTEXT_FEATURES, context_features
    from clarq_bench.provider.offline.linear_model import node_features

    task = make_task("en", EN_NODES)
    index = TaskIndex(task.tree, "en")
    first_turn = "Which mine should I go to?"
    first = context_dialogue(task, (first_turn, None))
    rows = context_features(index, first, ["1", "2"], node_features(index, first_turn, ["1", "2"]))
    assert all(set(row) == set(CONTEXT_FEATURES) for row in rows)
    assert [row["first"] for row in rows] == [1.0, 1.0] and rows[0]["nrev"] == 0.0
    assert rows[1]["rank"] == 0.0 and rows[1]["gap"] > 0 > rows[0]["gap"]  # "mine ... go to" is node 2's question

    # Later: node 1 was revealed, the seeker now recaps it; node 1.1 is its child, node 2 was asked about before.
    recap_turn = "So I stun the monsters and then enter the mine, right?"
    later = context_dialogue(
        task,
        ("Which one of the two mines, North or West?", None),
        ("How do I get into the mine?", "1"),
        (recap_turn, None),
    )
    frontier = task.tree.frontier(["1"])
    assert frontier == ["1.1", "2"]
    rows = dict(zip(frontier, context_features(index, later, frontier, node_features(index, recap_turn, frontier))))
    assert rows["1.1"]["first"] == 0.0 and rows["1.1"]["nrev"] == 1.0
    assert rows["1.1"]["childlast"] == 1.0 and rows["2"]["childlast"] == 0.0
    assert rows["1.1"]["depth"] == 2.0 and rows["2"]["depth"] == 1.0
    assert rows["2"]["prevf"] > 0.0 == rows["1.1"]["prevf"]
    # Every word of the turn is in the revealed texts; some only there (not in any frontier node's document).
    assert rows["2"]["fresh"] == 0.0 < rows["2"]["recap"]
    ask = "Which mine has rubies, North or West?"
    fresh = context_features(
        index, context_dialogue(task, (ask, None)), ["1", "2"], node_features(index, ask, ["1", "2"])
    )
    assert fresh[0]["fresh"] > 0.0


def test_every_model_weighs_exactly_the_declared_features():
    from clarq_bench.provider.offline.linear_model import FEATURES, MULTI_INFO, SINGLE_INFO

    for model in (SINGLE_INFO, MULTI_INFO):
        assert set(model.weights) == set(FEATURES) and 0 < model.threshold < 1


def test_context_alone_never_reveals_a_node_the_turn_does_not_mention():
    """The first turn after the root pushes scores up; a content-free turn there still reveals nothing."""
    task = make_task("en", EN_NODES)
    index = TaskIndex(task.tree, "en")
    turn = "Thanks. So my plan is fine, is that correct?"
    history = context_dialogue(task, (turn, None))
    assert select(index, turn, ["1", "2"], history=history).chosen == []
    asked = "Which mine has the rubies, North or West?"
    assert select(index, asked, ["1", "2"], history=context_dialogue(task, (asked, None))).chosen == ["2"]


def test_char_grams_meet_inflections_and_chinese_without_segmentation():
    from clarq_bench.provider.lexical import char_grams

    assert char_grams("Mines!", "en") & char_grams("the mine", "en") >= {" min", "mine"}
    assert {"山脉", "东", "东方"} <= char_grams("东方 山脉", "zh")
    index = TaskIndex(make_task("zh", ZH_NODES).tree, "zh")
    asked = char_grams("哪个山脉有胡萝卜？", "zh")
    assert index.gram_cover(index.text_grams["1"], asked) > index.gram_cover(index.text_grams["2"], asked)


def test_option_miss_flags_nodes_whose_multiple_x_is_never_named():
    from clarq_bench.provider.offline.linear_model import node_features

    index = TaskIndex(make_task("en", EN_NODES).tree, "en")
    silent = dict(zip(["1", "2"], node_features(index, "How do I get past the monsters?", ["1", "2"])))
    assert silent["2"]["hasopt"] == 1.0 and silent["2"]["omiss"] == 1.0 and silent["2"]["fot"] == 0.0
    assert silent["1"]["hasopt"] == 0.0 and silent["1"]["omiss"] == 0.0
    named = node_features(index, "Which of the two mines has rubies?", ["2"])[0]
    assert named["omiss"] == 0.0 < named["fot"]


def test_generated_weights_cover_exactly_the_features():
    from clarq_bench.provider.offline.embeddings import EMBEDDING_FEATURES
    from clarq_bench.provider.offline.linear_model import FEATURES
    from clarq_bench.provider.offline.weights import MODELS

    assert set(MODELS) == {"single", "multi", "single-e5"}
    for key, model in MODELS.items():
        names = FEATURES + EMBEDDING_FEATURES if key.endswith("-e5") else FEATURES
        assert list(model["weights"]) == list(names) and 0 < model["threshold"] < 1
