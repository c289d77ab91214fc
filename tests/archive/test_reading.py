"""`sql`, `query` and `stats` only ever read the archive, whatever the path or the SQL; a
statement stops on Ctrl-C or after --timeout; a read-only directory is read; an import the
archive cannot take says so and leaves it whole."""

import gc
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import threading
import weakref
from collections.abc import Iterator
from contextlib import closing
from types import SimpleNamespace

import pytest
from click.testing import CliRunner
from conftest import ROOT, connect, ctrl_c_when_ready

from lusoria import output
from lusoria.api import random_records
from lusoria.archive import Archive, Filters, ImportStopped, ReadOnlyError, reading
from lusoria.archive.reading import read_only_authorizer, unique_names
from lusoria.archive.schema import SCHEMA_VERSION
from lusoria.cli import main

ENDLESS = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT count(*) FROM n"
# Three rows, each the count of its own 20,000 steps (a correlated subquery: the watch looks while each is made)
SLOW_ROWS = (
    "SELECT (WITH RECURSIVE n(i) AS (SELECT r.id UNION ALL SELECT i + 1 FROM n WHERE i < r.id + 19999) "
    "SELECT count(*) FROM n) AS n FROM records AS r LIMIT 3"
)


def run(*args: str):
    return CliRunner().invoke(main, list(args))


@pytest.fixture(scope="module")
def archive(tmp_path_factory):
    path = tmp_path_factory.mktemp("read-only") / "a.db"
    assert run("import", "--db", str(path), str(ROOT / "samples/tablut")).exit_code == 0
    return path


def schema(path) -> list:
    conn = connect(path)
    try:
        return conn.execute("SELECT type, name FROM sqlite_master ORDER BY name").fetchall()
    finally:
        conn.close()


WRITES = [
    "DROP TABLE records",
    "CREATE TABLE x(a)",
    "CREATE TEMP TABLE x(a)",
    "CREATE TEMP VIEW v AS SELECT 1",
    "INSERT INTO tags VALUES (1, 'X', 'y')",
    "DELETE FROM records",
    "UPDATE records SET white = 'x'",
    "UPDATE sqlite_master SET sql = ''",
    "PRAGMA writable_schema = 1",
    "PRAGMA user_version = 7",
    "PRAGMA journal_mode = DELETE",
    "ATTACH DATABASE ':memory:' AS m",
    "BEGIN",
    "SAVEPOINT s",
    "ANALYZE",
    "REINDEX",
    "VACUUM",
    "SELECT load_extension('x')",
    "SELECT fts3_tokenizer('simple')",
    "CREATE VIRTUAL TABLE temp.t USING fts5(a)",
]


@pytest.mark.parametrize("name", ["b.db?mode=rw&x=", "d#1/arch.db", "c%41.db", "plain.db"])
def test_no_path_opens_the_archive_for_writing(name, archive, tmp_path):
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(archive, path)
    (tmp_path / "cA.db").write_bytes(b"")  # what the URI 'c%41.db' once named
    before = schema(path)
    for statement in WRITES:
        result = run("sql", "--db", str(path), statement)
        assert result.exit_code == 1 and "lusoria sql only reads" in result.output, (name, statement, result.output)
    assert schema(path) == before
    assert run("sql", "--db", str(path), "--format", "csv", "SELECT count(*) AS n FROM records").output == "n\n4\n"


def test_reading_pragmas_are_allowed(archive):
    table_info = Archive(str(archive)).sql("PRAGMA table_info(records)")
    assert [row["name"] for row in table_info][:3] == ["id", "hash", "game"]
    assert Archive(str(archive)).sql("SELECT name FROM pragma_index_list('records') ORDER BY name")[0]["name"]
    assert Archive(str(archive)).sql("PRAGMA user_version") == [{"user_version": SCHEMA_VERSION}]
    assert len(Archive(str(archive)).query(Filters(text="Linnaeus"))) >= 1  # the full-text index reads


