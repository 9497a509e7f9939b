"""What the command line needs beside the API's calls: report tables, run options and their checks, downloads, the
seeker list, the fake model server. Named here so that cli imports the API and core only (tests/test_layers.py);
each name loads its module on first use, so `clarq --help` stays fast.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..clarify.clariq_track import ClariqRunOptions, score_run, table_rows
    from ..clarify.clariq_track import run as run_clariq
    from ..clarify.mimics_duo_readings import RELEVANT, UNTIED
    from ..clarify.mimics_duo_report import analyse, markdown, write
    from ..clarify.online_offline_report import print_report as print_correlation_report
    from ..clarify.report import print_table as print_select_table
    from ..data.companion import dataset_dir, download_dataset, verify_dataset
    from ..data.download import cached_data_dir, download, verify_folder
    from ..data.loader import resolve_data_dir
    from ..data.selection import find_task
    from ..data.task_sets import BENCHMARK, describe, kind_of

    # types of what the API returns, for the CLI's annotations
    from ..fidelity.audit import AuditReport
    from ..fidelity.checks import check_reference_reveals, natural_eval
    from ..fidelity.provider_eval import Report as ProviderReport
    from ..fidelity.search import SearchReport
    from ..fidelity.teacher_forced import TARGETS as TEACHER_FORCED_TARGETS
    from ..leaderboard.bounds import Refused
    from ..leaderboard.hf import export_hf
    from ..llm import LLMSettings
    from ..llm.endpoint import check_api_base
    from ..llm.models import resolve_model
    from ..llm.options import ModelCallOptions
    from ..llm.transports import uses_direct
    from ..pairwise.aggregate import PairwiseSummary
    from ..pairwise.report import payload as pairwise_payload
    from ..pairwise.report import print_report as print_pairwise_report
    from ..runner.estimate import RoleEstimate
    from ..runner.prepare import RunOptions, check_keys, compact_ranges, import_seeker_modules
    from ..scoring.metrics import Figure
    from ..scoring.report import print_table, summary_payload
    from ..seekers.registry import seeker_group, seeker_summary
    from ..seekers.web_human import DESKS
    from ..testing.fake_openai import FakeOpenAIServer
    from ..testing.fake_roles import role_responder

#: name here -> (module below the API, its name there)
NAMES: dict[str, tuple[str, str]] = {
    "ClariqRunOptions": ("clarify.clariq_track", "ClariqRunOptions"),
    "run_clariq": ("clarify.clariq_track", "run"),
    "score_run": ("clarify.clariq_track", "score_run"),
    "table_rows": ("clarify.clariq_track", "table_rows"),
    "RELEVANT": ("clarify.mimics_duo_readings", "RELEVANT"),
    "UNTIED": ("clarify.mimics_duo_readings", "UNTIED"),
    "analyse": ("clarify.mimics_duo_report", "analyse"),
    "markdown": ("clarify.mimics_duo_report", "markdown"),
    "write": ("clarify.mimics_duo_report", "write"),
    "print_correlation_report": ("clarify.online_offline_report", "print_report"),
    "print_select_table": ("clarify.report", "print_table"),
    "dataset_dir": ("data.companion", "dataset_dir"),
    "download_dataset": ("data.companion", "download_dataset"),
    "verify_dataset": ("data.companion", "verify_dataset"),
    "cached_data_dir": ("data.download", "cached_data_dir"),
    "download": ("data.download", "download"),
    "verify_folder": ("data.download", "verify_folder"),
    "resolve_data_dir": ("data.loader", "resolve_data_dir"),
    "find_task": ("data.selection", "find_task"),
    "BENCHMARK": ("data.task_sets", "BENCHMARK"),
    "describe": ("data.task_sets", "describe"),
    "kind_of": ("data.task_sets", "kind_of"),
    "Refused": ("leaderboard.bounds", "Refused"),
    "export_hf": ("leaderboard.hf", "export_hf"),
    "LLMSettings": ("llm", "LLMSettings"),
    "check_api_base": ("llm.endpoint", "check_api_base"),
    "ModelCallOptions": ("llm.options", "ModelCallOptions"),
    "resolve_model": ("llm.models", "resolve_model"),
    "uses_direct": ("llm.transports", "uses_direct"),
    "pairwise_payload": ("pairwise.report", "payload"),
    "print_pairwise_report": ("pairwise.report", "print_report"),
    "RunOptions": ("runner.prepare", "RunOptions"),
    "check_keys": ("runner.prepare", "check_keys"),
    "compact_ranges": ("runner.prepare", "compact_ranges"),
    "import_seeker_modules": ("runner.prepare", "import_seeker_modules"),
    "print_table": ("scoring.report", "print_table"),
    "summary_payload": ("scoring.report", "summary_payload"),
    "seeker_group": ("seekers.registry", "seeker_group"),
    "seeker_summary": ("seekers.registry", "seeker_summary"),
    "DESKS": ("seekers.web_human", "DESKS"),
    "FakeOpenAIServer": ("testing.fake_openai", "FakeOpenAIServer"),
    "role_responder": ("testing.fake_roles", "role_responder"),
    "AuditReport": ("fidelity.audit", "AuditReport"),
    "check_reference_reveals": ("fidelity.checks", "check_reference_reveals"),
    "natural_eval": ("fidelity.checks", "natural_eval"),
    "TEACHER_FORCED_TARGETS": ("fidelity.teacher_forced", "TARGETS"),
    "ProviderReport": ("fidelity.provider_eval", "Report"),
    "SearchReport": ("fidelity.search", "SearchReport"),
    "PairwiseSummary": ("pairwise.aggregate", "PairwiseSummary"),
    "RoleEstimate": ("runner.estimate", "RoleEstimate"),
    "Figure": ("scoring.metrics", "Figure"),
}

__all__ = [  # the names of NAMES, written out so that linters and type checkers see them
    "ClariqRunOptions",
    "run_clariq",
    "score_run",
    "table_rows",
    "RELEVANT",
    "UNTIED",
    "analyse",
    "markdown",
    "write",
    "print_correlation_report",
    "print_select_table",
    "dataset_dir",
    "download_dataset",
    "verify_dataset",
    "cached_data_dir",
    "download",
    "verify_folder",
    "resolve_data_dir",
    "find_task",
    "BENCHMARK",
    "describe",
    "kind_of",
    "Refused",
    "export_hf",
    "LLMSettings",
    "check_api_base",
    "ModelCallOptions",
    "resolve_model",
    "uses_direct",
    "pairwise_payload",
    "print_pairwise_report",
    "RunOptions",
    "check_keys",
    "compact_ranges",
    "import_seeker_modules",
    "print_table",
    "summary_payload",
    "seeker_group",
    "seeker_summary",
    "DESKS",
    "FakeOpenAIServer",
    "role_responder",
    "AuditReport",
    "check_reference_reveals",
    "natural_eval",
    "TEACHER_FORCED_TARGETS",
    "ProviderReport",
    "SearchReport",
    "PairwiseSummary",
    "RoleEstimate",
    "Figure",
]


def __getattr__(name: str) -> Any:
    if name not in NAMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module, attribute = NAMES[name]
    value = getattr(importlib.import_module(f"clarq_bench.{module}"), attribute)
    return value
