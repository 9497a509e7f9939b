"""`clarq leaderboard verify`: recompute a submission from its transcripts and list every disagreement.

Checks, each failing one giving one line: the content seal (seal.py: any edit after packing, named down to the
dialogue and turn); identities agreeing between run config, manifest and transcripts (consistency.py); every
dialogue's shape and the provider rules any clarq provider keeps (rules.py); for deterministic providers, a replay
of every dialogue through the installed provider with the recorded fingerprint (replay.py: the row is "replayed",
otherwise "self-reported"); the task-set hash and every task hash against the local task data; one
transcript per (task, trial) of the task set (unless partial, and then the gaps must be declared); the standard /
custom label and the turn cap; every revealed-node claim against the provider's text (and its place in the tree);
no node text handed out without a claim; each recorded verdict against the deterministic judge (only nodes the
judge cannot settle may be recorded as LLM-judged, and only with a judge named); every figure recomputed. Nothing
from the submission is executed, and paths named inside it are never read.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import NamedTuple

from ..core.errors import ClarqError
from ..core.provider_names import recorded_kind
from ..core.tasks import ROOT_ID, Task
from ..core.transcript import ReplyKind, Speaker, Transcript
from ..data.task_sets import CUSTOM, SAMPLE, TITLES, kind_of
from ..data.textmatch import carries_node
from ..provider.base import ProviderMode
from ..scoring.judge import OBTAINED, NodeStatus, Verdict, judge_deterministic
from ..scoring.lengths import FALLBACK_UNIT, counter_for, counting_in, token_counter
from . import bounds
from .bundle import classify, read_submission
from .consistency import check_consistency
from .figures import RENAMED, bootstrap_settings, compute_metrics, differences, old_names
from .replay import Replay, fingerprint_problem, provider_mode, replay_workers
from .rules import check_rules
from .schema import FORMAT_VERSION, Submission, dialogue_key, task_set_hash
from .seal import check_seal

MAX_METRIC_LINES = 12
REPLAYED, SELF_REPORTED = "replayed", "provider self-reported"


class Verification(NamedTuple):
    """The outcome for one submission: problems (empty = verified), notes, and what was rebuilt."""

    problems: list[str]
    notes: list[str]
    verdicts: list[Verdict]  # recomputed (with recorded LLM-judged nodes merged in)
    tasks: dict[str, Task]
    provenance: str = SELF_REPORTED  # REPLAYED when every provider turn was replayed and matched
    metrics: dict | None = None  # the figures recomputed from the transcripts, under their current names

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def refused(self) -> bool:
        """Refused before verifying (unreadable, unsafe, out of bounds): input the command cannot take."""
        return any(isinstance(problem, bounds.Refused) for problem in self.problems)


def load_task_data(data: str | Path | None, languages: set[str]) -> tuple[Path, dict[str, Task]]:
    """Every task of the given languages (all splits) from --data / $CLARQ_DATA / the download cache."""
    from ..data.loader import load_tasks, resolve_data_dir

    root = resolve_data_dir(data)
    tasks = load_tasks(root, tuple(sorted(languages & {"en", "zh"})))  # type: ignore[arg-type]
    return root, {task.id: task for task in tasks}


def _check_tasks(
    sub: Submission, data: dict[str, Task], digests: dict[str, str], root: Path, problems: list[str]
) -> None:
    manifest = sub.manifest
    if task_set_hash(manifest.task_hashes) != manifest.task_set_hash:
        problems.append(
            f"task_set_hash {manifest.task_set_hash[:12]}... does not match its task hashes "
            f"({task_set_hash(manifest.task_hashes)[:12]}...)"
        )
    absent = [task_id for task_id in manifest.task_hashes if task_id not in data]
    if absent:
        problems.append(f"{len(absent)} task(s) are not in the task data at {root} (first: {', '.join(absent[:3])})")
    languages = manifest.run_config.get("languages") or sorted({tid.split("/", 1)[0] for tid in manifest.task_hashes})
    split = manifest.run_config.get("split") or "test"
    universe = {tid for tid, task in data.items() if task.language in languages and split in ("all", task.split.value)}
    lacking = sorted(universe - set(manifest.task_hashes))
    if lacking:
        problems.append(
            f"the task set lacks {len(lacking)} task(s) of its {'+'.join(languages)} {split} split "
            f"(first: {', '.join(lacking[:3])}): a submission covers the whole split"
        )
    for task_id, digest in manifest.task_hashes.items():
        if task_id in data and digests[task_id] != digest:
            problems.append(
                f"task {task_id}: hash {digest[:12]}... differs from the task data ({digests[task_id][:12]}...)"
            )


def _other_task_set(sub: Submission, data: dict[str, Task], digests: dict[str, str], root: Path) -> str | None:
    """One line when the submission's tasks are another task set than the data's (sample vs benchmark, ...)."""
    hashes = sub.manifest.task_hashes
    differ = sum(task_id not in data or digests[task_id] != digest for task_id, digest in hashes.items())
    mine = kind_of(hashes)
    theirs = kind_of(digests)
    if not differ or mine == theirs or (mine == CUSTOM and differ * 2 <= len(hashes)):
        return None  # the same set, or a few edited tasks: the detailed lines name them
    hint = " (the sample tasks: --data tasks/)" if mine == SAMPLE else ""
    return (
        f"played on {TITLES[mine]} ({len(hashes)} tasks), not on the task data at {root} ({TITLES[theirs]}; "
        f"{differ} of its tasks absent or different there): verify it against its own tasks with --data DIR{hint}"
    )


def _check_coverage(sub: Submission, problems: list[str]) -> None:
    manifest = sub.manifest
    counts = Counter(dialogue_key(t.task_id, t.trial) for t in sub.transcripts)
    for key, count in sorted(counts.items()):
        if count > 1:
            problems.append(f"dialogue {key} appears {count} times")
    if len(sub.transcripts) != manifest.transcript_count:
        problems.append(f"transcript_count is {manifest.transcript_count} but the file holds {len(sub.transcripts)}")
    declared = set(manifest.missing)
    expected = [dialogue_key(tid, trial) for trial in range(manifest.trials) for tid in sorted(manifest.task_hashes)]
    for key in expected:
        if key in counts and key in declared:
            problems.append(f"dialogue {key} is declared missing but is present")
        elif key not in counts and not manifest.partial:
            problems.append(
                f"dialogue {key} is missing (its task is in the task set and the submission is not partial)"
            )
        elif key not in counts and key not in declared:
            problems.append(f"dialogue {key} is missing and not declared in `missing`")
    if manifest.partial != bool(declared):
        problems.append(f"partial is {manifest.partial} but {len(declared)} dialogue(s) are declared missing")
    for transcript in sub.transcripts:
        key = dialogue_key(transcript.task_id, transcript.trial)
        if transcript.task_id not in manifest.task_hashes:
            problems.append(f"dialogue {key}: its task is not in the task set")
        elif transcript.task_hash and transcript.task_hash != manifest.task_hashes[transcript.task_id]:
            problems.append(f"dialogue {key}: task_hash differs from the task set's hash for {transcript.task_id}")
        if transcript.trial >= manifest.trials or transcript.trial < 0:
            problems.append(f"dialogue {key}: trial {transcript.trial} is outside 0..{manifest.trials - 1}")


def _check_identity(sub: Submission, problems: list[str]) -> None:
    manifest = sub.manifest
    label, reasons = classify(manifest.run_config, manifest.provider)
    if label != manifest.label:
        why = "; ".join(reasons) or "provider, mode and turn cap are the standard ones"
        problems.append(f"label is {manifest.label.value} but the run config makes it {label.value} ({why})")
    problems.extend(check_consistency(sub))
    for transcript in sub.transcripts:
        key = dialogue_key(transcript.task_id, transcript.trial)
        cap = manifest.run_config.get("max_turns")
        if isinstance(cap, int) and len(transcript.seeker_turns) > cap:
            problems.append(f"dialogue {key}: {len(transcript.seeker_turns)} seeker turns, above the turn cap {cap}")


def _check_claims(transcript: Transcript, task: Task, verdict: Verdict, problems: list[str]) -> None:
    """Every claimed node is real and carried by its turn's text; nothing leaks unclaimed (gating: rules.py)."""
    key = dialogue_key(transcript.task_id, transcript.trial)
    for index, turn in enumerate(transcript.turns):
        if turn.speaker != Speaker.provider:
            continue
        if turn.kind == ReplyKind.root and not carries_node(turn.text, task.tree.root.text, task.language):
            problems.append(f"dialogue {key} turn {index}: marked as the root answer but does not carry the root text")
        for node_id in turn.revealed:
            if node_id == ROOT_ID:
                continue
            if node_id not in task.tree:
                problems.append(f"dialogue {key} turn {index}: claims node {node_id}, which the task does not have")
                continue
            if not carries_node(turn.text, task.tree[node_id].text, task.language):
                problems.append(f"dialogue {key} turn {index}: claims node {node_id} but its text does not carry it")
    for node in verdict.nodes:
        if node.status in (NodeStatus.exact, NodeStatus.substring) and node.claimed_turn is None:
            problems.append(f"dialogue {key} turn {node.turn}: carries node {node.node_id} without claiming it")


