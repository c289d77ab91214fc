"""The game archive: a SQLite database (through sqlite-utils) of checked records.

    archive = Archive("lusoria.db")
    archive.import_paths(["samples/"])
    archive.query(Filters(player="Karin Nilsson"))

Each name is imported from its module when first used: `lusoria query --help` reads the
filters (archive/query.py) without loading SQLite, the rules or the importer.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from lusoria.archive.commands import DEFAULT, Archive, ImportStopped, MissingArchive, default_path
    from lusoria.archive.datasette import MissingDatasette
    from lusoria.archive.duplicates import Duplicate
    from lusoria.archive.export import NotADirectory
    from lusoria.archive.importer import ImportSummary
    from lusoria.archive.query import COLUMNS, FilterError, Filters
    from lusoria.archive.reading import DEFAULT_TIMEOUT, DamagedArchive, ReadOnlyError
    from lusoria.archive.records_as_rows import Failure, Rows, checked_rows
    from lusoria.archive.removal import Read
    from lusoria.archive.schema import NotAnArchive
    from lusoria.archive.search import UnsearchableRecord
    from lusoria.archive.tree import SORTS, Node

HOMES = {  # module -> its names, as the imports above name them (tests/system/test_imports.py checks)
    "commands": ("DEFAULT", "Archive", "ImportStopped", "MissingArchive", "default_path"),
    "datasette": ("MissingDatasette",),
    "duplicates": ("Duplicate",),
    "export": ("NotADirectory",),
    "importer": ("ImportSummary",),
    "query": ("COLUMNS", "FilterError", "Filters"),
    "reading": ("DEFAULT_TIMEOUT", "DamagedArchive", "ReadOnlyError"),
    "records_as_rows": ("Failure", "Rows", "checked_rows"),
    "removal": ("Read",),
    "schema": ("NotAnArchive",),
    "search": ("UnsearchableRecord",),
    "tree": ("SORTS", "Node"),
}
__all__ = sorted(name for names in HOMES.values() for name in names)


def __getattr__(name: str) -> Any:
    """A name of the archive, from its module (imported now, once)."""
    home = next((module for module, names in HOMES.items() if name in names), None)
    if home is None:
        raise AttributeError(f"module 'lusoria.archive' has no attribute '{name}'")
    value = globals()[name] = getattr(import_module(f"lusoria.archive.{home}"), name)
    return value
