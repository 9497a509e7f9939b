"""Which rows of the leaderboard may be ranked together: a board is one task set, split, provider and turn cap.

Why: success depends on the tasks, on who answers and on how many turns a seeker gets, as much as on the seeker. A
run on the eight sample tasks, or against the offline provider, or with 20 turns, is not a result on the standard
setting, and ranking it there (a badge is not enough) tells readers the wrong thing. So every language's rows are
split into boards by (task-set kind, task-set digest of that language, split, provider, provider mode, an LLM
provider's reading, turn cap); the standard setting's provider is GPT-4o with its model deciding (the paper's);
each board gets its own table and title, benchmark boards first, the standard setting first of all; rows on sample or
custom tasks are titled "not the benchmark" and are never in a table with benchmark rows.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..core.jsonl import flatten
from ..core.provider_names import recorded_kind
from ..data.task_sets import BENCHMARK, describe, kind_of
from .entry import Entry
from .replay import provider_mode
from .schema import task_set_hash

STANDARD_PROVIDER_MODELS = ("gpt-4o", "gpt-4o-2024-05-13")  # the paper's provider, as named and as resolved
STANDARD_MODE, STANDARD_TURNS = "single", 12
STANDARD_READING = "model"  # the provider's model decides what is revealed, as in the paper
PEOPLE_SEEKERS = ("human", "human-web")  # a person typed the seeker's lines


@dataclass(frozen=True)
class Setting:
    """What a row's figures depend on besides the seeker."""

    kind: str  # benchmark | sample | custom (data/task_sets.py)
    digest: str  # task-set hash of this language's tasks
    tasks: int
    split: str
    provider: str  # offline / offline-e5, or the LLM provider's model version(s)
    mode: str
    max_turns: int | None
    people: bool = False  # people played the seeker (clarq play --web): a human baseline, never ranked with machines
    reading: str | None = None  # an LLM provider's reading: model, strict or unrecorded (scoring/settings_diff.py)

    @property
    def standard(self) -> bool:
        return (
            not self.people
            and self.kind == BENCHMARK
            and self.provider in STANDARD_PROVIDER_MODELS
            and self.mode == STANDARD_MODE
            and self.reading == STANDARD_READING
            and self.max_turns == STANDARD_TURNS
        )

    def title(self) -> str:
        turns = f"{self.max_turns}-turn cap" if self.max_turns is not None else "turn cap unknown"
        mode = "multi-info" if self.mode.startswith("multi") else "single-info"
        if self.reading not in (None, STANDARD_READING):
            mode += f", {self.reading} reading" if self.reading != "unrecorded" else ", reading unrecorded"
        head = "Standard setting: " if self.standard else ("" if self.kind == BENCHMARK else "Not the benchmark: ")
        head = (
            f"People as seekers (H2L), {head[0].lower() + head[1:]}"
            if self.people and head
            else ("People as seekers (H2L): " if self.people else head)
        )
        return (
            f"{head}{describe(self.kind, self.tasks)}, {self.split} split · provider {self.provider}, {mode} · {turns}"
        )


@dataclass
class Board:
    setting: Setting
    entries: list[Entry] = field(default_factory=list)


def provider_of(entry: Entry) -> str:
    m = entry.manifest
    settings = got if isinstance(got := m.run_config.get("provider"), dict) else {}
    name = str(settings.get("name") or m.provider.name)
    if recorded_kind(name) == "offline":
        return name
    return ", ".join(sorted(set(m.provider_models))) or str(m.provider.model or settings.get("model") or name)


def setting_of(entry: Entry, language: str) -> Setting:
    m = entry.manifest
    hashes = {task_id: digest for task_id, digest in m.task_hashes.items() if task_id.split("/", 1)[0] == language}
    return Setting(
        kind=kind_of(hashes),
        digest=task_set_hash(hashes),
        tasks=len(hashes),
        split=str(m.run_config.get("split") or "test"),
        provider=provider_of(entry),
        mode=provider_mode(m),
        max_turns=m.max_turns,
        people=m.seeker.name in PEOPLE_SEEKERS,
        reading=reading_of(entry),
    )


def reading_of(entry: Entry) -> str | None:
    """The LLM provider's reading the row was played with (the one rule of scoring/settings_diff.py)."""
    from ..scoring.settings_diff import provider_reading

    m = entry.manifest
    settings = got if isinstance(got := m.run_config.get("provider"), dict) else {}
    return provider_reading(flatten(m.run_config), str(settings.get("name") or m.provider.name))


def boards(entries: list[Entry], language: str) -> list[Board]:
    """The language's boards: the standard one first, then other benchmark settings, then sample and custom tasks;
    within each group the board with more rows first."""
    grouped: dict[Setting, Board] = {}
    for entry in entries:
        if entry.language_group(language) is None:
            continue
        setting = setting_of(entry, language)
        grouped.setdefault(setting, Board(setting)).entries.append(entry)

    def order(b: Board) -> tuple[bool, bool, str, bool, int, str]:
        return (
            not b.setting.standard,
            b.setting.kind != BENCHMARK,
            b.setting.kind,
            b.setting.people,
            -len(b.entries),
            b.setting.title(),
        )

    return sorted(grouped.values(), key=order)
