"""A checked record made into the rows of each table of the archive (what the worker processes
of an import do, `checked_rows`), or, when lusoria fails on it, its `Failure`; the writing
process stores them (archive/importer.py)."""

from __future__ import annotations

import gc
import os
import sqlite3
import unicodedata
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from operator import attrgetter

from lusoria.archive.endings import ending
from lusoria.archive.identity import Identity, identity
from lusoria.archive.next_plies import next_ply_rows
from lusoria.archive.positions import Columns, columns, keys_of, position_rows, summary_rows
from lusoria.archive.rule_sets import rule_tags_of
from lusoria.archive.stored import checked
from lusoria.archive.tables import COLUMN_TAGS, STORED_COLUMNS
from lusoria.archive.variations import variation_rows
from lusoria.bounds import MAX_JOBS, bounded
from lusoria.errors import DataError
from lusoria.formats.lgn import lgn_text, place_tags
from lusoria.notation.dates import date_range
from lusoria.notation.escapes import as_lines
from lusoria.notation.model import Record
from lusoria.notation.reader import RecordText
from lusoria.notation.sources import Problem, fs_path, names_a_file, shown_path
from lusoria.notation.syntax import Undecodable
from lusoria.notation.visitor import Visitor, walk
from lusoria.notation.writer import unknown
from lusoria.plugins import FAILS, traceback_of
from lusoria.source_tags import SOURCE_FORMAT
from lusoria.validator.games import GAMES
from lusoria.validator.replay import ERROR, Report, check
from lusoria.workers import in_workers, place

COMMENTS = attrgetter("comments")  # of a ply
VARIATIONS = attrgetter("variations")  # of a ply
SOURCES_COLUMN_TAGS = ("Source", "Annotator", "Transcriber", "Manuscript")  # joined in `sources`, searched as text


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


# A record's row of `records` as `rows` gives it: STORED_COLUMNS but the id (archive/tables.py), its
# text as written in place of `packed_text` (the writing process compresses it)
TEXT = STORED_COLUMNS.index("packed_text")  # a record's text, in its row with its id
# A record's place in its row as `rows` gives it: its path, line and file (version 15: the real path)
PLACE = [STORED_COLUMNS.index(column) - 1 for column in ("path", "line", "file")]
PATH, FILE = PLACE[0], PLACE[-1]
ENCODING = STORED_COLUMNS.index("encoding") - 1  # the encoding it was read with (None: UTF-8)
READ_FROM = [*PLACE, ENCODING]  # where and how it was read: not the game, which `import --replace` compares


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
    placed: tuple[str, ...] = ()  # the tags its text holds that only say where it was read (`lgn.place_tags`)
    undecoded: bool = False  # not read: it holds a byte its file's encoding does not decode


@dataclass(frozen=True, slots=True)
class Failure:
    """A record lusoria failed on, left out of the archive: a bug in lusoria, not in the record,
    or, `by_plug_in`, in a plug-in's game (`GAMES.failed_plug_in`). Where the record is
    (`path:line`), the exception (`ValueError: …`; a plug-in's, said naming its game), its traceback,
    and its `file` as a record's row keeps it (`real_file`: what `import --replace` finds a file's
    records by; None for a record of no file)."""

    place: str
    error: str
    trace: str
    file: str | None = None
    by_plug_in: bool = False

    def __str__(self) -> str:
        return f"{self.place}: {self.error}"


@dataclass(frozen=True, slots=True)
class SkippedDuplicate:
    """A record an import skipped: where it is (`path:line`), the id of the archive's record of
    the same game (`record`; None: a record before it in the same batch that lusoria failed on),
    the real path of its file (`file`, as a record's row keeps it; None for no file), and whether
    that record was read from the same file as other text (`changed`: the file changed since)."""

    place: str
    record: int | None
    file: str | None = None
    changed: bool = False

    def __str__(self) -> str:
        same = f"record {self.record}" if self.record is not None else "a record lusoria failed on"
        since = ", read from this file before it changed (import --replace holds it as it is now)"
        return f"{self.place}: skipped, the same game as {same}{since if self.changed else ''}"


