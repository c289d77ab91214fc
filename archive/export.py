"""Export the archive as files that DuckDB, pandas, polars and Spark read directly (`lusoria
export`): CSV (no extra needed) or Parquet (`pip install 'lusoria[parquet]'`). Everything the
archive knows is in them: the tables of records, tags, diagnostics and player aliases as they
are, and a row per position each record's main line and variations reached, written as a
position string, with the ply played from it and the position it led to, the board spelled out
(what a pattern matches) and the material, each record replayed (by `jobs` worker processes),
so that every `query` and `tree` answer can be found again from the files alone
(docs/archive.md, "Export"). Or JSON lines: one record a line, with its tags, diagnostics and
main line's plies, each record replayed."""

from __future__ import annotations

import csv
import json
import os
import sqlite3
from collections import deque
from collections.abc import Iterable, Iterator
from contextlib import ExitStack
from itertools import islice, repeat
from typing import Any

from lusoria.archive import functions
from lusoria.archive.positions import boards_and_materials
from lusoria.archive.query import COLUMNS, NothingSelected
from lusoria.archive.reading import connect, damaged
from lusoria.archive.rule_sets import named_variant
from lusoria.archive.stored import STORED_TEXT, Kept, kept_text, replayed
from lusoria.archive.tables import DIAGNOSTIC_COLUMNS
from lusoria.archive.texts import TEXT_OF
from lusoria.archive.variations import variation_rows
from lusoria.bounds import MAX_JOBS, bounded
from lusoria.errors import LusoriaError, Refused
from lusoria.files import AtomicFile, output_in
from lusoria.validator.base import MATERIAL
from lusoria.validator.games import GAMES
from lusoria.words import quoted
from lusoria.workers import in_workers

TABLES = ("records", "tags", "diagnostics", "player_aliases")  # as they are, the records with NAMED_VARIANT
NAMED_VARIANT = "named_variant"  # a record's variant as `stats --by variant` and the explorer name it
_PLY_FILES = {  # made from each record replayed: their columns and types
    "plies": [
        ("record_id", "INTEGER"),
        ("ply", "INTEGER"),
        ("position", "TEXT"),
        ("board", "TEXT"),
        ("move", "TEXT"),
        ("next", "TEXT"),
        *((name, "INTEGER") for name in MATERIAL),
    ],
    "variation_plies": [
        ("record_id", "INTEGER"),
        ("line", "INTEGER"),
        ("ply", "INTEGER"),
        ("position", "TEXT"),
        ("next", "TEXT"),
        ("move", "TEXT"),
    ],
}
_FILE_FORMATS = ("parquet", "csv", "jsonl")
BATCH = 50_000
_FileColumns = list[tuple[str, str]]  # a file's columns: name, SQLite type


READ_AS = {"packed_text": ("text", "TEXT", TEXT_OF)}  # a column exported in another form: its name, type, SQL
# The rows of each table that go with the records exported (`chosen`, their ids): every other name
# of their players (of a player a record names by any of their names, in any case of their ASCII
# letters: the columns' collation), those no record exported writes too: what joins their names
NAMES = "SELECT white FROM records WHERE id IN chosen UNION SELECT black FROM records WHERE id IN chosen"
_PLAYER_NAMES = f"SELECT name FROM player_aliases WHERE alias IN ({NAMES}) UNION {NAMES}"
WITH_RECORDS = {
    "records": "id IN chosen",
    "tags": "record_id IN chosen",
    "diagnostics": "record_id IN chosen",
    "player_aliases": f"name IN ({_PLAYER_NAMES})",
    "record_texts": "id IN chosen",
}
Selected = tuple[str, list] | None  # SQL that selects the ids of the records exported, its parameters (None: all)
_STORED = f"id, {STORED_TEXT}"


def _rows(conn: sqlite3.Connection, select: str, table: str, selected: Selected) -> Iterator[tuple]:
    """`select` (columns) FROM `table`: its rows that go with the records `selected` selects."""
    if selected is None:
        return conn.execute(f"SELECT {select} FROM [{table}] ORDER BY 1, 2")
    sql, params = selected
    return conn.execute(
        f"WITH chosen AS ({sql}) SELECT {select} FROM [{table}] WHERE {WITH_RECORDS[table]} ORDER BY 1, 2", params
    )


