"""`clarq run --dry-run`: the tasks, the model calls per role, an expected cost and its ceiling, printed; nothing is
played."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from ..api.support import RoleEstimate, RunOptions


def _usd(pair: tuple[float, float] | None) -> str:
    if pair is None:
        return "unknown (no price known)"
    return f"${pair[0]:,.2f} - ${pair[1]:,.2f}"


def _one_usd(value: float | None) -> str:
    return "unknown" if value is None else f"${value:,.2f}"


def print_estimate(request: RunOptions) -> int:
    from rich.console import Console
    from rich.table import Table

    from ..api import estimate_run
    from ..api.support import compact_ranges

    config, tasks, plan = estimate_run(request)
    console = Console()
    if not console.is_terminal:  # piped or captured: whole numbers, never "6,2…"
        console = Console(width=160)
    types = compact_ranges(sorted({task.type_number for task in tasks}))
    reading = f" ({config.provider.options['reading']} reading)" if config.provider.options.get("reading") else ""
    console.print(
        f"dry run: {plan.tasks} tasks ({'+'.join(config.languages)}, split {config.split}, types {types}) "
        f"x {plan.trials} trial(s) = {plan.dialogues} dialogues; seeker {config.seeker.name}, provider "
        f"{config.provider.name}{reading}, up to {config.max_turns} seeker turns each",
        markup=False,
        highlight=False,
        soft_wrap=True,
    )
    if not plan.roles:
        console.print("no model calls: nothing to pay (every agent runs offline)")
        return 0
    table = Table(title="Expected model calls (no cache)", title_justify="left")
    columns: tuple[tuple[str, Literal["left", "right"]], ...] = (
        ("role", "left"),
        ("model", "left"),
        ("expected calls", "right"),
        ("expected dollars", "right"),
        ("calls (range)", "right"),
        ("tokens (range)", "right"),
        ("dollars (range)", "right"),
    )
    for name, justify in columns:
        table.add_column(name, justify=justify, no_wrap=True)
    for role in plan.roles:
        table.add_row(
            role.role,
            role.model,
            f"{role.expected_calls:,}",
            _one_usd(role.expected_usd),
            f"{role.calls[0]:,} - {role.calls[1]:,}",
            f"{role.tokens[0]:,} - {role.tokens[1]:,}",
            _usd(role.usd),
        )
    console.print(table)
    ceiling = "unknown" if plan.usd is None else f"${plan.usd[1]:,.2f}"
    console.print(
        f"total: expected {_one_usd(plan.expected_usd)} (dialogues as long as the released GPT-4o ones), "
        f"ceiling {ceiling} (every dialogue to the turn cap); range {_usd(plan.usd)}. Prices from litellm's "
        "table; replies already in the cache cost nothing; --max-cost USD caps the spend.",
        markup=False,
        highlight=False,
        soft_wrap=True,
    )
    for line in missing_keys(plan.roles, request.api_base):
        console.print(line, style="bold yellow", markup=False, highlight=False, soft_wrap=True)
    return 0


def missing_keys(roles: list[RoleEstimate], api_base: str | None) -> list[str]:
    """`missing key: ...` for each role whose model has no key set: the dry run needs none, the real run would stop."""
    from ..api.support import check_keys
    from ..core.errors import ClarqError

    lines = []
    for role in roles:
        try:
            check_keys([(role.role, role.model)], api_base=api_base)
        except ClarqError as exc:
            lines.append(f"missing key: {exc} -- the run itself would stop here")
    return lines
