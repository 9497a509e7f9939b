"""Flags for commands that call models (run, score, provider-eval): cache, endpoint, budget and rate limits.

Nothing heavy is imported at module level; the flags are llm.options.ModelCallOptions by name, as for the API.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from ..core.defaults import DEFAULT_MODEL_CONCURRENCY
from .common import positive_float, positive_int

if TYPE_CHECKING:
    from ..api.support import LLMSettings


def add_llm_arguments(parser: argparse.ArgumentParser) -> None:
    """--no-cache, --cache PATH, --api-base URL, --router FILE, --transport, --max-cost USD, --rpm N, --model-concurrency N."""
    group = parser.add_argument_group("model calls")
    group.add_argument("--no-cache", action="store_true", help="do not read or write the response cache")
    group.add_argument("--cache", metavar="PATH", type=Path, help="response cache file (default: user cache dir)")
    group.add_argument(
        "--api-base",
        metavar="URL",
        type=api_base_arg,
        help="an OpenAI-compatible endpoint, e.g. http://localhost:8000/v1",
    )
    group.add_argument(
        "--router",
        metavar="FILE.yaml",
        type=Path,
        help="litellm Router model_list: model names served by pools of deployments (README, Scale out)",
    )
    group.add_argument(
        "--transport",
        choices=["auto", "litellm"],
        default="auto",
        help="auto: plain HTTP for OpenAI-compatible models at --api-base, litellm for the rest "
        "(default); litellm: every call through litellm (~8 ms of CPU a call against under 1 ms: with many "
        "dialogues in flight, keep auto for OpenAI-compatible endpoints)",
    )
    group.add_argument(
        "--max-cost",
        metavar="USD",
        type=positive_float,
        help="stop starting new dialogues once this many dollars are spent",
    )
    group.add_argument(
        "--allow-unpriced",
        action="store_true",
        help="with --max-cost: run even when a model has no known price (its dollars count as 0)",
    )
    group.add_argument("--rpm", metavar="N", type=positive_float, help="request starts per minute per model")
    group.add_argument(
        "--model-concurrency",
        metavar="N",
        type=positive_int,
        default=DEFAULT_MODEL_CONCURRENCY,
        help=f"calls in flight per model (default: {DEFAULT_MODEL_CONCURRENCY})",
    )


def api_base_arg(text: str) -> str:
    """argparse type: an endpoint URL without credentials in it (a usage error, exit 2, before anything runs)."""
    from ..api.support import check_api_base
    from ..core.errors import ClarqError

    try:
        return check_api_base(text) or text
    except ClarqError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def settings_from_args(args: argparse.Namespace) -> LLMSettings:
    """LLMSettings from the flags above (missing attributes fall back to the defaults)."""
    from ..api.support import ModelCallOptions

    return ModelCallOptions.of(args).settings()


#: The model-call options of the API (`clarq_bench.run` and the provider checks), as the flags above name them.
LLM_OPTIONS = (
    "no_cache",
    "cache",
    "api_base",
    "router",
    "transport",
    "max_cost",
    "allow_unpriced",
    "rpm",
    "model_concurrency",
)
#  (the fields of llm.options.ModelCallOptions but timeout_s, which has no flag; tests/llm/test_llm_scripted.py checks)


def llm_options(args: argparse.Namespace) -> dict[str, object]:
    """The flags above as the API's keyword arguments."""
    return {name: getattr(args, name) for name in LLM_OPTIONS if hasattr(args, name)}