def _merge_verdict(
    key: str, recomputed: Verdict, recorded: Verdict | None, judge_named: bool, problems: list[str]
) -> Verdict:
    """The recomputed verdict with the recorded LLM-judged nodes merged in; disagreements become problems."""
    if recorded is None:
        problems.append(f"dialogue {key}: no recorded verdict")
        return recomputed
    by_id = {node.node_id: node for node in recorded.nodes}
    merged = []
    for node in recomputed.nodes:
        mine = by_id.get(node.node_id)
        if mine is None:
            problems.append(f"dialogue {key} node {node.node_id}: no recorded status")
            merged.append(node)
        elif node.status in OBTAINED or mine.status not in OBTAINED:
            if mine.status != node.status:
                problems.append(
                    f"dialogue {key} node {node.node_id}: recorded {mine.status.value} "
                    f"but the judge finds {node.status.value}"
                )
            merged.append(node)
        elif mine.status == NodeStatus.llm and judge_named:
            merged.append(node.model_copy(update={"status": NodeStatus.llm}))
        elif mine.status == NodeStatus.llm:
            problems.append(
                f"dialogue {key} node {node.node_id}: recorded as LLM-judged but the submission names no judge"
            )
            merged.append(node)
        else:
            problems.append(
                f"dialogue {key} node {node.node_id}: recorded {mine.status.value} but no provider turn carries it"
            )
            merged.append(node)
    extra = set(by_id) - {node.node_id for node in recomputed.nodes}
    if extra:
        problems.append(f"dialogue {key}: recorded nodes the task does not have: {', '.join(sorted(extra))}")
    return recomputed.model_copy(update={"nodes": merged, "judge": recorded.judge})


