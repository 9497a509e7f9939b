"""The LLM provider on a scripted model: every intent path, tree gating, the leakage guard, calls per turn."""

from __future__ import annotations

import json

import pytest

from clarq_bench.provider.factory import ProviderMode, make_provider
from clarq_bench.provider.llm_provider import DEFAULT_SEED, LLMProvider
from clarq_bench.tasks import ResponseTree, Split, Task, TaskBrief

try:  # the LLM layer is built in parallel; until it lands these tests cannot run
    from clarq_bench.llm import LLMClient, LLMSettings
    from clarq_bench.testing import ScriptedModel
except ImportError as exc:  # pragma: no cover
    pytest.skip(f"LLM layer not available: {exc}", allow_module_level=True)
from clarq_bench.transcript import Intent, ReplyKind, Speaker, Turn

MODEL = "scripted/jax"

NODES_EN = [
    ("0", "Please bring me rubies from the mine.", None),
    ("1", "Stun the guards with sleeping fog, then you can get into the mine.",
     "Use only if the other party noticed the guards block the mine entrance."),
    ("1.1", "The sleeping fog drifts over the Lantern Marsh at dawn.",
     "Use only if the other party asked where the fog can be collected."),
    ("2", "Dig in the Copper Mine, since the Salt Mine holds no rubies.",
     "Use only if the other party noticed there are two mines."),
]  # fmt: skip
NODES_ZH = [
    ("0", "请帮我从矿井里取回红宝石。", None),
    ("1", "先用安眠雾迷晕守卫，你就能进入矿井。", "仅当对方注意到守卫挡住矿井入口时使用。"),
    ("1.1", "安眠雾在黎明时飘在灯笼沼泽上空。", "仅当对方问到去哪里收集雾时使用。"),
    ("2", "去铜矿挖，盐矿里没有红宝石。", "仅当对方注意到有两个矿井时使用。"),
]


def make_task(language: str = "en") -> Task:
    nodes = NODES_EN if language == "en" else NODES_ZH
    brief = TaskBrief(role="adventurer" if language == "en" else "冒险者", task_name="Fetch rubies",
                      items=("air sucker",), background="Rubies are in one of the mines.")  # fmt: skip
    return Task(id=f"{language}/01/0", language=language, type_number=1, type_name="Gather Resources", index=0,
                split=Split.test, brief=brief, tree=ResponseTree.build(nodes))  # fmt: skip


class Recorder:
    """A scripted model that answers from a list and keeps every prompt it was sent."""

    def __init__(self, *replies: object) -> None:
        self.replies = [r if isinstance(r, str) else json.dumps(r) for r in replies]
        self.prompts: list[str] = []

    def __call__(self, messages: list[dict]) -> str:
        self.prompts.append("\n".join(str(m.get("content", "")) for m in messages))
        return self.replies.pop(0)


def provider_with(recorder: Recorder, language: str = "en", mode: str = "single") -> LLMProvider:
    client = LLMClient(LLMSettings(use_cache=False), scripted={MODEL: ScriptedModel(recorder)})
    return LLMProvider(make_task(language), client, model=MODEL, mode=mode)


def dialogue(*seeker: str, revealed: tuple[str, ...] = (), root: bool = True, language: str = "en") -> list[Turn]:
    """Greeting, the opening request and the root (when `root`), earlier reveals, then the seeker lines."""
    tree = make_task(language).tree
    turns = [Turn(speaker=Speaker.provider, text="Hi", kind=ReplyKind.greeting)]
    if root:
        turns += [Turn(speaker=Speaker.seeker, text="I can help. What is the job?"),
                  Turn(speaker=Speaker.provider, text=tree.root.text, kind=ReplyKind.root, revealed=["0"])]  # fmt: skip
    for node_id in revealed:
        turns += [Turn(speaker=Speaker.seeker, text="question"),
                  Turn(speaker=Speaker.provider, text=tree[node_id].text, kind=ReplyKind.response_i,
                       revealed=[node_id])]  # fmt: skip
    for i, text in enumerate(seeker):
        turns.append(Turn(speaker=Speaker.seeker, text=text))
        if i < len(seeker) - 1:
            turns.append(Turn(speaker=Speaker.provider, text="ok", kind=ReplyKind.response_ii))
    return turns


def decision(intent: int, *ids: str, summary: bool = False) -> dict[str, object]:
    return {"intent": intent, "node_ids": list(ids), "summary_confirmation": summary, "rationale": "because"}


def assert_recorded(turn, calls: int) -> None:
    assert turn.notes["seed"] == DEFAULT_SEED
    assert turn.notes["temperature"] == 0.0
    assert turn.notes["model"]
    assert turn.notes["calls"] == calls


def test_greeting_makes_no_call_and_records_settings():
    recorder = Recorder()
    turn = provider_with(recorder).greeting()
    assert turn.kind == ReplyKind.greeting and turn.text
    assert recorder.prompts == []
    assert_recorded(turn, 0)


