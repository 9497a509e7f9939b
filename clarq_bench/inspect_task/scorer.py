"""clarq's judge as an inspect scorer: each sample's dialogue judged as `clarq score` judges it, the figures reported
as inspect metrics (mean and a task-clustered stderr, per language and per task type).

Score value per sample: success (0/1), aqd, aql (released units: spaces for English, characters for Chinese, so its
"all" mean is only meaningful for one language: read the per-language rows), aql_tokens (one tokenizer for both
languages) and efficiency (success weighted by what the seeker said against the human path: scoring/charge.py), the
same figure under the same name as `clarq score`.
The numbers under inspect are the verdict's own; `clarq import-inspect` + `clarq score` give clarq's bootstrap
intervals and every other figure.
"""

from __future__ import annotations

from typing import Any

from ..core.errors import ClarqError
from ..core.tasks import Task
from ..core.transcript import Transcript
from ..scoring.judge import NodeCheck, judge
from .models import InspectModels
from .seeker import STORE_KEY

FIGURES = ("success", "aqd", "aql", "aql_tokens", "efficiency")


def figures(verdict: Any) -> dict[str, float]:
    """The per-dialogue values inspect averages."""
    return {
        "success": float(verdict.success),
        "aqd": float(verdict.aqd),
        "aql": float(verdict.aql),
        "aql_tokens": float(verdict.aql_tokens),
        "efficiency": float(verdict.efficiency),
    }


def qualified(name: str) -> str:
    """`clarq_bench/<name>` whichever way inspect sees this package. inspect prefixes a registered name with its
    package only when it finds the package installed; run from a checkout, the `clarq_bench.egg-info` folder that
    `pip install -e .` leaves there is found first and hides the editable install, so the prefix is then ours."""
    from inspect_ai._util.package import get_installed_package_name

    return name if get_installed_package_name(qualified) == "clarq_bench" else f"clarq_bench/{name}"


def _metrics() -> list[dict[str, list[Any]]]:
    from inspect_ai.scorer import grouped, mean, metric, stderr

    @metric(name=qualified("by_language"))
    def by_language() -> Any:
        return grouped(mean(), "language", all=False, name_template="{group_name}")

    @metric(name=qualified("by_type"))
    def by_type() -> Any:
        return grouped(mean(), "type", all=False, name_template="{group_name}")

    return [{name: [mean(), stderr(cluster="task_id"), by_language(), by_type()] for name in FIGURES}]


def judge_check(judge_name: str) -> NodeCheck | None:
    """None (the deterministic judge), or the LLM leftover-node check on inspect's model role `judge`."""
    if judge_name == "none":
        return None
    from ..scoring.judge_llm import llm_node_check

    return llm_node_check(InspectModels(), "judge")  # type: ignore[arg-type]


def clarq_scorer(tasks: dict[str, Task], judge_name: str = "none") -> Any:
    from inspect_ai.scorer import Score, scorer

    @scorer(name="clarq_judge", metrics=_metrics())
    def build() -> Any:
        async def score(state: Any, target: Any) -> Any:
            record = state.store.get(STORE_KEY)
            if record is None:
                raise ClarqError(
                    "no clarq dialogue was played for this sample: the task's solver was replaced (by "
                    "--solver?); pass the agent as -T solver=NAME so it speaks inside the dialogue"
                )
            transcript = Transcript.model_validate(record)
            task = tasks[transcript.task_id]
            check = judge_check(judge_name)
            verdict = await judge(
                transcript, task, check, judge_name=str(InspectModels.model_for("judge")) if check else "none"
            )
            reason = transcript.end_reason.value + (f" ({transcript.error})" if transcript.error else "")
            explanation = (
                f"{verdict.obtained_count} of {verdict.required_count} required nodes obtained; "
                f"{len(transcript.seeker_turns)} seeker turns; ended by {reason}"
            )
            return Score(
                value=figures(verdict),
                answer=state.output.completion if state.output else None,
                explanation=explanation,
                metadata={"end_reason": transcript.end_reason.value, "verdict": verdict.model_dump(mode="json")},
            )

        return score

    return build()