def _check_figures(sub: Submission, verdicts: list[Verdict], problems: list[str], notes: list[str]) -> dict:
    """Every recorded figure against the figures recomputed from the transcripts and verdicts; returns the latter.
    A figure recorded under an old name was defined otherwise then: it is recomputed under its current name, not
    compared."""
    manifest = sub.manifest
    seed, resamples = bootstrap_settings(manifest.metrics)
    split = str(manifest.run_config.get("split") or "test")
    again = compute_metrics(sub.transcripts, verdicts, split=split, seed=seed, resamples=resamples)
    old = sorted(old_names(manifest.metrics))
    skip = tuple(old) + tuple(RENAMED[name] for name in old)
    lines = list(differences(manifest.metrics, again, skip=skip))
    problems.extend(lines[:MAX_METRIC_LINES])
    if len(lines) > MAX_METRIC_LINES:
        problems.append(f"... and {len(lines) - MAX_METRIC_LINES} more figures differ")
    for name in old:
        notes.append(f"{name} is the old name of {RENAMED[name]}: recomputed from the transcripts as defined now")
    return again


def _judge_all(
    sub: Submission,
    tasks: dict[str, Task],
    digests: dict[str, str],
    verdicts: list[Verdict],
    recorded: dict,
    judge_named: bool,
    single: bool,
    llm: bool,
    broken: set[str],
    problems: list[str],
) -> None:
    """Recompute every dialogue's verdict (into `verdicts`), checking its rules and claims on the way."""
    manifest = sub.manifest
    for transcript in sub.transcripts:
        task = tasks.get(transcript.task_id)
        if task is None or digests[transcript.task_id] != manifest.task_hashes.get(transcript.task_id):
            continue  # already reported: cannot judge against a task we do not have
        key = dialogue_key(transcript.task_id, transcript.trial)
        rule = check_rules(transcript, task, single=single, max_turns=manifest.max_turns, llm=llm)
        if rule:
            problems.append(rule)
            broken.add(key)
        recomputed = judge_deterministic(transcript, task)
        _check_claims(transcript, task, recomputed, problems)
        verdicts.append(_merge_verdict(key, recomputed, recorded.get(transcript.key), judge_named, problems))


