"""Bugs a mutation audit slipped past the suite in the verifier, the leakage guard and the released length rule.

- the verifier's parent-before-child rule: a self-reported (LLM-provider) transcript revealing node 1.1 before its
  parent 1 must be rejected, naming the dialogue and turn; so must a node revealed twice;
- the verifier's figure tolerance (1e-9): a recorded figure off by 1e-6 is a difference, not noise;
- the leakage guard's re-check after redaction: what is left after dropping the leaking sentences can leak again
  (n-grams straddling the cut), and must then give "" (the caller's safe template);
- the released language rule's tie: equal CJK and Latin counts read as Chinese (>=, REFERENCE.md).
"""

from __future__ import annotations

from runner_helpers import make_task

from clarq_bench.core.transcript import AgentInfo, EndReason, Intent, ReplyKind, Speaker, Transcript, Turn
from clarq_bench.leaderboard.figures import differences
from clarq_bench.leaderboard.rules import check_rules
from clarq_bench.provider.leakage import find_leaks, redact_leaks
from clarq_bench.scoring.lengths import detect_language


def provider(text: str, kind: ReplyKind, revealed: list[str] = (), intent: Intent | None = None) -> Turn:
    return Turn(speaker=Speaker.provider, text=text, kind=kind, revealed=list(revealed), intent=intent)


def seeker(text: str) -> Turn:
    return Turn(speaker=Speaker.seeker, text=text)


def dialogue(*reveals: str) -> Transcript:
    """Greeting, root, then one Response I per id in `reveals`, then the seeker's goodbye."""
    task = make_task()
    turns = [
        provider("what can help you?", ReplyKind.greeting),
        seeker("How do I get rubies?"),
        provider(task.tree.root.text, ReplyKind.root, ["0"]),
    ]
    for node_id in reveals:
        turns += [
            seeker("What about that?"),
            provider(task.tree[node_id].text, ReplyKind.response_i, [node_id], Intent.answerable),
        ]
    turns.append(seeker("Thanks. Goodbye!"))
    return Transcript.of_task(
        task,
        trial=0,
        seed=1,
        turns=turns,
        end_reason=EndReason.goodbye,
        seeker=AgentInfo(name="scripted"),
        provider=AgentInfo(name="llm", model="m"),
    )


def test_rules_accept_parent_then_child() -> None:
    assert check_rules(dialogue("1", "1.1", "2"), make_task(), single=True, max_turns=None) is None


def test_rules_reject_a_child_before_its_parent_naming_the_turn() -> None:
    problem = check_rules(dialogue("1.1", "1"), make_task(), single=True, max_turns=None)
    assert problem is not None and problem.startswith("dialogue en/01/0#0 turn 4:") and "node 1.1" in problem


def test_rules_reject_a_node_given_twice() -> None:
    problem = check_rules(dialogue("1", "1"), make_task(), single=True, max_turns=None)
    assert problem is not None and problem.startswith("dialogue en/01/0#0 turn 6:") and "node 1," in problem


def test_figures_differ_beyond_one_in_a_billion() -> None:
    recorded = {"success": 0.625, "aqd": 3.0}
    assert list(differences(recorded, {"success": 0.625, "aqd": 3.0})) == []
    assert list(differences(recorded, {"success": 0.625 + 1e-12, "aqd": 3.0})) == []  # float noise
    off = list(differences(recorded, {"success": 0.625 + 1e-6, "aqd": 3.0}))
    assert len(off) == 1 and off[0].startswith("metrics.success: recorded 0.625")
    assert len(list(differences({"n": 0}, {"n": 1e-6}))) == 1  # near zero too (absolute tolerance)


def test_redaction_rechecks_what_is_left() -> None:
    task = make_task()
    # node 2 leaks in the middle sentence; dropping it joins "Collect fog." and "In the." into node 1.1's
    # "collect fog in" / "fog in the": a leak the original reply did not have
    reply = "Collect fog. Only the North Mine has rubies. In the."
    hits = find_leaks(reply, task.tree, ["0"], "en")
    assert [hit.node_id for hit in hits] == ["2"]
    assert find_leaks("Collect fog. In the.", task.tree, ["0"], "en")  # what is left leaks node 1.1
    repaired, dropped = redact_leaks(reply, hits, task.tree, ["0"], "en")
    assert (repaired, dropped) == ("", ["Only the North Mine has rubies."])


def test_redaction_keeps_a_clean_remainder() -> None:
    task = make_task()
    reply = "Good question. Only the North Mine has rubies."
    hits = find_leaks(reply, task.tree, ["0"], "en")
    assert redact_leaks(reply, hits, task.tree, ["0"], "en") == ("Good question.", ["Only the North Mine has rubies."])


