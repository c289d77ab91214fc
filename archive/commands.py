"""The archive's façade, `Archive`: one file, whose methods the `lusoria` commands are."""

from __future__ import annotations

import json
import os
import re
import shlex
import sqlite3
import sys
import warnings
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping
from contextlib import nullcontext
from dataclasses import dataclass, replace
from functools import cache, partial
from itertools import chain, islice
from typing import Any

import sqlite_utils

from lusoria.archive import functions, players
from lusoria.archive.duplicates import Duplicate, Entry, Place, find_duplicates
from lusoria.archive.export import export
from lusoria.archive.identity import Identity, identity
from lusoria.archive.importer import (
    SELECTED_PLACES,
    ImportSummary,
    encodings_held,
    encodings_said,
    import_rows,
    misread_refused,
    read_with,
    remove_selected,
)
from lusoria.archive.players import player_condition, respelled
from lusoria.archive.query import (
    LONGEST_GLOB,
    FilterError,
    Filters,
    NothingSelected,
    board_size,
    build,
    check_values,
    filters_given,
    glob_escaped,
    rule_id,
    rule_ids,
    selecting,
    summable,
    unknown_variant_of_game,
)
from lusoria.archive.reading import (
    DEFAULT_TIMEOUT,
    DamagedArchive,
    FileState,
    ReadOnlyError,
    add_query_functions,
    connect,
    file_state,
    first_row,
    iter_sql,
    refused,
    watched,
)
from lusoria.archive.records_as_rows import Failure, Rows, checked_rows, report_rows
from lusoria.archive.removal import Read, archive_file, same_file
from lusoria.archive.schema import (
    SCHEMA_VERSION,
    NotAnArchive,
    busy,
    create_archive,
    in_wal,
    not_created,
    open_archive,
    unreadable_database,
)
from lusoria.archive.search import read_positions_of
from lusoria.archive.stats import REFUSED, REFUSED_TYPES, stats
from lusoria.archive.stored import STORED_TEXT, stored_report
from lusoria.archive.tree import SORTS, Node, tree
from lusoria.bounds import bounded
from lusoria.errors import LusoriaError, Refused
from lusoria.formats.contract import TYPE_TAG
from lusoria.formats.sources import given, walk
from lusoria.notation.sources import Note, Source, literal
from lusoria.pipeline import Problem, Unreadable, records, without_problems
from lusoria.validator.base import Game, OptionError, Position, known_names, known_names_holding
from lusoria.validator.games import (
    GAME_LISTED,
    GAME_OPTION,
    GAMES,
    game_named,
    looked_up,
    options_line,
    owners_of,
    rules_from_tags,
    tags_line,
    variant_as_game,
)
from lusoria.validator.replay import Report, Verdict
from lusoria.validator.suggest import meant_among
from lusoria.variants import (
    game_tags,
    games_of_variant,
    held_by_several,
    is_variant,
    rules_of_name,
    several_named,
    tags_of_name,
    unknown_variant,
    variant_names,
    variant_of_other_games,
    variant_refused,
)
from lusoria.words import plural, quoted

DEFAULT = "lusoria.db"
_GAMES_HELD = "SELECT DISTINCT game, variant FROM records WHERE game IS NOT NULL"  # for Archive.lacking
_RULES_CITED = "SELECT DISTINCT rule FROM diagnostics ORDER BY rule"  # for Archive.rule_lacking
_BOARDS_HELD = (  # for Archive.board_lacking: the smallest first (9x9 before 11x11)
    "SELECT DISTINCT board FROM records WHERE board IS NOT NULL ORDER BY length(board), board"
)
_IDS_HELD = (  # for Archive.id_lacking: the archive's ids, and the nearest below and above ?1
    "SELECT min(id) AS low, max(id) AS high, EXISTS (SELECT 1 FROM records WHERE id = ?1) AS found, "
    "(SELECT max(id) FROM records WHERE id < ?1) AS below, (SELECT min(id) FROM records WHERE id > ?1) AS above, "
    "(SELECT last FROM record_ids) AS last FROM records"
)
# The records of other games than the one named (?) whose variants hold its name at the start of one of their
# words (`tablut2-9x9`, `foteviken-tablut-9x9`, `copenhagen tablut`; not `oldtablut-9x9`), a GLOB (_word_start):
# sought in the index of games and variants before any filter runs (_ANY_HOLDING), then the records the filters'
# search runs within (Archive.variants_elsewhere)
_HOLDING = "records.game != ? AND '-' || records.variant GLOB ?"
_NOT_IN_A_WORD = "[^0-9a-z\u0080-\U0010ffff]"  # what parts a variant's words: a space or an ASCII mark
_ANY_HOLDING = f"SELECT 1 FROM records WHERE {_HOLDING} LIMIT 1"
# Those the filters select ({records}: SQL of the GAME_COLUMNS), each variant's records, the game of most records
# first and its variant of most records first (the first by name of those of as many)
_VARIANTS_ELSEWHERE = (
    "SELECT game, variant, count(*) AS records FROM ({records}) GROUP BY game, variant "
    "ORDER BY sum(count(*)) OVER (PARTITION BY game) DESC, game, records DESC, variant"
)
GAME_COLUMNS = "records.id, records.game, records.variant"  # of the records a filter selects (`build`)
_MOST_FIRST = "GROUP BY game, variant ORDER BY count(*) DESC, game, variant LIMIT 1"  # the game and variant of most
# A record the move tree counts: one whose main line replayed a legal ply (its material runs reach past
# ply 0, a lookup of its key; a record whose first ply is illegal has plies, and no ply in the tree)
_LEGAL_PLY = "EXISTS (SELECT 1 FROM material_runs AS m WHERE m.record_id = id AND m.last_ply > 0)"
_PLAYED = (
    f"SELECT count(*) AS played FROM records WHERE id IN ({{ids}}) AND {_LEGAL_PLY}"  # for Archive._tell_elsewhere
)
_ENCODINGS_HELD = (  # _encodings_held: of each file's newest record (NULL: UTF-8)
    "SELECT file, encoding FROM records WHERE id IN (SELECT max(id) FROM records WHERE file IS NOT NULL GROUP BY file)"
)
_PLACES_READ = (  # _places_read: each parsed record's place, and whether all read there were whole (no syntax error)
    "SELECT file, line, min(NOT EXISTS (SELECT 1 FROM diagnostics WHERE record_id = id AND rule = 'syntax')) AS whole "
    "FROM records WHERE setting IS NOT NULL AND file IS NOT NULL GROUP BY file, line"
)
_FORMATS_HELD = (  # _formats_held
    "SELECT DISTINCT file, value AS format FROM other_tags JOIN records ON records.id = record_id "
    "WHERE name = 'SourceFormat' AND file IS NOT NULL"
)
_MOST_RECORDED = (  # for Archive.most_recorded: of any game (NULL), or of one
    f"SELECT game, variant FROM records WHERE {_LEGAL_PLY} AND (? IS NULL OR game = lower(?)) "
    "AND (? IS NULL OR board = ?) " + _MOST_FIRST
)


_KNOWN: dict[str, Callable[[str], bool]] = {"game": lambda game: game.lower() in GAMES, "variant": is_variant}


def _game_of(variant: str) -> str:
    """The one game that has `variant` (saami-tablut-w: tablut), as `explain` knows it; OptionError
    for a variant of several games (its tag `Game`: the game is to be named) or of none (`Variant`:
    as the commands that read records say it, `variant_refused`)."""
    games = games_of_variant(variant)
    if not games:
        raise OptionError(variant_refused(variant) or unknown_variant(variant), "Variant")
    if len(games) > 1:
        raise OptionError(held_by_several(looked_up(variant), games), "Game")  # (as `explain` says it)
    return games[0]


def _own(kind: str, written: str) -> list[str]:
    """The names of lusoria's games or variants (`kind`) when `written` is none of them (what it may
    have meant, said with the names the archive holds); none when it is one."""
    if _KNOWN[kind](written):
        return []
    return list(GAMES) if kind == "game" else variant_names()


def variant_filters(
    name: str, tags: Mapping[str, str], written: Callable[[Mapping[str, str]], str] = options_line
) -> str:
    """The filters that select the records of the variant `name` names (`tags`), `written` as options (or
    as a URL's parameters): its game and variant, or, of one that sets rules too (saami-tablut-w: tablut's
    aage, `first=white`), its name, which selects by them."""
    return written({"Variant": name}) if "Rules" in tags else written(tags)


