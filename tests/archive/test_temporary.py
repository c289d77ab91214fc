"""The temporary files an archive is built in (issue 41): `NAME.db.XXXXXXXX.tmp` and SQLite's
`-wal`, `-shm` and `-journal` beside it are removed on every path, and those of an import
killed while it made a new archive are removed by the next (they stayed, up to 2.4 MB, even
after a later import succeeded); one that another process is building is left alone."""

import fcntl
import os
import signal
import subprocess
import sys

import pytest

from lusoria.api import random_records
from lusoria.archive import Archive
from lusoria.archive.importer import FAULT
from lusoria.archive.schema import _publish


def beside(folder) -> list[str]:
    return sorted(name for name in os.listdir(folder) if ".tmp" in name)


def test_a_build_that_fails_leaves_no_file_behind(tmp_path):
    def failing(db):
        db.execute("PRAGMA journal_mode = DELETE")
        db.execute("CREATE TABLE t (a)")
        db.conn.execute("BEGIN")
        db.execute("INSERT INTO t VALUES (1)")
        assert any(name.endswith(".tmp-journal") for name in os.listdir(tmp_path))
        raise OSError("full disk")

    with pytest.raises(OSError, match="full disk"):
        _publish(failing, str(tmp_path / "a.db"), replace=False)
    assert os.listdir(tmp_path) == []


def test_the_leftovers_of_a_killed_import_are_removed_by_the_next(tmp_path):
    records = tmp_path / "games.lgn"
    records.write_text("\n".join(random_records("tablut", 20, seed=3, max_plies=20)))
    db = tmp_path / "a.db"
    killed = subprocess.run(
        [sys.executable, "-m", "lusoria.cli", "import", "--db", str(db), str(records)],
        env={**os.environ, FAULT: "insert:1"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    left = beside(tmp_path)
    assert left and all(name.startswith("a.db.") for name in left) and not db.exists()
    (tmp_path / "a.db.SQLITEzz.tmp-journal").write_bytes(b"x")  # SQLite's file of a temporary file gone
    (tmp_path / "b.db.abcdefgh.tmp").write_bytes(b"")  # another archive's: not this one's to remove
    assert Archive(str(db)).import_paths([str(records)]).added == 20
    assert beside(tmp_path) == ["b.db.abcdefgh.tmp"]


def test_a_temporary_file_in_use_is_left_alone(tmp_path):
    used = tmp_path / "a.db.inUse123.tmp"
    used.write_bytes(b"")
    (tmp_path / "a.db.inUse123.tmp-wal").write_bytes(b"")
    with open(used, "rb") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)  # as the process that builds it holds it
        assert Archive(str(tmp_path / "a.db")).import_paths(random_records("tablut", 2, seed=1)).added == 2
        assert beside(tmp_path) == ["a.db.inUse123.tmp", "a.db.inUse123.tmp-wal"]
