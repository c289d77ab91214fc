"""The archive under faults: an import killed with SIGKILL at chosen points, queries during an import."""

import os
import signal
import subprocess
import sys
import time

import pytest
from conftest import connect

from lusoria.api import random_records
from lusoria.archive.importer import FAULT


@pytest.fixture(scope="module")
def collection(tmp_path_factory):
    path = tmp_path_factory.mktemp("faults") / "three-hundred.lgn"
    path.write_text("\n".join(random_records("tablut", 300, seed=11, max_plies=30)))
    return path


# imports `collection` in batches of 50 (the CLI's batches are of 1000)
SCRIPT = (
    "import sys; from lusoria.archive import Archive; "
    "print(Archive(sys.argv[1]).import_paths([sys.argv[2]], batch_size=50))"
)


def start_import(db, path):
    return subprocess.Popen(
        [sys.executable, "-m", "lusoria.cli", "import", "--db", str(db), str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def whole(db) -> int:
    """Check the archive is sound and holds whole records only; how many."""
    if not os.path.exists(db):  # killed before the archive appeared (a busy machine starts slowly)
        return 0
    conn = connect(db)
    assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
    broken = conn.execute(
        "SELECT count(*) FROM records r LEFT JOIN (SELECT record_id, count(*) AS n FROM plies "
        "GROUP BY record_id) p ON p.record_id = r.id WHERE r.plies + 1 != p.n"
    ).fetchone()[0]
    assert broken == 0
    tags = conn.execute(
        "SELECT count(*) FROM records r LEFT JOIN (SELECT record_id, count(*) AS n FROM tags "
        "GROUP BY record_id) t ON t.record_id = r.id WHERE 6 > coalesce(t.n, 0)"  # (Site, Date unknown: NULL)
    ).fetchone()[0]
    assert tags == 0
    count = conn.execute("SELECT count(*) FROM records").fetchone()[0]
    conn.close()
    return count


KILLS = [("insert:1", 0), ("commit:2", 50), ("committed:2", 100), ("insert:4", 150), ("commit:5", 200)]


def test_an_import_killed_at_chosen_points_leaves_whole_records(collection, tmp_path):
    """SIGKILL (the importer's LUSORIA_IMPORT_FAULT hook) in the middle of a batch's inserts,
    just before a COMMIT and just after one: the archive holds exactly the batches committed,
    and the next import adds the rest."""
    db = tmp_path / "killed.db"
    for point, committed in KILLS:
        process = subprocess.run(
            [sys.executable, "-c", SCRIPT, str(db), str(collection)],
            capture_output=True,
            text=True,
            env=dict(os.environ, **{FAULT: point}),
        )
        assert process.returncode == -signal.SIGKILL, (point, process.stderr)
        assert whole(db) == committed, point
    finished = subprocess.run([sys.executable, "-c", SCRIPT, str(db), str(collection)], capture_output=True, text=True)
    assert finished.returncode == 0, finished.stderr
    assert "added 100 records" in finished.stdout and "skipped 200 duplicates" in finished.stdout
    assert whole(db) == 300


@pytest.mark.parametrize("point, seen", [("insert:1", 0), ("insert:3", 100), ("commit:3", 100), ("committed:3", 150)])
def test_a_query_during_an_import_sees_whole_batches(collection, tmp_path, point, seen):
    """`lusoria sql` while the import waits at a chosen point (LUSORIA_IMPORT_FAULT=POINT:N:wait)
    in the middle of a batch, before its COMMIT or after: the batches committed, whole (each
    record with its tags and a row of plies per position)."""
    db = tmp_path / "busy.db"
    writer = subprocess.Popen(
        [sys.executable, "-c", SCRIPT, str(db), str(collection)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=dict(os.environ, **{FAULT: f"{point}:wait"}),
    )
    try:
        assert writer.stderr.readline() == f"{FAULT}: waiting at {point.replace(':', ' of batch ')}\n"
        result = subprocess.run(
            [
                sys.executable,
                "-m",
                "lusoria.cli",
                "sql",
                "--db",
                str(db),
                "--format",
                "csv",
                "SELECT (SELECT count(*) FROM records) AS records, "
                "(SELECT count(*) FROM plies) = (SELECT coalesce(sum(plies + 1), 0) FROM records) "
                "AS plies_whole, (SELECT count(DISTINCT record_id) FROM tags) AS with_tags",
            ],
            capture_output=True,
            text=True,
            timeout=120,
        )
        output, errors = writer.communicate("\n", timeout=120)
    finally:
        writer.kill()  # a step that failed leaves no process behind
    if point == "insert:1":  # a new archive appears with its first batch, whole
        assert result.stderr == f"lusoria: {db} does not exist; create it with lusoria import\n"
    else:
        assert result.stdout.splitlines() == ["records,plies_whole,with_tags", f"{seen},1,{seen}"], result.stderr
    assert writer.returncode == 0 and "added 300 records" in output, errors
    assert whole(db) == 300


@pytest.mark.slow
def test_a_first_import_killed_as_the_file_appears_leaves_no_broken_archive(tmp_path):
    """The archive file appears whole (schema and user_version in one step): killed the moment
    it exists, it is an archive, and a re-run completes the import."""
    small = tmp_path / "small.lgn"
    small.write_text("\n".join(random_records("tablut", 20, seed=5, max_plies=20)))
    for attempt in range(4):  # (two processes an attempt: 8 attempts took 11 s)
        db = tmp_path / f"first{attempt}.db"
        process = start_import(db, small)
        while process.poll() is None and not db.exists():
            time.sleep(0.001)
        process.send_signal(signal.SIGKILL)
        process.wait()
        if db.exists():
            conn = connect(db)
            assert conn.execute("PRAGMA user_version").fetchone()[0] >= 1
            conn.close()
            whole(db)
        finished = start_import(db, small)
        output, errors = finished.communicate(timeout=120)
        assert finished.returncode == 0, errors
        assert whole(db) == 20


@pytest.mark.slow
def test_two_first_imports_at_once_share_one_archive(tmp_path):
    small = tmp_path / "small.lgn"
    small.write_text("\n".join(random_records("tablut", 20, seed=6, max_plies=20)))
    for attempt in range(4):
        db = tmp_path / f"both{attempt}.db"
        processes = [start_import(db, small) for _ in range(2)]
        outputs = [process.communicate(timeout=120) for process in processes]
        assert [process.returncode for process in processes] == [0, 0], outputs
        assert whole(db) == 20
        added = sorted(int(output.split("added ")[1].split()[0]) for output, _ in outputs)
        assert added[1] == 20 - added[0]  # each record stored once, by one of them
