"""Import records into the archive: streamed, validated and made into rows (in worker processes
with `jobs`: archive/records_as_rows.py), inserted in batched transactions by this process. A
batch is all or nothing, so the archive only ever holds whole records, and a record's identity
(archive/identity.py) makes a second import of the same game add nothing. A record lusoria fails
on (a bug: an exception while it is checked, made into rows or stored) is left out, whole, and
named (`Failure`); the others are stored. The archive failing (a full disk, a lock, a damaged
file) stops the import."""

from __future__ import annotations

import codecs
import os
import re
import shlex
import signal
import sqlite3
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from itertools import chain, islice, repeat

import sqlite_utils

from lusoria.archive.next_plies import NextPlies, Written
from lusoria.archive.positions import RANGE_COLUMNS, RUN_COLUMNS, Columns, move_code
from lusoria.archive.query import glob_escaped
from lusoria.archive.records_as_rows import (
    ENCODING,
    FILE,
    READ_FROM,
    TEXT,
    Failure,
    Rows,
    SkippedDuplicate,
    archive_failing,
    failure,
    real_file,
    stored_file,
)
from lusoria.archive.removal import Read, Replacement, changed_since, file_paths, owners, remove_records
from lusoria.archive.tables import DIAGNOSTIC_COLUMNS, STORED_COLUMNS
from lusoria.archive.texts import TextPacker
from lusoria.archive.variations import COLUMNS as VARIATION_COLUMNS
from lusoria.formats import format_of
from lusoria.formats.sources import EMPTY
from lusoria.notation.reader import STDIN_ADVICE, STDIN_NAME, RecordText
from lusoria.notation.sources import (
    BOMS,
    Note,
    Problem,
    Skipped,
    Source,
    Unreadable,
    fs_path,
    inputs_said,
    literal,
    shown_path,
    skipped_said,
)
from lusoria.notation.syntax import SyntaxProblem, Undecodable
from lusoria.words import CALLER, COMMAND, Reader, first_few, plural, told


@dataclass
class ImportSummary:
    """What an import did."""

    added: int = 0
    skipped: list[SkippedDuplicate] = field(default_factory=list)  # the duplicates of records held, as read
    replaced: int = 0  # records removed (`replace`): held from the files read, changed or gone from them
    replaced_files: int = 0  # the files they were held from
    kept: int = 0  # records held from the files read, read again unchanged (`replace`): kept as they were
    invalid: int = 0  # of the added records
    unparsable: int = 0  # of the invalid ones: kept as text with their syntax diagnostics
    undecoded: int = 0  # of the unparsable ones: those that hold a byte their file's encoding does not decode
    unparsed: list[str] = field(default_factory=list)  # the places of the others (path:line), which validate explains
    unreadable: list[str] = field(default_factory=list)  # sources that could not be read at all
    stray: list[str] = field(default_factory=list)  # sources whose records were read, a byte outside them not
    gone: dict[str, list[str]] = field(
        default_factory=dict
    )  # path read -> files held under it that no longer exist, by real path (`replace`)
    failed: list[Failure] = field(default_factory=list)  # records lusoria failed on: not stored
    changed: list[str] = field(default_factory=list)  # files imported before, read as other records now (not `replace`)
    problems: list[Problem] = field(default_factory=list)  # what `import_paths` met besides records, in order:
    # sources that could not be read, files skipped in a directory, notes (each what `lusoria import` says)
    added_ids: list[tuple[int, int]] = field(default_factory=list, repr=False)  # the first and last id each batch
    # added: another import's beside it are none of this one's (h81b: said to be of its files "changed since")

    @property
    def duplicates(self) -> int:
        """The records skipped: games the archive holds (`skipped`)."""
        return len(self.skipped)

    @property
    def found(self) -> int:
        """The records read and stored or found stored already (added, skipped or kept)."""
        return self.added + self.duplicates + self.kept

    def __str__(self) -> str:
        return self.said()

    def said(self, *, to: Reader = CALLER) -> str:
        """What it did, in one line; the records a byte kept from being read sent to `validate` and
        its `encoding` as a library call names them or, to the COMMAND's user, as the commands do (`--encoding`);
        ValueError for a `to` that names no Reader (`told`)."""
        to = told(to)
        text = (
            f"removed {plural(self.replaced, 'record')} of {plural(self.replaced_files, 'file')}, "
            if self.replaced_files
            else ""
        ) + (
            f"added {plural(self.added, 'record')} ({self.invalid} invalid, {self.unparsable} of them unparsable), "
            + (f"kept {self.kept} unchanged, " if self.kept else "")
            + f"skipped {plural(self.duplicates, 'duplicate')}"
        )
        if self.failed:
            text += f", {plural(len(self.failed), 'record')} failed"
        if self.undecoded:
            text += f"; {plural(self.undecoded, 'record')} not read for a byte the encoding does not decode " + (
                "(lusoria validate says where, and which --encoding to try)"
                if to == COMMAND
                else "(validate() says where, and which encoding to try)"
            )
        if to == COMMAND:  # the sources skipped or not read, each said in its place as met: counted
            text += inputs_said(self.problems)
        else:
            text += skipped_said(self.problems)
            if self.unreadable:
                text += f"; could not read {plural(len(self.unreadable), 'source')}: {'; '.join(self.unreadable)}"
            if self.stray:
                text += f"; read {plural(len(self.stray), 'source')} but for a byte outside the records: {'; '.join(self.stray)}"
        for path, files in self.gone.items():
            text += f"; {plural(len(files), 'file')} the archive holds under {path} no longer " + (
                f"exists ({files[0]}); its records are kept"
                if len(files) == 1
                else f"exist ({first_few(files, GONE_NAMED)}); their records are kept"
            )
        if self.gone:
            text += f" ({_removing(self.gone, to)})"
        if self.changed:
            text += (
                f"; {plural(len(self.changed), 'file')} imported before read as other records now ({', '.join(self.changed)}: "
                "changed since, or read under other rules): the records added sit beside the old, which are kept "
                "(import --replace keeps only what a file holds now)"
            )
        return text

    def unparsed_said(self, *, to: Reader = CALLER) -> str:
        """A note of the records stored as written, not parsed (`unparsed`; none: ""), which import says no
        error of: where the first UNPARSED_NAMED are, and who says why; of standard input, to a command's user,
        how it is read (a CSV line piped in is one record: newcomer-56b)."""
        if not self.unparsed:
            return ""
        to = told(to)
        named = first_few(self.unparsed, UNPARSED_NAMED)
        why = "lusoria validate says why" if to == COMMAND else "validate() says why"
        piped = to == COMMAND and any(place.startswith(f"{STDIN_NAME}:") for place in self.unparsed)
        return f"{plural(len(self.unparsed), 'record')} stored as written, not parsed ({named}): {why}" + (
            f"; {STDIN_ADVICE}" if piped else ""
        )