def held(path) -> list[str]:
    """The files of the archive at `path` (its WAL and shared memory too) this process holds open."""
    opened = (os.path.realpath(f"/proc/self/fd/{fd}") for fd in os.listdir("/proc/self/fd"))
    return sorted(name for name in opened if name.startswith(os.path.realpath(path)))


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="the descriptors a process holds are listed on Linux")
@pytest.mark.parametrize(
    "read",
    [
        lambda archive: archive.tree(from_id=1),
        lambda archive: archive.stats(),
        lambda archive: archive.query(Filters()),
        lambda archive: archive.sql("SELECT count(*) FROM records"),
    ],
    ids=["tree", "stats", "query", "sql"],
)
def test_a_read_leaves_the_archive_closed(archive, read):
    before = held(archive)  # (none, unless an earlier test of this process holds one)
    assert read(Archive(str(archive))) and held(archive) == before


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="the descriptors a process holds are listed on Linux")
def test_an_import_leaves_the_archive_closed(tmp_path):
    """The import that makes the archive and one into it: neither holds its file, WAL or shared memory."""
    path = tmp_path / "a.db"
    made = Archive(str(path)).import_paths([ROOT / "samples/tablut"])
    assert made.added == 4 and held(path) == []
    again = Archive(str(path)).import_paths([ROOT / "samples/tablut"])
    assert again.duplicates == 4 and held(path) == []


def test_the_authorizer_denies_every_action_but_reading():
    reading = {
        sqlite3.SQLITE_SELECT,
        sqlite3.SQLITE_READ,
        sqlite3.SQLITE_FUNCTION,
        sqlite3.SQLITE_RECURSIVE,
        sqlite3.SQLITE_PRAGMA,
        sqlite3.SQLITE_UPDATE,
    }
    for name in dir(sqlite3):
        code = getattr(sqlite3, name)
        if name.startswith("SQLITE_") and isinstance(code, int) and 1 <= code <= 33 and code not in reading:
            assert read_only_authorizer(code, "records", None) == sqlite3.SQLITE_DENY, name
    assert read_only_authorizer(sqlite3.SQLITE_UPDATE, "records", "white") == sqlite3.SQLITE_DENY
    assert read_only_authorizer(sqlite3.SQLITE_PRAGMA, "user_version", "3") == sqlite3.SQLITE_DENY
    assert read_only_authorizer(sqlite3.SQLITE_PRAGMA, "table_info", "records") == sqlite3.SQLITE_OK
    assert read_only_authorizer(sqlite3.SQLITE_PRAGMA, "user_version", None) == sqlite3.SQLITE_OK
    for pragma in ("wal_checkpoint", "optimize", "incremental_vacuum", "shrink_memory"):  # they act with no value
        assert read_only_authorizer(sqlite3.SQLITE_PRAGMA, pragma, None) == sqlite3.SQLITE_DENY, pragma


class Clock:
    """`time.monotonic` for the statement watch: `step` seconds later at each call."""

    def __init__(self, step: float):
        self.now, self.step = 0.0, step

    def __call__(self) -> float:
        self.now += self.step
        return self.now - self.step


def test_a_statement_stops_after_the_timeout(archive, monkeypatch):
    clock = Clock(0.25)
    monkeypatch.setattr(reading, "time", SimpleNamespace(monotonic=clock))
    result = run("sql", "--db", str(archive), "--timeout", "1", ENDLESS)
    assert result.exit_code == 1
    assert "the statement ran longer than 1 s and was stopped (see --timeout)" in result.output
    assert clock.now == 1.5  # the deadline read at 0, then 0.25 … 1.0 (not later), 1.25 (later): stopped
    with pytest.raises(ReadOnlyError):
        Archive(str(archive)).sql(ENDLESS, timeout=0.5)


def test_the_damaged_record_is_sought_after_the_statements_watch_is_taken_off(archive, tmp_path):
    """A statement's time that ran out as a function failed on a damaged value (here: at once) stops
    no search for the record (it raised SQLite's "interrupted": an internal error)."""
    path = str(tmp_path / "damaged.db")
    shutil.copy(archive, path)
    conn = connect(path)
    conn.execute("UPDATE records SET packed_text = x'0011' WHERE id = 3")
    conn.commit()
    conn.close()
    said = "lusoria_text: its argument is not a value it reads"
    conn = reading.connect(path)
    conn.set_progress_handler(lambda: 1, 1)  # a watch whose time is up: every step is stopped
    assert str(reading.damaged(conn, path, said)) == f"{path}: record 3 is damaged: {said}"
    conn.close()


