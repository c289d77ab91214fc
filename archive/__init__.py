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

if TYPE_CHECKING:  # `name as name`: re-exported to a type checker that re-exports nothing implicitly (mypy --strict)
    from lusoria.archive.commands import DEFAULT as DEFAULT
    from lusoria.archive.commands import Archive as Archive
    from lusoria.archive.commands import ChosenWarning as ChosenWarning
    from lusoria.archive.commands import ImportStopped as ImportStopped
    from lusoria.archive.commands import MissingArchive as MissingArchive
    from lusoria.archive.commands import NoGameToStart as NoGameToStart
    from lusoria.archive.commands import RemovalStopped as RemovalStopped
    from lusoria.archive.commands import UnnamedArchive as UnnamedArchive
    from lusoria.archive.commands import default_path as default_path
    from lusoria.archive.datasette import MissingDatasette as MissingDatasette
    from lusoria.archive.duplicates import Duplicate as Duplicate
    from lusoria.archive.export import NotADirectory as NotADirectory
    from lusoria.archive.export import NotAnExport as NotAnExport
    from lusoria.archive.importer import ImportSummary as ImportSummary
    from lusoria.archive.players import NotAnAlias as NotAnAlias
    from lusoria.archive.players import same_name as same_name
    from lusoria.archive.query import COLUMNS as COLUMNS
    from lusoria.archive.query import LISTED as LISTED
    from lusoria.archive.query import FilterError as FilterError
    from lusoria.archive.query import Filters as Filters
    from lusoria.archive.query import NothingSelected as NothingSelected
    from lusoria.archive.reading import DEFAULT_TIMEOUT as DEFAULT_TIMEOUT
    from lusoria.archive.reading import DamagedArchive as DamagedArchive
    from lusoria.archive.reading import InvalidSQL as InvalidSQL
    from lusoria.archive.reading import ReadOnlyError as ReadOnlyError
    from lusoria.archive.records_as_rows import Failure as Failure
    from lusoria.archive.records_as_rows import Rows as Rows
    from lusoria.archive.records_as_rows import SkippedDuplicate as SkippedDuplicate
    from lusoria.archive.records_as_rows import checked_rows as checked_rows
    from lusoria.archive.removal import Read as Read
    from lusoria.archive.schema import NotAnArchive as NotAnArchive
    from lusoria.archive.search import UnsearchableRecord as UnsearchableRecord
    from lusoria.archive.search import unsought as unsought
    from lusoria.archive.stored import left_out_as_lgn as left_out_as_lgn
    from lusoria.archive.stored import lgn_text as lgn_text
    from lusoria.archive.tree import SORTS as SORTS
    from lusoria.archive.tree import Node as Node

HOMES = {  # module -> its names, as the imports above name them (tests/system/test_imports.py checks)
    "commands": (
        "DEFAULT",
        "Archive",
        "ChosenWarning",
        "ImportStopped",
        "MissingArchive",
        "NoGameToStart",
        "RemovalStopped",
        "UnnamedArchive",
        "default_path",
    ),
    "datasette": ("MissingDatasette",),
    "duplicates": ("Duplicate",),
    "export": ("NotADirectory", "NotAnExport"),
    "importer": ("ImportSummary",),
    "players": ("NotAnAlias", "same_name"),
    "query": ("COLUMNS", "LISTED", "FilterError", "Filters", "NothingSelected"),
    "reading": ("DEFAULT_TIMEOUT", "DamagedArchive", "InvalidSQL", "ReadOnlyError"),
    "records_as_rows": ("Failure", "Rows", "SkippedDuplicate", "checked_rows"),
    "removal": ("Read",),
    "schema": ("NotAnArchive",),
    "search": ("UnsearchableRecord", "unsought"),
    "stored": ("left_out_as_lgn", "lgn_text"),
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
