"""What a provider name means, decided in one place: `offline` and `offline-e5` (registered on core.registry),
`llm` with a model, `package.module:Class` (the import-path rule), or a model name (the model-name rule: `vendor/model`
or a known family, as for seekers). `resolve_provider` turns a name into one ProviderSpec (kind, model, fingerprint,
build); every caller that used to test the name itself (runner, setup, run identity, fidelity, `clarq play`,
verify, consistency) asks the spec instead.

It decides nothing about replies: the offline provider's decision lives in offline/ and the modules it imports.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from ..core.errors import ClarqError
from ..core.provider_names import Kind  # recorded_kind: asked here too
from ..core.provider_names import recorded_kind as recorded_kind
from ..core.registry import import_object, looks_like_import_path, looks_like_model
from ..core.tasks import Task
from .base import Provider, ProviderMode, ProviderReading
from .identity import provider_fingerprint
from .kinds import OFFLINE


class ProviderSpec(NamedTuple):
    """A provider name, resolved: its kind, the model it calls (llm only) and whether it embeds (offline-e5)."""

    kind: Kind
    name: str
    model: str | None = None
    embeddings: bool = False

    @property
    def offline(self) -> bool:
        return self.kind == "offline"

    def fingerprint(self, mode: str | None) -> str | None:
        """The offline provider's build digest (provider/identity.py) in `mode`; None for the others."""
        return provider_fingerprint(self.name, mode) if self.offline else None

    def reading(self, options: Mapping[str, Any] | None) -> str | None:
        """The reading an LLM provider plays with (`options["reading"]`, default `model`: its model decides); None for
        a provider without one. A reading other than model/strict, or one asked of another provider, is a
        ClarqError."""
        asked = (options or {}).get("reading")
        if self.kind != "llm":
            if asked is not None:
                raise ClarqError(
                    f"--provider-reading applies to an LLM provider, not {self.name}",
                    "drop --provider-reading, or pass a model name as --provider",
                )
            return None
        try:
            return ProviderReading(asked or ProviderReading.model).value
        except ValueError:
            raise ClarqError(f"unknown provider reading {asked!r}", "pass --provider-reading model or strict") from None

    def build(
        self,
        task: Task,
        mode: ProviderMode | str | None = None,
        *,
        client: Any = None,
        settings: Any = None,
        **options: Any,
    ) -> Provider:
        """A provider for one dialogue: an import path is called with (task, settings); the offline provider gets
        the mode; an LLM provider gets the client (else one with default settings), seed, trial and `options`."""
        if self.kind == "import":
            return import_object(self.name)(task, settings)  # type: ignore[operator]  # checked callable when resolved
        mode = ProviderMode(mode or ProviderMode.single)
        if self.offline:
            from .offline.provider import OfflineProvider

            return OfflineProvider(task, multi_info=mode == ProviderMode.multi_info, embeddings=self.embeddings)
        from .llm_provider import LLMProvider

        if client is None:
            from ..llm import LLMClient, LLMSettings

            client = LLMClient(LLMSettings())
        assert self.model is not None, "an LLM provider spec always names its model (resolve_provider)"
        return LLMProvider(task, client, model=self.model, mode=mode, **options)


def resolve_provider(name: str, model: str | None = None, *, check_import: bool = True) -> ProviderSpec:
    """The one rule. An unknown name is a ClarqError (exit 2) before any dialogue: `--provider gtp-4o` is one line,
    not 260 failed dialogues. `check_import` imports an import path to see that it names something callable."""
    if name in OFFLINE:
        return ProviderSpec("offline", name, embeddings=OFFLINE.get(name))
    if name == "llm":
        if not model:
            raise ClarqError("the llm provider needs a model", "pass --provider MODEL or --provider-model MODEL")
        return ProviderSpec("llm", name, model)
    if looks_like_import_path(name):
        if check_import and not callable(import_object(name)):
            raise ClarqError(f"{name} is not a class or function", "name a provider class as package.module:Class")
        return ProviderSpec("import", name)
    if looks_like_model(name):
        return ProviderSpec("llm", name, name)
    known = ", ".join(OFFLINE.names())
    raise ClarqError(
        f"unknown provider {name!r}: not {known}, a model name or package.module:Class",
        "check the spelling, e.g. --provider gpt-4o, --provider openai/MODEL or --provider offline",
    )
