"""`--router FILE.yaml`: litellm Router's model_list format, read and checked with pydantic.

Why a file: one logical model name (what `--seeker` / `--provider` name) may stand for many deployments (several
keys, regions, a pool of vLLM servers), each with its own api_base, key variable, rpm/tpm and weight; routing
strategy, retries, fallbacks and cool-down come from the same file, as litellm's proxy config has them.

Keys are never in the file: `api_key: os.environ/VAR` names a variable, read when a call is sent, so no key reaches
the run config, a transcript, the cache key or a log. What identifies a pool is its deployment list (model,
normalized api_base, weight, rpm, tpm, max_parallel_requests), hashed into the config hash and the cache key.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from ..core.errors import ClarqError
from ..core.redact import SECRET_KEY, redact, register_secret
from .endpoint import normalize_endpoint

ENV_PREFIX = "os.environ/"
#: litellm Router strategies clarq drives: the weighted shuffle (weight, else rpm, else tpm, as litellm weighs it).
#: The others (least-busy, usage- and latency-based) learn from litellm's own call path, which clarq does not use.
STRATEGIES = ("simple-shuffle",)


class DeploymentParams(BaseModel):
    """One deployment's litellm_params. Other litellm settings (region, api_version, ...) are passed on as given."""

    model_config = ConfigDict(extra="allow")

    model: str = Field(min_length=1, description="litellm model string, e.g. hosted_vllm/llama-3-70b, openai/gpt-4o.")
    api_base: str | None = None
    api_key: str | None = Field(None, description="os.environ/VARIABLE; never a key itself.")
    rpm: int | None = Field(None, gt=0)
    tpm: int | None = Field(None, gt=0)
    weight: float | None = Field(None, gt=0)
    max_parallel_requests: int | None = Field(None, ge=1, description="Starting cap on this deployment's calls.")

    @field_validator("api_key")
    @classmethod
    def _key_from_environment(cls, value: str | None) -> str | None:
        if value is not None and not (value.startswith(ENV_PREFIX) and len(value) > len(ENV_PREFIX)):
            raise ValueError("must be os.environ/VARIABLE (clarq reads keys from the environment, never from files)")
        return value

    @field_validator("api_base")
    @classmethod
    def _url(cls, value: str | None) -> str | None:
        try:
            normalize_endpoint(value)
        except ClarqError:
            raise ValueError(f"not a URL: {value!r}") from None
        return value

    @model_validator(mode="after")
    def _no_literal_secrets(self) -> DeploymentParams:
        """Other litellm settings may carry credentials too (aws_secret_access_key, extra_headers' Authorization,
        vertex_credentials, ...): they must name a variable, like api_key, or the key would sit in a file."""
        for name, value in (self.model_extra or {}).items():
            where = [(name, value)]
            if isinstance(value, dict):
                where = [(f"{name}.{key}", inner) for key, inner in value.items()]
            for field, inner in where:
                if not isinstance(inner, str) or inner.startswith(ENV_PREFIX):
                    continue
                if SECRET_KEY.search(field.rsplit(".", 1)[-1]) or SECRET_KEY.search(name) or redact(inner) != inner:
                    raise ValueError(
                        f"{field} holds a literal secret: write os.environ/VARIABLE (clarq reads "
                        "keys from the environment, never from files)"
                    )
        return self

    def extra_params(self) -> dict[str, Any]:
        """The other litellm settings, each `os.environ/VAR` (at any depth one level down) read from the
        environment now."""

        def value(inner: Any) -> Any:
            if isinstance(inner, str) and inner.startswith(ENV_PREFIX):
                return _read_variable(inner[len(ENV_PREFIX) :]) or ""
            return inner

        out: dict[str, Any] = {}
        for name, inner in (self.model_extra or {}).items():
            out[name] = {k: value(v) for k, v in inner.items()} if isinstance(inner, dict) else value(inner)
        return out

    @property
    def key_variable(self) -> str | None:
        return self.api_key[len(ENV_PREFIX) :] if self.api_key else None

    def key(self) -> str | None:
        """The key, read from the environment now (None when the deployment names no variable or it is unset)."""
        return _read_variable(self.key_variable) if self.key_variable else None

    def variables(self) -> list[str]:
        """Every environment variable this deployment names (its key and its other settings')."""
        named = [self.key_variable] if self.key_variable else []
        for inner in (self.model_extra or {}).values():
            for value in inner.values() if isinstance(inner, dict) else [inner]:
                if isinstance(value, str) and value.startswith(ENV_PREFIX):
                    named.append(value[len(ENV_PREFIX) :])
        return named


def _read_variable(name: str) -> str | None:
    """A variable a router file names, registered with the redactor as it is read: whatever its name, its value is
    a credential clarq was told to send, and an endpoint may echo it back."""
    value = os.environ.get(name)
    register_secret(value)
    return value


