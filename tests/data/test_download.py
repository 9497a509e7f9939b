"""`clarq data download` for real over HTTP on 127.0.0.1: verified files are cached, a corrupted one is not."""

import functools
import http.server
import shutil
import threading

import pytest
from upstream_paths import UPSTREAM, needs_upstream

from clarq_bench.cli.main import main
from clarq_bench.core.errors import ClarqError
from clarq_bench.data import download as dl
from clarq_bench.data.loader import resolve_data_dir

pytestmark = needs_upstream


@pytest.fixture
def mirror(tmp_path):
    """A copy of the upstream files served over HTTP on an ephemeral loopback port."""
    root = tmp_path / "mirror"
    shutil.copytree(UPSTREAM / "data", root / "data")
    handler = functools.partial(QuietHandler, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield root, f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv(dl.ENV_CACHE, str(tmp_path / "cache"))
    monkeypatch.delenv("CLARQ_DATA", raising=False)
    return tmp_path / "cache"


def test_download_verifies_and_caches(mirror, cache, capsys):
    _, url = mirror
    assert main(["data", "download", "--url", url]) == 0
    data_dir = dl.cached_data_dir()
    assert dl.is_complete(data_dir)
    assert resolve_data_dir() == data_dir
    assert dl.verify_folder(data_dir) == {}
    assert "62 fetched" in capsys.readouterr().out
    assert main(["data", "download", "--url", url]) == 0  # second time: nothing fetched
    assert "0 fetched, 62 already present" in capsys.readouterr().out
    assert main(["tasks", "stats", "--json"]) == 0


def test_corrupted_file_is_rejected_and_not_cached(mirror, cache, capsys):
    root, url = mirror
    bad = root / "data" / "English" / "7._Competition.json"
    bad.write_bytes(bad.read_bytes().replace(b"Jax", b"Jay", 1))
    assert main(["data", "download", "--url", url]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "checksum mismatch" in err and "7._Competition.json" in err
    data_dir = dl.cached_data_dir()
    assert not (data_dir / "English" / "7._Competition.json").exists()
    assert (data_dir / "English" / "6._Defense_Mission.json").exists()  # good files kept for the retry
    assert not dl.is_complete(data_dir)
    with pytest.raises(ClarqError, match="clarq data download"):
        resolve_data_dir()


def test_offline_and_missing_is_one_line(cache, capsys):
    assert main(["data", "download", "--url", "http://127.0.0.1:9/"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("clarq: error: 62 of 62 files failed") and err.count("\n") == 1
    assert main(["tasks", "list"]) == 2
    assert "clarq data download" in capsys.readouterr().err