def test_language_tie_reads_as_chinese_and_one_more_latin_letter_as_english() -> None:
    assert detect_language("ab\u4e00\u4e01") == "zh"  # 2 CJK = 2 Latin
    assert detect_language("abc\u4e00\u4e01") == "en"
    assert detect_language("a\u4e00\u4e01") == "zh"
    assert detect_language("123", default="zh") == "zh" and detect_language("", default="en") == "en"


def test_no_bundled_table_means_the_fallback_unit_without_asking_tiktoken(monkeypatch) -> None:
    """Without litellm's bundled table tiktoken is never asked (it would go to the network for the table)."""
    import tiktoken

    from clarq_bench.scoring import lengths

    asked: list[str] = []

    def get_encoding(name: str):
        asked.append(name)
        raise AssertionError("tiktoken asked for a table")

    monkeypatch.setattr(lengths, "_bundled_table_dir", lambda: None)
    monkeypatch.setattr(tiktoken, "get_encoding", get_encoding)
    lengths.token_counter.cache_clear()
    try:
        counter = lengths.token_counter()
        assert counter.unit == lengths.FALLBACK_UNIT and counter.count("ab \u4e00\u4e01 12") == 4 and asked == []
    finally:
        lengths.token_counter.cache_clear()


def test_language_of_one_script_only() -> None:
    assert detect_language("\u4e00\u4e01") == "zh" and detect_language("\u4e00", default="en") == "zh"
    assert detect_language("abc", default="zh") == "en"


def test_the_bundled_table_gives_the_o200k_unit() -> None:
    from clarq_bench.scoring import lengths

    if lengths._bundled_table_dir() is None:
        import pytest

        pytest.skip("litellm's bundled o200k_base table is not installed")
    lengths.token_counter.cache_clear()
    counter = lengths.token_counter()
    assert counter.unit == lengths.TOKEN_UNIT and counter.count("hello world") == 2


def test_text_match_of_a_node_that_is_only_punctuation() -> None:
    from clarq_bench.data.textmatch import carries_node

    assert carries_node("?!", "?!", "en") and not carries_node("hello", "?!", "en")


def test_a_node_already_said_in_full_scores_zero_without_dividing_by_zero() -> None:
    from clarq_bench.provider.leakage import leak_score, ngrams

    node = "Stun the monsters first."
    assert leak_score(node, node, ngrams(node, "en"), "en") == (0.0, [])
    task = make_task()
    assert find_leaks(task.tree["1"].text, task.tree, ["0"], "en", said=[task.tree["1"].text]) == []


def test_echo_removal_leaves_quotes_shorter_than_its_minimum() -> None:
    from clarq_bench.provider.echo import ECHO_WORDS, without_echo

    short = " ".join(["north"] * (ECHO_WORDS - 1))
    assert without_echo(f"{short} which mine has rubies", [short], "en") == f"{short} which mine has rubies"
    long = "go to the north mine today"
    assert "north" not in without_echo(f"{long} which mine has rubies", [long], "en")


def test_verifier_names_tasks_missing_from_the_task_data(tmp_path) -> None:
    from leaderboard_runs import make_run, sample_tasks

    from clarq_bench.leaderboard import build_submission
    from clarq_bench.leaderboard.verify import verify_submission

    sub = build_submission(make_run(tmp_path / "run"))
    tasks = {task.id: task for task in sample_tasks()}
    assert not [p for p in verify_submission(sub, tasks=tasks).problems if "not in the task data" in p]
    gone = sorted(tasks)[0]
    del tasks[gone]
    problems = verify_submission(sub, tasks=tasks).problems
    assert any(p.startswith("1 task(s) are not in the task data") and gone in p for p in problems), problems


def test_rules_reject_end_reason_goodbye_without_the_seekers_goodbye() -> None:
    transcript = dialogue("1")
    transcript = transcript.model_copy(update={"turns": transcript.turns[:-1]})  # ends on the provider's reply
    problem = check_rules(transcript, make_task(), single=True, max_turns=None)
    assert problem is not None and "end reason goodbye but the last turn is not the seeker's goodbye" in problem


