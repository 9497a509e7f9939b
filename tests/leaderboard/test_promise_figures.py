"""Every figure a submission records is checked by verify, and what safety.py and the README promise holds (issue 32):

- token figures (AQL in tokens) are compared when the recorded unit is this machine's unit: a tampered one is named;
  with another unit they are left out and a note says so;
- a recorded figure the transcripts do not give is flagged, not ignored;
- a zip member whose header lies about its size is refused or read no further than it declared;
- nDCG@k's ideal ranking holds at most k items, so a top k of relevant items scores 1 whatever is relevant beyond k.
"""

from __future__ import annotations

import math
import struct
import zipfile
import zlib
from pathlib import Path

import pytest
from leaderboard_runs import edit_submission, make_run
from upstream_paths import SAMPLE_TASKS

from clarq_bench.clarify.metrics import ndcg_at
from clarq_bench.core.errors import ClarqError
from clarq_bench.leaderboard import build_submission, verify_file, write_submission
from clarq_bench.leaderboard.safety import read_zip_members
from clarq_bench.scoring.lengths import token_counter


@pytest.fixture(scope="module")
def honest(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("honest-figures")
    return write_submission(build_submission(make_run(root / "run", drop_every=3)), root / "a.json")


def verified(honest: Path, tmp_path: Path, edit):
    return verify_file(edit_submission(honest, tmp_path, edit), str(SAMPLE_TASKS))[1]


def test_a_tampered_token_figure_in_the_same_unit_is_named(honest: Path, tmp_path: Path) -> None:
    def edit(payload):
        summary = payload["manifest"]["metrics"]["summary"]
        assert summary["token_unit"] == token_counter().unit  # the units match: the figure must be compared
        summary["aql_tokens"]["value"] += 1.0

    result = verified(honest, tmp_path, edit)
    assert len(result.problems) == 1 and result.problems[0].startswith("metrics.summary.aql_tokens.value: recorded ")
    assert not any("token figures not compared" in note for note in result.notes)


def test_token_figures_in_a_unit_no_verifier_counts_are_a_problem(honest: Path, tmp_path: Path) -> None:
    """Issue 28: a figure in a unit that cannot be recounted is not taken on trust (a re-sealed bundle naming another
    unit used to skip the AQL-token check and be published as verified); units clarq counts in are recounted in the
    unit claimed (tests/leaderboard/test_fault_submissions.py)."""

    def edit(payload):
        summary = payload["manifest"]["metrics"]["summary"]
        summary["token_unit"] = "some-other-tokenizer"
        summary["aql_tokens"]["value"] += 1.0

    result = verified(honest, tmp_path, edit)
    assert any("'some-other-tokenizer', a unit this verifier cannot count in" in line for line in result.problems)


def test_a_recorded_figure_the_transcripts_do_not_give_is_flagged(honest: Path, tmp_path: Path) -> None:
    def edit(payload):
        payload["manifest"]["metrics"]["summary"]["success_adjusted"] = {"value": 0.99, "low": 0.9, "high": 1.0}

    problems = verified(honest, tmp_path, edit).problems
    assert problems == [
        "metrics.summary.success_adjusted is not a recognised figure (recorded "
        "{'value': 0.99, 'low': 0.9, 'high': 1.0})"
    ]


def test_a_figure_the_submission_left_out_is_flagged(honest: Path, tmp_path: Path) -> None:
    def edit(payload):
        del payload["manifest"]["metrics"]["cost"]["tokens"]

    problems = verified(honest, tmp_path, edit).problems
    assert len(problems) == 1 and problems[0].startswith("metrics.cost.tokens is missing (transcripts give ")


def lying_zip(path: Path, text: bytes, declared: int, *, crc_of_prefix: bool) -> Path:
    """A deflated zip of one manifest.json whose local and central headers declare `declared` bytes (fewer than
    `text` inflates to); with crc_of_prefix the CRC is forged to match the declared prefix."""
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("manifest.json", text)
    data = bytearray(path.read_bytes())
    crc = zlib.crc32(text[:declared]) if crc_of_prefix else None
    local = data.index(b"PK\x03\x04")
    central = data.index(b"PK\x01\x02")
    struct.pack_into("<I", data, local + 22, declared)
    struct.pack_into("<I", data, central + 24, declared)
    if crc is not None:
        struct.pack_into("<I", data, local + 14, crc)
        struct.pack_into("<I", data, central + 16, crc)
    path.write_bytes(bytes(data))
    with zipfile.ZipFile(path) as archive:  # the lie is in place
        assert archive.getinfo("manifest.json").file_size == declared
    return path


def test_a_zip_member_that_inflates_past_its_declared_size_is_refused(tmp_path: Path) -> None:
    text = b'{"pad": "' + b"x" * 200_000 + b'"}'
    with pytest.raises(ClarqError, match=r"unsafe submission|not a readable zip"):
        read_zip_members(lying_zip(tmp_path / "lie.zip", text, 1000, crc_of_prefix=False))


def test_a_lying_header_with_a_forged_crc_yields_no_more_than_it_declared(tmp_path: Path) -> None:
    text = b'{"pad": "' + b"x" * 200_000 + b'"}'
    path = lying_zip(tmp_path / "forged.zip", text, 1000, crc_of_prefix=True)
    try:
        members = read_zip_members(path)
    except ClarqError as exc:
        assert "unsafe submission" in str(exc)
    else:
        assert len(members["manifest.json"]) <= 1000
    submission, result = verify_file(path, str(SAMPLE_TASKS))  # and what it did yield is no submission
    assert submission is None and result.problems


def dcg(flags: list[bool]) -> float:
    return sum(1 / math.log2(rank + 1) for rank, hit in enumerate(flags, start=1) if hit)


def test_ndcg_with_more_relevant_items_than_k_is_one_for_a_perfect_top_k() -> None:
    assert ndcg_at([True, True, True, False, True], 3, 5) == pytest.approx(1.0)
    assert ndcg_at([True] * 5, 5, 8) == pytest.approx(1.0)
    assert ndcg_at([True, False, True, True], 3, 6) == pytest.approx(dcg([True, False, True]) / dcg([True] * 3))
    assert ndcg_at([False, False, False, True], 3, 4) == 0.0


def site_row_cells(honest: Path, tmp_path: Path, edit) -> list[str]:
    """The English leaderboard row of the (edited, re-sealed) submission, cell by cell."""
    import re

    from clarq_bench.leaderboard.site import build_site, load_entries

    folder = tmp_path / "subs"
    folder.mkdir(parents=True)
    edit_submission(honest, tmp_path, edit).rename(folder / "a.json")
    entries, rejected = load_entries(folder, data=str(SAMPLE_TASKS))
    assert rejected == [] and [e.status for e in entries] == ["verified"]
    index = build_site(entries, tmp_path / "site", plots=False).read_text(encoding="utf-8")
    table = index[index.index('id="board-en"') :]
    body = table[table.index("<tbody><tr>") :]
    row = body[: body.index("</tr>")]
    return re.findall(r"<td[^>]*>(.*?)</td>", row)


def test_a_verified_row_shows_token_figures_only_in_the_boards_unit(honest: Path, tmp_path: Path) -> None:
    """A row recorded (honestly) in the other unit clarq counts in is verified by recounting in that unit, but its
    token figures are not shown beside figures in another unit; a unit no verifier counts in is rejected."""
    import json as _json

    from clarq_bench.core.transcript import Transcript
    from clarq_bench.data.loader import load_tasks
    from clarq_bench.leaderboard.figures import compute_metrics
    from clarq_bench.leaderboard.site import load_entries
    from clarq_bench.scoring.judge import judge_deterministic
    from clarq_bench.scoring.lengths import FALLBACK_UNIT, counter_for, counting_in

    if token_counter().unit == FALLBACK_UNIT:
        pytest.skip("this machine counts in the fallback unit")

    def same_unit(payload):
        pass

    def fallback_unit(payload):
        tasks = {task.id: task for task in load_tasks(SAMPLE_TASKS, ("en", "zh"))}
        transcripts = [Transcript.model_validate(t) for t in payload["transcripts"]]
        with counting_in(counter_for(FALLBACK_UNIT)):
            verdicts = [judge_deterministic(t, tasks[t.task_id]) for t in transcripts]
            payload["manifest"]["metrics"] = _json.loads(_json.dumps(compute_metrics(transcripts, verdicts)))
        recorded = {(v["task_id"], v["trial"]): v for v in payload["verdicts"]}
        payload["verdicts"] = [
            {**_json.loads(v.model_dump_json()), "judge": recorded[(v.task_id, v.trial)]["judge"]} for v in verdicts
        ]

    def unknown_unit(payload):
        summary = payload["manifest"]["metrics"]["summary"]
        summary["token_unit"] = "some-other-tokenizer"
        for group in summary["by_language"]:
            group["aql_tokens"]["value"] = 4242.0

    aql_tokens_column = 8  # #, submission, seeker, provider, setting, success, AQD, AQL, AQL (tokens)
    compared = site_row_cells(honest, tmp_path / "a", same_unit)[aql_tokens_column]
    assert compared != "–" and float(compared.split()[0]) > 0
    assert site_row_cells(honest, tmp_path / "b", fallback_unit)[aql_tokens_column] == "–"
    folder = tmp_path / "c" / "subs"
    folder.mkdir(parents=True)
    edit_submission(honest, tmp_path / "c", unknown_unit).rename(folder / "a.json")
    entries, rejected = load_entries(folder, data=str(SAMPLE_TASKS))
    assert not [e for e in entries if e.status == "verified"] and rejected
