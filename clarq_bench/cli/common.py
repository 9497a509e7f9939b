"""Flags and helpers shared by several commands (data selection, JSON output)."""

from __future__ import annotations

import argparse
import json
import math
import sys
from typing import Any


def positive_float(text: str) -> float:
    """argparse type: a number above 0 (a bad value is a usage error, exit 2)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not math.isfinite(value):  # nan compares false with everything: it would pass `<= 0` and every later check
        raise argparse.ArgumentTypeError(f"not a finite number: {text!r}")
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be positive: {text!r}")
    return value


def positive_int(text: str) -> int:
    """argparse type: a whole number of at least 1 (`--limit -3` must not mean "all but the last 3")."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1: {text!r}")
    return value


def add_data_arguments(parser: argparse.ArgumentParser) -> None:
    """--data / --tasks / --lang / --split / --types: which tasks a command works on."""
    source = parser.add_mutually_exclusive_group()
    source.add_argument(
        "--data", metavar="DIR", help="task data folder (default: $CLARQ_DATA, then the download cache)"
    )
    source.add_argument("--tasks", metavar="DIR", help="a folder of tasks in the upstream layout, e.g. tasks/")
    parser.add_argument("--lang", choices=["en", "zh", "all"], default="all", help="language (default: all)")
    parser.add_argument("--split", choices=["test", "dev", "all"], default="all", help="split (default: all)")
    parser.add_argument("--types", metavar="N[,N-M]", help="task type numbers, e.g. 1-13 or 3,5")


def load_selected_tasks(args: argparse.Namespace) -> list:
    """The tasks named by the data flags, from --tasks, --data, $CLARQ_DATA or the cache."""
    from ..api import load_tasks

    return load_tasks(args.tasks or args.data, lang=args.lang, split=args.split, types=args.types)


def print_json(payload: Any) -> None:
    json.dump(payload, sys.stdout, ensure_ascii=False, indent=2)
    sys.stdout.write("\n")
