"""Seeker names -> factories, and how a `--seeker` value becomes a Seeker for one task.

A factory is any callable `(task, config) -> Seeker` (a class whose __init__ takes those two works), registered by
`@register_seeker("name")`, by the `clarq.seekers` entry-point group, or named on the CLI as `package.module:Class`.
Factories receive a SeekerTask (id, language, type, brief) -- never the response tree -- unless they declare
`needs_tree = True` (the oracle, an upper bound built from the tree, is the one shipped exception).

Name resolution for `--seeker NAME` (in order): a registered name; `package.module:Class`; a name that looks like a
model (has a `/`, as in `openai/gpt-4o`, or starts with a known model family such as gpt-, o1, claude, gemini,
llama, qwen, deepseek, mistral, ernie) is the `llm` seeker on that model; anything else is an unknown-seeker error.
`resolve_seeker` applies it once and returns a SeekerSpec (recorded name and model, factory, the SeekerConfig its
seekers are built with); a run resolves its seeker once (runner/prepared.py) and builds every dialogue's from it.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any, Literal, NamedTuple

from pydantic import BaseModel, ConfigDict, Field

from ..core.errors import ClarqError
from ..core.registry import (
    Registry,
    import_object,
    looks_like_import_path,
    looks_like_model,
)
from ..core.run_config import AgentSettings
from ..core.tasks import Language, Task, TaskBrief
from .base import Seeker

SeekerFactory = Callable[..., Seeker]

seekers: Registry[SeekerFactory] = Registry("seeker", entry_point_group="clarq.seekers")

#: Shipped seekers, imported only when used (`clarq --help` must not import them).
BUILTIN = {
    "llm": "clarq_bench.seekers.llm:LLMSeeker",
    "no-question": "clarq_bench.seekers.baselines:NoQuestionSeeker",
    "oracle": "clarq_bench.seekers.oracle:OracleSeeker",
    "heuristic": "clarq_bench.seekers.baselines:HeuristicSeeker",
    "replay": "clarq_bench.seekers.replay:ReplaySeeker",
    "human": "clarq_bench.seekers.human:HumanSeeker",
    "human-web": "clarq_bench.seekers.web_human:WebHumanSeeker",
}
#: The red-team suite (seekers/adversarial.py): fixed strategies with no clarification skill, for
#: `clarq provider-audit`. Kept in step with adversarial.STRATEGIES (a test checks it).
REDTEAM = {
    "red-keyword-each": "KeywordEachSeeker",
    "red-keyword-one": "KeywordOneSeeker",
    "red-keyword-list": "KeywordListSeeker",
    "red-option-spray": "OptionSpraySeeker",
    "red-brief-dump": "BriefDumpSeeker",
    "red-content-free": "ContentFreeSeeker",
    "red-injection": "InjectionSeeker",
    "red-same-turn": "SameTurnSeeker",
    "red-echo": "EchoSeeker",
    "red-long": "LongTurnSeeker",
    "red-other-language": "OtherLanguageSeeker",
}
#: Enumeration strategies (also seekers/adversarial.py): one or two listed options, one kind of them or one clause
#: of Jax's answers per turn, plausibly worded, walking the whole brief or answer. The audit reports them apart: the released provider answers such questions too.
ENUMERATION = {
    "enum-one-each": "OneEachSeeker",
    "enum-pairs": "PairsSeeker",
    "enum-kinds": "KindsSeeker",
    "enum-clauses": "ClauseWalkSeeker",
    "enum-steps": "StepWalkSeeker",
    "enum-probes": "ProbeWalkSeeker",
    "enum-scrambled": "ScrambledWalkSeeker",
    "enum-telegraphic": "TelegraphicWalkSeeker",
    "enum-kind-words": "KindWordsSeeker",
    "enum-kind-how": "KindHowSeeker",
}
#: The template family (seekers/templates.py): any spec `tpl-<form>+q..+n..+<source>...` names a member; these
#: named members are known attacks on a provider. Kept in step with templates.MEMBERS (a test checks it).
TEMPLATE_PREFIX = "tpl-"
TEMPLATE_SEEKER = "clarq_bench.seekers.templates:TemplateSeeker"
TEMPLATE_SPEC_CHECK = "clarq_bench.seekers.templates:parse_spec"
TEMPLATES = {
    "tpl-wh-six": "TplWhSixSeeker",
    "tpl-wh-six-generic": "TplWhSixGenericSeeker",
    "tpl-sentence-four": "TplSentenceFourSeeker",
    "tpl-one-each-step": "TplOneEachStepSeeker",
    "tpl-reply-exactly": "TplReplyExactlySeeker",
    "tpl-choice-pairs": "TplChoicePairsSeeker",
    "tpl-list-four": "TplListFourSeeker",
}
#: Held-out red team (seekers/packed.py): many asks packed into one turn by "and", commas, semicolons, slashes, lines,
#: bullets, two scripts or one long sentence. Not in the default audit, so a provider is measured on packings it was
#: not tuned against (benchmarks/packed_asks.py plays them). Kept in step with packed.MEMBERS (a test checks it).
PACKED = {
    "pack-and": "PackAndSeeker",
    "pack-comma": "PackCommaSeeker",
    "pack-semicolon": "PackSemicolonSeeker",
    "pack-slash": "PackSlashSeeker",
    "pack-lines": "PackLinesSeeker",
    "pack-bullets": "PackBulletsSeeker",
    "pack-mixed": "PackMixedSeeker",
    "pack-long": "PackLongSeeker",
    "pack-bounded": "PackBoundedSeeker",
}
for _name, _spec in [
    *BUILTIN.items(),
    *((n, f"clarq_bench.seekers.packed:{c}") for n, c in PACKED.items()),
    *((n, f"clarq_bench.seekers.adversarial:{c}") for n, c in {**REDTEAM, **ENUMERATION}.items()),
    *((n, f"clarq_bench.seekers.templates:{c}") for n, c in TEMPLATES.items()),
]:
    seekers.add_lazy(_name, _spec)


def is_template_spec(name: str) -> bool:
    """Does `name` name a member of the template family by its parameters (`tpl-wh+q6+n1+brief`)?"""
    return name.startswith(TEMPLATE_PREFIX) and "+" in name


def register_seeker(name: str) -> Callable[[SeekerFactory], SeekerFactory]:
    """Decorator: register a seeker factory (usually a class taking `(task, config)`) under `name`."""
    return seekers.register(name)


class SeekerTask(BaseModel):
    """What a seeker factory is given about its task: everything but the response tree."""

    model_config = ConfigDict(frozen=True)

    id: str
    language: Language
    type_number: int
    brief: TaskBrief

    @classmethod
    def of(cls, task: Task) -> SeekerTask:
        return cls(id=task.id, language=task.language, type_number=task.type_number, brief=task.brief)


class SeekerConfig(BaseModel):
    """Settings of the seeker side of a run (recorded in config.json) plus the runtime LLM client (not recorded)."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    name: str = Field(description="Registered name, `package.module:Class`, or a model name for the llm seeker.")
    model: str | None = Field(default=None, description="Model for LLM-backed seekers (litellm name).")
    mode: Literal["completion", "chat"] = Field(default="completion", description="llm seeker prompt layout.")
    temperature: float = 0.0
    max_tokens: int | None = None
    replay: str | None = Field(default=None, description="replay seeker: transcripts.jsonl or released results file.")
    max_questions: int = Field(default=10, description="heuristic seeker: questions before it says goodbye.")
    options: dict[str, Any] = Field(default_factory=dict, description="Free-form settings for custom seekers.")
    client: Any = Field(default=None, exclude=True, description="LLMClient for LLM-backed seekers (runtime only).")

    def recorded(self) -> dict[str, Any]:
        """The reproducible part (what goes into config.json and the config hash)."""
        return self.model_dump(mode="json", exclude={"client"})