def default_path() -> str:
    """`$LUSORIA_DB`, or `lusoria.db` in the current directory where it is not set (set empty, it names none, which
    Archive refuses: h81b, a script's `LUSORIA_DB="$ARCHIVE"`, its variable unset, used ./lusoria.db)."""
    return os.environ.get("LUSORIA_DB", DEFAULT)


class UnnamedArchive(LusoriaError, ValueError):
    """An archive named by an empty name (`Archive("")`, `$LUSORIA_DB` set empty: `from_environment`): none is
    opened."""

    ADVICE = "give the archive's file (a variable of a script left unset?)"

    def __init__(self, from_environment: bool):
        given = "$LUSORIA_DB is set but empty" if from_environment else "the archive's name is empty"
        super().__init__(f"{given}: {self.ADVICE}")


class ImportStopped(LusoriaError):
    """An import the archive could not take to its end; the archive is left whole."""


class RemovalStopped(LusoriaError):
    """A removal the archive could not take (read-only, another program writing); nothing removed."""


class NoGameToStart(LusoriaError, ValueError):
    """A tree that names no position, record or game, of an archive of no record with a legal ply
    (`NO_GAME_TO_START`): no game for it to start from, nor for the explorer to open on."""


NO_GAME_TO_START = "the archive holds no record with a legal ply, whose game the tree would start from"


class MissingArchive(NotAnArchive):
    """An archive file that does not exist (yet): an import creates it."""

    parameter = "archive"  # what may help: making the archive


def _close(items: Iterable) -> None:
    """Stop a generator (and what it holds) now, not when it is collected."""
    if isinstance(items, Generator):
        items.close()


def _first_batch(source: Iterator[Rows | Failure], batch_size: int, summary: ImportSummary) -> list[Rows | Failure]:
    """The first batch of `source` that holds a record to store (none when there is none): the
    batches of Failures alone before it are counted in `summary` (failures alone make no archive)."""
    first = list(islice(source, batch_size))
    while first and all(isinstance(item, Failure) for item in first):
        summary.failed += [item for item in first if isinstance(item, Failure)]
        first = list(islice(source, batch_size))
    return first


def _vacuum(db: sqlite_utils.Database) -> None:
    """`VACUUM`: the archive written again, a fortieth smaller (docs/archive.md, "Size"). When it
    cannot be (a disk without room for the copy, another process writing), the archive, whose
    import is done, is left as it is, whole."""
    try:
        db.execute("VACUUM")
    except sqlite3.Error:
        pass


def _selected(filters: Filters | None) -> tuple[str, list] | None:
    """SQL that selects the ids of the records `filters` match (None: every record, also when
    the only filters given change how others work: `symmetric`, `include_unknown`, `for`; a
    list of every id would cost the move tree 60 ms on 100,000 records)."""
    if filters is None or next(selecting(filters), None) is None:
        return None
    return build(filters, ordered=False, columns="records.id")


def _repertoire(selected: tuple[str, list], filters: Filters) -> tuple[str, list]:
    """The records of those `selected` selects (SQL of their ids) that a move tree counts: of a player `filters` name,
    their games but those against themselves, which the score table counts in no total either."""
    return selected if filters.player is None else players.without_own_games(selected)


def _unlisted(filters: Filters | None, alike: str) -> Filters | None:
    """The filters of a command that does not list the records it selects (stats, export, players); FilterError for an
    `order` without a `limit`, which would change nothing there (`alike`: why; it chooses only which records the limit
    keeps), saying what to write instead; and `_symmetric_matched`'s."""
    filters_given(filters)
    if filters is not None and filters.order is not None and filters.limit is None:
        raise FilterError(
            "order",
            f"needs a limit (--limit) here: {alike}; it only chooses which records the limit keeps "
            "(--order longest --limit 100: the 100 longest). Leave it out, or give --limit N",
        )
    return _symmetric_matched(filters)


def _symmetric_matched(filters: Filters | None) -> Filters | None:
    """`filters`; FilterError for `symmetric` without a position or pattern to match in the board's
    symmetries (`query --symmetric` alone found every record; `lusoria tree` has its own position)."""
    filters_given(filters)
    if (
        filters is not None
        and filters.symmetric is True  # (a value of another type is `check_values`' to refuse)
        and not (filters.position or filters.pattern or filters.positions)
    ):
        raise FilterError("symmetric", "matches positions and patterns in the board's symmetries: give one")
    return filters


def _holder(db: sqlite_utils.Database) -> str:
    """Who kept an import out of the archive `db` past its wait: in WAL mode (an archive lusoria
    makes), a program writing to it; with a rollback journal (an older lusoria's archive), where a
    reader keeps writers out too, a program reading it or writing to it."""
    try:
        wal = db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    except sqlite3.Error:  # (unknown: said as of a rollback journal, true of both)
        wal = False
    if wal:
        return "another program is writing to the archive"
    return "another program is reading or writing the archive (an older lusoria's: no one writes to it while one reads)"


def _game_and_variant(game: str, variant: str | None) -> str:
    """A game and variant as a note names the filters that select them (`--game tablut --variant aage`)."""
    return f"{{Game}} {literal(game)}" + (f" {{Variant}} {literal(variant)}" if variant else "")


_HELD_OF_ADDED = (  # the records held of the same {column} as a file read (`_changed_files`)
    "SELECT added.path, added.file, records.id, records.path AS held_path, records.file AS held_file "
    "FROM records JOIN added ON records.{column} = added.{column}"
)


def _changed_files(db: sqlite_utils.Database, last: int, summary: ImportSummary) -> list[str]:
    """The files that the records an import added (`summary.added_ids`) were read from, whose records held before
    (ids up to `last`) were not all read again from them (`summary.skipped`): changed since they were
    imported, or read under other rules. A record held is of the file `same_file` finds it by, as
    `import --replace` finds it (of a folder moved with its archive, the file its path names now)."""
    held_again = json.dumps([f"{duplicate.record} {duplicate.file}" for duplicate in summary.skipped if duplicate.file])
    rows = db.execute(  # (two joins of one column each: joined ON one OR the other, SQLite compared every pair)
        "WITH added AS (SELECT DISTINCT records.file, records.path FROM json_each(?) batch CROSS JOIN records "
        "ON records.id BETWEEN batch.value ->> 0 AND batch.value ->> 1), held AS ("
        f"{_HELD_OF_ADDED.format(column='file')} UNION ALL {_HELD_OF_ADDED.format(column='path')}) "
        "SELECT DISTINCT path, file, held_path, held_file FROM held "
        "WHERE id <= ? AND id || ' ' || file NOT IN (SELECT value FROM json_each(?)) ORDER BY path",
        [json.dumps(summary.added_ids), last, held_again],
    )
    archive = archive_file(db.conn)
    return list(
        dict.fromkeys(path for path, file, held, held_file in rows if same_file(held, held_file, archive) == file)
    )


def _from_id(from_id: int | None, record: int | None) -> int | None:
    """The id `Archive.tree` starts from: `from_id`, or `record`, its former name, said to be so (a
    DeprecationWarning to its caller's caller). TypeError when both are given: neither is taken."""
    if record is None:
        return from_id
    if from_id is not None:
        raise TypeError("Archive.tree: give from_id= alone: record= is its former name")
    warnings.warn("Archive.tree(record=) is now from_id=; record= goes in the next release", DeprecationWarning, 3)
    return record


class ChosenWarning(LusoriaError, UserWarning):
    """What an Archive call chose that it was not given (the variant `tree` starts from), warned when
    the Archive has no `notes` to tell it to."""


def _caller_level() -> int:
    """The `stacklevel` for a warning of the function that calls this one (`_tell`), so that it names
    the first caller outside this module (the library user's call of `tree`, or of `start_of_game`)."""
    level, frame = 1, sys._getframe(1)  # (`_tell`'s, the warning's own)
    while frame.f_back is not None and frame.f_code.co_filename == __file__:
        level, frame = level + 1, frame.f_back
    return level


def _word_start(name: str) -> str:
    """A GLOB of `name` at the start of a word of `'-' || variant` (its `*`, `?` and `[` only characters)."""
    return "*" + _NOT_IN_A_WORD + re.sub(r"[*?[]", r"[\g<0>]", name) + "*"


