"""Copied runs and the bare-frame rule (provider/copies.py, screen rule S010): Jax's words wrapped in a frame that
would fit any clause he said ask about none of them; a question of the seeker's own around the same words does."""

from __future__ import annotations

import pytest
from test_provider_screen import make_task, offline_reply, verdict

from clarq_bench.provider.copies import (
    CopiedRuns,
    SaidTerms,
    adds_nothing,
    copied_share,
    split_copied,
    text_grams,
)
from clarq_bench.provider.screen import Verdict

ROOT = "You need to trade a gem with Henry for a fire crystal, then unleash fire magic at the gate."


def runs_of(*texts: str) -> CopiedRuns:
    return CopiedRuns(*(text_grams(text, "en") for text in texts))


def terms_of(*texts: str) -> SaidTerms:
    return SaidTerms(list(texts), "en")


def bare(question: str) -> bool:
    return adds_nothing(question, runs_of(ROOT), terms_of(ROOT), "en", {"gem", "henry", "tavern", "crystal"})


def test_runs_of_four_words_are_copied_and_shorter_ones_are_not() -> None:
    runs = runs_of(ROOT)
    # "need to trade a gem ..." is his
    assert split_copied("Which one do I need to trade a gem with Henry?", runs, "en") == (
        "which one do i",
        "need to trade a gem with henry",
    )
    assert split_copied("Which gem does Henry want?", runs, "en") is None  # "gem", "henry": single words, no run
    assert copied_share("trade a gem with henry", runs, "en") == 1.0
    assert copied_share("", runs, "en") == 0.0


@pytest.mark.parametrize(
    "question",
    [
        "Which one should I pick to trade a gem with Henry?",
        "What should I use to unleash fire magic at the gate?",
        "Regarding 'trade a gem with Henry', which one?",
        "About the gem: which one should I pick to trade a gem with Henry?",  # his own word said again
        "Henry. Which one do I need to trade a gem with Henry?",
        "Which one should I pick to trade gem Henry?",  # his words without their small words
        "What do I need in order to trade a gem with Henry?",  # "in order to" asks no order
        "Which one should I pick for crystal Henry gem trade?",  # ... four of them, in another order
    ],
)
def test_a_frame_naming_nothing_of_the_task_adds_nothing(question: str) -> None:
    assert bare(question)


@pytest.mark.parametrize(
    "question",
    [
        "Which gem should I bring to trade a gem with Henry?",  # the seeker's own word of the task: the kind
        "Where should I go to trade a gem with Henry?",  # a question word of a kind of its own
        "How do I unleash fire magic at the gate?",
        "Which gem does Henry want?",  # nothing copied
        "Which crystal do I trade a gem with Henry for?",  # a kind of the task its which governs
        "Could you tell me the time I should trade a gem with Henry?",  # a kind of its own: a time
        "In what order should I trade a gem with Henry and unleash fire magic?",
        # a plurality it noticed, of a thing of the task: a choice of its own, though it names it in his words
        "I have noticed there are several Henry fire crystal sellers and I am unsure which one, so what should I do?",
    ],
)
def test_a_question_of_the_seekers_own_around_copied_words_is_kept(question: str) -> None:
    assert not bare(question)


@pytest.mark.parametrize(
    ("pasted", "well_formed"),
    [
        # "I" before a subject or "to": no verb phrase follows the frame
        ("How should I you need to trade a gem with Henry?", "How should I trade a gem with Henry?"),
        ("How exactly do I to trade a gem with Henry?", "How exactly do I trade a gem with Henry?"),
        (
            "How should I the gate needs fire magic unleashed at the gate?",
            "How should I get fire magic unleashed at the gate?",
        ),
        # "to" before a subject
        ("Where should I go to you need to trade a gem with Henry?", "Where should I go to trade a gem with Henry?"),
        # the question word's clause closed by a colon or a dash, or a "this" standing for the sentence after it
        ("How should I handle this: you need to trade a gem with Henry?", "How should I trade a gem with Henry?"),
        (
            "Where do I go for this \u2014 you need to trade a gem with Henry?",
            "Where do I go to trade a gem with Henry?",
        ),
        ("How should I handle this, you need to trade a gem with Henry?", "How do I trade a gem with Henry?"),
        # a subject and its verb right after "to"
        (
            "Where should I go to Henry can trade a gem with Henry for a fire crystal?",
            "Where should I go to trade a gem with Henry for a fire crystal?",
        ),
    ],
)
def test_a_question_word_pasted_before_a_whole_clause_of_his_asks_nothing_of_its_own(
    pasted: str, well_formed: str
) -> None:
    """'How should I <a sentence of his>?': the question word's frame does not take the words after it, so it asks
    no place, way or time of its own; written well, the same question word keeps the question."""
    assert bare(pasted)
    assert not bare(well_formed)