class SeekerSpec(NamedTuple):
    """A `--seeker` value resolved once, at the door: the name and model transcripts record (`--seeker gpt-4o` is
    ("llm", "gpt-4o")), the factory, and the config every dialogue's seeker is built with."""

    name: str
    model: str | None
    factory: SeekerFactory
    config: SeekerConfig

    @property
    def tree_access(self) -> bool:
        """Does the factory see the response tree (`needs_tree = True`: the oracle)?"""
        return bool(getattr(self.factory, "needs_tree", False))

    def with_client(self, client: Any) -> SeekerSpec:
        """The same seeker with the run's LLM client (opened after the names were resolved)."""
        return self._replace(config=self.config.model_copy(update={"client": client}))

    def build(self, task: Task) -> Seeker:
        """A fresh seeker for one task. Only factories with `needs_tree = True` are given the full Task."""
        given: Task | SeekerTask = task if self.tree_access else SeekerTask.of(task)
        seeker = _call_factory(self.factory, given, self.config)
        if not callable(getattr(seeker, "respond", None)):
            raise ClarqError(
                f"seeker {self.config.name!r} built an object without `async respond(view)`", "see the Seeker protocol"
            )
        return seeker


def _route(name: str) -> Literal["registered", "template", "import", "model"] | None:
    """The one rule for a seeker name, in order: registered, template spec, import path, model name; None: unknown."""
    if name in seekers:
        return "registered"
    if is_template_spec(name):
        return "template"
    if looks_like_import_path(name):
        return "import"
    return "model" if looks_like_model(name) else None


