"""Mutation testing of the decision-critical modules: one-line bugs, one at a time, each run against its tests.

Usage: python tools/mutate.py [--budget SECONDS] [--per-module N] [--seed S] [--module NAME ...] [--list]
                              [--start N] [--skip-baseline SECONDS]
       (defaults: --budget 1500 --per-module 6 --seed 22; README "Mutation testing")

Why a script of our own and not mutmut / cosmic-ray: both mutate every operator of a module and run the whole
suite (or their own test-selection machinery) per mutant; here the suite takes ~100 s on two shared cores, so even
one module's full mutant set is hours. What the audit needs is smaller: a seeded *sample* of plausible one-line bugs
per module, each run only against the test files that exercise that module, with a hard time budget. That is ~250
lines with the standard library (ast), nothing to pin, and the same operators the audit used:

  compare   <  <=  >  >=  ==  !=  in / not in  is / is not   flipped to a neighbour
  number    an integer constant n -> n + 1; a float f -> f + 1, or f * 10 when 0 < |f| < 1 (1e-9 -> 1e-8)
  bool      True <-> False;  `and` <-> `or`;  `not x` -> `x`
  arith     + <-> -,  * <-> /  (numbers only, where a statement is arithmetic)
  remove    a statement that is a call, an augmented assignment, `continue`/`break`, or an `if` guard whose body
            returns / raises / continues -> `pass`

Mutants are drawn per module with random.Random(seed); the same seed draws the same mutants. Each mutant is
written into a private copy of the repository (.mutants/, git-ignored; the worktree is never touched), and the
module's test files are run there with `pytest -x` and a 60 s per-test timeout. A mutant is *killed* when pytest
fails (any exit code but 0 and 5), *survived* when it passes, *timeout* (counted as killed: the suite noticed)
when the per-mutant limit is hit. Mutants that are equivalent by construction are listed in EQUIVALENT below with
the reason, and left out of the score. Prints the score per module and every survivor (file:line, the change).
Exit code 0 when every module's score is >= 90%, 1 otherwise. One core: runs one pytest at a time.
"""

from __future__ import annotations

import argparse
import ast
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import cast

ROOT = Path(__file__).resolve().parent.parent
WORK = ROOT / ".mutants"

