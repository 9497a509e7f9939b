"""Hostile task and run folders, in real `clarq` processes: a transcripts.jsonl linked to /dev/zero or to a file
outside the run, a FIFO where a file should be, a task file of empty objects; each is one line with exit 2, in
seconds and bounded memory (a size check on st_size used to read /dev/zero until memory ran out, and a FIFO hung)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
LIMIT_MB = 500

PEAK = """
import resource, subprocess, sys
def cap():
    resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))
try:
    done = subprocess.run(sys.argv[1:], capture_output=True, text=True, preexec_fn=cap, timeout=60)
except subprocess.TimeoutExpired:
    print(-1, 0); sys.exit()
print(done.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024, flush=True)
print(done.stderr, end="")
"""


def clarq(*argv: str) -> tuple[int, int, list[str]]:
    done = subprocess.run(
        [sys.executable, "-c", PEAK, sys.executable, "-m", "clarq_bench", *argv],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )
    head, _, err = done.stdout.partition("\n")
    code, peak = map(int, head.split())
    return code, peak, [line for line in err.splitlines() if line.strip()]


@pytest.fixture(scope="module")
def finished_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    runs = tmp_path_factory.mktemp("runs")
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "clarq_bench",
            "run",
            "--seeker",
            "heuristic",
            "--provider",
            "offline",
            "--tasks",
            str(REPO / "tasks"),
            "--runs-dir",
            str(runs),
            "--no-progress",
        ],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    return next(runs.iterdir())


def _copy(run: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "run"
    shutil.copytree(run, copy)
    return copy


def _dev_zero(path: Path, tmp_path: Path) -> None:
    path.unlink()
    path.symlink_to("/dev/zero")


def _fifo(path: Path, tmp_path: Path) -> None:
    path.unlink()
    os.mkfifo(path)


def _outside(path: Path, tmp_path: Path) -> None:
    secret = tmp_path / "elsewhere.jsonl"
    secret.write_bytes(path.read_bytes())
    path.unlink()
    path.symlink_to(secret)


@pytest.mark.parametrize("damage", [_dev_zero, _fifo, _outside], ids=["dev-zero", "fifo", "link-outside"])
@pytest.mark.parametrize("command", ["resume", "score"])
def test_a_hostile_transcripts_file_is_one_line(finished_run: Path, tmp_path: Path, damage, command: str) -> None:
    run = _copy(finished_run, tmp_path)
    damage(run / "transcripts.jsonl", tmp_path)
    argv = ["run", "--resume", str(run), "--no-progress"] if command == "resume" else ["score", str(run)]
    code, peak, lines = clarq(*argv)
    assert code == 2 and len(lines) == 1 and "Traceback" not in lines[0], (code, lines[-5:])
    assert "transcripts.jsonl" in lines[0] and peak < LIMIT_MB, (lines, peak)


def test_a_task_file_of_empty_objects_or_a_fifo_is_one_line(tmp_path: Path) -> None:
    tasks = tmp_path / "tasks"
    shutil.copytree(REPO / "tasks", tasks)
    victim = sorted((tasks / "English").glob("*.json"))[0]
    victim.write_text("[" + "{}," * 10_000_000 + "{}]", encoding="utf-8")
    argv = [
        "run",
        "--seeker",
        "heuristic",
        "--provider",
        "offline",
        "--tasks",
        str(tasks),
        "--runs-dir",
        str(tmp_path / "runs"),
        "--no-progress",
    ]
    code, peak, lines = clarq(*argv)
    assert code == 2 and len(lines) == 1 and "JSON objects" in lines[0] and peak < LIMIT_MB, (code, peak, lines)
    victim.unlink()
    os.mkfifo(victim)
    code, peak, lines = clarq(*argv)
    assert code == 2 and len(lines) == 1 and "not a regular file" in lines[0], (code, lines)


def test_view_writes_through_no_link_in_a_run_folder(finished_run: Path, tmp_path: Path) -> None:
    run = _copy(finished_run, tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (run / "view").symlink_to(elsewhere)
    code, _, lines = clarq("view", str(run), "--no-open")
    assert code == 2 and len(lines) == 1 and "is a link" in lines[0], lines
    assert list(elsewhere.iterdir()) == []  # nothing was written there (and --serve would not serve it)
    (run / "view").unlink()
    (run / "view" / "assets").mkdir(parents=True)
    (run / "view" / "index.html").symlink_to(elsewhere / "index.html")
    code, _, lines = clarq("view", str(run), "--no-open", "--serve")
    assert code == 2 and len(lines) == 1 and "is a link" in lines[0] and not (elsewhere / "index.html").exists()


def test_view_on_a_read_only_run_folder_is_one_line(finished_run: Path, tmp_path: Path) -> None:
    point = tmp_path / "ro"
    point.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(point)]).returncode != 0:
        pytest.skip("cannot mount a tmpfs here")
    try:
        run = point / "run"
        shutil.copytree(finished_run, run)
        shutil.rmtree(run / "view", ignore_errors=True)
        subprocess.run(["mount", "-o", "remount,ro", str(point)], check=True)
        code, _, lines = clarq("view", str(run), "--no-open")
        assert code == 2 and len(lines) == 1 and "cannot write the viewer" in lines[0] and "-o DIR" in lines[0], lines
    finally:
        subprocess.run(["umount", "-l", str(point)], check=False)


def test_submit_refuses_a_trial_outside_the_run_as_score_and_resume_do(finished_run: Path, tmp_path: Path) -> None:
    import json

    run = _copy(finished_run, tmp_path)
    lines = (run / "transcripts.jsonl").read_text(encoding="utf-8").splitlines()
    record = json.loads(lines[0])
    record["trial"] = 7  # the run has one trial
    (run / "transcripts.jsonl").write_text("\n".join([json.dumps(record), *lines[1:]]) + "\n", encoding="utf-8")
    code, _, out = clarq("submit", str(run), "-o", str(tmp_path / "s.json"), "--partial")
    assert code == 2 and len(out) == 1 and "trial 7" in out[0] and not (tmp_path / "s.json").exists(), out


def _serve(run: Path) -> tuple[subprocess.Popen, int]:
    """`clarq view RUN --serve` in a process of its own, on a free port of 127.0.0.1."""
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen(
        [sys.executable, "-m", "clarq_bench", "view", str(run), "--serve", "--port", str(port)],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    return server, port


def test_view_serve_holds_a_flood_of_idle_connections_to_its_cap(finished_run: Path, tmp_path: Path) -> None:
    import socket
    import time
    import urllib.request

    from clarq_bench.cli.view import MAX_CONNECTIONS

    run = _copy(finished_run, tmp_path)
    server, port = _serve(run)
    idle = []
    try:
        assert "serving" in server.stdout.readline()
        for _ in range(60):  # connections that never send a request (past the backlog, connect waits: let it)
            try:
                idle.append(socket.create_connection(("127.0.0.1", port), timeout=0.5))
            except OSError:
                pass
        time.sleep(1.0)
        threads = len(os.listdir(f"/proc/{server.pid}/task"))
        assert threads <= MAX_CONNECTIONS + 4, threads
        for sock in idle:
            sock.close()
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/index.html", timeout=30) as reply:
            assert reply.status == 200  # served again once the flood is gone
    finally:
        for sock in idle:
            sock.close()
        server.terminate()
        server.communicate(timeout=30)


def test_view_serve_stops_on_sigterm_while_held_at_its_cap(finished_run: Path, tmp_path: Path) -> None:
    """SIGTERM (a job scheduler, `kill`) ends the server at once even when every slot is held by an idle connection
    and more wait to be accepted: it answers "stopped" and exits 0, without waiting out the idle timeout."""
    import socket
    import time

    from clarq_bench.cli.view import IDLE_TIMEOUT_S, MAX_CONNECTIONS

    run = _copy(finished_run, tmp_path)
    server, port = _serve(run)
    idle = []
    try:
        assert "serving" in server.stdout.readline()
        for _ in range(MAX_CONNECTIONS + 8):
            try:
                idle.append(socket.create_connection(("127.0.0.1", port), timeout=0.5))
            except OSError:
                pass
        time.sleep(0.5)
        began = time.monotonic()
        server.terminate()
        out, err = server.communicate(timeout=30)
        assert time.monotonic() - began < IDLE_TIMEOUT_S, err
        assert server.returncode == 0 and "stopped" in out, (server.returncode, out, err)
    finally:
        for sock in idle:
            sock.close()
        if server.poll() is None:
            server.kill()