def resolve_seeker(seeker: SeekerConfig | AgentSettings | str, client: Any = None) -> SeekerSpec:
    """The one place a seeker name is resolved: its factory, the name and model transcripts record, and the config
    to build it with (run settings become a SeekerConfig here, once). An unknown name, a bad template spec or an
    import path that names nothing callable is one ClarqError, before any dialogue."""
    config = seeker_config(seeker, client)
    name = config.name
    route = _route(name)
    if route == "registered":
        factory: Any = seekers.get(name)
    elif route == "template":  # the class reads its parameters from the name: a bad spec is one ClarqError, now
        import_object(TEMPLATE_SPEC_CHECK)(name)  # type: ignore[operator]
        factory = import_object(TEMPLATE_SEEKER)
    elif route == "import":
        factory = import_object(name)
        if not callable(factory):
            raise ClarqError(f"{name} is not a class or function", "name a seeker class as package.module:Class")
    elif route == "model":
        return SeekerSpec("llm", name, seekers.get("llm"), config.model_copy(update={"model": name}))
    else:
        raise unknown_seeker(name)
    check_protocol(name, factory)
    return SeekerSpec(name, config.model, factory, config)


def check_protocol(name: str, factory: Any) -> None:
    """A class that cannot be a seeker is refused now, in one line, instead of failing every dialogue of the run:
    it needs an `async def respond(self, view) -> str`. (A factory function is checked by what it builds.)"""
    if not inspect.isclass(factory):
        return
    respond = inspect.getattr_static(factory, "respond", None)
    how = "a seeker is a class with `async def respond(self, view) -> str` (see `clarq seekers`)"
    if respond is None:
        raise ClarqError(f"seeker {name}: {factory.__qualname__} has no respond method", how)
    if isinstance(respond, (staticmethod, classmethod)):
        respond = respond.__func__
    if not callable(respond) or not (inspect.iscoroutinefunction(respond) or _returns_awaitable(respond)):
        raise ClarqError(f"seeker {name}: {factory.__qualname__}.respond is not async", how)


def _returns_awaitable(function: Any) -> bool:
    """A respond that is not `async def` but says it returns an awaitable (a wrapper, a Cython class) is let through."""
    hint = str(getattr(function, "__annotations__", {}).get("return", ""))
    return any(word in hint for word in ("Awaitable", "Coroutine"))


def seeker_config(seeker: SeekerConfig | AgentSettings | str, client: Any = None) -> SeekerConfig:
    """What a factory is given: a run's recorded AgentSettings (replay and max_questions travel in its options),
    a bare name, or a SeekerConfig as it is; with the run's client when one is passed."""
    if isinstance(seeker, str):
        config = SeekerConfig(name=seeker)
    elif isinstance(seeker, AgentSettings):
        options = dict(seeker.options)
        config = SeekerConfig(
            name=seeker.name,
            model=seeker.model,
            mode=seeker.mode or "completion",
            temperature=seeker.temperature,
            max_tokens=seeker.max_tokens,
            replay=options.pop("replay", None),
            max_questions=int(options.pop("max_questions", 10)),
            options=options,
        )
    else:
        config = seeker
    return config.model_copy(update={"client": client}) if client is not None else config


