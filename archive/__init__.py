"""The game archive: a SQLite database (through sqlite-utils) of checked records.

    archive = Archive("lusoria.db")
    archive.import_paths(["samples/"])
    archive.query(Filters(player="Karin Nilsson"))
"""

from __future__ import annotations

import os
from typing import Callable, Iterable

from lusoria.archive.duplicates import Duplicate, Entry, find_duplicates
from lusoria.archive.identity import Identity, identity
from lusoria.archive.importer import ImportSummary, import_records
from lusoria.archive.query import Filters, ReadOnlyError, build, read_only_sql
from lusoria.archive.schema import NotAnArchive, open_archive
from lusoria.archive.stats import stats
from lusoria.notation.reader import RecordText
from lusoria.notation.sources import Source
from lusoria.validator.replay import check

DEFAULT = "lusoria.db"

__all__ = ["Archive", "Duplicate", "Filters", "ImportSummary", "NotAnArchive", "ReadOnlyError", "default_path"]


def default_path() -> str:
    """`$LUSORIA_DB`, or `lusoria.db` in the current directory."""
    return os.environ.get("LUSORIA_DB") or DEFAULT


class Archive:
    """One archive file; each method is a `lusoria` command."""

    def __init__(self, path: str | None = None):
        self.path = path or default_path()

    def import_paths(self, paths: Iterable[Source], encoding: str = "utf-8", batch_size: int = 1000,
                     progress: Callable[[int], None] | None = None) -> ImportSummary:
        """`lusoria import`: check and store every record of `paths` (files, directories, `-`, streams
        or text, as `read_sources` reads them); sources that cannot be read are listed in the
        summary's `unreadable`, which `str()` shows."""
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

    def duplicates(self) -> list[Duplicate]:
        """`lusoria duplicates --db`: records that are the same game, or a prefix of another."""
        db = self._existing()
        entries = [Entry(f"record {id_} ({path}:{line})", Identity(key, setting, ()), id_)
                   for id_, key, setting, path, line in db.execute(
                       "SELECT id, hash, setting, path, line FROM records ORDER BY id")]

        def load(group: list[Entry]) -> list[Entry]:  # the plies, from the texts (few records)
            texts = (db.execute("SELECT text FROM records WHERE id = ?", [e.ref]).fetchone()[0] for e in group)
            return [Entry(entry.where, identity(check(RecordText(text))), entry.ref)
                    for entry, text in zip(group, texts)]

        return list(find_duplicates(entries, load))

    def datasette_metadata(self) -> dict:
        """The Datasette metadata (labels, facets, descriptions) for this archive."""
        from lusoria.archive.datasette import metadata  # not at the top: python -m runs that module

        return metadata(self.path)