def failure(place: str, error: BaseException, file: str | None = None) -> Failure:
    """The Failure of the record at `place` (of `file`) that raised `error`."""
    trace = traceback_of(error)
    if said := GAMES.failed_plug_in(error):  # (here, in the worker that checked it: its traceback is whole)
        return Failure(place, said, trace, file, by_plug_in=True)
    return Failure(place, f"{type(error).__name__}: {error}", trace, file)


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
    system failing stops the import as it is, and so does lusoria's own data found wrong, a
    DataError, which every command says as the file and entry to mend); what a plug-in game raises,
    its sys.exit() and OSError too (a file of its own missing: not the archive), is its record's."""
    try:
        return make()
    except FAILS as error:
        by_plug_in = GAMES.failed_plug_in(error) is not None
        if not by_plug_in and (archive_failing(error) or isinstance(error, DataError)):
            raise
        return failure(place(source), error, real_file(source.path))


def _text_to_keep(report: Report) -> tuple[str, bool]:
    """The record's text to keep, and whether it is kept as written: a record of lusoria's notation,
    one not read as written or refused (`Report.rewritable`), or one whose text in lusoria's notation would not be checked as it was
    (`_replays_alike`), as written, with the `%` lines above it that no record holds (its file's
    first record's, as `fmt` keeps them) and the lines its format reads it with (`heading`); else in lusoria's notation with its source tags
    (formats.lgn; its original format is also a SourceFormat row of `tags`, its file `path`),
    written once."""
    written = as_lines(report.source.before) + report.source.heading + report.source.text
    if report.source.format == "lgn" or not report.rewritable:
        return written, True
    lgn = lgn_text(report)
    return (lgn, False) if _replays_alike(report, lgn) else (written, True)


def _replays_alike(report: Report, lgn: str) -> bool:
    """Whether a record of another format, written in lusoria's notation (`lgn`), is checked again to
    its verdict and its diagnostics (severity, rule, message and ply: their places are the text's). A
    site's capture list the notation has no place for is lost so (G5: valid again), a ply where a
    berserk continuation was left out is counted otherwise. A record without diagnostics is not
    checked again: its text is the canonical text of a valid replay."""
    if not report.diagnostics:
        return True
    again = check(lgn, keep=False)
    return again.valid == report.valid and _said(again) == _said(report)


def _said(report: Report) -> list[tuple]:
    return [(d.severity, d.rule, d.message, d.ply) for d in report.diagnostics]


def real_file(path: str) -> str | None:
    """A record's `file`: the real path of the file of `path` (as lusoria shows it: `shown_path`;
    None for a path of no file), which `import --replace` finds the records of a file by, from any directory."""
    return stored_file(fs_path(path)) if names_a_file(path) else None


def stored_file(path: str) -> str:
    """The `file` of the records of the file the file system names `path` (os.fsdecode): its real
    path, as lusoria shows it (a byte that is not UTF-8 as \\xNN: the archive holds text)."""
    return shown_path(os.path.realpath(path))


def rows(report: Report) -> Rows:
    """The rows of one checked record, for each table."""
    found, (text, verbatim) = identity(report), _text_to_keep(report)
    record = _record_columns(report, found, text, verbatim)
    return Rows(
        found.key,
        report.valid,
        report.record is not None,
        {
            "records": [[record[column]] for column in STORED_COLUMNS[1:]],
            "other_tags": _other_tags(report),
            **replayed_rows(report),
            "diagnostics": columns(
                [
                    [n, d.severity, d.rule, d.message, d.ply, d.text, d.line, d.column]
                    for n, d in enumerate(report.diagnostics)
                ]
            ),
        },
        place(report.source),
        () if verbatim else place_tags(report),
        isinstance(report.source.parsed, Undecodable),
    )


def _record_columns(report: Report, found: Identity, text: str, verbatim: bool) -> dict[str, object]:
    """The columns of a record's row of `records`, by name (`found`: its identity; `text`, `verbatim`:
    its text to keep and whether it is kept as written, `written_in` its format when another than
    lusoria's notation: `_text_to_keep`)."""
    tags = _decoded_tags(report)
    date_from, date_to = report.dates if report.record else _dates(tags)
    return {
        "hash": found.key,
        "game": report.game,
        "variant": report.variant,
        **{column: known(tag, tags) for tag, column in COLUMN_TAGS.items()},
        "result": report.result,
        "date_from": date_from,
        "date_to": date_to,
        "plies": report.plies,
        "valid": report.valid,
        **_diagnostic_columns(report),
        "path": report.source.path,
        "line": report.source.line,
        "sources": " ".join(tags[t] for t in SOURCES_COLUMN_TAGS if t in tags) or None,
        "comments": comments_column(report),
        "setting": found.setting,
        "ending": ending(report),
        "rule_tags": rule_tags(report),
        "file": real_file(report.source.path),
        "board": board(report),
        "written_in": report.source.format if verbatim and report.source.format != "lgn" else None,
        "encoding": None,  # the importer's, which knows what each file was read with (importer.read_with)
        "packed_text": text.rstrip("\n") + "\n",  # the writing process compresses it
    }