def _left_out(game: str, other: str, variants: list[tuple[str, int]]) -> str:
    """What `--game game` leaves out of the game `other`: the records of its `variants` (each with its records,
    the most first) whose names hold `game`, the variants lusoria knows apart from the Variant tags it does not
    (`tablut/copenhagen`), each kind with its variant of most records, and how `--variant` finds them (the one
    variant by its name, quoted for a shell, when there is one)."""
    known = [held for held in variants if tags_of_name(f"{other}/{held[0]}") is not None]
    unknown = [held for held in variants if held not in known]
    records = sum(count for _, count in variants)
    if not unknown:
        held = f"{other}'s {_known_held(game, other, known)}"
    elif not known:
        held = other + " " + _unknown_held(quoted(game), other, unknown)
    else:
        held = (
            f"{other}, {plural(sum(count for _, count in known), 'record')} of its {_known_held(game, other, known)}"
            f" and {plural(sum(count for _, count in unknown), 'record')} {_unknown_held('it', other, unknown)}"
        )
    one = len(variants) == 1
    return (
        f"--game {game} leaves out {plural(records, 'record')} of {held}: --game {other} --variant "
        f"{shlex.quote(variants[0][0]) if one else 'VARIANT'} finds {'it' if records == 1 else 'them'}"
    )


def _known_held(game: str, other: str, known: list[tuple[str, int]]) -> str:
    """The variants of `other` that lusoria knows whose names hold `game`, of `_left_out`: `2 variants whose
    names hold 'tablut' (hnefatafl/tablut2-9x9, …)`, the one of most records named."""
    names = "variant whose name holds" if len(known) == 1 else f"{len(known)} variants whose names hold"
    return f"{names} {quoted(game)} ({other}/{known[0][0]}{'' if len(known) == 1 else ', …'})"


def _unknown_held(name: str, other: str, unknown: list[tuple[str, int]]) -> str:
    """The Variant tags of `other` that lusoria does not know as its variants which hold the game asked for
    (said as `name`), of `_left_out`: `whose Variant tags hold 'copenhagen' (tablut/copenhagen, which lusoria
    does not know as a variant of tablut, …)`, the one of most records named."""
    tags = "Variant tag holds" if sum(count for _, count in unknown) == 1 else "Variant tags hold"
    more = "" if len(unknown) == 1 else ", …"
    return f"whose {tags} {name} ({other}/{unknown[0][0]}, which lusoria does not know as a variant of {other}{more})"


@dataclass(frozen=True)
class Naming:
    """How an archive's messages tell a reader to name a game or a variant: by a command's options (the
    default), or by the explorer's URL parameters (`?game=tablut&variant=linnaeus`)."""

    game: str = GAME_OPTION  # a game's name given as a variant's: how to name the game (`game_named`)
    listed: str = GAME_LISTED  # a game's own name given as its variant's: where its variants are (`game_named`)
    filters: Callable[[Mapping[str, str]], str] = options_line  # the filters that give tags (`variant_filters`)


