"""The replay seeker: says a recorded run's seeker turns again, in order, against any provider (then goodbye), and
records where the provider's reveals first part from the recorded ones (ScriptedReplay). It reads transcripts.jsonl
or a released results file; it never decides anything itself."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from ..core.errors import ClarqError, DataError
from ..core.tasks import ROOT_ID, node_sort_key
from ..core.transcript import ScriptedReplay, Speaker, Turn
from .base import DialogueView
from .baselines import goodbye, seeker_turn_count
from .registry import SeekerConfig, SeekerTask


def recorded_seeker_turns(path: str | Path) -> dict[tuple[str, int], list[str]]:
    """Seeker utterances per (task id, trial) from a run's transcripts.jsonl or a released results file."""
    return {key: turns for key, (turns, _) in recorded_dialogues(path).items()}


def recorded_dialogues(path: str | Path) -> dict[tuple[str, int], tuple[list[str], list[list[str]]]]:
    """Per (task id, trial): the seeker utterances and, per seeker turn that got a reply, the node ids the recorded
    provider newly revealed in that reply (the root as "0"): what a replay is compared against."""
    path = Path(path).expanduser()
    if not path.exists():
        raise ClarqError(f"replay file {path} does not exist", "pass --replay FILE (transcripts.jsonl or results)")
    return _load_recorded(str(path.resolve()), path.stat().st_mtime_ns)


def _new_ids(turns: list[Turn]) -> list[list[str]]:
    """For each seeker turn followed by a provider reply: the ids that reply claims and no earlier reply did."""
    seen: set[str] = set()
    decisions = []
    for i, turn in enumerate(turns):
        if turn.speaker != Speaker.seeker or i + 1 >= len(turns) or turns[i + 1].speaker != Speaker.provider:
            continue
        new = sorted(set(turns[i + 1].revealed) - seen, key=node_sort_key)
        seen.update(new)
        decisions.append(new)
    return decisions


@lru_cache(maxsize=8)
def _load_recorded(path: str, _mtime: int) -> dict[tuple[str, int], tuple[list[str], list[list[str]]]]:
    if path.endswith(".jsonl"):
        from ..core.jsonl import parse_jsonl, read_text

        recorded: dict[tuple[str, int], tuple[list[str], list[list[str]]]] = {}
        read = parse_jsonl(read_text(Path(path)), path)  # an unfinished last line (interrupted run) is left out
        for number, record in read.records:
            try:
                key = (str(record["task_id"]), int(record.get("trial", 0)))
                turns = [Turn.model_validate(t) for t in record["turns"]]
            except (KeyError, TypeError, ValueError, AttributeError):
                raise DataError(path, "not a transcript line", number) from None
            recorded[key] = ([t.text for t in turns if t.speaker == Speaker.seeker], _new_ids(turns))
        return recorded
    from ..data.reference_steps import replay_steps
    from ..data.upstream import load_released_dialogues

    out = {}
    for d in load_released_dialogues(path):
        # The released provider gave the root in reply to the opening request (lines[2]), then the steps' reveals.
        decisions = ([[ROOT_ID]] if len(d.lines) > 2 else []) + [step.reference for step in replay_steps(d)]
        out[(d.task.id, 0)] = (list(d.seeker_lines), decisions)
    return out


class ReplaySeeker:
    """Replays recorded seeker turns (our transcripts.jsonl or a released results file) against a live provider.

    Open loop: the recorded turns do not react to our provider. `scripted_replay` tells the dialogue where our
    provider first decided differently from the recorded one, so reports can keep in-sync and diverged dialogues
    apart (a diverged replay measures neither seeker nor provider)."""

    def __init__(self, task: SeekerTask, config: SeekerConfig) -> None:
        if not config.replay:
            raise ClarqError("the replay seeker needs a file", "pass --replay FILE")
        self.source = str(config.replay)
        recorded = recorded_dialogues(config.replay)
        self.by_trial = {trial: turns for (task_id, trial), (turns, _) in recorded.items() if task_id == task.id}
        self.decisions = {trial: ids for (task_id, trial), (_, ids) in recorded.items() if task_id == task.id}
        if not self.by_trial:
            raise ClarqError(f"{config.replay} has no dialogue for task {task.id}", "replay a file of this language")

    def _trial(self, trial: int) -> int:
        return trial if trial in self.by_trial else min(self.by_trial)

    def scripted_replay(self, turns: list[Turn], trial: int = 0) -> ScriptedReplay:
        """Compare our provider's decision on each replayed seeker turn with the recorded provider's."""
        recorded = self.decisions[self._trial(trial)]
        ours = _new_ids(turns)
        compared = min(len(recorded), len(ours))
        diverged = next((k + 1 for k in range(compared) if ours[k] != recorded[k]), None)
        return ScriptedReplay(source=Path(self.source).name, diverged_at=diverged, compared=compared)

    async def respond(self, view: DialogueView) -> str:
        turns = self.by_trial[self._trial(view.trial)]
        index = seeker_turn_count(view)
        return turns[index] if index < len(turns) else goodbye(view.language)
