"""Verdicts -> a Summary: the released figures (success, AQD, AQL) and what the released system lacked.

Released definitions (REFERENCE.md), per dialogue then averaged over ALL dialogues scored: success = every required
node obtained; AQD = provider turns after the root + 1 - tree nodes incl. the root; AQL = mean length of all seeker
turns in the released unit. Added: AQL in one cross-language token unit, AQD over successful dialogues only,
breakdowns per language / task type / tree depth / number of required nodes, pass^k over trials, elicitation
precision (questions that obtained a node) and redundancy rate, efficiency (success weighted by what the seeker said,
per dialogue S x H / max(H, C) with AQD's H and C the charge of scoring/charge.py: success and cost read together),
each headline figure with a seeded bootstrap 95% interval over tasks. Reads Verdicts only. Summaries written before
the efficiency figure had its name read its old one (`success_eff`).
"""

from __future__ import annotations

import zlib
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from typing import TypedDict

from pydantic import AliasChoices, BaseModel, Field
from typing_extensions import Unpack

from ..core.transcript import Transcript, Usage
from .judge import TurnLabel, Verdict
from .stats import CONFIDENCE, DEFAULT_RESAMPLES, DEFAULT_SEED, bootstrap_ratio, figure_seed, pass_hat_k

#: Seeker turns that are not questions: they do not count towards precision and redundancy.
NON_QUESTIONS = frozenset({TurnLabel.opening, TurnLabel.goodbye, TurnLabel.no_reply})


#: The efficiency figure's one name, and what it is.
EFFICIENCY = (
    "Success weighted by what the seeker said: S x H / max(H, C), H the human path's queries, C the "
    "dearest of the seeker's turns, asks + 1 and tokens over a human turn's (scoring/charge.py)."
)
#: Files written before the figure had one name carry it as `success_eff`: read either, write `efficiency`.
OLD_NAMES = AliasChoices("efficiency", "success_eff")


class Figure(BaseModel):
    """One number with its bootstrap interval; `n` counts what `of` names (dialogues, questions, tasks).

    `value` None = the figure cannot be measured here (shown as "n/a"), `note` says why."""

    value: float | None
    low: float | None = None
    high: float | None = None
    n: int = 0
    of: str = "dialogues"
    note: str | None = None


def not_measured(note: str, of: str = "dialogues") -> Figure:
    return Figure(value=None, of=of, note=note)


class Group(BaseModel):
    """The headline figures of one slice of the dialogues (a language, a task type, a depth, ...)."""

    key: str
    dialogues: int
    success: Figure
    aqd: Figure
    aql: Figure
    aql_tokens: Figure
    efficiency: Figure = Field(description=EFFICIENCY, validation_alias=OLD_NAMES)


class Resampling(TypedDict):
    """The bootstrap's settings, passed on to every figure of a summary."""

    seed: int
    resamples: int


class RunUsage(BaseModel):
    """What the dialogues of a run cost, per role (as each transcript recorded it): calls made, calls served from the
    cache (no tokens, no dollars), tokens and dollars. `unpriced` names each role whose model used tokens but has no
    known price: its dollars are unknown, not zero."""

    by_role: dict[str, Usage]
    total: Usage
    unpriced: dict[str, str] = Field(default_factory=dict, description="role -> model with no known price")


def run_usage(transcripts: Iterable[Transcript], judge: Usage | None = None, judge_model: str = "") -> RunUsage:
    """Usage per role summed over the transcripts, plus what judging them cost (`judge`: the calls of the judge's
    leftover-node check, made after the dialogues and so in no transcript)."""
    by_role: dict[str, Usage] = {}
    models: dict[str, str] = {}
    for transcript in transcripts:
        for role, usage in transcript.usage.items():
            by_role[role] = by_role.get(role, Usage()) + usage
            agent = getattr(transcript, role, None)  # `--provider gpt-4o` records the model as the agent's name
            model = getattr(agent, "model", None) or getattr(agent, "name", None)
            if model:
                models.setdefault(role, model)
    if judge is not None and judge.calls:
        by_role["judge"] = by_role.get("judge", Usage()) + judge
        models.setdefault("judge", judge_model or "?")
    ordered = dict(sorted(by_role.items()))
    unpriced = {
        role: models.get(role, "?")
        for role, u in ordered.items()
        if u.prompt_tokens + u.completion_tokens > 0 and u.cost_usd == 0.0
    }
    return RunUsage(by_role=ordered, total=sum(ordered.values(), Usage()), unpriced=unpriced)