async def test_gate_before_root_apology_then_root_verbatim():
    recorder = Recorder({"related": False, "rationale": "small talk"}, {"related": True, "rationale": "asks"})
    provider = provider_with(recorder)
    off = await provider.respond(dialogue("Nice weather today!", root=False))
    assert off.kind == ReplyKind.off_topic and off.revealed == []
    root = await provider.respond(dialogue("Nice weather today!", "What do you need me to do?", root=False))
    assert root.kind == ReplyKind.root and root.text == NODES_EN[0][1] and root.revealed == ["0"]
    assert_recorded(root, 1)
    assert "Nice weather today!" in recorder.prompts[0]


async def test_answerable_turn_is_response_i_verbatim_in_one_call():
    recorder = Recorder(decision(2, "2"))
    turn = await provider_with(recorder).respond(dialogue("There are two mines. Which one has rubies?"))
    assert turn.kind == ReplyKind.response_i and turn.intent == Intent.answerable
    assert turn.text == NODES_EN[3][1] and turn.revealed == ["2"]
    assert_recorded(turn, 1)
    # the decision prompt offers exactly the frontier, with the explanations, and not the gated child
    assert '"1"' in recorder.prompts[0] and '"2"' in recorder.prompts[0] and "Lantern Marsh" not in recorder.prompts[0]
    assert "noticed there are two mines" in recorder.prompts[0]


async def test_intent_three_with_a_frontier_node_still_reveals_it():
    recorder = Recorder(decision(3, "1"))
    turn = await provider_with(recorder).respond(dialogue("The guards block the mine, how do I get in?"))
    assert turn.revealed == ["1"] and turn.intent == Intent.answerable


async def test_child_before_parent_is_refused_and_recorded():
    recorder = Recorder(decision(2, "1.1"), "Don't worry about that, just focus on the mine.")
    turn = await provider_with(recorder).respond(dialogue("Where do I collect fog?"))
    assert turn.revealed == [] and turn.kind == ReplyKind.response_ii
    assert turn.notes["refused_ids"] == ["1.1"]
    assert turn.intent == Intent.unanswerable
    assert_recorded(turn, 2)
    assert "Lantern Marsh" not in turn.text


async def test_after_parent_the_child_is_allowed():
    recorder = Recorder(decision(2, "1.1"))
    turn = await provider_with(recorder).respond(dialogue("Where do I collect fog?", revealed=("1",)))
    assert turn.revealed == ["1.1"] and turn.text == NODES_EN[2][1]


async def test_unknown_and_repeated_ids_never_reveal():
    recorder = Recorder(decision(2, "1"), "As I said, stun the guards with sleeping fog first.")
    turn = await provider_with(recorder).respond(dialogue("How do I get in again?", revealed=("1",)))
    assert turn.revealed == [] and turn.intent == Intent.repeat
    assert "refused_ids" not in turn.notes
    recorder = Recorder(decision(2, "7"), "Hmm, that is not important.")
    turn = await provider_with(recorder).respond(dialogue("What about dragons?"))
    assert turn.notes["refused_ids"] == ["7"] and turn.revealed == []


async def test_single_mode_gives_one_node_multi_info_gives_all_joined_verbatim():
    question = "Which mine, and how do I get past the guards?"
    single = await provider_with(Recorder(decision(2, "2", "1"))).respond(dialogue(question))
    assert single.revealed == ["2"] and single.notes["dropped_ids"] == ["1"]
    multi = await provider_with(Recorder(decision(2, "2", "1")), mode="multi-info").respond(dialogue(question))
    assert multi.revealed == ["1", "2"]
    assert multi.text == f"{NODES_EN[1][1]} {NODES_EN[3][1]}"
    assert_recorded(multi, 1)


async def test_multi_info_zh_joins_without_spaces_and_gates_children():
    recorder = Recorder(decision(2, "2", "1", "1.1"))
    provider = provider_with(recorder, language="zh", mode="multi-info")
    turn = await provider.respond(dialogue("哪个矿井？怎么进去？雾在哪里？", language="zh"))
    assert turn.revealed == ["1", "2"] and turn.text == NODES_ZH[1][1] + NODES_ZH[3][1]
    assert turn.notes["refused_ids"] == ["1.1"]


@pytest.mark.parametrize(
    ("intent", "summary", "instruction"),
    [(1, False, "llm_reply_positive"), (1, True, "llm_reply_summary"), (3, False, "llm_reply_reassure"),
     (4, False, "llm_reply_repeat"), (6, False, "llm_reply_reassure")],
)  # fmt: skip
async def test_generated_response_ii_paths(intent, summary, instruction):
    reply = "Sounds good to me."
    recorder = Recorder(decision(intent, summary=summary), reply)
    turn = await provider_with(recorder).respond(dialogue("So I go to a mine and dig, right?"))
    assert turn.kind == ReplyKind.response_ii and turn.intent == Intent(intent)
    assert turn.text == reply and turn.revealed == []
    assert turn.notes["instruction"] == instruction
    assert_recorded(turn, 2)
    generation = recorder.prompts[1]
    # the generation prompt lists every unrevealed node as forbidden and carries the intent's instruction
    for node_id, text, _ in NODES_EN[1:]:
        assert text in generation
    from clarq_bench import prompts

    assert prompts.render("provider/" + instruction, "en") in generation


