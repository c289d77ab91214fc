"""The formats of game records: one table (`FORMATS`), an entry (`Format`) a format, which the
directory walk, `--from`, `convert --to` and the messages of skipped files all read. A package
outside lusoria adds a format through the `lusoria.formats` entry point (a `Format`), or at run
time with `FORMATS.register`. The built-in formats are `BUILT_IN`'s entries, below (docs/formats.md
describes each).

Standard input, which has no name, is told by its first characters alone, for the formats
they tell unmistakably (`Format.unnamed`: otn, aage, tablut-challenge); JSON that none of them
takes, by the format of `.json` files (formats.sources); lgn else.

A format's entry is the one place where a reader names games: the names its files give them
(`Format.games`), each with the tags of its records.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from lusoria.errors import LusoriaError, Refused
from lusoria.formats.contract import handed_over, read_by_plug_in
from lusoria.notation.reader import RecordText
from lusoria.notation.sources import COMPRESSED, EXPORT, EXPORTED, STDIN, Packing, compressed
from lusoria.plugins import FAILS, failure, loaded, warn
from lusoria.words import quoted

if TYPE_CHECKING:
    from lusoria.validator.replay import Report

Reader = Callable[[str, str, "dict[str, str] | None"], Iterator[RecordText]]  # (text, path, tags) -> records
Writer = Callable[["Report"], str]  # a replayed record -> its text; ValueError when the format cannot hold it
ENTRY_POINTS = "lusoria.formats"


class HookFailed(LusoriaError):
    """A plug-in format's hook raised, or handed back what it must not (`Formats.answer`): its bug,
    said naming it."""


@dataclass(frozen=True)
class Format:
    """A format of game records. A file is of this format when its name ends with one of `named`,
    or with one of `suffixes` and its first characters pass `sniff` (when it has one)."""

    name: str  # as --from and convert --to name it
    suffixes: tuple[str, ...]  # how its files' names end, in lower case (the first: what convert writes)
    read: Reader | None = None  # None: lusoria's own notation, split as it streams (notation.reader)
    sniff: Callable[[str], bool] | None = None  # whether a file's first characters are in this format
    kind: str = ""  # what a file that `sniff` takes is, for the message of one it does not
    named: tuple[str, ...] = ()  # name endings that say this format whatever the file holds, in lower case
    write: Writer | None = None  # None: lusoria does not write it
    one_game: bool = False  # a file holds one game
    unnamed: Callable[[str], bool] | None = None  # whether a text with no file name (standard input) is in this
    # format by its first characters alone; None: only --from reads it there (lgn may start like it)
    games: Mapping[str, Mapping[str, str]] = field(default_factory=dict)  # what its files call a game (''
    # for a file that names none) -> the tags of its records (`Game`, `Variant`, `Rules`, …)
    why_refused: Callable[[str, list[str]], str] | None = None  # (a game type its reader refused, what the
    # reader said of its records) -> why they are refused, as the summary of a run says it (a plug-in's as it is; a
    # built-in's, a Note's template naming the settings as `{Game}`); None: the first said
    cannot_write: Callable[[Report], str | None] | None = None  # why the writer cannot hold a record, valid or not
    # (its game), said instead of its errors; None: the writer's ValueError says it of a valid record
    loses: Callable[[Report], str | None] | None = None  # what a record the writer holds loses where another
    # program reads it (options OTN's rules record cannot say), said in a note; None: nothing
    summed: tuple[str, ...] = ()  # suffixes (of `suffixes`) mostly of other programs' files (`.log`): those of a
    # directory that are in no format are skipped in one note, not one each
    ignored_lines: Callable[[str, int], set[int]] | None = None  # (a record's text, its first line in the file) ->
    # the lines its reader ignores: a byte that does not decode there costs no record, said of the file
    ignored: str = ""  # what such a line is, as that byte is said (`a % line`)
    ignored_place: Callable[[str, int, int, int], str | None] | None = None  # (a record's text, its first line,
    # the line and column of such a byte) -> what the byte is in, when `ignored` does not say it (a log's date)
    kin: tuple[str, ...] = ()  # suffixes of another program's files its own are saved as (lgn's: a PGN's .pgn),
    # in lower case, not read in a folder: the first such file skipped in a run says how to read one (`Formats.kin_of`:
    # renamed to its first suffix, which a format with kin must have)

    def __post_init__(self) -> None:
        for field_name in ("suffixes", "named", "kin"):
            endings = getattr(self, field_name)
            if not isinstance(endings, tuple) or not all(isinstance(ending, str) for ending in endings):
                raise Refused(f"the format {self.name}: {field_name} is a tuple of file endings, not {endings!r}")
        if capitals := [ending for ending in (*self.suffixes, *self.named, *self.kin) if ending != ending.lower()]:
            endings = ", ".join(capitals)
            raise Refused(f"the format {self.name}: {endings}: a file ending is in lower case, as names are compared")
        if self.kin and not self.suffixes:
            raise Refused(
                f"the format {self.name}: kin {self.kin!r}: it has no suffix of its own to rename such a file to"
            )

    def endings(self) -> tuple[str, ...]:
        """How its files' names end, as the message of a skipped file lists them: its suffixes, and
        its `named` endings that none of them ends (`*_game.moves`)."""
        return (*self.suffixes, *(f"*{ending}" for ending in self.named if not ending.endswith(self.suffixes)))

    def takes(self, name: str, head: str) -> bool:
        """Whether a file of this (lower-case) name whose first characters are `head` is of this format."""
        return name.endswith(self.named) or name.endswith(self.suffixes) and (self.sniff is None or self.sniff(head))


def imported_on_call(module: str, name: str) -> Callable[..., Any]:
    """A function of a module imported when first called (a built-in format's reader, sniffer
    or writer: `validate` of lgn files imports no other format's reader)."""

    def call(*args: Any) -> Any:
        return getattr(import_module(module), name)(*args)

    return call


class GamesImportedOnUse(Mapping[str, Mapping[str, str]]):
    """A format's `games` made when first asked, by a function of a module imported then (the
    aagenielsen.dk game types and OpenTafl's variants: the catalogue of tafl game types)."""

    def __init__(self, module: str, name: str) -> None:
        self._module, self._name = module, name
        self._games: Mapping[str, Mapping[str, str]] | None = None

    def _all(self) -> Mapping[str, Mapping[str, str]]:
        if self._games is None:
            self._games = getattr(import_module(self._module), self._name)()
        return self._games

    def __getitem__(self, name: str) -> Mapping[str, str]:
        return self._all()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())


