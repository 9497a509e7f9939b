"""The red-team suite: never given the tree, deterministic, several wordings, all turns used, never says goodbye."""

from __future__ import annotations

import json

import pytest
from runner_helpers import make_task
from upstream_paths import UPSTREAM_DATA, needs_upstream

from clarq_bench.core.goodbye import is_goodbye
from clarq_bench.core.tasks import Task
from clarq_bench.core.transcript import Intent, ReplyKind, Speaker, Turn
from clarq_bench.provider.base import ProviderState, ProviderTurn
from clarq_bench.provider.factory import make_provider
from clarq_bench.runner.dialogue import play_dialogue
from clarq_bench.seekers import adversarial
from clarq_bench.seekers.base import DialogueView
from clarq_bench.seekers.registry import ENUMERATION, REDTEAM, SeekerConfig, SeekerTask, build_seeker, seekers

NAMES = list(REDTEAM)
#: Red team and enumeration: every strategy of seekers/adversarial.py.
EVERY = NAMES + list(ENUMERATION)
CLASSES = {**adversarial.STRATEGIES, **adversarial.ENUMERATION}


def zh_task(index: int = 0) -> Task:
    task = make_task(index, language="zh")
    brief = task.brief.model_copy(
        update={
            "role": "冒险者",
            "task_name": "收集红宝石",
            "items": ("吸气器",),
            "skills": ("召唤挖掘机挖掘", "召唤小铲子挖掘"),
            "scenes": ("西矿（有怪物把守）", "北矿（有怪物把守）", "迷雾森林", "幻想森林"),
            "background": "你是冒险者。问Jax怎么收集红宝石。结束时对Jax说“再见”。",
        }
    )
    return task.model_copy(update={"brief": brief})


def test_registry_matches_the_strategies_and_clarq_seekers_lists_them(capsys):
    from clarq_bench.cli.main import main

    assert list(adversarial.STRATEGIES) == NAMES
    assert all(REDTEAM[name] == cls.__name__ for name, cls in adversarial.STRATEGIES.items())
    assert main(["seekers", "--all", "--json"]) == 0
    listed = {row["name"]: row["description"] for row in json.loads(capsys.readouterr().out)}
    for name in NAMES:
        assert name in seekers and listed[name].startswith("Red team")
    assert list(adversarial.ENUMERATION) == list(ENUMERATION)
    assert all(ENUMERATION[name] == cls.__name__ for name, cls in adversarial.ENUMERATION.items())
    for name in ENUMERATION:
        assert name in seekers and listed[name].startswith("Enumeration")


@pytest.mark.parametrize("name", EVERY)
def test_factory_gets_a_seeker_task_never_the_tree(name, monkeypatch):
    seen = []
    cls = CLASSES[name]
    real = cls.__init__

    def spy(self, task, config=None):
        seen.append(task)
        real(self, task, config)

    monkeypatch.setattr(cls, "__init__", spy)
    build_seeker(name, make_task())
    assert len(seen) == 1 and type(seen[0]) is SeekerTask and not hasattr(seen[0], "tree")
    assert not getattr(cls, "needs_tree", False)
    with pytest.raises(TypeError):
        cls(make_task())  # handed a full Task directly, it refuses


class QuietProvider:
    """The root for the first turn, then a reply that reveals nothing (the seekers' side is under test here, and
    the offline provider takes seconds over twelve 20,000-character Chinese turns)."""

    def __init__(self, task: Task) -> None:
        self.task = task

    def greeting(self) -> ProviderTurn:
        return ProviderTurn(text="what can help you?", kind=ReplyKind.greeting)

    async def respond(self, turns: list[Turn]) -> ProviderTurn:
        if not ProviderState.from_turns(self.task.tree, turns).root_given:
            return ProviderTurn(text=self.task.tree.root.text, kind=ReplyKind.root, revealed=["0"])
        return ProviderTurn(text="Just carry on as you are.", kind=ReplyKind.response_ii, intent=Intent.vague)


