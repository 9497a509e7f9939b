"""Hostile submission files: rejected before anything is extracted or decompressed, and nothing is ever executed."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from clarq_bench.core.errors import ClarqError
from clarq_bench.leaderboard import read_submission, verify_file
from clarq_bench.leaderboard.safety import unsafe_member_name


def zip_with(path: Path, members: dict[str, bytes]) -> Path:
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return path


@pytest.mark.parametrize(
    "name, why",
    [
        ("../evil.py", "path traversal"),
        ("a/../../evil", "path traversal"),
        ("/etc/passwd", "absolute path"),
        ("C:/evil", "absolute path"),
        ("a\\..\\evil", "backslash"),
        ("dir/", "directory entry"),
    ],
)
def test_unsafe_names(name: str, why: str) -> None:
    assert why in unsafe_member_name(name)
    assert unsafe_member_name("manifest.json") is None


def test_traversal_zip_rejected_and_nothing_written(tmp_path: Path) -> None:
    work = tmp_path / "inbox"
    work.mkdir()
    path = zip_with(work / "s.zip", {"manifest.json": b"{}", "../escaped.txt": b"pwned"})
    with pytest.raises(ClarqError, match=r"unsafe submission: member '../escaped.txt': path traversal"):
        read_submission(path)
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["inbox", "s.zip"]
    assert verify_file(path)[1].problems[0].endswith("path traversal (`..`) (rebuild it with `clarq submit`)")


def test_too_many_members_and_unknown_members(tmp_path: Path) -> None:
    many = zip_with(tmp_path / "many.zip", {f"m{i}.json": b"{}" for i in range(4)})
    with pytest.raises(ClarqError, match=r"4 members \(at most 3"):
        read_submission(many)
    odd = zip_with(tmp_path / "odd.zip", {"manifest.json": b"{}", "run.py": b"import os"})
    with pytest.raises(ClarqError, match=r"unexpected member 'run.py'"):
        read_submission(odd)


def test_zip_bomb_rejected_before_inflating(tmp_path: Path) -> None:
    bomb = zip_with(tmp_path / "bomb.zip", {"transcripts.jsonl": b"\0" * (8 * 1024 * 1024)})
    assert bomb.stat().st_size < 100_000
    with pytest.raises(ClarqError, match=r"member 'transcripts.jsonl' compresses \d+:1"):
        read_submission(bomb)


def test_not_json_and_missing_file(tmp_path: Path) -> None:
    junk = tmp_path / "junk.json"
    junk.write_text("{not json", encoding="utf-8")
    with pytest.raises(ClarqError, match="not JSON"):
        read_submission(junk)
    with pytest.raises(ClarqError, match="no such submission file"):
        read_submission(tmp_path / "absent.json")
