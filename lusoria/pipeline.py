"""The one way from paths to reports: paths expanded (directories walked, formats found by
lusoria.formats), each source read in its format (formats.sources), each record checked
(validator.replay). A source that cannot be read, and a file of a directory in none of
lusoria's formats, come as typed items of the stream (`Problem`: `Skipped` or `Unreadable`,
each with its `.path`), in their place, and the other sources go on. lusoria.workers spreads
the checking over worker processes, the stream's order kept."""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping
from functools import partial
from typing import TypeGuard, TypeVar

from lusoria.errors import Refused
from lusoria.formats import FORMATS
from lusoria.formats.contract import TYPE_TAG
from lusoria.formats.sources import EMPTY, EMPTY_INPUT, read_sources, stream_name, walk
from lusoria.notation.model import Record
from lusoria.notation.reader import RecordText, names_a_game, standing_in
from lusoria.notation.slips import tag_meant
from lusoria.notation.sources import (
    STDIN,
    TEXT_NAME,
    InputError,
    LineTooLong,
    Note,
    Problem,
    Skipped,
    Source,
    Unreadable,
    garbled_by,
    is_text,
    literal,
    shown_path,
    shown_place,
)
from lusoria.notation.syntax import TAG_NAME
from lusoria.validator.replay import Report, check
from lusoria.words import NAME_QUOTED, escaped_name, first_few, plural, quoted
from lusoria.workers import in_workers

T = TypeVar("T")
__all__ = [
    "Note",
    "Problem",
    "Skipped",
    "Unreadable",
    "found",
    "files_named",
    "size",
    "records",
    "notes_on",
    "reports",
    "without_problems",
]


def found(paths: Iterable[Source], format: str | None = None, encoding: str = "utf-8") -> list[Source | Skipped]:
    """The sources `paths` name, directories walked (`walk`; `format` forces a format; `encoding`
    decodes a file's first bytes, which may tell its format), once: `records` takes them as they are."""
    return list(walk(paths, format, encoding))


def size(sources: Iterable[Source | Skipped]) -> int:
    """The bytes on disk of the files among `sources`: what `records` tells `progress` in all."""
    return sum(
        os.path.getsize(path) for path in sources if isinstance(path, (str, os.PathLike)) and os.path.isfile(path)
    )


def records(
    paths: Iterable[Source | Skipped],
    encoding: str = "utf-8",
    format: str | None = None,
    tags: dict[str, str] | None = None,
    progress: Callable[[int], None] | None = None,
    leave_out: str | None = None,
    encodings: Mapping[str, str] | None = None,
) -> Iterator[RecordText | Problem]:
    """Every record of `paths` (files, directories, `-`, streams or text), in order, with a
    Problem in its place for each source that cannot be read or is skipped. `format` forces
    a format (lusoria.formats); `tags` (Game, Variant, Rules) choose the game and rules of
    records whose files do not say them; `progress` is told the bytes of each file as they
    are read (they add up to `size`); a file of blanks at most, in any format, is a Skipped (`EMPTY`);
    the folder `leave_out` is not read, though below a directory given (`walk`); `encodings`: the
    encoding of each file read with another than `encoding`, by its path as `walk` gives it.
    Notes (`ReadingNotes`) come last. ValueError, as the first item is read, for a tag of `tags` that is no tag name, or a slip
    of one NOTATION.md names (`game`: h81a, read as a tag of its own, the records' game not chosen, unsaid)."""
    for name in tags or {}:
        if not re.fullmatch(TAG_NAME, name):
            raise Refused(f"tags: {quoted(name)} is no tag name (ASCII letters, digits and _, from a letter)")
        if meant := tag_meant(name):
            raise Refused(f"tags: {quoted(name)} is no tag lusoria reads: did you mean {meant}?")
    notes = ReadingNotes(tags or {})
    tags = notes.chosen or None
    as_utf8: list[str] = []  # the files of JSON read as UTF-8, not in `encoding`
    garbled: list[str] = []  # the files of UTF-8 read in a single-byte `encoding`, as asked (`garbled_by`)
    for path in walk(paths, format, encoding, leave_out):
        if isinstance(path, Skipped):
            yield path
            continue
        blank: list[Skipped] = []  # the note of a source that held blanks at most, once read
        read = False
        try:
            read_with = (
                (encodings or {}).get(os.fspath(path), encoding) if isinstance(path, (str, os.PathLike)) else encoding
            )
            if _names_a_file(path) and garbled_by(path, read_with):
                garbled.append(literal(shown_path(_place(path))))
            for record in read_sources(
                path,
                read_with,
                format,
                tags,
                progress,
                partial(blank.append, empty_note(path)),
                partial(as_utf8.append, literal(shown_path(_place(path)))),
            ):
                notes.read(record)
                read = True
                yield record
            yield from blank
        except InputError as error:  # (a line too long: the records before it read, the rest not: unreadable)
            too_long = isinstance(error, LineTooLong)
            yield Unreadable.of(_place(path), error, records_read=read and not too_long, some_read=read and too_long)
    yield from notes.said()
    if garbled := [name for name in garbled if name not in as_utf8]:  # (JSON is read as UTF-8 all the same)
        yield Note(
            "",
            f"{plural(len(garbled), 'file')} read with {{encoding}} {literal(encoding)}, as asked, "
            f"{'is' if len(garbled) == 1 else 'are'} UTF-8 ({first_few(garbled)}): "
            f"{'its' if len(garbled) == 1 else 'their'} letters beyond ASCII read wrong (ø as Ã¸); "
            "read the files that need it alone with it",
            ("encoding",),
        )
    if as_utf8:
        yield Note(
            "",
            f"{plural(len(as_utf8), 'file')} of JSON read as UTF-8, as JSON is written, not with {{encoding}} "
            f"{literal(encoding)} ({first_few(as_utf8)})",
            ("encoding",),
        )


