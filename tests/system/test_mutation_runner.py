"""The mutation runner (tests/mutation/run.py) stopped while a mutant's tests run stops them with it."""

import importlib.util
import os
import signal
import sys
import threading
import time

import pytest
from conftest import ROOT


def runner():
    spec = importlib.util.spec_from_file_location("mutation_runner", ROOT / "tests" / "mutation" / "run.py")
    assert spec and spec.loader
    module = sys.modules[spec.name] = importlib.util.module_from_spec(spec)  # (its dataclasses look it up)
    spec.loader.exec_module(module)
    return module


def stop_when(started, pid: int) -> None:
    """SIGTERM to process `pid` once the file `started` is there."""
    while not started.exists():
        time.sleep(0.05)
    os.kill(pid, signal.SIGTERM)


def test_a_stopped_run_ends_the_tests_it_started_without_waiting_for_them(tmp_path):
    started, finished = tmp_path / "started", tmp_path / "finished"
    (tmp_path / "test_slow.py").write_text(
        "import time\nfrom pathlib import Path\n\n\ndef test_slow():\n"
        f"    Path({str(started)!r}).touch()\n    time.sleep(10)\n    Path({str(finished)!r}).touch()\n"
    )
    before = signal.signal(signal.SIGTERM, lambda *_: exit("stopped"))  # the runner's own handler
    try:
        threading.Thread(target=stop_when, args=(started, os.getpid()), daemon=True).start()
        with pytest.raises(SystemExit, match="stopped"):
            runner().pytest(tmp_path, ["test_slow.py"], timeout=300)
    finally:
        signal.signal(signal.SIGTERM, before)
    assert started.exists() and not finished.exists()
