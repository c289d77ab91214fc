"""The archive under faults: an import killed with SIGKILL, queries during an import."""

import os
import random
import signal
import sqlite3
import subprocess
import sys
import time

import pytest

from lusoria.api import random_records

RECORDS = 6000


@pytest.fixture(scope="module")
def collection(tmp_path_factory):
    path = tmp_path_factory.mktemp("faults") / "many.lgn"
    path.write_text("\n".join(random_records("tablut", RECORDS, seed=11, max_plies=30)))
    return path


def start_import(db, path):
    return subprocess.Popen([sys.executable, "-m", "lusoria.cli", "import", "--db", str(db), str(path)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def whole(db) -> int:
    """Check the archive is sound and holds whole records only; how many."""
    conn = sqlite3.connect(db)
    assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
    broken = conn.execute("SELECT count(*) FROM records r LEFT JOIN (SELECT record_id, count(*) AS n FROM plies "
                          "GROUP BY record_id) p ON p.record_id = r.id WHERE r.plies + 1 != p.n").fetchone()[0]
    assert broken == 0
    tags = conn.execute("SELECT count(*) FROM records r LEFT JOIN (SELECT record_id, count(*) AS n FROM tags "
                        "GROUP BY record_id) t ON t.record_id = r.id WHERE 8 > coalesce(t.n, 0)").fetchone()[0]
    assert tags == 0
    count = conn.execute("SELECT count(*) FROM records").fetchone()[0]
    conn.close()
    return count


def test_an_import_killed_at_random_moments_leaves_whole_records(collection, tmp_path):
    db = tmp_path / "killed.db"
    counts = []
    for delay in random.Random(5).sample([0.35, 0.45, 0.55, 0.65, 0.75], 4):
        process = start_import(db, collection)
        time.sleep(delay)
        process.send_signal(signal.SIGKILL)
        process.wait()
        counts.append(whole(db))
    assert counts[-1] < RECORDS and counts == sorted(counts)  # killed before the end, never losing records
    finished = start_import(db, collection)
    output, _ = finished.communicate(timeout=300)
    assert finished.returncode == 0
    assert f"added {RECORDS - counts[-1]} records" in output and f"skipped {counts[-1]} duplicates" in output
    assert whole(db) == RECORDS


def test_queries_during_an_import_see_whole_batches(collection, tmp_path):
    db = tmp_path / "busy.db"
    writer = start_import(db, collection)
    answers = []
    while writer.poll() is None:
        if db.exists():
            result = subprocess.run(
                [sys.executable, "-m", "lusoria.cli", "sql", "--db", str(db), "--format", "csv",
                 "SELECT (SELECT count(*) FROM records) AS records, "
                 "(SELECT count(DISTINCT record_id) FROM plies) AS with_plies"],
                capture_output=True, text=True)
            if result.returncode == 0:
                answers.append(result.stdout.splitlines()[1])
            else:
                assert "not a lusoria archive" in result.stderr  # while the schema is being created
        time.sleep(0.05)
    assert writer.returncode == 0 and answers
    assert all(records == with_plies for records, with_plies in (a.split(",") for a in answers))
    assert os.path.getsize(db) > 0