def empty_note(source: Source) -> Skipped:
    """The note of a source that held blanks at most (standard input's says so)."""
    return Skipped(_place(source), EMPTY_INPUT if source == STDIN else EMPTY)


def _place(source: Source) -> str:
    """What an Unreadable names a source by: its path (a Path's whole, not its `name`), a stream's
    name (`<stream>` for one without), or `<text>` for records given as their text (h81a: named by the whole text,
    whose surrogate alone, `"\\ud800"` of JSON, stopped an import with a UnicodeEncodeError)."""
    if is_text(source):
        return TEXT_NAME
    if isinstance(source, (str, os.PathLike)):
        return os.fsdecode(source)
    return stream_name(source)


def _names_a_file(source: Source) -> TypeGuard[str | os.PathLike[str]]:
    """Whether a source is a file's path (not `-`, standard input, nor records' text)."""
    return isinstance(source, (str, os.PathLike)) and os.fspath(source) != STDIN and not is_text(source)


READING_SETTINGS = ("Game", "Variant", "Rules")  # the tags given that choose the rules of records (`tags`)
APPLIED_TO = (  # a Note's template (`{Game}`: the setting, as its caller names it)
    "{Game} applies to tafl move lists, CSV files, aagenielsen.dk games of a type lusoria does not "
    "know or play, and lgn records with no Game tag; {Variant} and {Rules} alone, to move lists that do not name "
    "their game (by their file names or a header), and with {Game}, to all of those"
)
WHERE_APPLIED = f"their files say their game and rules ({APPLIED_TO})"
IN_LGN_TAGS = (  # (they stand in for those of an lgn record with no Game tag: `standing_in`)
    f'lgn records say their game and rules in their own tags, [Game "…"] first, which these settings do not '
    f"replace: they stand in for them only in a record with no Game tag ({APPLIED_TO})"
)
IN_OWN_TAGS = (  # of an lgn record with no Game tag, given {Game}, that writes its own {Variant} or {Rules} (h82b)
    "lgn records keep the tags they write themselves, which these settings do not replace: they stand in only for "
    f"the tags a record with no Game tag does not write ({APPLIED_TO})"
)
WITHOUT_GAME = (  # of an lgn record with no Game tag given {Variant} or {Rules} alone (reviewer-56)
    "these settings name the rules of a game, which a record with no Game tag does not say: give {Game} too, or begin "
    f'the record with a Game tag ([Game "…"]; {APPLIED_TO})'
)


def reading_tags(tags: dict[str, str]) -> dict[str, str]:
    """The tags that choose the rules of records whose files do not say them (Game, Variant, Rules:
    the `tags` of `records`, `validate`…; --game, --variant, --rules), their Variant by any name
    `lusoria explain` knows (lusoria.variants.reading_tags): `Tyr 15x15` is hnefatafl's tyr-15x15,
    its Game with it when none is given; saami-tablut-w is Tablut's aage with Rules first=white.
    Any other Variant, or one of another game than the Game given, stays as written."""
    if not tags.get("Variant"):
        return tags
    from lusoria.variants import reading_tags as as_explained  # (the names of every variant: only for a Variant)

    return as_explained(tags)