@pytest.mark.parametrize(
    "sql",
    [
        "SELECT randomblob(1000000000)",
        "SELECT zeroblob(20000000) FROM records",
        "SELECT group_concat(hex(zeroblob(1000000))) FROM records, records AS a",
    ],
)
def test_a_value_larger_than_the_bound_is_refused_in_one_line(archive, sql):
    """randomblob(1000000000) took a gigabyte, then a MemoryError."""
    result = run("sql", "--db", str(archive), sql)
    assert (result.exit_code, result.output) == (
        1,
        f"lusoria: the statement makes or reads a value of more than {reading.MAX_VALUE:,} bytes, the most allowed\n",
    )
    assert (
        run("sql", "--db", str(archive), "--format", "csv", f"SELECT length(zeroblob({reading.MAX_VALUE}))").output
        == f"length(zeroblob({reading.MAX_VALUE}))\n{reading.MAX_VALUE}\n"
    )


def test_a_table_holds_a_bounded_result_and_the_streamed_formats_any(archive, monkeypatch):
    monkeypatch.setattr(output, "MAX_TABLE", 1000)
    sql = "SELECT hex(zeroblob(1000)) AS h FROM records"
    result = run("sql", "--db", str(archive), sql)
    assert result.exit_code == 2 and result.output.endswith(
        "Error: a table of more than 1,000 characters of values; the formats json, csv and lgn write rows as they "
        "come, and have no bound\n"
    )
    assert run("sql", "--db", str(archive), "--format", "csv", sql).output.count("0000") > 1000


def test_the_time_rows_wait_for_their_reader_is_not_counted_in_the_timeout(archive, monkeypatch):
    """Rows read slowly (written to a pager, or a slow pipe) are not stopped by the timeout, which counts
    the statement's own running: a long result written for 60 s was stopped at 60 s, cut short."""
    clock = SimpleNamespace(now=0.0)
    monkeypatch.setattr(reading, "time", SimpleNamespace(monotonic=lambda: clock.now))
    read = []
    for row in Archive(str(archive)).iter_sql(SLOW_ROWS, timeout=1):
        read.append(row["n"])
        clock.now += 10  # (each row's own steps reach the watch: its subquery is the row's)
    assert read == [20000] * 3


def test_a_statement_that_runs_on_after_its_first_rows_were_read_is_stopped_at_its_timeout(archive, monkeypatch):
    """Only the time rows wait is taken off: read at once, rows that each take some 10 s (40 looks at a
    clock that runs a quarter of a second a look) are stopped after the first, before the third (taking
    off the time before they waited, as well, left the statement running to its end)."""
    monkeypatch.setattr(reading, "time", SimpleNamespace(monotonic=Clock(0.25)))
    read = []
    with pytest.raises(ReadOnlyError, match="^the statement ran longer than 25 s and was stopped"):
        for row in Archive(str(archive)).iter_sql(SLOW_ROWS, timeout=25):
            read.append(row["n"])
    assert read[:1] == [20000] and len(read) < 3


def test_a_statement_without_a_timeout_runs_to_its_end(archive, monkeypatch):
    clock = Clock(10.0**9)
    monkeypatch.setattr(reading, "time", SimpleNamespace(monotonic=clock))
    result = run(
        "sql",
        "--db",
        str(archive),
        "--timeout",
        "0",
        "--format",
        "csv",
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100000) SELECT count(*) AS n FROM n",
    )
    assert (result.exit_code, result.output) == (0, "n\n100000\n")
    assert clock.now > 10.0**10  # watched all along, never stopped


# `lusoria sql` that says "ready" when its statement is running (at the watch's first call)
READY_SQL = """
import sys
from lusoria.archive import reading
from lusoria.cli import main
watch = reading._Watch.__call__
def ready(self):
    if not getattr(self, "said", False):
        self.said = True
        print("ready", flush=True)
    return watch(self)
reading._Watch.__call__ = ready
main(sys.argv[1:], prog_name="lusoria")
"""


