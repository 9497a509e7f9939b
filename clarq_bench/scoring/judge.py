"""The judge: one Transcript and its Task -> a Verdict (which required nodes were obtained, how, and what each
seeker turn did).

Deterministic stage (the released rule, clarq_bench.data.textmatch): a required node is obtained when a provider turn
after the root carries its text exactly or as a substring. The provider's own `revealed` claims are trusted only
after that check; a claim the text does not bear out is recorded. Nodes still missing may go to an optional LLM
check, injected as `check(node_text, candidate_turns, language) -> bool` (see judge_llm.py for the model-backed
one), so the judge itself never imports the LLM layer. Reads transcripts only; never calls dialogue code.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from enum import Enum

from pydantic import BaseModel, Field

from ..core.goodbye import is_goodbye  # the one rule, shared with the dialogue loop
from ..core.tasks import ROOT_ID, Task
from ..core.transcript import (
    EndReason,
    Intent,
    OmitsUnsetScripted,
    ReplyKind,
    ScriptedReplay,
    Speaker,
    Transcript,
    Turn,
)
from ..data.textmatch import carries_node, normalise
from .charge import asks, charge, human_turn_tokens, success_weighted
from .lengths import detect_language, released_length, token_counter

#: The leftover-node check: (node text, candidate provider turn texts, language) -> obtained?
NodeCheck = Callable[[str, list[str], str], Awaitable[bool]]


class NodeStatus(str, Enum):
    """How a required node was obtained, or why not."""

    exact = "exact"  # a provider turn equals the node text
    substring = "substring"  # a provider turn contains it (trailing punctuation ignored)
    llm = "llm"  # the LLM check found it carried (or contradicted) by a generated turn
    claimed_absent = "claimed-but-absent"  # the provider claimed to reveal it, but no turn carries it
    missing = "missing"


OBTAINED = frozenset({NodeStatus.exact, NodeStatus.substring, NodeStatus.llm})


class TurnLabel(str, Enum):
    """What one seeker turn did, judged by the provider's reply to it."""

    opening = "opening"  # the request answered by the root
    obtained = "obtained"  # the reply carried at least one new required node
    redundant = "redundant"  # repeated an answered question / the reply only repeated obtained nodes
    vague = "vague"  # "what's next?", "anything else?"
    unrelated = "unrelated"  # not about the task
    summary = "summary-confirmation"  # consulting about or confirming the whole task
    unanswered = "unanswered"  # a clear question that nothing left in the tree answers
    goodbye = "goodbye"
    no_reply = "no-reply"  # the dialogue stopped (turn cap, error) before the provider answered
    unclassified = "unclassified"  # no intent recorded and the reply carries no node text


class NodeVerdict(BaseModel):
    node_id: str
    depth: int
    status: NodeStatus
    turn: int | None = Field(default=None, description="Index in Transcript.turns of the first turn carrying it.")
    claimed_turn: int | None = Field(default=None, description="First provider turn claiming to reveal it.")

    @property
    def obtained(self) -> bool:
        return self.status in OBTAINED


class SeekerTurnVerdict(BaseModel):
    index: int = Field(description="Index in Transcript.turns.")
    label: TurnLabel
    nodes: list[str] = Field(default_factory=list, description="Required nodes first obtained by the reply.")
    length: int = Field(description="Length in the released unit (spaces for English, characters for Chinese).")
    tokens: int = Field(description="Length in the cross-language unit (Verdict.token_unit).")
    asks: int | None = Field(
        default=None,
        description="Things the turn asks (scoring/charge.py); None in verdicts recorded before they were counted.",
    )


class ClaimIssue(BaseModel):
    turn: int
    node_id: str