def test_a_question_word_after_a_colon_is_the_question_itself() -> None:
    assert not bare("Quick question: where should I go to trade a gem with Henry?")


def test_one_clause_of_his_probed_with_several_question_words_asks_none_of_them() -> None:
    """ "How do I <his clause>? Where should I go to <his clause>?": the question words change, his words do not, so
    no question word is the turn's own; one of them alone, or each over its own thing, is a question."""
    probe = "How exactly do I trade a gem with Henry? Where should I go to trade a gem with Henry?"
    assert verdict("en", probe) == Verdict.bare_frame
    assert verdict("en", "Where should I go to trade a gem with Henry?") is None
    assert verdict("en", "Where should I go to trade a gem with Henry? And which gem does he want?") is None
    # another question added to the probe does not make it one
    assert verdict("en", f"{probe} Which tavern is Henry in?") == Verdict.bare_frame


def test_the_screen_refuses_a_turn_of_bare_frames_and_the_provider_reveals_nothing() -> None:
    assert verdict("en", "Which one should I pick to trade a gem with Henry?") == Verdict.bare_frame
    reply = offline_reply("en", "Which one should I pick to trade a gem with Henry?")
    assert reply.revealed == [] and reply.notes["rule"] == "S010"
    assert verdict("en", "Which gem should I pick to trade a gem with Henry?") is None
    assert offline_reply("en", "Which gem should I pick to trade a gem with Henry?").revealed == ["1"]


def test_a_statement_of_the_seekers_own_gives_which_one_something_to_refer_to() -> None:
    assert verdict("en", "There are several taverns. Which one should I pick to trade a gem with Henry?") is None
    # a word of his clause said again, or a courtesy, names nothing of the seeker's own: the frame is still bare
    assert verdict("en", "The gem. Which one should I pick to trade a gem with Henry?") == Verdict.bare_frame
    assert verdict("en", "Thanks, that makes sense. Which one should I pick to trade a gem with Henry?") == (
        Verdict.bare_frame
    )


def test_one_question_of_its_own_keeps_the_turn() -> None:
    turn = "Which one should I pick to trade a gem with Henry? And which tavern is Henry in?"
    assert verdict("en", turn) is None


def test_the_briefs_names_are_the_seekers_to_offer() -> None:
    """Options of the brief's lists said back are a choice, not a copy ("Which one: the A or the B?"), even around
    his own words."""
    said = ("Which tavern is Henry in?", None)
    text = "Which one should I choose: the Mystery Tavern or the Forest Tavern?"
    assert verdict("en", text, said) is None
    text = "Should I go to the Mystery Tavern or the Forest Tavern to trade a gem with Henry?"
    assert verdict("en", text) is None
    assert verdict("en", "Should I go there to trade a gem with Henry?") == Verdict.bare_frame


def test_a_chinese_clause_of_his_probed_with_several_question_words_asks_none_of_them() -> None:
    """In Chinese only the probe is read: short frames around the same words of his, one question word each."""
    probe = "用宝石和亨利交换火晶石，具体该怎么做？用宝石和亨利交换火晶石，该去哪里？"
    assert verdict("zh", probe) == Verdict.bare_frame
    assert verdict("zh", probe + "亨利在哪个酒馆？") == Verdict.bare_frame
    assert offline_reply("zh", probe).revealed == []
    assert verdict("zh", "用宝石和亨利交换火晶石，该去哪里？") is None  # one question word: a question
    # words of its own around his: the seeker's own questions about one thing
    own = "用宝石和亨利交换火晶石的时候，亨利最想要的是哪一种宝石？用宝石和亨利交换火晶石，要在城里哪个地方见他？"
    assert verdict("zh", own) is None


def test_chinese_is_not_checked() -> None:
    """A Chinese question names its thing in a few characters that one copied run takes whole: a frame around his
    words is not read as bare there (only the probe above is)."""
    assert make_task("zh").language == "zh"
    assert verdict("zh", "用宝石和亨利交换火晶石，该选哪一个？") is None


@pytest.mark.parametrize("contracted", ["Where's", "What's", "Who's"])
def test_a_question_words_contraction_is_as_much_the_seekers_own_as_its_spelled_out_twin(contracted: str) -> None:
    runs = runs_of("You can buy it at the nearest fuel station.")
    spelled = contracted.replace("'s", " is")
    assert copied_share(f"{contracted} the nearest fuel station?", runs, "en") == copied_share(
        f"{spelled} the nearest fuel station?", runs, "en"
    )
    assert copied_share("Where's the nearest fuel station?", runs, "en") < 0.8  # (MAX_COPIED_SHARE: a question)
