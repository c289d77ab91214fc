"""What `import --replace` removes so that the archive holds each file it reads as the file is now:
which of the records the archive holds from the file it keeps and which it removes
(`Replacement`), and every row of those in every table (`remove_records`), so that the archive
is as if they had never been imported."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cache, cached_property, partial
from itertools import islice
from typing import TYPE_CHECKING

from lusoria.archive.positions import boards_and_materials, unpacked_boards
from lusoria.archive.records_as_rows import (
    FILE,
    PATH,
    PLACE,
    READ_FROM,
    TEXT,
    Failure,
    Rows,
    SkippedDuplicate,
    line_rows,
    stored_file,
)
from lusoria.archive.stored import STORED_TEXT, stored_report
from lusoria.archive.tables import STORED_COLUMNS
from lusoria.archive.texts import TEXT_OF
from lusoria.formats.sources import EMPTY, source_name
from lusoria.notation.sources import (
    STDIN,
    Note,
    Problem,
    Skipped,
    Source,
    Unreadable,
    fs_path,
    is_text,
    names_a_file,
    shown_path,
)
from lusoria.validator.replay import Report

if TYPE_CHECKING:
    from lusoria.archive.importer import MoveCodes
    from lusoria.archive.next_plies import NextPlies

CHUNK = 1000  # records replayed and removed at a time


def same_file(path: str, file: str | None, archive: str) -> str:
    """What a record held is found by: its `file`, the real path of the file it was read from (as
    `shown_path` shows it now: an older lusoria showed a backslash single); for a record stored
    before version 15 (no `file`), its `path` made real from the current directory, and so for one
    of a folder that moved with its `archive` (`_moved_with`)."""
    if file is None:
        return stored_file(fs_path(path))
    held = shown_path(fs_path(file)) if "\\" in file else file
    return _moved_with(path, held, archive) or held


def _moved_with(path: str, held: str, archive: str) -> str | None:
    """The file `path` (relative, as it was imported) names from the current directory, when the file `held`
    it was read from no longer exists and the folder it was imported from moved with the archive (whose real
    path is `archive`): `held` is that folder and `path`, and the archive is no longer where it was beside them
    (h70a: a club's folder, its archive in it, handed over; an edited game was kept beside its new text). Else
    None: a file deleted keeps its records, though another folder holds a file of its name."""
    name, old = fs_path(path), fs_path(held)
    if os.path.exists(old) or not os.path.isfile(name):
        return None
    relative = os.path.normpath(name)
    if not old.endswith(os.sep + relative):
        return None
    folder = old[: -len(relative) - 1]
    return (
        None if os.path.exists(os.path.normpath(os.path.join(folder, os.path.relpath(archive)))) else stored_file(name)
    )


@dataclass(frozen=True)
class Read:
    """What an import that replaces reads: the `paths` it was given and the `files` found there
    (lusoria.pipeline.found; a file of a format's suffix a directory holds empty too, which the walk
    skips), standard input, streams and text left out, and the `problems` the reading met, as it meets
    them (a file that cannot be read is not one now empty)."""

    paths: list[str]
    files: list[str]
    problems: list[Problem] = field(default_factory=list)
    unfiled: list[str] = field(default_factory=list)  # the names of the sources given that are no file (nor Skipped)

    @classmethod
    def of(cls, paths: Iterable[Source | Skipped], found: Iterable[Source | Skipped], problems: list[Problem]) -> Read:
        paths, found = list(paths), list(found)
        unfiled = dict.fromkeys(_unfiled(s) for s in paths if not isinstance(s, Skipped) and not file_paths([s]))
        empty = [s.path for s in found if isinstance(s, Skipped) and s.reason == EMPTY]
        return cls(file_paths(paths), file_paths(found) + empty, problems, list(unfiled))  # (`-` twice: one note)

    def notes(self) -> list[Note]:
        """What is said of the sources given that are no file (standard input, a stream, text): the
        records held from none are replaced; theirs are added as by an import that does not replace."""
        return [
            Note(
                "",
                f"{{replace=True}} replaces the records the archive holds from files: {name} is none; its records "
                "are added as without it (those it holds already skipped as duplicates)",
                ("replace=True",),
            )
            for name in self.unfiled
        ]

    def unread(self) -> set[str]:
        """The real paths (`file`) of the files that could not be read (a problem's path is the
        file system's name, not as lusoria shows it)."""
        return {stored_file(problem.path) for problem in self.problems if isinstance(problem, Unreadable)}


def _unfiled(source: Source) -> str:
    """How a note names a source that is no file: by its name (`<stdin>`, `the text`), a stream opened from a
    file as a stream (`the stream g.lgn`: its name is a file's, whose records it does not replace)."""
    name = source_name(source)
    return f"the stream {name}" if hasattr(source, "read") and not name.startswith("<") else name


def file_paths(sources: Iterable[Source | Skipped]) -> list[str]:
    """The paths of the files among `sources` (standard input, streams and text left out)."""
    return [
        os.fspath(source)
        for source in sources
        if isinstance(source, (str, os.PathLike)) and not is_text(source) and os.fspath(source) != STDIN
    ]


@dataclass
class Sorted:
    """What a batch of the records read does to the records held (`Replacement.sort`)."""

    rest: list[Rows | Failure]  # the batch but the records that keep one held or are set aside
    removed: list[int]  # the records held that changed, or that their file no longer has
    kept: int  # the records read that keep the one held
    moved: list[tuple[int, Rows]]  # those at another place (`_unplaced`): the id of the one held, the record
    files: int  # the files whose first record removed is in `removed`


class Replacement:
    """How an import replaces the records the archive held, before it, from each file it reads
    (a record's `file`: `same_file`; `<stdin>` is none), and from the files of `read` that hold no
    record now, once the last record is read. A record read that is the
    same game as one held from its file (its `hash`), with the same text and columns, keeps it:
    its id and rows (its place, `path`, `line` and `file`, made the record's, and so are the tags
    of its text that only say that place: a record of another format read from another directory,
    or after a record added above it, is the same). One held that changed is
    removed, and so is one the file no longer has, once the file's last record is read. Records
    read that are the same games as records of files not read yet wait for them (`_read`)."""

    def __init__(self, conn: sqlite3.Connection, read: Read | None = None) -> None:
        self.conn = conn
        self.read = read or Read([], [])
        self.unseen: set[int] = set()  # those of the file being read not found in it yet
        self.file: str | None = None  # the file being read (`same_file`; a path of no file as it is)
        self.replaced: set[str | None] = set()  # the files some of whose records were removed
        self.aside: dict[int, Rows] = {}  # by the id of the record of the same game they wait for
        self.failed: set[str] = set()  # the files of the records lusoria failed on: not emptied
        self.undo: list[Callable[[], object]] = []  # how to undo each change since `saved`, in order

    @cached_property
    def held(self) -> dict[str, list[int]]:
        """The records the archive holds, by file not read yet: read at the first use (`sort`'s first
        call, in its transaction)."""
        held: dict[str, list[int]] = {}
        found = cache(partial(same_file, archive=archive_file(self.conn)))  # (a file's records share a path and file)
        for record, path, file in self.conn.execute("SELECT id, path, file FROM records WHERE path IS NOT NULL"):
            if names_a_file(path):
                held.setdefault(found(path, file), []).append(record)
        return held

    @cached_property
    def in_gone_files(self) -> dict[int, str]:
        """The records held from files that no longer exist, by id, with their files: a record read that is the same
        game is one of them moved (its file moved or renamed), which takes the place read (newcomer-58b: it was
        skipped, and the summary's advice to remove the records of the file gone removed the game)."""
        return {
            record: file
            for file, records in self.held.items()
            if not os.path.exists(fs_path(file))
            for record in records
        }

    def _take(self, record: int) -> None:
        """The record `record` of a file gone (`in_gone_files`) found again elsewhere: no longer held from that file."""
        file = self.in_gone_files.pop(record)
        records = self.held[file]
        at = records.index(record)
        records.pop(at)
        self.pending.discard(record)  # (a second copy of its game is then a duplicate, not set aside for it)
        self.undo += [partial(self.in_gone_files.__setitem__, record, file), partial(records.insert, at, record)]
        self.undo.append(partial(self.pending.add, record))

    @cached_property
    def pending(self) -> set[int]:
        """The records held from files not read yet (at first, every one held)."""
        return {record for records in self.held.values() for record in records}

    def saved(self) -> None:
        """Note from now on how to undo what `sort` and `returned` change, for `restore` (a batch
        rolled back to be sorted again): a log of the changes, not a copy of every record held."""
        self.undo = []

    def restore(self) -> None:
        """Undo what `sort` and `returned` changed since `saved`, the last change first."""
        while self.undo:
            self.undo.pop()()

    def _add(self, found: set, item: object) -> None:
        """Add `item` to the set `found`, noting how to undo it."""
        if item not in found:
            found.add(item)
            self.undo.append(partial(found.discard, item))

    def sort(self, batch: list[Rows | Failure], following: Rows | Failure | None) -> Sorted:
        """What `batch` does to the records held (`held`: read at the first call, in its
        transaction); `following`: what comes after it (None: nothing), which tells whether the
        file of its last record ends in it (a Failure tells nothing: the next batch will)."""
        files, left = len(self.replaced), set[int]()  # left: the records read not stored now, by identity
        found, removed = self._read(batch, left)
        if following is None or (isinstance(following, Rows) and _file(following) != self.file):
            removed += self._end(None)
        if following is None:
            removed += self._emptied()
        stored, kept, moved = _stored(self.conn, list(found)), 0, []
        for owner, checked in found.items():
            row, new_row = stored[owner], [value for (value,) in checked.tables["records"]]
            if _unplaced(row, checked.placed) != _unplaced(new_row, checked.placed):
                removed.append(owner)
                self._add(self.replaced, _file(checked))
            else:
                kept += 1
                left.add(id(checked))
                moved += [(owner, checked)] if row != new_row else []
        rest = [checked for checked in batch if id(checked) not in left]
        return Sorted(rest, removed, kept, moved, len(self.replaced) - files)

    def _read(self, batch: list[Rows | Failure], left: set[int]) -> tuple[dict[int, Rows], list[int]]:
        """The records held found again by the records of `batch` (each by the first of its game
        in its file), and those the files ended in `batch` no longer have. A record that is the
        same game as one held from a file not read yet is set aside (the first one: the others
        are duplicates), and stored if that record is removed (`returned`), as a new import of
        the files would store it, else counted a duplicate (`left_aside`); it is added to `left`."""
        pending = self.pending  # (the archive read at the first call)
        held = owners(self.conn, [checked.hash for checked in batch if isinstance(checked, Rows)])
        found: dict[int, Rows] = {}
        removed: list[int] = []
        for checked in batch:
            if isinstance(checked, Rows):
                if _file(checked) != self.file:
                    removed += self._end(_file(checked))
                if (owner := held.get(checked.hash)) in self.unseen:
                    self.unseen.remove(owner)
                    self.undo.append(partial(self.unseen.add, owner))
                    found[owner] = checked
                elif owner is not None and owner in self.in_gone_files:
                    self._take(owner)
                    found[owner] = checked
                elif owner in pending and owner not in self.aside:
                    self.aside[owner] = checked
                    self.undo.append(partial(self.aside.pop, owner))
                    left.add(id(checked))
            elif checked.file is not None:
                self._add(self.failed, checked.file)
        return found, removed

    def _end(self, following: str | None) -> list[int]:
        """End the file being read, whose records not found again are removed (their ids given),
        unless it could not be read to its end (bytes past its first MiB that do not decode: its records
        after them were not read) or lusoria failed on one of its records (which of those held it was
        cannot be told), and begin the file `following` (None: none)."""
        kept = self.failed | self.read.unread()
        gone = sorted(self.unseen) if self.unseen and self.file not in kept else []
        if gone:
            self._add(self.replaced, self.file)
        begun = self.held.pop(following, []) if following else []
        self.undo.append(partial(self._unbegin, self.file, self.unseen, following, begun))
        self.file, self.unseen = following, set(begun)
        self.pending -= self.unseen  # (their ids may be given again to records added)
        return gone

    def _unbegin(self, file: str | None, unseen: set[int], following: str | None, begun: list[int]) -> None:
        """Undo `_end`: `file` is read again, `unseen` its records not found yet, and the file
        `following` holds its records `begun` (none: it held none) not read yet."""
        if following and begun:
            self.held[following] = begun
            self.pending.update(begun)
        self.file, self.unseen = file, unseen

    def _emptied(self) -> list[int]:
        """The records held from the files read that gave none (a file now empty; not one that
        could not be read, nor one whose records lusoria failed on): all removed."""
        removed: list[int] = []
        kept = self.failed | self.read.unread()
        for file in dict.fromkeys(stored_file(path) for path in self.read.files):
            if file in self.held and file not in kept:
                records = self.held.pop(file)
                self.undo.append(partial(self.held.__setitem__, file, records))
                removed += records
                self._add(self.replaced, file)
        return removed

    def gone(self) -> dict[str, list[str]]:
        """For each path read, the files the archive holds under it (or as it) that no longer exist (their
        records are kept; each as the `file` column holds it: its real path), once every record is read."""
        files = {
            shown_path(path): sorted(
                file
                for file, records in self.held.items()
                if records and _under(file, folder) and not os.path.exists(fs_path(file))
            )
            for path, folder in ((path, stored_file(path)) for path in self.read.paths)
        }
        return {path: gone for path, gone in files.items() if gone}

    def returned(self, removed: list[int]) -> list[Rows]:
        """The records set aside for records `removed`: new now."""
        back = [(record, self.aside.pop(record)) for record in removed if record in self.aside]
        self.undo += [partial(self.aside.__setitem__, record, checked) for record, checked in back]
        return [checked for _, checked in back]

    def failed_aside(self, failures: dict[int, Failure]) -> list[Failure]:
        """The Failures of the records set aside that failed to store once returned (`failures`: by
        the identity of their records): the records held they waited for wait no more (each is
        kept when its own file has it unchanged)."""
        waited = [owner for owner, checked in self.aside.items() if id(checked) in failures]
        return [failures[id(self.aside.pop(owner))] for owner in waited]

    def left_aside(self) -> list[SkippedDuplicate]:
        """The records set aside that were never returned (duplicates of records kept)."""
        return [SkippedDuplicate(checked.place, owner) for owner, checked in self.aside.items()]


def archive_file(conn: sqlite3.Connection) -> str:
    """The real path of the archive `conn` is open on."""
    return os.path.realpath(next(row[2] for row in conn.execute("PRAGMA database_list") if row[1] == "main"))


def _file(checked: Rows) -> str | None:
    """The file of a record read, as `Replacement` compares it (its path as it is when it names no file)."""
    file = checked.tables["records"][FILE][0]
    return file if file is not None else checked.tables["records"][PATH][0]


def _under(file: str, folder: str) -> bool:
    return file == folder or file.startswith(folder.rstrip(os.sep) + os.sep)


def owners(conn: sqlite3.Connection, hashes: list[str]) -> dict[str, int]:
    """The archive's records of the games `hashes`, by hash."""
    return dict(conn.execute(f"SELECT hash, id FROM records WHERE hash IN ({','.join('?' * len(hashes))})", hashes))


def changed_since(conn: sqlite3.Connection, skipped: list[tuple[int, Rows]]) -> set[int]:
    """The records of `skipped` (each after the archive's record of its game, which an import skips it
    for) read from the place of that record, its file and line, as other text: the file changed since
    it was imported (`id` of each; newcomer-56b mended a file, and its import was skipped, unsaid). A
    file that writes a game twice holds the second at another line."""
    stored = _stored(conn, [owner for owner, _ in skipped]) if skipped else {}
    found = set()
    for owner, checked in skipped:
        row, read = stored[owner], [value for (value,) in checked.tables["records"]]
        in_place = [row[index] for index in PLACE[1:]] == [read[index] for index in PLACE[1:]]
        if in_place and _unplaced(row, checked.placed) != _unplaced(read, checked.placed):
            found.add(id(checked))
    return found


def _stored(conn: sqlite3.Connection, records: list[int]) -> dict[int, list]:
    """The rows of `records` as `rows` gives a record read's (without the id, the text unpacked)."""
    columns = ", ".join(TEXT_OF if column == "packed_text" else f"[{column}]" for column in STORED_COLUMNS)
    found = conn.execute(f"SELECT {columns} FROM records WHERE id IN ({','.join('?' * len(records))})", records)
    return {row[0]: list(row[1:]) for row in found}


def _unplaced(row: list, placed: tuple[str, ...]) -> list:
    """A record's row (without its id) but where and how it was read (`path`, `line`, `file` and
    `encoding`: READ_FROM), its text without the lines of its tags `placed`, which say its place too
    (formats.lgn: `place_tags`)."""
    values = [*row[: TEXT - 1], _without_tags(row[TEXT - 1], placed), *row[TEXT:]]
    return [value for index, value in enumerate(values) if index not in READ_FROM]


def _without_tags(text: str, names: tuple[str, ...]) -> str:
    """A record's text in lusoria's notation without the lines of its tags `names`."""
    if not names:
        return text
    starts = tuple(f'[{name} "' for name in names)
    tags, blank, movetext = text.partition("\n\n")
    return "\n".join(line for line in tags.split("\n") if not line.startswith(starts)) + blank + movetext


def remove_records(
    conn: sqlite3.Connection, ids: list[int], tables: Iterable[str], codes: MoveCodes, sums: NextPlies
) -> None:
    """Remove the records `ids` and their rows of `tables` (those with a `record_id`), `records_fts`
    (by its trigger), `positions` (a contentless index: each record's row as it was inserted, made
    again by replaying its text, as an upgrade makes it: `line_rows`) and the sums of `next_plies`
    (their plies taken off). A record whose text replays otherwise than its import stored it (its
    boards differ: a board spelled out is the whole position) is taken out of `positions` by the
    terms the index holds of it, and the positions it may have been summed up in are summed again."""
    conn.execute("CREATE TEMP TABLE IF NOT EXISTS removed (id INTEGER PRIMARY KEY)")
    chunks = iter(ids)
    while chunk := list(islice(chunks, CHUNK)):
        conn.executemany("INSERT INTO temp.removed VALUES (?)", [[record] for record in chunk])
        _remove(conn, tables, codes, sums)
        conn.execute("DELETE FROM temp.removed")


def _remove(conn: sqlite3.Connection, tables: Iterable[str], codes: MoveCodes, sums: NextPlies) -> None:
    """`remove_records` of the records in temp.removed."""
    reports = {
        record: stored_report(text, written_in, read_with)
        for record, text, written_in, read_with in conn.execute(
            f"SELECT id, {STORED_TEXT} FROM records WHERE id IN (SELECT id FROM temp.removed)"
        )
    }
    stored = dict(
        conn.execute("SELECT record_id, boards FROM record_boards WHERE record_id IN (SELECT id FROM temp.removed)")
    )
    replayed = {
        record: rows
        for record, report in reports.items()
        if report is not None and (rows := line_rows(report)) and _as_stored(report, stored.get(record))
    }
    lines = {record: rows["positions"][1][0] for record, rows in replayed.items()}
    plies = [(record, rows["next_plies"]) for record, rows in replayed.items()]
    dated = sums.subtract(plies, lines, codes.codes)
    documents = {record: codes.document(rows["positions"][0][0], lines[record]) for record, rows in replayed.items()}
    astray = _terms(conn, stored.keys() - replayed.keys())
    documents.update({record: " ".join(term for _, term in terms) for record, terms in astray.items()})
    conn.executemany("INSERT INTO positions (positions, rowid, plies) VALUES ('delete', ?, ?)", documents.items())
    for table in tables:
        if table != "positions":
            conn.execute(f"DELETE FROM [{table}] WHERE record_id IN (SELECT id FROM temp.removed)")
    conn.execute("DELETE FROM records WHERE id IN (SELECT id FROM temp.removed)")
    openings = {terms[0] for _, (_, opening) in plies for terms in opening}
    sums.resum(openings, dated | sums.reached([term for terms in astray.values() for term in terms]))


def _as_stored(report: Report, packed: bytes | None) -> bool:
    """Whether a record's replay reached the positions its import stored (`packed`: its boards)."""
    if packed is None or report.rules is None:
        return False
    boards, _ = boards_and_materials(report.rules, report.positions)
    return b"\n".join(boards).decode() == unpacked_boards(packed)


def _terms(conn: sqlite3.Connection, records: set[int]) -> dict[int, list[tuple[int, str]]]:
    """The terms `positions` holds of `records`, each with its ply, in ply order (the index read
    whole: few records replay otherwise than they were stored)."""
    if not records:
        return {}
    found: dict[int, list[tuple[int, str]]] = {}
    for record, ply, term in conn.execute(
        "SELECT doc, offset, term FROM position_plies WHERE doc IN (SELECT id FROM temp.removed)"
    ):
        if record in records:
            found.setdefault(record, []).append((ply, term))
    return {record: sorted(terms) for record, terms in found.items()}
