"""The archive file: made new in one step (`create_archive`), opened, and upgraded when an older
lusoria made it (`open_archive`: archive/migrations.py). Its tables: archive/tables.py."""

from __future__ import annotations

import fcntl
import os
import re
import sqlite3
import tempfile
from collections.abc import Callable

import sqlite_utils

from lusoria.archive.migrations import MIGRATIONS, rebuild_replayed
from lusoria.archive.tables import create_tables
from lusoria.archive.texts import add_functions
from lusoria.errors import LusoriaError
from lusoria.files import mode_for
from lusoria.notation.sources import Note
from lusoria.words import plural, reason

SCHEMA_VERSION = 17  # each version's changes: archive/migrations.py


class NotAnArchive(LusoriaError):
    """A database file that is not a lusoria archive, or cannot be read or made."""


def unreadable_database(path: str, error: sqlite3.DatabaseError) -> NotAnArchive:
    """Why `path` cannot be read as a database: a directory (which SQLite calls a disk I/O
    error, or a file it cannot open), or what SQLite says."""
    why = "it is a directory, not an archive file" if os.path.isdir(path) else str(error)
    return NotAnArchive(f"{path} cannot be read as a database: {why}")


def create(db: sqlite_utils.Database) -> None:
    """Create the tables, indexes and full-text index of an empty database (see `open_archive`
    for how a new archive appears at once, whole)."""
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
    no process ever sees it half made. With `replace` it takes the place of the file there;
    without, it appears only if `path` is still missing (an archive another process made in the
    meantime wins, and is used: then False). The temporary file and SQLite's beside it are removed
    on every path, and those a killed process left are removed by the next (`_remove_leftovers`):
    the process that builds one holds a lock on it."""
    folder = os.path.dirname(path) or "."
    _remove_leftovers(path)
    handle, temporary = tempfile.mkstemp(prefix=os.path.basename(path) + ".", suffix=".tmp", dir=folder)
    try:
        fcntl.flock(handle, fcntl.LOCK_EX)  # until it is closed: this temporary file is in use
        db = _connect(temporary)
        try:
            build(db)
        finally:
            db.close()
        os.chmod(temporary, mode_for(path))
        if replace:
            os.replace(temporary, path)
        else:
            try:
                os.link(temporary, path)
            except FileExistsError:
                return False
        return True
    finally:
        _remove(temporary)
        os.close(handle)


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


def _upgrade(path: str, version: int, records: int, note: Callable[[Note], None]) -> None:
    """Apply MIGRATIONS to a copy of the archive of `records` records and replace it: all steps
    or none; `note` is told before it starts (it replays every record: 12 s for 7,184) and when done."""
    note(
        Note(
            path,
            f"{path} is a version {version} archive: upgrading it to version {SCHEMA_VERSION} "
            f"(its {plural(records, 'record')} replayed once each)…",
        )
    )

    def build(copy: sqlite_utils.Database) -> None:
        source = sqlite3.connect(path)
        try:
            source.backup(copy.conn)
        finally:
            source.close()
        for step in range(version + 1, SCHEMA_VERSION + 1):
            if step in MIGRATIONS:
                MIGRATIONS[step](copy)
        rebuild_replayed(copy)
        copy.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        copy.conn.commit()
        copy.execute("PRAGMA auto_vacuum = INCREMENTAL")  # (as a new archive: set by the VACUUM)
        copy.execute("VACUUM")  # the pages of the tables dropped

    try:
        _publish(build, path, replace=True)
    except (sqlite3.Error, OSError) as error:
        raise NotAnArchive(
            f"{path} is a version {version} archive and could not be upgraded to version "
            f"{SCHEMA_VERSION} ({error}); it was left as it was"
        ) from None
    note(Note(path, f"{path} is upgraded to version {SCHEMA_VERSION}"))


def not_created(path: str, error: OSError | sqlite3.Error) -> str:
    """Why the archive `path` could not be created, as lusoria says it."""
    return f"cannot create the archive {path}: {reason(error) if isinstance(error, OSError) else error}"


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
        tables = set(db.table_names())
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if "records" not in tables or not 1 <= version <= SCHEMA_VERSION:
            raise NotAnArchive(
                f"{path} is not a lusoria archive"
                + (" of this version" if "records" in tables and version > SCHEMA_VERSION else "")
            )
        if version < SCHEMA_VERSION:
            records = db.execute("SELECT count(*) FROM records").fetchone()[0]
            db.close()
            _upgrade(path, version, records, note or (lambda _: None))
            db = _connect(path)
    except sqlite3.DatabaseError as error:
        raise unreadable_database(path, error) from None
    return db
