"""A run: many dialogues played concurrently into a run directory that survives interruption and can be resumed.

The folder's files belong to core.run_folder.RunDir; the run is scored by scoring.sources.score_run (api.py).

Resume skips the (task, trial) pairs already in transcripts.jsonl after checking the config hash (a change is
refused unless forced, naming the changed fields); a partial last line left by kill -9 is cut off first, so at
most the dialogues in flight are lost. Dialogues that ended with an error are kept and counted as skipped with
errors, unless `retry_errors` is set: then their records are removed (one atomic rewrite of the file) and they are
played again. Dialogues cut short by the budget are always played again on resume (they did not finish).
When the LLM client reports its budget exhausted, no new dialogue starts and those in flight end at their next
seeker turn with end reason `budget`. When the circuit breaker trips (breaker.py: an error no retry can fix, or
`max_errors` errored dialogues), no new dialogue starts either; a dialogue ended by a fatal error is not written
(it never really played: a resume plays it again) and `RunStats.stopped` says why.
Builds each dialogue's agents from the two specs the run was made ready with (prepared.py: every name resolved
once, before the first dialogue) and hands them to dialogue.play_dialogue. Whatever an agent or its factory raises
ends that dialogue, never the run.
"""

from __future__ import annotations

import asyncio
import gc
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..core.errors import ClarqError
from ..core.run_config import AgentSettings, RunConfig, describe_diff, diff_configs
from ..core.run_folder import RunDir
from ..core.run_guard import file_error
from ..core.tasks import Task
from ..core.transcript import EndReason, Speaker, Transcript
from ..provider.registry import ProviderSpec
from .breaker import CircuitBreaker, fatal_error
from .dialogue import play_dialogue, safe_message
from .ledger import Ledger
from .prepared import PreparedRun, ready
from .provider_pool import ProviderPool, poolable
from .run_identity import agent_infos, stamp_transcript

if TYPE_CHECKING:
    from .dialogue_pool import DialoguePool

# --- building agents --------------------------------------------------------------------------------------------


def build_provider(
    spec: ProviderSpec, settings: AgentSettings, task: Task, client: Any, *, seed: int, trial: int
) -> Any:
    """A provider for one dialogue from the run's resolved spec (an import path is called with (task, settings))."""
    return spec.build(
        task, settings.mode or "single", client=client, settings=settings, seed=seed, trial=trial, **settings.options
    )


def budget_exhausted(client: Any) -> bool:
    flag = getattr(client, "budget_exhausted", False)
    return bool(flag() if callable(flag) else flag)


def quick_success(task: Task, transcript: Transcript) -> bool:
    """The released rule's deterministic stage, for the running success rate: every required node is carried by
    some provider turn after the greeting (the judge proper runs at the end; this one is cheap and loads nothing)."""
    from ..data.textmatch import carries_node

    said = [turn.text for turn in transcript.turns[1:] if turn.speaker == Speaker.provider]
    return all(any(carries_node(text, node.text, task.language) for text in said) for node in task.tree.required)


# --- the run ----------------------------------------------------------------------------------------------------


@dataclass
class RunStats:
    """Running totals shown while the run goes and returned at the end."""

    total: int = 0
    skipped: int = 0
    skipped_errors: int = 0  # of the skipped, how many ended with an error (resume with retry_errors to replay them)
    done: int = 0
    successes: int = 0
    errors: int = 0
    tokens: int = 0
    cost_usd: float = 0.0
    calls: int = 0  # model calls made, every role (a call served from the cache counts in `cached_calls` too)
    cached_calls: int = 0
    stopped_for_budget: bool = False
    stopped: str | None = None  # why the circuit breaker stopped the run (one line), None if it did not
    unwritten: int = 0  # dialogues ended by the breaker's fatal error: not written, played again on resume
    end_reasons: dict[str, int] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)  # one-line warnings for the user (an unfinished line cut, ...)
    limits: str = ""  # adaptive caps on calls in flight that moved (llm/limits.py), for the progress line
    role_spend: dict[str, tuple[int, float]] = field(default_factory=dict)  # role -> (tokens, dollars) so far

    def add(self, transcript: Transcript, success: bool) -> None:
        self.done += 1
        self.successes += success
        self.errors += transcript.end_reason == EndReason.error
        self.end_reasons[transcript.end_reason.value] = self.end_reasons.get(transcript.end_reason.value, 0) + 1
        for role, usage in transcript.usage.items():
            tokens, dollars = self.role_spend.get(role, (0, 0.0))
            self.role_spend[role] = (tokens + usage.prompt_tokens + usage.completion_tokens, dollars + usage.cost_usd)
            self.tokens += usage.prompt_tokens + usage.completion_tokens
            self.cost_usd += usage.cost_usd
            self.calls += usage.calls
            self.cached_calls += usage.cached_calls

    def line(self) -> str:
        rate = f"{self.successes / self.done:.1%}" if self.done else "-"
        # A role that used tokens and cost nothing has no known price: "unknown", as the results table says.
        unpriced = any(tokens and not dollars for tokens, dollars in self.role_spend.values())
        dollars = (
            f"${self.cost_usd:.2f}" + (" + unknown" if unpriced else "")
            if self.cost_usd or not unpriced
            else "unknown cost"
        )
        spent = (
            f"calls {self.calls:,} ({self.cached_calls:,} from cache)  tokens {self.tokens:,}  {dollars}"
            if self.calls
            else "no model calls"
        )  # a cached call costs nothing: say so instead of "tokens 0"
        line = f"{self.done}/{self.total - self.skipped} dialogues  success {rate}  {spent}  errors {self.errors}"
        return f"{line}  {self.limits}" if self.limits else line