class Archive:
    """One archive file; each method is a `lusoria` command."""

    def __init__(
        self,
        path: str | None = None,
        timeout: float | None = None,
        notes: Callable[[Problem], None] | None = None,
        naming: Naming = Naming(),
    ):
        """The archive at `path` (default_path()); `timeout`: seconds each statement of `query`
        and `tree` may run (None: no limit; a statement stopped raises ReadOnlyError); `notes`
        is told what opening it has to say (a Note): that an archive made by an older lusoria is being
        upgraded (a replay of every record: minutes for 100,000), and when it is done; as
        `import_paths` meets them, its problems (`ImportSummary.problems`); and the variant `tree`
        starts from when it chooses it (`start_of_game`), which, without `notes`, is warned (ChosenWarning).
        `naming`: how its messages tell a game or a variant to be named (`lacking`)."""
        self.path = default_path() if path is None else path
        if not self.path:  # (SQLite opens a temporary database of "", and ./lusoria.db was used before: h81b)
            raise UnnamedArchive(from_environment=path is None)
        self.timeout = timeout
        self.notes = notes
        self.naming = naming
        self._checked: FileState | None = None  # the file as `_existing` last found it an archive of this version

    def __repr__(self) -> str:
        """`Archive('club.db')`, as sqlite-utils shows a Database: the file it opens (the interpreter showed an address)."""
        return f"Archive({self.path!r})"

    def import_paths(
        self,
        paths: Iterable[Source],
        encoding: str | None = None,
        batch_size: int = 1000,
        progress: Callable[[int], None] | None = None,
        format: str | None = None,
        tags: dict[str, str] | None = None,
        jobs: int = 1,
        replace: bool = False,
    ) -> ImportSummary:
        """Check and store every record of `paths` (files, directories, `-`, streams or text, read
        by lusoria.pipeline: `encoding`, `format`, `tags` and `progress` as there; with no `encoding`, UTF-8, but
        a file that does not decode as UTF-8 is read with the encoding of its newest record held, said in a
        note: `encodings_held`; each record stored keeps the encoding it was read with), checked and made
        into rows by `jobs` worker processes (`records_as_rows.checked_rows`): `import_rows` (`replace`
        as there). Sources that cannot be read, files skipped in a directory and notes are the
        summary's `problems`, in order, each told to `notes` as it comes (what `lusoria import` says);
        those that cannot be read, also its `unreadable`, and those whose records were read beside a byte
        outside them (`Unreadable.records_read`) its `stray`, which `str()` shows; records lusoria failed
        on, its `failed`; the records skipped as games it holds, its `skipped` (each where it is and
        the id of the record held: `SkippedDuplicate`), which `duplicates` counts. WorkerLost when a worker process is killed (the batches before are stored)."""
        problems: list[Problem] = []
        named = list(given(paths))
        sources = list(walk(named, format, encoding or "utf-8"))
        held = encodings_held(self._encodings_held(), sources) if encoding is None else {}
        read_now = records(sources, encoding or "utf-8", format, tags, progress, encodings=held)
        checked = checked_rows(
            misread_refused(read_now, cache(self._places_read), cache(self._formats_held)), jobs, batch_size
        )
        checked = chain(encodings_said(held), read_with(checked, held, encoding))
        read = Read.of(named, sources, problems) if replace else None
        if read:
            checked = chain(read.notes(), checked)
        summary = self.import_rows(without_problems(checked, problems, self.notes), batch_size, replace, read)
        return _with_problems(summary, problems)

    def _encodings_held(self) -> dict[str, str | None]:
        """The encoding each file was read with at its newest import (None: UTF-8), by its `file`
        (`records.encoding`; none in an archive not made yet)."""
        if not os.path.exists(self.path):
            return {}
        return {row["file"]: row["encoding"] for row in self.iter_sql(_ENCODINGS_HELD, None)}

    def _places_read(self) -> dict[tuple[str, int], bool]:
        """Where the records the archive holds read (parsed) were read, their `file` (a real path) and `line`, each
        with whether it was read whole, its reader finding no syntax error in any record read there (the games of a
        one-line JSON array share a line: review79b, one read with an error refused its file's import again; none in
        an archive not made yet)."""
        if not os.path.exists(self.path):
            return {}
        return {(row["file"], row["line"]): bool(row["whole"]) for row in self.iter_sql(_PLACES_READ, None)}

    def _formats_held(self) -> dict[str, str]:
        """The format other than lgn the records the archive holds of each file were read from (tag SourceFormat),
        by their `file` (a real path; none in an archive not made yet)."""
        if not os.path.exists(self.path):
            return {}
        return {row["file"]: row["format"] for row in self.iter_sql(_FORMATS_HELD, None)}

    def import_reports(
        self, reports: Iterable[Report | Problem], batch_size: int = 1000, replace: bool = False
    ) -> ImportSummary:
        """Store every checked record (`check`, which keeps the positions; `stored.checked` checks as `import`
        does: a record that lacks only its result marker is stored replayed): `import_rows` of their
        rows (`records_as_rows.report_rows`). The problems of a stream of `lusoria.api.reports` (sources
        that cannot be read, files skipped in a directory, notes) are the summary's `problems`, as
        `import_paths` has them. TypeError for an item that is neither (a Verdict: `api.validate`'s)."""
        problems: list[Problem] = []
        rows = map(report_rows, _reports(without_problems(reports, problems, self.notes)))
        return _with_problems(self.import_rows(rows, batch_size, replace), problems)

    def import_rows(
        self,
        checked: Iterable[Rows | Failure],
        batch_size: int = 1000,
        replace: bool = False,
        read: Read | None = None,
    ) -> ImportSummary:
        """`lusoria import`: store the rows of every checked record (`records_as_rows.rows`), valid or not,
        `batch_size` records a transaction; a record already there is counted as a duplicate, a
        record lusoria failed on (a Failure: a bug) is left out, whole, and listed in `failed`.
        With `replace` (`--replace`), the records the archive holds from each file read (the same
        file, its real path, from any directory) are replaced by the file's records as
        they are now: one read again with the same text is kept, id and rows (`kept`); the others
        are removed (`replaced`, of `replaced_files`) and the new records added. `read`: the
        paths given and the files found there (`Read.of`), when the records come from them: a
        file that has no record now keeps none, and the files held under a path given that no
        longer exist are listed in `gone`, by path given, each by its real path (their records are kept). Without `replace`, the files
        imported before that added records and whose records held were not all read again (changed
        since, or read under other rules) are listed in `changed`.
        ImportStopped when the archive cannot take them (full disk, read-only file, damaged
        schema): the batches stored before are whole, nothing of the failed one is kept. A
        missing archive is made with the first batch, whole, or not at all (with no record to
        store, or when that batch fails, no file is left). ValueError for a `batch_size` under 1 (h81a: 0 stored
        nothing, and said nothing)."""
        batch_size = bounded(batch_size, "batch_size")
        self._writable()
        source, summary, done = iter(checked), ImportSummary(), 0
        try:
            if not os.path.exists(self.path):
                first = _first_batch(source, batch_size, summary)
                if not first:
                    return summary
                source, summary, done = self._made_with(first, source, batch_size, summary)
            return self._import_into(source, batch_size, summary, done, replace, read)
        finally:
            _close(checked)  # the checking (its worker processes) stops with the import, however it ends

    def _writable(self, stopped: type[LusoriaError] = ImportStopped, done: str = "imported") -> None:
        """`stopped` (ImportStopped) when the archive exists and it or its directory is read-only: nothing `done`."""
        if os.path.exists(self.path) and not (
            os.access(self.path, os.W_OK) and os.access(os.path.dirname(os.path.abspath(self.path)), os.W_OK)
        ):
            raise stopped(
                f"{self.path}: the archive or its directory is read-only; nothing was {done} "
                "and the archive is as it was"
            )

    def _made_with(
        self, first: list[Rows | Failure], source: Iterator[Rows | Failure], batch_size: int, summary: ImportSummary
    ) -> tuple[Iterator[Rows | Failure], ImportSummary, int]:
        """The archive made with the batch `first` stored: the records left, the summary and the
        batches stored (1). When another import made the archive meanwhile, the batch goes into
        it: `first` again before the records left, a summary of only the Failures counted before
        it, and none stored (0)."""
        failed = list(summary.failed)
        if self._create(lambda db: import_rows(db, first, batch_size, summary)):
            return source, summary, 1
        return chain(first, source), ImportSummary(failed=failed), 0

    def _import_into(
        self,
        source: Iterator[Rows | Failure],
        batch_size: int,
        summary: ImportSummary,
        done: int,
        replace: bool,
        read: Read | None,
    ) -> ImportSummary:
        """`importer.import_rows` of `source` into the archive (`done`: the batches stored when
        this import made it, which then holds none to replace and is vacuumed after); the archive
        failing an ImportStopped."""
        db = open_archive(self.path, note=self.notes)
        in_wal(db.conn)
        try:
            last = db.execute("SELECT coalesce(max(id), 0) FROM records").fetchone()[0]
            summary = import_rows(
                db, source, batch_size, summary, done, replace and not done, read
            )  # (made now: none held)
            if not replace and not done:
                summary.changed = _changed_files(db, last, summary)
        except (sqlite3.Error, OSError) as error:
            raise ImportStopped(
                f"{self.path}: the import stopped: {error}. The archive is intact: the batches "
                "stored before are whole and nothing of the failed one was kept"
                + (f"; {_holder(db)}: import again once it is done" if busy(error) else "")  # (5 s waited)
            ) from None
        else:
            if done:  # a new archive, made by this import: written again, each b-tree in order, pages full
                _vacuum(db)
            return summary
        finally:
            db.close()

    def _create(self, fill: Callable[[sqlite_utils.Database], object]) -> bool:
        """`schema.create_archive`; its failure (no file is left) an ImportStopped."""
        try:
            return create_archive(self.path, fill)
        except (sqlite3.Error, OSError) as error:
            raise ImportStopped(not_created(self.path, error)) from None

    def _existing(self) -> None:
        """NotAnArchive unless the file is an archive of this version, which is checked by
        reading only (a read-only directory will do); an older archive is upgraded first. Checked
        again only when the file or its WAL changed since (`file_state`): a notebook's or the
        explorer's later calls open the archive once each, not twice."""
        state = file_state(self.path)
        if state is not None and state == self._checked:
            return
        if state is None:
            raise MissingArchive(f"{self.path} does not exist")
        try:
            conn = connect(self.path)
            try:
                current = conn.execute(
                    "SELECT (SELECT user_version FROM pragma_user_version) = ? AND (SELECT count(*) FROM "
                    "sqlite_master WHERE name IN ('records', 'record_ids')) = 2",  # (none: schema._archive_version)
                    [SCHEMA_VERSION],
                ).fetchone()[0]
            finally:
                conn.close()
        except sqlite3.DatabaseError as error:
            raise unreadable_database(self.path, error) from None
        if not current:
            open_archive(self.path, create_missing=False, note=self.notes).close()  # upgrades it, or says why not
        self._checked = file_state(self.path)  # (as the check's tidying and an upgrade left it)

    def query(self, filters: Filters | None = None) -> list[dict[str, Any]]:
        """`lusoria query`: the records every filter matches (all: None), oldest first or in their `order`."""
        return list(self.iter_query(filters))

    def iter_query(self, filters: Filters | None = None) -> Generator[dict[str, Any], None, None]:
        """`query`, one record at a time; the game of a record its reader refused is the label
        `stats` counts it under (stats.REFUSED_TYPES: read once, when the first record of no game
        comes; a lookup a record in `other_tags`, ordered by tag, would read every GameType tag)."""
        filters = filters or Filters()
        self._existing()
        self._check_names(_symmetric_matched(filters))
        sql, params = build(filters)
        labels: dict[int, str] | None = None
        for row in iter_sql(self.path, sql, params, self.timeout):
            if row["game"] is None:
                if labels is None:
                    labels = {
                        found["record_id"]: found["label"]
                        for found in iter_sql(self.path, REFUSED_TYPES, timeout=self.timeout)
                    }
                row["game"] = labels.get(row["id"])
            yield row

    def sql(self, sql: str, timeout: float | None = DEFAULT_TIMEOUT) -> list[dict[str, Any]]:
        """`lusoria sql`: any read-only SQL, stopped after `timeout` seconds (None: no limit); a
        ReadOnlyError for SQL that writes or runs longer, InvalidSQL (one too) for SQL SQLite cannot run."""
        return list(self.iter_sql(sql, timeout))

    def iter_sql(
        self, sql: str, timeout: float | None = DEFAULT_TIMEOUT, params: list | None = None
    ) -> Generator[dict[str, Any], None, None]:
        """`sql` (with its `params`), one row at a time, stopped after `timeout` seconds of its running (not of its rows'
        wait); rows read in part are closed by the caller (`contextlib.closing`), else when collected. Ctrl-C while
        they wait raises KeyboardInterrupt where the caller is."""
        self._existing()
        yield from iter_sql(self.path, sql, params, timeout)

    def most_recorded(self, game: str | None = None, board: str | None = None) -> tuple[str, str | None] | None:
        """The game and variant of most records with a legal ply, those the move tree counts (the first by name of those of as many),
        of `game` (in any case) and on `board` (`11x11`) when given; None when there is none. Where
        the explorer and `lusoria tree` start when a game, or the variant of a game, is not named."""
        self._existing()
        row = first_row(self.path, _MOST_RECORDED, [game, game, board, board], self.timeout)
        return None if row is None else (row["game"], row["variant"])

    def most_selected(self, filters: Filters) -> tuple[str, str | None] | None:
        """The game and variant of most records with a legal ply among those `filters` select (ordered as
        `most_recorded` orders them; of a player `filters` name, their games but those against themselves, as the
        tree counts them); None when they select none."""
        self._existing()
        check_values(filters)
        ids, params = _repertoire(build(replace(filters, limit=None, order=None), False, "records.id"), filters)
        counted = f"SELECT game, variant FROM records WHERE id IN ({ids}) AND {_LEGAL_PLY} {_MOST_FIRST}"
        row = first_row(self.path, counted, params, self.timeout)
        return None if row is None else (row["game"], row["variant"])

    def most_recorded_on(self, game: str | None, board: str | None) -> tuple[str, str | None] | None:
        """`most_recorded` of `game` (None: any) on `board` when the archive holds some there, else on
        any board: where the explorer and `lusoria tree` open."""
        return board and self.most_recorded(game, board) or self.most_recorded(game)

    def variant_to_open(self, game: str, board: str | None = None) -> str | None:
        """For a game whose boards are its variants, named without one, the variant of most of its
        records (`most_recorded`; on `board` when it holds some there); None for another game.
        FilterError (of `variant`, which each reader words as its own: --variant, the explorer's
        parameter) when the archive holds none."""
        described = GAMES.get(game.lower())
        if described is None or not described.described:
            return None
        found = self.most_recorded_on(game, board)
        if found is None:
            raise FilterError(
                "variant",
                f"is needed: the archive holds no record of {described.name}, whose boards are its variants "
                f"({described.presets_listed_in} lists them)",
            )
        return found[1]

    def lacking(self, game: str | None, variant: str | None) -> str | None:
        """Whether no record has the game or variant a query named (`lusoria query --game chess`
        finds none): said with the games, or the variants of the game, the archive holds, or for a
        catalogue's name of a variant held (ashton-tablut), that its records play other rules; None
        when it has them (the other filters found nothing)."""
        if not game and not variant:
            return None
        if refused := self._refused_type(game or variant or ""):  # (by the label query and stats show)
            return (
                f"the archive's records of the type {quoted(refused)} were refused (no game lusoria plays): no "
                f"filter of a game or variant finds them, --tag {shlex.quote(f'{TYPE_TAG}={refused}')} does"
            )
        named, rules = variant, rules_of_name(variant) if variant else None
        if rules:  # another name of a variant (tablut/seed): its own
            game, variant = rules.name, rules.variant
        elif variant and (unknown := unknown_variant_of_game(variant)):  # tablut/copenhagen: its game's
            game, variant = unknown
        held = [(row["game"], row["variant"] or "") for row in self.iter_sql(_GAMES_HELD)]
        games = sorted({held_game for held_game, _ in held})
        if game and game.lower() not in games:
            written = partial(variant_filters, game, written=self.naming.filters)  # (options, or a URL's parameters)
            variant = "" if game.lower() in GAMES else variant_as_game(game, written)
            known = known_names_holding(game, games) if variant else known_names(game, games, also=_own("game", game))
            return f"the archive holds no record of the game {quoted(game)} ({known}){variant}"
        variants = sorted(
            {
                held_variant
                for held_game, held_variant in held
                if held_variant and (not game or held_game == game.lower())
            }
        )
        if variant and variant.lower() not in variants:
            of = f" of {game.lower()}" if game else ""
            if owners_of(variant):  # (seneca is no slip of seed)
                known = known_names_holding(variant, variants)
            else:
                known = known_names(variant, variants, also=_own("variant", variant))
            own = game.lower() if game else ""  # (--game brandubh --variant brandubh)
            said = game_named(variant, self.naming.game, own, self.naming.listed)
            return f"the archive holds no record of the variant {quoted(variant)}{of} ({known}){said}"
        if rules and named and not self.query(Filters(variant=named, limit=1)):  # a catalogue's name: its rules
            return (
                f"the archive's records of the variant {quoted(variant or '')} play other rules than {named}, "
                f"whose tags are {tags_line(tags_of_name(named) or {})}"
            )
        return None

    def _refused_type(self, name: str) -> str | None:
        """The type, as held, of the records a reader refused that `name` names, by their type or their label
        (`Imaginary Tafl 15x15 (refused)`, REFUSED_TYPES), in any case; None for none."""
        typed = name[: -len(REFUSED)] if name.lower().endswith(REFUSED) else name
        found = f"SELECT label FROM ({REFUSED_TYPES}) WHERE label = ? COLLATE NOCASE LIMIT 1"
        row = next(self.iter_sql(found, self.timeout, [typed + REFUSED]), None)
        return row["label"][: -len(REFUSED)] if row else None

    def rule_lacking(self, rule: str | None) -> str | None:
        """Whether no diagnostic of the archive cites the rule a query named (`lusoria query --rule T99`
        found none, unsaid): said with the rules its diagnostics cite, and, for a name that is no rule of
        lusoria's, those most like it; None when one cites it (the other filters found nothing)."""
        if not rule:
            return None
        cited, lusorias = [row["rule"] for row in self.iter_sql(_RULES_CITED)], rule_ids()
        if rule_id(rule).casefold() in {cited_id.casefold() for cited_id in cited}:  # (a plug-in's in any case)
            return None
        known = known_names(rule, cited, also=() if rule_id(rule) in lusorias else lusorias)  # (T9: no slip)
        return f"no record of the archive has a diagnostic of the rule {quoted(rule)} ({known})"

    def variants_elsewhere(self, filters: Filters) -> list[str]:
        """What `filters` leave out by the game they name: for each other game with records they select but
        for it, of variants whose names hold it at the start of a word (`--game brandubh`, and Hnefatafl's
        `brandubh-7x7-walker`…), how many, and how to find them. The filters run again only when the archive
        holds such records, and only over them. A name whose GLOB is longer than SQLite reads (50,000 bytes:
        some 50,000 ASCII letters, fewer of others) is not sought, and its note says so."""
        if not filters.game:
            return []
        self._existing()
        name = filters.game.lower()
        holding = [name, _word_start(name)]
        if len(holding[1].encode()) > LONGEST_GLOB:
            return [f"--game names a game of {len(name):,} characters, too long to seek in other games' variants"]
        if first_row(self.path, _ANY_HOLDING, holding, self.timeout) is None:
            return []
        others = replace(filters, game=None, limit=None, order=None)
        sql, params = build(others, False, GAME_COLUMNS, within=(_HOLDING, holding))
        games: dict[str, list[tuple[str, int]]] = {}  # in the order of _VARIANTS_ELSEWHERE
        for row in self.iter_sql(_VARIANTS_ELSEWHERE.format(records=sql), self.timeout, params):
            games.setdefault(row["game"], []).append((row["variant"], row["records"]))
        return [_left_out(name, other, variants) for other, variants in games.items()]

    def board_lacking(self, board: str | None) -> str | None:
        """Whether no record of the archive is on the board a query named (`lusoria query --board 25`
        found none): said with the boards its records are on, smallest first; None when one is."""
        if not board:
            return None
        size, held = board_size(board), [row["board"] for row in self.iter_sql(_BOARDS_HELD)]
        if size in held:
            return None
        known = ", ".join(held) or "none"
        return f"no record of the archive is on a board of {size} (the archive's boards: {known})"

    def path_lacking(self, filters: Filters | None) -> str | None:
        """What to say when `filters` match no record and their path names a folder (`lusoria query --path
        games`): the glob of the folder's files (`games/*`, or `[[]old]/*` of a folder named `[old]`, before
        what `[old]` matches as a glob: review75, a folder `o`), which matches some; None otherwise (and for
        `--limit 0`, which finds none in them either)."""
        if filters is None or not filters.path or filters.limit == 0 or self.query(replace(filters, limit=1)):
            return None
        folder = filters.path.rstrip("/")
        globbed = "matched by" if set("*?[") & set(folder) else "named"  # (a glob: review73)
        for inside, named in dict.fromkeys([(glob_escaped(folder) + "/*", "named"), (folder + "/*", globbed)]):
            if self.query(replace(filters, path=inside, limit=1)):
                return (
                    f"no record was read from a file {named} {quoted(filters.path)}, a folder: "
                    f"--path {shlex.quote(inside)} finds the records of its files"
                )
        return None

    def id_lacking(self, record_id: int | None) -> str | None:
        """Whether no record of the archive has the id a query named (`lusoria query --id 999` found
        none, unsaid): said with the ids it holds, or, for one between them (ids have gaps where records
        were removed), the nearest ids that a record has, and, for one above them that a record removed
        had (`record_ids`), so; None when one has it (the other filters found nothing)."""
        if record_id is None:
            return None
        [held] = self.iter_sql(_IDS_HELD, params=[record_id])
        if held["found"]:
            return None
        if not held["low"]:
            ids = "it holds no record"
        elif held["below"] and held["above"]:
            ids = f"its ids have gaps where records were removed; the nearest are {held['below']} and {held['above']}"
        else:
            ids = f"its ids run from {held['low']} to {held['high']}"
        if (held["high"] or 0) < record_id <= held["last"]:
            ids += f"; the record of id {record_id} was removed, and its id is given to no other"
        return f"no record of the archive has the id {record_id} ({ids})"

    def users_variant_hint(self, game: str, variant: str, name: str) -> str:
        """For a variant of `game` that lusoria does not know: that the archive (`name`) holds
        records of it, perhaps of a user's own catalogue, not read now, and where the game's
        variants were read from; "" when lusoria knows the variant (saami-tablut, another game's),
        when the archive holds none, or when the game reads no catalogue."""
        rules = GAMES.get(game.lower())
        read_from = rules.variants_read_from() if rules else ""
        if read_from and not is_variant(variant) and not self.lacking(game, variant):
            return f"{name} holds records of it, perhaps a variant of a user's own catalogue. {read_from}"
        return ""

    def _selected(self, filters: Filters | None) -> tuple[str, list] | None:
        """`_selected`, the names of `filters` checked (`_check_names`)."""
        self._check_names(filters)
        return _selected(filters)

    def _check_names(self, filters: Filters | None) -> None:
        """FilterError for a value none of its filter's (`check_values`); when the game or variant
        of `filters` is none that lusoria knows and none
        that the archive holds records of (a slip: `Filters(variant="seneka")` found nothing,
        unsaid), which says what the archive holds (`lacking`), or which of several variants it names
        (`several_named`: Tyr 13x13); or when the variant is another
        game's (`Filters(game="copenhagen", variant="saami-tablut-w")`, as `lusoria tree` refuses it)."""
        if filters is None:
            return
        check_values(filters)
        for name in _KNOWN:
            written = getattr(filters, name)
            if written is not None and not _KNOWN[name](written):
                if lacking := self.lacking(filters.game, filters.variant):
                    itself = looked_up(written) == (filters.game or "").lower()  # (--game tablut --variant Tablut)
                    several = several_named(written) if name == "variant" and not itself else None  # (as read)
                    raise FilterError(
                        name,
                        f"is ambiguous: {several}" if several else f"names no {name} that lusoria knows, and {lacking}",
                    )
        if filters.game and filters.variant and (other := variant_of_other_games(filters.variant, filters.game)):
            raise FilterError("variant", f"names {filters.variant}, {other}")

    def stats(self, top: int = 10, filters: Filters | None = None, by: str | None = None) -> dict[str, Any]:
        """`lusoria stats`: counts and figures of the records `filters` match (all: None), the `top`
        rows of each long list (variants, players, first error rules; the variants and the rules folded
        beyond them in `more_variants` and `more_first_error_rules`; the records of no board under None);
        with `by` ("game", "variant" or "board"), the results of the `top`
        games, variants or board sizes with the most records too, their sides named as their games
        name them, their plies, and their invalid records with the rules of their first errors
        (`results_by`, the others folded in its `more_rows`). FilterError for an `order`
        without a `limit`, which would change nothing."""
        self._existing()
        conn = connect(self.path)
        try:
            return stats(conn, top, self._selected(_unlisted(filters, "the figures are the same in any order")), by)
        finally:
            conn.close()

    def duplicates(self) -> list[Duplicate]:
        """`lusoria duplicates --db`: records that are the same game, or a prefix of another, their White
        and Black compared as the archive's players (a name merged into another as that name)."""
        self._existing()
        conn = connect(self.path)
        try:
            players = respelled(conn)

            def respelt(entry: Entry) -> Entry:  # (a CSV row its format cannot read alone keeps its identity)
                report = stored_report(
                    *conn.execute(f"SELECT {STORED_TEXT} FROM records WHERE id = ?", [entry.place.id]).fetchone()
                )
                return replace(entry, identity=identity(report, players)) if report else entry

            entries = []
            for id_, key, setting, path, line, result, ending, white, black in conn.execute(
                "SELECT id, hash, setting, path, line, result, ending, white, black FROM records ORDER BY id"
            ):
                place = Place(path, line, id_)
                entry = Entry(f"record {id_} ({path}:{line})", place, Identity(key, setting, ()), result, ending)
                entries.append(respelt(entry) if players.keys() & {white, black} else entry)
            return list(find_duplicates(entries, lambda group: [e if e.identity.plies else respelt(e) for e in group]))
        finally:
            conn.close()

    def remove(self, filters: Filters, dry_run: bool = False) -> list[dict[str, Any]]:
        """`lusoria remove`: the records `filters` match removed, with their rows of every table, in one
        transaction, as `import --replace` removes a record its file no longer has; the records removed
        (`id`, `path`, `line`), by id; with `dry_run`, those it would remove, none removed. ValueError for
        filters that select every record (none given), FilterError for an `order` without a `limit`,
        NothingSelected when they match no record, RemovalStopped when the archive cannot take it (read-only,
        another program writing): nothing removed."""
        self._existing()
        selected = self._selected(_unlisted(filters, "remove takes every record they match"))
        if selected is None:
            raise Refused(
                "give filters (as in query) of the records to remove: remove takes none unless told which "
                "(lusoria query with the same filters lists them)"
            )
        if dry_run:  # (newcomer-57a: a broad filter removed at once, unseen)
            found = list(self.iter_sql(SELECTED_PLACES.format(ids=selected[0]), self.timeout, selected[1]))
            if not found:
                raise NothingSelected("nothing would be removed")
            return found
        self._writable(RemovalStopped, "removed")
        db = open_archive(self.path, create_missing=False)
        try:
            add_query_functions(db.conn)
            removed = remove_selected(db, selected)
        except (sqlite3.Error, OSError) as error:
            said = functions.failure(error) if isinstance(error, sqlite3.Error) else None  # (Ctrl-C: KeyboardInterrupt)
            raise RemovalStopped(
                f"{self.path}: nothing was removed: {said or error}"
                + (f"; {_holder(db)}: remove them once it is done" if busy(error) else "")
            ) from None
        finally:
            db.close()
        if not removed:
            raise NothingSelected("nothing removed")
        return [dict(zip(("id", "path", "line"), row)) for row in removed]

    def datasette_metadata(self) -> dict[str, Any]:
        """The Datasette metadata (labels, facets, descriptions) for this archive."""
        from lusoria.archive.datasette import metadata  # not at the top: python -m runs that module

        return metadata(self.path)

    def serve(self, port: int = 8001, ready: Callable[[str], None] = print) -> None:
        """`lusoria serve`: the archive in Datasette with the opening explorer, on this machine
        (archive/datasette.py, `serve`); `ready` gets the explorer's address."""
        from lusoria.archive.datasette import serve

        self._existing()
        serve(self.path, port, ready)

    def tree(
        self,
        position: str | None = None,
        from_id: int | None = None,
        ply: int = 0,
        filters: Filters | None = None,
        depth: int = 1,
        variations: bool = False,
        sort: str = "games",
        min_games: int = 1,
        *,
        record: int | None = None,
    ) -> list[Node]:
        """`lusoria tree`: the plies played from a position string, or from the position after
        ply `ply` of the record of id `from_id`, `depth` plies deep, in the records `filters` match (with
        `variations`: the plies of their variations too), the most played first (`sort` "games")
        or the best scores ("score"), those of fewer than `min_games` games left out. With
        `filters.symmetric`, positions that are one up to the board's symmetries are one; with
        `filters.player`, the results are counted from that player's side.
        With neither, from the start of the game `filters` names, as `lusoria tree --game` and the
        explorer start (`start_of_game`); naming none, the game and variant of most records.
        ValueError for a position no game reads, a record or ply the archive lacks, neither in an archive
        of no record with a legal ply (NoGameToStart), both, a `ply` without `from_id`, or a `depth` under 1; OptionError for a game or variant that choose no rules.
        `record`: the former name of `from_id`, taken until the next release with a DeprecationWarning
        (as `lusoria tree --record` is); given with `from_id`, a TypeError."""
        from_id = _from_id(from_id, record)
        if position is not None and from_id is not None:
            raise Refused("the tree starts from a position string or a record (from_id), not both")
        if ply and from_id is None:
            raise Refused(f"ply {ply} is a ply of the record of from_id: give from_id, or leave ply out")
        if position is None and from_id is None:
            rules, filters = self.start_of_game(filters)
            nodes = self.tree_from(rules, rules.initial(), filters, depth, variations, sort, min_games)
            started = nodes if not variations and min_games == 1 else self.tree_from(rules, rules.initial(), filters)
            self._tell_elsewhere(filters, sum(node.games for node in started))
            return nodes
        return self._tree(
            lambda conn: (
                read_positions_of(position, filters) if position is not None else [self._position(conn, from_id, ply)]
            ),
            filters,
            depth,
            variations,
            sort,
            min_games,
        )

    def start_of_game(self, filters: Filters | None) -> tuple[Game, Filters]:
        """The rules of the game `filters` names (`game`, or the one game of `variant`; `variant` by any
        name `lusoria explain` knows; none given, the game's variant of most records, on the board of
        `board` when given, told to `notes`; no game named, the game and variant of most records, told too),
        and `filters` with that game and variant. NoGameToStart (a ValueError) when the archive holds no record
        with a legal ply to choose from; OptionError (its
        tag `Game` or `Variant`) for a game or variant that choose no rules, or a variant of several
        games or none without a game."""
        filters_given(filters)
        if filters is None or not (filters.game or filters.variant):
            filters = self._game_told(filters or Filters())
        check_values(filters)
        named = filters.game or _game_of(filters.variant or "")
        try:
            game = GAMES[named.lower()]
        except (
            KeyError
        ) as unknown:  # (the registry's message: the games, and those most like it; a variant's name: the filters)
            said = variant_as_game(named, lambda tags: variant_filters(named, tags))
            raise OptionError(unknown.args[0] + said, "Game") from None
        board = board_size(filters.board) if filters.board is not None else None
        variant = filters.variant or self._variant_told(named, board)  # (a game none knows is said first)
        return self._rules_held(game, named, variant, board), replace(filters, game=named, variant=variant)

    def _tell_elsewhere(self, filters: Filters, started: int) -> None:
        """Tell `notes` how many of the records `filters` select (of one game and variant) played a legal
        ply from another position than the start that `started` of them played from, which a tree from
        that start leaves out (newcomer-56b: 17 records of Rules first=white, unsaid)."""
        sql, params = _repertoire(build(filters, ordered=False, columns="records.id"), filters)
        played = first_row(self.path, _PLAYED.format(ids=sql), params, self.timeout) or {"played": 0}
        elsewhere = played["played"] - started
        if elsewhere > 0:
            path = os.fspath(self.path)
            selected = _game_and_variant(filters.game or "", filters.variant)  # (not `tablut/aage`, h70b: as `stats`
            # counts, it leaves out the records a catalogue's entry names)
            self._tell(
                Note(
                    path,
                    f"the tree leaves out {elsewhere:,} of the {played['played']:,} records of {selected} in "
                    f"{literal(path)}, which start from another position (a Position tag, Rules such as "
                    "first=white, or a Board tag: --board): a tree from their position, or from one of them (its id), counts them",
                    ("Game", "Variant"),
                )
            )

    def _rules_held(self, game: type[Game], named: str, variant: str | None, board: str | None = None) -> Game:
        """The rules of `game` (`named`) and `variant`, on `board` where their own board is another and the game
        takes a Board tag (h80a: `--game latrunculi --board 16x4` started from the 8x8 start, its tree empty); of a
        variant lusoria does not know whose records the archive holds (given, or the one of most records), the
        OptionError says it may be one of a user's own catalogue, not read now (`users_variant_hint`)."""
        try:
            rules = rules_from_tags(game, game_tags(named, variant))
        except OptionError as problem:
            name = literal(os.fspath(self.path))  # (as its notes say it)
            hint = variant and problem.tag == "Variant" and self.users_variant_hint(named, variant, name)
            if not hint:
                raise
            hinted = OptionError(f"{problem}; {hint}", problem.tag, problem.written, problem.at, problem.known)
            hinted.also = problem.also
            raise hinted from None
        if board is None or rules.board_size() == board:
            return rules
        try:
            return rules_from_tags(game, game_tags(named, variant) | {"Board": board})
        except OptionError:  # (a game whose boards are its variants: the tree starts from the variant's)
            return rules

    def _game_told(self, filters: Filters) -> Filters:
        """`filters` with the game and variant of most records (of those the other `filters` select,
        `--board` or `--player`, when they select some), as the explorer opens, told to `notes`;
        NoGameToStart when the archive holds no record with a legal ply."""
        board = board_size(filters.board) if filters.board is not None else None
        chosen = [name for name, _ in selecting(filters)]
        held = self.most_selected(filters) if chosen else None
        found = held or self.most_recorded()
        if found is None:
            raise NoGameToStart(f"{NO_GAME_TO_START}: name a position, a record (and a ply), or a game")
        game, variant = found
        path = os.fspath(self.path)
        named = _game_and_variant(game, variant)
        on = "" if not held else f" on a board of {board}" if chosen == ["board"] else " the filters select"
        self._tell(Note(path, f"{named}: the game of most records{on} in {literal(path)}", ("Game", "Variant")))
        return replace(filters, game=game, variant=variant)

    def _variant_told(self, game: str, board: str | None) -> str | None:
        """The variant of most records of `game` (on `board`, when given; `variant_to_open`, on any
        board, when it holds none there), told to `notes` when there is one (a Note naming the setting:
        `Variant`): every game's tree starts from it."""
        held = self.most_recorded(game, board)
        found = self.variant_to_open(game) if held is None else held[1]
        if found is not None:
            path = os.fspath(self.path)  # (a Path given works as a str everywhere else)
            on = f" on a board of {board}" if board is not None and held is not None else ""
            chosen = f"{{Variant}} {literal(found)}: the variant of most records of {literal(game.lower())}{on}"
            self._tell(Note(path, f"{chosen} in {literal(path)}", ("Variant",)))
        return found

    def _tell(self, chosen: Note) -> None:
        """Tell `notes` what a call chose that it was not given (`start_of_game`); an Archive without
        `notes` warns it (ChosenWarning, at the call of `tree` or `start_of_game`), so that a library
        call says it as `lusoria tree` does."""
        if self.notes:
            self.notes(chosen)
        else:
            warnings.warn(str(chosen), ChosenWarning, stacklevel=_caller_level())

    def tree_from(
        self,
        rules: Game,
        position: Position,
        filters: Filters | None = None,
        depth: int = 1,
        variations: bool = False,
        sort: str = "games",
        min_games: int = 1,
    ) -> list[Node]:
        """`tree` from a position given by its game's rules and its value (the explorer's, which
        plays a line from the rules' start)."""
        return self._tree(lambda _: [(rules, position)], filters, depth, variations, sort, min_games)

    def _tree(
        self,
        starts: Callable[[sqlite3.Connection], list[tuple[Game, Position]]],
        filters: Filters | None,
        depth: int,
        variations: bool,
        sort: str,
        min_games: int,
    ) -> list[Node]:
        if sort not in SORTS:
            raise Refused(f"the tree is sorted by {' or '.join(SORTS)}, not {quoted(sort)}")
        depth = bounded(depth, "depth")  # (else no plies at all, as if none were played)
        min_games = bounded(min_games, "min_games")  # (else a ply of no game: none is in the tree, as --min-games says)
        self._existing()
        only = self._selected(filters)
        filters = filters or Filters()
        only = None if only is None else _repertoire(only, filters)
        player = player_condition("r.white", filters.player) if filters.player is not None else None
        conn = connect(self.path)
        watch = None
        try:
            with watched(conn, self.timeout) if self.timeout is not None else nullcontext() as watch:
                return tree(
                    conn,
                    starts(conn),
                    depth,
                    only,
                    variations,
                    filters.symmetric,
                    player,
                    sort,
                    min_games,
                    summable(filters, variations),
                )
        except sqlite3.DatabaseError as error:  # a damaged archive, a filter SQLite refuses, a timeout: one line
            if watch is not None and watch.interrupted:  # Ctrl-C
                raise KeyboardInterrupt from None
            if str(error) == "interrupted" and self.timeout:
                raise ReadOnlyError(
                    f"the move tree took longer than {self.timeout:g} s and was stopped", "timeout"
                ) from None
            raise refused(conn, self.path, error, self.timeout) from None
        except DamagedArchive as error:
            raise DamagedArchive(f"{self.path}: {error}") from None
        finally:
            conn.close()

    def _position(self, conn: sqlite3.Connection, record: int | None, ply: int) -> tuple[Game, Position]:
        """The rules of record `record` and its position after ply `ply`, from its text replayed
        (the archive's index of positions lists them by position, not by record); an id no record
        has said as `query --id` says it."""
        found = conn.execute(f"SELECT {STORED_TEXT} FROM records WHERE id = ?", [record]).fetchone()
        if not found and (lacking := self.id_lacking(record)):
            raise Refused(lacking)
        report = stored_report(*found) if found else None
        if found and report is None:  # (an unparsable CSV row, as the explorer's page of the record says it)
            raise Refused(
                f"record {record} is kept as written in {found[1]}, which cannot be replayed without its file"
            )
        if report is None or report.rules is None or not 0 <= ply < len(report.positions):
            shown = len(report.positions) - 1 if report and report.rules and report.positions else None
            stops = "" if shown is None else f": its replay stops {f'after ply {shown}' if shown else 'at its start'}"
            if report and not report.positions and report.diagnostics:  # (h73a: said as if it had no ply)
                first, what = report.stopped_by, "start" if report.rules else "rules"
                stops = f": its {what} could not be read ({first.rule}: {first.message})"
            raise Refused(f"the archive has no position after ply {ply} of record {record}{stops}")
        return report.rules, report.positions[ply]

    def merge_players(self, names: list[str], canonical: str) -> str:
        """`lusoria players merge`: `names` become other names of the player `canonical` (each name
        as a record writes it, spaces around it and all, else without them, as `Filters` takes a
        player's name); ValueError for no `names`."""
        if not names:
            raise Refused("give at least one NAME and the CANONICAL name")
        self._existing()
        db = open_archive(self.path, create_missing=False)
        try:
            return players.merge(db, names, canonical)
        finally:
            db.close()

    def canonical_player(self, name: str) -> str:
        """The name kept of the player `name` (as `merge_players` takes it) is another name of, else `name`."""
        self._existing()
        db = open_archive(self.path, create_missing=False)
        try:
            return players.canonical_of(db, name)
        finally:
            db.close()

    def unmerge_players(self, names: list[str]) -> list[dict[str, Any]]:
        """`lusoria players unmerge`: each of `names` a player of its own again, no longer another name
        of the player `merge_players` made it one of; the aliases removed (`alias`, `name`, as `aliases`
        lists them). NotAnAlias (a ValueError), nothing changed, for a name that is no other name of a
        player; ValueError for no `names`."""
        if not names:
            raise Refused("give at least one NAME")
        self._existing()
        db = open_archive(self.path, create_missing=False)
        try:
            return players.unmerge(db, names)
        finally:
            db.close()

    def unrecorded_players(self, names: list[str]) -> list[str]:
        """The names of `names` (as `merge_players` takes them) that no record of the archive writes
        (as White or Black, in any case of their ASCII letters): in a `players merge`, a name
        mistyped, or one to come."""
        self._existing()
        db = open_archive(self.path, create_missing=False)
        try:
            return players.unrecorded(db, names)
        finally:
            db.close()

    def players_lacking(self, filters: Filters | None) -> list[str]:
        """What to say of each player `filters` name (white, black, player) whom no record names
        under any of their names (`lusoria query --player Hagbrad` found none, unsaid): `no record
        names the player 'Hagbrad' (did you mean Hagbard?)`, with the names most like it."""
        named = [] if filters is None else [filters.white, filters.black, filters.player]
        lacking = [name for name in dict.fromkeys(named) if name and not self.query(Filters(player=name, limit=1))]
        if not lacking:
            return []
        db = open_archive(self.path, create_missing=False)
        try:
            written = players.names_written(db)
        finally:
            db.close()
        return [f"no record names the player {quoted(name)}" + meant_among(name, written) for name in lacking]

    def players(
        self, filters: Filters | None = None, top: int | None = None, sort: str = "score"
    ) -> list[dict[str, Any]]:
        """`lusoria players list`: the score table of the players (under their canonical names)
        in the records `filters` match, the most points first (`sort="games"`: the most games first;
        ValueError for another); its first `top` rows (all when None; ValueError below 1;
        FilterError for an `order` without a `limit`, which would change nothing)."""
        self._existing()
        selected = self._selected(_unlisted(filters, "the table is the same in any order"))
        return list(iter_sql(self.path, *players.score_table(selected, top, sort)))

    def crosstable(self, filters: Filters | None = None) -> list[dict[str, Any]]:
        """`lusoria players crosstable`: the score table (`players`) of the games between two players
        in the records `filters` match, each row with the player's games as White and as Black and
        their pairings (`opponents`: by opponent, in the order of the rows, the games, won, drawn,
        lost, unfinished and score against them). A game against no one named, or against oneself,
        is in none. FilterError for an `order` without a `limit`, which would change nothing."""
        self._existing()
        selected = self._selected(_unlisted(filters, "the table is the same in any order"))
        return players.crosstable_rows(iter_sql(self.path, *players.crosstable(selected)))

    def invalid_counted(self, filters: Filters | None = None, paired: bool = False) -> int:
        """How many invalid records of those `filters` match `players` counts (`paired`: `crosstable`),
        as their results say: a game with an illegal ply scores; `Filters(valid=True)` leaves them out."""
        self._existing()
        [counted] = iter_sql(self.path, *players.invalid(self._selected(filters), paired))  # (read to its end)
        return counted["invalid"]

    def own_games(self, filters: Filters | None = None) -> int:
        """How many records of those `filters` match are a game of a player against themselves (a study,
        `lusoria random`'s, two names of one player merged), in no total of `players` or `crosstable`."""
        self._existing()
        [counted] = iter_sql(self.path, *players.own_games(self._selected(filters)))  # (read to its end)
        return counted["own"]

    def aliases(self) -> list[dict[str, Any]]:
        """Every other name of a player, and the canonical name."""
        self._existing()
        db = open_archive(self.path, create_missing=False)
        try:
            return players.aliases(db)
        finally:
            db.close()

    def export(
        self,
        directory: str,
        format: str = "parquet",
        jobs: int = 1,
        filters: Filters | None = None,
        overwrite: bool = False,
    ) -> dict[str, int]:
        """`lusoria export`: the records `filters` match (all: None) as Parquet or CSV files in
        `directory`, with their rows of every table, each record replayed by `jobs` worker processes
        (archive/export.py), or (`jsonl`) as one file of JSON lines, a record a line; rows per file.
        NotADirectory when `directory` is a file; ValueError for another `format`; FilterError for an
        `order` without a `limit`, which would change nothing; NothingSelected when `filters` match no
        record, NotAnExport for a file there of the export's names that no export wrote, unless
        `overwrite` (nothing written)."""
        self._existing()
        alike = (
            "export writes the records by id in any order (to read them in one, sort the files, or use query --order)"
        )
        return export(self.path, directory, format, jobs, self._selected(_unlisted(filters, alike)), overwrite)


def _with_problems(summary: ImportSummary, problems: list[Problem]) -> ImportSummary:
    """`summary` of an import whose sources met `problems`: its `problems`, its `unreadable` and its `stray`."""
    summary.problems = problems
    unread = [problem for problem in problems if isinstance(problem, Unreadable)]
    summary.unreadable += [str(problem) for problem in unread if not problem.records_read]
    summary.stray += [str(problem) for problem in unread if problem.records_read]
    return summary


def _reports(items: Iterable[object]) -> Iterator[Report]:
    """The reports `import_reports` stores; TypeError for an item that is no Report."""
    for item in items:
        if not isinstance(item, Report):
            raise TypeError(
                f"import_reports stores Reports (lusoria.api.reports, check), not {type(item).__name__}"
                + (" (lusoria.api.validate's: give api.reports the same paths)" if isinstance(item, Verdict) else "")
            )
        yield item
