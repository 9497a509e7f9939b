"""The fidelity replay: reference reveals inferred from text, teacher-forced prefixes, and the agreement arithmetic."""

from __future__ import annotations

import json

from clarq_bench.cli.main import main
from clarq_bench.core.transcript import Intent, ReplyKind
from clarq_bench.fidelity.provider_eval import figures, load_dialogues, replay, replay_steps, report
from clarq_bench.provider.base import ProviderState, ProviderTurn

NODES = [
    "Jax: Go and find the crown.",
    "Jax: The crown is in the East Tower.",
    "Jax: Take the red key.",
    "Jax: The red key is under the mat.",
]
RECORD = {
    "all_response": "\n".join(NODES),
    "gold_structure": ["1", "2", "2.1"],
    "all_response_exaplain": ["Which tower holds the crown.", "How to open the door.", "Where the red key is."],
    "background_splitted": ["thief", "steal the crown", "a bag", "sneak", "East Tower\nWest Tower"],
    "background": "You must steal the crown.",
    "l2l": [
        [
            "Jax: what can help you?",
            "How do I get the crown?",
            "Jax: Go and find the crown.",  # root
            "Which tower?",
            "Jax: The crown is in the East Tower.",  # reveals 1
            "Anything else?",
            "Jax: You are overthinking it.",  # none
            "How do I open the door?",
            "Jax: Take the red key.",  # reveals 2
            "Where is the key?",
            "Jax: the red key is under the mat",  # reveals 2.1 (case, no full stop)
            "Goodbye!",
        ]
    ],
}


def write_results(tmp_path):
    path = tmp_path / "l2l_test_provider.Comp.En.json"
    path.write_text(json.dumps([[RECORD]]), encoding="utf-8")
    return path


def test_replay_steps_follow_the_reference(tmp_path):
    (dialogue,) = load_dialogues(write_results(tmp_path))
    steps = replay_steps(dialogue)
    assert [s.reference for s in steps] == [["1"], [], ["2"], ["2.1"]]
    assert [s.frontier for s in steps] == [["1", "2"], ["2"], ["2"], ["2.1"]]
    last = steps[-1]
    state = ProviderState.from_turns(dialogue.task.tree, last.prefix)
    assert state.root_given and state.revealed == ["0", "1", "2"] and last.prefix[-1].text == "Where is the key?"


class ScriptedProvider:
    """Reveals a fixed list of ids per call, in order (a stand-in for any Provider)."""

    def __init__(self, script):
        self.script = list(script)

    def greeting(self):
        return ProviderTurn(text="hi", kind=ReplyKind.greeting)

    async def respond(self, turns):
        ids = self.script.pop(0)
        intent = Intent.answerable if ids else Intent.vague
        return ProviderTurn(
            text="x", kind=ReplyKind.response_i if ids else ReplyKind.response_ii, intent=intent, revealed=ids
        )


async def test_agreement_precision_recall_and_baselines(tmp_path):
    dialogues = load_dialogues(write_results(tmp_path))
    # reference: [1], [], [2], [2.1]; ours: [1] agree, [2] false reveal, [] miss, [2.1, 1] (1 already out) agree
    results = await replay(dialogues, lambda task: ScriptedProvider([["1"], ["2"], [], ["2.1", "1"]]))
    fig = figures(results)
    assert fig.steps == 4
    assert fig.agreement == 2 / 4
    assert fig.precision == 2 / 3  # we revealed 1, 2, 2.1 (the repeated 1 is not new); 1 and 2.1 were right
    assert fig.recall == 2 / 3  # reference revealed 1, 2, 2.1; we matched 1 and 2.1
    assert fig.reference_reveal_rate == 3 / 4
    assert fig.baseline_never == 1 / 4
    assert fig.baseline_first == 3 / 4  # first frontier node: 1 yes, 2 (ref none) no, 2 yes, 2.1 yes
    assert fig.confusion["2"] == {"same": 2, "other": 0, "none": 1}
    assert fig.confusion["6"] == {"same": 0, "other": 1, "none": 0}
    groups = report(results, "scripted").groups
    assert groups["lang=en | types 1-13"].agreement == 0.5 and "lang=en | types 14-26" not in groups


def test_offline_provider_replays_and_cli_prints_json(tmp_path, capsys):
    path = write_results(tmp_path)
    assert main(["provider-eval", "--dialogues", str(path), "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["groups"]["all"]["steps"] == 4
    assert main(["provider-eval", "--dialogues", str(path), "--types", "14-26"]) == 2


async def test_replay_skips_dialogues_once_told_to_stop(tmp_path):
    dialogues = load_dialogues(write_results(tmp_path))
    assert await replay(dialogues, lambda task: ScriptedProvider([]), stop=lambda: True) == []


def test_table_says_each_group_once_with_short_file_names(tmp_path, capsys):
    from clarq_bench.cli.provider_eval import _labels

    labels = _labels(
        [
            "all",
            "file=l2l_x_provider.Comp.En.json",
            "file=l2l_x_multi_info_provider.Comp.En.json | types 1-13",
            "lang=en | types 14-26",
        ]
    )
    assert labels == {
        "all": ("all", "all"),
        "file=l2l_x_provider.Comp.En.json": ("file=provider.Comp.En.json", "all"),
        "file=l2l_x_multi_info_provider.Comp.En.json | types 1-13": ("file=multi_info_provider.Comp.En.json", "1-13"),
        "lang=en | types 14-26": ("lang=en", "14-26"),
    }
    path = write_results(tmp_path)
    assert main(["provider-eval", "--dialogues", str(path)]) == 0
    out = capsys.readouterr().out
    # one file, one language, one type range: five groups with the same steps make one row, the most specific label
    rows = [line for line in out.splitlines() if line.count("%") >= 5]  # the figure rows (labels may fold below)
    assert len(rows) == 1 and "lang=en" in rows[0] and "1-13" in rows[0]