class ReadingNotes:
    """What `records` says at the end of the records it read: each option (`tags`) that some
    files' records do not follow, by format (their files say their game and rules themselves);
    how many records of each game type a reader refused (a record without a Game tag, its type
    its `TYPE_TAG`: lusoria.formats.contract), and why, as their format says it
    (`Format.why_refused`) from what the reader said of them, or else as the reader said it."""

    def __init__(self, tags: dict[str, str]) -> None:
        self.tags = tags
        self.chosen = reading_tags(tags)  # (what the readers apply: the Variant by any name `explain` knows)
        self.unapplied: dict[tuple[str, tuple[str, ...], str], dict[str, None]] = {}  # (format, tags, why) -> the paths
        self.applied: set[str] = set()  # the paths of the records that follow every tag given
        self.refused: dict[tuple[str, str], int] = {}  # (format, game type) -> records
        self.why: dict[tuple[str, str], dict[str, None]] = {}  # (format, game type) -> what its reader said

    def read(self, record: RecordText) -> None:
        parsed = record.parsed
        if isinstance(parsed, Record) and not parsed.game and TYPE_TAG in parsed.tags:
            refused = (record.format, parsed.tags[TYPE_TAG])
            self.refused[refused] = self.refused.get(refused, 0) + 1
            said = self.why.setdefault(refused, {})
            if message := next((problem.message for problem in record.problems if problem.rule == "tag"), ""):
                said[message] = None
        applied = self._applied(record)
        unapplied, place = tuple(tag for tag in self.tags if tag not in applied), shown_place(record.path)
        if unapplied:
            untagged = record.format == "lgn" and not names_a_game(record.text)
            tagged = IN_OWN_TAGS if untagged else IN_LGN_TAGS  # (h82b: said to have a Game tag it lacks)
            why = (
                (WITHOUT_GAME if untagged and "Game" not in self.tags else tagged)
                if record.format == "lgn"
                else WHERE_APPLIED
            )
            self.unapplied.setdefault((record.format, unapplied, why), {})[place] = None
        else:
            self.applied.add(place)

    def _applied(self, record: RecordText) -> tuple[str, ...]:
        """The tags given that are the record's: those its lgn text lacks (`standing_in`), or those its
        reader applied (or wrote the same, or refused them)."""
        if record.format == "lgn":
            return standing_in(record)
        parsed = record.parsed
        return tuple(
            tag
            for tag in self.tags
            if not isinstance(parsed, Record) or parsed.tags.get(tag, "").lower() == self.chosen.get(tag, "").lower()
        )

    def said(self) -> Iterator[Note]:
        for (format, tags, why), paths in self.unapplied.items():
            settings = " and ".join(f"{{{tag}}} {literal(self.tags[tag])}" for tag in tags)
            yield Note(
                next(iter(paths)),
                f"{settings} {'is' if len(tags) == 1 else 'are'} not applied to "
                f"{'the' if self.applied.isdisjoint(paths) else 'some'} records "  # (an lgn file's with no Game tag took them)
                f"of {literal(files_named(paths, format))}: {why}",
                tuple(dict.fromkeys((*READING_SETTINGS, *tags))),  # (a library's `tags` may hold any tag)
            )
        for (format, kind), count in self.refused.items():
            refused = f"{plural(count, 'record')} of type {literal(quoted(kind, NAME_QUOTED))} refused: {self._why(format, kind)}"
            yield Note("", refused, READING_SETTINGS)

    def _why(self, format: str, kind: str) -> str:
        """Why records of type `kind` are refused, as a Note's template: a built-in format's
        `why_refused` writes one (naming the settings as `{Game}`), a plug-in's text is one literally."""
        said = list(self.why[format, kind])
        entry = FORMATS.get(format)
        if entry and entry.why_refused:
            why = FORMATS.said(entry, "why_refused", (kind, said), text_or_none=False) or ""
            return why if FORMATS.is_built_in(format) else literal(why)
        return literal(next(iter(said), ""))


def files_named(paths: Collection[str], kind: str) -> str:
    """How a note names the files it is about: their count, and the first three (`3 tafl files (a, b, c)`)."""
    return f"{plural(len(paths), kind + ' file')} ({first_few(map(escaped_name, paths))})"


def notes_on(record: RecordText, tags: dict[str, str] | None = None) -> list[Note]:
    """What `records` says of one record read alone (`show`, `html`): the reading options (`tags`)
    it does not follow, and why its game type is refused and how it may be read."""
    notes = ReadingNotes(tags or {})
    notes.read(record)
    return list(notes.said())


def reports(
    paths: Iterable[Source | Skipped],
    encoding: str = "utf-8",
    format: str | None = None,
    tags: dict[str, str] | None = None,
    progress: Callable[[int], None] | None = None,
    keep: bool = True,
    leave_out: str | None = None,
    jobs: int = 1,
    keep_going: bool = False,
) -> Iterator[Report | Problem]:
    """`records`, each checked (`check`; `keep` and `keep_going`: as there), by `jobs` worker
    processes (`lusoria validate --jobs --keep-going`: `validate` gives each record's Verdict), in order."""
    read = records(paths, encoding, format, tags, progress, leave_out)
    return in_workers(partial(check, keep=keep, keep_going=keep_going), read, jobs)


def without_problems(
    items: Iterable[T | Problem], problems: list[Problem], told: Callable[[Problem], None] | None = None
) -> Iterator[T]:
    """The items of a stream that are not problems; those go to `problems`, and are `told` as they come."""
    for item in items:
        if isinstance(item, Problem):
            problems.append(item)
            if told is not None:
                told(item)
        else:
            yield item