def prepare_run_dir(
    config: RunConfig,
    run_dir: Path,
    *,
    resume: bool,
    force: bool,
    retry_errors: bool = False,
    notes: list[str] | None = None,
) -> list[Transcript]:
    """Create or check the run directory; return the records of the (task, trial) pairs that count as played.

    On resume, records that will be played again (budget cut-offs; errors with `retry_errors`) are removed first,
    and an unfinished last line is cut (said in `notes`: its dialogue is played again).
    """
    folder = RunDir(run_dir)
    transcripts = folder.transcripts_path
    if resume:
        changes = diff_configs(folder.config(), config)
        if changes and not force:
            raise ClarqError(
                f"the run's config changed: {describe_diff(changes)}", "rerun with --force to resume anyway"
            )
        if changes and notes is not None:  # forced: said, never silent (an endpoint change moves where calls go)
            notes.append(f"resumed with a changed config (--force): {describe_diff(changes)}")
        cut = folder.repair_tail()
        if cut and notes is not None:
            notes.append(
                f"{transcripts}: cut an unfinished last line ({cut} bytes, a write interrupted mid-way); "
                "its dialogue is played again"
            )
    elif transcripts.exists() and transcripts.stat().st_size:
        raise ClarqError(f"{run_dir} already holds transcripts", f"resume it with --resume {run_dir}")
    folder.write_config(config)
    records, _ = folder.transcripts()
    if resume:
        folder.check_records(records, config.trials)  # a pair written twice would be counted (and paid) twice
    replay = {EndReason.budget} | ({EndReason.error} if retry_errors else set())
    kept = [record for record in records if record.end_reason not in replay]
    if len(kept) != len(records):
        folder.rewrite_transcripts(kept)
    return kept


async def run_dialogues(
    config: RunConfig,
    tasks: list[Task],
    run_dir: Path,
    *,
    client: Any = None,
    resume: bool = False,
    force: bool = False,
    retry_errors: bool = False,
    on_update: Callable[[RunStats], None] | None = None,
    on_ready: Callable[[], None] | None = None,
    provider_workers: int = 0,
) -> RunStats:
    """Play a config's run: its agents resolved and its config stamped as prepare() does (prepared.ready), then
    play_run. For callers that hold a config rather than a run's options (tests, benchmarks)."""
    run = ready(config, tasks, client, run_dir)
    return await play_run(
        run,
        resume=resume,
        force=force,
        retry_errors=retry_errors,
        on_update=on_update,
        on_ready=on_ready,
        provider_workers=provider_workers,
    )


async def play_run(
    run: PreparedRun,
    *,
    resume: bool = False,
    force: bool = False,
    retry_errors: bool = False,
    on_update: Callable[[RunStats], None] | None = None,
    on_ready: Callable[[], None] | None = None,
    provider_workers: int = 0,
    dialogue_pool: DialoguePool | None = None,
) -> RunStats:
    """Play every (task, trial) pair not yet in the run directory, `config.concurrency` at a time.

    With `retry_errors` (resume only), pairs whose dialogue ended with an error are played again, replacing the
    error record; without it they stay as they are and are counted in `stats.skipped_errors`. `on_ready()` is
    called once config.json is written, before the first dialogue: a folder announced to the user (with its resume
    command) is one that can be resumed, and a full disk at start is the one error line. `provider_workers` > 0
    decides the offline provider's replies in that many worker processes (runner/provider_pool.py); a
    `dialogue_pool` plays whole dialogues in its workers (runner/dialogue_pool.py)."""
    seeker_model = run.seeker.model
    resolve = getattr(run.client, "resolve_model", None)
    if seeker_model and callable(resolve):  # record the dated version the alias stood for
        seeker_model = resolve(seeker_model)
    folder = RunDir(run.run_dir)
    if resume:
        folder.require()
    folder.create()
    with folder.lock():  # one writer at a time; the kernel releases it if this process dies
        return await _play(
            run, folder, resume, force, retry_errors, on_update, seeker_model, on_ready, provider_workers, dialogue_pool
        )