GONE_NAMED = 3  # the files gone a summary names under each path read
UNPARSED_NAMED = 3  # the places of records stored unparsed that `unparsed_said` names


def _removing(gone: dict[str, list[str]], to: Reader) -> str:
    """How to remove the records of the files `gone` (ImportSummary.gone), said `to` a command's user or a
    library's caller: of one file, with the glob that matches it alone (a `[` in its name as `[[]`)."""
    files = list(dict.fromkeys(file for each in gone.values() for file in each))  # (under two paths read: once)
    if len(files) == 1:
        glob = glob_escaped(files[0])
        removing = (
            f"lusoria remove --path {shlex.quote(glob)}" if to == COMMAND else f"Archive.remove(Filters(path={glob!r}))"
        )
        return f"{removing} takes them out"
    return (
        "lusoria remove --path FILE" if to == COMMAND else "Archive.remove(Filters(path=FILE))"
    ) + " takes a file's out"


CHILD_COLUMNS = {
    "other_tags": ["record_id", "name", "value"],
    "positions": ["rowid", "plies"],
    "variation_plies": VARIATION_COLUMNS,
    "record_boards": ["record_id", "boards"],
    "record_squares": ["record_id", "game", "squares"],
    "material_runs": RUN_COLUMNS,
    "material_ranges": RANGE_COLUMNS,
    "diagnostics": list(DIAGNOSTIC_COLUMNS),
}


