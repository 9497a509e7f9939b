"""transcripts.jsonl grows by whole lines only: a write the disk cut short is undone (the file ends where the last
whole line ended, as the writer counted it) and the next append lands right after it."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from clarq_bench.core import run_folder
from clarq_bench.core.run_folder import TranscriptWriter, read_transcripts
from clarq_bench.core.transcript import AgentInfo, EndReason, Transcript


def record(task_id: str) -> Transcript:
    return Transcript(
        task_id=task_id,
        language="en",
        type_number=1,
        split="test",
        seeker=AgentInfo(name="s"),
        provider=AgentInfo(name="p"),
        turns=[],
        end_reason=EndReason.goodbye,
    )


def test_a_cut_write_is_undone_and_the_next_append_follows_the_last_whole_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "transcripts.jsonl"
    path.write_text(record("en/01/0").model_dump_json() + "\n", encoding="utf-8")  # an earlier session's line
    writer = TranscriptWriter(path)
    try:
        writer.append(record("en/01/1"))
        real_write = os.write

        def half(fd: int, data: bytes) -> int:  # the disk fills up mid-line
            return real_write(fd, data[: len(data) // 2])

        monkeypatch.setattr(run_folder.os, "write", half)
        with pytest.raises(OSError) as full:
            writer.append(record("en/01/2"))
        assert full.value.errno == errno.ENOSPC
        monkeypatch.setattr(run_folder.os, "write", real_write)
        writer.append(record("en/01/3"))
        monkeypatch.setattr(run_folder.os, "write", half)  # again, after a whole line: cut back to that line's end
        with pytest.raises(OSError):
            writer.append(record("en/01/5"))
        monkeypatch.setattr(run_folder.os, "write", real_write)
        writer.append(record("en/01/4"))
    finally:
        writer.close()
    text = path.read_text(encoding="utf-8")
    assert text.endswith("\n") and text.count("\n") == 4
    assert [r.task_id for r in read_transcripts(path)] == ["en/01/0", "en/01/1", "en/01/3", "en/01/4"]