KILLS = [
    "tests/runner/test_mutation_kills_runner.py",
    "tests/leaderboard/test_mutation_kills_guards.py",
    "tests/scoring/test_promise_intervals.py",
    "tests/provider/test_promise_guards.py",
]
PROMISES = "tests/leaderboard/test_promise_figures.py"  # verify, site rows, zip safety, nDCG (~12 s)
SURVIVORS = "tests/scoring/test_promise_survivors.py"  # the seed-32 sample's survivors (~7 s)
PROVIDER = "tests/provider/test_promise_provider.py"  # what a provider reveals, and to what (README), en and zh
#: the turn timeout against clarq's own queue (one test of a slower file: test files or file::test ids both work)
QUEUED = (
    "tests/llm/test_fault_cache_and_calls.py::test_the_turn_timeout_does_not_count_time_queued_in_clarqs_own_limiter"
)
FIGURES = (
    "tests/provider/test_mutation_kills_modules.py"  # the README's held-out figures (~12 s): for the provider's modules
)
#: module -> the test files that exercise it (the fast files in KILLS are added to every module's list).
MODULES: dict[str, list[str]] = {
    "clarq_bench/scoring/judge.py": ["tests/scoring/test_judge.py", "tests/scoring/test_score.py", SURVIVORS],
    "clarq_bench/scoring/lengths.py": ["tests/scoring/test_judge.py", "tests/scoring/test_metrics.py", SURVIVORS],
    "clarq_bench/core/goodbye.py": [
        "tests/core/test_goodbye_replay.py",
        "tests/runner/test_dialogue.py",
        "tests/scoring/test_judge.py",
    ],
    "clarq_bench/data/textmatch.py": [
        "tests/scoring/test_judge.py",
        "tests/provider/test_provider_offline.py",
        FIGURES,
    ],
    "clarq_bench/core/tasks.py": ["tests/core/test_tasks.py", "tests/data/test_data_loader.py"],
    "clarq_bench/provider/leakage.py": [
        "tests/provider/test_llm_provider_leakage.py",
        "tests/provider/test_llm_provider.py",
        PROVIDER,
    ],
    "clarq_bench/provider/screen.py": ["tests/provider/test_provider_screen.py", PROVIDER, FIGURES],
    "clarq_bench/provider/echo.py": [
        "tests/provider/test_provider_screen.py",
        "tests/leaderboard/test_mutation_kills_guards.py",
        PROVIDER,
    ],
    "clarq_bench/runner/batch.py": ["tests/runner/test_runner.py", "tests/runner/test_run_failures.py", SURVIVORS],
    "clarq_bench/core/run_folder.py": [
        "tests/runner/test_runner.py",
        "tests/runner/test_run_failures.py",
        "tests/core/test_run_folder.py",
    ],
    "clarq_bench/leaderboard/verify.py": [
        "tests/leaderboard/test_leaderboard_replay.py",
        "tests/leaderboard/test_leaderboard_bundle.py",
        PROMISES,
    ],
    "clarq_bench/leaderboard/replay.py": ["tests/leaderboard/test_leaderboard_replay.py", SURVIVORS],
    "clarq_bench/leaderboard/rules.py": ["tests/leaderboard/test_leaderboard_replay.py", SURVIVORS],
    "clarq_bench/leaderboard/figures.py": [
        "tests/leaderboard/test_leaderboard_bundle.py",
        "tests/scoring/test_score.py",
        PROMISES,
    ],
    "clarq_bench/scoring/metrics.py": [
        "tests/scoring/test_metrics.py",
        "tests/scoring/test_metrics_stats.py",
        SURVIVORS,
    ],
    "clarq_bench/scoring/stats.py": ["tests/scoring/test_metrics_stats.py", "tests/scoring/test_compare.py"],
    "clarq_bench/scoring/comparison.py": ["tests/scoring/test_compare.py", SURVIVORS],
    "clarq_bench/scoring/judge_llm.py": [
        "tests/scoring/test_judge_llm.py",
        "tests/scoring/test_judge_usage.py",
        SURVIVORS,
    ],
    "clarq_bench/scoring/report.py": [
        "tests/scoring/test_score.py",
        "tests/scoring/test_reporting_rules.py",
        SURVIVORS,
    ],
    "clarq_bench/scoring/score_import.py": [
        "tests/scoring/test_score.py",
        "tests/scoring/test_reporting_rules.py",
        SURVIVORS,
    ],
    "clarq_bench/scoring/sources.py": ["tests/scoring/test_score.py", "tests/scoring/test_compare.py", SURVIVORS],
    "clarq_bench/scoring/settings_diff.py": ["tests/scoring/test_compare.py", "tests/scoring/test_score.py", SURVIVORS],
    "clarq_bench/runner/dialogue.py": [
        "tests/runner/test_dialogue.py",
        "tests/core/test_goodbye_replay.py",
        SURVIVORS,
        QUEUED,
    ],
    "clarq_bench/core/run_config.py": [
        "tests/runner/test_runner.py",
        "tests/runner/test_dialogue.py",
        "tests/runner/test_run_failures.py",
        SURVIVORS,
    ],
    "clarq_bench/leaderboard/seal.py": [
        "tests/leaderboard/test_leaderboard_bundle.py",
        "tests/leaderboard/test_leaderboard_replay.py",
        SURVIVORS,
    ],
    "clarq_bench/leaderboard/safety.py": ["tests/leaderboard/test_leaderboard_safety.py", PROMISES, SURVIVORS],
    "clarq_bench/clarify/metrics.py": [
        "tests/clarify/test_clarify_metrics.py",
        "tests/clarify/test_clarify_parts.py",
        PROMISES,
    ],
    "clarq_bench/pairwise/pcch.py": ["tests/pairwise/test_pairwise_pcch.py", "tests/pairwise/test_pairwise.py"],
    # the provider's decision (added last, so a seed draws the same mutants as before for the modules above)
    "clarq_bench/provider/lexical.py": [
        "tests/provider/test_provider_offline.py",
        "tests/provider/test_provider_screen.py",
        "tests/provider/test_provider_focus.py",
        PROVIDER,
        FIGURES,
    ],
    "clarq_bench/provider/offline/linear_model.py": ["tests/provider/test_provider_offline.py", PROVIDER, FIGURES],
    "clarq_bench/provider/intents.py": [
        "tests/provider/test_provider_offline.py",
        "tests/provider/test_provider_screen.py",
        PROVIDER,
        FIGURES,
    ],
    "clarq_bench/provider/offline/provider.py": [
        "tests/provider/test_provider_offline.py",
        "tests/provider/test_provider_focus.py",
        PROVIDER,
        FIGURES,
    ],
    "clarq_bench/provider/focus.py": [
        "tests/provider/test_provider_focus.py",
        "tests/provider/test_provider_offline.py",
        PROVIDER,
        FIGURES,
        "tests/provider/test_provider_questions.py",
        "tests/provider/test_provider_twins.py",
    ],
    "clarq_bench/provider/answering.py": [
        "tests/provider/test_provider_focus.py",
        "tests/provider/test_provider_offline.py",
        PROVIDER,
        FIGURES,
        "tests/provider/test_provider_questions.py",
        "tests/provider/test_provider_twins.py",
    ],
    "clarq_bench/provider/question_words.py": [
        "tests/provider/test_provider_focus.py",
        "tests/provider/test_provider_questions.py",
        PROVIDER,
        FIGURES,
    ],
    "clarq_bench/provider/brief_options.py": [
        "tests/provider/test_provider_screen.py",
        "tests/provider/test_provider_questions.py",
        "tests/provider/test_provider_focus.py",
        PROVIDER,
    ],
    "clarq_bench/provider/question_lists.py": [
        "tests/provider/test_provider_questions.py",
        "tests/provider/test_provider_focus.py",
        PROVIDER,
        FIGURES,
    ],
    "clarq_bench/provider/twins.py": [
        "tests/provider/test_provider_twins.py",
        "tests/provider/test_provider_questions.py",
        PROVIDER,
        FIGURES,
    ],
}