def _table(conn: sqlite3.Connection, table: str, selected: Selected) -> tuple[_FileColumns, Iterator[tuple]]:
    """A table's columns (generated ones included: `label`; the records' text read from its
    compressed form) and its rows, by record (`_rows`); the records' with their `named_variant`."""
    found = [
        READ_AS.get(row[1], (row[1], row[2].upper(), f"[{row[1]}]"))
        for row in conn.execute(f"PRAGMA table_xinfo([{table}])")
        if row[6] != 1
    ]  # (hidden: a virtual table's)
    names = ", ".join(sql for _, _, sql in found)  # (ordered by their first two columns: tags have no rowid)
    columns, rows = [(name, kind) for name, kind, _ in found], _rows(conn, names, table, selected)
    if table == "records":
        return [*columns, (NAMED_VARIANT, "TEXT")], _with_named_variants(rows, [name for name, _ in columns])
    return columns, rows


def _with_named_variants(rows: Iterator[tuple], columns: list[str]) -> Iterator[tuple]:
    """Rows of `records` (of `columns`), each with its variant as `stats --by variant` names it
    (`named_variant`: Tablut's aage with Rules first=white is saami-tablut-w)."""
    game, variant, rule_tags = (columns.index(name) for name in ("game", "variant", "rule_tags"))
    for row in rows:
        yield (*row, named_variant(row[game], row[variant], row[rule_tags]))


def _ply_rows(kept: Kept) -> tuple[list[tuple], list[tuple]]:
    """The rows of `plies` and `variation_plies` of one stored record (`kept_text`)."""
    report = replayed(kept)
    if report is None or report.rules is None or not report.positions:
        return [], []
    rules, positions, source = report.rules, report.positions, report.source
    boards, materials = boards_and_materials(rules, positions)
    moves = [*report.main_line, None]
    strings = [rules.format_position(position) for position in positions]
    plies = [
        (source.index, ply, string, board.decode(), move, following, *material)
        for ply, (string, board, move, following, material) in enumerate(
            zip(strings, boards, moves, strings[1:] + [None], materials)
        )
    ]
    variations = variation_rows(report, lambda rules, position: rules.format_position(position))
    return plies, list(zip(repeat(source.index), *variations)) if variations else []


def _main_lines(conn: sqlite3.Connection, jobs: int, variations: list[tuple], selected: Selected) -> Iterator[tuple]:
    """The rows of `plies` of every record `selected` selects, replayed by `jobs` processes; those
    of `variation_plies` are added to `variations` meanwhile (few records have any)."""
    texts = (
        kept_text(text, written_in, read_with, record)
        for record, text, written_in, read_with in _rows(conn, _STORED, "records", selected)
    )
    for plies, more in in_workers(GAMES.naming(_ply_rows), texts, jobs):  # records read from the archive: no Problem
        variations += more
        yield from plies


# A record's line of JSON: its columns as `query --format json` writes them and how its game ended, its
# NAMED_VARIANT (from its rule tags), its tags, its diagnostics (in order) and its main line's plies (replayed: `moves`)
_LINE_COLUMNS = (*COLUMNS, "ending", "board")
_DIAGNOSTIC_FIELDS = ", ".join(
    f"'{name}', [{name}]" for name in DIAGNOSTIC_COLUMNS if name not in ("record_id", "number")
)
_LINE_SELECT = ", ".join(
    [
        *(f"[{column}]" for column in _LINE_COLUMNS),
        "rule_tags",
        "(SELECT json_group_object(name, value) FROM tags WHERE record_id = records.id)",
        f"(SELECT json_group_array(json_object({_DIAGNOSTIC_FIELDS})) FROM "
        "(SELECT * FROM diagnostics WHERE record_id = records.id ORDER BY number))",
        STORED_TEXT,
    ]
)


