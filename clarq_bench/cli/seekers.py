"""`clarq seekers`: list the registered seekers (shipped, decorated, and from the `clarq.seekers` entry points)."""

from __future__ import annotations

import argparse

from .common import print_json


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("seekers", help="list the seekers you can run (--all: also the provider attackers)")
    parser.add_argument(
        "--all",
        action="store_true",
        help="also list the attackers that test a provider (red team, enumeration, templates)",
    )
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.add_argument(
        "--seeker-module",
        action="append",
        metavar="FILE.py",
        help="import this file first, so the seekers it registers are listed too",
    )
    parser.set_defaults(handler=_list)


def _list(args: argparse.Namespace) -> int:
    from ..api.support import import_seeker_modules, seeker_group, seeker_summary

    import_seeker_modules(args.seeker_module)
    rows = [(name, text, seeker_group(name)) for name, text in seeker_summary()]
    hidden = sum(group == "attacker" for _, _, group in rows)
    if not args.all:
        rows = [row for row in rows if row[2] == "seeker"]
    if args.json:
        print_json([{"name": name, "description": text, "group": group} for name, text, group in rows])
        return 0
    from rich.console import Console
    from rich.table import Table

    caption = "also: package.module:Class, or a model name such as gpt-4o (the llm seeker)"
    if not args.all and hidden:
        caption += f"; --all adds {hidden} attackers that test a provider"
    table = Table("seeker", "what it does", *(["kind"] if args.all else []), caption=caption)
    for name, text, group in rows:
        table.add_row(name, text, *([group] if args.all else []))
    Console().print(table)
    return 0