class Verdict(OmitsUnsetScripted):
    """Everything metrics need about one dialogue; metrics never look at the transcript again."""

    task_id: str
    language: str
    type_number: int
    split: str
    trial: int
    seeker: str
    provider: str
    end_reason: EndReason
    judge: str = Field(description='"none" for the deterministic stage only, else the checking model.')
    required_count: int
    tree_depth: int
    nodes: list[NodeVerdict]
    root_turn: int | None = Field(description="Index of the provider turn that gave the root, None if never given.")
    queries_after_root: int = Field(
        description="Seeker turns after the one the root answered (= released 'provider turns after root + 1')."
    )
    aql_language: str = Field(description="Language of the released AQL unit, read from the first seeker turn.")
    token_unit: str
    seeker_turns: list[SeekerTurnVerdict]
    unverified_claims: list[ClaimIssue] = Field(default_factory=list)
    scripted: ScriptedReplay | None = Field(default=None, description="The transcript's replay record, if any.")

    @property
    def success(self) -> bool:
        return all(node.obtained for node in self.nodes)

    @property
    def obtained_count(self) -> int:
        return sum(node.obtained for node in self.nodes)

    @property
    def human_queries(self) -> int:
        """H, the queries the human path takes: the tree's nodes including the root (one question per required node
        and the closing turn), the count released AQD subtracts."""
        return self.required_count + 1

    @property
    def aqd(self) -> int:
        """Released AQD: seeker turns after the root request - tree nodes including the root (on released
        dialogues, which end on a seeker turn, this is 'provider turns after the root + 1 - nodes')."""
        return self.queries_after_root - self.human_queries

    @property
    def charge(self) -> float:
        """C, what the seeker's turns after the root cost in human-path queries: the dearest of its turns, its asks
        plus the closing turn, and its tokens over a human turn's (scoring/charge.py)."""
        after = [turn for turn in self.seeker_turns if self.root_turn is not None and turn.index > self.root_turn]
        return charge(
            self.queries_after_root,
            sum(turn.asks or 0 for turn in after),
            sum(turn.tokens for turn in after),
            human_turn_tokens(self.token_unit, self.language),
        )

    @property
    def efficiency(self) -> float:
        """Success weighted by what was said: S x H / max(H, C), 1 for a success that cost no more than the human
        path, 0 for a failure."""
        return success_weighted(self.success, self.human_queries, self.charge)

    @property
    def aql(self) -> float:
        """Released AQL of this dialogue: mean length of all seeker turns (0 for a dialogue without any)."""
        lengths = [turn.length for turn in self.seeker_turns]
        return sum(lengths) / len(lengths) if lengths else 0.0

    @property
    def aql_tokens(self) -> float:
        lengths = [turn.tokens for turn in self.seeker_turns]
        return sum(lengths) / len(lengths) if lengths else 0.0

    def count(self, label: TurnLabel) -> int:
        return sum(turn.label == label for turn in self.seeker_turns)


def find_root_turn(transcript: Transcript, task: Task) -> int | None:
    """The provider turn that gave the root: marked `kind=root`; else the first one carrying the root text; else,
    when no turn records a kind at all, the released convention (the provider turn after the greeting)."""
    provider = [i for i, turn in enumerate(transcript.turns) if turn.speaker == Speaker.provider]
    for i in provider:
        if transcript.turns[i].kind == ReplyKind.root:
            return i
    if any(transcript.turns[i].kind is not None for i in provider):
        carriers = [i for i in provider if transcript.turns[i].kind not in (ReplyKind.greeting, ReplyKind.off_topic)]
    else:
        carriers = provider[1:]
    for i in carriers:
        if carries_node(transcript.turns[i].text, task.tree.root.text, task.language):
            return i
    if all(transcript.turns[i].kind is None for i in provider) and len(provider) > 1:
        return provider[1]
    return None


def _first_carrier(turns: list[Turn], indices: Sequence[int], text: str, language: str) -> tuple[int, bool] | None:
    gold = normalise(text, language)
    for i in indices:
        if carries_node(turns[i].text, text, language):
            return i, normalise(turns[i].text, language) == gold
    return None


def judge_deterministic(transcript: Transcript, task: Task) -> Verdict:
    """The deterministic stage only: exact and substring matches, claims verified, turns labelled."""
    _check_pair(transcript, task)
    turns = transcript.turns
    language = task.language
    root = find_root_turn(transcript, task)
    after_root = (
        [] if root is None else [i for i in range(root + 1, len(turns)) if turns[i].speaker == Speaker.provider]
    )
    claims: dict[str, int] = {}
    issues: list[ClaimIssue] = []
    for i in after_root:
        for node_id in turns[i].revealed:
            if node_id == ROOT_ID or node_id not in task.tree:
                continue
            claims.setdefault(node_id, i)
            if not carries_node(turns[i].text, task.tree[node_id].text, language):
                issues.append(ClaimIssue(turn=i, node_id=node_id))
    nodes: list[NodeVerdict] = []
    for node in task.tree.required:
        found = _first_carrier(turns, after_root, node.text, language)
        if found is not None:
            status = NodeStatus.exact if found[1] else NodeStatus.substring
            turn = found[0]
        else:
            status = NodeStatus.claimed_absent if node.id in claims else NodeStatus.missing
            turn = None
        nodes.append(
            NodeVerdict(node_id=node.id, depth=node.depth, status=status, turn=turn, claimed_turn=claims.get(node.id))
        )
    seeker_indices = [i for i, turn in enumerate(turns) if turn.speaker == Speaker.seeker]
    aql_language = detect_language(turns[seeker_indices[0]].text, language) if seeker_indices else language
    return Verdict(
        task_id=transcript.task_id,
        language=language,
        type_number=task.type_number,
        split=str(task.split.value),
        trial=transcript.trial,
        seeker=transcript.seeker.name,
        provider=transcript.provider.name,
        end_reason=transcript.end_reason,
        judge="none",
        required_count=len(nodes),
        tree_depth=task.tree.depth,
        nodes=nodes,
        root_turn=root,
        queries_after_root=0 if root is None else sum(1 for i in seeker_indices if i > root),
        aql_language=aql_language,
        token_unit=token_counter().unit,
        seeker_turns=_label_turns(turns, seeker_indices, root, nodes, task, aql_language),
        unverified_claims=issues,
        scripted=transcript.scripted,
    )


