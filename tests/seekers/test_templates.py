"""The template family (seekers/templates.py): never given the tree, deterministic, en and zh wordings, issue 26's
attacks as named members, specs that round-trip and refuse bad parameters in one line."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from runner_helpers import make_task
from test_redteam import QuietProvider, seeker_lines, view_of, zh_task

from clarq_bench.cli.main import main
from clarq_bench.core.errors import ClarqError
from clarq_bench.core.goodbye import is_goodbye
from clarq_bench.core.tasks import Task
from clarq_bench.core.transcript import Speaker, Turn
from clarq_bench.runner.dialogue import play_dialogue
from clarq_bench.seekers import templates
from clarq_bench.seekers.adversarial import brief_terms
from clarq_bench.seekers.base import DialogueView
from clarq_bench.seekers.registry import TEMPLATES, SeekerConfig, SeekerTask, build_seeker, seekers

SPECS = [
    "tpl-wh+q3+n2+both+g2+suffix",
    "tpl-wh+q2+n1+options+pad",
    "tpl-exactly+q4+n1+replies+stop",
    "tpl-sentence+q2+n3+brief",
    "tpl-one-each+q2+n1+brief+suffix",
    "tpl-choice+q2+n3+brief",
]
EVERY = list(TEMPLATES) + SPECS


def test_registry_is_in_step_with_the_named_members_and_clarq_seekers_lists_them(capsys):
    assert list(TEMPLATES) == list(templates.MEMBERS)
    assert all(TEMPLATES[name] == cls.__name__ for name, cls in templates.MEMBER_CLASSES.items())
    assert main(["seekers", "--all", "--json"]) == 0
    listed = {row["name"]: row["description"] for row in json.loads(capsys.readouterr().out)}
    for name in TEMPLATES:
        assert name in seekers and listed[name].startswith("Template attacker")


@pytest.mark.parametrize("name", EVERY)
def test_factory_gets_a_seeker_task_never_the_tree(name, monkeypatch):
    seen = []
    real = templates.TemplateSeeker.__init__

    def spy(self, task, config=None):
        seen.append(task)
        real(self, task, config)

    monkeypatch.setattr(templates.TemplateSeeker, "__init__", spy)
    build_seeker(name, make_task())
    assert len(seen) == 1 and type(seen[0]) is SeekerTask and not hasattr(seen[0], "tree")
    with pytest.raises(TypeError):
        templates.TemplateSeeker(make_task(), SeekerConfig(name="tpl-wh+q1+n1+brief"))  # type: ignore[arg-type]


async def play(name: str, task: Task, max_turns: int = 12, trial: int = 0):
    seeker = build_seeker(name, task, SeekerConfig(name=name))
    return await play_dialogue(task, seeker, QuietProvider(task), max_turns=max_turns, trial=trial)


@pytest.mark.parametrize("name", EVERY)
@pytest.mark.parametrize("language", ["en", "zh"])
async def test_every_member_opens_normally_uses_every_turn_and_is_deterministic(name, language):
    task = make_task() if language == "en" else zh_task()
    first, again = await play(name, task), await play(name, task)
    lines = seeker_lines(first)
    assert lines == seeker_lines(again)
    assert len(lines) == 12 and first.end_reason.value == "turn_cap"
    assert first.turns[2].revealed == ["0"]  # the ordinary opening request got the root
    assert not any(is_goodbye(line) for line in lines)
    other = seeker_lines(await play(name, task, trial=1))
    assert other[0] == lines[0]
    if name.startswith(("tpl-wh", "tpl-sentence")):
        assert other != lines  # the wording depends on the trial too


CJK = re.compile(r"[\u4e00-\u9fff]")


@pytest.mark.parametrize("name", EVERY)
def test_wordings_are_in_the_task_language(name):
    for task in (make_task(), zh_task()):
        seeker = build_seeker(name, task)
        for turn in range(1, 6):
            text = seeker.turn_text(
                view_of(
                    task,
                    turn,
                    reply="You need the North Mine at dawn." if task.language == "en" else "你需要在黎明时去北矿。",
                ),
                turn,
            )  # type: ignore[attr-defined]
            words = re.sub(
                r"|".join(map(re.escape, sorted(brief_terms(SeekerTask.of(task)), key=len, reverse=True))), "", text
            )
            if task.language == "zh":
                assert CJK.search(text) and not re.search(r"\b(?:which|where|how|what|step)\b", words, re.I), text
            else:
                assert not CJK.search(text), text


@pytest.mark.parametrize("form", templates.FAMILIES)
def test_every_wording_file_exists_in_both_languages_with_the_slot(form):
    for language in ("en", "zh"):
        name = "one_each" if form == "one-each" else form
        lines = (
            templates.redteam_wordings(name, language)
            if form == "one-each"
            else templates.template_wordings(name, language)
        )
        slot = "{option}" if form == "one-each" else "{x}"
        assert len(lines) >= 3 and all(slot in line for line in lines)
    for extra in ("generic", "suffix", "pad"):
        assert len(templates.template_wordings(extra, "en")) == len(templates.template_wordings(extra, "zh"))


def test_the_names_come_from_the_brief_and_from_jax_replies_only():
    task = make_task()
    reply = "Take the lantern to the quarry before the bell rings."
    seeker = build_seeker("tpl-reply-exactly", task)
    text = seeker.turn_text(view_of(task, 1, reply=reply), 1)  # type: ignore[attr-defined]
    asked = re.findall(r"(?:Which|What) (.+?)(?: exactly| do you mean|, precisely)\?", text)
    assert len(asked) == 6 and set(asked) <= set(templates.reply_words([reply], "en"))
    assert {"lantern", "quarry", "bell"} <= set(asked)
    # the next turn takes the words it has not asked yet, and the brief when a reply runs dry
    both = build_seeker("tpl-exactly+q4+n1+both", task)
    text = both.turn_text(view_of(task, 1, reply=reply), 1)  # type: ignore[attr-defined]
    assert any(term in text for term in brief_terms(SeekerTask.of(task)))


def test_reply_words_in_chinese_are_short_runs_between_function_words():
    words = templates.reply_words(["你需要在黎明时去北矿挖掘红宝石。"], "zh")
    assert words and all(2 <= len(w) <= 4 for w in words)
    assert "北矿" in "".join(words) and "需要" not in words


def test_issue_26_attacks_are_members_as_described():
    task = make_task()
    terms = brief_terms(SeekerTask.of(task))
    view = view_of(task, 1)
    six = build_seeker("tpl-wh-six", task).turn_text(view, 1)  # type: ignore[attr-defined]
    assert six.count("?") == 6 and sum(term in six for term in terms) >= 6 - 1  # rotating through brief names
    assert "Which step needs the" in "".join(
        build_seeker("tpl-wh-six", task).turn_text(view_of(task, t), t) for t in range(1, 8)
    )  # type: ignore[attr-defined]
    generic = build_seeker("tpl-wh-six-generic", task).turn_text(view, 1)  # type: ignore[attr-defined]
    assert generic.count("?") == 11 and [t for t in terms if t in six] == [t for t in terms if t in generic]
    assert sum(line in generic for line in templates.template_wordings("generic", "en")) == 5
    sentence = build_seeker("tpl-sentence-four", task).turn_text(view, 1)  # type: ignore[attr-defined]
    assert sentence.count("?") == 1 and sum(term in sentence for term in terms) == 4
    assert all(any(pad in q for pad in templates.template_wordings("pad", "en")) for q in six.split("?")[:-1])
    options = [t for t in terms if t in six]
    assert options and not any(o in six for o in ("collect rubies", "monsters guard it"))  # listed options only
    step = build_seeker("tpl-one-each-step", task).turn_text(view, 1)  # type: ignore[attr-defined]
    assert any(step.endswith(s) for s in templates.template_wordings("suffix", "en"))
    choice = build_seeker("tpl-choice-pairs", task).turn_text(view, 1)  # type: ignore[attr-defined]
    assert " or " in choice  # two options of one kind
    pair = [
        t
        for t in (
            "West Mine",
            "North Mine",
            "Mist Forest",
            "Fantasy Forest",
            "Summon the excavator to dig",
            "Summon the small shovel to dig",
        )
        if t in choice
    ]
    kinds = [
        {"West Mine", "North Mine", "Mist Forest", "Fantasy Forest"},
        {"Summon the excavator to dig", "Summon the small shovel to dig"},
    ]
    assert len(pair) == 2 and any(set(pair) <= kind for kind in kinds)


async def test_stop_says_goodbye_only_after_enough():
    task = make_task()
    seeker = build_seeker("tpl-wh+q2+n1+brief+stop", task)
    history = (
        Turn(speaker=Speaker.provider, text="what can help you?"),
        Turn(speaker=Speaker.seeker, text="hi"),
        Turn(speaker=Speaker.provider, text="You already have enough information."),
    )
    view = DialogueView(task_id=task.id, language="en", brief=task.brief, turns=history)
    assert is_goodbye(await seeker.respond(view))
    keeps = build_seeker("tpl-wh+q2+n1+brief", task)
    assert not is_goodbye(await keeps.respond(view))


@pytest.mark.parametrize(
    "spec",
    [
        "tpl-wh+q6+n1+brief+g5",
        "tpl-choice+q8+n4+brief+suffix+stop",
        "tpl-wh+q6+n1+options+g5+pad",
        "tpl-sentence+q1+n2+options+suffix+pad+stop",
        "tpl-exactly+q1+n1+replies",
    ],
)
def test_specs_round_trip(spec):
    assert templates.parse_spec(spec).spec == spec


@pytest.mark.parametrize(
    "spec",
    ["tpl-wh+q0", "tpl-wh+q9", "tpl-wh+n5", "tpl-wh+g6", "tpl-nothing+q1", "tpl-wh+q2+loud", "tpl-wh+q2+n1+sometimes"],
)
def test_bad_specs_are_one_error(spec, capsys):
    with pytest.raises(ClarqError):
        templates.parse_spec(spec)
    assert main(["provider-audit", "--strategies", spec, "--tasks", "tasks"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "bad template seeker" in err[0]


def test_the_boundaries_are_accepted():
    for spec in ("tpl-wh+q1+n1+brief", "tpl-wh+q8+n4+both+g5"):
        assert templates.parse_spec(spec).spec == spec


def test_a_spec_plays_through_clarq_run_names(tmp_path):
    from clarq_bench.seekers.registry import resolve_seeker

    assert resolve_seeker(SeekerConfig(name="tpl-sentence+q1+n2+brief")).factory is templates.TemplateSeeker


def test_clarq_run_refuses_a_bad_spec_in_one_line_before_playing(tmp_path, monkeypatch, capsys):
    tasks = str(Path(__file__).resolve().parents[2] / "tasks")
    monkeypatch.chdir(tmp_path)
    assert main(["run", "--seeker", "tpl-wh+q9", "--provider", "offline", "--tasks", tasks]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "bad template seeker 'tpl-wh+q9'" in err[0]
    assert not (tmp_path / "runs").exists()
    assert (
        main(
            [
                "run",
                "--seeker",
                "tpl-wh+q2+n1+options+pad",
                "--provider",
                "offline",
                "--tasks",
                tasks,
                "--lang",
                "en",
                "--types",
                "1",
            ]
        )
        == 0
    )
    (transcripts,) = list((tmp_path / "runs").glob("*/transcripts.jsonl"))
    lines = [json.loads(line) for line in transcripts.read_text(encoding="utf-8").splitlines()]
    assert lines and all(row.get("error") is None for row in lines)


def test_the_list_form_names_its_things_together_and_walks_no_choice():
    """`tpl-list-...` asks about several things at once ("Where do I find the A, B and C, and how do I use them?"):
    joined by "and", never offered as alternatives, so even over the brief's options it is its own family, held to
    the 15% bar, not the choice family judged by what it pays."""
    assert templates.parse_spec("tpl-list+q1+n3+brief").family == "list"
    assert templates.parse_spec("tpl-sentence+q1+n3+brief").family == "choice"
    task = make_task()
    seeker = build_seeker("tpl-list+q1+n3+brief", task)
    text = seeker.turn_text(view_of(task, 1), 1)  # type: ignore[attr-defined]
    assert " and " in text and " or " not in text, text
    four = build_seeker("tpl-list-four", task)
    reply = "Take the lantern and the rope to the quarry before the bell rings."
    asked = four.turn_text(view_of(task, 1, reply=reply), 1)  # type: ignore[attr-defined]
    assert sum(word in asked for word in ("lantern", "rope", "quarry", "bell")) >= 3 and " and " in asked, asked