class ModelInfo(BaseModel):
    model_config = ConfigDict(extra="allow")

    id: str | None = Field(None, min_length=1, description="The deployment's name in transcripts (default NAME#i).")


class Deployment(BaseModel):
    model_config = ConfigDict(extra="forbid")

    model_name: str = Field(min_length=1, description="The logical name roles use.")
    litellm_params: DeploymentParams
    model_info: ModelInfo = Field(default_factory=ModelInfo)


class RouterSettings(BaseModel):
    """The router_settings litellm documents that clarq honours."""

    model_config = ConfigDict(extra="forbid")

    routing_strategy: Literal[STRATEGIES] = "simple-shuffle"  # type: ignore[valid-type]
    num_retries: int | None = Field(None, ge=0, description="Retries per call (default: clarq's --max-attempts).")
    fallbacks: list[dict[str, list[str]]] = Field(default_factory=list, description="[{pool: [other pools]}]")
    allowed_fails: int | None = Field(None, ge=0, description="Failures per minute before a cool-down.")
    cooldown_time: float | None = Field(None, ge=0, description="Seconds a failing deployment is left out.")


class RouterFile(BaseModel):
    model_config = ConfigDict(extra="forbid")

    model_list: list[Deployment] = Field(min_length=1)
    router_settings: RouterSettings = Field(default_factory=RouterSettings)

    def ids(self) -> list[str]:
        """Every deployment's id: model_info.id, else `<model_name>#<i>` (i counts within the model name)."""
        seen: dict[str, int] = {}
        out = []
        for deployment in self.model_list:
            index = seen.get(deployment.model_name, 0)
            seen[deployment.model_name] = index + 1
            out.append(deployment.model_info.id or f"{deployment.model_name}#{index}")
        return out

    def names(self) -> list[str]:
        return list(dict.fromkeys(d.model_name for d in self.model_list))

    def fallbacks_of(self, name: str) -> list[str]:
        return [other for entry in self.router_settings.fallbacks for other in entry.get(name, [])]

    def describe(self, name: str) -> list[dict[str, Any]]:
        """The deployments of `name` and of its fallbacks as recorded (no keys: the variable name at most)."""
        groups = [name] + [other for other in self.fallbacks_of(name) if other != name]
        out = []
        for group in groups:
            for ident, deployment in zip(self.ids(), self.model_list):
                if deployment.model_name == group:
                    params = deployment.litellm_params
                    out.append(
                        {
                            "pool": group,
                            "id": ident,
                            "model": params.model,
                            "api_base": normalize_endpoint(params.api_base),
                            "weight": params.weight,
                            "rpm": params.rpm,
                            "tpm": params.tpm,
                            "max_parallel_requests": params.max_parallel_requests,
                        }
                    )
        return out

    def identity(self, name: str) -> str:
        """`router:<name>:<hash of its deployment list>`: the endpoint of a pooled model in cache keys and records."""
        blob = json.dumps(self.describe(name), sort_keys=True, separators=(",", ":"))
        return f"router:{name}:{hashlib.sha256(blob.encode()).hexdigest()[:16]}"


def load_router_file(path: str | Path) -> RouterFile:
    """The checked router file; any problem is one ClarqError line naming the file and the field."""
    import yaml

    where = Path(path)
    try:
        data = yaml.safe_load(where.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ClarqError(
            f"--router {where}: cannot read it ({exc.strerror or exc})", "pass a readable YAML file"
        ) from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = f" line {mark.line + 1}" if mark is not None else ""
        raise ClarqError(f"--router {where}:{line} is not valid YAML", "check the indentation and quoting") from None
    if not isinstance(data, dict):
        raise ClarqError(f"--router {where}: expected a mapping with model_list", "see README, Scale out")
    try:
        spec = RouterFile.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        field = ".".join(str(part) for part in first["loc"]) or "file"
        raise ClarqError(f"--router {where}: {field}: {first['msg']}", "see README, Scale out for the format") from None
    ids = spec.ids()
    if len(set(ids)) != len(ids):
        duplicate = next(ident for ident in ids if ids.count(ident) > 1)
        raise ClarqError(f"--router {where}: deployment id {duplicate!r} is used twice", "give each a unique id")
    for entry in spec.router_settings.fallbacks:
        for source, targets in entry.items():
            unknown = [name for name in [source, *targets] if name not in spec.names()]
            if unknown:
                raise ClarqError(
                    f"--router {where}: fallback names {unknown[0]!r}, which model_list does not have",
                    "fallbacks name model_name entries of the same file",
                )
    for deployment in spec.model_list:  # known to the redactor before any call is sent
        for name in deployment.litellm_params.variables():
            _read_variable(name)
    return spec