class ScriptedSummary(BaseModel):
    """A replay run: the seeker replayed recorded turns (open loop). In-sync dialogues got the recorded provider's
    decision at every turn; a diverged one stopped being a dialogue at `diverged_at` (its later turns cite answers our
    provider never gave), so its figures measure neither seeker nor provider."""

    sources: list[str]
    in_sync: Group | None
    diverged: Group | None
    diverged_at: dict[str, int] = Field(description="Diverged dialogues per first diverging seeker turn.")


class Summary(BaseModel):
    """Every figure of a scored set of dialogues, with intervals; written as summary.json."""

    source: str = ""
    task_set: str = Field(
        default="",
        description="Which tasks: the benchmark's, the sample tasks or custom ones "
        "(data/task_sets.py), as shown beside every figure; empty when not known.",
    )
    judge: str
    dialogues: int
    tasks: int
    trials: int = Field(description="Most trials of any task.")
    split: str
    languages: dict[str, int]
    aql_units: dict[str, str] = Field(description="Released AQL unit per detected language.")
    token_unit: str
    seekers: list[str]
    providers: list[str]
    success: Figure
    aqd: Figure
    aql: Figure
    aql_tokens: Figure
    efficiency: Figure = Field(description=EFFICIENCY, validation_alias=OLD_NAMES)
    aqd_successful: Figure
    elicitation_precision: Figure
    redundancy_rate: Figure
    pass_k: dict[str, Figure] = Field(default_factory=dict, description="pass^k for k = 1..trials.")
    by_language: list[Group]
    by_type: list[Group]
    by_depth: list[Group]
    by_required: list[Group]
    by_split: list[Group] = Field(
        default_factory=list, description="One group per split when more than one is present."
    )
    scripted: ScriptedSummary | None = Field(default=None, description="Set when the seeker was a scripted replay.")
    usage: RunUsage | None = Field(default=None, description="Calls, cache hits, tokens and dollars per role.")
    turn_labels: dict[str, int]
    node_status: dict[str, int]
    end_reasons: dict[str, int]
    unverified_claims: int
    bootstrap: dict[str, float | int | str]


def _clustered(
    verdicts: Sequence[Verdict], value: Callable[[Verdict], float], weight: Callable[[Verdict], float]
) -> tuple[list[float], list[float]]:
    """Per-task sums of value and weight: the clusters the bootstrap resamples."""
    num: dict[str, float] = defaultdict(float)
    den: dict[str, float] = defaultdict(float)
    for verdict in verdicts:
        num[verdict.task_id] += value(verdict)
        den[verdict.task_id] += weight(verdict)
    keys = sorted(num)
    return [num[k] for k in keys], [den[k] for k in keys]


def figure(
    verdicts: Sequence[Verdict],
    name: str,
    value: Callable[[Verdict], float],
    weight: Callable[[Verdict], float] = lambda v: 1.0,
    *,
    seed: int = DEFAULT_SEED,
    resamples: int = DEFAULT_RESAMPLES,
    of: str = "dialogues",
) -> Figure:
    """sum(value)/sum(weight) over `verdicts` with a task-clustered bootstrap interval seeded by `name` and by the
    slice itself (which dialogues it holds), so one figure of one slice has one interval wherever it is shown (the
    headline and a per-language row over the same dialogues agree)."""
    num, den = _clustered(verdicts, value, weight)
    interval = bootstrap_ratio(num, den, seed=figure_seed(seed, f"{name}|{slice_key(verdicts)}"), resamples=resamples)
    return Figure(value=interval.value, low=interval.low, high=interval.high, n=int(sum(den)), of=of)


