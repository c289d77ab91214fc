"""Import records into the archive: streamed, validated and made into rows (in worker processes
with `jobs`), inserted in batched transactions by this process. A batch is all or nothing, so
the archive only ever holds whole records, and a record's identity (archive/identity.py) makes
a second import of the same game add nothing. A record lusoria fails on (a bug: an exception
while it is checked, made into rows or stored) is left out, whole, and named (`Failure`); the
others are stored. The archive failing (a full disk, a lock, a damaged file) stops the import."""

from __future__ import annotations

import gc
import json
import os
import signal
import sqlite3
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from itertools import chain, islice, repeat
from operator import attrgetter

import sqlite_utils

from lusoria.archive.endings import ending
from lusoria.archive.identity import identity
from lusoria.archive.next_plies import NextPlies, next_ply_rows
from lusoria.archive.positions import (
    RANGE_COLUMNS,
    RUN_COLUMNS,
    Columns,
    columns,
    keys_of,
    move_code,
    position_rows,
    summary_rows,
)
from lusoria.archive.texts import TextPacker
from lusoria.archive.variations import COLUMNS as VARIATION_COLUMNS
from lusoria.archive.variations import variation_rows
from lusoria.formats.lgn import lgn_text
from lusoria.notation.dates import date_range
from lusoria.notation.model import Record
from lusoria.notation.reader import RecordText
from lusoria.notation.sources import Problem
from lusoria.notation.visitor import Visitor, walk
from lusoria.validator.replay import ERROR, Report, check
from lusoria.words import plural
from lusoria.workers import in_workers, place

COMMENTS = attrgetter("comments")  # of a ply
VARIATIONS = attrgetter("variations")  # of a ply
ROSTER_COLUMNS = ("Event", "Site", "Date", "Round", "White", "Black", "Result")
ROSTER_COLUMNS_INDEX = {tag: 3 + index for index, tag in enumerate(ROSTER_COLUMNS)}
# The tags a record's columns keep as written, by column (`result` holds the movetext's result):
# not written again in `other_tags` (schema version 10)
COLUMN_TAGS = {tag: tag.lower() for tag in ROSTER_COLUMNS if tag != "Result"}
SOURCE_TAGS = ("Source", "Annotator", "Transcriber", "Manuscript")  # joined in the sources column, searched as text


@dataclass
class ImportSummary:
    """What an import did."""

    added: int = 0
    duplicates: int = 0
    invalid: int = 0  # of the added records
    unparsable: int = 0  # of the invalid ones: kept as text with their syntax diagnostics
    unreadable: list[str] = field(default_factory=list)  # sources that could not be read at all
    failed: list[Failure] = field(default_factory=list)  # records lusoria failed on: not stored

    def __str__(self) -> str:
        text = (
            f"added {plural(self.added, 'record')} ({self.invalid} invalid, {self.unparsable} of them "
            f"unparsable), skipped {plural(self.duplicates, 'duplicate')}"
        )
        if self.failed:
            text += f", {plural(len(self.failed), 'record')} failed"
        if self.unreadable:
            text += f"; could not read {plural(len(self.unreadable), 'source')}: {'; '.join(self.unreadable)}"
        return text


class _Comments(Visitor):
    """A record's comments, in the order written."""

    def __init__(self) -> None:
        self.comments: list[str] = []

    def visit_comment(self, comment: str) -> None:
        self.comments.append(comment)


def _comments(record: Record) -> list[str]:
    plies = record.main.plies
    if not (record.main.comments or any(map(COMMENTS, plies)) or any(map(VARIATIONS, plies))):
        return []  # what most records are: none to walk for
    found = _Comments()
    walk(record, found)
    return found.comments


RECORD_COLUMNS = [
    "id",
    "hash",
    "game",
    "variant",
    "event",
    "site",
    "date",
    "round",
    "white",
    "black",
    "result",
    "date_from",
    "date_to",
    "plies",
    "valid",
    "errors",
    "warnings",
    "first_rule",
    "first_ply",
    "path",
    "line",
    "sources",
    "comments",
    "text",
    "setting",
    "ending",
    "rule_tags",
]
TEXT = RECORD_COLUMNS.index("text")  # a record's text, as `rows` gives it; the writing process compresses it
STORED_COLUMNS = [*RECORD_COLUMNS[:TEXT], "packed_text", *RECORD_COLUMNS[TEXT + 1 :]]  # (`label` is generated)
CHILD_COLUMNS = {
    "other_tags": ["record_id", "name", "value"],
    "positions": ["rowid", "plies"],
    "variation_plies": VARIATION_COLUMNS,
    "record_boards": ["record_id", "boards"],
    "record_squares": ["record_id", "game", "squares"],
    "material_runs": RUN_COLUMNS,
    "material_ranges": RANGE_COLUMNS,
    "diagnostics": ["record_id", "number", "severity", "rule", "message", "ply", "text", "line", "column"],
}


