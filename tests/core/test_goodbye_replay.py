"""The goodbye rule against every released dialogue: it ends none before its released end, and ends every one whose
last seeker turn says goodbye (the others stopped at the 12-turn cap). Plus the cases issue 15 reported."""

from __future__ import annotations

import pytest
from upstream_paths import UPSTREAM_RESULTS, needs_results

from clarq_bench.core.goodbye import is_goodbye
from clarq_bench.data.upstream import load_released_dialogues, released_files


@needs_results
def test_no_released_dialogue_ends_before_its_released_end():
    dialogues = ended_early = ended_at_end = capped = 0
    early: list[str] = []
    for path in released_files(UPSTREAM_RESULTS):
        for dialogue in load_released_dialogues(path):
            dialogues += 1
            seeker = dialogue.seeker_lines
            first = next((i for i, line in enumerate(seeker) if is_goodbye(line)), None)
            if first is not None and first < len(seeker) - 1:
                ended_early += 1
                early.append(f"{path.name} {dialogue.task.id} turn {first + 1}: {seeker[first][-80:]!r}")
            elif first == len(seeker) - 1:
                ended_at_end += 1
            else:
                capped += 1
                assert len(seeker) == 12  # a dialogue without a goodbye ran into the cap
    assert (dialogues, ended_early) == (1040, 0), early
    assert (ended_at_end, capped) == (1035, 5)


@pytest.mark.parametrize(
    "text",
    [
        "我想再见识一下那把剑",
        "我们再会议一次吧",
        "再见证一次奇迹",
        "我们在桥头再会合",
        "明天再会面",
        "Is there anything else? Otherwise, goodbye, Jax.",
        "If not, I will say goodbye and get started.",
        "Is that all?\n\nIf not, goodbye, Jax!",
        "If that's all, I'll say goodbye and start my journey.",
        "Please let me know. Otherwise, thank you for your help, and goodbye, Jax.",
        "If not, then goodbye, Jax, and thank you for your help!",
        "还有别的吗？如果没有的话，再见！",
        "否则，再见。",
    ],
)
def test_conditional_goodbyes_and_longer_words_do_not_end(text):
    assert not is_goodbye(text)


@pytest.mark.parametrize(
    "text",
    [
        "Goodbye!",
        "Thanks, goodbye Jax.",
        "Thank you, Jax. Goodbye for now, and wish me luck!",
        "再见",
        "谢谢，再见！",
        "好的，我明白了。再见！",
        "Got it. If I need more, I will ask. Goodbye, Jax!",
        "那我们再会了",
        "Thank you so much for your help! Goodbye.",
        "Otherwise all is clear. Goodbye!",
        "Bye now, goodbye.",
    ],
)
def test_plain_goodbyes_still_end(text):
    assert is_goodbye(text)
