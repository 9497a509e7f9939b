"""`clarq select` (the offline clarification track), `clarq select-correlate` (offline vs online) and
`clarq select-bank` (build, check and count the question bank)."""

from __future__ import annotations

import argparse

from ..core.defaults import DEFAULT_RESAMPLES, DEFAULT_SEED

RANKERS = "bm25, random, best-question, worst-question, no-question"


def register(subparsers: argparse._SubParsersAction) -> None:
    from .common import positive_int
    from .llm_args import add_llm_arguments

    parser = subparsers.add_parser(
        "select",
        help="offline clarification track: need and question selection per state",
        description="For every state of every released test task (each point of the human path), the system "
        f"decides whether a question is needed (1-4) and ranks the question bank. Offline rankers: {RANKERS}; "
        "a model name uses the LLM layer (one call per state, cached); any other seeker is read through its "
        "optional select_questions method or its next line.",
    )
    parser.add_argument("--seeker", required=True, help=f"{RANKERS}, a seeker name, package.module:Class or a model")
    parser.add_argument(
        "--seeker-module",
        action="append",
        metavar="FILE.py",
        help="import this file first, so the seekers it registers (@register_seeker) work by name",
    )
    parser.add_argument("--seeker-model", help="model for LLM-backed seekers")
    parser.add_argument("--seeker-option", action="append", metavar="KEY=VALUE", help="custom seeker setting")
    parser.add_argument("--lang", choices=["en", "zh"], default="en", help="language (default: en)")
    parser.add_argument("--data", metavar="DIR", help="task data (default: $CLARQ_DATA, then the download cache)")
    parser.add_argument("--results", metavar="DIR", help="released results files to build the bank from")
    parser.add_argument("--types", metavar="SPEC", help="task types, e.g. 1-13,20")
    parser.add_argument("--limit", type=positive_int, metavar="N", help="N tasks spread over the types")
    parser.add_argument(
        "--seed", type=int, default=DEFAULT_SEED, help=f"seed of random, chance and bootstrap (default {DEFAULT_SEED})"
    )
    parser.add_argument(
        "--resamples",
        type=positive_int,
        default=DEFAULT_RESAMPLES,
        help=f"bootstrap resamples (default: {DEFAULT_RESAMPLES})",
    )
    parser.add_argument("--concurrency", type=positive_int, default=32, help="states in flight (default: 32)")
    parser.add_argument("--out", metavar="DIR", help="report folder (default: runs/select/<seeker>-<lang>)")
    parser.add_argument("--no-write", action="store_true", help="write no report files")
    parser.add_argument("--no-plots", action="store_true", help="skip the PNG plot")
    parser.add_argument("--json", action="store_true", help="print summary.json instead of the table")
    add_llm_arguments(parser)
    parser.set_defaults(handler=run_select)

    compare = subparsers.add_parser(
        "select-correlate",
        help="offline clarification track vs online dialogue outcomes (MIMICS-Duo)",
        description="Puts the seeker of each run folder through the offline track on the tasks it played and "
        "reports Pearson, Spearman and Kendall between offline figures (MRR, nDCG@3, OLAR) and dialogue outcomes "
        "(success, nodes obtained, AQD), per task and across seekers, and whether the two leaderboards agree.",
    )
    compare.add_argument("run_dirs", nargs="+", metavar="RUN_DIR", help="`clarq run` folders, one per seeker")
    compare.add_argument("--data", metavar="DIR", help="task data (default: each run's config.json)")
    compare.add_argument("--results", metavar="DIR", help="released results files to build the bank from")
    compare.add_argument("--out", metavar="DIR", help="write report.md and correlation.json here")
    compare.add_argument("--json", action="store_true", help="print correlation.json instead of tables")
    add_llm_arguments(compare)
    compare.set_defaults(handler=run_correlate)

    bank = subparsers.add_parser(
        "select-bank",
        help="build and check the question bank; print counts per origin",
        description="Builds the question bank from the released dialogues (no network), "
        "checks it against the shipped manifest, caches it and prints its counts.",
    )
    bank.add_argument("--lang", choices=["en", "zh", "all"], default="all", help="language (default: all)")
    bank.add_argument("--results", metavar="DIR", help="released results files (default: as `clarq data where`)")
    bank.set_defaults(handler=run_bank)


def _options(pairs: list[str] | None) -> dict[str, str]:
    from ..core.errors import ClarqError

    out = {}
    for pair in pairs or []:
        key, eq, value = pair.partition("=")
        if not eq or not key.strip():
            raise ClarqError(f"bad --seeker-option {pair!r}", "write it as KEY=VALUE")
        out[key.strip()] = value.strip()
    return out


def run_select(args: argparse.Namespace) -> int:
    from ..api import select
    from ..api.support import import_seeker_modules
    from ..api.support import print_select_table as print_table
    from .common import print_json
    from .llm_args import llm_options

    import_seeker_modules(args.seeker_module)
    result = select(
        args.seeker,
        lang=args.lang,
        seeker_model=args.seeker_model,
        seeker_options=_options(args.seeker_option),
        data=args.data,
        results=args.results,
        types=args.types,
        limit=args.limit,
        seed=args.seed,
        resamples=args.resamples,
        out=args.out,
        write=not args.no_write,
        plots=not args.no_plots,
        concurrency=args.concurrency,
        **llm_options(args),
    )
    if args.json:
        print_json(result.summary.model_dump(mode="json"))
    else:
        print_table(result.summary)
        if result.out_dir is not None:
            print(f"report: {result.out_dir}")
    return 1 if result.summary.errors else 0


def run_correlate(args: argparse.Namespace) -> int:
    from ..api import select_online_offline
    from ..api.support import print_correlation_report as print_report
    from .common import print_json
    from .llm_args import llm_options

    report = select_online_offline(
        args.run_dirs, data=args.data, results=args.results, out=args.out, **llm_options(args)
    )
    if args.json:
        print_json(report.model_dump(mode="json"))
    else:
        print_report(report)
    return 0


def run_bank(args: argparse.Namespace) -> int:
    from ..api import question_bank

    for language in ("en", "zh") if args.lang == "all" else (args.lang,):
        bank = question_bank(language, args.results)
        counts = ", ".join(f"{k} {v}" for k, v in bank.counts().items())
        print(f"{language}: {len(bank.entries)} questions over {len(bank.task_ids)} tasks ({counts})")
    return 0
