"""The offline provider: plays "Jax" from the response tree with rules and lexical matching, no language model.

Flow per seeker turn (state is re-derived from the dialogue each time, see base.ProviderState):
- before the root: a related turn gets the root verbatim, an unrelated one a fixed off-topic reply;
- frontier empty: "you already have enough" for task talk, the unrelated reply otherwise;
- otherwise the linear model picks the frontier node(s) the turn asks about (first one, or all in multi-info mode) and
  returns them verbatim (Response I, intent 2); with no pick the intent rules choose a Response II template.
Deterministic and fast (well under 20 ms per turn); no network, no model, so `clarq` runs with no API key.
`offline-e5` is the same provider with sentence-embedding features added to the linear model (embeddings.py, an
optional extra): a little closer to the reference on single-info dialogues, ~20-30 ms slower per turn.
"""

from __future__ import annotations

import asyncio

from ...core.tasks import ROOT_ID, Task
from ...core.transcript import Intent, ReplyKind, Speaker, Turn
from .. import replies
from ..answering import read_turn
from ..base import ProviderState, ProviderTurn
from ..catalogue import NOTHING_ASKED, SCREEN_RULES
from ..colloquial import written_turns
from ..intents import classify_unmatched, is_related
from ..lexical import question_text, tokens
from ..prepared import prepared
from .linear_model import select

#: A question whose BM25 against an already-given node reaches this is read as asking it again (intent 4).
REPEAT_MIN_BM25 = 2.5


class OfflineProvider:
    """Rule-and-similarity provider for one task. `multi_info=True` reveals every frontier node a turn answers."""

    name = "offline"

    def __init__(self, task: Task, *, multi_info: bool = False, embeddings: bool = False) -> None:
        self.task = task
        self.language = task.language
        self.multi_info = multi_info
        self.name = "offline-e5" if embeddings else "offline"
        self.embedder = None
        if embeddings and not multi_info:  # multi-info mode keeps the lexical model (see linear_model.select)
            from .embeddings import node_passages, shared_embedder

            self.embedder = shared_embedder()
            self._passages = node_passages(task.tree, task.language, task.tree.required_ids)
        # (the task's readers are shared by every provider of the same task content: prepared.py)
        self.index, self.screen, self.focus, self.vocabulary = prepared(task)

    def greeting(self) -> ProviderTurn:
        greeting = "有什么可以帮助你？" if self.language == "zh" else "what can help you?"
        return ProviderTurn(text=greeting, kind=ReplyKind.greeting)

    async def respond(self, turns: list[Turn]) -> ProviderTurn:
        if self.embedder is None:
            return self.decide(turns)
        # The embedding engine releases the GIL and takes tens of ms: keep it off the event loop.
        return await asyncio.to_thread(self.decide, turns)

    def warm(self) -> None:
        """Embed every node's passages in one batch (once), so a turn only embeds the seeker's words."""
        if self.embedder is not None:
            self.embedder.passages(self._passages)

    def decide(self, turns: list[Turn]) -> ProviderTurn:
        """The synchronous core of respond(): `turns` ends with the seeker's latest turn."""
        turns = written_turns(turns, self.language)  # ("用啥挖？" is read as "用什么挖？")
        seeker = next((t.text for t in reversed(turns) if t.speaker == Speaker.seeker), "")
        state = ProviderState.from_turns(self.task.tree, turns)
        tree = self.task.tree
        if not state.root_given:
            if is_related(seeker, self.language, self.vocabulary):
                return ProviderTurn(text=tree.root.text, kind=ReplyKind.root, revealed=[ROOT_ID])
            return ProviderTurn(text=replies.off_topic(self.language), kind=ReplyKind.off_topic)
        screened = self.screen(turns)
        notes: dict[str, object] = (
            {"screen": screened.verdict.value, "rule": SCREEN_RULES[screened.verdict]} if screened.verdict else {}
        )
        if state.frontier and not screened.blocks_reveal:
            self.warm()
            selection = select(
                self.index,
                seeker,
                state.frontier,
                multi_info=self.multi_info,
                history=turns,
                embedder=self.embedder,
            )
            notes["scores"] = {k: round(v, 3) for k, v in selection.scores.items()}
            reading = read_turn(
                self.focus,
                turns,
                selection.passed,
                multi_info=self.multi_info,
                frontier=state.frontier,
                confidence=selection.scores,
                lone=selection.lone,
                lone_confidence=selection.lone_scores,
            )
            chosen = reading.revealed
            if set(selection.chosen) - set(chosen):
                notes["unfocused"] = sorted(set(selection.chosen) - set(chosen))
            if reading.limited:
                notes["limited"] = reading.limited
            if chosen:
                notes["rule"] = reading.rules[chosen[0]]
                notes["rules"] = {node_id: reading.rules[node_id] for node_id in chosen}
                text = replies.join_nodes([tree[i].text for i in chosen], self.language)
                return ProviderTurn(
                    text=text, kind=ReplyKind.response_i, intent=Intent.answerable, revealed=chosen, notes=notes
                )
        notes.setdefault("rule", NOTHING_ASKED)
        previous = self._asked_again(seeker, [ROOT_ID, *state.revealed])
        intent = screened.intent or classify_unmatched(
            seeker, self.language, self.vocabulary, repeats=previous is not None
        )
        if not state.frontier and intent != Intent.unrelated:
            return ProviderTurn(text=replies.enough(self.language), kind=ReplyKind.enough, intent=intent, notes=notes)
        text = replies.response_ii(intent, self.language, previous=previous, screen=screened.verdict)
        return ProviderTurn(text=text, kind=ReplyKind.response_ii, intent=intent, notes=notes)

    def _asked_again(self, seeker: str, given: list[str]) -> str | None:
        """The text of an already-given node the turn's question asks about again, if any (best match)."""
        asked = list(set(tokens(question_text(seeker, self.language), self.language)))
        if not asked:
            return None
        best = max(given, key=lambda node_id: self.index.bm25(asked, node_id))
        if best == ROOT_ID or self.index.bm25(asked, best) < REPEAT_MIN_BM25:
            return None
        return self.task.tree[best].text