def test_ctrl_c_stops_a_statement(archive):
    status, _, errors = ctrl_c_when_ready(READY_SQL, "sql", "--db", str(archive), "--timeout", "0", ENDLESS)
    assert status == -signal.SIGINT and "Aborted!" in errors and "Traceback" not in errors


in_main_thread = pytest.mark.skipif(
    threading.current_thread() is not threading.main_thread(), reason="Ctrl-C is handled in the main thread"
)


@in_main_thread
def test_ctrl_c_while_rows_wait_part_read_is_not_lost(archive):
    """A statement's rows read in part, then left waiting: Ctrl-C raises KeyboardInterrupt where the
    program is (it only set the statement's flag, and was lost); closed, the handler before is back."""
    before = signal.getsignal(signal.SIGINT)
    rows = reading.iter_sql(str(archive), "SELECT id FROM records ORDER BY id")
    assert next(rows) == {"id": 1}
    with pytest.raises(KeyboardInterrupt):
        signal.raise_signal(signal.SIGINT)
    assert next(rows) == {"id": 2}  # (the statement goes on: the Ctrl-C was the program's)
    rows.close()
    assert signal.getsignal(signal.SIGINT) == before


SPARSE_ROWS = (  # rows far apart: SQLite runs a while to find the next
    "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 100000) "
    "SELECT x FROM c WHERE x IN (1, 50000, 100000)"
)


@pytest.fixture
def ctrl_c_armed(monkeypatch) -> list[bool]:
    """Set its one item: the user's Ctrl-C comes once, the next time SQLite's progress handler runs."""
    armed, watch = [False], reading._Watch.__call__

    def ctrl_c_once(self: reading._Watch) -> int:
        if armed[0]:
            armed[0] = False
            signal.raise_signal(signal.SIGINT)
        return watch(self)

    monkeypatch.setattr(reading._Watch, "__call__", ctrl_c_once)
    return armed


def stopped_by_ctrl_c_seeking_on(rows: Iterator[dict], armed: list[bool]) -> None:
    """Rows of SPARSE_ROWS read on, Ctrl-C while SQLite seeks the next: KeyboardInterrupt."""
    armed[0] = True
    with pytest.raises(KeyboardInterrupt):  # (sqlite3 of Python 3.11 seeks a row ahead: the third)
        next(rows), next(rows)
    assert not armed[0]


@in_main_thread
def test_ctrl_c_while_a_part_read_statement_runs_on_stops_it(archive, ctrl_c_armed):
    """Rows read in part, then read on: Ctrl-C while SQLite seeks the next row stops the statement, as
    before its first row (KeyboardInterrupt; Ctrl-C passed on to the handler before, within SQLite's
    progress handler, was swallowed there and the statement said it was interrupted for another reason)."""
    rows = reading.iter_sql(str(archive), SPARSE_ROWS)
    assert next(rows) == {"x": 1}
    stopped_by_ctrl_c_seeking_on(rows, ctrl_c_armed)


@in_main_thread
def test_two_statements_closed_in_the_order_they_began_keep_ctrl_c(archive, ctrl_c_armed):
    """Two statements part-read, the first closed first: Ctrl-C still stops the second (the first put back
    the handler before it, and a Ctrl-C in the second was swallowed by SQLite's progress handler: a
    TypeError, or 'runs longer than'); the second closed, the next Ctrl-C puts the handler before back."""
    before = signal.getsignal(signal.SIGINT)
    first, second = (
        reading.iter_sql(str(archive), "SELECT id FROM records"),
        reading.iter_sql(str(archive), SPARSE_ROWS),
    )
    next(first), next(second)
    first.close()
    stopped_by_ctrl_c_seeking_on(second, ctrl_c_armed)
    with pytest.raises(KeyboardInterrupt):
        signal.raise_signal(signal.SIGINT)
    assert signal.getsignal(signal.SIGINT) == before


