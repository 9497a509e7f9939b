"""The LLM provider ("Jax"): the paper's provider agent, driven by one structured model call per turn.

Behaviour follows the released agent (REFERENCE.md): a fixed greeting; before the root every seeker turn passes a
relatedness gate (related -> the root verbatim, else a fixed apology); after the root each seeker turn gets one of
six intents. Response I returns frontier node text verbatim (one node, or all chosen nodes in multi-info mode);
Response II is generated (intents 1, 3, 4, 6), fixed (5) or the fixed "enough" reply (frontier empty).

Cost: the released agent made a classification call plus up to three checks per frontier node, one after another.
Here one structured call returns intent, chosen frontier ids and a rationale; a Response I turn needs nothing more
and only a generated Response II makes a second call. The tree is the authority, not the model: ids outside the
frontier are discarded and recorded (`notes["refused_ids"]`); in single-info mode one node a turn is revealed (of the
model's choices, the first in the frontier's order, as the released provider chose). No lexical rule overrules the
model by default: the paper's provider is its model. `reading="strict"` (`--provider-reading strict`) adds the offline
provider's reading of the turn, its screen before the model and its focus rule after it (strict_reading.py), as a
recorded setting of its own; every turn notes its reading. So a turn makes at most MAX_SEQUENTIAL_CALLS (2) model
calls, one after the other, and never more: the leakage guard adds none. A generated reply that carries an unrevealed
node's content (leakage.py) loses the sentences that carry it, and when nothing clean is left it is replaced by a
safe template; the draft, the hits and the action are recorded in `notes["leak_guard"]`, their count in
`notes["guard_hits"]`. (The issue's "regenerate once" would be a third sequential call on a Response II turn; the
repair without a call keeps the two-call bound.) Every turn records the resolved model version, seed, temperature
(0), its calls (`calls`, `sequential_calls`) and the requests they took (`requests`, counting the LLM layer's JSON
re-asks after malformed output).

Real models: `clarq provider-eval --provider gpt-4o` (or any litellm model name, e.g. `anthropic/claude-3-5-sonnet`)
builds this provider through provider/factory.make_provider; litellm reads the usual key variables (OPENAI_API_KEY,
ANTHROPIC_API_KEY, ...), and `--provider-mode multi-info` selects the multi-info variant.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..core import prompts
from ..core.defaults import DEFAULT_SEED
from ..core.tasks import Task, node_sort_key
from ..core.transcript import Intent, ReplyKind, Speaker, Turn, Usage
from ..data.loader import strip_speaker
from .base import ProviderMode, ProviderReading, ProviderState, ProviderTurn
from .leakage import DEFAULT_MIN_SHARED, DEFAULT_THRESHOLD, find_leaks, redact_leaks
from .llm_schema import GateDecision, TurnDecision
from .strict_reading import FIXED_SCREEN_REPLIES, StrictReading, TurnReading

if TYPE_CHECKING:  # the LLM layer imports litellm; keep it out of import time
    from pydantic import BaseModel

    from ..llm import LLMClient

DEFAULT_MODEL = "gpt-4o"
TEMPERATURE = 0.0
#: Model calls one turn may make, one after the other: the decision, then (Response II only) the generation.
MAX_SEQUENTIAL_CALLS = 2
PROMPTS = "provider/"
#: Intents that get a generated Response II, and the instruction template each uses.
GENERATED = {
    Intent.confirm_task: "llm_reply_positive",
    Intent.unanswerable: "llm_reply_reassure",
    Intent.repeat: "llm_reply_repeat",
    Intent.vague: "llm_reply_reassure",
}
#: Task questions that get the fixed "enough" reply once the frontier is empty.
TASK_QUESTIONS = (Intent.answerable, Intent.unanswerable, Intent.vague)


class _Calls:
    """What one turn spent: completions in order (for usage, model version and the sequential count)."""

    def __init__(self) -> None:
        self.usage = Usage()
        self.count = 0
        self.requests = 0
        self.model: str | None = None

    def add(self, completion: Any) -> None:
        self.count += 1
        self.requests += int(getattr(completion, "asks", 1) or 1)
        usage = getattr(completion, "usage", None) or Usage()
        if usage.calls == 0 and usage.cached_calls == 0:  # a completion without usage (scripted) was still a call;
            usage = usage.model_copy(update={"calls": 1})  # a cache hit is a cached call, as for every other role
        self.usage = self.usage + usage
        self.model = getattr(completion, "model", None) or self.model


class LLMProvider:
    """Jax for one task, on one model. `respond` is pure in `turns`: state is recomputed from the dialogue."""

    def __init__(
        self,
        task: Task,
        client: LLMClient,
        *,
        model: str = DEFAULT_MODEL,
        mode: ProviderMode | str = ProviderMode.single,
        seed: int = DEFAULT_SEED,
        trial: int = 0,
        leak_threshold: float = DEFAULT_THRESHOLD,
        leak_min_shared: int = DEFAULT_MIN_SHARED,
        reading: ProviderReading | str = ProviderReading.model,
    ) -> None:
        self.task = task
        self.tree = task.tree
        self.language = task.language
        self.client = client
        self.model = model
        self.mode = ProviderMode(mode)
        self.seed = seed
        self.trial = trial
        self.leak_threshold = leak_threshold
        self.leak_min_shared = leak_min_shared
        self.role = task.brief.role or self._text("llm_default_role")
        self._lines: dict[tuple[bool, str], str] = {}  # (a seeker turn?, text) -> its line in the prompts
        self.reading = ProviderReading(reading)
        self.strict = StrictReading(task, self.mode) if self.reading == ProviderReading.strict else None

    # ----------------------------------------------------------------- wording
    def _text(self, name: str, **variables: object) -> str:
        return prompts.render(PROMPTS + name, self.language, **variables)

    def _dialogue(self, turns: list[Turn]) -> str:
        lines = []
        rendered = self._lines  # each turn's line is rendered once per dialogue, not once per model call
        for turn in turns:
            key = (turn.speaker == Speaker.seeker, turn.text)
            line = rendered.get(key)
            if line is None:
                if key[0]:
                    line = self._text("llm_line_seeker", role=self.role, text=turn.text.strip())
                else:
                    line = self._text("llm_line_provider", text=strip_speaker(turn.text))
                rendered[key] = line
            lines.append(line)
        return "\n".join(lines)

    def _said(self, state: ProviderState) -> str:
        texts = [self.tree.root.text] if state.root_given else []
        texts += [self.tree[node_id].text for node_id in state.revealed if node_id != self.tree.root.id]
        return "\n".join(f"- {text}" for text in texts) or self._text("llm_none")

    def _frontier(self, state: ProviderState) -> str:
        lines = []
        for node_id in state.frontier:
            node = self.tree[node_id]
            note = node.explanation or self._text("llm_no_note", role=self.role)
            lines.append(self._text("llm_node_line", id=node_id, text=node.text, note=note))
        return "\n".join(lines) or self._text("llm_none")

    def _hidden(self, state: ProviderState) -> str:
        done = set(state.revealed)
        texts = [node.text for node in self.tree.required if node.id not in done]
        return "\n".join(f"- {text}" for text in texts) or self._text("llm_none")

    # ------------------------------------------------------------------ turns
    def _notes(self, calls: _Calls, **extra: object) -> dict[str, object]:
        notes: dict[str, object] = {
            "model": calls.model or self._resolved_model(),
            "seed": self.seed,
            "temperature": TEMPERATURE,
            "mode": self.mode.value,
            "reading": self.reading.value,
            "calls": calls.count,
            "sequential_calls": calls.count,  # every call of a turn waits on the previous one
            "requests": calls.requests,  # calls plus the LLM layer's JSON re-asks
            "guard_hits": 0,  # unrevealed nodes the leakage guard found in a generated draft
        }
        notes.update(extra)
        return notes

    def _resolved_model(self) -> str:
        try:
            return str(self.client.resolve_model(self.model))
        except Exception:  # resolution is best effort for turns that made no call
            return self.model

    def _turn(
        self,
        text: str,
        kind: ReplyKind,
        calls: _Calls,
        *,
        intent: Intent | None = None,
        revealed: list[str] | None = None,
        **notes: object,
    ) -> ProviderTurn:
        return ProviderTurn(
            text=text,
            kind=kind,
            intent=intent,
            revealed=revealed or [],
            usage=calls.usage,
            notes=self._notes(calls, **notes),
        )

    def greeting(self) -> ProviderTurn:
        """Turn 0: the fixed greeting, no model call."""
        return self._turn(self._text("llm_greeting"), ReplyKind.greeting, _Calls())

    async def _ask(self, calls: _Calls, prompt: str, schema: type[BaseModel] | None) -> Any:
        completion = await self.client.complete(
            [{"role": "user", "content": prompt}],
            model=self.model,
            role="provider",
            schema=schema,
            temperature=TEMPERATURE,
            seed=self.seed,
            trial=self.trial,
        )
        calls.add(completion)
        if schema is None:
            return completion.text or ""
        parsed = completion.parsed
        return parsed if isinstance(parsed, schema) else schema.model_validate(parsed)

    async def respond(self, turns: list[Turn]) -> ProviderTurn:
        """Answer the seeker's latest turn (`turns[-1]`), given the whole dialogue so far."""
        state = ProviderState.from_turns(self.tree, turns)
        calls = _Calls()
        dialogue = self._dialogue(turns)
        if not state.root_given:
            return await self._gate(state, dialogue, calls)
        screened = self._shared_reading(turns, state)
        verdict = screened.verdict
        fixed = FIXED_SCREEN_REPLIES.get(verdict) if state.frontier and verdict else None
        if fixed is not None and verdict is not None:  # strict: a spray, an overlong or other-language turn, an
            # instruction: no call needed
            return self._turn(
                self._text(fixed), ReplyKind.response_ii, calls, intent=screened.intent, screen=verdict.value
            )
        prompt = self._decision_prompt(state, dialogue)  # the state and lines already read for this turn
        decision: TurnDecision = await self._ask(calls, prompt, TurnDecision)
        return await self._act(decision, state, dialogue, turns, calls, screened)

    def _shared_reading(
        self,
        turns: list[Turn],
        state: ProviderState,
        proposed: list[str] | None = None,
        before: TurnReading | None = None,
    ) -> TurnReading:
        """The one door to the offline provider's reading of a turn (strict reading only; the default reads nothing
        and refuses nothing). Without `proposed`: the screen before the model; with the model's frontier ids: what the
        reading lets through of them (and what it offers that the model missed)."""
        if self.strict is None:
            return TurnReading() if proposed is None else TurnReading(revealed=list(proposed), asked=list(proposed))
        return self.strict.read(turns, state.frontier, proposed, before)

    def decision_prompt(self, turns: list[Turn], offered: list[str] | None = None) -> str:
        """The post-root decision prompt for this dialogue; `offered` replaces the frontier (for cost estimates)."""
        state = ProviderState.from_turns(self.tree, turns)
        if offered is not None:
            state = state.model_copy(update={"frontier": list(offered)})
        return self._decision_prompt(state, self._dialogue(turns))

    def _decision_prompt(self, state: ProviderState, dialogue: str) -> str:
        return self._text(
            "llm_decide",
            role=self.role,
            task_name=self.task.brief.task_name,
            said=self._said(state),
            frontier=self._frontier(state),
            dialogue=dialogue,
            mode_rule=self._text("llm_mode_multi" if self.mode == ProviderMode.multi_info else "llm_mode_single"),
        )

    async def _gate(self, state: ProviderState, dialogue: str, calls: _Calls) -> ProviderTurn:
        prompt = self._text("llm_gate", role=self.role, task_name=self.task.brief.task_name, dialogue=dialogue)
        gate: GateDecision = await self._ask(calls, prompt, GateDecision)
        if gate.related:
            root = self.tree.root
            return self._turn(root.text, ReplyKind.root, calls, revealed=[root.id], rationale=gate.rationale)
        return self._turn(self._text("llm_off_topic"), ReplyKind.off_topic, calls, rationale=gate.rationale)

    def _gated(self, decision: TurnDecision, state: ProviderState) -> tuple[list[str], list[str], list[str]]:
        """Split the model's ids: frontier ids kept (deduplicated), already revealed, refused (anything else)."""
        kept: list[str] = []
        repeated: list[str] = []
        refused: list[str] = []
        for node_id in decision.node_ids:
            if node_id in state.frontier:
                if node_id not in kept:
                    kept.append(node_id)
            elif node_id in state.revealed or node_id == self.tree.root.id:
                repeated.append(node_id)
            else:
                refused.append(node_id)
        return kept, repeated, refused

    async def _act(
        self,
        decision: TurnDecision,
        state: ProviderState,
        dialogue: str,
        turns: list[Turn],
        calls: _Calls,
        screened: TurnReading,
    ) -> ProviderTurn:
        intent = Intent(decision.intent)
        kept, repeated, refused = self._gated(decision, state)
        facts: dict[str, Any] = {  # the turn's notes (JSON values)
            "decision": decision.model_dump(mode="json"),
            "rationale": decision.rationale,
        }
        if refused:
            facts["refused_ids"] = refused  # outside the frontier: the tree forbids them now
        if screened.blocks_reveal:  # strict: the shared screen overrules the model, this turn may reveal nothing
            facts["screen"] = screened.verdict.value  # type: ignore[union-attr]
            if kept:
                facts["screened_ids"] = kept
            kept = []
            if screened.intent is not None:
                intent = screened.intent
            elif intent == Intent.answerable:
                intent = Intent.confirm_task  # nothing was asked (no question or request in the turn)
        read = self._shared_reading(turns, state, kept, screened)
        if [node_id for node_id in kept if node_id not in read.asked]:
            facts["unfocused_ids"] = [node_id for node_id in kept if node_id not in read.asked]
        if [node_id for node_id in read.asked if node_id not in read.revealed]:
            facts["dropped_ids"] = [node_id for node_id in read.asked if node_id not in read.revealed]
        if [node_id for node_id in read.revealed if node_id not in kept]:
            facts["offered_ids"] = [node_id for node_id in read.revealed if node_id not in kept]
            intent = Intent.answerable
        kept = list(read.revealed)
        if self.mode == ProviderMode.single and len(kept) > 1:  # the tree's rule: one node a turn, the first in the
            first = min(kept, key=state.frontier.index)  # frontier's order (the released provider's node choice)
            facts["dropped_ids"] = [node_id for node_id in kept if node_id != first]
            kept = [first]
        if intent in (Intent.answerable, Intent.unanswerable) and kept:
            chosen = kept
            ordered = sorted(chosen, key=node_sort_key) if len(chosen) > 1 else chosen
            joiner = "" if self.language == "zh" else " "
            text = joiner.join(self.tree[node_id].text for node_id in ordered)
            return self._turn(text, ReplyKind.response_i, calls, intent=Intent.answerable, revealed=ordered, **facts)
        if kept:
            facts["ignored_ids"] = kept  # only clear questions (intents 2/3) may release a node
        if intent == Intent.answerable:
            intent = Intent.repeat if repeated and not refused else Intent.unanswerable
            facts["intent_changed"] = f"{decision.intent}->{int(intent)}"
        if intent == Intent.unrelated:
            return self._turn(self._text("llm_unrelated"), ReplyKind.response_ii, calls, intent=intent, **facts)
        if not state.frontier and intent in TASK_QUESTIONS:
            return self._turn(self._text("llm_enough"), ReplyKind.enough, calls, intent=intent, **facts)
        instruction = GENERATED[intent]
        if intent == Intent.confirm_task and decision.summary_confirmation:
            instruction = "llm_reply_summary"
        facts["instruction"] = instruction
        text = await self._generate(instruction, state, dialogue, turns, calls, facts)
        return self._turn(text, ReplyKind.response_ii, calls, intent=intent, **facts)

    async def _generate(
        self,
        instruction: str,
        state: ProviderState,
        dialogue: str,
        turns: list[Turn],
        calls: _Calls,
        facts: dict[str, object],
    ) -> str:
        """Response II in one call, behind the leakage guard: a leaking draft loses its leaking sentences, or is
        replaced by the safe template when nothing clean is left. No further call (MAX_SEQUENTIAL_CALLS)."""
        said = [turn.text for turn in turns if turn.speaker == Speaker.provider]
        prompt = self._text(
            "llm_reply",
            role=self.role,
            task_name=self.task.brief.task_name,
            said=self._said(state),
            dialogue=dialogue,
            instruction=self._text(instruction),
            hidden=self._hidden(state),
        )
        text = strip_speaker(await self._ask(calls, prompt, None))
        if not text:
            facts["leak_fallback"] = True  # nothing to say is no leak, but the seeker still gets a reply
            facts["empty_draft"] = True
            return self._text("llm_safe")
        hits = find_leaks(
            text,
            self.tree,
            state.revealed,
            self.language,
            said=said,
            threshold=self.leak_threshold,
            min_shared=self.leak_min_shared,
        )
        if not hits:
            return text
        repaired, dropped = redact_leaks(
            text,
            hits,
            self.tree,
            state.revealed,
            self.language,
            said=said,
            threshold=self.leak_threshold,
            min_shared=self.leak_min_shared,
        )
        facts["guard_hits"] = len(hits)
        facts["leak_guard"] = {
            "draft": text,
            "hits": [hit._asdict() for hit in hits],
            "dropped": dropped,
            "action": "repaired" if repaired else "safe_template",
        }
        if repaired:
            return repaired
        facts["leak_fallback"] = True
        return self._text("llm_safe")
