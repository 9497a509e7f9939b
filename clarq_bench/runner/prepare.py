"""From the options of a run to a run ready to play: RunOptions (the flags of `clarq run` as one record) -> RunConfig,
the selected tasks, both agents resolved, the LLM client (every role's credentials checked before anything starts),
the run folder and the stamped config, as one PreparedRun (prepared.py).

One request, one step: the command line builds the RunOptions once and the API hands that object on; `configure`
(config and tasks) is the step `run`, `estimate_run` (`clarq run --dry-run`) and the inspect task all take, `plan`
adds the agents and the models they call. RunConfig is the one record of the run, its model-call settings included:
the client's ModelCallOptions are derived from it (call_options). It prints only the one line saying which tasks
`limit` took (stderr).
"""

from __future__ import annotations

import dataclasses
import re
import sys
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..core.defaults import DEFAULT_MODEL_CONCURRENCY
from ..core.errors import ClarqError
from ..core.run_config import AgentSettings, RunConfig
from ..core.tasks import Task
from ..data.selection import compact_ranges, no_tasks_error, parse_types, run_selection, selected_languages
from ..llm.options import ModelCallOptions
from .prepared import PreparedRun, ready, resolve_agents

if TYPE_CHECKING:
    from ..provider.registry import ProviderSpec
    from ..seekers.registry import SeekerSpec

#: Options that map one-to-one onto RunConfig fields; None means "not given" so a resume keeps the saved value.
RUN_FIELDS = (
    "trials",
    "seed",
    "max_turns",
    "limit",
    "concurrency",
    "max_cost",
    "judge_model",
    "turn_timeout",
    "max_errors",
)

#: The provider of `clarq run` when --provider is not given: GPT-4o, as in the paper (needs OPENAI_API_KEY).
DEFAULT_PROVIDER = "gpt-4o"

#: What to pass instead when a role's model has no key.
OFFLINE_FIX = {
    "seeker": "--seeker heuristic",
    "provider": "--provider offline",
    "judge": "--judge none (deterministic judging)",
}


@dataclasses.dataclass
class RunOptions:
    """The options of one run, named and defaulted as the flags of `clarq run` (`--seeker-model` is seeker_model).
    None means "not given": defaults apply to a new run, and a resumed run keeps its saved value."""

    # which tasks
    tasks: str | Path | None = None  # a folder in the upstream layout, e.g. tasks/
    data: str | Path | None = None  # task data folder (default: $CLARQ_DATA, then the download cache)
    lang: str | None = None  # en, zh or all (default: en; with replay, the file's)
    split: str | None = None  # test, dev or all (default: test)
    types: str | list[int] | None = None  # `1-13,20` or a list of type numbers
    # the agents
    seeker: str | None = None  # registered name, package.module:Class or a model name (default: heuristic)
    seeker_model: str | None = None
    seeker_mode: str | None = None  # completion or chat
    seeker_option: list[str] | dict[str, Any] | None = None  # KEY=VALUE strings or a dict
    seeker_module: list[str] | str | None = None  # .py files to import first (their registered seekers by name)
    replay: str | Path | None = None
    provider: str | None = None  # offline, offline-e5, a model name or package.module:Class (default: gpt-4o)
    provider_model: str | None = None
    provider_mode: str | None = None  # single or multi-info
    provider_reading: str | None = None  # LLM provider: model (default, as in the paper) or strict
    judge_model: str | None = None
    # the run
    trials: int | None = None
    seed: int | None = None
    max_turns: int | None = None
    limit: int | None = None
    concurrency: int | None = None
    provider_workers: int | None = (
        None  # offline provider: its replies decided in N processes (runner/provider_pool.py)
    )
    turn_timeout: float | None = None
    max_errors: int | None = None
    runs_dir: str | Path = "runs"
    resume: str | Path | None = None
    retry_errors: bool = False
    force: bool = False
    no_progress: bool = False
    dry_run: bool = False  # `clarq run --dry-run`; from Python, call clarq_bench.estimate_run instead
    # model calls
    no_cache: bool = False
    cache: str | Path | None = None
    api_base: str | None = None
    router: str | Path | None = None  # a litellm Router model_list YAML: pooled model names (README, Scale out)
    transport: str = "auto"
    max_cost: float | None = None
    allow_unpriced: bool = False  # with max_cost: run even when a model has no known price
    rpm: float | None = None
    model_concurrency: int = DEFAULT_MODEL_CONCURRENCY

    @classmethod
    def of(cls, options: RunOptions | Any | None = None, **changes: Any) -> RunOptions:
        """RunOptions from another RunOptions or any object with these attributes (an argparse Namespace), with
        `changes` on top; an unknown option is a ClarqError naming it."""
        names = [field.name for field in dataclasses.fields(cls)]
        unknown = sorted(set(changes) - set(names))
        if unknown:
            raise ClarqError(
                f"unknown run option {unknown[0]!r}", "use the names of `clarq run`'s flags, e.g. seeker_model"
            )
        base = {name: getattr(options, name) for name in names if hasattr(options, name)} if options is not None else {}
        return cls(**{**base, **changes})