class MoveCodes:
    """The archive's dictionary of plies (`moves`) as a writing process keeps it: the code of each
    ply in canonical form (`positions.move_code`), a new ply added when it first comes."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self.codes: dict[str, str] = {}
        self.written = Written(conn)

    def refresh(self) -> None:
        """Read the dictionary again when another process wrote to the archive since (its count
        of plies may be this one's), or this one rolled back what it added (`forget`): at the
        start of each transaction."""
        if self.written.since():
            self.codes = dict(self.conn.execute("SELECT text, code FROM moves"))

    def forget(self) -> None:
        """Read the dictionary again at the next `refresh` (what this process added was rolled back)."""
        self.written.forget()

    def document(self, tokens: list[str], moves: list[str]) -> str:
        """A record's row of `positions`: the token of each position, followed by the code of the
        ply played from it (`positions.position_rows`)."""
        codes = self.codes
        for move in moves:
            if move not in codes:
                codes[move] = move_code(len(codes))
                self.conn.execute("INSERT INTO moves (code, text) VALUES (?, ?)", [codes[move], move])
        return " ".join(map(str.__add__, tokens, [codes[move] for move in moves] + [""]))


def import_rows(
    db: sqlite_utils.Database,
    checked: Iterable[Rows | Failure],
    batch_size: int = 1000,
    summary: ImportSummary | None = None,
    done: int = 0,
    replace: bool = False,
    read: Read | None = None,
) -> ImportSummary:
    """Store the rows of each checked record (`rows`) in the archive `db`, `batch_size` records a
    transaction, counted in `summary` (a new one by default), a Failure counted there too;
    `done`: the batches this import stored before (which a new archive is made with). With
    `replace`, the records the archive held from each file read are replaced: those the file
    has as they were kept, the others removed, each in the transaction of the batch that tells
    (archive/removal.py: `Replacement`), and so are those of the files of `read` that have none
    now; the files held under its paths that no longer exist are counted (`gone`)."""
    summary = summary or ImportSummary()
    checked = iter(checked)
    db.execute(f"PRAGMA cache_size = -{CACHE_KIB}")  # the b-trees an import writes all over
    db.execute("PRAGMA foreign_keys = OFF")  # each row's record is the one inserted just before it (tests:
    number = done  # foreign_key_check after imports); checked, a lookup a row
    codes, texts, sums = MoveCodes(db.conn), TextPacker(db.conn), NextPlies(db.conn)
    replacement = Replacement(db.conn, read) if replace else None
    try:
        for batch, following in _batches(checked, batch_size, replacement is not None):
            number += 1
            replacing = (replacement, following) if replacement else None
            _insert_batch(db, batch, summary, number, (codes, texts, sums), replacing)
        if replacement:
            summary.skipped += replacement.left_aside()
            summary.gone = replacement.gone()
        if summary.added or summary.replaced:
            merge_positions(db.conn)
    finally:
        db.execute("PRAGMA foreign_keys = ON")
    return summary


def _batches(
    checked: Iterator[Rows | Failure], size: int, ahead: bool
) -> Iterator[tuple[list[Rows | Failure], Rows | Failure | None]]:
    """`checked` in batches of `size`, each with the record after it when `ahead` (None: none; it
    is read before the batch is stored: whether the file of its last record ends, for
    `Replacement`; with no record, one empty batch), else with None."""
    if not ahead:  # (the records read as the batches need them: another import may come between)
        while batch := list(islice(checked, size)):
            yield batch, None
        return
    following = next(checked, None)
    if following is None:
        yield [], None  # no record at all: the files read still end (a file now empty)
    while following is not None:
        batch = [following, *islice(checked, size - 1)]
        following = next(checked, None)
        yield batch, following


def misread_refused(
    read: Iterable[RecordText | Problem],
    held: Callable[[], dict[tuple[str, int], bool]],
    written: Callable[[], dict[str, str]],
) -> Iterator[RecordText | Problem]:
    """`read` (lusoria.pipeline.records) up to a record misread now where the archive holds one read (`held()`,
    asked once one is met: the `file`, a real path, and `line` of each, and whether it was read whole): one its
    file's encoding does not decode (an `import --replace` without the --encoding of its first import replaced each
    record by one not read, its names lost), or one of another format that its reader cannot read, or reads only in
    part where the one held was read whole (`_misread`: newcomer-58b, a download cut short replaced the game by its
    broken text). That file is then read no further, an Unreadable, and keeps the records held. So does a file now
    empty whose records held were read from another format than lgn (`written()`, asked once one is met: that
    format, by `file`): a download that failed, where an lgn file emptied is an edit. Records pass on as they come."""
    refused = None  # the file read no further
    for item in read:
        if isinstance(item, Skipped) and item.reason == EMPTY and (format := _written_in(item.path, written)):
            yield Unreadable(
                item.path,
                f"{shown_path(item.path)}: an empty file now, where the archive holds records read from it as {format} "
                "before (a download that failed?): it keeps its records held; removing the records of its path takes "
                "them out",
            )
        elif not isinstance(item, RecordText):
            yield item
        elif item.path != refused:
            if why := _misread(item, held):
                refused = item.path
                yield Unreadable(
                    fs_path(item.path),  # (a record's path is as lusoria shows it, a problem's the file system's)
                    f"{why}: the file is read no further, and keeps its records held",
                    *(("encoding", item.parsed.tries) if isinstance(item.parsed, Undecodable) else ()),
                )
            else:
                yield item


def _written_in(path: str, written: Callable[[], dict[str, str]]) -> str | None:
    """The format other than lgn the archive's records of the file `path` (a problem's: the file system's name) were
    read from (`written()`), if any; none for a file its name says is lgn (an export of such records, imported)."""
    return None if format_of(path) == "lgn" else written().get(stored_file(path))


def _misread(item: RecordText, held: Callable[[], dict[tuple[str, int], bool]]) -> str:
    """What is wrong with the record `item` if it is misread where the archive holds one (none: ""): a byte its
    file's encoding does not decode, or a text the reader of its format cannot read (`parsed`: another format than
    lgn, written by a program, not by hand: a file cut short or overwritten; an lgn record that does not parse is a
    slip, stored as written), or reads with a syntax error (its `problems`: a Tablut Challenge log cut within a
    board) where the record held was read whole (`held()`)."""
    cut = next((problem for problem in item.problems if problem.rule == "syntax"), None)
    if not (isinstance(item.parsed, (Undecodable, SyntaxProblem)) or cut):
        return ""
    file = real_file(item.path)
    if (whole := held().get((file, item.line)) if file else None) is None:
        return ""
    if isinstance(item.parsed, Undecodable):
        return (
            f"{item.path}:{item.line}: its encoding does not decode this record, which the archive holds read before "
            "with another encoding"
        )
    if isinstance(problem := item.parsed, SyntaxProblem) or (whole and (problem := cut)):
        read = "read whole" if problem is cut else "read"
        return (
            f"{item.path}:{problem.line}:{problem.column}: {problem.message}; this record, which the archive holds "
            f"{read} before, does not {read} as {item.format} now (cut short or overwritten since, or read with another "
            "game or format than then)"
        )
    return ""


def encodings_held(held: Mapping[str, str | None], sources: Iterable[Source | Skipped]) -> dict[str, str]:
    """The encoding each file of `sources` is read with when none is given, by its path, where another than
    UTF-8: that of the records the archive holds of it (`held`: each file's newest import's, None for UTF-8), or, of a
    file it holds no record of, that of the files of its name it holds that no longer exist, when they have one (the
    file moved: reviewer-58, `mv club/skane.lgn moved/` was read as UTF-8, its record stored not read, and the
    summary advised removing the records of the file gone, the only ones read; reviewer-59: not a file of that name
    that exists), when the file is wholly in another encoding (`_in_another_encoding`: one mended since,
    `fmt --write`, is UTF-8)."""
    gone: dict[str, set[str | None]] = {}  # the encodings of the files held of each name that no longer exist
    for file, encoding in held.items():
        if not os.path.exists(fs_path(file)):
            gone.setdefault(os.path.basename(file), set()).add(encoding)
    found = {
        path: held[file] if file in held else _one(gone.get(os.path.basename(file), set()))
        for path in file_paths(sources)
        for file in [stored_file(path)]
    }
    return {path: encoding for path, encoding in found.items() if encoding and _in_another_encoding(path)}


def _one(encodings: set[str | None]) -> str | None:
    """The encoding of `encodings` when they are one (None: UTF-8)."""
    return next(iter(encodings)) if len(encodings) == 1 else None


def _in_another_encoding(path: str) -> bool:
    """Whether the file `path` is wholly in another encoding than UTF-8: no byte order mark, bytes that do not
    decode as UTF-8, and no character of several bytes that does (reviewer-58: a file part UTF-8, part not, or
    UTF-16, read with the encoding held, had its records read in UTF-8 replaced by garbled ones)."""
    try:
        with open(path, "rb") as file:
            data = file.read()
    except OSError:
        return False  # (its reading says why)
    text = data.decode("utf-8", "surrogateescape")  # (a byte that does not decode: a surrogate U+DC80–U+DCFF)
    return (
        not data.startswith(tuple(mark for mark, _ in BOMS))
        and bool(_UNDECODED.search(text))
        and not _DECODED.search(text)
    )


_UNDECODED = re.compile("[\udc80-\udcff]")
_DECODED = re.compile("[\x80-\udc7f\udd00-\U0010ffff]")  # a character of several bytes in UTF-8


def read_with(
    checked: Iterable[Rows | Failure | Problem], held: Mapping[str, str], encoding: str | None
) -> Iterator[Rows | Failure | Problem]:
    """`checked`, each record's `encoding` the one it was read with: its file's in `held` (by path:
    `encodings_held`), else `encoding` (None: UTF-8)."""
    by_file, given = {stored_file(path): name for path, name in held.items()}, encoding and stored_encoding(encoding)
    for item in checked:
        if isinstance(item, Rows):
            columns = item.tables["records"]
            columns[ENCODING][0] = by_file.get(columns[FILE][0], given)
        yield item


def stored_encoding(encoding: str) -> str | None:
    """A record's `encoding` of one read with `encoding`: None for UTF-8."""
    return None if codecs.lookup(encoding).name == "utf-8" else encoding