def _main_line(kept: Kept) -> list[str]:
    """A stored record's main line (`kept_text`) as far as it was replayed (up to its first error), in
    canonical form; none for one that cannot be read without its file (an unparsable CSV row)."""
    report = replayed(kept)
    return report.main_line if report else []


def _record_lines(conn: sqlite3.Connection, jobs: int, selected: Selected) -> Iterator[str]:
    """The line of JSON of each record `selected` selects, in the order of their ids, each replayed
    by `jobs` processes (its columns wait in a queue meanwhile)."""
    waiting: deque[tuple] = deque()

    def texts() -> Iterator[Kept]:
        for *columns, text, written_in, read_with in _rows(conn, _LINE_SELECT, "records", selected):
            waiting.append(tuple(columns))
            yield kept_text(text, written_in, read_with, columns[0])

    for moves in in_workers(GAMES.naming(_main_line), texts(), jobs):  # records read from the archive: no Problem
        *columns, rule_tags, tags, diagnostics = waiting.popleft()
        line = dict(zip(_LINE_COLUMNS, columns))
        line[NAMED_VARIANT] = named_variant(line["game"], line["variant"], rule_tags)
        line.update(tags=json.loads(tags), diagnostics=json.loads(diagnostics))
        yield json.dumps({**line, "moves": moves}, ensure_ascii=False) + "\n"


def _write_jsonl(out: AtomicFile, lines: Iterable[str]) -> int:
    count = 0
    for line in lines:
        out.write(line)
        count += 1
    return count


def _write_csv(out: AtomicFile, columns: _FileColumns, rows: Iterable[tuple]) -> int:
    count = 0
    writer = csv.writer(out.file)
    writer.writerow(name for name, _ in columns)
    for batch in iter(lambda: list(islice(rows, BATCH)), []):
        writer.writerows(batch)
        count += len(batch)
    return count


class MissingPyarrow(LusoriaError, ValueError):
    """Parquet asked for, and pyarrow (lusoria's `parquet` extra) not installed."""

    parameter = "pyarrow"


def _pyarrow() -> tuple[Any, Any]:
    """pyarrow and pyarrow.parquet; MissingPyarrow without them."""
    try:
        import pyarrow
        import pyarrow.parquet
    except ImportError:
        raise MissingPyarrow("Parquet export needs pyarrow") from None
    return pyarrow, pyarrow.parquet


def _write_parquet(out: AtomicFile, columns: _FileColumns, rows: Iterable[tuple]) -> int:
    pa, pq = _pyarrow()
    types = {"INTEGER": pa.int64(), "REAL": pa.float64(), "FLOAT": pa.float64()}
    schema = pa.schema([(name, types.get(kind, pa.string())) for name, kind in columns])
    count = 0
    with pq.ParquetWriter(out.file, schema) as writer:
        for batch in iter(lambda: list(islice(rows, BATCH)), []):
            writer.write_table(
                pa.Table.from_arrays(
                    [pa.array(column, type) for column, type in zip(zip(*batch), schema.types)], schema=schema
                )
            )
            count += len(batch)
        if not count:
            writer.write_table(schema.empty_table())
    return count


class NotADirectory(LusoriaError, NotADirectoryError):
    """An export's directory that is a file: said whole, and as an OSError's `strerror` (for what
    a command says of a file it could not write)."""

    def __init__(self, directory: str):
        super().__init__(f"{directory} is a file, not a directory: export writes its files into a directory")
        self.strerror = "not a directory"


class NotAnExport(LusoriaError, FileExistsError):
    """A file an export would write over that no export wrote (its first column is not that of the
    table the file holds): kept unless the export is told to `overwrite`."""

    def __init__(self, path: str):
        super().__init__(
            f"{path} is not a file lusoria export wrote: it is not written over unless told to overwrite it (--overwrite)"
        )
        self.path = path


def _first_column(conn: sqlite3.Connection, table: str) -> str:
    """The first column of `table`'s file, as an export writes it."""
    if table in _PLY_FILES:
        return _PLY_FILES[table][0][0]
    return conn.execute(f"PRAGMA table_xinfo([{table}])").fetchone()[1]