#: Why the max_nodes of a blocked turn is no observable choice.
BLOCKED_MAX_NODES = "max_nodes of a blocked turn: no provider reads max_nodes (the per-turn caps live in answering.py), so its value decides nothing"

#: Mutants argued equivalent (no observable behaviour changes), left out of the score: (module, the mutated line's
#: code without its comment -- or 'previous line / line' where the line alone repeats in the module --, change).
#: Keyed by text, not line number, so an edit elsewhere in a module never points an argument at another line.
EQUIVALENT: dict[tuple[str, str, str], str] = {
    (
        "clarq_bench/provider/screen.py",
        "return answered > 0 and answered >= asked",
        "> -> >=",
    ): "_repeats is only called with asked >= 1 (asks_in counts at least one per question sentence and an empty question list returned earlier), so `answered >= asked` already implies answered > 0: `answered >= 0 and ...` decides the same",
    (
        "clarq_bench/runner/batch.py",
        "force: bool, / retry_errors: bool = False,",
        "False -> True",
    ): "prepare_run_dir's default for retry_errors: its one caller (play_run) always passes retry_errors, so the default is never used",
    (
        "clarq_bench/core/run_folder.py",
        "start = max(0, position - 65536)",
        "65536 -> 65537",
    ): "repair_tail's read-block size when scanning back for the last newline: any block size finds the same newline (a speed setting)",
    (
        "clarq_bench/scoring/stats.py",
        "if len(num) == 1:",
        "removed: if len(num) == 1:",
    ): "the one-cluster shortcut: with one cluster every resample draws it, so every resampled ratio is the value itself and the percentile interval is [value, value] without the shortcut too (a zero denominator returned earlier)",
    (
        "clarq_bench/leaderboard/figures.py",
        "MAX_RESAMPLES = 10000",
        "10000 -> 10001",
    ): "MAX_RESAMPLES, the cap on the resamples a submission may ask verify for: what is promised is a bound (no billion resamples), not its value; the bound's both sides are tested against the constant (test_bootstrap_settings_keep_their_bounds)",
    (
        "clarq_bench/provider/leakage.py",
        "if node.id in done: / continue",
        "removed: continue",
    ): "find_leaks skipping a revealed node: every revealed node's n-grams are in `known`, so its distinctive n-grams are none and it scores 0 with nothing shared, which is no hit either way",
    (
        "clarq_bench/provider/offline/provider.py",
        'notes["scores"] = {k: round(v, 3) for k, v in selection.scores.items()}',
        "3 -> 4",
    ): "the precision of the matcher scores recorded in a turn's notes (a diagnostic): no decision, figure or other module reads notes['scores']",
    (
        "clarq_bench/runner/dialogue.py",
        "turn = reply.to_turn(latency_s=round(latency, 4))",
        "4 -> 5",
    ): "the precision of a seeker turn's recorded latency_s (4 or 5 decimals of a second): a record of timing, which no decision, figure or check reads",
    (
        "clarq_bench/provider/answering.py",
        "if not ordered or not questions:",
        "removed: if not ordered or not questions:",
    ): "a shortcut: with no candidate or no question every branch below finds nothing and returns [] anyway",
    (
        "clarq_bench/provider/focus.py",
        '"Night Scene mode or another mode?")?""" / if not kind:',
        "removed: if not kind:",
    ): "_kind_apart's shortcut for an empty kind: the next test intersects the question's terms with that empty kind, finds nothing and returns False too",
    (
        "clarq_bench/provider/offline/provider.py",
        "if not asked:",
        "removed: if not asked:",
    ): "_asked_again's shortcut for a question with no content term: BM25 of an empty query is 0 for every given node, so max() picks the first, the root, and the next line returns None too",
    (
        "clarq_bench/provider/offline/linear_model.py",
        "return 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, z))))",
        "60.0 -> 61.0",
    ): "score()'s clamp against exp overflow (either bound): past |z| = 60 the score is 1.0 or below 1e-26 either way, on the same side of every threshold, and 0.0 / 1.0 in the recorded three decimals",
    (
        "clarq_bench/provider/twins.py",
        "for group in (tuple(g) for g in found.values() if len(g) > 1):",
        "> -> >=",
    ): "twins' groups of one: a lone node's anchor minus the anchor it shares with itself is empty, so the tell-apart test below never keeps it either way",
    (
        "clarq_bench/provider/twins.py",
        "if turn.speaker != Speaker.seeker or reply.speaker != Speaker.provider or not given: / continue",
        "removed: continue",
    ): "unnamed_answers' shortcut: a pair of turns that is not (seeker, provider) or whose reply gave no twin adds nothing below either (`given` is empty: only provider turns reveal), so skipping it only saves reading its questions",
    (
        "clarq_bench/core/goodbye.py",
        "ends = [match.end() for match in SENTENCE_END.finditer(text, 0, position)]",
        "0 -> 1",
    ): "_sentence_before searching for sentence ends from 1, not 0: it only misses an end matched at index 0, whose slice then keeps that leading punctuation, which holds no word for the conditional check that reads it",
    **{
        ("clarq_bench/provider/screen.py", f"return Screened(Verdict.{verdict}, 0)", "0 -> 1"): BLOCKED_MAX_NODES
        for verdict in (
            "too_long",
            "other_language",
            "instruction",
            "no_question",
            "one_at_a_time",
            "spray",
            "names_only",
            "repeat",
            "echo",
            "bare_frame",
        )
    },
}