@in_main_thread
def test_ctrl_c_ignored_by_the_program_is_ignored_while_rows_wait(archive):
    """A program that ignores Ctrl-C (SIG_IGN, as `nohup` starts it): Ctrl-C while its rows wait is ignored
    too, and the rows read on; closed, SIGINT is ignored again."""
    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        rows = reading.iter_sql(str(archive), "SELECT id FROM records ORDER BY id")
        assert next(rows) == {"id": 1}
        signal.raise_signal(signal.SIGINT)
        assert next(rows) == {"id": 2}
        rows.close()
        assert signal.getsignal(signal.SIGINT) == signal.SIG_IGN
    finally:
        signal.signal(signal.SIGINT, before)


@in_main_thread
def test_ctrl_c_ignored_by_the_program_is_ignored_while_a_statement_runs(archive, ctrl_c_armed):
    """A program that ignores Ctrl-C: Ctrl-C while SQLite seeks a row is ignored, and the statement
    runs to its end (the statement's handler stood in for SIG_IGN, and stopped it)."""
    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        ctrl_c_armed[0] = True
        assert list(reading.iter_sql(str(archive), SPARSE_ROWS)) == [{"x": 1}, {"x": 50000}, {"x": 100000}]
        assert not ctrl_c_armed[0]
        assert signal.getsignal(signal.SIGINT) == signal.SIG_IGN
    finally:
        signal.signal(signal.SIGINT, before)


@in_main_thread
def test_ctrl_c_stops_the_move_tree_with_a_timeout_as_ctrl_c(archive, ctrl_c_armed):
    """The move tree watched for its --timeout: Ctrl-C raises KeyboardInterrupt (it said the tree
    took longer than its timeout)."""
    sqlite3.enable_callback_tracebacks(False)  # (as lusoria has it: importing Datasette turns them on)
    ctrl_c_armed[0] = True
    with pytest.raises(KeyboardInterrupt):
        Archive(str(archive), timeout=60, notes=lambda note: None).tree(filters=Filters(game="tablut"), depth=40)
    assert not ctrl_c_armed[0]


def test_a_connection_is_used_only_by_its_thread_unless_asked(archive):
    """Only `iter_sql`'s connection, whose rows may be closed by the garbage collector in any thread,
    is used by another thread than the one that opened it."""
    errors = []

    def read(conn: sqlite3.Connection) -> None:
        try:
            errors.append(conn.execute("SELECT count(*) FROM records").fetchone())
        except sqlite3.ProgrammingError as error:
            errors.append(type(error).__name__)

    for any_thread in (False, True):
        conn = reading.connect(str(archive), any_thread=any_thread)
        thread = threading.Thread(target=read, args=[conn])
        thread.start(), thread.join()
        conn.close()
    assert errors == ["ProgrammingError", (4,)]


@pytest.mark.parametrize(
    "seconds, said",
    [
        (None, "the statement was interrupted and stopped"),
        (0, "the statement was interrupted and stopped"),
        (2.5, "the statement ran longer than 2.5 s and was stopped"),
    ],
)
def test_an_interrupted_statement_is_said_stopped_by_its_timeout_only_if_it_had_one(archive, seconds, said):
    """SQLite's "interrupted" with no time limit is no timeout (formatting None raised TypeError)."""
    with closing(reading.connect(str(archive))) as conn:
        refusal = reading.refused(conn, str(archive), sqlite3.OperationalError("interrupted"), seconds)
    assert (type(refusal), str(refusal), refusal.parameter) == (
        ReadOnlyError,
        said,
        "timeout" if seconds else None,
    )


@in_main_thread
def test_rows_left_part_read_are_collected_in_another_thread_without_an_error(archive, monkeypatch):
    """Rows of the main thread left part-read in a cycle, collected by the garbage collector in another
    thread: no error (restoring the SIGINT handler raised ValueError there, closing the connection
    sqlite3.ProgrammingError, both unraisable); the next Ctrl-C is not lost, and puts the handler back."""
    before, unraisable = signal.getsignal(signal.SIGINT), []
    monkeypatch.setattr(sys, "unraisablehook", unraisable.append)
    rows = reading.iter_sql(str(archive), "SELECT id FROM records")
    next(rows)
    cycle: list = [rows]
    cycle.append(cycle)
    left = weakref.ref(rows)
    del rows, cycle
    gc.disable()  # (collected in the other thread alone)
    try:
        collector = threading.Thread(target=gc.collect)
        collector.start()
        collector.join()
    finally:
        gc.enable()
    assert left() is None and unraisable == []
    with pytest.raises(KeyboardInterrupt):
        signal.raise_signal(signal.SIGINT)
    assert signal.getsignal(signal.SIGINT) == before