def _exported(path: str, format: str, first: str) -> bool:
    """Whether the file at `path` is a table's of an earlier export, which an export writes over: its
    first column the table's (`first`: the others change as the archive's schema grows), or, of JSON
    lines, a record's first key; empty, a file of none."""
    try:
        if format == "parquet":
            return _pyarrow()[1].read_schema(path).names[:1] == [first]
        with open(path, encoding="utf-8", newline="") as file:
            line = file.readline()
        if format == "csv":
            return next(csv.reader([line]), [])[:1] == [first]
        found = json.loads(line) if line else {first: None}
        return isinstance(found, dict) and list(found)[:1] == [first]
    except (OSError, ValueError, TypeError, csv.Error):  # (a file that cannot be read as one is not one)
        return False


def export(
    path: str,
    directory: str,
    format: str = "parquet",
    jobs: int = 1,
    selected: Selected = None,
    overwrite: bool = False,
) -> dict[str, int]:
    """Write the records `selected` selects (SQL that selects their ids, with its parameters; None:
    all) of the archive at `path` to DIRECTORY/TABLE.parquet (or .csv), with their rows of every
    table (their tags, diagnostics, positions; every other name of their players), or
    DIRECTORY/records.jsonl, a record a line with its tags, diagnostics and plies; each file
    whole or not at all (lusoria.files), and all of them or none (each is written under a
    temporary name, and all take their names at the end: a failure or Ctrl-C leaves an earlier
    export whole), each record replayed by `jobs` worker processes; the rows written per file.
    ValueError for an unknown format, Parquet without pyarrow, or `jobs` under 1 (before the
    directory is made);
    NotADirectory when `directory` is a file; OSError when it cannot be made or written to, or a
    file there is a symbolic link. NothingSelected when `selected` selects no record, NotAnExport for a file
    of the export's names in `directory` that no export wrote, unless `overwrite` (before any file is written)."""
    if format not in _FILE_FORMATS:
        raise Refused(
            f"the export format is {', '.join(_FILE_FORMATS[:-1])} or {_FILE_FORMATS[-1]}, not {quoted(format)}"
        )
    jobs = bounded(jobs, "jobs", 1, MAX_JOBS)
    if os.path.exists(directory) and not os.path.isdir(directory):
        raise NotADirectory(directory)
    if format == "parquet":
        _pyarrow()
    write = _write_parquet if format == "parquet" else _write_csv
    conn = connect(path)
    try:
        if selected is not None and not conn.execute(f"SELECT EXISTS ({selected[0]})", selected[1]).fetchone()[0]:
            raise NothingSelected(f"nothing written in {directory}")
        for table in ("records",) if format == "jsonl" else (*TABLES, *_PLY_FILES):
            target = os.path.join(directory, f"{table}.{format}")
            if not overwrite and os.path.isfile(target) and not _exported(target, format, _first_column(conn, table)):
                raise NotAnExport(target)
        with ExitStack() as files:
            outputs: list[AtomicFile] = []

            def output(table: str) -> AtomicFile:
                """The file of `table`, which takes its place in `directory` with the others."""
                out = AtomicFile(
                    output_in(directory, f"{table}.{format}"), newline="", binary=format == "parquet", follow=False
                )
                outputs.append(files.enter_context(out))
                return out

            if format == "jsonl":
                written = {"records": _write_jsonl(output("records"), _record_lines(conn, jobs, selected))}
            else:
                written = {table: write(output(table), *_table(conn, table, selected)) for table in TABLES}
                variations: list[tuple] = []
                written["plies"] = write(
                    output("plies"), _PLY_FILES["plies"], _main_lines(conn, jobs, variations, selected)
                )
                written["variation_plies"] = write(
                    output("variation_plies"), _PLY_FILES["variation_plies"], iter(variations)
                )
            for out in outputs:
                out.commit()
        return written
    except sqlite3.DatabaseError as error:  # a damaged archive: its record named
        raise damaged(conn, path, functions.failure(error)) or error from None
    finally:
        conn.close()
