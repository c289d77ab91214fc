"""Reading the archive, and nothing else: the connection behind `query`, `sql` and `stats`.

Read-only three times over: the file is opened through a URI with `mode=ro` (built from
the quoted absolute path, so `?`, `#` and `%` in a name are only characters); an
authorizer allows reading statements and read-only pragmas and denies every other action;
and a progress handler stops a statement on Ctrl-C or when its time is up."""

from __future__ import annotations

import contextlib
import math
import os
import signal
import sqlite3
import threading
import time
from collections.abc import Callable, Generator, Iterator
from contextlib import closing, contextmanager
from types import FrameType
from typing import Any
from urllib.parse import quote

from lusoria.archive import functions
from lusoria.archive.functions import MAX_VALUE, sql_function
from lusoria.archive.patterns import matching_plies
from lusoria.archive.players import casefold
from lusoria.archive.texts import add_functions, damaged_record
from lusoria.errors import LusoriaError
from lusoria.validator.suggest import alike, meant

DEFAULT_TIMEOUT = 60  # seconds a `lusoria sql` statement may run (--timeout)
PROGRESS_STEPS = 10_000  # virtual machine steps between two looks at the clock and at Ctrl-C

READ_ACTIONS = {sqlite3.SQLITE_SELECT, sqlite3.SQLITE_READ, sqlite3.SQLITE_FUNCTION, sqlite3.SQLITE_RECURSIVE}
# Pragmas that only report: with an argument, it names a table, an index or a database.
REPORTING_PRAGMAS = {
    "table_info",
    "table_xinfo",
    "table_list",
    "index_list",
    "index_info",
    "index_xinfo",
    "foreign_key_list",
    "database_list",
    "collation_list",
    "function_list",
    "module_list",
    "pragma_list",
    "compile_options",
    "integrity_check",
    "quick_check",
    "foreign_key_check",
}
# Pragmas that report a value without an argument, and set it with one.
VALUE_PRAGMAS = {
    "user_version",
    "schema_version",
    "application_id",
    "page_size",
    "page_count",
    "freelist_count",
    "encoding",
    "data_version",
    "journal_mode",
    "foreign_keys",
    "auto_vacuum",
}
DENIED_FUNCTIONS = {"load_extension", "fts3_tokenizer", "readfile", "writefile", "edit"}


class DamagedArchive(LusoriaError):
    """An archive that holds a value lusoria cannot read: the record, and what is wrong."""


def damaged(conn: sqlite3.Connection, path: str, said: str | None) -> LusoriaError | None:
    """DamagedArchive when `said` is what one of lusoria's functions said when it failed
    (`functions.failure`) on a value of the archive at `path` (its first damaged record named);
    ReadOnlyError when the statement gave it the value; None for any other error."""
    if said is None or said == functions.STOPPED:
        return None
    conn.set_progress_handler(None, 0)
    functions.watching(conn, None)
    record = damaged_record(conn)
    return DamagedArchive(f"{path}: record {record} is damaged: {said}") if record else ReadOnlyError(said)


class ReadOnlyError(LusoriaError):
    """SQL that `lusoria sql` refuses: it writes, attaches, runs too long, or is not valid (InvalidSQL);
    `parameter`: the argument that may help (`timeout`), if one may."""

    def __init__(self, message: str, parameter: str | None = None):
        super().__init__(message)
        self.parameter = parameter


class InvalidSQL(ReadOnlyError):
    """SQL that SQLite cannot run (a syntax error, no such table, column or function), in SQLite's
    words (with the names most like one it lacks): what `lusoria sql` says of it. A ReadOnlyError,
    as it was before it had a class of its own."""


def read_only_authorizer(action: int, first: str | None, second: str | None, *_) -> int:
    """Allow what reads, deny everything else (writes, schema changes, temporary tables and
    views, ATTACH, transactions, pragma settings, extensions)."""
    if action == sqlite3.SQLITE_FUNCTION:
        return sqlite3.SQLITE_DENY if (second or "").lower() in DENIED_FUNCTIONS else sqlite3.SQLITE_OK
    if action in READ_ACTIONS:
        return sqlite3.SQLITE_OK
    if action == sqlite3.SQLITE_UPDATE and first in ("sqlite_master", "sqlite_schema"):
        # What a virtual table's constructor (the full-text index) compiles; a real update of the
        # schema table is refused by SQLite itself (writable_schema is denied) and by mode=ro.
        return sqlite3.SQLITE_OK
    if action == sqlite3.SQLITE_PRAGMA:
        name = (first or "").lower()
        if name in REPORTING_PRAGMAS or (name in VALUE_PRAGMAS and second is None):
            return sqlite3.SQLITE_OK
    return sqlite3.SQLITE_DENY


