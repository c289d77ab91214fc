"""Ctrl-C during `lusoria import`: at any point, the usual message (click's "Aborted!"), the process ended by
SIGINT (a shell says 130), never a traceback, and an archive of whole batches."""

import signal

import pytest
from conftest import connect, ctrl_c_when_ready

from lusoria.api import random_records

# the driver's import commits every 200 records (the CLI's, every 1000); 83 KB of records: more than a
# chunk (lusoria/workers.py), so that the worker processes check them
RECORDS, BATCH = 500, 200

# Runs `lusoria import`, stopping at a chosen statement (before or after it runs, the
# n-th time) to say "ready" and wait: the test sends SIGINT there.
DRIVER = (
    f"BATCH = {BATCH}\n"
    + """
import signal, sqlite3, sys, time
import sqlite_utils.db
signal.signal(signal.SIGINT, signal.default_int_handler)  # Ctrl-C as at a terminal, even if started in the background
statement, when, nth = sys.argv[1], sys.argv[2], int(sys.argv[3])
seen, importing = 0, False

def pause(sql, moment):
    global seen, importing
    importing = importing or sql == "BEGIN IMMEDIATE"  # the archive is made: count from the first batch
    if importing and sql.startswith(statement) and moment == when:
        seen += 1
        if seen == nth:
            print("ready", flush=True)
            # Waits in short sleeps: the kernel may hand SIGINT to one of the pool's threads, and
            # then only the main thread's next bytecode, not its sleep, notices it.
            while True:
                time.sleep(0.1)

class Pausing(sqlite3.Connection):
    def execute(self, sql, *args):
        pause(sql, "before")
        cursor = super().execute(sql, *args)
        pause(sql, "after")
        return cursor

    def executemany(self, sql, *args):
        pause(sql, "before")
        cursor = super().executemany(sql, *args)
        pause(sql, "after")
        return cursor

connect = sqlite3.connect
sqlite_utils.db.sqlite3.connect = lambda *a, **k: connect(*a, factory=Pausing, **k)
from lusoria.archive.commands import Archive
import_paths = Archive.import_paths
Archive.import_paths = lambda self, *a, **k: import_paths(self, *a, **{**k, "batch_size": BATCH})
from lusoria.cli import main
main(sys.argv[4:], prog_name="lusoria")
"""
)


@pytest.fixture(scope="module")
def collection(tmp_path_factory):
    path = tmp_path_factory.mktemp("interrupt") / "many.lgn"
    path.write_text("\n".join(random_records("tablut", RECORDS, seed=3, max_plies=4)))
    return path


@pytest.mark.parametrize(
    "statement, when, nth, kept",
    [
        ("BEGIN IMMEDIATE", "before", 2, BATCH),  # between two batches
        ("BEGIN IMMEDIATE", "after", 2, BATCH),  # a transaction open, nothing written yet
        ("INSERT INTO [positions]", "after", 2, BATCH),  # in the middle of a batch
        ("COMMIT", "before", 2, BATCH),  # the whole batch written, not committed
        ("COMMIT", "after", 2, 2 * BATCH),  # committed: "cannot rollback - no transaction is active" before
        ("COMMIT", "after", 3, RECORDS),  # the last batch committed
    ],
)
def test_ctrl_c_at_any_point_ends_with_the_usual_message(collection, tmp_path, statement, when, nth, kept):
    db = tmp_path / "archive.db"
    assert ctrl_c_when_ready(DRIVER, statement, when, str(nth), "import", "--db", str(db), str(collection)) == (
        -signal.SIGINT,  # (note81: status 1, a shell's loop went on to its next file)
        "",
        "\nAborted!\n",
    )
    connection = connect(db)
    assert connection.execute("SELECT count(*) FROM records").fetchone() == (kept,)
    assert connection.execute("SELECT count(DISTINCT record_id) FROM plies").fetchone() == (kept,)
    connection.close()