def verify_submission(
    sub: Submission, data: str | Path | None = None, tasks: dict[str, Task] | None = None
) -> Verification:
    """Check one loaded submission against the task data (`tasks` given, or loaded from `data`)."""
    problems: list[str] = []
    notes: list[str] = []
    manifest = sub.manifest
    if manifest.format_version != FORMAT_VERSION:
        problems.append(f"format_version {manifest.format_version} is not supported (expected {FORMAT_VERSION})")
        return Verification(problems, notes, [], {})
    try:  # before anything is expanded: trials x tasks and every declared count within the fixed limits
        bounds.check_declared("the submission", manifest)
    except ClarqError as exc:
        return Verification([bounds.Refused(str(exc))], notes, [], {})
    languages = {task_id.split("/", 1)[0] for task_id in manifest.task_hashes}
    if tasks is None:
        root, tasks = load_task_data(data, languages)
    else:
        root = Path(str(data or "<given tasks>"))
    too_many = bounds.check_task_set(manifest, tasks)
    if too_many:
        return Verification([bounds.Refused(too_many)], notes, [], tasks)
    digests = {task_id: task.content_hash() for task_id, task in tasks.items()}  # each task hashed once
    other = _other_task_set(sub, tasks, digests, root)
    if other:  # every later check would fail against tasks it was not played on: one line, not a cascade
        return Verification([other], notes, [], {})
    offline = recorded_kind(manifest.provider.name) == "offline"
    replay = None
    if offline:  # started first: with workers it runs beside every check below (it takes longest), the provider's
        replay = Replay(sub.transcripts, tasks, manifest, replay_workers(len(sub.transcripts)))  # fingerprint too
    cannot = fingerprint_problem(manifest) if offline else None
    if cannot and replay is not None:  # not this clarq's provider: its replay means nothing, and is never read
        replay.close(wait=False)
        replay = None
    verdicts: list[Verdict] = []
    again: dict | None = None
    try:
        problems.extend(check_seal(sub))
        _check_tasks(sub, tasks, digests, root, problems)
        _check_coverage(sub, problems)
        _check_identity(sub, problems)
        recorded = {(v.task_id, v.trial): v for v in sub.verdicts}
        judge_named = manifest.judge.name not in ("", "none")
        single = provider_mode(manifest) != ProviderMode.multi_info.value
        llm = recorded_kind(manifest.provider.name) == "llm"
        broken: set[str] = set()
        metrics = manifest.metrics
        unit = (metrics.get("summary") or {}).get("token_unit") if isinstance(metrics, dict) else None
        counter = counter_for(unit) if isinstance(unit, str) else None
        if (
            counter is None and sub.transcripts
        ):  # a unit no verifier can count in cannot be taken on trust: every figure is checked
            problems.append(
                f"token figures are recorded in {unit!r}, a unit this verifier cannot count in "
                f"(known: {token_counter().unit}, {FALLBACK_UNIT})"
            )
        with counting_in(counter or token_counter()):
            _judge_all(sub, tasks, digests, verdicts, recorded, judge_named, single, llm, broken, problems)
            if len(verdicts) == len(sub.transcripts) and verdicts:
                again = _check_figures(sub, verdicts, problems, notes)
        provenance = SELF_REPORTED
        if offline:
            problems.extend(replay.problems(broken) if replay is not None else [cannot or ""])
            provenance = SELF_REPORTED if cannot else REPLAYED
    finally:
        if replay is not None:
            replay.close()
    if not offline:
        notes.append(
            f"the {manifest.provider.name} provider cannot be replayed: its replies are self-reported "
            "(checked against the tree and the provider rules only)"
        )
    llm_nodes = sum(node.status == NodeStatus.llm for v in verdicts for node in v.nodes)
    if llm_nodes:
        notes.append(f"{llm_nodes} node(s) accepted on the recorded LLM judge's verdict ({manifest.judge.name})")
    return Verification(problems, notes, verdicts, tasks, provenance, again)


def verify_file(
    path: str | Path, data: str | Path | None = None, tasks: dict[str, Task] | None = None
) -> tuple[Submission | None, Verification]:
    """Load and verify one file; an unreadable or unsafe file is a single problem."""
    try:
        sub = read_submission(path)
    except ClarqError as exc:
        return None, Verification([bounds.Refused(str(exc))], [], [], {})
    return sub, verify_submission(sub, data, tasks)