def comments_column(report: Report) -> str | None:
    """A record's comments, in the order written, in one text (`records.comments`, searched by `--text`)."""
    return (" ".join(_comments(report.record)) or None) if report.record else None


def _decoded_tags(report: Report) -> dict[str, str]:
    """A record's tags; of a record not read for a byte its encoding does not decode, those that hold
    no such byte (U+FFFD where it stood): a name no one wrote is no player of the archive."""
    if not isinstance(report.source.parsed, Undecodable):
        return report.tags
    return {name: value for name, value in report.tags.items() if "\ufffd" not in value}


def known(tag: str, tags: dict[str, str]) -> str | None:
    """A roster tag's value in Unicode's composed form (NFC: a name written with combining marks, as
    some Mac files write it, is stored as one typed, and listed and aligned so), None when the record has
    none or writes it unknown (`?`, `????.??.??`): both are stored as NULL, whatever format the record was read from."""
    value = tags.get(tag)
    return None if value is None or unknown(tag, value) else unicodedata.normalize("NFC", value)


def _diagnostic_columns(report: Report) -> dict[str, object]:
    """A record's counts of errors and of warnings (the other diagnostics), and its first error's
    rule and ply (None without one)."""
    errors = [d for d in report.diagnostics if d.severity == ERROR]
    first = errors[0] if errors else None
    return {
        "errors": len(errors),
        "warnings": len(report.diagnostics) - len(errors),
        "first_rule": first and first.rule,
        "first_ply": first and first.ply,
    }


def _other_tags(report: Report) -> list[list[str]]:
    """The rows of `other_tags`, as columns (names, values): the tags the record's columns do not
    keep, and its format (SourceFormat) when it was read from another than lgn."""
    tags = _decoded_tags(report)
    names = [name for name in tags if name not in COLUMN_TAGS]
    values = [tags[name] for name in names]
    if report.source.format != "lgn":
        names.append(SOURCE_FORMAT)
        values.append(report.source.format)
    return [names, values]


def board(report: Report) -> str | None:
    """The size of the board a record's rules start on (`11x11`); None without rules, or on a
    table of points (Laquet's)."""
    return report.rules.board_size() or None if report.rules else None


def rule_tags(report: Report) -> str | None:
    """The tags besides Variant that choose a record's rules (`rule_tags_of`)."""
    return rule_tags_of(report.rules)


def record_rows(source: RecordText) -> Rows | Failure:
    """The rows of one record, checked here as `import` checks it (`stored.checked`: what a worker of
    `checked_rows` does), or its Failure when lusoria fails on it."""
    return _or_failure(lambda: rows(checked(source)), source)


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
    jobs = bounded(jobs, "jobs", 1, MAX_JOBS)
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
    """The rows of the tables made from replaying a record (migrations.REPLAYED): those of its main
    line (`line_rows`); its variations; its summaries (archive/positions.py)."""
    line = line_rows(report)
    if not line or report.rules is None:
        return {}
    return {
        **line,
        "variation_plies": variation_rows(report),
        **summary_rows(report.rules, report.positions),
    }


def line_rows(report: Report) -> dict[str, Columns]:
    """What the archive keeps of a record's main line as an index: its row of `positions` (each
    position and the ply played from it) and what `next_plies` needs (archive/next_plies.py); what
    removing the record takes out again (archive/removal.py)."""
    rules, positions = report.rules, report.positions
    if rules is None or not positions:
        return {}
    moves = report.main_line
    keys = keys_of(rules, positions)
    return {"positions": position_rows(keys, moves), "next_plies": next_ply_rows(rules, positions, keys)}


def _dates(tags: dict[str, str]) -> tuple[str | None, str | None]:
    """The first and last day of the Date tag of a record that does not parse (None when unknown)."""
    try:
        return date_range(tags.get("Date", "????.??.??"))
    except ValueError:
        return None, None
