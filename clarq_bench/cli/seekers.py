"""`clarq seekers`: list the registered seekers (shipped, decorated, and from the `clarq.seekers` entry points)."""

from __future__ import annotations

import argparse

from .common import print_json


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("seekers", help="list the registered seekers")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.add_argument("--seeker-module", action="append", metavar="FILE.py",
                        help="import this file first, so the seekers it registers are listed too")
    parser.set_defaults(handler=_list)


def _list(args: argparse.Namespace) -> int:
    from ..api.support import import_seeker_modules
    from ..api.support import seeker_summary

    import_seeker_modules(args.seeker_module)
    rows = seeker_summary()
    if args.json:
        print_json([{"name": name, "description": text} for name, text in rows])
        return 0
    from rich.console import Console
    from rich.table import Table

    table = Table("seeker", "what it does", caption="also: package.module:Class, or a model name (llm seeker)")
    for name, text in rows:
        table.add_row(name, text)
    Console().print(table)
    return 0