def unnamed_as_sniffed(entry: Format) -> Format:
    """`entry`, telling a text with no file name (standard input) by its first characters as it
    tells a file of its suffixes (`unnamed` is `sniff`): for a format that no lgn text starts like."""
    return replace(entry, unnamed=entry.sniff)


BUILT_IN = (
    Format(
        "lgn",
        (".lgn",),
        write=imported_on_call("lusoria.formats.lgn", "write_lgn"),
        ignored_lines=imported_on_call("lusoria.notation.escapes", "escape_line_numbers"),
        ignored="a % line",
        kin=(".pgn",),  # chess's notation, whose tag pairs and movetext lgn's are written like
    ),
    Format(
        "otn",
        (".otg", ".otn"),  # OpenTafl saves .otg; .otn, the notation's name, is what a user may call convert's output
        imported_on_call("lusoria.formats.otn", "read_otn"),
        write=imported_on_call("lusoria.formats.otn_writer", "write_report"),
        cannot_write=imported_on_call("lusoria.formats.otn_writer", "refusal"),
        loses=imported_on_call("lusoria.formats.otn_writer", "loss"),
        one_game=True,
        unnamed=imported_on_call("lusoria.formats.otn", "looks_like_otn"),
        games=GamesImportedOnUse("lusoria.validator.hnefatafl", "opentafl_variants"),
    ),  # the catalogue's OpenTafl variants
    Format(
        "tafl",
        (".txt",),
        imported_on_call("lusoria.formats.tafl", "read_move_lists"),
        imported_on_call("lusoria.formats.tafl", "looks_like_move_lists"),
        "tafl move lists",
        games={"": {"Game": "tablut", "Variant": "aage"}},
    ),  # plain move lists: the site's Saami Tablut
    unnamed_as_sniffed(
        Format(
            "aage",
            (".json",),
            imported_on_call("lusoria.formats.aage", "read_aage"),
            imported_on_call("lusoria.formats.aage", "looks_like_aage"),
            "an aagenielsen.dk scrape (no AageGameTypeName in the first 4,096 characters)",
            games=GamesImportedOnUse("lusoria.validator.hnefatafl", "aagenielsen_types"),
            why_refused=imported_on_call("lusoria.formats.aage", "why_refused"),
        )
    ),  # the catalogue's types
    unnamed_as_sniffed(
        Format(
            "tablut-challenge",
            (".txt", ".log"),
            imported_on_call("lusoria.formats.tablut_challenge", "read_log"),
            imported_on_call("lusoria.formats.tablut_challenge", "looks_like_log"),
            "a Tablut Challenge game log",
            named=("_gamelog.txt",),
            one_game=True,
            summed=(".log",),  # a folder of a server's output: its other logs beside the games'
            ignored_lines=imported_on_call("lusoria.formats.tablut_challenge", "noise_lines"),
            ignored="a line of the log's noise (no move, board, player or result)",
            ignored_place=imported_on_call("lusoria.formats.tablut_challenge", "date_place"),
            games={"": {"Game": "tablut", "Variant": "ashton", "Event": "Tablut Challenge"}},
        )
    ),
    Format(
        "csv",
        (".csv",),
        imported_on_call("lusoria.formats.tafl", "read_csv"),
        imported_on_call("lusoria.formats.tafl", "looks_like_csv"),
        "a tafl move list (moves,defenders lost,attackers lost,status)",
    ),
)