FileState = tuple[int, int, int, int, int, tuple[int, int, int] | None]


def file_state(path: str) -> FileState | None:
    """The archive file as it stands: its device, inode, size and times of change, and its WAL's (into
    which a commit in WAL mode writes, the file changing at a checkpoint); None where it is not."""
    try:
        found = os.stat(path)
    except OSError:
        return None
    try:
        wal = os.stat(f"{path}-wal")  # (a Path too: Archive takes one)
        wal_state: tuple[int, int, int] | None = (wal.st_ino, wal.st_size, wal.st_mtime_ns)
    except OSError:
        wal_state = None
    return (found.st_dev, found.st_ino, found.st_size, found.st_mtime_ns, found.st_ctime_ns, wal_state)


WAIT = 5.0  # seconds a reading connection waits for a lock another connection holds (SQLite's default)


def connect(path: str, any_thread: bool = False) -> sqlite3.Connection:
    """The archive at `path`, opened read-only. In a directory SQLite cannot write to (where a
    WAL archive's index cannot be made), it is opened as immutable, which needs no writing; so is
    a file this process may not write in WAL mode with no -wal or -journal beside it (`_wal_alone`; h72b:
    its -wal and -shm, made as reading it and left read-only as it is, refused every import once it
    was made writable again). One thread uses it at a time; `any_thread`: it may be another than the
    one that opened it (rows of `iter_sql` left part-read are closed by whichever thread the garbage
    collector runs in)."""
    uri = "file:" + quote(os.path.abspath(path)) + "?mode=ro"
    conn = None if not os.access(path, os.W_OK) and _wal_alone(path) else _opened(uri, path, any_thread)
    if conn is None:
        conn = sqlite3.connect(uri + "&immutable=1", uri=True, timeout=WAIT, check_same_thread=not any_thread)
    # pages read through memory, not one read() each: searches that visit many rows of a large
    # archive at random (positions of each ply) take a third of the time (BENCHMARKS.md)
    conn.execute("PRAGMA mmap_size = 2147483648")
    conn.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, MAX_VALUE)  # randomblob(1000000000) took a gigabyte, then MemoryError
    add_query_functions(conn)
    conn.set_authorizer(read_only_authorizer)
    return conn


def _opened(uri: str, path: str, any_thread: bool) -> sqlite3.Connection | None:
    """The archive at `uri` (`path`) opened read-only, its -wal and -shm deleted when it closes (`_Reading`);
    None in a directory SQLite cannot write to, where it cannot be opened so."""
    try:
        conn = sqlite3.connect(uri, uri=True, timeout=WAIT, check_same_thread=not any_thread, factory=_Reading)
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except sqlite3.OperationalError:
        if os.access(os.path.dirname(os.path.abspath(path)), os.W_OK):
            raise
        return None
    conn.tidied = uri.replace("?mode=ro", "?mode=rw")
    return conn


def _wal_alone(path: str) -> bool:
    """Whether the archive at `path` is in WAL mode (its header's bytes 18 and 19 are 2) with no -wal
    and no -journal beside it: all it holds is in the file, which an immutable connection reads whole
    (review72: an older archive's -journal, left by a writer that crashed, was read as committed)."""
    try:
        with open(path, "rb") as file:
            header = file.read(20)
    except OSError:
        return False
    return header[18:20] == b"\x02\x02" and not any(os.path.exists(path + end) for end in ("-wal", "-journal"))


class _Reading(sqlite3.Connection):
    """A read-only connection to a WAL archive, which leaves the archive's -wal and -shm files beside
    it when it closes last (SQLite deletes them only as a connection that may write closes): closed, a
    connection that may write opens and closes, which deletes them where no other connection is open
    (a club's folder of records kept in git is left as it was)."""

    tidied: str | None = None  # the archive's URI, to open writable once this closes (`connect` sets it)

    def close(self) -> None:
        super().close()
        uri, self.tidied = self.tidied, None
        if uri is not None:
            with contextlib.suppress(sqlite3.Error), closing(sqlite3.connect(uri, uri=True)) as tidying:
                tidying.execute("PRAGMA schema_version").fetchall()  # the WAL opened, the schema not read