def _options(pairs: list[str] | dict[str, Any] | None) -> dict[str, Any]:
    if isinstance(pairs, dict):  # from Python: already a mapping
        return dict(pairs)
    options = {}
    for pair in pairs or []:
        key, eq, value = pair.partition("=")
        if not eq or not key:
            raise ClarqError(f"bad --seeker-option {pair!r}", "write it as KEY=VALUE")
        options[key.strip()] = value.strip()
    return options


def replay_languages(path: Path) -> list[str]:
    """The languages a replay file holds (`.Ch.json` -> zh), so `--replay` needs no `--lang`."""
    if path.name.endswith(".Ch.json"):
        return ["zh"]
    if path.suffix == ".jsonl" and path.is_file():
        from ..core.jsonl import parse_jsonl, read_text

        read = parse_jsonl(read_text(path), str(path))
        found = {str(value.get("language", "en")) for _, value in read.records if isinstance(value, dict)}
        return sorted(found) or ["en"]
    return ["en"]


def build_config(args: RunOptions, base: RunConfig | None) -> RunConfig:
    """The run's config: the saved one on resume (explicit flags override), else defaults plus flags. It is the one
    record of how the run calls models too (cache, router file, budget; the endpoint is stamped once the client is
    open): `call_options` derives the client's options from it."""
    fields: dict[str, Any] = (
        base.model_dump()
        if base
        else {
            "seeker": {"name": "heuristic"},
            "provider": {"name": DEFAULT_PROVIDER},
            "languages": ["en"],
            "split": "test",
        }
    )
    for name in RUN_FIELDS:
        if getattr(args, name, None) is not None:
            fields[name] = getattr(args, name)
    if args.lang:
        fields["languages"] = list(selected_languages(args.lang))
    elif args.replay and base is None:
        fields["languages"] = replay_languages(Path(args.replay))
    if args.split:
        fields["split"] = args.split
    if args.types:
        fields["types"] = parse_types(args.types)
    if args.tasks or args.data:
        from ..data.loader import resolve_data_dir

        fields["data_dir"] = str(resolve_data_dir(args.tasks or args.data).resolve())
    seeker, provider = dict(fields["seeker"]), dict(fields["provider"])
    if args.seeker:
        seeker = {"name": args.seeker}
    for key, value in (("model", args.seeker_model), ("mode", args.seeker_mode)):
        if value is not None:
            seeker[key] = value
    if args.replay:
        seeker.setdefault("options", {})["replay"] = str(Path(args.replay).expanduser().resolve())
    if args.seeker_option:
        seeker["options"] = {**seeker.get("options", {}), **_options(args.seeker_option)}
    if args.provider:
        provider = {"name": args.provider}
    for key, value in (("model", args.provider_model), ("mode", args.provider_mode)):
        if value is not None:
            provider[key] = value
    if args.provider_reading is not None:
        provider["options"] = {**provider.get("options", {}), "reading": args.provider_reading}
    fields["seeker"], fields["provider"] = AgentSettings(**seeker), AgentSettings(**provider)
    if seeker["name"] == "human" and args.turn_timeout is None:
        fields["turn_timeout"] = None  # a person at the terminal may think for as long as they like
    if args.no_progress:
        fields["progress"] = False
    fields.update(_call_fields(args, base))
    return RunConfig(**fields)


def _call_fields(args: RunOptions, base: RunConfig | None) -> dict[str, Any]:
    """The cache and router file the run records: as given, else (on resume) the ones the run used, so the command
    clarq prints (`clarq run --resume DIR`) calls models as the run did."""
    fields: dict[str, Any] = {}
    if args.router is not None:
        fields["router_file"] = _absolute(args.router)
    elif base is None:
        fields["router_file"] = None
    if args.no_cache or args.cache is not None:
        fields["use_cache"] = not args.no_cache
        fields["cache_path"] = _absolute(args.cache) if args.cache is not None else None
    elif base is None or base.use_cache:
        fields["use_cache"] = True
        fields["cache_path"] = base.cache_path if base is not None else None
    else:  # the run played without the cache: so does its resume
        fields["use_cache"], fields["cache_path"] = False, None
    return fields