class Formats(Mapping[str, Format]):
    """Format name -> Format, in the order a file's format is looked for: the built-in formats,
    then those of the `lusoria.formats` entry points (read when first needed: a file that a
    built-in format takes by its name needs none; a broken one left out, said in a warning:
    lusoria.plugins), then those registered."""

    def __init__(self, built_in: tuple[Format, ...]):
        self._built_in = {entry.name: entry for entry in built_in}
        self._registered: dict[str, Format] = {}
        self._found: dict[str, Format] | None = None  # the entry points', once read
        self._failed: set[tuple[str, str]] = set()  # (plug-in, hook) whose failure a warning said, once

    def _all(self) -> dict[str, Format]:
        if self._found is None:
            found = loaded(ENTRY_POINTS, lambda value: isinstance(value, Format), "a Format")
            self._found = {entry.name: entry for entry in cast("list[Format]", list(found.values()))}
        return {
            **self._built_in,
            **{name: entry for name, entry in self._found.items() if name not in self._built_in},
            **self._registered,
        }

    def __getitem__(self, name: str) -> Format:
        if name in self._registered:
            return self._registered[name]
        return self._built_in[name] if name in self._built_in else self._all()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())

    def is_built_in(self, name: str) -> bool:
        """Whether the format `name` is lusoria's own, not a plug-in's (an entry point's, or registered)."""
        return name in self._built_in and name not in self._registered

    def register(self, entry: Format) -> Format:
        """Add a format (or replace the one of its name)."""
        self._registered[entry.name] = entry
        self._failed = {failed for failed in self._failed if failed[0] != entry.name}
        return entry

    def unregister(self, name: str) -> None:
        """Remove a registered format (a built-in one stays)."""
        self._registered.pop(name, None)
        self._failed = {failed for failed in self._failed if failed[0] != name}

    def of(self, path: str, head: str = "") -> Format | None:
        """The format of a file from its name, then (when its name does not say) its first
        characters; of standard input (`-`), from its first characters alone, for the formats
        they tell unmistakably (`Format.unnamed`); None when it is none of these formats."""
        if path == STDIN:
            unnamed = (entry for entry in self.values() if entry.unnamed)
            return next((entry for entry in unnamed if self._asked(entry, entry.unnamed, head)), None)
        name = Path(path).name.lower()
        for entry in (self[built_in] for built_in in self._built_in):
            if name.endswith(entry.named) or entry.sniff is None and name.endswith(entry.suffixes):
                return entry
        return next((entry for entry in self.values() if self._asked(entry, entry.takes, name, head)), None)

    def _asked(self, entry: Format, question: Callable[..., bool] | None, *args: str) -> bool:
        """`question(*args)` of `entry` (whether it takes a file); a plug-in's that raises (but a
        MemoryError) is False, said in one warning (a plug-in's bug: the other formats still tell their files)."""
        try:
            return bool(question and question(*args))
        except FAILS as error:
            if self.is_built_in(entry.name) or isinstance(error, MemoryError):
                raise
            asked = entry.unnamed if question is entry.unnamed else entry.sniff
            self._warn_once(entry, "sniff", f"takes no file by its first characters: {failure(asked, error)}")
            return False

    def _warn_once(self, entry: Format, hook: str, why: str) -> None:
        """One warning that the plug-in format `entry` fails at `hook`, the first time it does."""
        if (entry.name, hook) not in self._failed:
            self._failed.add((entry.name, hook))
            warn(f"the plug-in format '{entry.name}' {why}")

    def answer(
        self,
        entry: Format,
        hook: str,
        args: tuple[object, ...],
        text_or_none: bool = True,
        kind: tuple[type, str] = (str, "a text"),
    ) -> Any:
        """What the function of `entry`'s field `hook` (`write`, `cannot_write`, `loses`, `why_refused`,
        `ignored_lines`, `ignored_place`) answers to `args`: a text, or what `kind` says (its type, its words), or None, with
        `text_or_none`; None when it has none. A plug-in's that
        raises (but the writer's ValueError, its refusal of a record, and a MemoryError) or hands back
        something else: HookFailed, which names it (its bug, not lusoria's internal error)."""
        function = getattr(entry, hook)
        if function is None or self.is_built_in(entry.name):
            return function(*args) if function else None
        what = f"the {entry.name} writer" if hook == "write" else f"the {entry.name} format's {hook}"
        try:
            answer = function(*args)
        except FAILS as error:
            if isinstance(error, MemoryError) or hook == "write" and isinstance(error, ValueError):
                raise  # too large (as from any hook); the writer's refusal of a record (convert says it)
            raise HookFailed(f"{what} failed: {failure(function, error)}") from error
        if not isinstance(answer, kind[0]) and (answer is not None or not text_or_none):
            raise HookFailed(
                f"{what} handed back a {type(answer).__name__}, not {kind[1]}{' or None' if text_or_none else ''}"
            )
        return answer

    def said(self, entry: Format, hook: str, args: tuple[object, ...], text_or_none: bool = True) -> str | None:
        """`answer`, or, for a plug-in's hook that failed, what went wrong."""
        try:
            return cast("str | None", self.answer(entry, hook, args, text_or_none))
        except HookFailed as failed:
            return str(failed)

    def games_of(self, entry: Format) -> Mapping[str, Mapping[str, str]]:
        """`entry.games`; none for a plug-in's that is no mapping of names to tags (texts), said in one warning."""
        if self.is_built_in(entry.name):
            return entry.games
        try:
            if _names_tags(entry.games):
                return entry.games
            why = f"its games are a {type(entry.games).__name__} that is not"
        except FAILS as error:
            why = f"its games, {failure(type(entry.games), error)}, are not"
        self._warn_once(entry, "games", f"names no game: {why} a mapping of names to their tags (texts)")
        return {}

    def sniffed(self, path: str) -> bool:
        """Whether a file's first characters may say its format (its name alone does not)."""
        name = Path(path).name.lower()
        return any(entry.sniff is not None and name.endswith(entry.suffixes) for entry in self.values())

    def said_by_content(self, path: str) -> bool:
        """Whether what `why_not` says of a file of this name speaks of what it holds (a format's
        suffix whose first characters are looked at, a compressed file's): one that cannot be read
        (a link that leads nowhere) is read, to say so, not said to hold what it does not."""
        return self.sniffed(path) or _packing(path) is not None

    def summed(self, path: str) -> bool:
        """Whether a file that no format takes is said with the others of its kind in one note (`Format.summed`)."""
        name = Path(path).name.lower()
        return any(name.endswith(entry.summed) for entry in self.values() if entry.summed)

    def why_not(self, path: str, format: str | None = None, count: int = 1, head: str = "") -> str:
        """Why a file that `of` (or, with a forced `format`, its name) does not take is skipped (`count`
        files of its suffix: why they are), and, for one such file, or one of no
        suffix (or, forced, any), whose first characters, `head`, are of another format (an OTN game
        saved as .txt, a scrape saved without its .json), the name to give it."""
        suffix = Path(path).suffix.lower()
        if EXPORTED.match(head.encode()):  # (as when it is given by its own path: `not_read`)
            return EXPORT
        if format is not None:
            forced = f"not a {' or '.join(self[format].suffixes)} file, as {format} files are"
            return forced + self._renamed(head, suffix)
        kinds = [entry.kind for entry in self.values() if entry.sniff is not None and suffix in entry.suffixes]
        if kinds:
            if count > 1:
                return f"{count} {suffix} files, none of them {' or '.join(kinds)}"
            why = f"a {suffix} file that is {'neither ' if len(kinds) > 1 else 'not '}{' nor '.join(kinds)}"
            return why + self._renamed(head, suffix)
        packed = _packing(path)
        if packed:
            return compressed(packed)
        endings = ", ".join(dict.fromkeys(ending for entry in self.values() for ending in entry.endings()))
        if count > 1:
            return f"{count} {suffix} files, none of them a record file ({endings})"
        return f"not a record file ({endings})" + self._renamed(head, suffix)

    def kin_of(self, path: str) -> str:
        """What is said of a folder's file skipped whose suffix is another program's that a format's
        files are saved as (`Format.kin`: `game.pgn`): how to read one; "" for another file."""
        suffix = Path(path).suffix.lower()
        entry = next((entry for entry in self.values() if suffix in entry.kin), None)
        if entry is None:
            return ""
        return (
            f"; a folder's {suffix} files are not read: one written in {entry.name} is, renamed {entry.suffixes[0]}, "
            "and any file given by its own path is read by what it holds (said once)"
        )

    def _renamed(self, head: str, suffix: str) -> str:
        """What a skipped file's first characters say of the name to give it: of a format that tells
        its texts by them alone (`Format.unnamed`), as standard input's, or else of another suffix
        than the file's `suffix` (`sniffing`: a CSV file saved as .txt), or of lgn, whose records a
        `Game` tag line begins (a transcription saved as .txt), the format and its suffix; "" for none."""
        entry = self.starts_as(head, suffix)
        return f"; it starts as {entry.name} files do: name it {entry.suffixes[0]}" if entry else ""

    def starts_as(self, head: str, suffix: str) -> Format | None:
        """The format whose files start as these first characters, `head`, do: one they tell alone, as
        standard input's, or else one of another suffix than `suffix` (`sniffing`), or else lgn, by a
        `Game` tag line; None for none (a README's prose)."""
        entry = (self.of(STDIN, head) or self.sniffing(head, suffix)) if head.strip() else None
        return self["lgn"] if entry is None and _GAME_TAG.search(head) else entry

    def sniffing(self, head: str, suffix: str) -> Format | None:
        """The format of other suffixes than `suffix` whose `sniff` takes a text of these first
        characters (a CSV file saved as .txt: csv), if any."""
        others = (entry for entry in self.values() if entry.sniff is not None and suffix not in entry.suffixes)
        return next((entry for entry in others if self._asked(entry, entry.sniff, head)), None)