def encodings_said(encodings: Mapping[str, str]) -> list[Note]:
    """The notes of the files read with the encoding of their import before (`encodings_held`), one per encoding."""
    files: dict[str, list[str]] = {}
    for path, encoding in encodings.items():
        files.setdefault(encoding, []).append(literal(shown_path(path)))  # (a template: Note)
    return [
        Note(
            "",
            f"{plural(len(paths), 'file')} read as {encoding}, as imported before, since "
            f"{'it does' if len(paths) == 1 else 'they do'} not decode as UTF-8 ({first_few(paths)}; "
            f"{{encoding}} reads {'it' if len(paths) == 1 else 'them'} otherwise)",
            ("encoding",),
        )
        for encoding, paths in files.items()
    ]


SELECTED_PLACES = "SELECT id, path, line FROM records WHERE id IN ({ids}) ORDER BY id"  # of the records a removal takes


def remove_selected(db: sqlite_utils.Database, selected: tuple[str, list]) -> list[tuple[int, str | None, int | None]]:
    """Remove the records `selected` (SQL of their ids) with all their rows, in one transaction, as
    `import --replace` removes a record its file no longer has (archive/removal.py); the id, path and
    line of each, by id. None removed when none is selected."""
    conn = db.conn
    codes, sums = MoveCodes(conn), NextPlies(conn)
    with _transaction(conn, codes, sums):
        removed = conn.execute(SELECTED_PLACES.format(ids=selected[0]), selected[1]).fetchall()
        remove_records(conn, [row[0] for row in removed], CHILD_COLUMNS, codes, sums)
        conn.execute("COMMIT")
    if removed:
        merge_positions(conn)
    return removed


