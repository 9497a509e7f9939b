"""`clarq clariq run|score`: ClariQ's question relevance and clarification need on its own data, as its tool scores."""

from __future__ import annotations

import argparse

from ..core.defaults import DEFAULT_SEED
from .common import positive_int, print_json


def register(subparsers: argparse._SubParsersAction) -> None:
    from .llm_args import add_llm_arguments

    parser = subparsers.add_parser(
        "clariq",
        help="the ClariQ track on ClariQ's own data, scored as its official tool",
        description="Needs `clarq data download --dataset clariq` (or $CLARQ_CLARIQ_DIR). "
        "Figures are ClariQ's: Recall@5/10/20/30 of the question ranking over every "
        "topic of the split, and weighted P/R/F1 of the clarification need.",
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    run = actions.add_parser("run", help="rank the question bank per request (BM25 or a model), write and score")
    run.add_argument("--split", choices=["train", "dev", "test"], default="dev")
    run.add_argument(
        "--ranker",
        default="bm25",
        help="bm25 (the ClariQ notebook's tokens: NLTK words, stop words, Porter), bm25-clarq (bm25.py's "
        "words), or a model name: it sees the request and the BM25 pre-filter, and predicts the need",
    )
    run.add_argument(
        "--depth", type=positive_int, default=30, help="questions ranked per topic, or offered to a model (default 30)"
    )
    run.add_argument("--seed", type=int, default=DEFAULT_SEED)
    run.add_argument("--concurrency", type=positive_int, default=16, help="topics in flight for a model")
    run.add_argument("--data", metavar="DIR", help="folder with ClariQ's data files")
    run.add_argument("--out", metavar="DIR", help="output folder (default runs/clariq/<ranker>-<split>)")
    run.add_argument("--json", action="store_true")
    add_llm_arguments(run)
    run.set_defaults(handler=_run)
    score = actions.add_parser(
        "score",
        help="score a run file in ClariQ's format as its official tool does",
        description="Scores a run as ClariQ's official tool does, except that a topic id "
        "that is not digits is left out (the tool then scores every topic 0), a score that is "
        "not finite or a need label that is not an integer refuses the file, and tied top "
        "questions in document relevance resolve to the last in file order.",
    )
    score.add_argument("run", help="ranking run: `topic Q0 question_id rank score [name]` per line")
    score.add_argument("--need-run", metavar="FILE", help="need run: `topic label` per line")
    score.add_argument(
        "--doc-eval",
        metavar="FILE.pkl",
        help="ClariQ's document-relevance evaluation pickle (e.g. "
        "single_turn_train_eval.pkl for dev): adds its MRR100, P1, NDCG3, NDCG5",
    )
    score.add_argument("--split", choices=["train", "dev", "test"], default="dev")
    score.add_argument("--data", metavar="DIR", help="folder with ClariQ's data files")
    score.add_argument("--json", action="store_true")
    score.set_defaults(handler=_score)


def _show(scores, args: argparse.Namespace, where: str = "") -> int:  # type: ignore[no-untyped-def]
    from ..api.support import table_rows

    if args.json:
        print_json(scores.model_dump())
        return 0
    print(
        f"ClariQ {scores.split}{' ' + scores.ranker if scores.ranker else ''}: {scores.topics} topics, "
        f"{scores.topics_ranked} ranked{where}"
    )
    for name, value in table_rows(scores):
        print(f"  {name:<20} {value}")
    return 0


def _run(args: argparse.Namespace) -> int:
    from ..api.support import ClariqRunOptions
    from ..api.support import run_clariq as run
    from .llm_args import llm_options

    scores, out = run(
        ClariqRunOptions(
            split=args.split,
            ranker=args.ranker,
            depth=args.depth,
            data=args.data,
            out=args.out,
            seed=args.seed,
            concurrency=args.concurrency,
            llm=llm_options(args),
        )
    )
    _show(scores, args, f"; runs and summary in {out}")
    return 1 if scores.errors else 0


def _score(args: argparse.Namespace) -> int:
    from pathlib import Path

    from ..api.support import score_run

    need = Path(args.need_run) if args.need_run else None
    documents = Path(args.doc_eval) if args.doc_eval else None
    return _show(score_run(Path(args.run), args.split, need, args.data, documents), args)