#: Model names offered as suggestions for a mistyped --seeker (besides the short names of llm/models.py).
COMMON_MODELS = (
    "gpt-4o",
    "gpt-4o-mini",
    "gpt-4.1",
    "gpt-4.1-mini",
    "o3-mini",
    "claude-3-5-sonnet-20240620",
    "gemini-1.5-pro",
    "llama3.1-405b",
    "qwen2.5-72b-instruct",
    "deepseek-chat",
)


def unknown_seeker(name: str) -> ClarqError:
    """One line: the close seeker names and model names (`gtp-4o` -> the model gpt-4o), then the known seekers."""
    import difflib

    from ..llm.models import ALIASES

    known = seekers.names()
    models = sorted({*ALIASES, *COMMON_MODELS})
    close = difflib.get_close_matches(name, [*known, *models], n=3, cutoff=0.6)
    named = [f"the model {c}" if c in models and c not in known else c for c in close]
    hint = f"did you mean {' or '.join(named)}? " if named else ""
    return ClarqError(
        f"unknown seeker {name!r}",
        f"{hint}known: {', '.join(known)}; or a model name "
        "such as gpt-4o or provider/model; a seeker of your own file: --seeker-module FILE.py",
    )


def describe(config: SeekerConfig) -> tuple[str, str | None]:
    """(registry name, model) as recorded in transcripts, by the same rule without importing anything: for names
    read from files (a submission's settings), where resolve_seeker would import."""
    if _route(config.name) == "model":
        return "llm", config.name
    return config.name, config.model


def build_seeker(name: str, task: Task, config: SeekerConfig | None = None) -> Seeker:
    """A fresh seeker for one task (resolve_seeker(...).build(task) for callers that build one seeker)."""
    return resolve_seeker((config or SeekerConfig(name=name)).model_copy(update={"name": name})).build(task)


def _call_factory(factory: SeekerFactory, task: Task | SeekerTask, config: SeekerConfig) -> Seeker:
    """Call with (task, config), (task) or () depending on what the factory accepts."""
    try:
        arity = _ARITY[factory]
    except (KeyError, TypeError):  # not seen yet, or not hashable
        arity = _arity(factory)
        if len(_ARITY) >= 1024:  # factories made afresh per call (a plug-in's lambdas) do not pile up
            _ARITY.clear()
        try:
            _ARITY[factory] = arity
        except TypeError:
            pass
    if arity == 2:
        return factory(task, config)
    if arity == 1:
        return factory(task)
    return factory()


#: factory -> how many arguments _call_factory passes it (read once per factory, not once per dialogue)
_ARITY: dict[object, int] = {}


def _arity(factory: SeekerFactory) -> int:
    try:
        parameters = inspect.signature(factory).parameters.values()
    except (TypeError, ValueError):
        return 2
    positional = [p for p in parameters if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    if any(p.kind == p.VAR_POSITIONAL for p in parameters) or len(positional) >= 2:
        return 2
    return len(positional)


#: Seekers that exist to test a provider or to serve a command, not to be picked as the system under test:
#: `clarq seekers` lists them only with --all.
INTERNAL = frozenset({"human-web"})


def seeker_group(name: str) -> str:
    """What a user would pick the seeker for: "seeker" (baselines, model seekers, people, your own), "attacker"
    (red team, enumeration, template attackers: they test a provider) or "internal" (served by another command)."""
    if name in REDTEAM or name in ENUMERATION or name.startswith(TEMPLATE_PREFIX):
        return "attacker"
    return "internal" if name in INTERNAL else "seeker"


def seeker_summary() -> list[tuple[str, str]]:
    """(name, one-line description) for every registered seeker, for `clarq seekers`."""
    rows = []
    for name in seekers.names():
        try:
            factory = seekers.get(name)
            doc = (inspect.getdoc(factory) or "").strip().split("\n\n")[0]
            rows.append((name, " ".join(doc.split())))
        except ClarqError as exc:
            rows.append((name, f"(cannot load: {exc})"))
    return rows