_FLIP = {
    ast.Lt: ast.LtE,
    ast.LtE: ast.Lt,
    ast.Gt: ast.GtE,
    ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
}
_ARITH = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.Div, ast.Div: ast.Mult}
_SYMBOL = {
    ast.Lt: "<",
    ast.LtE: "<=",
    ast.Gt: ">",
    ast.GtE: ">=",
    ast.Eq: "==",
    ast.NotEq: "!=",
    ast.In: "in",
    ast.NotIn: "not in",
    ast.Is: "is",
    ast.IsNot: "is not",
    ast.Add: "+",
    ast.Sub: "-",
    ast.Mult: "*",
    ast.Div: "/",
    ast.And: "and",
    ast.Or: "or",
}


@dataclass(frozen=True)
class Site:
    module: str
    index: int  # the index-th mutation site of the module, in ast.walk order
    line: int
    change: str
    text: str = ""  # the line's code without its comment (EQUIVALENT's key)
    context: str = ""  # "previous line / line" (EQUIVALENT's key where the line alone repeats)


def code_at(source_lines: list[str], line: int) -> tuple[str, str]:
    """The code of a line (comment and indentation dropped) and "previous non-blank line / line"."""

    def code(text: str) -> str:
        return text.split("  #")[0].strip()

    here = code(source_lines[line - 1]) if 0 < line <= len(source_lines) else ""
    before = next((code(t) for t in reversed(source_lines[: max(line - 1, 0)]) if code(t)), "")
    return here, f"{before} / {here}"


