"""L205: a question that strings Jax's words together out of his order asks nothing of its own."""

from __future__ import annotations

import pytest

from clarq_bench.provider.word_order import out_of_his_order, strings_his_words

HEARD_EN = "You need to complete the transaction with Henry. Buy a fire crystal at the Shining Gem Store."
BRIEF_EN = "You can visit the following scenes: Shining Gem Store, Mystic Tavern."
HEARD_ZH = "你需要和亨利完成交易。用他需要的宝石交换一颗晶石用于后续的魔法释放。"


@pytest.mark.parametrize(
    "question",
    [
        "How do I get henry transaction complete?",  # his clause reversed
        "How do I get complete transaction henry?",  # in his order, the grammar between his words dropped
        "How do I get transaction henry complete?",  # shuffled
        "Where do I go for crystal fire buy transaction?",
    ],
)
def test_his_words_strung_out_of_his_order_are_read_so(question: str) -> None:
    assert strings_his_words(question, HEARD_EN, BRIEF_EN, "en")


@pytest.mark.parametrize(
    "question",
    [
        "How can I complete the transaction with Henry?",  # his words in a sentence of its own
        "Where can I find Henry to complete the transaction?",
        "Which gem does Henry need?",
        "Can you tell me which transaction Henry needs?",  # a name he capitalised parts the words beside it
        "Where do I buy the fire crystal?",  # a compound he said is his own order
        "Is the Shining Gem Store where I buy the fire crystal?",  # the brief's names are its own order too
        "Which transaction, Henry's or the crystal's?",  # marks part words
    ],
)
def test_a_question_in_words_of_its_own_is_not(question: str) -> None:
    assert not strings_his_words(question, HEARD_EN, BRIEF_EN, "en")


def test_one_pair_turned_about_is_a_phrase_not_a_string() -> None:
    assert out_of_his_order("Where is the crystal fire sold?", HEARD_EN, BRIEF_EN, "en") == 1
    assert not strings_his_words("Where is the crystal fire sold?", HEARD_EN, BRIEF_EN, "en")


def test_nothing_heard_is_nothing_out_of_order() -> None:
    assert out_of_his_order("How do I get henry transaction complete?", "", BRIEF_EN, "en") == 0


def test_chinese_reads_his_two_character_pieces_run_on_the_other_way_round() -> None:
    assert strings_his_words("交易完成亨利，选哪个？", HEARD_ZH, "", "zh")  # 完成交易, 亨利完成 turned about
    # 后续的魔法 run on without its 的, 完成交易 turned about
    assert out_of_his_order("后续魔法交易完成，选哪一个？", HEARD_ZH, "", "zh") == 2
    assert not strings_his_words("后续释放魔法要用哪一颗晶石？", HEARD_ZH, "", "zh")  # one pair: a phrase of its own
    assert not strings_his_words("我该去哪里和亨利完成交易？", HEARD_ZH, "", "zh")
    assert not strings_his_words("亨利需要哪种宝石？", HEARD_ZH, "", "zh")