def slice_key(verdicts: Sequence[Verdict]) -> str:
    """Which dialogues a slice holds, as a short stable digest."""
    keys = "\n".join(sorted(f"{v.task_id}#{v.trial}" for v in verdicts))
    return f"{zlib.crc32(keys.encode('utf-8')):08x}"


def aql_figure(verdicts: Sequence[Verdict], **kw: Unpack[Resampling]) -> Figure:
    """Released AQL, only over dialogues in one released unit: English spaces and Chinese characters never mix."""
    units = {v.aql_language for v in verdicts}
    if len(units) > 1:
        return not_measured("released units differ between languages: see the per-language rows")
    return figure(verdicts, "aql", lambda v: v.aql, **kw)


def success_rate(verdicts: Sequence[Verdict]) -> float:
    """Share of dialogues with every required node obtained (denominator: all dialogues)."""
    return sum(v.success for v in verdicts) / len(verdicts) if verdicts else 0.0


def mean_aqd(verdicts: Sequence[Verdict]) -> float:
    return sum(v.aqd for v in verdicts) / len(verdicts) if verdicts else 0.0


def mean_aql(verdicts: Sequence[Verdict]) -> float:
    return sum(v.aql for v in verdicts) / len(verdicts) if verdicts else 0.0


def _questions(verdict: Verdict) -> int:
    return sum(turn.label not in NON_QUESTIONS for turn in verdict.seeker_turns)


def _group(verdicts: Sequence[Verdict], key: str, seed: int, resamples: int) -> Group:
    kw: Resampling = {"seed": seed, "resamples": resamples}
    return Group(
        key=key,
        dialogues=len(verdicts),
        success=figure(verdicts, "success", lambda v: float(v.success), **kw),
        aqd=figure(verdicts, "aqd", lambda v: float(v.aqd), **kw),
        aql=aql_figure(verdicts, **kw),
        aql_tokens=figure(verdicts, "aql_tokens", lambda v: v.aql_tokens, **kw),
        efficiency=figure(verdicts, "efficiency", lambda v: v.efficiency, **kw),
    )


def _groups(
    verdicts: Sequence[Verdict], by: Callable[[Verdict], object], prefix: str, seed: int, resamples: int
) -> list[Group]:
    buckets: dict[object, list[Verdict]] = defaultdict(list)
    for verdict in verdicts:
        buckets[by(verdict)].append(verdict)
    return [_group(buckets[k], f"{prefix}{k}", seed, resamples) for k in sorted(buckets)]  # type: ignore[type-var]


def _pass_k(verdicts: Sequence[Verdict], seed: int, resamples: int) -> dict[str, Figure]:
    outcomes: dict[str, list[bool]] = defaultdict(list)
    for verdict in verdicts:
        outcomes[verdict.task_id].append(verdict.success)
    most = max((len(o) for o in outcomes.values()), default=0)
    result = {}
    for k in range(1, most + 1):
        values = [pass_hat_k(len(o), sum(o), k) for _, o in sorted(outcomes.items()) if len(o) >= k]
        interval = bootstrap_ratio(
            values, [1.0] * len(values), seed=figure_seed(seed, f"pass^{k}"), resamples=resamples
        )
        result[str(k)] = Figure(value=interval.value, low=interval.low, high=interval.high, n=len(values), of="tasks")
    return result


def _redundancy(verdicts: Sequence[Verdict], **kw: Unpack[Resampling]) -> Figure:
    """Share of questions that repeated an answered one; n/a where the provider's turns carry no intents (released
    files), since a repeat answered in new words cannot be told apart there."""
    unclassified = sum(v.count(TurnLabel.unclassified) for v in verdicts)
    if unclassified:
        return not_measured(f"{unclassified} questions got a reply with no recorded intent", of="questions")
    return figure(
        verdicts,
        "redundancy",
        lambda v: float(v.count(TurnLabel.redundant)),
        lambda v: float(_questions(v)),
        of="questions",
        **kw,
    )