async def play(name: str, task: Task, provider: str = "offline", max_turns: int = 12, trial: int = 0):
    seeker = build_seeker(name, task, SeekerConfig(name=name))
    agent = QuietProvider(task) if provider == "quiet" else make_provider(provider, task)
    return await play_dialogue(task, seeker, agent, max_turns=max_turns, trial=trial)


def seeker_lines(transcript) -> list[str]:
    return [turn.text for turn in transcript.turns if turn.speaker == Speaker.seeker]


@pytest.mark.parametrize("name", EVERY)
@pytest.mark.parametrize("language", ["en", "zh"])
async def test_every_strategy_opens_normally_uses_every_turn_and_is_deterministic(name, language):
    task = make_task() if language == "en" else zh_task()
    first, again = await play(name, task, "quiet"), await play(name, task, "quiet")
    lines = seeker_lines(first)
    assert lines == seeker_lines(again)
    assert len(lines) == 12 and first.end_reason.value == "turn_cap"
    assert first.turns[2].revealed == ["0"]  # the opening request got the root
    assert not any(is_goodbye(line) for line in lines)


@pytest.mark.parametrize("name", [n for n in EVERY if n != "red-same-turn"])
def test_several_wordings_across_turns_and_tasks(name):
    shapes = set()
    for _index, task in enumerate([make_task(i) for i in range(4)] + [zh_task(i) for i in range(4)]):
        seeker = build_seeker(name, task)
        for turn in range(1, 8):
            view = view_of(task, turn)
            text = seeker.attack(view, turn)  # type: ignore[attr-defined]
            shapes.add(text[:40])
    assert len(shapes) >= 6, shapes


def test_same_turn_repeats_itself_but_differs_between_tasks():
    texts = {}
    for task in [make_task(i) for i in range(6)]:
        seeker = build_seeker("red-same-turn", task)
        said = {seeker.attack(view_of(task, turn), turn) for turn in range(1, 12)}  # type: ignore[attr-defined]
        assert len(said) == 1
        texts[task.id] = said.pop()
    assert len(set(texts.values())) >= 2


def view_of(task: Task, turns: int, reply: str = "You need to dig in the mine at dawn.") -> DialogueView:
    history = [Turn(speaker=Speaker.provider, text="what can help you?")]
    for _ in range(turns):
        history += [Turn(speaker=Speaker.seeker, text="q"), Turn(speaker=Speaker.provider, text=reply)]
    return DialogueView(task_id=task.id, language=task.language, brief=task.brief, turns=tuple(history))


async def test_strategies_do_what_they_say():
    task = make_task()

    async def turn(name: str, number: int = 1, reply: str = "Dig in the North Mine.") -> str:
        return await build_seeker(name, task).respond(view_of(task, number, reply))

    each = await turn("red-keyword-each")
    assert all(term in each for term in ("West Mine", "North Mine", "Mist Forest", "air sucker", "monsters guard it"))
    assert each.count("?") >= 8
    listed = await turn("red-keyword-list")
    assert "?" not in listed and "Fantasy Forest" in listed
    options = await turn("red-option-spray")
    assert options.count(" or ") == 6 and "(" not in options
    dump = await turn("red-brief-dump")
    assert "Ask Jax how to collect rubies" in dump and not is_goodbye(dump)
    assert "North Mine" in await turn("red-echo", 2, "Dig in the North Mine.")
    assert len(await turn("red-long")) == adversarial.LONG_TURN_CHARS
    other = await turn("red-other-language")
    assert any("\u4e00" <= char <= "\u9fff" for char in other) and "West Mine" in other
    zh = zh_task()
    other_zh = await build_seeker("red-other-language", zh).respond(view_of(zh, 1))
    assert "西矿" in other_zh and any(word in other_zh for word in ("What", "Can", "How", "Explain", "Which"))


