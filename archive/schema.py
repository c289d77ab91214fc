"""The archive file: made new in one step (`create_archive`), opened, and upgraded when an older
lusoria made it (`open_archive`: archive/migrations.py). Its tables: archive/tables.py."""

from __future__ import annotations

import fcntl
import os
import re
import sqlite3
import tempfile
from collections.abc import Callable
from contextlib import closing

import sqlite_utils

from lusoria.archive.migrations import MIGRATIONS, Misread, rebuild_replayed
from lusoria.archive.tables import create_tables
from lusoria.archive.texts import add_functions
from lusoria.errors import LusoriaError
from lusoria.files import mode_for
from lusoria.notation.reader import STDIN_NAME
from lusoria.notation.sources import Note
from lusoria.words import plural, reason

SCHEMA_VERSION = 26  # each version's changes: archive/migrations.py


class NotAnArchive(LusoriaError):
    """A database file that is not a lusoria archive, or cannot be read or made."""


def unreadable_database(path: str, error: sqlite3.DatabaseError) -> NotAnArchive:
    """Why `path` cannot be read as a database: a directory (which SQLite calls a disk I/O
    error, or a file it cannot open), a lock another program holds to write, or what SQLite says."""
    if busy(error):  # (a rollback journal's write lock, held past the wait)
        return NotAnArchive(
            f"{path} cannot be read now: {error}; another program is writing to it: try again once it is done"
        )
    why = "it is a directory, not an archive file" if os.path.isdir(path) else str(error)
    return NotAnArchive(f"{path} cannot be read as a database: {why}")


def busy(error: BaseException) -> bool:
    """Whether `error` is SQLite's SQLITE_BUSY, in any of its forms (BUSY_RECOVERY…): a lock another
    connection held past the wait."""
    return getattr(error, "sqlite_errorcode", 0) & 0xFF == sqlite3.SQLITE_BUSY


def create(db: sqlite_utils.Database) -> None:
    """Create the tables, indexes and full-text index of an empty database (see `open_archive`
    for how a new archive appears at once, whole)."""
    db.execute("BEGIN")  # (one transaction: each statement of schema was one, a new archive's time a third longer)
    with db.conn:
        create_tables(db)
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")


def _connect(path: str) -> sqlite_utils.Database:
    db = sqlite_utils.Database(path)
    add_functions(db.conn)
    db.execute("PRAGMA foreign_keys = ON")
    db.execute("PRAGMA busy_timeout = 5000")
    return db


TEMPORARY_ENDS = ("", "-wal", "-shm", "-journal")  # a database file and SQLite's files beside it


def _publish(build: Callable[[sqlite_utils.Database], None], path: str, replace: bool) -> bool:
    """Build a database in a temporary file beside `path`, then put it at `path` in one step:
    no process ever sees it half made. With `replace` it is written into the file there
    (`_write_into`): False, and nothing written, when another connection changed that file
    since `build` began. Without, it appears only if `path` is still missing (an archive
    another process made in the meantime wins, and is used: then False). The temporary file
    and SQLite's beside it are removed on every path, and those a killed process left are
    removed by the next (`_remove_leftovers`): the process that builds one holds a lock on it."""
    folder = os.path.dirname(path) or "."
    _remove_leftovers(path)
    handle, temporary = tempfile.mkstemp(prefix=os.path.basename(path) + ".", suffix=".tmp", dir=folder)
    try:
        fcntl.flock(handle, fcntl.LOCK_EX)  # until it is closed: this temporary file is in use
        db = _connect(temporary)
        # Unsynced while it is built (no process reads it): a new archive's 130 statements of
        # schema took 40 ms more, a first import's batches a sync each; synced once when whole
        db.execute("PRAGMA synchronous = OFF")
        try:
            if replace:
                return _write_into(path, build, db)
            build(db)
            db.execute("PRAGMA synchronous = FULL")
            db.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # all of it in the file to publish, synced
        finally:
            db.close()
        os.chmod(temporary, mode_for(path))
        try:
            os.link(temporary, path)
        except FileExistsError:
            return False
        return True
    finally:
        _remove(temporary)
        os.close(handle)


class _Changed(LusoriaError):
    """Another connection changed the database a copy is written into since the copy began."""


def _write_into(path: str, build: Callable[[sqlite_utils.Database], None], db: sqlite_utils.Database) -> bool:
    """`build` `db`, then write it into the database at `path` through SQLite's backup, in one
    transaction: the file stays (its permissions, and its WAL, which another program holding
    it open shares), and every connection reads the old database or the new, never a mix. Its
    first step takes the file's write lock: then, if another connection committed to the file
    since `build` began (`_commits`), nothing is written and it is False. A file another
    connection keeps locked for longer than the busy timeout: sqlite3.OperationalError."""
    with open(path, "rb") as file, closing(sqlite3.connect(path)) as watch, closing(_connect(path).conn) as target:
        wal = target.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        seen = _commits(file.fileno(), watch, wal)
        build(db)

        def check(status: int, remaining: int, total: int) -> None:
            if status in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
                raise sqlite3.OperationalError("database is locked")
            first = status == sqlite3.SQLITE_OK and remaining == total - 1  # the lock taken, one page copied
            if first and _commits(file.fileno(), watch, wal) != seen:
                raise _Changed

        try:
            db.conn.backup(target, pages=1, progress=check)  # a page a step: checked before the last
        except _Changed:
            return False
        target.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # the file's WAL back to empty, when no one reads it
    return True


