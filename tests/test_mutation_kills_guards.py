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

from clarq_bench.leaderboard.figures import differences
from clarq_bench.leaderboard.rules import check_rules
from clarq_bench.lengths import detect_language
from clarq_bench.provider.leakage import find_leaks, redact_leaks
from clarq_bench.transcript import AgentInfo, EndReason, Intent, ReplyKind, Speaker, Transcript, Turn


def provider(text: str, kind: ReplyKind, revealed: list[str] = (), intent: Intent | None = None) -> Turn:
    return Turn(speaker=Speaker.provider, text=text, kind=kind, revealed=list(revealed), intent=intent)


def seeker(text: str) -> Turn:
    return Turn(speaker=Speaker.seeker, text=text)


def dialogue(*reveals: str) -> Transcript:
    """Greeting, root, then one Response I per id in `reveals`, then the seeker's goodbye."""
    task = make_task()
    turns = [provider("what can help you?", ReplyKind.greeting), seeker("How do I get rubies?"),
             provider(task.tree.root.text, ReplyKind.root, ["0"])]  # fmt: skip
    for node_id in reveals:
        turns += [seeker("What about that?"),
                  provider(task.tree[node_id].text, ReplyKind.response_i, [node_id], Intent.answerable)]  # fmt: skip
    turns.append(seeker("Thanks. Goodbye!"))
    return Transcript.of_task(task, trial=0, seed=1, turns=turns, end_reason=EndReason.goodbye,
                              seeker=AgentInfo(name="scripted"), provider=AgentInfo(name="llm", model="m"))


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