_GAME_TAG = re.compile(r'^[ \t]*\[Game[ \t]+"', re.M)  # an lgn record's Game tag, on a line of its own


def _packing(path: str) -> Packing | None:
    """The compression a file's name says (`.gz`), if any."""
    suffix = Path(path).suffix.lower()
    return next((how for how in COMPRESSED.values() if how.suffix == suffix), None)


def _names_tags(games: object) -> bool:
    """Whether `games` maps texts to tags (a format's `games`)."""
    return isinstance(games, Mapping) and all(isinstance(name, str) and _tags(tags) for name, tags in games.items())


def _tags(tags: object) -> bool:
    """Whether `tags` maps texts to texts."""
    return isinstance(tags, Mapping) and all(isinstance(n, str) and isinstance(v, str) for n, v in tags.items())


FORMATS = Formats(BUILT_IN)


def format_of(path: str, head: str = "") -> str | None:
    """The name of a file's format (`Formats.of`); None when it is none of lusoria's formats."""
    found = FORMATS.of(path, head)
    return found.name if found else None


def format_named(format: str) -> Format:
    """The format a `format` argument (`--from`) names; a ValueError that lists the formats lusoria reads
    when it names none (`validate(paths, format="pgn")` raised KeyError: 'pgn' from a folder's walk)."""
    if format not in FORMATS:
        raise Refused(f"unknown format {quoted(format)} (known: {', '.join(FORMATS)})")
    return FORMATS[format]


def why_not(path: str, format: str | None = None) -> str:
    return FORMATS.why_not(path, format)


def read_text(text: str, format: str, path: str, tags: dict[str, str] | None = None) -> Iterator[RecordText]:
    """The records of a whole text in a format other than lgn, as its reader hands them over,
    checked against the readers' contract (lusoria.formats.contract). `tags` (Game, Variant, Rules)
    choose the game and rules of records whose files do not say them."""
    reader = format_named(format).read
    if reader is None:
        raise Refused(f"{format} records are split as they stream (notation.reader.split_records), not read whole")
    if FORMATS.is_built_in(format):
        return handed_over(reader(text, path, tags), format, path, text)
    return handed_over(read_by_plug_in(reader, format, text, path, tags), format, path, text)