def equivalent_reason(site: Site) -> str:
    """Why a site's mutant is equivalent (EQUIVALENT), or "" when it is scored."""
    return EQUIVALENT.get((site.module, site.text, site.change)) or EQUIVALENT.get(
        (site.module, site.context, site.change), ""
    )


def _skip_tree(tree: ast.Module) -> set[int]:
    """ids of nodes inside annotations, docstrings, `if __name__ == ...` and TYPE_CHECKING blocks: never mutated."""
    skip: set[int] = set()
    for node in ast.walk(tree):
        parts: list[ast.AST] = []
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            parts += [
                a.annotation for a in node.args.args + node.args.kwonlyargs + node.args.posonlyargs if a.annotation
            ] + ([node.returns] if node.returns else [])
        if isinstance(node, ast.AnnAssign):
            parts.append(node.annotation)
        if isinstance(node, ast.If) and (
            "__name__" in ast.unparse(node.test) or "TYPE_CHECKING" in ast.unparse(node.test)
        ):
            parts.append(node)
        for part in parts:
            skip.update(id(sub) for sub in ast.walk(part))
    return skip


def _guard(node: ast.If) -> bool:
    return not node.orelse and len(node.body) == 1 and isinstance(node.body[0], (ast.Return, ast.Raise, ast.Continue))


def _removable(node: ast.stmt) -> bool:
    if isinstance(node, ast.Expr):
        return isinstance(node.value, (ast.Call, ast.Await))
    return isinstance(node, (ast.AugAssign, ast.Continue, ast.Break)) or (isinstance(node, ast.If) and _guard(node))


def sites_and_apply(source: str, module: str, apply: int | None = None) -> tuple[list[Site], str | None]:
    """Every mutation site of `source`; with `apply`, also the source with that one site mutated."""
    tree = ast.parse(source)
    skip = _skip_tree(tree)
    sites: list[Site] = []
    mutated: str | None = None
    source_lines = source.splitlines()

    def site(node: ast.AST, change: str, do: Callable[..., object]) -> None:
        nonlocal mutated
        if id(node) in skip:
            return
        index = len(sites)
        line = getattr(node, "lineno", 0)
        sites.append(Site(module, index, line, change, *code_at(source_lines, line)))
        if index == apply:
            do()
            mutated = ast.unparse(ast.fix_missing_locations(tree))

    for node in list(ast.walk(tree)):
        if isinstance(node, ast.Compare):
            for i, op in enumerate(list(node.ops)):
                flipped = _FLIP[type(op)]
                site(
                    node,
                    f"{_SYMBOL[type(op)]} -> {_SYMBOL[flipped]}",
                    lambda n=node, i=i, new=flipped: n.ops.__setitem__(i, new()),
                )
        elif isinstance(node, ast.Constant) and type(node.value) in (int, float) and not isinstance(node.value, bool):
            value = cast("int | float", node.value)
            bumped = value + 1 if isinstance(value, int) or value == 0 or abs(value) >= 1 else value * 10
            site(node, f"{value!r} -> {bumped!r}", lambda n=node, b=bumped: setattr(n, "value", b))
        elif isinstance(node, ast.Constant) and isinstance(node.value, bool):
            site(node, f"{node.value} -> {not node.value}", lambda n=node: setattr(n, "value", not n.value))
        elif isinstance(node, ast.BoolOp):
            joined: type[ast.boolop] = ast.Or if isinstance(node.op, ast.And) else ast.And
            site(
                node,
                f"{_SYMBOL[type(node.op)]} -> {_SYMBOL[joined]}",
                lambda n=node, new=joined: setattr(n, "op", new()),
            )
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            site(
                node, "not x -> x", lambda n=node: setattr(n, "operand", ast.UnaryOp(ast.Not(), n.operand))
            )  # not not x
        elif (
            isinstance(node, ast.BinOp)
            and type(node.op) in _ARITH
            and not isinstance(node.left, (ast.Constant, ast.JoinedStr))
        ):
            swapped = _ARITH[type(node.op)]
            site(
                node,
                f"{_SYMBOL[type(node.op)]} -> {_SYMBOL[swapped]}",
                lambda n=node, new=swapped: setattr(n, "op", new()),
            )
        for field in ("body", "orelse", "finalbody"):
            block = getattr(node, field, None)
            if isinstance(block, list):
                for i, stmt in enumerate(block):
                    if isinstance(stmt, ast.stmt) and _removable(stmt) and id(stmt) not in skip:
                        text = ast.unparse(stmt).splitlines()[0][:60]
                        site(stmt, f"removed: {text}", lambda b=block, i=i: b.__setitem__(i, ast.Pass()))
    return sites, mutated