def test_every_wording_file_renders_in_both_languages():
    for name in (
        "keyword_each",
        "keyword_one",
        "keyword_list",
        "option_spray",
        "brief_dump",
        "content_free",
        "injection",
        "echo",
        "long",
    ):
        for language in ("en", "zh"):
            lines = adversarial.wordings(name, language)
            assert len(lines) >= 4, (name, language)
            for line in lines:
                adversarial.fill(line, term="x", terms="x", options="x", background="x", reply="x", task_name="x")


async def test_against_the_offline_provider_every_strategy_plays_to_the_cap():
    for name in NAMES:
        transcript = await play(name, make_task(), max_turns=4)
        assert transcript.end_reason.value == "turn_cap" and transcript.turns[2].revealed == ["0"], name


@needs_upstream
async def test_real_briefs_never_end_the_dialogue_early():
    from clarq_bench.data.loader import load_tasks

    tasks = load_tasks(UPSTREAM_DATA, ("en", "zh"), types=[14])
    for task in tasks[::3]:
        for name in ("red-brief-dump", "red-long"):
            transcript = await play(name, task, max_turns=3)
            assert transcript.end_reason.value == "turn_cap", (task.id, name)


def test_the_enumerators_walk_the_brief_one_option_or_one_pair_per_turn():
    from clarq_bench.seekers.adversarial import listed_options, option_pairs

    task = make_task()
    options = listed_options(SeekerTask.of(task))
    one, pairs = build_seeker("enum-one-each", task), build_seeker("enum-pairs", task)
    asked = [one.attack(view_of(task, turn), turn) for turn in range(1, len(options) + 1)]  # type: ignore[attr-defined]
    assert all(option in text for option, text in zip(options, asked))  # every option once, in brief order
    assert option_pairs(["A", "B", "C"]) == [("A", "B"), ("B", "C"), ("A", "C")]  # neighbours first
    a, b = option_pairs(options)[0]
    first = pairs.attack(view_of(task, 1), 1)  # type: ignore[attr-defined]
    assert a in first and b in first and first.endswith("?")


def test_the_kind_walker_asks_one_kind_the_brief_lists_twice_or_more_per_turn():
    from clarq_bench.seekers.adversarial import brief_kinds

    task = make_task()
    kinds = brief_kinds(SeekerTask.of(task))
    names = " ".join(n.lower() for n in (*task.brief.items, *task.brief.skills, *task.brief.scenes))
    assert kinds and all(names.count(kind) >= 2 for kind in kinds)
    walker = build_seeker("enum-kinds", task)
    asked = [walker.attack(view_of(task, turn), turn) for turn in range(1, len(kinds) + 1)]  # type: ignore[attr-defined]
    assert all(kind in text and text.endswith("?") for kind, text in zip(kinds, asked))
    scenes = ("东门", "北门", "亨利铁匠铺", "乔治铁匠铺")
    zh = SeekerTask.of(task).model_copy(
        update={"language": "zh", "brief": task.brief.model_copy(update={"scenes": scenes})}
    )
    assert brief_kinds(zh)[-2:] == ["门", "铁匠铺"]


def answered(view: DialogueView, question: str, reply: str) -> DialogueView:
    """The view after the seeker asked `question` and Jax answered `reply`."""
    turns = (*view.turns, Turn(speaker=Speaker.seeker, text=question), Turn(speaker=Speaker.provider, text=reply))
    return DialogueView(task_id=view.task_id, language=view.language, brief=view.brief, turns=turns)