def merge_positions(conn: sqlite3.Connection) -> None:
    """Merge the index `positions` into one segment (FTS5's `optimize`): each batch wrote its own, and
    a search looks a token up in every segment (a fifth of the time of a move tree 3 plies deep, for
    about 2 s an import of 100,000 records: BENCHMARKS.md). Run once what it follows is committed, it
    only makes searches faster: an archive another program took the lock of meanwhile, or a disk full, leaves
    it unmerged, as it is (reviewer-57: a removal done was said to have removed nothing), and the next import merges it."""
    with suppress(sqlite3.OperationalError):  # (a lock another program holds, a disk full: left unmerged)
        with conn:
            conn.execute("INSERT INTO positions (positions) VALUES ('optimize')")
        # the segments merged leave their pages free (2% of the archive): an archive made since version
        # 9 gives them back (PRAGMA auto_vacuum = INCREMENTAL), one of an older lusoria keeps them
        conn.executescript("PRAGMA incremental_vacuum;")  # (stepped to its end: one execute frees one page)


FAULT = "LUSORIA_IMPORT_FAULT"
CACHE_KIB = 65536  # SQLite's page cache while importing: the default 2 MiB takes 1.7 times as long
_WAITED: set[tuple[str, int]] = set()  # the points `_fault` has waited at (once each)


def _fault(point: str, batch: int) -> None:
    """A test hook, LUSORIA_IMPORT_FAULT=POINT:N[:raise|:wait]: stop at POINT of the N-th batch
    (`insert`: after the records rows, before the others; `commit`: just before COMMIT;
    `committed`: just after) by SIGKILL, with `:raise` by a RuntimeError, or with `:wait` say
    so on standard error and wait there (once) for a line on standard input."""
    wanted = os.environ.get(FAULT, "").split(":")
    if wanted[:2] == [point, str(batch)]:
        if wanted[2:] == ["raise"]:
            raise RuntimeError(f"{FAULT}: stopped at {point} of batch {batch}")
        if wanted[2:] == ["wait"]:
            if (point, batch) not in _WAITED:
                _WAITED.add((point, batch))
                print(f"{FAULT}: waiting at {point} of batch {batch}", file=sys.stderr, flush=True)
                sys.stdin.readline()
            return
        os.kill(os.getpid(), signal.SIGKILL)


def insert_rows(
    conn: sqlite3.Connection,
    tables: dict[str, list[tuple[int, Columns]]],
    codes: MoveCodes,
    sums: NextPlies,
    after_each: Callable[[], None] | None,
    texts: TextPacker,
) -> None:
    """Insert the rows of new records, each table's as (record id, its Columns) per record: those
    of `records` first, their texts compressed by `texts`, then their child tables' (as
    `insert_child_rows` does); `after_each` is called after each table."""
    pack = texts.pack
    _insert_records(conn, (row[:TEXT] + (pack(row[TEXT]),) + row[TEXT + 1 :] for row in _rows(tables["records"])))
    if after_each:
        after_each()
    insert_child_rows(conn, tables, codes, sums, after_each)