@dataclass(slots=True)
class Rows:
    """One checked record as rows of each table, column by column, its id left out
    (archive/positions.py: Columns): `import_rows` gives each record its id; `place`: where
    the record is (`path:line`)."""

    hash: str
    valid: bool
    parsed: bool
    tables: dict[str, Columns]
    place: str


@dataclass(frozen=True, slots=True)
class Failure:
    """A record lusoria failed on, left out of the archive: a bug in lusoria, not in the record.
    Where the record is (`path:line`), the exception (`ValueError: …`) and its traceback."""

    place: str
    error: str
    trace: str

    def __str__(self) -> str:
        return f"{self.place}: {self.error}"


def failure(place: str, error: Exception) -> Failure:
    """The Failure of the record at `place` that raised `error`."""
    import traceback

    return Failure(place, f"{type(error).__name__}: {error}", "".join(traceback.format_exception(error)).rstrip())


def archive_failing(error: BaseException) -> bool:
    """Whether `error` is the archive (or the system) failing, which stops an import — a full
    disk, a lock, a read-only or damaged file, no memory left, Ctrl-C — rather than a fault in
    one record's rows (a value SQLite refuses, a bug in making a table's rows)."""
    return (
        not isinstance(error, Exception)
        or isinstance(error, (OSError, MemoryError, sqlite3.OperationalError, sqlite3.InternalError))
        or type(error) is sqlite3.DatabaseError  # a damaged file
    )


def _or_failure(make: Callable[[], Rows], source: RecordText) -> Rows | Failure:
    """The rows `make` gives of the record `source`, or its Failure when `make` raises (the
    system failing stops the import as it is)."""
    try:
        return make()
    except Exception as error:
        if archive_failing(error):
            raise
        return failure(place(source), error)


def as_written(report: Report) -> str:
    """The record's text to keep: as written, or in lusoria's notation with its source tags when it
    was read from another format and not refused (formats.lgn; its original format is also a
    SourceFormat row of `tags`, its file `path`)."""
    if report.source.format == "lgn" or report.record is None or report.refused:
        return report.source.text
    return lgn_text(report)


def rows(report: Report) -> Rows:
    """The rows of one checked record, for each table."""
    tags = report.tags
    errors = [d for d in report.diagnostics if d.severity == ERROR]
    first = errors[0] if errors else None
    date_from, date_to = report.dates if report.record else _dates(tags)
    text = as_written(report)
    found = identity(report)
    record = [
        found.key,
        report.game,
        report.variant,
        *(tags.get(tag) for tag in ROSTER_COLUMNS),
        date_from,
        date_to,
        report.plies,
        report.valid,
        len(errors),
        len(report.diagnostics) - len(errors),
        first and first.rule,
        first and first.ply,
        report.source.path,
        report.source.line,
        " ".join(tags[t] for t in SOURCE_TAGS if t in tags) or None,
        (" ".join(_comments(report.record)) or None) if report.record else None,
        text.rstrip("\n") + "\n",
        found.setting,
        ending(report),
        rule_tags(report),
    ]
    record[ROSTER_COLUMNS_INDEX["Result"]] = report.result
    names = [name for name in tags if name not in COLUMN_TAGS]  # those the record's columns keep: not again
    values = [tags[name] for name in names]
    if report.source.format != "lgn":
        names.append("SourceFormat")
        values.append(report.source.format)
    return Rows(
        found.key,
        report.valid,
        report.record is not None,
        {
            "records": [[value] for value in record],
            "other_tags": [names, values],
            **replayed_rows(report),
            "diagnostics": columns(
                [
                    [n, d.severity, d.rule, d.message, d.ply, d.text, d.line, d.column]
                    for n, d in enumerate(report.diagnostics)
                ]
            ),
        },
        place(report.source),
    )


def rule_tags(report: Report) -> str | None:
    """The tags besides Variant that choose a record's rules, as its game writes them (`Rules`
    with the options its variant does not set, Latrunculi's `Board`): JSON, or None when there
    are none (the move tree plays plies again under the records' rules)."""
    extra = report.rules.extra_tags() if report.rules else None
    return json.dumps(extra, sort_keys=True) if extra else None


def record_rows(source: RecordText) -> Rows | Failure:
    """The rows of one record, checked here (what a worker of `checked_rows` does), or its
    Failure when lusoria fails on it."""
    return _or_failure(lambda: rows(check(source)), source)


