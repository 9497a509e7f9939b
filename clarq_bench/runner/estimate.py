"""`clarq run --dry-run`: what a run would call and cost, before anything is played (no network, no key needed).

Why: a model run of 260 tasks can cost real money; the researcher should see the calls per role and a dollar range
first. The range is an estimate, not a promise: per dialogue the seeker makes 1 to max_turns calls, an LLM provider
1 to 2 per seeker turn (one decision, a second only when nothing is revealed), an LLM judge 0 to one per required
node. Prompt tokens are measured (o200k_base) on each task's brief and tree plus the role's prompt templates, with
each earlier turn adding TURN_TOKENS; replies are REPLY_TOKENS. Dollars come from litellm's local price table
(llm/accounting.py), as the run itself counts them; cached replies would cost nothing, the estimate assumes none.

The range's high end is a ceiling (every dialogue to the turn cap, two provider calls a turn): too wide to plan with.
Beside it stands an expected figure: dialogues as long as the released GPT-4o dialogues are on average
(RELEASED_SEEKER_TURNS, per language, capped at max_turns), the provider making one call for each turn that reveals
a required node and two for the others, the judge half its range, turns and replies of middling length.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field

from ..core.run_config import RunConfig
from ..core.tasks import Task

#: Tokens one earlier turn adds to a prompt, and tokens of one reply: (low, high).
TURN_TOKENS = (40, 120)
REPLY_TOKENS = {"seeker": (20, 80), "provider": (40, 200), "judge": (5, 40)}
#: Seeker turns per dialogue in the released GPT-4o dialogues (single-info: Comp.En for en, Comp.Ch for zh), the
#: length an expected dialogue is given; tests/cli/test_first_hour_more.py recomputes them from the released files.
RELEASED_SEEKER_TURNS = {"en": 6.91, "zh": 6.63}
#: The templates each role's prompt is built from (their size counts once per call).
TEMPLATES = {
    "seeker": ("seeker/completion", "seeker/brief"),
    "provider": ("provider/llm_decide", "provider/llm_default_role"),
    "judge": ("judge/node_check_system", "judge/node_check_user"),
}


@dataclass
class RoleEstimate:
    role: str
    model: str
    calls: tuple[int, int] = (0, 0)
    tokens: tuple[int, int] = (0, 0)
    usd: tuple[float, float] | None = (0.0, 0.0)  # None: the model has no known price
    expected_calls: int = 0
    expected_usd: float | None = 0.0


@dataclass
class Estimate:
    dialogues: int
    tasks: int
    trials: int
    roles: list[RoleEstimate] = field(default_factory=list)

    @property
    def usd(self) -> tuple[float, float] | None:
        priced = [role.usd for role in self.roles if role.usd is not None]
        if len(priced) < len(self.roles):
            return None
        return sum(low for low, _ in priced), sum(high for _, high in priced)

    @property
    def expected_usd(self) -> float | None:
        if any(role.expected_usd is None for role in self.roles):
            return None
        return sum(r.expected_usd for r in self.roles)  # type: ignore[misc]


def _template_tokens(role: str, language: str, count: Callable[[str], int]) -> int:
    from ..core.prompts import template_path

    total = 0
    for name in TEMPLATES[role]:
        path = template_path(name, language)
        total += count(path.read_text(encoding="utf-8")) if path.is_file() else 0
    return total


def _per_dialogue(
    role: str, task: Task, max_turns: int, count: Callable[[str], int], overhead: int
) -> tuple[tuple[int, int], tuple[int, int]]:
    """(calls low, high) and (tokens low, high) for one dialogue of `task`."""
    brief = count(json.dumps(task.brief.model_dump(mode="json"), ensure_ascii=False))
    tree = sum(count(node.text) + count(node.explanation or "") for node in task.tree.nodes)
    reply = REPLY_TOKENS[role]
    if role == "seeker":
        calls, base = (1, max_turns), overhead + brief
        turns_high = max_turns
    elif role == "provider":
        calls, base = (1, 2 * max_turns), overhead + brief + tree
        turns_high = max_turns
    else:
        required = len(task.tree.required)
        calls, base = (0, required), overhead + max(count(node.text) for node in task.tree.nodes)
        turns_high = max_turns  # the judge reads the provider's turns
    low = calls[0] * (base + reply[0])
    # the k-th call of a long dialogue carries the k earlier exchanges (two turns each)
    high = sum(
        base + 2 * min(k * turns_high // max(calls[1], 1), turns_high) * TURN_TOKENS[1] + reply[1]
        for k in range(calls[1])
    )
    return calls, (low, high)


def _expected(
    role: str, task: Task, max_turns: int, count: Callable[[str], int], overhead: int
) -> tuple[float, int, int]:
    """(calls, prompt tokens, reply tokens) of one dialogue as long as a released one on average."""
    turns = min(RELEASED_SEEKER_TURNS.get(task.language, max(RELEASED_SEEKER_TURNS.values())), max_turns)
    brief = count(json.dumps(task.brief.model_dump(mode="json"), ensure_ascii=False))
    reply = sum(REPLY_TOKENS[role]) // 2
    per_turn = sum(TURN_TOKENS) // 2
    required = len(task.tree.required)
    if role == "seeker":
        calls, base = turns, overhead + brief
    elif role == "provider":
        tree = sum(count(node.text) + count(node.explanation or "") for node in task.tree.nodes)
        calls, base = 2 * turns - min(required, turns), overhead + brief + tree
    else:
        calls, base = required / 2, overhead + max(count(node.text) for node in task.tree.nodes)
    # the k-th call of the dialogue carries the exchanges before it (two turns each)
    prompt = sum(base + 2 * (k * turns / max(calls, 1)) * per_turn for k in range(round(calls)))
    return calls, int(prompt), round(calls * reply)


def estimate(config: RunConfig, tasks: list[Task], models: list[tuple[str, str]]) -> Estimate:
    """Calls, tokens and dollars per role (one row per (role, model) of `models`) over every dialogue of the run."""
    from ..llm.accounting import call_cost, is_priced
    from ..llm.models import is_scripted, resolve_model
    from ..scoring.lengths import token_counter

    count = token_counter().count
    result = Estimate(dialogues=len(tasks) * config.trials, tasks=len(tasks), trials=config.trials)
    for role, model in models:
        resolved = resolve_model(model)
        row = RoleEstimate(role, resolved)
        calls, tokens, usd = [0, 0], [0, 0], [0.0, 0.0]
        expected_calls, expected_usd = 0.0, 0.0
        overheads = {language: _template_tokens(role, language, count) for language in {t.language for t in tasks}}
        for task in tasks:
            (c_low, c_high), (t_low, t_high) = _per_dialogue(
                role, task, config.max_turns, count, overheads[task.language]
            )
            reply = REPLY_TOKENS[role]
            calls[0] += c_low * config.trials
            calls[1] += c_high * config.trials
            tokens[0] += t_low * config.trials
            tokens[1] += t_high * config.trials
            usd[0] += call_cost(resolved, t_low - c_low * reply[0], c_low * reply[0]) * config.trials
            usd[1] += call_cost(resolved, t_high - c_high * reply[1], c_high * reply[1]) * config.trials
            e_calls, e_prompt, e_reply = _expected(role, task, config.max_turns, count, overheads[task.language])
            expected_calls += e_calls * config.trials
            expected_usd += call_cost(resolved, e_prompt, e_reply) * config.trials
        priced = is_scripted(resolved) or (is_priced(resolved) and (call_cost(resolved, 1000, 1000) > 0))
        row.calls, row.tokens, row.usd = (
            (calls[0], calls[1]),
            (tokens[0], tokens[1]),
            (usd[0], usd[1]) if priced else None,
        )
        row.expected_calls, row.expected_usd = round(expected_calls), expected_usd if priced else None
        result.roles.append(row)
    return result