def insert_child_rows(
    conn: sqlite3.Connection,
    tables: dict[str, list[tuple[int, Columns]]],
    codes: MoveCodes,
    sums: NextPlies,
    after_each: Callable[[], None] | None = None,
) -> None:
    """Insert the rows of the records' child tables (`tables` but `records`, which is
    `insert_rows`'), each table's as (record id, its Columns) per record, the plies of
    `positions` coded by `codes`, and last the sums of `next_plies` (`sums`, which read the
    others); `after_each` is called after each table."""
    for table, new in tables.items():
        if table in ("records", "next_plies"):
            continue
        rows = _rows(new)
        if table == "positions":
            rows = ((record, codes.document(tokens, moves)) for record, tokens, moves in rows)
        names = ", ".join(f"[{c}]" for c in CHILD_COLUMNS[table])
        conn.executemany(f"INSERT INTO [{table}] ({names}) VALUES ({', '.join('?' * len(CHILD_COLUMNS[table]))})", rows)
        if after_each:
            after_each()
    lines = {record: found[1][0] for record, found in tables.get("positions", []) if found}
    sums.add([(record, found) for record, found in tables.get("next_plies", []) if found], lines, codes.codes)


def _rows(new: list[tuple[int, Columns]]) -> Iterator[tuple]:
    """The rows of a table: each record's Columns as rows, its id first."""
    return chain.from_iterable(zip(repeat(record), *found) for record, found in new if found)


def _insert_records(conn: sqlite3.Connection, new: Iterable[tuple]) -> None:
    """Rows of `records`, by one INSERT … SELECT from a scratch table: the trigger that indexes
    them for full-text search then runs within one statement, where a row at a time makes the
    index write itself out at each row (three times as long)."""
    columns = ", ".join(f"[{c}]" for c in STORED_COLUMNS)
    conn.execute(f"CREATE TEMP TABLE IF NOT EXISTS new_records AS SELECT {columns} FROM records WHERE 0")
    conn.executemany(f"INSERT INTO temp.new_records VALUES ({', '.join('?' * len(STORED_COLUMNS))})", new)
    conn.execute(f"INSERT INTO main.records ({columns}) SELECT {columns} FROM temp.new_records")
    conn.execute("DELETE FROM temp.new_records")


