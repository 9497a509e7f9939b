"""A corpus of hostile submission bundles, each refused by a real `clarq leaderboard verify` and `build` process in
one line with exit 2, its peak memory (measured by the parent, RUSAGE_CHILDREN) under 500 MB: bounds are checked
before anything a bundle declares is expanded or built."""

from __future__ import annotations

import asyncio
import json
import struct
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from leaderboard_runs import sample_tasks
from upstream_paths import SAMPLE_TASKS

from clarq_bench.core.run_config import AgentSettings, RunConfig
from clarq_bench.leaderboard import build_submission, write_submission
from clarq_bench.runner.batch import run_dialogues

DATA = str(SAMPLE_TASKS)
TESTS = Path(__file__).resolve().parents[1]  # tests/, where the helper modules are
LIMIT_MB = 500

PEAK = """
import resource, subprocess, sys
def cap():  # a regression fails here instead of taking the shared machine's memory
    resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))
try:
    done = subprocess.run(sys.argv[1:], capture_output=True, text=True, preexec_fn=cap, timeout=150)
except subprocess.TimeoutExpired:
    print(-1, 0); sys.exit()
print(done.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024, flush=True)
print(done.stdout + done.stderr, end="")
"""


@pytest.fixture(autouse=True)
def helpers_importable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(TESTS))


@pytest.fixture(scope="module")
def payload(tmp_path_factory: pytest.TempPathFactory) -> dict:
    run_dir = tmp_path_factory.mktemp("hostile") / "run"
    config = RunConfig(
        data_dir=DATA,
        languages=["en", "zh"],
        seeker=AgentSettings(name="heuristic"),
        provider=AgentSettings(name="offline"),
        progress=False,
    )
    asyncio.run(run_dialogues(config, sample_tasks(), run_dir))
    path = write_submission(build_submission(run_dir), run_dir.parent / "honest.json")
    return json.loads(path.read_text(encoding="utf-8"))


def _zip(path: Path, members: dict[str, bytes | str], compression: int = zipfile.ZIP_STORED) -> Path:
    with zipfile.ZipFile(path, "w", compression=compression) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return path


def _jsonl(records: list) -> str:
    return "".join(json.dumps(record) + "\n" for record in records)


def trials_json(folder: Path, payload: dict) -> Path:
    bad = json.loads(json.dumps(payload))
    bad["manifest"]["trials"] = 10**12
    path = folder / "trials.json"
    path.write_text(json.dumps(bad), encoding="utf-8")
    return path


def trials_zip(folder: Path, payload: dict) -> Path:
    manifest = {**payload["manifest"], "trials": 10**12}
    return _zip(
        folder / "trials.zip",
        {
            "manifest.json": json.dumps(manifest),
            "transcripts.jsonl": _jsonl(payload["transcripts"]),
            "verdicts.jsonl": _jsonl(payload["verdicts"]),
        },
    )


def empty_objects_manifest(folder: Path, payload: dict) -> Path:
    """manifest.json an array of 10 million empty objects (30 MB, stored: no compression ratio to refuse)."""
    return _zip(
        folder / "objects-manifest.zip",
        {"manifest.json": "[" + "{}," * 10_000_000 + "{}]", "transcripts.jsonl": "", "verdicts.jsonl": ""},
    )


def empty_objects_member(folder: Path, payload: dict) -> Path:
    """An honest manifest, and one transcripts line that is an array of 20 million empty objects (60 MB)."""
    return _zip(
        folder / "objects-member.zip",
        {
            "manifest.json": json.dumps(payload["manifest"]),
            "transcripts.jsonl": "[" + "{}," * 20_000_000 + "{}]\n",
            "verdicts.jsonl": "",
        },
    )


def empty_records(folder: Path, payload: dict) -> Path:
    """Four million `{}` lines: far more records than the manifest declares dialogues."""
    return _zip(
        folder / "records.zip",
        {
            "manifest.json": json.dumps(payload["manifest"]),
            "transcripts.jsonl": "{}\n" * 4_000_000,
            "verdicts.jsonl": "",
        },
    )


def member_bomb(folder: Path, payload: dict) -> Path:
    """60,000 members (no zip64 needed): zipfile would build an object for each before any check."""
    path = folder / "members.zip"
    with zipfile.ZipFile(path, "w") as archive:
        for index in range(60_000):
            archive.writestr(f"m{index}", b"")
    return path


def lying_directory(folder: Path, payload: dict) -> Path:
    """The member bomb, its end record lying that it holds the three members of a submission."""
    path = member_bomb(folder, payload).rename(folder / "lying.zip")
    data = bytearray(path.read_bytes())
    end = data.rindex(b"PK\x05\x06")
    struct.pack_into("<HH", data, end + 8, 3, 3)
    path.write_bytes(bytes(data))
    return path


CORPUS = [
    trials_json,
    trials_zip,
    empty_objects_manifest,
    empty_objects_member,
    empty_records,
    member_bomb,
    lying_directory,
]


def _measured(*argv: str) -> tuple[int, int, list[str]]:
    done = subprocess.run(
        [sys.executable, "-c", PEAK, sys.executable, "-m", "clarq_bench", *argv],
        capture_output=True,
        text=True,
        timeout=200,
        cwd=TESTS.parent,
    )
    head, _, output = done.stdout.partition("\n")
    code, peak_mb = map(int, head.split())
    return code, peak_mb, [line for line in output.splitlines() if line.strip()]


@pytest.mark.parametrize("make", CORPUS, ids=[make.__name__ for make in CORPUS])
def test_a_hostile_bundle_is_refused_in_one_line_with_exit_2_in_bounded_memory(
    make, payload: dict, tmp_path: Path
) -> None:
    bundle = make(tmp_path, payload)
    code, peak_mb, lines = _measured("leaderboard", "verify", str(bundle), "--data", DATA)
    print(f"{make.__name__}: verify exit {code}, peak {peak_mb} MB")
    assert code == 2 and len(lines) == 1 and "Traceback" not in lines[0], lines[:5]
    assert peak_mb < LIMIT_MB, (make.__name__, peak_mb)
    site = tmp_path / "site"
    code, peak_mb, lines = _measured(
        "leaderboard", "build", str(tmp_path), "-o", str(site), "--data", DATA, "--no-plots"
    )
    print(f"{make.__name__}: build exit {code}, peak {peak_mb} MB")
    assert code == 2 and any(line.startswith(f"rejected {bundle.name}") for line in lines), lines[:5]
    assert peak_mb < LIMIT_MB, (make.__name__, peak_mb)


def test_the_honest_bundle_still_verifies_in_both_forms(payload: dict, tmp_path: Path) -> None:
    single = tmp_path / "honest.json"
    single.write_text(json.dumps(payload), encoding="utf-8")
    packed = _zip(
        tmp_path / "honest.zip",
        {
            "manifest.json": json.dumps(payload["manifest"]),
            "transcripts.jsonl": _jsonl(payload["transcripts"]),
            "verdicts.jsonl": _jsonl(payload["verdicts"]),
        },
        zipfile.ZIP_DEFLATED,
    )
    for path in (single, packed):
        code, _, lines = _measured("leaderboard", "verify", str(path), "--data", DATA)
        assert code == 0 and lines[-1].endswith("verified (replayed)"), lines
