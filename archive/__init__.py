"""The game archive: a SQLite database (through sqlite-utils) of checked records.

    archive = Archive("lusoria.db")
    archive.import_paths(["samples/"])
    archive.query(Filters(player="Karin Nilsson"))
"""

from __future__ import annotations

import os
import sqlite3
from typing import Callable, Iterable

from lusoria.archive import players
from lusoria.archive.export import export
from lusoria.archive.importer import ImportSummary, import_records
from lusoria.archive.query import Filters, ReadOnlyError, build, position_keys, read_only_sql
from lusoria.archive.schema import NotAnArchive, open_archive
from lusoria.archive.stats import stats
from lusoria.archive.tree import Node, tree

DEFAULT = "lusoria.db"

__all__ = ["Archive", "Filters", "ImportSummary", "Node", "NotAnArchive", "ReadOnlyError", "default_path"]


def default_path() -> str:
    """`$LUSORIA_DB`, or `lusoria.db` in the current directory."""
    return os.environ.get("LUSORIA_DB") or DEFAULT


def _selected(filters: Filters | None) -> tuple[str, list] | None:
    """SQL that selects the ids of the records `filters` match (None: every record)."""
    if filters is None or filters == Filters():
        return None
    sql, params = build(filters)
    return f"SELECT id FROM ({sql})", params


class Archive:
    """One archive file; each method is a `lusoria` command."""

    def __init__(self, path: str | None = None):
        self.path = path or default_path()

    def import_paths(self, paths: Iterable[str], encoding: str = "utf-8", batch_size: int = 1000,
                     progress: Callable[[int], None] | None = None) -> ImportSummary:
        """`lusoria import`: check and store every record of `paths`."""
        return import_records(open_archive(self.path), paths, encoding, batch_size, progress)

    def _existing(self):
        if not os.path.exists(self.path):
            raise NotAnArchive(f"{self.path} does not exist; create it with lusoria import")
        return open_archive(self.path, create_missing=False)

    def query(self, filters: Filters) -> list[dict]:
        """`lusoria query`: the records every filter matches, oldest first."""
        self._existing()
        sql, params = build(filters)
        return read_only_sql(self.path, sql, params)

    def sql(self, sql: str) -> list[dict]:
        """`lusoria sql`: any read-only SQL."""
        self._existing()
        return read_only_sql(self.path, sql)

    def stats(self) -> dict:
        """`lusoria stats`: counts and figures."""
        return stats(self._existing())

    def tree(self, position: str | None = None, record: int | None = None, ply: int = 0,
             filters: Filters | None = None, depth: int = 1) -> list[Node]:
        """`lusoria tree`: the plies played from a position string, or from the position after
        ply `ply` of record `record`, `depth` plies deep, in the records `filters` match.
        ValueError for a position no game reads, or a record or ply the archive lacks."""
        self._existing()
        only = _selected(filters)
        conn = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True)
        try:
            if position is not None:
                keys = position_keys(position)
            else:
                found = conn.execute("SELECT position FROM plies WHERE record_id = ? AND ply = ?",
                                     [record, ply]).fetchone()
                if found is None or found[0] is None:
                    raise ValueError(f"the archive has no position after ply {ply} of record {record}")
                keys = [found[0]]
            return tree(conn, keys, depth, only)
        finally:
            conn.close()

    def merge_players(self, names: list[str], canonical: str) -> str:
        """`lusoria players merge`: `names` become other names of the player `canonical`."""
        return players.merge(self._existing(), names, canonical)

    def players(self, filters: Filters | None = None) -> list[dict]:
        """`lusoria players list`: the score table of the players (under their canonical names)
        in the records `filters` match."""
        self._existing()
        return read_only_sql(self.path, *players.score_table(_selected(filters)))

    def aliases(self) -> list[dict]:
        """Every other name of a player, and the canonical name."""
        return players.aliases(self._existing())

    def export(self, directory: str, format: str = "parquet") -> dict[str, int]:
        """`lusoria export`: the tables as Parquet or CSV files in `directory`; rows per table."""
        self._existing()
        return export(self.path, directory, format)