@in_main_thread
def test_rows_a_format_cannot_write_are_closed_where_they_are_left(archive):
    """`sql --format lgn` stopped at a row it cannot write: its statement is closed then (its rows
    were left to the garbage collector, kept alive by the error, with its Ctrl-C handler)."""
    before = signal.getsignal(signal.SIGINT)
    gc.disable()
    try:
        result = run("sql", "--db", str(archive), "--format", "lgn", "SELECT 1 AS text UNION ALL SELECT 2")
        handler = signal.getsignal(signal.SIGINT)
    finally:
        gc.enable()
    assert result.exit_code == 2 and "row 1 holds 1" in result.output
    assert handler == before


def test_output_formats_show_every_value(archive):
    result = run(
        "sql",
        "--db",
        str(archive),
        "--format",
        "json",
        "SELECT X'00ff' AS blob, 1e999 AS big, -1e999 AS small, 1 AS n, 2 AS n",
    )
    assert json.loads(result.output) == [{"blob": "X'00FF'", "big": "Infinity", "small": "-Infinity", "n": 1, "n_2": 2}]
    for statement, shown in (("SELECT NULL AS text", "None"), ("SELECT 1 AS text", "1")):
        result = run("sql", "--db", str(archive), "--format", "lgn", statement)
        assert result.exit_code == 2 and f"row 1 holds {shown}" in result.output
    assert unique_names(["a", "a", "a_2", "b", "a"]) == ["a", "a_2", "a_2_2", "b", "a_3"]


def test_query_json_is_the_same_streamed(archive):
    rows = Archive(str(archive)).query()  # new user 24: no filters, as `lusoria query` alone (and as stats takes)
    assert rows == Archive(str(archive)).query(Filters()) and len(rows) == 4
    result = run("query", "--db", str(archive), "--format", "json")
    assert [row["id"] for row in json.loads(result.output)] == [row["id"] for row in rows]
    assert run("query", "--db", str(archive), "--format", "json", "--white", "nobody").stdout == "[]\n"  # note: stderr


def unshared(*commands: str) -> subprocess.CompletedProcess:
    return subprocess.run(["unshare", "-rm", "sh", "-c", " && ".join(commands)], capture_output=True, text=True)


needs_mounts = pytest.mark.skipif(
    shutil.which("unshare") is None or unshared("true").returncode != 0,
    reason="needs unshare -rm (user and mount namespaces)",
)


@needs_mounts
def test_an_archive_in_a_read_only_directory_is_read(archive, tmp_path):
    folder = tmp_path / "shelf"
    folder.mkdir()
    shutil.copy(archive, folder / "a.db")
    lusoria = f"{sys.executable} -m lusoria.cli"
    db = folder / "a.db"
    done = unshared(
        f"mount --bind -o ro {folder} {folder}",
        f"cd {ROOT}",
        f"{lusoria} query --db {db} --format csv --game tablut",
        f"{lusoria} sql --db {db} --format csv 'SELECT count(*) AS n FROM records'",
        f"{lusoria} stats --db {db}",
        f"! {lusoria} import --db {db} samples/laquet",
    )
    assert done.returncode == 0, done.stderr
    assert "n\n4\n" in done.stdout and "4 records: 4 valid" in done.stdout
    assert "Traceback" not in done.stderr
    assert f"lusoria: {db}: the archive or its directory is read-only; nothing was imported" in done.stderr
    assert os.listdir(folder) == ["a.db"]