def _commits(file: int, watch: sqlite3.Connection, wal: bool) -> int | bytes:
    """What every commit to the database open as `file` by another connection than `watch` changes:
    in WAL mode `PRAGMA data_version` (a connection reads while another writes); else (an older
    lusoria's archive, an empty file) the change counter in the file's header, read from `file`
    (no connection reads while another writes; each commit adds 1: SQLite's file format). `file`
    stays open until SQLite's connections close: closing a file's descriptor drops every lock the
    process holds on the file, the write lock of the backup too (SQLite's "POSIX advisory locking")."""
    if wal:
        return watch.execute("PRAGMA data_version").fetchone()[0]
    return os.pread(file, 4, 24)


def _remove(temporary: str) -> None:
    for leftover in (temporary + end for end in TEMPORARY_ENDS):
        try:
            os.remove(leftover)
        except FileNotFoundError:
            pass


def _remove_leftovers(path: str) -> None:
    """Remove the temporary files of `_publish` for `path` that no process builds any more (an
    import killed while it made a new archive left up to 2.4 MB: NAME.db.XXXXXXXX.tmp and its
    -wal, -shm and -journal)."""
    folder = os.path.dirname(path) or "."
    name = re.compile(re.escape(os.path.basename(path)) + r"\.[A-Za-z0-9_]{8}\.tmp(?:-wal|-shm|-journal)?")
    try:
        found = [entry for entry in os.listdir(folder) if name.fullmatch(entry)]
    except OSError:
        return
    for temporary in sorted({os.path.join(folder, entry.rsplit(".tmp", 1)[0] + ".tmp") for entry in found}):
        try:
            handle = os.open(temporary, os.O_RDONLY)
        except FileNotFoundError:
            _remove(temporary)  # SQLite's files of a temporary file that is gone
            continue
        except OSError:
            continue
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            continue  # another process is building it
        else:
            if os.fstat(handle).st_size:  # empty: just made, its maker not yet holding it
                _remove(temporary)
        finally:
            os.close(handle)


def _new(db: sqlite_utils.Database) -> None:
    db.execute("PRAGMA page_size = 16384")  # less room lost at the ends of pages (docs/archive.md, "Size")
    db.execute("PRAGMA auto_vacuum = INCREMENTAL")  # the pages an import's merge frees go back (version 9)
    db.enable_wal()
    create(db)


def create_archive(path: str, fill: Callable[[sqlite_utils.Database], object]) -> bool:
    """Make a new archive at `path` holding what `fill` stores in it, in one step: if `fill`
    fails (a full disk), no file is left. False when another process made an archive there
    meanwhile, which `fill`'s rows are not in. OSError or sqlite3.Error when it cannot be made."""

    def build(db: sqlite_utils.Database) -> None:
        _new(db)
        fill(db)

    return _publish(build, path, replace=False)


UPGRADE_ATTEMPTS = 3  # an archive another program changes while it is upgraded is upgraded again


def _upgrade(path: str, version: int, records: int, note: Callable[[Note], None], last: bool) -> None:
    """Apply MIGRATIONS to a copy of the archive of `records` records and write it into the
    archive: all steps or none; `note` is told before it starts (it replays every record: 12 s
    for 7,184) and when done, or that another program changed the archive meanwhile (then it
    is left as it was, to be read again; NotAnArchive if this was the `last` attempt)."""
    note(
        Note(
            path,
            f"{path} is a version {version} archive: upgrading it to version {SCHEMA_VERSION} "
            f"(its {plural(records, 'record')} replayed once each)…",
        )
    )

    misread: list[Misread] = []

    def build(copy: sqlite_utils.Database) -> None:
        source = sqlite3.connect(path)
        try:
            source.backup(copy.conn)
        finally:
            source.close()
        for step in range(version + 1, SCHEMA_VERSION + 1):
            if step in MIGRATIONS:
                MIGRATIONS[step](copy)
        misread[:] = rebuild_replayed(copy)
        copy.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        copy.conn.commit()
        copy.execute("PRAGMA auto_vacuum = INCREMENTAL")  # (as a new archive: set by the VACUUM)
        copy.execute("VACUUM")  # the pages of the tables dropped

    failed = f"{path} is a version {version} archive and could not be upgraded to version {SCHEMA_VERSION}"
    try:
        upgraded = _publish(build, path, replace=True)
    except (sqlite3.Error, OSError) as error:
        raise NotAnArchive(f"{failed} ({error}); it was left as it was") from None
    if upgraded:
        with closing(_connect(path).conn) as conn:
            in_wal(conn)
        note(Note(path, f"{path} is upgraded to version {SCHEMA_VERSION}"))
        for record, source, line in misread:
            note(Note(path, _misread(record, source, line)))
    elif last:
        raise NotAnArchive(f"{failed}: another program changed it {UPGRADE_ATTEMPTS} times meanwhile")
    else:
        note(Note(path, f"{path} was changed by another program meanwhile: it is left as it was and read again"))


