"""`clarq data download|where|verify`: get the pinned upstream task data (or a companion dataset) and check a copy."""

from __future__ import annotations

import argparse

from .common import print_json

DATASET_CHOICES = ("clarq-llm", "clariq", "mimics-duo")


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("data", help="download and check the ClarQ-LLM task data, ClariQ or MIMICS-Duo")
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    fetch = actions.add_parser("download", help="fetch the pinned upstream files into the user cache")
    fetch.add_argument("--results", action="store_true", help="also fetch the released GPT-4o dialogue files")
    fetch.add_argument("--url", help="base URL of a mirror (default: the pinned upstream commit; env CLARQ_DATA_URL)")
    fetch.add_argument("--json", action="store_true")
    for sub in (fetch,):
        sub.add_argument(
            "--dataset",
            choices=DATASET_CHOICES,
            default="clarq-llm",
            help="which data (default clarq-llm; clariq and mimics-duo feed the companion tracks)",
        )
    fetch.set_defaults(handler=_download)
    where = actions.add_parser("where", help="print which data folder clarq would use")
    where.add_argument("--data", metavar="DIR")
    where.add_argument("--dataset", choices=DATASET_CHOICES, default="clarq-llm")
    where.set_defaults(handler=_where)
    verify = actions.add_parser("verify", help="compare a data folder with the pinned checksums")
    verify.add_argument("--data", metavar="DIR")
    verify.add_argument("--dataset", choices=DATASET_CHOICES, default="clarq-llm")
    verify.set_defaults(handler=_verify)


def _download(args: argparse.Namespace) -> int:
    from ..api.support import download, download_dataset

    if args.dataset == "clarq-llm":
        report = download(base_url=args.url, with_results=args.results)
    else:
        report = download_dataset(args.dataset, base_url=args.url)
    if args.json:
        print_json(report.model_dump())
    else:
        print(
            f"{report.target}: {len(report.fetched)} fetched, {len(report.already_present)} already present, "
            "all verified"
        )
    return 0


def _where(args: argparse.Namespace) -> int:
    """The folder clarq reads; before a download, the folder the download will fill (and how to fill it)."""
    import sys

    from ..api.support import cached_data_dir, dataset_dir, resolve_data_dir
    from ..core.errors import ClarqError

    if args.dataset != "clarq-llm":
        print(dataset_dir(args.dataset, args.data))  # none there: one line and exit 2
        return 0
    try:
        print(resolve_data_dir(args.data))
    except ClarqError:
        print(cached_data_dir())
        print(
            "clarq: not downloaded yet: `clarq data download` fills it (or set CLARQ_DATA, or pass --data DIR)",
            file=sys.stderr,
        )
        return 1  # a script asking where the data is must not read "ready" from exit 0
    return 0


def _verify(args: argparse.Namespace) -> int:
    import sys

    from ..api.support import resolve_data_dir, verify_folder

    if args.dataset == "clarq-llm":
        root = resolve_data_dir(args.data)
        problems = verify_folder(root)
    else:
        from ..api.support import dataset_dir, verify_dataset

        root = dataset_dir(args.dataset, args.data)
        problems = verify_dataset(args.dataset, root)
    for relative, problem in sorted(problems.items()):
        print(f"clarq: {relative}: {problem}", file=sys.stderr)
    if not problems:
        print(f"{root}: identical to the pinned {args.dataset} data")
    return 1 if problems else 0