def _absolute(path: str | Path) -> str:
    return str(Path(path).expanduser().resolve())


def call_options(config: RunConfig, options: RunOptions) -> ModelCallOptions:
    """How this run's client calls models: what its config records (cache, router file, budget; on resume the
    endpoint it recorded, unless --api-base is given again) and what only this session decides (transport, rate,
    calls in flight, unpriced models)."""
    return ModelCallOptions.of(
        None,
        no_cache=not config.use_cache,
        cache=config.cache_path,
        router=config.router_file,
        max_cost=config.max_cost,
        api_base=options.api_base if options.api_base is not None else config.api_base,
        transport=options.transport,
        allow_unpriced=options.allow_unpriced,
        rpm=options.rpm,
        model_concurrency=options.model_concurrency,
    )


def select_tasks(config: RunConfig, *, say_limit: bool = True) -> tuple[RunConfig, list[Task]]:
    """Load the tasks the config names (data.selection.run_selection, the one rule); record the resolved data
    folder. The selected ids and their digest are stamped with the rest (run_identity.stamp_config). `say_limit`:
    one stderr line naming the tasks --limit took."""
    from ..data.loader import resolve_data_dir

    root = resolve_data_dir(config.data_dir)
    tasks = run_selection(root, config.model_dump())
    if config.limit is not None and tasks and say_limit:
        types = sorted({task.type_number for task in tasks})
        print(
            f"clarq: --limit {config.limit}: {len(tasks)} tasks of types {compact_ranges(types)} (seed "
            f"{config.seed}; --types narrows the choice)",
            file=sys.stderr,
        )
    if not tasks:
        if config.types:
            raise no_tasks_error(root, config.languages, config.split, config.types)
        raise ClarqError("no tasks selected", "check --lang, --split, --types and --limit")
    return config.model_copy(update={"data_dir": str(root.resolve())}), tasks


def configure(options: RunOptions, *, say_limit: bool = True) -> tuple[RunConfig, list[Task]]:
    """The one step from a run's options to its config and tasks, shared by `run` (prepare), `estimate_run` and the
    inspect task: seeker modules imported, the saved config as the base on resume (core.run_folder reads it once
    per process), the config built and its tasks selected."""
    from ..core.run_folder import RunDir

    import_seeker_modules(options.seeker_module)
    base = RunDir(options.resume).config() if options.resume else None
    return select_tasks(build_config(options, base), say_limit=say_limit)


def plan(options: RunOptions) -> tuple[RunConfig, list[Task], tuple[SeekerSpec, ProviderSpec], list[tuple[str, str]]]:
    """What `run` and `estimate_run` both start from: the config and tasks (configure), both agents resolved and
    the (role, model) of every model the run would call."""
    config, tasks = configure(options)
    seeker, provider = resolve_agents(config)
    return config, tasks, (seeker, provider), models_by_role(seeker, provider, config.judge_model, config.provider.mode)


def models_by_role(
    seeker: SeekerSpec | None,
    provider: ProviderSpec | None = None,
    judge_model: str | None = None,
    provider_mode: str | None = None,
) -> list[tuple[str, str]]:
    """(role, model) for every model a run would call, from its resolved agents; an unknown judge name fails here,
    and an offline-e5 provider loads its engine now (once; without the extra, one line here)."""
    from ..core.registry import looks_like_model

    if judge_model and not looks_like_model(judge_model):
        raise ClarqError(f"unknown judge model {judge_model!r}", "pass a model name such as gpt-4o or openai/MODEL")
    models = []
    if seeker is not None and seeker.model:
        models.append(("seeker", seeker.model))
    if provider is not None:
        if provider.embeddings and provider_mode != "multi-info":  # load its engine now, once
            from ..provider.offline.embeddings import shared_embedder

            shared_embedder()
        if provider.model:
            models.append(("provider", provider.model))
    if judge_model:
        models.append(("judge", judge_model))
    return models


def check_keys(models: list[tuple[str, str]], api_base: str | None = None, api_key: str | None = None) -> None:
    """The LLM layer's credential check for every (role, model), with the configured api_base; a missing key is
    one ClarqError line naming the variable and the offline alternative for that role."""
    from ..llm import LLMCredentialsError, check_credentials
    from ..llm.models import missing_credentials

    for role, model in models:
        try:
            check_credentials([model], api_base=api_base, api_key=api_key)
        except LLMCredentialsError as exc:
            variable = " and ".join(missing_credentials(exc.model)) or "its API key"
            raise ClarqError(
                f"the {role} model {model} needs {variable}, which is not set",
                f"set {variable}, or pass {OFFLINE_FIX[role]} to run without it",
            ) from None