async def test_summary_confirmation_gets_plain_positive_even_if_model_names_a_node():
    recorder = Recorder(decision(1, "2", summary=True), "Yes, that plan sounds good.")
    turn = await provider_with(recorder).respond(dialogue("So I dig in the north or west mine, right?"))
    assert turn.revealed == [] and turn.notes["ignored_ids"] == ["2"]
    assert turn.notes["instruction"] == "llm_reply_summary"


async def test_unrelated_turn_gets_fixed_text_in_one_call():
    recorder = Recorder(decision(5))
    turn = await provider_with(recorder).respond(dialogue("Do you like music?"))
    assert turn.kind == ReplyKind.response_ii and turn.intent == Intent.unrelated
    assert_recorded(turn, 1)


async def test_empty_frontier_task_question_gets_enough_in_one_call():
    recorder = Recorder(decision(3))
    turn = await provider_with(recorder).respond(dialogue("Anything about the weather?", revealed=("1", "1.1", "2")))
    assert turn.kind == ReplyKind.enough and turn.revealed == []
    assert_recorded(turn, 1)
    assert "(none)" in recorder.prompts[0]  # nothing is offered any more


async def test_leak_is_regenerated_once_and_recorded():
    leaky = "Just dig in the Copper Mine, the Salt Mine holds no rubies."
    recorder = Recorder(decision(6), leaky, "Don't overthink it, you're on the right track.")
    turn = await provider_with(recorder).respond(dialogue("Anything else?"))
    assert turn.text == "Don't overthink it, you're on the right track."
    guard = turn.notes["leak_guard"]
    assert len(guard) == 1 and guard[0]["hits"][0]["node_id"] == "2"
    assert "leak_fallback" not in turn.notes
    assert_recorded(turn, 3)
    assert NODES_EN[3][1] in recorder.prompts[2].split("previous draft")[1]  # the retry names what leaked


async def test_leak_twice_falls_back_to_safe_template():
    leaky = "Get sleeping fog over the Lantern Marsh at dawn and dig in the Copper Mine."
    recorder = Recorder(decision(3), leaky, leaky)
    turn = await provider_with(recorder).respond(dialogue("How do I find rubies?"))
    from clarq_bench import prompts

    assert turn.text == prompts.render("provider/llm_safe", "en")
    assert turn.notes["leak_fallback"] is True and len(turn.notes["leak_guard"]) == 2
    assert {hit["node_id"] for hit in turn.notes["leak_guard"][0]["hits"]} >= {"2"}


async def test_restating_revealed_content_is_not_a_leak():
    reply = "Just stun the guards with sleeping fog, then you can get into the mine."
    recorder = Recorder(decision(6), reply)
    turn = await provider_with(recorder).respond(dialogue("What next?", revealed=("1",)))
    assert turn.text == reply and "leak_guard" not in turn.notes


async def test_malformed_decision_is_reasked_by_the_llm_layer():
    recorder = Recorder("I think it is intent 2", decision(2, "2"))
    turn = await provider_with(recorder).respond(dialogue("Which of the two mines?"))
    assert turn.revealed == ["2"]
    assert len(recorder.prompts) == 2


async def test_ids_written_as_numbers_are_accepted():
    recorder = Recorder({"intent": 2, "node_ids": [2], "rationale": "x"})
    turn = await provider_with(recorder).respond(dialogue("Which of the two mines?"))
    assert turn.revealed == ["2"]


async def test_zh_prompts_are_chinese_and_complete():
    recorder = Recorder(decision(6), "别想太多，按计划来就好。")
    turn = await provider_with(recorder, language="zh").respond(dialogue("还有别的吗？", language="zh"))
    assert turn.text == "别想太多，按计划来就好。"
    decide, generate = recorder.prompts
    assert "冒险者：还有别的吗？" in decide and "仅当对方注意到有两个矿井时使用" in decide
    assert "Give it only when" not in decide and "{" not in decide.replace('{"intent"', "")
    assert "安眠雾在黎明时飘在灯笼沼泽上空。" in generate


def test_factory_builds_llm_provider_for_model_names():
    client = LLMClient(LLMSettings(use_cache=False), scripted={MODEL: ScriptedModel(["{}"])})
    provider = make_provider("gpt-4o", make_task(), "multi-info", client=client, seed=7)
    assert isinstance(provider, LLMProvider)
    assert provider.model == "gpt-4o" and provider.mode == ProviderMode.multi_info and provider.seed == 7
