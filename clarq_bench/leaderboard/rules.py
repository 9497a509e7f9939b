"""What every dialogue must obey whatever its provider, checked without a model.

Why: an LLM provider cannot be replayed, but most of what makes its transcript believable can be checked from the
tree alone: turns alternate (provider first), the dialogue ends the way its end reason says, the root comes first
and verbatim, a Response I carries its nodes verbatim and only nodes on the frontier at that moment (one per turn in
single-info mode), no other reply claims a node, "enough" only once nothing is left. These rules are what the
clarq providers do; a transcript breaking one was not played by them. The first broken rule of a dialogue is
reported (later turns stand on it).
"""

from __future__ import annotations

from ..core.goodbye import is_goodbye
from ..core.tasks import ROOT_ID, Task, node_sort_key
from ..core.transcript import EndReason, Intent, ReplyKind, Speaker, Transcript, Turn
from .schema import dialogue_key

BEFORE_ROOT = (ReplyKind.root, ReplyKind.off_topic)


def _shape(transcript: Transcript, max_turns: int | None) -> str | None:
    """Alternation, seeker turns without annotations, and the end reason against the last turn."""
    turns, reason = transcript.turns, transcript.end_reason
    if reason == EndReason.released:
        return "end reason released belongs to imported reference dialogues, not to runs"
    if reason == EndReason.error and not transcript.error:
        return "end reason error without an error message"
    if not turns:
        return None if reason == EndReason.error else "no turns"
    for index, turn in enumerate(turns):
        expected = Speaker.provider if index % 2 == 0 else Speaker.seeker
        if turn.speaker != expected:
            return f"turn {index}: a {turn.speaker.value} turn where the {expected.value} speaks (turns alternate)"
        if turn.speaker == Speaker.seeker and (turn.kind or turn.intent or turn.revealed):
            return f"turn {index}: a seeker turn carrying provider annotations"
        if turn.speaker == Speaker.seeker and is_goodbye(turn.text) and index != len(turns) - 1:
            return f"turn {index}: the seeker said goodbye but the dialogue goes on"
    last, asked = turns[-1], len(turns) // 2
    if reason == EndReason.goodbye and not (last.speaker == Speaker.seeker and is_goodbye(last.text)):
        return f"turn {len(turns) - 1}: end reason goodbye but the last turn is not the seeker's goodbye"
    if reason == EndReason.turn_cap and last.speaker == Speaker.seeker and is_goodbye(last.text):
        return f"turn {len(turns) - 1}: end reason turn_cap but the seeker's last turn says goodbye"
    if reason == EndReason.turn_cap and (last.speaker != Speaker.seeker or (max_turns and asked != max_turns)):
        return f"turn {len(turns) - 1}: end reason turn_cap after {asked} seeker turns (cap {max_turns})"
    return None


def _verbatim(turn: Turn, task: Task) -> bool:
    texts = [task.tree[node_id].text for node_id in turn.revealed]
    joiner = "" if task.language == "zh" else " "
    return turn.text in (joiner.join(texts), joiner.join(t.strip() for t in texts))


def _reply(index: int, turn: Turn, task: Task, revealed: list[str], root_given: bool, single: bool) -> str | None:
    """The first rule one provider reply breaks, given what was said before it."""
    kind = turn.kind
    if kind is None or kind == ReplyKind.greeting:
        return f"turn {index}: a provider reply of kind {kind.value if kind else 'none'}"
    if (kind in BEFORE_ROOT) == root_given:
        return f"turn {index}: a {kind.value} reply {'after' if root_given else 'before'} the root was given"
    if kind == ReplyKind.root:
        if turn.revealed != [ROOT_ID] or turn.text.strip() != task.tree.root.text.strip():
            return f"turn {index}: the root reply is not the root text verbatim, claiming node {ROOT_ID} alone"
        return None
    frontier = task.tree.frontier(sorted(revealed, key=node_sort_key))
    if kind != ReplyKind.response_i:
        if turn.revealed:
            return f"turn {index}: a {kind.value} reply claims nodes {', '.join(turn.revealed)}"
        if kind == ReplyKind.enough and frontier:
            return f"turn {index}: says there is enough while nodes {', '.join(frontier)} remain"
        return None
    unknown = [node_id for node_id in turn.revealed if node_id not in task.tree or node_id == ROOT_ID]
    if not turn.revealed or unknown:
        return f"turn {index}: a Response I claiming {', '.join(unknown) or 'no node'}, not a node of the task"
    if single and len(turn.revealed) > 1:
        return f"turn {index}: reveals {len(turn.revealed)} nodes at once in single-info mode"
    gated = [node_id for node_id in turn.revealed if node_id not in frontier or turn.revealed.count(node_id) > 1]
    if gated:
        return f"turn {index}: reveals node {gated[0]}, which is not on the frontier (given already, or its parent not yet)"
    if turn.intent != Intent.answerable:
        return f"turn {index}: a Response I with intent {turn.intent} (Response I answers intent 2)"
    if not _verbatim(turn, task):
        return f"turn {index}: the Response I is not its nodes' text verbatim"
    return None


def check_rules(
    transcript: Transcript, task: Task, *, single: bool, max_turns: int | None, llm: bool = False
) -> str | None:
    """The first rule the dialogue breaks, as one line naming it and the turn; None when it keeps them all.
    `llm`: played by clarq's LLM provider, which records the model version on every reply."""
    key = dialogue_key(transcript.task_id, transcript.trial)
    problem = _shape(transcript, max_turns)
    if problem:
        return f"dialogue {key}{' ' if problem.startswith('turn ') else ': '}{problem}"
    turns = transcript.turns
    for index in range(0, len(turns), 2) if llm else ():
        if not isinstance(turns[index].notes.get("model"), str) or not turns[index].notes["model"]:
            return f"dialogue {key} turn {index}: an LLM provider reply that records no model version"
    if turns and (turns[0].kind != ReplyKind.greeting or turns[0].revealed):
        return f"dialogue {key} turn 0: not a greeting"
    revealed: list[str] = []
    root_given = False
    for index in range(2, len(turns), 2):
        problem = _reply(index, turns[index], task, revealed, root_given, single)
        if problem:
            return f"dialogue {key} {problem}"
        root_given = root_given or turns[index].kind == ReplyKind.root
        revealed.extend(node_id for node_id in turns[index].revealed if node_id != ROOT_ID)
    return None