@contextmanager
def _transaction(conn: sqlite3.Connection, codes: MoveCodes, sums: NextPlies) -> Iterator[None]:
    """A write transaction (BEGIN IMMEDIATE; its body commits), with what the writing process keeps of
    the archive read again if another process wrote to it; rolled back, and that forgotten, when the
    body raises."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        codes.refresh()
        sums.refresh()
        yield
    except BaseException:  # Ctrl-C too, or a full disk (SQLite may have rolled back already), which may come before BEGIN took effect or after COMMIT did
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        codes.forget()
        sums.forget()
        raise


def _insert_batch(
    db: sqlite_utils.Database,
    batch: list[Rows | Failure],
    summary: ImportSummary,
    number: int,
    kept: tuple[MoveCodes, TextPacker, NextPlies],
    replacing: tuple[Replacement, Rows | Failure | None] | None,
) -> None:
    """One transaction: the new records of `batch` with all their rows, or nothing (with
    `replacing`, a Replacement and the record after `batch`: first the records held from their
    files that changed or are gone removed, those kept moved to their place). When storing them raises
    (not the archive failing: `archive_failing`), they are stored again one by one
    (`_one_by_one`), and those that fail alone are left out, whole; when replacing, the batch is
    then rolled back and stored again with them as Failures, which remove nothing the archive held
    (`Replacement`), a record set aside before it and returned now that failed included (its
    Failure first; the record it waited for judged by its own file). `kept`: what the writing
    process keeps of the archive."""
    conn, (codes, _, sums) = db.conn, kept
    with _transaction(conn, codes, sums):
        counts = ImportSummary()
        read = _replaced(conn, batch, replacing, kept, counts) if replacing else batch
        new_records, duplicates = _new_records(conn, read, counts)
        new, failures = _stored(conn, new_records, number, kept)
        counts.failed += failures.values()
        counts.skipped += _skipped(conn, duplicates)
        if replacing and failures:
            again = _rolled_back(conn, batch, replacing[0], kept, failures)
            return _insert_batch(db, again, summary, number, kept, replacing)
        conn.execute(LAST_GIVEN)
        if new:  # (numbered in a row, the last ids: `_stored`)
            last = conn.execute("SELECT max(id) FROM records").fetchone()[0]
            counts.added_ids.append((last - len(new) + 1, last))
        conn.execute("RELEASE batch")
        _fault("commit", number)
        conn.execute("COMMIT")
    _fault("committed", number)
    _count(summary, counts, new)


def _replaced(
    conn: sqlite3.Connection,
    batch: list[Rows | Failure],
    replacing: tuple[Replacement, Rows | Failure | None],
    kept: tuple[MoveCodes, TextPacker, NextPlies],
    counts: ImportSummary,
) -> list[Rows | Failure]:
    """The records held from the files of `batch` (`replacing`: a Replacement and the record after
    `batch`) that changed or are gone removed, those kept moved to their place, counted in
    `counts`; the records to store: those returned, read before, first, then the rest of `batch`."""
    codes, texts, sums = kept
    replacement, following = replacing
    replacement.saved()
    found = replacement.sort(batch, following)
    remove_records(conn, found.removed, CHILD_COLUMNS, codes, sums)
    _move(conn, found.moved, codes, sums, texts)
    counts.replaced, counts.replaced_files, counts.kept = len(found.removed), found.files, found.kept
    return [*replacement.returned(found.removed), *found.rest]


# The id of an import's first record, after every id given (`record_ids`, tables.py: a record removed leaves a
# gap for good), and the last given, as its batch is committed
NEXT_ID = "SELECT max(coalesce((SELECT max(id) FROM records), 0), (SELECT last FROM record_ids)) + 1"
LAST_GIVEN = "UPDATE record_ids SET last = (SELECT max(id) FROM records) WHERE (SELECT max(id) FROM records) > last"


def _stored(
    conn: sqlite3.Connection, new: list[Rows], number: int, kept: tuple[MoveCodes, TextPacker, NextPlies]
) -> tuple[list[Rows], dict[int, Failure]]:
    """Insert the records `new` with all their rows within the savepoint `batch` (left open), or,
    when that raises (not the archive failing: `archive_failing`), one by one (`_one_by_one`):
    the records stored and the Failures of those that failed alone, by their records' identity."""
    codes, texts, sums = kept
    next_id = conn.execute(NEXT_ID).fetchone()[0]
    texts.prepare([checked.tables["records"][TEXT - 1][0] for checked in new])  # (without the id)
    conn.execute("SAVEPOINT batch")
    try:
        insert_rows(conn, _tables(new, next_id), codes, sums, lambda: _fault("insert", number), texts)
    except Exception as error:
        if archive_failing(error):
            raise
        _roll_back(conn, "batch", codes, sums)
        return _one_by_one(conn, new, next_id, codes, texts, sums, error)
    return new, {}


def _rolled_back(
    conn: sqlite3.Connection,
    batch: list[Rows | Failure],
    replacement: Replacement,
    kept: tuple[MoveCodes, TextPacker, NextPlies],
    failures: dict[int, Failure],
) -> list[Rows | Failure]:
    """Roll back a replacing batch some of whose records failed to store (`failures`, by their
    records' identity), and `replacement` with it: the records to store again, those set aside
    before `batch` that failed first, then `batch` with those that failed as their Failures."""
    codes, _, sums = kept
    conn.execute("ROLLBACK")
    codes.forget()
    sums.forget()
    replacement.restore()
    return [*replacement.failed_aside(failures), *_failed_in(batch, failures)]


def _count(summary: ImportSummary, counts: ImportSummary, new: list[Rows]) -> None:
    """Add to `summary` what a batch did (`counts`, and the records `new` it added)."""
    summary.added += len(new)
    summary.skipped += counts.skipped
    summary.replaced += counts.replaced
    summary.replaced_files += counts.replaced_files
    summary.kept += counts.kept
    summary.invalid += sum(not checked.valid for checked in new)
    summary.unparsable += sum(not checked.parsed for checked in new)
    summary.undecoded += sum(checked.undecoded for checked in new)
    summary.unparsed += [checked.place for checked in new if not checked.parsed and not checked.undecoded]
    summary.failed += counts.failed
    summary.added_ids += counts.added_ids


def _failed_in(batch: list[Rows | Failure], failures: dict[int, Failure]) -> list[Rows | Failure]:
    """`batch` with each record of it that failed to store as its Failure (`failures`: by the
    record's identity, `id`: records given as text share a place)."""
    return [failures.get(id(checked), checked) for checked in batch]