def test_the_clause_walker_asks_about_each_clause_of_jaxs_answers_once_oldest_first():
    from clarq_bench.seekers.adversarial import reply_clauses

    task = make_task()
    said = "You need to trade a gem with Henry, then summon the divine beast. Keep the crystal safe."
    view = view_of(task, 1, said)
    assert reply_clauses(view, "en") == ["trade a gem with henry", "summon the divine beast", "keep the crystal safe"]
    walker = build_seeker("enum-clauses", task)
    first = walker.attack(view, 1)  # type: ignore[attr-defined]
    assert "trade a gem with henry" in first and first.endswith("?")
    asked = answered(view, first, said)
    assert reply_clauses(asked, "en") == reply_clauses(view, "en")  # a reply said again word for word adds nothing
    assert "summon the divine beast" in walker.attack(asked, 2)  # type: ignore[attr-defined]
    assert reply_clauses(view_of(task, 1, "先去北边的矿山，再用铁镐挖矿。"), "zh") == ["先去北边的矿山", "再用铁镐挖矿"]
    steps = build_seeker("enum-steps", task).attack(view, 1)  # type: ignore[attr-defined]
    assert "trade a gem with henry" in steps and steps.startswith(("How", "Where"))
    probes = build_seeker("enum-probes", task).attack(view, 1)  # type: ignore[attr-defined]
    assert probes.count("trade a gem with henry") == 3 and probes.count("?") == 3  # one clause, three question words


def test_the_scrambled_walker_says_each_clause_of_jaxs_back_out_of_order_once():
    from clarq_bench.seekers.scrambled_walk import scrambled

    assert scrambled("trade a gem with henry", "en") == "henry gem trade"
    assert scrambled("先去北边的矿山", "zh") == "矿山北边先去"  # runs of content cut in pairs, last first
    task = make_task()
    said = "You need to trade a gem with Henry, then summon the divine beast."
    view = view_of(task, 1, said)
    walker = build_seeker("enum-scrambled", task)
    first = walker.attack(view, 1)  # type: ignore[attr-defined]
    assert "henry gem trade" in first and first.endswith("?")
    asked = answered(view, first, said)
    assert "beast divine summon" in walker.attack(asked, 2)  # type: ignore[attr-defined]


def test_the_telegraphic_walker_keeps_his_order_and_drops_his_grammar():
    from clarq_bench.seekers.scrambled_walk import scrambled

    assert scrambled("trade a gem with henry", "en", keep_order=True) == "trade gem henry"
    assert scrambled("先去北边的矿山", "zh", keep_order=True) == "先去北边矿山"
    task = make_task()
    said = "You need to trade a gem with Henry, then summon the divine beast."
    walker = build_seeker("enum-telegraphic", task)
    first = walker.attack(view_of(task, 1, said), 1)  # type: ignore[attr-defined]
    assert "trade gem henry" in first and first.endswith("?")


@pytest.mark.parametrize("name", EVERY)
@pytest.mark.parametrize("language", ["en", "zh"])
async def test_every_strategy_says_goodbye_once_told_it_has_enough(name, language):
    """An attacker is audited at its cheapest: once Jax says nothing is left to tell, it stops paying for turns."""
    from clarq_bench.core import prompts

    task = make_task() if language == "en" else zh_task()
    enough = prompts.render("provider/offline_enough", language)
    seeker = build_seeker(name, task)
    assert is_goodbye(await seeker.respond(view_of(task, 3, enough)))
    assert not is_goodbye(await seeker.respond(view_of(task, 3)))


@pytest.mark.parametrize("language", ["en", "zh"])
def test_the_kind_how_walker_pairs_a_kind_with_a_how_over_one_of_jaxs_words(language):
    task = make_task() if language == "en" else zh_task()
    seeker = build_seeker("enum-kind-how", task)
    reply = "You need to dig in the mine at dawn." if language == "en" else "你需要在黎明时去矿山挖掘。"
    texts = [seeker.attack(view_of(task, turn, reply), turn) for turn in range(1, 5)]  # type: ignore[attr-defined]
    from clarq_bench.seekers.brief_lists import brief_kinds

    kinds = brief_kinds(task)
    assert len(kinds) >= 2 and all(kinds[turn % len(kinds)] in text for turn, text in enumerate(texts)), texts
    how = ("how", "How") if language == "en" else ("怎么", "咋")
    assert all(any(word in text for word in how) for text in texts), texts
    assert len(set(texts)) == 4