def report_rows(report: Report) -> Rows | Failure:
    """The rows of one checked record (`rows`), or its Failure when lusoria fails on it."""
    return _or_failure(lambda: rows(report), report.source)


def checked_rows(
    records: Iterable[RecordText | Problem], jobs: int = 1, batch_size: int = 1000
) -> Iterator[Rows | Failure | Problem]:
    """The rows of each record (`record_rows`), by `jobs` worker processes, in order, up to a
    batch of `import_rows` ahead; the problems of the stream (lusoria.pipeline) in their place.
    With workers, this process's collector of reference cycles is paused while it takes the
    rows: they hold none, and it would walk those of a batch again and again (a sixth of the
    time of the process that writes); the workers, which check records (an illegal ply's
    exception can make cycles), collect as always."""
    if jobs <= 1:
        yield from in_workers(record_rows, records, jobs, batch_size)
        return
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield from in_workers(record_rows, records, jobs, batch_size)
    finally:
        if enabled:
            gc.enable()


def replayed_rows(report: Report) -> dict[str, Columns]:
    """The rows of the tables made from replaying a record (schema.REPLAYED): its row of
    `positions` (each position of the main line and the ply played from it); what `next_plies`
    needs (archive/next_plies.py); its variations; its summaries (archive/positions.py)."""
    rules, positions = report.rules, report.positions
    if rules is None or not positions:
        return {}
    moves = [report.canonical[0, ply] for ply in range(len(positions) - 1)]
    keys = keys_of(rules, positions)
    return {
        "positions": position_rows(keys, moves),
        "next_plies": next_ply_rows(rules, positions, keys),
        "variation_plies": variation_rows(report),
        **summary_rows(rules, positions),
    }


def _dates(tags: dict[str, str]) -> tuple[str | None, str | None]:
    """The first and last day of the Date tag of a record that does not parse (None when unknown)."""
    try:
        return date_range(tags.get("Date", "????.??.??"))
    except ValueError:
        return None, None