def _move(
    conn: sqlite3.Connection, moved: list[tuple[int, Rows]], codes: MoveCodes, sums: NextPlies, texts: TextPacker
) -> None:
    """Give each record kept `moved` (its id, the record read that keeps it) that record's place
    (`path`, `line` and `file`), its encoding when another than UTF-8 (reviewer-58: an archive upgraded to version
    21, which knows none, learns it from an `import --replace --encoding`; a record read as UTF-8 reads the same in
    the encoding it holds, and keeps it: one of a file read no further is read so before), text (whose source tags
    say the place: formats/lgn.py) and diagnostics (their lines are the file's)."""
    texts.refresh()
    conn.executemany(
        "UPDATE records SET path = ?, line = ?, file = ?, encoding = coalesce(?, encoding), packed_text = ? "
        "WHERE id = ?",
        [
            (*[row[index][0] for index in READ_FROM], texts.pack(row[TEXT - 1][0]), record)
            for record, row in ((record, checked.tables["records"]) for record, checked in moved)
        ],
    )
    conn.executemany("DELETE FROM diagnostics WHERE record_id = ?", [(record,) for record, _ in moved])
    insert_child_rows(
        conn, {"diagnostics": [(record, checked.tables["diagnostics"]) for record, checked in moved]}, codes, sums
    )


def _new_records(
    conn: sqlite3.Connection, batch: list[Rows | Failure], counts: ImportSummary
) -> tuple[list[Rows], list[Rows]]:
    """The records of `batch` that are no game the archive holds nor one before them in `batch`,
    and the others, its duplicates; its Failures counted in `counts`."""
    hashes = [checked.hash for checked in batch if isinstance(checked, Rows)]
    seen = set(owners(conn, hashes))
    new: list[Rows] = []
    duplicates: list[Rows] = []
    for checked in batch:
        if isinstance(checked, Failure):
            counts.failed.append(checked)
        elif checked.hash in seen:
            duplicates.append(checked)
        else:  # new: a later record of its game in `batch` is a duplicate
            seen.add(checked.hash)
            new.append(checked)
    return new, duplicates


def _skipped(conn: sqlite3.Connection, duplicates: list[Rows]) -> list[SkippedDuplicate]:
    """The records `duplicates` skipped, each with the archive's record of its game (stored now)."""
    held = owners(conn, [checked.hash for checked in duplicates]) if duplicates else {}
    changed = changed_since(conn, [(held[checked.hash], checked) for checked in duplicates if checked.hash in held])
    return [
        SkippedDuplicate(
            checked.place, held.get(checked.hash), checked.tables["records"][FILE][0], id(checked) in changed
        )
        for checked in duplicates
    ]


def _roll_back(conn: sqlite3.Connection, savepoint: str, codes: MoveCodes, sums: NextPlies) -> None:
    """Roll back to `savepoint`; what `codes` and `sums` keep of the archive is read again."""
    conn.execute(f"ROLLBACK TO {savepoint}")
    codes.forget()
    codes.refresh()
    sums.forget()


def _tables(new: list[Rows], first_id: int) -> dict[str, list[tuple[int, Columns]]]:
    """The rows of records `new`, numbered from `first_id`, by table (what `insert_rows` takes)."""
    tables: dict[str, list[tuple[int, Columns]]] = {"records": []}
    for record_id, checked in enumerate(new, first_id):
        for table, found in checked.tables.items():
            tables.setdefault(table, []).append((record_id, found))
    return tables


def _one_by_one(
    conn: sqlite3.Connection,
    new: list[Rows],
    next_id: int,
    codes: MoveCodes,
    texts: TextPacker,
    sums: NextPlies,
    raised: Exception,
) -> tuple[list[Rows], dict[int, Failure]]:
    """Store the records `new`, whose rows together raised `raised`, one by one, each within a
    savepoint: a record whose rows raise is rolled back, whole, and made a Failure, the others
    numbered from `next_id` without a gap. The records stored and the Failures, by the identity
    (`id`) of their records; `raised` raised again when none fails alone (a fault of the batch,
    not of a record)."""
    stored: list[Rows] = []
    failures: dict[int, Failure] = {}
    for checked in new:
        conn.execute("SAVEPOINT record")
        try:
            insert_rows(conn, _tables([checked], next_id + len(stored)), codes, sums, None, texts)
        except Exception as error:
            if archive_failing(error):
                raise
            _roll_back(conn, "record", codes, sums)
            failures[id(checked)] = failure(checked.place, error, checked.tables["records"][FILE][0])
        else:
            stored.append(checked)
        conn.execute("RELEASE record")
    if not failures:
        raise raised
    return stored, failures
