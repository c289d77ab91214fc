"""Export the archive's tables as files that DuckDB, pandas, polars and Spark read directly
(`lusoria export`): CSV (no extra needed) or Parquet (`pip install 'lusoria[parquet]'`)."""

from __future__ import annotations

import csv
import sqlite3
from typing import Iterator

from lusoria.errors import LusoriaError
from lusoria.files import AtomicFile, output_in

TABLES = ("records", "tags", "plies", "variation_plies", "diagnostics")
FORMATS = ("parquet", "csv")
BATCH = 50_000


def _batches(conn: sqlite3.Connection, table: str) -> tuple[list[tuple[str, str]], Iterator[list[tuple]]]:
    columns = [(row[1], row[2].upper()) for row in conn.execute(f"PRAGMA table_info([{table}])")]
    cursor = conn.execute(f"SELECT * FROM [{table}] ORDER BY 1, 2")  # by record (tags and plies have no rowid)
    return columns, iter(lambda: cursor.fetchmany(BATCH), [])


def _write_csv(path: str, columns: list[tuple[str, str]], batches: Iterator[list[tuple]]) -> int:
    count = 0
    with AtomicFile(path, newline="", follow=False) as out:
        writer = csv.writer(out.file)
        writer.writerow(name for name, _ in columns)
        for batch in batches:
            writer.writerows(batch)
            count += len(batch)
        out.commit()
    return count


class MissingPyarrow(LusoriaError, ValueError):
    """Parquet asked for, and pyarrow (lusoria's `parquet` extra) not installed."""

    parameter = "pyarrow"


def _write_parquet(path: str, columns: list[tuple[str, str]], batches: Iterator[list[tuple]]) -> int:
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        raise MissingPyarrow("Parquet export needs pyarrow") from None
    types = {"INTEGER": pa.int64(), "REAL": pa.float64(), "FLOAT": pa.float64()}
    schema = pa.schema([(name, types.get(kind, pa.string())) for name, kind in columns])
    count = 0
    with AtomicFile(path, binary=True, follow=False) as out:
        with pq.ParquetWriter(out.file, schema) as writer:
            for batch in batches:
                writer.write_table(pa.Table.from_pylist([dict(zip(schema.names, row)) for row in batch], schema))
                count += len(batch)
            if not count:
                writer.write_table(schema.empty_table())
        out.commit()
    return count


def export(path: str, directory: str, format: str = "parquet") -> dict[str, int]:
    """Write each table of the archive at `path` to DIRECTORY/TABLE.parquet (or .csv), each
    whole or not at all (lusoria.files); the rows written per table. ValueError for an unknown
    format, or Parquet without pyarrow; OSError when `directory` cannot be made or written to
    (NotADirectoryError: it is a file), or a file there is a symbolic link."""
    if format not in FORMATS:
        raise ValueError(f"the export format is parquet or csv, not '{format}'")
    write = _write_parquet if format == "parquet" else _write_csv
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return {table: write(output_in(directory, f"{table}.{format}"), *_batches(conn, table)) for table in TABLES}
    finally:
        conn.close()