def _scripted(verdicts: Sequence[Verdict], seed: int, resamples: int) -> ScriptedSummary | None:
    replayed = [v for v in verdicts if v.scripted is not None]
    if not replayed:
        return None
    in_sync = [v for v in replayed if v.scripted.diverged_at is None]  # type: ignore[union-attr]
    diverged = [v for v in replayed if v.scripted.diverged_at is not None]  # type: ignore[union-attr]
    at = Counter(v.scripted.diverged_at for v in diverged)  # type: ignore[union-attr]
    return ScriptedSummary(
        sources=sorted({v.scripted.source for v in replayed}),  # type: ignore[union-attr]
        in_sync=_group(in_sync, "in sync", seed, resamples) if in_sync else None,
        diverged=_group(diverged, "diverged", seed, resamples) if diverged else None,
        diverged_at={str(k): at[k] for k in sorted(at)},  # type: ignore[type-var]
    )


def summarize(
    verdicts: Sequence[Verdict],
    *,
    source: str = "",
    split: str = "all",
    seed: int = DEFAULT_SEED,
    resamples: int = DEFAULT_RESAMPLES,
    usage: RunUsage | None = None,
    task_set: str = "",
) -> Summary:
    """Every figure of `verdicts` (already filtered to the split being reported); `usage` is what the dialogues
    cost (metrics only carry it into the report)."""
    if not verdicts:
        raise ValueError("no dialogues to summarize")
    kw: Resampling = {"seed": seed, "resamples": resamples}
    successful = [v for v in verdicts if v.success]
    labels = Counter(turn.label.value for v in verdicts for turn in v.seeker_turns)
    trials = Counter(v.task_id for v in verdicts)
    return Summary(
        source=source,
        task_set=task_set,
        judge=", ".join(sorted({v.judge for v in verdicts})),
        dialogues=len(verdicts),
        tasks=len(trials),
        trials=max(trials.values()),
        split=split,
        languages=dict(sorted(Counter(v.language for v in verdicts).items())),
        aql_units={
            lang: "characters" if lang == "zh" else "spaces" for lang in sorted({v.aql_language for v in verdicts})
        },
        token_unit=", ".join(sorted({v.token_unit for v in verdicts})),
        seekers=sorted({v.seeker for v in verdicts}),
        providers=sorted({v.provider for v in verdicts}),
        success=figure(verdicts, "success", lambda v: float(v.success), **kw),
        aqd=figure(verdicts, "aqd", lambda v: float(v.aqd), **kw),
        aql=aql_figure(verdicts, **kw),
        aql_tokens=figure(verdicts, "aql_tokens", lambda v: v.aql_tokens, **kw),
        efficiency=figure(verdicts, "efficiency", lambda v: v.efficiency, **kw),
        aqd_successful=figure(successful, "aqd_successful", lambda v: float(v.aqd), **kw)
        if successful
        else not_measured("no successful dialogue"),
        elicitation_precision=figure(
            verdicts,
            "precision",
            lambda v: float(v.count(TurnLabel.obtained)),
            lambda v: float(_questions(v)),
            of="questions",
            **kw,
        ),
        redundancy_rate=_redundancy(verdicts, **kw),
        pass_k=_pass_k(verdicts, seed, resamples),
        by_language=_groups(verdicts, lambda v: v.language, "lang=", seed, resamples),
        by_type=_groups(verdicts, lambda v: v.type_number, "type=", seed, resamples),
        by_depth=_groups(verdicts, lambda v: v.tree_depth, "depth=", seed, resamples),
        by_required=_groups(verdicts, lambda v: v.required_count, "required=", seed, resamples),
        by_split=_groups(verdicts, lambda v: v.split, "split=", seed, resamples)
        if len({v.split for v in verdicts}) > 1
        else [],
        scripted=_scripted(verdicts, seed, resamples),
        turn_labels={label.value: labels.get(label.value, 0) for label in TurnLabel},
        node_status=dict(sorted(Counter(n.status.value for v in verdicts for n in v.nodes).items())),
        end_reasons=dict(sorted(Counter(v.end_reason.value for v in verdicts).items())),
        unverified_claims=sum(len(v.unverified_claims) for v in verdicts),
        bootstrap={"resamples": resamples, "seed": seed, "confidence": CONFIDENCE, "unit": "task"},
        usage=usage,
    )