def prepare_copy() -> Path:
    """A private copy of the repository (package, tests, prompts, tasks) beside a link to ../shared."""
    if WORK.exists():
        shutil.rmtree(WORK)
    copy = WORK / "repo"
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", ".hypothesis", ".pytest_cache")
    for name in ("clarq_bench", "tests", "prompts", "tasks", "benchmarks"):
        shutil.copytree(ROOT / name, copy / name, ignore=ignore)
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, copy / name)
    shared = ROOT.parent / "shared"
    if shared.is_dir():
        (WORK / "shared").symlink_to(shared)
    return copy


#: Tests that assert wall time: on a loaded machine they fail with no mutant at all, so mutants are not run on them
#: (a "kill" there would be the load's, not the tests').
TIMING_TESTS = ("test_concurrency_is_real_and_bounded",)


def run_tests(copy: Path, tests: list[str], limit: float, why: list[str] | None = None) -> tuple[str, float]:
    env = {
        **os.environ,
        "PYTHONPATH": str(copy),
        "PYTHONDONTWRITEBYTECODE": "1",
        "OMP_NUM_THREADS": "1",
        "OPENBLAS_NUM_THREADS": "1",
        "MKL_NUM_THREADS": "1",
    }
    cmd = [
        sys.executable,
        "-m",
        "pytest",
        "-q",
        "-x",
        "-p",
        "no:cacheprovider",
        "-p",
        "no:randomly",
        "--timeout",
        "60",
        "-k",
        " and ".join(f"not {t}" for t in TIMING_TESTS),
        *[t for t in tests if (copy / t.split("::")[0]).is_file()],
    ]
    started = time.perf_counter()
    try:
        done = subprocess.run(cmd, cwd=copy, env=env, capture_output=True, timeout=limit)
    except subprocess.TimeoutExpired:
        return "timeout", time.perf_counter() - started
    code = done.returncode
    if why is not None:  # the test that noticed (a Timeout there is the machine's load, not a kill: worth a rerun)
        why += [
            line[7:].split(" - ")[0] + (" [timeout]" if "Timeout" in line else "")
            for line in done.stdout.decode("utf-8", "replace").splitlines()
            if line.startswith("FAILED ")
        ][:1]
    return ("survived" if code == 0 else "error" if code in (5, 4, 3) else "killed"), time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=float, default=1500.0, help="seconds for the whole run (default 1500)")
    parser.add_argument("--per-module", type=int, default=6, help="mutants drawn per module (default 6)")
    parser.add_argument("--seed", type=int, default=22)
    parser.add_argument("--module", action="append", help="only these modules (a path or a name like rules)")
    parser.add_argument("--list", action="store_true", help="list the drawn mutants and stop")
    parser.add_argument(
        "--start",
        type=int,
        default=0,
        metavar="N",
        help="skip the first N mutants of the drawn order (the part of a sample already run)",
    )
    parser.add_argument(
        "--skip-baseline",
        type=float,
        metavar="SECONDS",
        help="do not run each module's tests once without a mutant first (they are known green); "
        "assume they take SECONDS (sets the per-mutant limit, 3x + 10)",
    )
    args = parser.parse_args(argv)
    modules = [m for m in MODULES if not args.module or any(m == x or Path(m).stem == x for x in args.module)]
    rng = random.Random(args.seed)
    drawn: list[Site] = []
    for module in MODULES:  # draw for every module so a module's sample does not depend on --module
        sites, _ = sites_and_apply((ROOT / module).read_text(encoding="utf-8"), module)
        sample = sorted(rng.sample(sites, min(args.per_module, len(sites))), key=lambda s: s.index)
        if module in modules:
            drawn += sample
        print(f"{module}: {len(sites)} sites, {len(sample)} drawn", file=sys.stderr)
    # round robin over modules (each module's first mutant, then each one's second, ...): a budget cut leaves every
    # module with a sample, not the last modules with none
    rank: dict[Site, int] = {}
    for s in drawn:
        rank[s] = sum(t.module == s.module for t in rank)
    order = list(MODULES)
    drawn.sort(key=lambda s: (rank[s], order.index(s.module)))
    drawn = drawn[args.start :]
    if args.list:
        for s in drawn:
            print(f"{s.module}:{s.line}: {s.change}")
        return 0
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # a stopped run still removes its copy
    copy = prepare_copy()
    deadline = time.monotonic() + args.budget
    baseline: dict[str, float] = {}
    results: dict[str, list[tuple[Site, str]]] = {m: [] for m in modules}
    try:
        for module in modules:
            if args.skip_baseline:
                baseline[module] = args.skip_baseline
                continue
            tests = MODULES[module] + KILLS
            verdict, took = run_tests(copy, tests, 600)
            if verdict != "survived":
                print(f"{module}: its tests fail without any mutant ({verdict}); skipped", file=sys.stderr)
                continue
            baseline[module] = took
        for s in drawn:
            if s.module not in baseline:
                continue
            if time.monotonic() + baseline[s.module] * 1.5 > deadline:
                print("time budget spent: the rest of the sample is not run", file=sys.stderr)
                break
            shutil.copytree(
                ROOT / "tests",
                copy / "tests",
                dirs_exist_ok=True,  # tests written meanwhile count
                ignore=shutil.ignore_patterns("__pycache__", "*.pyc"),
            )
            original = (copy / s.module).read_text(encoding="utf-8")
            _, mutated = sites_and_apply(original, s.module, apply=s.index)
            (copy / s.module).write_text(mutated or original, encoding="utf-8")
            why: list[str] = []
            try:
                verdict, _ = run_tests(copy, MODULES[s.module] + KILLS, max(30.0, 3 * baseline[s.module] + 10), why)
            finally:
                (copy / s.module).write_text(original, encoding="utf-8")
            if equivalent_reason(s):
                verdict = "equivalent"
            results[s.module].append((s, verdict))
            print(
                f"  {verdict:10} {s.module}:{s.line}: {s.change}" + (f"  <- {why[0]}" if why else ""),
                file=sys.stderr,
                flush=True,
            )
    finally:
        shutil.rmtree(WORK, ignore_errors=True)
    return report(results)


