"""The offline clarification track on the leaderboard: `clarq select` summaries become rows of their own table,
anything else under the tracks folder is a rejected file with one line, and every string from a file is escaped.
Real summaries come from `clarq select` on the shipped baselines (released data; skipped without it); hand-written
ones (tests/track_helpers.py) cover what the released data cannot: hostile names and implausible figures."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from track_helpers import HOSTILE_NAME, track_summary, write_json
from upstream_paths import UPSTREAM_DATA, UPSTREAM_RESULTS, WHERE

import clarq_bench as clarq
from clarq_bench.cli.main import main
from clarq_bench.core.errors import ClarqError
from clarq_bench.leaderboard.track_rows import TITLE, TrackRow, load_track_rows, track_html
from clarq_bench.leaderboard.track_summary import MAX_SUMMARY_BYTES, read_track_summary

SYSTEMS = (("best-question", "en"), ("bm25", "en"), ("worst-question", "en"), ("bm25", "zh"))


def table_rows(page: str) -> list[list[str]]:
    """The data-value of every cell of the track table, row by row, unescaped."""
    table = re.search(r'<table class="sortable track" id="track-clarify-offline">(.*?)</table>', page, re.S)
    assert table, "no track table"
    body = table.group(1).split("<tbody>", 1)[1]
    return [
        [html.unescape(v) for v in re.findall(r'<td[^>]*data-value="([^"]*)"', row)]
        for row in re.findall(r"<tr>(.*?)</tr>", body, re.S)
    ]


@pytest.fixture(scope="module")
def real_tracks(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """runs/select-like folder: `clarq select` on four tasks for each of SYSTEMS, written as the command writes it."""
    if not UPSTREAM_DATA.is_dir():
        pytest.skip(f"the released data is not in {WHERE}: no real track summaries")
    folder = tmp_path_factory.mktemp("select")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("CLARQ_CACHE_DIR", str(tmp_path_factory.mktemp("clarq-cache")))
        for seeker, language in SYSTEMS:
            clarq.select(
                seeker,
                lang=language,
                limit=4,
                data=UPSTREAM_DATA,
                results=UPSTREAM_RESULTS,
                resamples=200,
                out=folder / f"{seeker}-{language}",
                plots=False,
            )
        yield folder


def test_real_select_summaries_load_as_rows_in_their_own_table(real_tracks: Path) -> None:
    rows, problems = load_track_rows(real_tracks)
    assert problems == []  # report.md and selections.jsonl beside each summary are not *.json files
    assert sorted(r.source for r in rows) == sorted(f"{s}-{lang}/summary.json" for s, lang in SYSTEMS)
    written = {r.source: json.loads((real_tracks / r.source).read_text(encoding="utf-8")) for r in rows}
    page = track_html(rows)
    assert f"<h2>{html.escape(TITLE)}</h2>" in page and "not a dialogue result" in page
    cells = table_rows(page)
    # rows by language, then MRR: best > bm25 > worst in English, then the Chinese row
    assert [(c[0], c[1]) for c in cells] == [
        ("best-question", "en"),
        ("bm25", "en"),
        ("worst-question", "en"),
        ("bm25", "zh"),
    ]
    for cell in cells:
        summary = written[f"{cell[0]}-{cell[1]}/summary.json"]
        assert cell[2:4] == [str(summary["states"]), str(summary["tasks"])]
        assert float(cell[4]) == summary["need_intervals"]["f1"]["value"] == summary["need"]["f1"]
        assert [float(v) for v in cell[5:]] == [
            summary["selection"][k]["value"] for k in ("mrr", "ndcg@3", "olar", "lar")
        ]
    assert cells[0][5] == "1.0" and float(cells[2][5]) < 0.1 < float(cells[1][5])
    best = written["best-question-en/summary.json"]["selection"]["olar"]
    assert f'{best["value"]:.3f} <span class="ci">[{best["low"]:.3f}, {best["high"]:.3f}]</span>' in page
    assert page.count('<span class="badge track">clarify-offline</span>') == 4  # every row marked as the track's


def test_build_shows_tracks_beside_the_submissions_and_rejects_a_dialogue_summary(
    real_tracks: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    subs = tmp_path / "subs"
    (subs / "tracks").mkdir(parents=True)
    for seeker, language in SYSTEMS[:2]:
        source = real_tracks / f"{seeker}-{language}" / "summary.json"
        (subs / "tracks" / f"{seeker}-{language}.json").write_bytes(source.read_bytes())
    write_json(subs / "tracks" / "run" / "summary.json", {"dialogues": 4, "success": {"value": 0.5}})  # `clarq score`'s
    assert main(["leaderboard", "build", str(subs), "-o", str(tmp_path / "site"), "--no-plots"]) == 0
    printed = capsys.readouterr().out
    assert "rejected tracks/run/summary.json: is not a clarify-offline summary" in printed
    page = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert [c[0] for c in table_rows(page)] == ["best-question", "bm25"]
    assert "<h2>Rejected files</h2>" in page and "<li>tracks/run/summary.json: is not a clarify-offline" in page
    assert str(tmp_path) not in page  # files are named by their place in the folder, never the local path
    # --tracks names another folder (searched at any depth) and wins over tracks/ beside the submissions
    assert (
        main(
            [
                "leaderboard",
                "build",
                str(subs),
                "-o",
                str(tmp_path / "site2"),
                "--no-plots",
                "--tracks",
                str(real_tracks),
            ]
        )
        == 0
    )
    assert len(table_rows((tmp_path / "site2" / "index.html").read_text(encoding="utf-8"))) == 4
    assert "0 rejected" in capsys.readouterr().out


def test_hand_written_rows_format_and_order(tmp_path: Path) -> None:
    folder = tmp_path / "tracks"
    write_json(folder / "a.json", track_summary("alpha", "zh", mrr=0.9))
    write_json(folder / "b.json", track_summary("beta", "en", mrr=0.4, f1=0.125, intervals=False))
    write_json(folder / "c" / "d.json", track_summary("gamma", "en", mrr=0.6))
    rows, problems = load_track_rows(folder)
    assert problems == [] and [r.source for r in rows] == ["a.json", "b.json", "c/d.json"]
    page = track_html(rows)
    assert [c[:2] for c in table_rows(page)] == [["gamma", "en"], ["beta", "en"], ["alpha", "zh"]]
    assert table_rows(page)[1] == ["beta", "en", "12", "3", "0.125", "0.4", "0.32000000000000006", "0.2", "0.24"]
    # need F1 without an interval in the file shows the point value alone; with one, its interval
    assert '<td class="num" data-value="0.125">0.125</td>' in page
    assert '<td class="num" data-value="0.25">0.250 <span class="ci">[0.150, 0.350]</span></td>' in page
    assert '<td class="num" data-value="0.6">0.600 <span class="ci">[0.550, 0.650]</span></td>' in page  # MRR
    assert ">English</td>" in page and ">Chinese</td>" in page and "c/d.json" in page
    assert track_html([]) == ""


@pytest.mark.parametrize(
    ("name", "content", "problem"),
    [
        ("broken.json", "{not json", "not JSON (line 1 column 2"),
        ("list.json", "[1, 2]", "is not a clarify-offline summary"),
        (
            "other-track.json",
            json.dumps({**track_summary("x"), "track": "dialogue"}),
            "is not a clarify-offline summary",
        ),
        (
            "missing.json",
            json.dumps({k: v for k, v in track_summary("x").items() if k != "states"}),
            "malformed clarify-offline summary: states: Field required",
        ),
        ("typed.json", json.dumps({**track_summary("x"), "tasks": "many"}), "malformed clarify-offline summary: tasks"),
        ("deep.json", '{"track": "clarify-offline", "a": ' + "[" * 100 + "]" * 100 + "}", "nested deeper than 64"),
        ("mrr.json", json.dumps(track_summary("x", mrr=7.0)), "implausible clarify-offline summary: mrr 7.0"),
        ("nan.json", json.dumps(track_summary("x", f1=float("nan"))), "need_f1 nan is not a share"),
        ("inf.json", json.dumps(track_summary("x", mrr=float("inf"))), "mrr inf is not a share"),
        ("negative.json", json.dumps({**track_summary("x"), "errors": -1}), "a negative count"),
        ("needed.json", json.dumps({**track_summary("x"), "needed_states": 13}), "13 states needing a question of 12"),
        ("empty-name.json", json.dumps(track_summary("  ")), "the system name is empty"),
        ("long-name.json", json.dumps(track_summary("x" * 201)), "longer than 200 characters"),
    ],
)
def test_a_file_that_is_not_a_track_summary_is_one_rejected_line(
    tmp_path: Path, name: str, content: str, problem: str
) -> None:
    folder = tmp_path / "tracks"
    folder.mkdir()
    (folder / name).write_text(content, encoding="utf-8")
    write_json(folder / "good.json", track_summary("good"))
    rows, problems = load_track_rows(folder)
    assert [r.source for r in rows] == ["good.json"]
    ((rejected, why),) = problems
    assert rejected == name and problem in why and "\n" not in why and str(tmp_path) not in why


def test_size_cap_bytes_and_folders_named_json(tmp_path: Path) -> None:
    folder = tmp_path / "tracks"
    write_json(folder / "huge.json", {**track_summary("x"), "pad": "a" * MAX_SUMMARY_BYTES})
    (folder / "latin1.json").write_bytes(b'{"seeker": "\xe9"}')
    (folder / "dir.json").mkdir()  # a folder whose name ends in .json is walked, not read
    (folder / "dir.json" / "up").symlink_to("..")  # a link back up is not followed round and round
    write_json(folder / "dir.json" / "inner.json", track_summary("inner"))
    rows, problems = load_track_rows(folder)
    assert [r.source for r in rows] == ["dir.json/inner.json"]
    assert dict(problems).keys() == {"huge.json", "latin1.json"}
    assert "more than the limit" in dict(problems)["huge.json"] and "not UTF-8" in dict(problems)["latin1.json"]
    with pytest.raises(ClarqError, match="is not a folder"):
        load_track_rows(tmp_path / "missing")
    assert (
        main(
            [
                "leaderboard",
                "build",
                str(tmp_path / "subs-missing"),
                "-o",
                str(tmp_path / "s"),
                "--tracks",
                str(tmp_path / "nothing"),
            ]
        )
        == 2
    )


def test_hostile_strings_are_escaped_everywhere(tmp_path: Path) -> None:
    subs = tmp_path / "subs"
    subs.mkdir()
    tracks = tmp_path / "t"
    write_json(tracks / "<b>file<i>.json", track_summary(HOSTILE_NAME, language="<s>zh</s>"))
    write_json(tracks / '"><img src=x onerror=alert(3)>.json', {"track": "<script>alert(4)</script>"})
    index, entries, rejected = clarq.build_leaderboard(subs, tmp_path / "site", plots=False, tracks=tracks)
    assert entries == [] and [name for name, _ in rejected] == ['tracks/"><img src=x onerror=alert(3)>.json']
    page = index.read_text(encoding="utf-8")
    for raw in (HOSTILE_NAME, "<script>alert", "<s>zh", "<b>file", "<img src=x onerror=alert(3)>", '"><img'):
        assert raw not in page
    assert re.findall(r"<script[^>]*>", page) == ['<script src="assets/leaderboard.js">']
    assert "&lt;img src=x onerror=alert(1)&gt;" in page and "&lt;b&gt;file&lt;i&gt;.json" in page
    assert table_rows(page)[0][:2] == [HOSTILE_NAME, "<s>zh</s>"]  # shown as text, value intact


def test_track_rows_never_enter_the_dialogue_tables(tmp_path: Path) -> None:
    """Even given the same folder as submissions, a track summary is rejected as a submission, shown as a track row."""
    from clarq_bench.leaderboard.site import build_site, load_entries

    folder = tmp_path / "subs"
    write_json(folder / "bm25-en.json", track_summary("bm25"))
    entries, rejected = load_entries(folder, verify=False)
    assert entries == [] and [name for name, _ in rejected] == ["bm25-en.json"]
    rows, _ = load_track_rows(folder)
    page = build_site(entries, tmp_path / "site", rejected=rejected, plots=False, tracks=rows).read_text()
    assert 'id="board-' not in page and [c[0] for c in table_rows(page)] == ["bm25"]
    assert isinstance(rows[0], TrackRow) and rows[0].summary == read_track_summary(folder / "bm25-en.json")