def add_query_functions(conn: sqlite3.Connection) -> None:
    """Every SQL function lusoria gives a connection that reads an archive (archive/functions.py)."""
    sql_function(conn, "lusoria_matching_plies", matching_plies, bytes, str, str)  # pattern search
    sql_function(conn, "lusoria_casefold", casefold, str)  # names in any case
    add_functions(conn)  # records.text, compressed (archive/texts.py)


class _Watch:
    """A progress handler: stop the statement on Ctrl-C or after `seconds` of its own running (the time
    its rows wait to be read on, written to a slow pipe or a pager, is not counted). Ctrl-C while none
    of its statement's SQLite runs (its rows wait, part-read, to be read on) goes on to the handler before it
    (`previous`, which raises KeyboardInterrupt): a user's Ctrl-C is never lost."""

    def __init__(self, seconds: float | None):
        self.deadline = time.monotonic() + seconds if seconds else math.inf
        self.seconds, self.interrupted = seconds, False
        self.running = True  # False while its rows wait to be read on (`wait`), since `waited`
        self.waited = 0.0
        self.previous: Callable[[int, FrameType | None], Any] | int | None = None  # the SIGINT handler it stands in for
        self.left = False  # closed where it could not put `previous` back (another thread; a later one's handler set)

    def __call__(self) -> int:
        return self.interrupted or time.monotonic() > self.deadline

    def wait(self) -> None:
        """Its statement's rows wait to be read on: Ctrl-C is the caller's, and the clock stops."""
        self.running, self.waited = False, time.monotonic()

    def resume(self) -> None:
        """Its statement runs on, its deadline later by the time its rows waited."""
        self.deadline += time.monotonic() - self.waited
        self.running = True

    def handling(self) -> bool:
        """Whether it handles SIGINT now (no statement begun after it is open)."""
        return signal.getsignal(signal.SIGINT) == self.interrupt

    def interrupt(self, signum: int, frame: FrameType | None) -> None:
        if self.running and not self.left:
            self.interrupted = True
            return
        if self.left and self.handling():
            signal.signal(signal.SIGINT, self.previous)  # (in the main thread now: put back at last)
        if callable(self.previous):
            self.previous(signum, frame)
        else:
            raise KeyboardInterrupt


@contextmanager
def watched(conn: sqlite3.Connection, seconds: float | None) -> Iterator[_Watch]:
    """`conn`'s statements stopped on Ctrl-C (in the main thread, unless ignored) or after `seconds`. Left in another
    thread (rows part-read, closed by the garbage collector), or before a statement begun later, the SIGINT
    handler is put back at the next Ctrl-C that reaches it (the later statement's passes it on)."""
    watch = _Watch(seconds)
    conn.set_progress_handler(watch, PROGRESS_STEPS)
    # (a program started with Ctrl-C ignored, as `nohup` starts it, keeps it ignored)
    handles_ctrl_c = threading.current_thread() is threading.main_thread() and (
        signal.getsignal(signal.SIGINT) != signal.SIG_IGN
    )
    if handles_ctrl_c:
        watch.previous = signal.signal(signal.SIGINT, watch.interrupt)
    functions.watching(conn, watch)  # lusoria's SQL functions look at it too, inside their loops
    try:
        yield watch
    finally:
        functions.watching(conn, None)
        if handles_ctrl_c and threading.current_thread() is threading.main_thread() and watch.handling():
            signal.signal(signal.SIGINT, watch.previous)
        else:
            watch.left = True