def report(results: dict[str, list[tuple[Site, str]]]) -> int:
    total_killed = total_scored = 0
    worst = 1.0
    print(f"{'module':40} {'killed':>7} {'scored':>7} {'score':>7}  (equivalent, errors)")
    for module, rows in results.items():
        killed = sum(v in ("killed", "timeout") for _, v in rows)
        scored = sum(v in ("killed", "timeout", "survived") for _, v in rows)
        other = f"({sum(v == 'equivalent' for _, v in rows)}, {sum(v == 'error' for _, v in rows)})"
        score = killed / scored if scored else 1.0
        worst = min(worst, score) if scored else worst
        total_killed, total_scored = total_killed + killed, total_scored + scored
        print(f"{module:40} {killed:>7} {scored:>7} {100 * score:>6.1f}%  {other}")
    overall = total_killed / total_scored if total_scored else 1.0
    print(f"{'all':40} {total_killed:>7} {total_scored:>7} {100 * overall:>6.1f}%")
    survivors = [(s, v) for rows in results.values() for s, v in rows if v in ("survived", "equivalent")]
    if survivors:
        print("survivors:")
        for s, _v in survivors:
            why = equivalent_reason(s)
            print(f"  {s.module}:{s.line}: {s.change}" + (f"  [equivalent: {why}]" if why else ""))
    return 0 if overall >= 0.9 else 1


if __name__ == "__main__":
    sys.exit(main())