class MoveCodes:
    """The archive's dictionary of plies (`moves`) as a writing process keeps it: the code of each
    ply in canonical form (`positions.move_code`), a new ply added when it first comes."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self.codes: dict[str, str] = {}

    def refresh(self) -> None:
        """Read the dictionary again when it changed since (another import added to it, or a
        batch rolled back what this one added): at the start of each transaction."""
        if self.conn.execute("SELECT count(*) FROM moves").fetchone()[0] != len(self.codes):
            self.codes = dict(self.conn.execute("SELECT text, code FROM moves"))

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
) -> ImportSummary:
    """Store the rows of each checked record (`rows`) in the archive `db`, `batch_size` records a
    transaction, counted in `summary` (a new one by default), a Failure counted there too;
    `done`: the batches this import stored before (which a new archive is made with)."""
    summary = summary or ImportSummary()
    checked = iter(checked)
    db.execute(f"PRAGMA cache_size = -{CACHE_KIB}")  # the b-trees an import writes all over
    db.execute("PRAGMA foreign_keys = OFF")  # each row's record is the one inserted just before it (tests:
    number = done  # foreign_key_check after imports); checked, a lookup a row
    codes, texts, sums = MoveCodes(db.conn), TextPacker(db.conn), NextPlies(db.conn)
    try:
        while batch := list(islice(checked, batch_size)):
            number += 1
            _insert_batch(db, batch, summary, number, codes, texts, sums)
        if summary.added:
            merge_positions(db.conn)
    finally:
        db.execute("PRAGMA foreign_keys = ON")
    return summary


def merge_positions(conn: sqlite3.Connection) -> None:
    """Merge the index `positions` into one segment (FTS5's `optimize`): each batch wrote its own, and
    a search looks a token up in every segment (a fifth of the time of a move tree 3 plies deep, for
    about 2 s an import of 100,000 records: BENCHMARKS.md)."""
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
    after_each: Callable[[], None] | None = None,
    texts: TextPacker | None = None,
) -> None:
    """Insert the rows of records (`records` first, when given: their texts compressed by `texts`)
    and their child tables, each table's as (record id, its Columns) per record, the plies of
    `positions` coded by `codes`, and last the sums of `next_plies` (`sums`, which read the
    others); `after_each` is called after each table."""
    for table, new in tables.items():
        if table == "next_plies":
            continue
        rows: Iterable[tuple] = chain.from_iterable(zip(repeat(record), *found) for record, found in new if found)
        if table == "records":
            assert texts is not None
            pack = texts.pack
            _insert_records(conn, (row[:TEXT] + (pack(row[TEXT]),) + row[TEXT + 1 :] for row in rows))
        else:
            if table == "positions":
                rows = ((record, codes.document(tokens, moves)) for record, tokens, moves in rows)
            names = ", ".join(f"[{c}]" for c in CHILD_COLUMNS[table])
            conn.executemany(
                f"INSERT INTO [{table}] ({names}) VALUES ({', '.join('?' * len(CHILD_COLUMNS[table]))})", rows
            )
        if after_each:
            after_each()
    lines = {record: found[1][0] for record, found in tables.get("positions", []) if found}
    sums.add([(record, found) for record, found in tables.get("next_plies", []) if found], lines, codes.codes)


def _insert_records(conn: sqlite3.Connection, new: Iterable[tuple]) -> None:
    """Rows of `records`, by one INSERT … SELECT from a scratch table: the trigger that indexes
    them for full-text search then runs within one statement, where a row at a time makes the
    index write itself out at each row (three times as long)."""
    columns = ", ".join(f"[{c}]" for c in STORED_COLUMNS)
    conn.execute(f"CREATE TEMP TABLE IF NOT EXISTS new_records AS SELECT {columns} FROM records WHERE 0")
    conn.executemany(f"INSERT INTO temp.new_records VALUES ({', '.join('?' * len(STORED_COLUMNS))})", new)
    conn.execute(f"INSERT INTO main.records ({columns}) SELECT {columns} FROM temp.new_records")
    conn.execute("DELETE FROM temp.new_records")


def _insert_batch(
    db: sqlite_utils.Database,
    batch: list[Rows | Failure],
    summary: ImportSummary,
    number: int,
    codes: MoveCodes,
    texts: TextPacker,
    sums: NextPlies,
) -> None:
    """One transaction: the new records of `batch` with all their rows, or nothing. When storing
    them raises (not the archive failing: `archive_failing`), they are stored again one by one
    (`_one_by_one`), and those that fail alone are left out, whole."""
    conn = db.conn
    conn.execute("BEGIN IMMEDIATE")
    try:
        codes.refresh()
        sums.refresh()
        counts = ImportSummary()
        hashes = [checked.hash for checked in batch if isinstance(checked, Rows)]
        seen = {
            row[0]
            for row in conn.execute(f"SELECT hash FROM records WHERE hash IN ({','.join('?' * len(hashes))})", hashes)
        }
        new: list[Rows] = []
        for checked in batch:
            if isinstance(checked, Failure):
                counts.failed.append(checked)
            elif checked.hash in seen:
                counts.duplicates += 1
            else:
                seen.add(checked.hash)
                new.append(checked)
        next_id = conn.execute("SELECT coalesce(max(id), 0) + 1 FROM records").fetchone()[0]
        texts.prepare([checked.tables["records"][TEXT - 1][0] for checked in new])  # (without the id)
        conn.execute("SAVEPOINT batch")
        try:
            insert_rows(conn, _tables(new, next_id), codes, sums, lambda: _fault("insert", number), texts)
        except Exception as error:
            if archive_failing(error):
                raise
            _roll_back(conn, "batch", codes, sums)
            new = _one_by_one(conn, new, next_id, codes, texts, sums, counts, error)
        conn.execute("RELEASE batch")
        _fault("commit", number)
        conn.execute("COMMIT")
    except BaseException:  # Ctrl-C too, or a full disk (SQLite may have rolled back already), which may come before BEGIN took effect or after COMMIT did
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        sums.forget()
        raise
    _fault("committed", number)
    summary.added += len(new)
    summary.duplicates += counts.duplicates
    summary.invalid += sum(not checked.valid for checked in new)
    summary.unparsable += sum(not checked.parsed for checked in new)
    summary.failed += counts.failed


def _roll_back(conn: sqlite3.Connection, savepoint: str, codes: MoveCodes, sums: NextPlies) -> None:
    """Roll back to `savepoint`; what `codes` and `sums` keep of the archive is read again."""
    conn.execute(f"ROLLBACK TO {savepoint}")
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
    counts: ImportSummary,
    raised: Exception,
) -> list[Rows]:
    """Store the records `new`, whose rows together raised `raised`, one by one, each within a
    savepoint: a record whose rows raise is rolled back, whole, and counted failed in `counts`,
    the others numbered from `next_id` without a gap. The records stored; `raised` raised again
    when none fails alone (a fault of the batch, not of a record)."""
    stored: list[Rows] = []
    for checked in new:
        conn.execute("SAVEPOINT record")
        try:
            insert_rows(conn, _tables([checked], next_id + len(stored)), codes, sums, texts=texts)
        except Exception as error:
            if archive_failing(error):
                raise
            _roll_back(conn, "record", codes, sums)
            counts.failed.append(failure(checked.place, error))
        else:
            stored.append(checked)
        conn.execute("RELEASE record")
    if len(stored) == len(new):
        raise raised
    return stored