def iter_sql(
    path: str, sql: str, params: list | None = None, timeout: float | None = None
) -> Generator[dict, None, None]:
    """The rows of read-only SQL on the archive, one at a time; duplicate column names get
    a suffix (`n`, `n_2`). ReadOnlyError for anything that is not a read, or that runs longer
    than `timeout` seconds (the time its rows wait for the caller not counted); InvalidSQL for
    SQL that SQLite cannot run; KeyboardInterrupt on Ctrl-C.
    Rows left part-read are closed where they are left (`first_row`), or by the garbage collector, in any thread."""
    conn = connect(path, any_thread=True)
    try:
        with watched(conn, timeout) as watch:
            try:
                cursor = conn.execute(sql, params or [])
                if cursor.description is None:  # (h80a: `lusoria sql ""` said "no records", status 0)
                    raise InvalidSQL("the SQL holds no statement that reads: give one, as SELECT count(*) FROM records")
                names = unique_names([d[0] for d in cursor.description])
                for row in cursor:
                    watch.wait()
                    yield dict(zip(names, row))
                    watch.resume()
            except sqlite3.DatabaseError as error:
                if watch.interrupted:
                    raise KeyboardInterrupt from None
                raise refused(conn, path, error, watch.seconds) from None
    finally:
        conn.close()


def first_row(path: str, sql: str, params: list | None = None, timeout: float | None = None) -> dict | None:
    """The first row of `iter_sql` (None: none), its statement closed at once."""
    with closing(iter_sql(path, sql, params, timeout)) as rows:
        return next(rows, None)


def refused(conn: sqlite3.Connection, path: str, error: sqlite3.DatabaseError, seconds: float | None) -> LusoriaError:
    """What a statement SQLite stopped with `error` raises: DamagedArchive when one of lusoria's
    functions failed on a damaged value (`damaged`), else `_refusal` of what it or SQLite said."""
    said = functions.failure(error)
    return damaged(conn, path, said) or _refusal(conn, said or str(error), seconds)


def _refusal(conn: sqlite3.Connection, message: str, seconds: float | None) -> ReadOnlyError:
    """The error of a statement SQLite stopped with `message`: ReadOnlyError for one that ran longer
    than `seconds` (or was interrupted with no time limit: None or 0), made too large a value or did
    not only read; else InvalidSQL, in SQLite's words."""
    if message == "interrupted":
        if not seconds:
            return ReadOnlyError("the statement was interrupted and stopped")
        return ReadOnlyError(f"the statement ran longer than {seconds:g} s and was stopped", "timeout")
    if message == "string or blob too big":
        return ReadOnlyError(f"the statement makes or reads a value of more than {MAX_VALUE:,} bytes, the most allowed")
    if any(word in message for word in ("authoriz", "readonly", "may not be modified")):
        return ReadOnlyError(
            "lusoria sql only reads: statements that write, ATTACH, PRAGMA settings and extensions are refused"
        )
    if message == "You can only execute one statement at a time.":  # (Python's sqlite3, in its own words)
        return InvalidSQL("lusoria sql runs one statement, and the SQL holds more: end it at its first ';'")
    if message.startswith("no such table: "):
        message += _tables_like(conn, message.removeprefix("no such table: "))
    elif message.startswith("no such column: "):
        message += _columns_like(conn, message.removeprefix("no such column: "))
    return InvalidSQL(message)


def _tables_like(conn: sqlite3.Connection, name: str) -> str:
    """The archive's tables and views most like one it does not have (`record`: records)."""
    return _like(name, _tables(conn), "tables")


def _columns_like(conn: sqlite3.Connection, name: str) -> str:
    """The columns of the archive's tables and views most like one none has (`record`: record_id),
    or, of one that others have than those the statement reads (`text`), those tables and views."""
    columns = {
        table: [column for (column,) in conn.execute("SELECT name FROM pragma_table_info(?)", [table])]
        for table in _tables(conn)
    }
    column = name.rpartition(".")[2]
    holders = [table for table, names in columns.items() if column.casefold() in map(str.casefold, names)]
    if holders:
        return f" (docs/archive.md, The schema: {column} is a column of {', '.join(sorted(holders))})"
    return _like(name, sorted({known for names in columns.values() for known in names}), "columns")


def _tables(conn: sqlite3.Connection) -> list[str]:
    return [row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')")]


def _like(name: str, names: list[str], kind: str) -> str:
    return (
        f" (docs/archive.md, The schema, lists the {kind}{meant(alike(name.rpartition('.')[2], names), inside=True)})"
    )


def unique_names(names: list[str]) -> list[str]:
    """Column names, a repeated one numbered from its second use: count, count_2."""
    taken: set[str] = set()
    unique = []
    for name in names:
        candidate, number = name, 1
        while candidate in taken:
            number += 1
            candidate = f"{name}_{number}"
        taken.add(candidate)
        unique.append(candidate)
    return unique