def open_client(models: list[tuple[str, str]], options: ModelCallOptions) -> Any:
    """The one door to a client for a command: an LLMClient for these (role, model) pairs, every key checked now
    (a pooled model's keys as --router names them) and, under --max-cost, every price known unless
    --allow-unpriced; None when no role calls a model."""
    if not models:
        return None
    from ..llm import LLMClient

    settings = options.settings()
    client = LLMClient(settings)  # reads --router: a bad file is one line here
    key = settings.api_key.get_secret_value() if settings.api_key else None
    check_keys(
        [(role, model) for role, model in models if not client.pooled(model)], api_base=settings.api_base, api_key=key
    )
    priced = []  # a pooled model is priced as its deployments' models
    for role, model in models:
        router = client.router
        if router is not None and client.pooled(model):
            missing = router.missing_keys(model)
            if missing:
                raise ClarqError(
                    f"the {role} model {model} needs {missing[0]} (named in --router), which is not set",
                    f"set {missing[0]}, or pass {OFFLINE_FIX[role]} to run without it",
                )
            priced += [(role, deployed) for deployed in router.deployment_models(model)]
        else:
            priced.append((role, model))
    if options.max_cost is not None:
        unpriced = unpriced_models(priced)
        if unpriced and not options.allow_unpriced:
            named = ", ".join(f"the {role} model {model}" for role, model in unpriced)
            raise ClarqError(
                f"--max-cost cannot work: no price is known for {named} (its calls would count as $0)",
                "pass --allow-unpriced to run anyway, or drop --max-cost",
            )
    return client


def unpriced_models(models: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """(role, model) of every model litellm's local price table does not price (scripted test models are free)."""
    from ..llm.accounting import call_cost, is_priced
    from ..llm.models import is_scripted, resolve_model

    out = []
    for role, model in models:
        resolved = resolve_model(model)
        if is_scripted(resolved):
            continue
        if call_cost(resolved, 1000, 1000) <= 0.0 or not is_priced(resolved):
            out.append((role, model))
    return out


def import_seeker_modules(files: list[str] | str | None) -> None:
    """Import each `--seeker-module` file (its `@register_seeker` classes then work as `--seeker NAME`)."""
    from ..core.registry import import_file

    for file in [files] if isinstance(files, str) else files or []:
        import_file(file)


def prepare(options: RunOptions) -> PreparedRun:
    """Everything before the first dialogue, once: config (the saved one on resume), tasks, both agents resolved
    (plan), credentials, run folder, and the config stamped (prepared.ready)."""
    from ..core.run_folder import RunDir

    if options.dry_run:
        raise ClarqError("dry_run: nothing would be played", "call clarq_bench.estimate_run(...) for the plan")
    if options.retry_errors and not options.resume:
        raise ClarqError("--retry-errors only applies to a resumed run", "pass --resume RUN_DIR --retry-errors")
    config, tasks, agents, models = plan(options)
    client = open_client(models, call_options(config, options))
    run_dir = run_dir_for(config, Path(options.runs_dir), options.resume)
    if not options.resume:  # a read-only or full runs folder is one line now, before the folder is announced
        RunDir(run_dir).create()
    return ready(config, tasks, client, run_dir, agents)


def new_run_id(config: RunConfig) -> str:
    """`20260101-120000-heuristic-offline-en-1a2b3c`: sortable, readable, unique enough."""
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    seeker = _name_part(config.seeker.model or config.seeker.name)
    provider = _name_part(config.provider.model or config.provider.name)
    return f"{stamp}-{seeker}-{provider}-{'+'.join(config.languages)}-{config.config_hash()[:6]}"


def _name_part(name: str) -> str:
    """A model or agent name as one safe path component: `openai/gpt-4o` -> `openai_gpt-4o`, `pkg.mod:C` -> `mod_C`."""
    tail = name.split(".")[-1] if ":" in name and "/" not in name else name  # an import path keeps module:Class
    return re.sub(r"[^A-Za-z0-9._+-]+", "_", tail).strip("._") or "agent"


def run_dir_for(config: RunConfig, runs_root: Path, resume: str | Path | None) -> Path:
    """The run directory: the one being resumed, or a new runs_root/<run-id> (suffixed when two start in one second)."""
    if resume:
        return Path(resume)
    base = Path(runs_root) / new_run_id(config)
    candidate, n = base, 1
    while candidate.exists():
        n += 1
        candidate = base.with_name(f"{base.name}-{n}")
    return candidate