_INTENT_LABELS = {
    Intent.confirm_task: TurnLabel.summary,
    Intent.answerable: TurnLabel.unanswered,  # said to be answerable, yet the reply carried nothing new
    Intent.unanswerable: TurnLabel.unanswered,
    Intent.repeat: TurnLabel.redundant,
    Intent.unrelated: TurnLabel.unrelated,
    Intent.vague: TurnLabel.vague,
}


def _label_turns(
    turns: list[Turn], seeker_indices: list[int], root: int | None, nodes: list[NodeVerdict], task: Task, aql: str
) -> list[SeekerTurnVerdict]:
    first_by_turn: dict[int, list[str]] = {}
    for node in nodes:
        if node.turn is not None and node.obtained:
            first_by_turn.setdefault(node.turn, []).append(node.node_id)
    count = token_counter().count
    labelled = []
    for i in seeker_indices:
        reply = i + 1 if i + 1 < len(turns) and turns[i + 1].speaker == Speaker.provider else None
        new = first_by_turn.get(reply, []) if reply is not None else []
        label = _label(turns, i, reply, root, new, task)
        labelled.append(
            SeekerTurnVerdict(
                index=i,
                label=label,
                nodes=new,
                length=released_length(turns[i].text, aql),
                tokens=count(turns[i].text),
                asks=0 if label == TurnLabel.goodbye else asks(turns[i].text),
            )
        )
    return labelled


def _label(turns: list[Turn], i: int, reply: int | None, root: int | None, new: list[str], task: Task) -> TurnLabel:
    if new:
        return TurnLabel.obtained
    if is_goodbye(turns[i].text):
        return TurnLabel.goodbye
    if reply is None:
        return TurnLabel.no_reply
    if reply == root:
        return TurnLabel.opening
    answer = turns[reply]
    if root is None or reply < root or answer.kind == ReplyKind.off_topic:
        return TurnLabel.unrelated
    if answer.kind == ReplyKind.enough:
        return TurnLabel.unanswered
    if answer.intent is not None:
        return _INTENT_LABELS[answer.intent]
    if any(carries_node(answer.text, node.text, task.language) for node in task.tree.required):
        return TurnLabel.redundant  # carries node text, none of it new
    return TurnLabel.unclassified


def _check_pair(transcript: Transcript, task: Task) -> None:
    if transcript.task_id != task.id:
        raise ValueError(f"transcript of {transcript.task_id} judged against task {task.id}")


async def judge(
    transcript: Transcript, task: Task, check: NodeCheck | None = None, *, judge_name: str = "llm"
) -> Verdict:
    """Deterministic stage, then (if `check` is given) one LLM check per leftover node, run concurrently.

    Candidates for a leftover node are the provider turns after the root that carried no node text, plus any turn
    that claimed to reveal it. A check answering True marks the node `llm`.
    """
    verdict = judge_deterministic(transcript, task)
    if check is None:
        return verdict
    leftovers = [node for node in verdict.nodes if not node.obtained]
    if not leftovers:
        return verdict.model_copy(update={"judge": judge_name})
    carried = {node.turn for node in verdict.nodes if node.turn is not None}
    after_root = (
        []
        if verdict.root_turn is None
        else [
            i
            for i in range(verdict.root_turn + 1, len(transcript.turns))
            if transcript.turns[i].speaker == Speaker.provider
        ]
    )
    unmatched = [i for i in after_root if i not in carried]

    async def decide(node: NodeVerdict) -> bool:
        extra = [] if node.claimed_turn is None or node.claimed_turn in unmatched else [node.claimed_turn]
        candidates = [transcript.turns[i].text for i in sorted(unmatched + extra)]
        if not candidates:
            return False
        return await check(task.tree[node.node_id].text, candidates, task.language)

    answers = await asyncio.gather(*(decide(node) for node in leftovers))
    rescued = {node.node_id for node, yes in zip(leftovers, answers, strict=False) if yes}
    nodes = [
        node.model_copy(update={"status": NodeStatus.llm}) if node.node_id in rescued else node
        for node in verdict.nodes
    ]
    return verdict.model_copy(update={"nodes": nodes, "judge": judge_name})


async def judge_all(
    pairs: Sequence[tuple[Transcript, Task]], check: NodeCheck | None = None, *, judge_name: str = "llm"
) -> list[Verdict]:
    """Judge many dialogues; LLM checks of all of them run concurrently (the client bounds concurrency)."""
    return list(await asyncio.gather(*(judge(t, task, check, judge_name=judge_name) for t, task in pairs)))