async def _play(
    run: PreparedRun,
    folder: RunDir,
    resume: bool,
    force: bool,
    retry_errors: bool,
    on_update: Callable[[RunStats], None] | None,
    seeker_model: str | None,
    on_ready: Callable[[], None] | None = None,
    provider_workers: int = 0,
    dialogue_pool: DialoguePool | None = None,
) -> RunStats:
    """play_run with the folder's lock held."""
    config, tasks, client = run.config, run.tasks, run.client
    run_dir = folder.path
    notes: list[str] = []
    kept = prepare_run_dir(config, run_dir, resume=resume, force=force, retry_errors=retry_errors, notes=notes)
    if on_ready is not None:
        on_ready()
    before = folder.spent_before(kept) if resume else 0.0  # the dialogues of earlier sessions
    if client is not None and hasattr(client, "spent_before"):  # --max-cost caps the run's total over every
        client.spent_before = before + (folder.scoring_spent() if resume else 0.0)  # session, judging included
    disk: list[BaseException] = []
    breaker = CircuitBreaker(max_errors=config.max_errors)

    def write_failed(exc: BaseException) -> None:  # a full disk: no new dialogue, no new call, one line at the end
        disk.append(exc)
        breaker.reason = breaker.reason or "a file of the run could not be written"
        halt = getattr(client, "halt", None)
        if halt is not None:
            halt("a file of the run could not be written")

    ledger = Ledger(folder, before, client, write_failed) if client is not None and hasattr(client, "usage") else None
    if ledger is not None and hasattr(client, "on_paid"):
        client.on_paid = ledger.paid  # spending.json follows every paid call, so kill -9 loses no dollar of it

    def spent() -> None:
        if ledger is not None:
            ledger.write()

    done = {record.key for record in kept}
    jobs = [(task, trial) for trial in range(config.trials) for task in tasks]
    stats = RunStats(total=len(jobs), notes=notes)
    pending = [(task, trial) for task, trial in jobs if (task.id, trial) not in done]
    stats.skipped = len(jobs) - len(pending)
    wanted = {(task.id, trial) for task, trial in jobs}
    stats.skipped_errors = sum(r.end_reason == EndReason.error and r.key in wanted for r in kept)
    writer = folder.writer()
    gate = asyncio.Semaphore(config.concurrency)
    seeker_info, provider_info = agent_infos(config, run.seeker.name, seeker_model, run.provider)

    # The first dialogue goes alone until one exchange worked (or it ended): against an endpoint that refuses every
    # call, the breaker then trips after one call instead of `concurrency` of them.
    probed = asyncio.Event()

    def failed(task: Task, trial: int, seed: int, error: str) -> Transcript:
        return Transcript.of_task(
            task,
            trial=trial,
            seed=seed,
            seeker=seeker_info,
            provider=provider_info,
            turns=[],
            end_reason=EndReason.error,
            error=error,
        )

    serial = asyncio.Lock()

    async def play(task: Task, trial: int, first: bool = False) -> None:
        if not first:
            await probed.wait()
        try:
            if breaker.suspect_seeker:  # the first dialogues failed in the seeker: one at a time until one does not
                async with serial:
                    if breaker.suspect_seeker:
                        await play_one(task, trial)
                        return
            await play_one(task, trial)
        finally:
            probed.set()

    async def dialogue_of(
        task: Task, trial: int, seed: int, on_error: Callable[[str, BaseException], None]
    ) -> Transcript:
        """Build the agents and play; whatever they raise outside an agent call is this dialogue's error too."""
        if dialogue_pool is not None:  # played by a worker, unless it ended with an error there: then played here
            played = await dialogue_pool.play(task.id, trial, seed, seeker_info, provider_info)
            if played is not None:
                return played
        try:
            seeker = run.seeker.build(task)
        except (KeyboardInterrupt, asyncio.CancelledError):
            raise
        except BaseException as exc:  # the seeker's __init__ raised: the seeker's error, like one of respond's
            on_error("seeker", exc)
            return failed(task, trial, seed, f"seeker: {safe_message(exc)} (building it)")
        try:
            provider = (
                await pool.open(task)
                if pool is not None
                else build_provider(run.provider, config.provider, task, client, seed=seed, trial=trial)
            )
        except (KeyboardInterrupt, asyncio.CancelledError):
            raise
        except BaseException as exc:  # a per-task build failure is that dialogue's error
            return failed(task, trial, seed, f"build: {safe_message(exc)}")
        try:
            return await play_dialogue(
                task,
                seeker,
                provider,
                max_turns=config.max_turns,
                trial=trial,
                seed=seed,
                seeker_info=seeker_info,
                provider_info=provider_info,
                budget_exhausted=lambda: budget_exhausted(client),
                turn_timeout=config.turn_timeout,
                on_error=on_error,
                on_exchange=probed.set,
            )
        except (KeyboardInterrupt, asyncio.CancelledError):
            raise
        except BaseException as exc:  # outside any agent call (the provider's greeting, ...)
            return failed(task, trial, seed, f"dialogue: {safe_message(exc)}")

    async def play_one(task: Task, trial: int) -> None:
        async with gate:
            if breaker.tripped:
                return
            if budget_exhausted(client):
                stats.stopped_for_budget = True
                return
            seed = config.trial_seed(trial)
            fatal: list[BaseException] = []

            def on_error(role: str, exc: BaseException) -> None:
                breaker.agent_failed(role, exc)
                if fatal_error(exc) is not None:
                    fatal.append(exc)

            transcript = await dialogue_of(task, trial, seed, on_error)
            if transcript.end_reason == EndReason.budget and len(transcript.turns) <= 1:
                stats.stopped_for_budget = True
                return  # never started: leave it for a resume with a larger budget
            if fatal:
                stats.unwritten += 1
                return  # the breaker's error: not a result of this dialogue; a resume plays it again
            if disk:
                return  # the run stopped writing: this dialogue is played again on resume (its calls are cached)
            try:
                try:
                    writer.append(stamp_transcript(transcript, client))
                except (ClarqError, ValueError) as exc:  # text the writer refuses (not valid Unicode): keep the record
                    transcript = failed(task, trial, seed, f"transcript could not be written ({safe_message(exc)})")
                    writer.append(stamp_transcript(transcript, client))
                spent()
            except (OSError, ClarqError) as exc:  # a full disk: stop starting dialogues and calls, one line at the end
                write_failed(exc)
                return
            stats.add(transcript, quick_success(task, transcript))
            if transcript.end_reason == EndReason.error:
                breaker.dialogue_errored()
            breaker.dialogue_ended(transcript.error if transcript.end_reason == EndReason.error else None)
            stats.stopped = breaker.reason
            if on_update:
                stats.limits = client.limits.describe() if hasattr(client, "limits") else ""
                on_update(stats)

    pool = None
    if provider_workers > 0 and pending and poolable(run.provider):
        run_tasks = list({task.id: task for task, _ in pending}.values())
        pool = ProviderPool(run.provider, config.provider.mode or "single", run_tasks, provider_workers)
    try:
        with fewer_collections():
            await asyncio.gather(*(play(task, trial, i == 0) for i, (task, trial) in enumerate(pending)))
        settle = getattr(client, "settle", None)
        if settle is not None:  # replies to calls a turn timeout gave up on: paid, so waited for (briefly) and kept
            started, waited = time.monotonic(), await settle(SETTLE_WAIT_S)
            if waited:
                notes.append(
                    f"waited {time.monotonic() - started:.1f} s for {waited} model call(s) a turn timeout "
                    "had given up on: their replies are paid, and kept in the cache for a resume"
                )
    finally:
        if pool is not None:
            pool.close()
        writer.close()
        spent()
        if ledger is not None and getattr(client, "on_paid", None) == ledger.paid:
            client.on_paid = None
    if disk:
        first = disk[0]
        if isinstance(first, OSError):
            raise file_error(folder.transcripts_path, first) from None
        raise first
    stats.stopped = breaker.reason
    return stats


#: Longest wait, at the end of a run, for calls a turn timeout gave up on (LLMClient.settle).
SETTLE_WAIT_S = 10.0


@contextmanager
def fewer_collections(young: int = 100_000, middle: int = 50, old: int = 1_000) -> Iterator[None]:
    """Run the cyclic garbage collector less often while dialogues play; restore its thresholds afterwards.

    Why: a busy run allocates a few hundred objects per model call and keeps thousands of turns alive; at CPython's
    default thresholds (700, 10, 10) a collection starts every couple of calls and the older generations rescan the
    live set, all on the event loop. benchmarks/run_scaling.py (260 dialogues in flight): 1.21-1.36x of the critical
    path with the defaults, 1.16-1.18x with these, and less client CPU. Reference counting still frees almost
    everything at once; only cyclic garbage waits longer.
    """
    saved = gc.get_threshold()
    gc.set_threshold(young, middle, old)
    try:
        yield
    finally:
        gc.set_threshold(*saved)