def test_bootstrap_settings_keep_their_bounds() -> None:
    from clarq_bench.leaderboard.figures import DEFAULT_RESAMPLES, MAX_RESAMPLES, bootstrap_settings
    from clarq_bench.scoring.stats import DEFAULT_SEED

    def of(seed, resamples):
        return bootstrap_settings({"summary": {"bootstrap": {"seed": seed, "resamples": resamples}}})

    assert of(5, 1) == (5, 1) and of(5, MAX_RESAMPLES) == (5, MAX_RESAMPLES)
    assert of(5, 0) == (5, DEFAULT_RESAMPLES) and of(5, MAX_RESAMPLES + 1) == (5, DEFAULT_RESAMPLES)
    assert of(True, 7) == (DEFAULT_SEED, 7) and bootstrap_settings({}) == (DEFAULT_SEED, DEFAULT_RESAMPLES)


def test_long_figures_are_cut_at_eighty_characters_in_messages() -> None:
    from clarq_bench.leaderboard.figures import _short

    assert _short("x" * 78) == repr("x" * 78)  # 80 characters with the quotes: whole
    assert _short("x" * 79) == repr("x" * 79)[:77] + "..."  # 81: cut to 80


def test_means_of_no_verdicts_are_zero() -> None:
    from clarq_bench.scoring.metrics import mean_aqd, mean_aql, success_rate

    assert success_rate([]) == 0.0 and mean_aqd([]) == 0.0 and mean_aql([]) == 0.0


def test_replay_lines_cut_turn_text_at_sixty_characters() -> None:
    from clarq_bench.leaderboard.replay import _show

    whole = provider("y" * 60, ReplyKind.response_i, ["1"])
    cut = provider("y" * 61, ReplyKind.response_i, ["1"])
    assert _show(whole) == f"response_i ['1'] {'y' * 60!r}" and _show(cut) == f"response_i ['1'] {'y' * 57 + '...'!r}"


def test_costs_are_rounded_to_the_micro_dollar_everywhere() -> None:
    from leaderboard_runs import scripted_transcript

    from clarq_bench.leaderboard.figures import cost_of

    cost = cost_of([scripted_transcript(make_task(), cost=0.00123456789)])
    assert cost["total_usd"] == cost["by_language"]["en"] == cost["by_role"]["seeker"] == 0.001235


def test_a_name_of_three_terms_counts_with_two_of_them_and_not_with_one() -> None:
    from clarq_bench.provider.screen import EntityIndex

    index = EntityIndex.of(make_task(), "en")  # "Summon the excavator to dig": summon, excavator, dig
    assert index.kinds_named("Should I use the excavator to dig?", "en") == 1
    assert index.kinds_named("the air sucker", "en") == 1 and index.kinds_named("the air", "en") == 0  # two terms: both
    assert index.kinds_named("excavator", "en") == 0


def test_a_leak_exactly_at_the_threshold_counts() -> None:
    task = make_task()  # node 1.1 has four distinctive trigrams; the reply carries two: a share of exactly 0.5
    hits = find_leaks("Walk in the Fantasy Forest.", task.tree, ["0", "1"], "en", threshold=0.5)
    assert [(hit.node_id, hit.score) for hit in hits] == [("1.1", 0.5)]


def test_hash_and_fingerprint_problems_show_twelve_hex_digits(tmp_path) -> None:
    import re

    from leaderboard_runs import make_run, sample_tasks

    from clarq_bench.leaderboard import build_submission
    from clarq_bench.leaderboard.replay import fingerprint_problem
    from clarq_bench.leaderboard.verify import verify_submission

    sub = build_submission(make_run(tmp_path / "run"))
    forged = sub.model_copy(update={"manifest": sub.manifest.model_copy(update={"task_set_hash": "f" * 64})})
    problems = verify_submission(forged, tasks={task.id: task for task in sample_tasks()}).problems
    assert any(
        re.fullmatch(r"task_set_hash f{12}\.\.\. does not match its task hashes \([0-9a-f]{12}\.\.\.\)", p)
        for p in problems
    ), problems
    offline = sub.manifest.model_copy(
        update={
            "provider": sub.manifest.provider.model_copy(update={"name": "offline"}),
            "provider_fingerprint": "e" * 64,
        }
    )
    problem = fingerprint_problem(offline)
    assert problem is not None and re.search(
        r"fingerprint e{12}\.\.\. is not this clarq's .* \([0-9a-f]{12}\.\.\.\)", problem
    )


def test_a_leak_of_exactly_min_shared_grams_counts_whatever_its_share() -> None:
    task = make_task()  # two of node 1.1's four trigrams: a share of 0.5, under a threshold of 0.99
    hits = find_leaks("Walk in the Fantasy Forest.", task.tree, ["0", "1"], "en", threshold=0.99, min_shared=2)
    assert [hit.node_id for hit in hits] == ["1.1"]
    assert find_leaks("Walk in the Fantasy Forest.", task.tree, ["0", "1"], "en", threshold=0.99, min_shared=3) == []