def in_wal(conn: sqlite3.Connection) -> None:
    """An archive of an older lusoria, whose journal is a rollback journal, put in WAL mode as a new one is (h81b:
    upgraded, it kept its journal, and Datasette reading it kept the nightly import out); left so while another
    program has it open (the change takes the file alone: tried again at the next import)."""
    waits = conn.execute("PRAGMA busy_timeout").fetchone()[0]
    conn.execute("PRAGMA busy_timeout = 0")  # (left so at once: review81, the import waited its 5 s twice)
    try:
        conn.execute("PRAGMA journal_mode = WAL")  # (none of that lock when in WAL mode already)
    except sqlite3.OperationalError:  # (database is locked)
        pass
    finally:
        conn.execute(f"PRAGMA busy_timeout = {waits}")


def _misread(record: int, source: str | None, line: int) -> str:
    """What the upgrade says of a record whose stored text does not read as its import read it: of a file,
    that `import --replace` of it mends it (from the folder it was imported from when its name is relative);
    of standard input, which --replace does not replace, that its removal and its text imported again do; of
    a text imported from no file (`source` None), no more."""
    said = (
        f"the archive's record {record} keeps the verdict, diagnostics and ending its import found, but its stored "
        "text now replays otherwise (stored as lgn, it lost what its file wrote, as an aagenielsen.dk capture left "
        "out of its list; or lusoria checks it otherwise now)"
    )
    if source is None:
        return said
    if source == STDIN_NAME:
        return f"{source}:{line}: {said}: remove --id {record} and an import of its text again store it anew"
    where = "" if os.path.isabs(source) else ", run in the folder it was imported from"
    return f"{source}:{line}: {said}: import --replace {source} stores it anew{where}"


def _archive_version(db: sqlite_utils.Database, path: str) -> int:
    """The schema version of the archive `db` at `path`; NotAnArchive for any other database. One that says
    version 21 or later but has no `record_ids` is of version 20 (the lusoria of one commit, 8c75bfa8, numbered
    its archives 21 before version 21 held that table; no import could then store a record after an upgrade)."""
    tables = set(db.table_names())
    version = db.execute("PRAGMA user_version").fetchone()[0]
    if "records" in tables and version > SCHEMA_VERSION:
        raise NotAnArchive(
            f"{path} is a lusoria archive of version {version}, which a newer lusoria made: this one reads "
            f"versions up to {SCHEMA_VERSION} (a newer lusoria reads it)"
        )
    if "records" not in tables or version < 1:
        raise NotAnArchive(f"{path} is not a lusoria archive")
    return 20 if version >= 21 and "record_ids" not in tables else version


def not_created(path: str, error: OSError | sqlite3.Error) -> str:
    """Why the archive `path` could not be created, as lusoria says it: a disk that failed as SQLite says it,
    not as the statement it failed in does (`fts5: error creating shadow table …: disk I/O error`)."""
    if isinstance(error, OSError):
        return f"cannot create the archive {path}: {reason(error)}"
    failed = getattr(error, "sqlite_errorcode", 0) & 0xFF == sqlite3.SQLITE_IOERR
    return f"cannot create the archive {path}: {'disk I/O error' if failed else error}"


def open_archive(
    path: str, create_missing: bool = True, note: Callable[[Note], None] | None = None
) -> sqlite_utils.Database:
    """Open (and, if new, create) an archive; NotAnArchive for any other database. An archive
    made by an older lusoria is upgraded first (MIGRATIONS), which `note` is told of."""
    try:
        if create_missing and (not os.path.exists(path) or os.path.getsize(path) == 0):
            try:
                _publish(_new, path, replace=os.path.exists(path))
            except OSError as error:
                raise NotAnArchive(not_created(path, error)) from None
        db = _connect(path)
        version = _archive_version(db, path)
        for attempt in range(1, UPGRADE_ATTEMPTS + 1):
            if version == SCHEMA_VERSION:
                break
            records = db.execute("SELECT count(*) FROM records").fetchone()[0]
            db.close()
            _upgrade(path, version, records, note or (lambda _: None), last=attempt == UPGRADE_ATTEMPTS)
            db = _connect(path)
            version = _archive_version(db, path)
    except sqlite3.DatabaseError as error:
        raise unreadable_database(path, error) from None
    return db