def test_an_archive_this_process_may_not_write_is_read_with_nothing_made_beside_it(archive, tmp_path, monkeypatch):
    """h72b: an archive whose file its reader may not write (another member's, in a club's shared folder)
    got a -wal and a -shm while read, left behind as read-only as the file (only a connection that may
    write deletes them): made writable again, the archive refused every import until they were deleted
    by hand. Such a file is read as immutable, which makes neither; one with a -wal beside it, whose
    pages only that file may hold, is read through it. (The run is root's, which may write any file:
    os.access says it may not.)"""
    shutil.copy(archive, tmp_path / "a.db")
    path = str(tmp_path / "a.db")
    allowed = os.access
    monkeypatch.setattr(os, "access", lambda name, mode: (name, mode) != (path, os.W_OK) and allowed(name, mode))
    with closing(reading.connect(path)) as conn:
        assert conn.execute("SELECT count(*) FROM records").fetchone() == (4,)
        assert os.listdir(tmp_path) == ["a.db"]
    (tmp_path / "a.db-wal").write_bytes(b"")
    with closing(reading.connect(path)) as conn:
        assert conn.execute("SELECT count(*) FROM records").fetchone() == (4,)
        assert sorted(os.listdir(tmp_path)) == ["a.db", "a.db-shm", "a.db-wal"]
    assert os.listdir(tmp_path) == ["a.db"]  # (closed: deleted, by a connection that may write)
    (tmp_path / "a.db-journal").write_bytes(b"")  # (review72: a writer's journal, which immutable reads past)
    with closing(reading.connect(path)) as conn:
        assert sorted(os.listdir(tmp_path)) == ["a.db", "a.db-journal", "a.db-shm", "a.db-wal"]
    older = tmp_path / "older" / "a.db"  # an archive in rollback mode, as an older lusoria's: never immutable
    older.parent.mkdir()
    shutil.copy(archive, older)
    with closing(sqlite3.connect(older)) as conn:
        conn.execute("PRAGMA journal_mode = DELETE")
    assert not reading._wal_alone(str(older))


def test_an_import_into_a_damaged_archive_says_it_is_intact(archive, tmp_path):
    path = tmp_path / "damaged.db"
    shutil.copy(archive, path)
    conn = connect(path)
    conn.execute("DROP TABLE moves")
    conn.commit()
    conn.close()
    result = run("import", "--db", str(path), str(ROOT / "samples/laquet"))
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert "the import stopped: no such table: moves. The archive is intact" in result.output
    assert Archive(str(path)).sql("SELECT count(*) AS n FROM records") == [{"n": 4}]
    with pytest.raises(ImportStopped):
        Archive(str(path)).import_paths([str(ROOT / "samples/laquet")])


def import_on_a_full_disk(path, collection, limit: int) -> subprocess.CompletedProcess:
    """`lusoria import` of 300 random Tablut records (written to `collection`) into `path`, in a
    process that may write files of `limit` bytes at most (the disk full beyond)."""
    script = (
        "import resource, signal, sys; signal.signal(signal.SIGXFSZ, signal.SIG_IGN); "
        f"resource.setrlimit(resource.RLIMIT_FSIZE, ({limit},) * 2); "
        "from lusoria.cli import main; main(sys.argv[1:])"
    )
    collection.write_text("\n".join(random_records("tablut", 300, seed=2)))
    return subprocess.run(
        [sys.executable, "-c", script, "import", "--db", str(path), str(collection)], capture_output=True, text=True
    )


@pytest.mark.parametrize("limit", [60_000, 700_000])  # the schema fails; the first batch fails (606 KB were left)
def test_a_first_import_on_a_full_disk_leaves_no_archive(tmp_path, limit):
    path = tmp_path / "new.db"
    done = import_on_a_full_disk(path, tmp_path / "many.lgn", limit)
    assert done.returncode == 2 and done.stderr == f"lusoria: cannot create the archive {path}: disk I/O error\n"
    assert os.listdir(tmp_path) == ["many.lgn"]


def test_an_import_on_a_full_disk_leaves_whole_batches(archive, tmp_path):
    path = tmp_path / "full.db"
    shutil.copy(archive, path)
    collection = tmp_path / "many.lgn"
    done = import_on_a_full_disk(path, collection, os.path.getsize(path))
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert "The archive is intact" in done.stderr
    conn = connect(path)
    assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    conn.close()
    again = run("import", "--db", str(path), str(collection))
    assert again.exit_code == 0 and Archive(str(path)).sql("SELECT count(*) AS n FROM records") == [{"n": 304}]
