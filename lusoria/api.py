"""The library calls behind the CLI commands: each command is one of these."""

from __future__ import annotations

import codecs
import inspect
import io
import numbers
import os
import random
import re
import reprlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from functools import partial, wraps
from pathlib import PurePath, PurePosixPath
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar, cast

from lusoria import build
from lusoria.errors import DataError, LusoriaError, Refused, place_of
from lusoria.files import OutputDir, Written
from lusoria.formats import FORMATS
from lusoria.formats.convert import Converted, InputsOfOneName, OutputAmongInputs, convert, file_name, inputs_folders
from lusoria.formats.convert import targets as target_formats
from lusoria.formats.lgn import lgn_text
from lusoria.formats.sources import NoSuchRecord, given, read_sources, readable_records, record_at, whole_file
from lusoria.notation.escapes import as_lines, escape_lines
from lusoria.notation.model import Line, Ply, Record
from lusoria.notation.reader import (
    STDIN_ADVICE,
    STDIN_NAME,
    RecordText,
    escapes_in,
    is_ply,
    parse_record,
    result_written,
    split_records,
)
from lusoria.notation.slips import RESULTS
from lusoria.notation.sources import (
    STDIN,
    InputError,
    Note,
    Problem,
    Skipped,
    Source,
    Unreadable,
    decoded_text,
    fs_path,
    garbled_by,
    head_text,
    names_a_file,
    shown_path,
    shown_place,
)
from lusoria.notation.syntax import TAG_NAME, Undecodable
from lusoria.notation.visitor import PlyKey
from lusoria.notation.writer import write_record
from lusoria.output import located, unreplayable
from lusoria.pipeline import (
    ReadingNotes,
    empty_note,
    files_named,
    found,
    notes_on,
    reading_tags,
    records,
    reports,
    size,
    without_problems,
)
from lusoria.validator.base import (
    BLACK,
    SIDE_NAMES,
    WHITE,
    BoardNotTaken,
    Game,
    Illegal,
    NotAPly,
    OptionError,
    already_over,
    sides_glossed,
)
from lusoria.validator.fit import Fit, Proposal, fitting_rules, names_no_variant, proposals
from lusoria.validator.games import GAMES, NAMED_TAGS, game_class, known_games, name_given, rules_from_tags
from lusoria.validator.replay import ERROR, Diagnostic, Moves, Report, Verdict, canonical_text, resaid
from lusoria.validator.replay import check as check_text
from lusoria.words import CALLER, PAGE, Reader, listed, problem_said
from lusoria.workers import WorkerLost, in_workers, mapped

P = ParamSpec("P")
R = TypeVar("R")

if TYPE_CHECKING:
    from lusoria.archive.duplicates import Duplicate
    from lusoria.html import PublishedPage
    from lusoria.rulebook import Rule

__all__ = [
    "ERROR",
    "LusoriaError",
    "Refused",
    "FORMATS",
    "source_formats",
    "target_formats",
    "known_games",
    "variant_owners",
    "rules_from_tags",
    "RecordText",
    "without_problems",
    "Diagnostic",
    "InputError",
    "OptionError",
    "BoardNotTaken",
    "Note",
    "Problem",
    "Report",
    "Moves",
    "Skipped",
    "Unreadable",
    "Verdict",
    "WorkerLost",
    "STDIN",
    "STDIN_ADVICE",
    "names_a_file",
    "shown_path",
    "shown_place",
    "decoded_text",
    "GAMES",
    "found",
    "files_named",
    "size",
    "records",
    "reports",
    "check",
    "validate",
    "fitting",
    "proposed_rules",
    "format_record",
    "canonical_text",
    "canonical_files",
    "canonical_records",
    "record_gap",
    "bytes_as_read",
    "like_file",
    "board",
    "replay_stop",
    "replay",
    "Replay",
    "random_records",
    "played_record",
    "rules_tags",
    "duplicates",
    "record_at",
    "notes_on",
    "empty_note",
    "read_sources",
    "replay_page",
    "replay_pages",
    "index_page",
    "folder_index",
    "Diagram",
    "diagrams",
    "convert",
    "rulebook",
    "explain",
    "game_tags",
    "variant_tags",
    "reading_tags",
    "variant_refused",
    "variant_as_game",
    "variant_of_other_games",
    "build",
    "place_of",
    "failed_plug_in",
    "DataError",
    "PastTheEnd",
    "ReplayStopped",
    "NoSuchRecord",
    "Unreplayable",
    "is_ply",
    "NotAPly",
    "Illegal",
    "WHITE",
    "BLACK",
    "Converted",
    "OutputAmongInputs",
    "InputsOfOneName",
    "gone_but_listed",
    "withdrawn_but_listed",
    "OutputDir",
    "Written",
    "record_named",
    "IndexWritten",
    "write_index",
    "Reader",
]


def source_formats() -> list[str]:
    """The formats lusoria reads (`--from`; lusoria.formats)."""
    return list(FORMATS)


def failed_plug_in(error: BaseException) -> str | None:
    """What an exception raised in a plug-in's game (its SystemExit too) says, naming it
    (`GAMES.failed_plug_in`: its bug, not lusoria's); None for one no plug-in's code raised."""
    return GAMES.failed_plug_in(error)


def variant_owners(variant: str) -> list[str]:
    """The games that have the variant `explain` knows as `variant` (a Variant tag, or any name that
    `--variant` takes: saami-tablut-w and `Copenhagen Hnefatafl 11x11` are one game's); OptionError when
    none has, or several variants are so named (`Tyr 13x13`), said as `--variant` says it."""
    from lusoria.variants import games_of_variant, several_named, unknown_variant

    owners = games_of_variant(variant)
    if not owners:
        raise OptionError(several_named(variant) or unknown_variant(variant), "Variant")
    return owners


def validate(
    paths: Iterable[Source],
    encoding: str = "utf-8",
    strict: bool = False,
    jobs: int = 1,
    keep_going: bool = False,
    format: str | None = None,
    tags: dict[str, str] | None = None,
) -> Iterator[Verdict | Problem]:
    """A verdict per record of every path, in order (`lusoria validate`), and a Problem in its
    place for a source that cannot be read or is skipped (lusoria.pipeline).
    With `jobs` > 1, records are checked by that many worker processes; `keep_going`:
    past an illegal ply or a syntax slip with one nearest suggestion, as if it had been written.
    `format` forces a format (lusoria.formats); `tags` (Game, Variant, Rules) choose the game and
    rules of records whose files do not say them."""
    for verdict in in_workers(partial(_verdict, keep_going=keep_going), records(paths, encoding, format, tags), jobs):
        if strict and isinstance(verdict, Verdict):
            verdict.valid = not verdict.diagnostics
            verdict.diagnostics = [replace(d, severity=ERROR) for d in verdict.diagnostics]
        yield verdict


def check(source: RecordText | str, keep: bool = True, keep_going: bool = False, assume_result: bool = False) -> Report:
    """Parse and replay one record's text (a text of several, a file's, is read record by record:
    `records`, `reports`); `keep=False` keeps neither the positions after each ply
    nor the canonical plies (what `validate` does not need); `keep_going`: after an illegal ply or a
    syntax slip with one nearest suggestion, go on as if it had been written. A record that ends
    without its result marker does not parse, but its plies are checked all the same: their
    diagnostics follow the syntax error; with `assume_result`, it comes replayed (record, rules,
    positions: `lusoria show`), as with `*`. One whose movetext stops parsing at a syntax error has the plies
    before it checked (but the ply the error may go on: `a4-a10 ×b10`), their errors after it; one that writes a tag twice, or leaves one unclosed, comes
    replayed read with the tag's first value, or closed (`Report.parsed_from`). `source` is left as read: what the replay mends as a
    reader of another format says (a king its site's capture list leaves out, with a note) is in the
    report's record, in any process (`validate`'s `jobs`)."""
    # (validator.replay.check, which mypyc compiles: there it is no function whose parameters the seam reads)
    return check_text(source, keep, keep_going, assume_result)


def _verdict(source: RecordText, keep_going: bool = False) -> Verdict:
    return check_text(source, keep=False, keep_going=keep_going).verdict()


def fitting(
    paths: Iterable[Source],
    encoding: str = "utf-8",
    format: str | None = None,
    tags: dict[str, str] | None = None,
    jobs: int = 1,
) -> Iterator[tuple[RecordText, Fit | Diagnostic] | Problem]:
    """For each record, the rule sets that fit it (`lusoria rules`), searched by `jobs` worker
    processes; a record that cannot be replayed at all (syntax, unknown game, bad tags) comes
    with its first diagnostic. Each record goes to a worker on its own: its search costs up to
    MAX_WORK plies, and a folder of short records would be one chunk of `validate`'s, one process's.
    A plug-in game's failure in the search (under rules its check did not use) names it, in a worker too
    (`GAMES.naming`)."""
    return in_workers(GAMES.naming(_fit), records(paths, encoding, format, tags), jobs, chunk=1)


def proposed_rules(fitted: list[tuple[RecordText, Fit | Diagnostic]]) -> list[Proposal]:
    """For each game of records that `fitting` fitted (each variant, of a game whose boards are its
    variants), the one rule set under which the most of them are legal (`lusoria rules DIR`); the
    records that cannot be replayed take no part."""
    records, fits, sources = [], [], []
    for source, fit in fitted:
        if isinstance(fit, Fit):
            records.append(parse_record(source))
            fits.append(fit)
            sources.append(source)
    return proposals(records, fits, sources=sources)


def _fit(source: RecordText) -> tuple[RecordText, Fit | Diagnostic]:
    report = check_text(source, keep=False)
    read = report.parsed_from or report.source  # (a tag written twice: without the repeat, proposed_rules parses)
    if report.record is not None and (report.positions or report.rules is None and names_no_variant(report.record)):
        return read, fitting_rules(report.record, valid=report.valid, source=read)
    return report.source, report.stopped_by


def format_record(source: Source, index: int = 0) -> tuple[str, Report]:
    """Record `index` of `source` (a path, a stream or text: `read_sources`; or the record that
    `record_at` reads with an encoding, a format or tags, as the commands' --encoding, --from and
    --game read it) in canonical form (`lusoria fmt`: a record read from another format with the
    tags that trace it to its file), with the report of its replay. A record that does not parse as
    written, or was refused (`Report.rewritable`), comes back as it was (ending in one line end)."""
    return _canonical(record_at(source, index))


@dataclass(frozen=True)
class CanonicalFile:
    """A file of records as `lusoria fmt --check` or `--write` sees it: its bytes, the bytes of its
    records in canonical form (`like_file`; its own when a record holds a byte that did not decode: it
    was not read whole), and the reports of its records (of those that do not parse, the first
    diagnostic is why); `format`: what the file was read as."""

    path: str
    format: str
    original: bytes
    canonical: bytes
    reports: list[Report]

    @property
    def changed(self) -> bool:
        return self.canonical != self.original


def canonical_files(
    paths: Iterable[Source], encoding: str = "utf-8", format: str | None = None, tags: dict[str, str] | None = None
) -> Iterator[CanonicalFile | Problem]:
    """Each file of `paths` (or `-`, read once) whole, in canonical form beside its bytes, for
    `lusoria fmt --check` and `--write`: only an lgn file has a canonical form (another format is
    a CanonicalFile with no reports, its canonical bytes its own). `tags` (Game, Variant, Rules) stand
    in for those of an lgn record with no Game tag (`RecordText.given`); the records that do not follow
    them are said in a Note at the end, as `records` says it."""
    notes, given = ReadingNotes(tags or {}), tuple((tags or {}).items())
    for path in found(paths, format, encoding):
        if isinstance(path, Skipped) or not isinstance(path, (str, os.PathLike)):
            yield path if isinstance(path, Skipped) else Unreadable(str(path), f"{path}: not a file")
            continue
        path = os.fspath(path)
        name = STDIN_NAME if path == STDIN else shown_path(path)
        if path != STDIN and garbled_by(path, encoding):  # (h80c: --write rewrote a folder's UTF-8 files garbled)
            yield Unreadable(
                path,
                f"{name}: not formatted: it is UTF-8, which the encoding {encoding} would read wrong (ø as Ã¸), and "
                "fmt would write it so; format it without that encoding",
            )
            continue
        texts, checked, whole, stray = [], [], True, None
        try:
            original, read_as = whole_file(path, encoding, format)
            if read_as != "lgn":
                yield CanonicalFile(path, read_as, original, original, [])
                continue
            pieces = list(decoded_text(io.BytesIO(original), name, encoding, escaped=True))
            for source in readable_records(pieces, partial(split_records, path=name, given=given), name, encoding):
                notes.read(source)
                text, report = _canonical(source)
                texts.append(text)
                checked.append(report)
                whole = whole and not isinstance(source.parsed, Undecodable)
            if not texts:  # blank and `%` lines only: the `%` lines kept
                texts = [as_lines(escapes_in("".join(pieces)))]
        except InputError as error:
            if not checked:
                yield Unreadable.of(name, error)
                continue
            stray, whole = error, False  # a byte outside every record (a `%` line): the records said, the file kept
        written = (
            "".join(text + record_gap(report) for text, report in zip(texts[:-1], checked, strict=False)) + texts[-1]
        )
        canonical = like_file(written, original, encoding) if whole else original  # (a byte not read: kept)
        yield CanonicalFile(path, read_as, original, canonical, checked)
        if stray:
            yield Unreadable.of(name, stray, records_read=True)
    yield from notes.said()


def canonical_records(
    paths: Iterable[Source], encoding: str = "utf-8", format: str | None = None, tags: dict[str, str] | None = None
) -> Iterator[tuple[str, Report] | Problem]:
    """Every record of `paths` in canonical form (ending in one line end), streamed, with its report
    (`lusoria fmt`); a record that does not parse as written, or was refused (`Report.rewritable`),
    comes back as it was."""
    return mapped(_canonical, records(paths, encoding, format, tags))


def _canonical(source: RecordText) -> tuple[str, Report]:
    """A record as `fmt` writes it, losing none of its `%` lines (nor those before it, the first of
    its file), nor an e-mail's prose above it or signature below it (kept as they were, not said in
    a note), with its report."""
    report = check_text(replace(source, notes=()) if source.signature or source.greeting else source)
    if not report.rewritable:  # as its file writes it (an lgn record: up to the next, `record_gap`)
        ended = source.text if source.text.endswith("\n") else source.text + "\n"
        return as_lines(source.before) + source.greeting + ended + source.signature, report
    text = lgn_text(report, escape_lines(source.text, source.line) if source.format == "lgn" else None)
    signed = "\n" + source.signature.rstrip("\n") + "\n" if source.signature else ""
    return as_lines(source.before) + source.greeting + text.rstrip("\n") + "\n" + signed, report


def bytes_as_read(report: Report) -> bytes | None:
    """What `fmt` writes to a stream of a record not read for a byte its encoding does not decode (its
    text from `canonical_records` holds U+FFFD there): the record as its file holds it, its characters
    in UTF-8 and each such byte as it was, none lost; None for any other record (and for one of UTF-16
    or UTF-32, whose code units are no bytes)."""
    parsed = report.source.parsed
    if not isinstance(parsed, Undecodable) or not parsed.as_read:
        return None
    ended = parsed.as_read if parsed.as_read.endswith("\n") else parsed.as_read + "\n"
    try:
        return (ended + report.source.signature).encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        return None


def record_gap(report: Report) -> str:
    """What `fmt` writes between a record and the next: a blank line, but after an lgn record it keeps as
    written (`Report.rewritable`), whose text holds what its file writes before the next (none, where a tag
    line after its movetext began it), nothing."""
    return "" if report.source.format == "lgn" and not report.rewritable else "\n"


def like_file(text: str, original: bytes, encoding: str = "utf-8") -> bytes:
    """`text` (with `\\n` line ends) as `lusoria fmt` writes it over a file whose bytes were
    `original`, read in `encoding`: in UTF-8, with the file's line ends (CRLF when its first line
    ends so, CR in a file of CR line ends, in UTF-16 too) and its byte order mark, if it had one."""
    bom = codecs.BOM_UTF8 if original.startswith(codecs.BOM_UTF8) else b""
    return bom + line_ends_like(text, head_text(original, encoding)).encode("utf-8")


def line_ends_like(text: str, original: str) -> str:
    """`text` (with `\\n` line ends) with the line ends of `original`, the text it replaces: CRLF
    when the first line of `original` ends so, CR when its lines end so (it holds no `\\n`)."""
    first = original.find("\n")
    if first < 0:
        return text.replace("\n", "\r") if "\r" in original else text
    return text.replace("\n", "\r\n") if first > 0 and original[first - 1] == "\r" else text


class Unreplayable(LusoriaError, ValueError):
    """A record that cannot be replayed at all, and the diagnostic that says why, said where (path:line:column)."""

    def __init__(self, path: str, diagnostic: Diagnostic):
        super().__init__(f"{located(path, diagnostic)}: the record {unreplayable(diagnostic)}")
        self.path, self.diagnostic = path, diagnostic  # the path of the record's source


class PastTheEnd(LusoriaError, ValueError):
    """A ply past the last of a record replayed whole: a usage error, not an invalid record."""


class ReplayStopped(LusoriaError, ValueError):
    """A ply past the one the replay of an invalid record stops at (the message says why it stops;
    `diagnostic`, the error that stops it, where: at the ply it breaks)."""

    def __init__(self, message: str, diagnostic: Diagnostic) -> None:
        super().__init__(message)
        self.diagnostic = diagnostic


@dataclass(frozen=True)
class Board:
    """A position of a record after some ply, ready to show."""

    report: Report
    ply: int

    def __post_init__(self) -> None:
        """A board is of a record its rules replayed, at a ply they reached (as `board` makes one)."""
        if self.report.rules is None or self.report.record is None or not 0 <= self.ply < len(self.report.positions):
            raise Refused(
                f"no board at ply {self.ply}: a Board is of a record its rules replayed, at a ply they reached"
            )

    @property
    def unread(self) -> list[Diagnostic]:
        """What the record's text breaks though its plies replay: its result marker missing."""
        return [diagnostic for diagnostic in self.report.diagnostics if diagnostic.rule == "syntax"]

    @property
    def rules(self) -> Game:
        """The record's rules (a board is made only of a record they could replay)."""
        return cast("Game", self.report.rules)  # (checked as the board was made)

    def __str__(self) -> str:
        """`text()`: `print(board)` draws it."""
        return self.text()

    def text(self) -> str:
        """The board as `lusoria show` prints it: the game, the ply it is after (its move and side as
        `Report.move` says them, and how it was played), the diagram, the pieces lost, the position
        string and who is to move (or how the game ended)."""
        rules, positions = self.rules, self.report.positions
        position = positions[self.ply]
        plies = self.report.plies
        when = f"after ply {self.ply} of {plies} ({self.played})" if self.ply else f"at the start (ply 0 of {plies})"
        lines = [
            f"{self.report.game} ({rules.variant}) {when}",
            *(
                [f"the replay stops after ply {len(positions) - 1}: {stop}"]
                if (stop := replay_stop(self.report))
                else []
            ),
            "",
            rules.render(position),
            "",
            rules.tally(positions[0], position),
            f"position: {self.position}",
        ]
        ended = self.report.outcome if self.ply == len(positions) - 1 else None
        lines.append(
            f"game over: {ended.result} ({ended.reason}, {ended.rule})"
            if ended
            else self._ended_off_the_board() or f"{SIDE_NAMES[rules.turn(position)]} to move"
        )
        return "\n".join(lines)

    def _ended_off_the_board(self) -> str | None:
        """How a game the board did not end ended, at its last ply, as its record says: its result
        marker and Termination tag (a resignation, a time forfeit); None when it says none (`*`)."""
        record = self.report.record
        if (
            record is None
            or record.result == "*"
            or not self.ply == self.report.plies == len(self.report.positions) - 1
        ):
            return None
        why = record.tags.get("Termination")
        return f"game over: {record.result} ({why + ', ' if why else ''}as the record says)"

    @property
    def position(self) -> str:
        """The position string (docs/notation.md §6), as `lusoria query --position` takes it."""
        return self.rules.format_position(self.report.positions[self.ply])

    @property
    def played(self) -> str:
        """The ply that led here as validate says it, its move and side and how it was played
        ("move 4, White: Ke5-c5+"); "" at the start."""
        return f"{self.report.move(self.ply)}: {self.last}" if self.ply else ""

    @property
    def last(self) -> str | None:
        """The ply that led here, in canonical form (None at the start)."""
        if self.ply == 0:
            return None
        ply = cast("Record", self.report.record).main.plies[self.ply - 1]  # (checked as the board was made)
        return self.report.canonical.get((0, self.ply - 1), ply.text)

    def _repr_svg_(self) -> str:
        """The diagram a notebook (Jupyter) shows for the board: `svg`."""
        return self.svg()

    def svg(self) -> str:
        """The board as an SVG diagram, the last ply highlighted."""
        from lusoria.svg import position_svg

        return position_svg(self.rules, self.report.positions[self.ply], self.last)


def replay_stop(report: Report, sides: tuple[str, str] = SIDE_NAMES) -> str | None:
    """Why the replay of the main line stopped before its end ("move 3, White: e4-e5 breaks T3:
    only the king may stop on the konakis (e5)", its ply said as `Diagnostic.said` says it, its side
    named by `sides`, as are the moves its message names), or None when it did not."""
    stopped = _stopping_error(report)
    if stopped is None:
        return None
    replayed = len(report.positions) - 1
    why = resaid(stopped.message, sides).partition("; the rest of this line is not checked")[0]
    ply = cast("Record", report.record).main.plies[replayed]
    return f"{report.move(replayed + 1, sides=sides)}: {ply.text} breaks {stopped.rule}: {why}"


def _stopping_error(report: Report) -> Diagnostic | None:
    """The error of the ply the replay of the main line stopped at, or None when it did not stop short."""
    replayed = len(report.positions) - 1
    if report.record is None or not report.positions or replayed >= report.plies:
        return None
    ply = report.record.main.plies[replayed]
    at = (ply.line, ply.column)
    return next((d for d in report.diagnostics if d.severity == ERROR and (d.line, d.column) == at), None)


@dataclass(frozen=True)
class Replay:
    """A record checked and replayed once, for each view of it: its board after a ply (`lusoria
    show`), its replay page (`lusoria html`, which says after the page why the record cannot be
    replayed, or what it lacks, as `board` does)."""

    report: Report

    def board(self, ply: int | None = None) -> Board:
        """The board after ply `ply` of the main line (default: the last checked), as `board` says; ValueError past
        the start of a report that keeps no positions (`check(…, keep=False)`)."""
        report = self.report
        if not report.positions:
            raise Unreplayable(report.source.path, report.stopped_by)
        last = len(report.positions) - 1
        if (ply is None or ply > last) and last < report.plies and _stopping_error(report) is None:
            raise Refused(  # (it said `no ply 3: it has 0`, and its last board was the start)
                f"no board{'' if ply is None else f' after ply {ply}'}: this report keeps no position after a ply "
                "(checked with keep=False; check keeps them by default)"
            )
        if ply is None:
            ply = last
        if ply < 0:
            raise Refused(f"no ply {ply}: plies count from 0 (the start) to {last}")
        if ply > last:
            stop = replay_stop(report)
            if stop:
                stopping = cast("Diagnostic", _stopping_error(report))
                raise ReplayStopped(f"no ply {ply}: its replay stops after ply {last}, as {stop}", stopping)
            raise PastTheEnd(
                f"no ply {ply}: it has {last}" + (f" (the last, {Board(report, last).played})" if last else "")
            )
        return Board(report, ply)

    def page(self) -> str:
        """A self-contained HTML page that replays the record (one that cannot be replayed too: it says why)."""
        from lusoria.html import report_page  # here, not at start-up

        return report_page(self.report)


def replay(source: Source, index: int = 0) -> Replay:
    """Record `index` of `source` (a path, a stream or text: `read_sources`; or the record that
    `record_at` reads with an encoding, a format or tags, as the commands' --encoding, --from and
    --game read it) checked and replayed once, for its board and its page. NoSuchRecord (a
    ValueError) when there is no such record. A record that lacks only its result marker is
    replayed as `validate` replays it."""
    return Replay(check_text(record_at(source, index), assume_result=True))


def board(source: Source, ply: int | None = None, index: int = 0) -> Board:
    """The board after ply `ply` of the main line (default: the last checked) of record `index` of
    `source` (a path, a stream or text: `read_sources`; or the record that `record_at` reads with an
    encoding, a format or tags, as `lusoria show --encoding --from --game` read it), for `lusoria
    show`. A ValueError when there is no such record (NoSuchRecord), `ply` is negative, or it cannot
    be replayed that far (Unreplayable when not at all, ReplayStopped when not that far, PastTheEnd
    when it is replayed whole and has fewer plies). A record that lacks only its result marker is
    replayed as `validate` replays it (`Board.unread` says what it lacks)."""
    return replay(source, index).board(ply)


@dataclass(frozen=True)
class Diagram:
    """A record's board as SVG among the boards of many (`diagrams`, `lusoria show --format svg
    --output-dir`), with the name of its file (as `convert --output-dir` names a record's) and what the
    record lacks though drawn (`unread`, said as one-record `show` says it), or why there is none
    (`svg` None): the `problem`, and the `diagnostic` of a record that cannot be replayed at all."""

    source: RecordText
    file_name: str
    svg: str | None
    problem: str | None = None
    diagnostic: Diagnostic | None = None
    unread: tuple[Diagnostic, ...] = ()  # what a record drawn lacks (`Board.unread`: its result marker)
    stop: Diagnostic | None = None  # the error its replay stops at, short of the ply asked (`ReplayStopped`)

    def __post_init__(self) -> None:
        """One that cannot be replayed says why as `problem` (`said`)."""
        if self.diagnostic and self.problem is None:
            object.__setattr__(self, "problem", self.said())

    def said(self, *, to: Reader = CALLER) -> str | None:
        """The `problem`: that its `diagnostic` stops its replay, with the encodings to try as `to` can
        act on them (`unreplayable`); ValueError for a `to` that names no Reader (`told`), with a diagnostic or not."""
        return problem_said(self.problem, self.diagnostic, unreplayable, to)


def diagrams(
    paths: Iterable[Source],
    ply: int | None = None,
    encoding: str = "utf-8",
    jobs: int = 1,
    format: str | None = None,
    tags: dict[str, str] | None = None,
    output_dir: str | None = None,
) -> Iterator[Diagram | Problem]:
    """The board after ply `ply` (default: the last checked) of every record of `paths` as SVG, as
    `board` draws it, in order, made by `jobs` worker processes (`lusoria show --format svg
    --output-dir`), each named `<file>-<n>.svg` as `replay_pages` names its pages; a record that
    cannot be replayed to that ply has its problem in its place (as `board` would raise it), and a
    source that cannot be read or is skipped a Problem. `format` and `tags` read the records as
    `validate` reads them; `output_dir`, the folder the caller writes the boards to (each `file_name` below it, with
    an `OutputDir`, as the command does; this call writes nothing), is not read (`convert`:
    OutputAmongInputs when it is a folder of `paths` or holds one; InputsOfOneName when two inputs'
    files cannot be named apart)."""
    sources = list(given(paths))
    return in_workers(
        partial(_drawn, ply=ply, inputs=inputs_folders(sources, output_dir)),
        records(sources, encoding, format, tags, leave_out=output_dir),
        jobs,
    )


def _drawn(source: RecordText, ply: int | None, inputs: dict[PurePath, PurePath]) -> Diagram:
    """A record's board after `ply` as `board` draws it, to write as `file_name` names it; or why not."""
    name = file_name(source, ".svg", inputs)
    try:
        drawn = Replay(check_text(source, assume_result=True)).board(ply)
    except Unreplayable as error:
        return Diagram(source, name, None, diagnostic=error.diagnostic)
    except ReplayStopped as error:
        return Diagram(source, name, None, str(error), stop=error.diagnostic)
    except PastTheEnd as error:
        return Diagram(source, name, None, str(error))
    return Diagram(source, name, drawn.svg(), unread=tuple(drawn.unread))


def random_record(rules: Game, rng: random.Random, max_plies: int = 200, round_: int = 1) -> Record:
    """A random legal game under `rules`, ending when the game does or after `max_plies`."""
    position, plies = rules.initial(), list[Ply]()
    ended = rules.outcome(position)
    while ended is None and len(plies) < max_plies:
        text = rules.random_ply(position, rng)
        if text is None:
            break
        played = rules.play(position, text)
        plies.append(Ply(played.text))
        position, ended = played.position, played.outcome
    result = ended.result if ended else "*"
    tags = rules_tags(rules)
    tags.update(
        Event="lusoria random",
        Site="?",
        Date="????.??.??",
        Round=str(round_),
        White="random",
        Black="random",
        Result=result,
    )
    return Record(tags, Line(plies), result)


def rules_tags(rules: Game) -> dict[str, str]:
    """The tags that choose `rules`: Game, Variant (but the game's first), and the others (`extra_tags`)."""
    tags = {"Game": rules.name}
    if rules.variant != next(iter(rules.presets)) or rules.described:  # (a described game's boards are its variants)
        tags["Variant"] = rules.variant
    tags.update(rules.extra_tags())
    return tags


def played_record(rules: Game, plies: Iterable[str], tags: dict[str, str] | None = None) -> str:
    """A game played in code from the start of `rules` (`rules.initial()`), each ply as `Game.play`
    reads it, as an lgn record in canonical form: the tags that choose `rules` (`rules_tags`) with
    `tags` but those that would choose others (Game, Variant, Rules, Board, Position), its result
    the outcome its last ply reached, else `tags`' Result, else `*`. Illegal (its `rule` and why, after
    the ply's number and text: `ply 4 (e4-e3): there is no piece on e4`) for a ply the rules forbid or one after the end, NotAPly for text that is no ply; TypeError for
    one str (each of its letters is no ply; a Laquet ply holds spaces); ValueError for a tag a
    record cannot hold (a name with a space, a Result that is no result marker)."""
    if isinstance(plies, str):
        raise TypeError(f"played_record takes a list of plies, not one str ({plies[:20]!r})")
    given = _writable(tags or {})
    position, written, passed = rules.initial(), list[Ply](), set[PlyKey]()
    ended = rules.outcome(position)
    for number, text in enumerate(plies, 1):
        try:
            if ended is not None:
                raise Illegal(rules.end_rule, already_over(ended))
            played = rules.play(position, text)
        except Illegal as illegal:  # which ply of the list: its number and text
            said = f"ply {number} ({text}): {illegal.message}"
            raise Illegal(illegal.rule, said, illegal.occupied, illegal.lost, illegal.meant) from None
        written.append(Ply(played.text))
        if played.passed:  # (after a forced pass left out: numbered as its side's, as the replay numbers it)
            passed.add((0, number - 1))
        position, ended = played.position, played.outcome
    result = ended.result if ended else given.get("Result", "*")
    kept = {name: value for name, value in given.items() if name not in _CHOOSING_RULES}
    record = Record({**kept, **rules_tags(rules), "Result": result}, Line(written), result)
    return write_record(record, continued=rules.continued, passed=passed)  # from the start: its first ply is the
    # first of move 1


_CHOOSING_RULES = ("Game", "Variant", "Rules", "Board", "Position")  # a record's rules and start: `rules_tags` alone


def _writable(tags: dict[str, str]) -> dict[str, str]:
    """`tags` as given, when a record can hold them: ValueError for a name that is no tag's (NOTATION.md
    §2: a letter, then letters, digits or _), or a Result that is no result marker."""
    for name in tags:
        if not re.fullmatch(TAG_NAME, name):
            raise Refused(f"{name!r} is not a tag's name: a letter, then letters, digits or _")
    if tags.get("Result", "*") not in RESULTS:
        raise Refused(f"the Result {tags['Result']!r} is not a result marker: {', '.join(RESULTS)}")
    return tags


def random_records(
    game: str, count: int = 1, seed: int = 0, tags: dict[str, str] | None = None, max_plies: int = 200
) -> Iterator[str]:
    """`count` random legal games in canonical form (`lusoria random`), under the
    rules that `tags` choose (Variant, by any name `explain` knows: `reading_tags`; Rules, Board); the
    same seed gives the same games.
    ValueError for a negative count or max_plies, and for a tag that chooses no rules (a Position, a White:
    the games start from the rules' start, and name no players), or a Game tag of another game (OptionError for
    tags that choose no rules, KeyError naming the games there are for a game there is not)."""
    if count < 0 or max_plies < 0:
        raise Refused(f"count and max_plies cannot be negative (count={count}, max_plies={max_plies})")
    unused = [
        name
        for name, value in (tags or {}).items()
        if name not in ("Variant", "Rules", "Board") and not (name == "Game" and value.lower() == game.lower())
    ]
    if unused:
        raise Refused(
            f"random_records takes the tags that choose the rules (Variant, Rules, Board; a Game tag of {game}), "
            f"not {listed(unused)}"
        )
    chosen = rules_from_tags(game_class(game), reading_tags({**(tags or {}), "Game": game}))
    rng = random.Random(seed)
    for round_ in range(1, count + 1):
        record = random_record(chosen, rng, max_plies, round_)
        yield write_record(record, continued=chosen.continued)  # from the start: its first ply is the first of move 1


def duplicates(
    paths: Iterable[Source],
    encoding: str = "utf-8",
    format: str | None = None,
    tags: dict[str, str] | None = None,
    jobs: int = 1,
) -> Iterator[Duplicate | Problem]:
    """The records of `paths` that are the same game as an earlier one, or a prefix of another
    (`lusoria duplicates`), read by `jobs` worker processes; a Problem in the stream for a source that
    cannot be read or is skipped. `format` and `tags`: as `validate`'s."""
    from lusoria.archive.duplicates import Entry, Place, find_duplicates  # here, not at start-up
    from lusoria.archive.endings import ending
    from lusoria.archive.identity import identity

    entries: list[Entry] = []
    for report in reports(paths, encoding, format, tags, jobs=jobs):
        if isinstance(report, Problem):
            yield report
        else:
            place = Place(report.source.path, report.source.line)
            where = shown_place(place.path, place.line)
            entries.append(Entry(where, place, identity(report), result=report.result, ending=ending(report)))
    yield from find_duplicates(entries)


def replay_page(source: Source, index: int = 0) -> str:
    """A self-contained HTML page that replays record `index` of `source` (`lusoria html`)."""
    return replay(source, index).page()


def replay_pages(
    paths: Iterable[Source],
    encoding: str = "utf-8",
    jobs: int = 1,
    format: str | None = None,
    tags: dict[str, str] | None = None,
    output_dir: str | None = None,
) -> Iterator[PublishedPage | Problem]:
    """The replay page of every record of `paths`, in order, made by `jobs` worker processes
    (`lusoria html --output-dir`), each with the name of its file (`<file>-<n>.html`, as `convert` names
    a record's file: in the folders that lead to it from the current directory, or for an input outside
    it from the folder above its own), what `index_page` says of it and what one-record `lusoria html`
    says of it on stderr (why it cannot be replayed at all, `unreplayable`, or what it lacks, `unread`);
    an invalid record's too (its page shows its diagnostics), and a Problem in its place for a source
    that cannot be read or is skipped. `format` and `tags` read the records as `validate` reads them;
    `output_dir`, the folder the caller writes the pages to (each `file_name` below it with an `OutputDir`, then
    `write_index`, as the command does; this call writes nothing), is not read (`convert`: OutputAmongInputs when it is a
    folder of `paths` or holds one; InputsOfOneName when two inputs' files cannot be named apart). Each
    record goes to a worker on its own: its page costs far more than its text, and a round's records
    would be one chunk of `validate`'s, one process's."""
    sources = list(given(paths))
    published = partial(_published, inputs=inputs_folders(sources, output_dir))
    return in_workers(published, records(sources, encoding, format, tags, leave_out=output_dir), jobs, chunk=1)


def _published(source: RecordText, inputs: dict[PurePath, PurePath]) -> PublishedPage:
    """A record's page, replayed as `lusoria html` replays one, to publish as `file_name` names it, with
    what `lusoria html` says of it on stderr. Its result: the marker its text ends in (a record that does not
    parse too, as its page shows it), else its Result tag, else the `*` assumed, else `?`."""
    from lusoria.html import PublishedPage, listed_as, players, report_page  # here, not at start-up

    report = check_text(source, assume_result=True)
    name = file_name(source, ".html", inputs)
    published = PublishedPage(
        source,
        report_page(report, index="../" * (len(PurePath(name).parts) - 1) + "index.html"),
        name,
        players(report),
        (report.result if report.result_written else result_written(source.text))
        or report.tags.get("Result")
        or ("*" if report.record else "?"),  # (the `*` assumed after a record that ends without one)
        _verdict_said(report),
        **listed_as(report),
    )
    try:
        return replace(published, unread=tuple(Replay(report).board().unread))
    except Unreplayable as error:
        return replace(published, unreplayable=error.diagnostic)


def _verdict_said(report: Report) -> str:
    """`valid`, or `invalid: ` and where its replay stops (`replay_stop`), else its first error and its place:
    its side named as its page names it (`lusoria.html.named`: `move 1, Muscovites (Black)`)."""
    from lusoria.html import named  # here, not at start-up

    first = next((d for d in named(report) if d.severity == ERROR), None)
    if first is None:
        return "valid"
    at_first = f"{first.line}:{first.column}: {first.said(to=PAGE)}"
    sides = sides_glossed(report.rules.sides) if report.rules else SIDE_NAMES
    return f"invalid: {replay_stop(report, sides) or at_first}"


def index_page(pages: list[PublishedPage]) -> str:
    """The page that lists the `pages` of `replay_pages` (`index.html` beside them): a row a game,
    its file, record number, players, result, verdict (valid, or its first error) and a link to its page."""
    from lusoria import html  # here, not at start-up

    return html.index_page([html.index_row(page) for page in pages])


def folder_index(directory: str, pages: list[PublishedPage]) -> str | None:
    """The index of `directory` once `pages` are written into it (`lusoria html --output-dir`, run
    round after round into one folder): the rows of the index.html an earlier run wrote there whose
    pages are still there (in `directory`, not out of it), each replaced by its page's in `pages`, then the rows of `pages` new to it;
    `index_page(pages)` when there is none; None when its index.html is not one lusoria wrote (an older
    lusoria's, which kept no list of its rows, is read from its table)."""
    from lusoria import html  # here, not at start-up

    earlier = html.rows_written(os.path.join(directory, "index.html"))
    if earlier is None:
        return None
    rows = {row["link"]: row for row in earlier if _page_in(directory, row["link"])}
    rows.update((row["link"], row) for row in map(html.index_row, pages))
    return html.index_page(list(rows.values()))


def gone_but_listed(directory: str, pages: list[PublishedPage]) -> list[str]:
    """The files, not found from the current directory, of the rows of `directory`'s index.html that
    `folder_index` keeps beside `pages` (an earlier run's pages still there, not written again): a round
    renamed or removed since, whose games the index would list still, a renamed one's twice; in order."""
    from lusoria import html  # here, not at start-up

    written = {html.index_row(page)["link"] for page in pages}
    return sorted(
        {
            row["file"]
            for row in html.rows_written(os.path.join(directory, "index.html")) or []
            if row["link"] not in written
            and _page_in(directory, row["link"])
            and names_a_file(row["file"])  # not <stdin>
            and not _found(row["file"])
        }
    )


def withdrawn_but_listed(directory: str, pages: list[PublishedPage]) -> list[str]:
    """The records (`FILE, record N`) of the rows of `directory`'s index.html whose files `pages` (the pages made,
    written or not) are of, and no page of them is: the records past a file's end now, a game taken out of it (the
    records after it numbered anew) leaving the last page, which the index would list still (h81b: a game withdrawn
    stayed on the club's page, unsaid); in order."""
    from lusoria import html  # here, not at start-up

    written = {html.index_row(page)["link"] for page in pages}
    read = {page.source.path for page in pages}
    return [
        f"{row['file']}, record {row['record']}"
        for row in html.rows_written(os.path.join(directory, "index.html")) or []
        if row["link"] not in written and row["file"] in read and _page_in(directory, row["link"])
    ]


def record_named(source: RecordText) -> str:
    """A record as an output folder's messages name it, and what its file there holds (`OutputDir.write`'s
    `what`): `FILE, record N`."""
    return f"{shown_place(source.path)}, record {source.index}"


@dataclass(frozen=True)
class IndexWritten:
    """What `write_index` did: the files (`gone_but_listed`) and the records (`withdrawn_but_listed`) whose games
    the index lists still, not found or not read now; and its index.html `written` (None: no page was)."""

    gone: list[str]
    withdrawn: list[str]
    written: Written | None


def write_index(folder: OutputDir, pages: list[PublishedPage], made: list[PublishedPage] | None = None) -> IndexWritten:
    """Write `folder`'s index.html to list those of `pages` (`replay_pages`') that it holds, each written by it as
    `record_named` names its record, with the pages an earlier run listed there (`folder_index`); unless its
    index.html is not one lusoria wrote, and the folder does not `overwrite` (refused: "foreign"). Said beside it:
    the files gone that it lists still (`gone_but_listed`), and the records of the files `made` are of (the pages
    made, once every record is read; None for a run cut short) that no page made is (`withdrawn_but_listed`)."""
    published = [page for page in pages if folder.holds(page.file_name, record_named(page.source))]
    if not published:
        return IndexWritten([], [], None)
    gone = gone_but_listed(folder.directory, published)
    withdrawn = withdrawn_but_listed(folder.directory, made) if made is not None else []
    index = folder_index(folder.directory, published)
    if index is None and not folder.overwrite:
        return IndexWritten(
            gone, withdrawn, Written(os.path.join(folder.directory, "index.html"), "the index", refused="foreign")
        )
    written = folder.write("index.html", index or index_page(published), "the index", overwrite=True)
    return IndexWritten(gone, withdrawn, written)


def _found(shown: str) -> bool:
    """Whether the file an index row names, shown as the messages show it, is here; or shown twice over,
    as the index of an older lusoria (session 43's and before) wrote a name (`g\\\\xffme.lgn` for `g\\xffme.lgn`)."""
    return any(os.path.exists(fs_path(name)) for name in (shown, fs_path(shown)))


def _page_in(directory: str, link: str) -> bool:
    """Whether `link`, an index row's, names a file still in `directory` (not one out of it: `/…`, `../…`)."""
    path = PurePosixPath(link)
    return not path.is_absolute() and ".." not in path.parts and os.path.isfile(os.path.join(directory, link))


def rulebook() -> list[Rule]:
    """Every rule that diagnostics cite (`lusoria explain`)."""
    from lusoria.rulebook import rules

    return rules()


def explain(name: str) -> str:
    """What `lusoria explain NAME` prints: a rule's text, the options that change it and an example;
    or a game's variants and rules; or a variant's title, board and start, settings (each with the
    rules it governs), names in other programs and sources (`game/variant` where several games have
    a variant of that name; a name another program gives it, as its files write it: `Copenhagen
    Hnefatafl 11x11`), the rules of its game whose texts use its name (`dux`), and, for a name alone,
    the other variants whose names hold it as a word; or an option of the Rules tag (`leftover`) in
    each game that has it; or the rules whose texts use a word that is none of these (`konakis`;
    `incitus`: inciti too; not words too common to name a notion: `the`). KeyError for a name that
    is none of these, saying what may have been meant."""
    from lusoria.variants import explain as explained

    return explained(name)


def variant_of_other_games(variant: str, game: str) -> str | None:
    """Of a variant (any name `explain` knows it by) that other games have and `game` has not,
    which they are, as a message says it (`a variant of tablut, not of laquet`); else None."""
    from lusoria.variants import variant_of_other_games as owned_elsewhere

    return owned_elsewhere(variant, game)


def game_tags(game: str, variant: str | None) -> dict[str, str]:
    """The tags that choose the rules of a game and variant named apart (`lusoria tree --game
    --variant`): those of a variant named as `explain` knows it (saami-tablut-w: Tablut's aage,
    Rules first=white), else Game and Variant as written; an OptionError of the Variant tag for a
    variant that other games have and `game` has not (`aage is a variant of tablut, not of laquet`)."""
    from lusoria.variants import game_tags as tags

    return tags(game, variant)


def variant_as_game(name: str, filters: bool = False) -> str:
    """What is said of a variant's name given where a game's is (`--game linnaeus`, a command's word:
    `lusoria random linnaeus`): the options that name it (`; linnaeus is a variant, not a game: --game
    tablut --variant linnaeus`), or, with `filters` (a command without --rules: `query`), those that
    select its records (a catalogue's entry that sets rules too by its name: `--variant saami-tablut-w`);
    "" for a name of no variant."""
    from lusoria.archive.commands import variant_filters
    from lusoria.validator.games import name_given, options_line
    from lusoria.validator.games import variant_as_game as said

    name = name_given(name)
    return said(name, lambda tags: variant_filters(name, tags) if filters else options_line(tags))


def variant_refused(variant: str, game: str | None = None) -> str | None:
    """Why a Variant given to read records by (`--variant`, of `game` when given) chooses no variant,
    before any record is read: a name of several variants (`Tyr 13x13`), another game's variant,
    and, without `game`, a name of none (suggesting the names `explain` would); else None."""
    from lusoria.variants import variant_refused as refused

    return refused(variant, game)


def variant_tags(name: str) -> dict[str, str] | None:
    """The tags that choose the rules of the variant `explain` knows as `name`, where they say
    more than a Variant tag of `name` (`game/variant`; a catalogue's entry that another variant
    plays: saami-tablut-w is Tablut's aage with Rules first=white; the name other programs' files
    give a variant: `Copenhagen Hnefatafl 11x11`); None for a game's Variant as written, and for a
    name no variant has."""
    from lusoria.variants import tags_of_name

    return tags_of_name(name)


RECORD = "a RecordText (a record as `records` reads it)"
TEXT = "a record's text (str or RecordText)"
SOURCE = "a path (str or os.PathLike), '-', a stream or a record's text"
SOURCES = f"{SOURCE}, or an iterable of them"
TAKES = {  # what a parameter so annotated takes (a record's source: notation.sources.Source), as said
    "RecordText": RECORD,
    "RecordText | str": TEXT,
    "Source": SOURCE,
    "Iterable[Source]": SOURCES,
    "Iterable[Source | Skipped]": SOURCES,
}


def _at_the_seam(call: Callable[P, R]) -> Callable[P, R]:
    """`call` taking its arguments as every library call does, before it runs (`_taker`): refusing a
    value that is no record's source for a parameter annotated as one (`TAKES`), with a TypeError naming
    the call, the parameter, what it takes and what it was given (`check(None)` failed deep inside:
    'NoneType' object has no attribute 'problems'; an iterable's items checked as they are read), or a value of
    another type for one annotated as a plain str, int or bool (`_plain_given`); a game's or variant's name (`game`, `variant`, a Game or Variant of `tags`) as `name_given` takes it.
    It reads Python functions' annotations: a call of a module mypyc compiles has none (`check` is
    api's own function for that; tests/test_pipeline.py finds another)."""
    takers = [
        (index, name, taker)
        for index, (name, parameter) in enumerate(inspect.signature(call).parameters.items())
        if (taker := _taker(call.__name__, name, str(parameter.annotation)))
    ]
    if not takers:
        return call

    @wraps(call)
    def taken(*args: P.args, **kwargs: P.kwargs) -> R:
        given = list(args)
        for index, name, taker in takers:
            if index < len(given):
                given[index] = taker(given[index])
            elif name in kwargs:
                kwargs[name] = taker(kwargs[name])
        return call(*given, **kwargs)  # type: ignore[arg-type]  # (P.args, rebuilt)

    taken.__module__ = __name__  # pickled as lusoria.api's (a worker pool's): not as the function it wraps
    return taken


def _taker(call: str, name: str, annotation: str) -> Callable[[Any], Any] | None:
    """How `call` takes its parameter `name` so annotated; None: as it is given."""
    if annotation in TAKES:
        return partial(_source_given, call, name, TAKES[annotation])
    kind, _, none = annotation.partition(" | ")
    if kind in PLAIN and none in ("", "None"):
        checked = partial(_plain_given, call, name, kind, none == "None")
        if name in ("game", "variant") and kind == "str":
            return lambda value: name_given(value) if isinstance(checked(value), str) else value
        return checked
    if name == "tags" and annotation.startswith("dict[str, str]"):
        return lambda tags: (
            tags and {tag: name_given(value) if tag in NAMED_TAGS else value for tag, value in tags.items()}
        )
    return None


def _source_given(call: str, name: str, takes: str, value: Any) -> Any:
    """`value`, given as `name` to `call`, when it is what `takes` says; else TypeError."""
    if _is_taken(takes, value):
        return value
    if takes == SOURCES and isinstance(value, Iterable) and not isinstance(value, (bytes, bytearray)):
        if isinstance(value, (list, tuple)):
            return [_source_item(call, name, index, item) for index, item in enumerate(value)]
        return (_source_item(call, name, index, item) for index, item in enumerate(value))
    raise TypeError(f"{call} takes {takes} as {name}, not {_shown(value)}")


PLAIN: dict[str, tuple[tuple[type, ...], str]] = {  # the plain types a call's parameter is checked to be, as said
    "str": ((str, os.PathLike), "a str"),  # (a path as a Path too, as every call takes one)
    "int": ((numbers.Integral,), "an int"),  # (numpy's too; no bool)
    "bool": ((bool,), "True or False"),
}


def _plain_given(call: str, name: str, kind: str, or_none: bool, value: Any) -> Any:
    """`value`, given as `name` to `call`, when it is of the plain type `kind` (an int no bool), or None when
    `or_none`; else TypeError (newcomer-57b: `board(ply="4")` failed deep inside, '<' not supported…)."""
    plain, said = PLAIN[kind]
    if value is None and or_none or isinstance(value, plain) and not (kind == "int" and isinstance(value, bool)):
        return value
    raise TypeError(f"{call} takes {said}{' or None' if or_none else ''} as {name}, not {_shown(value)}")


def _is_taken(takes: str, value: Any) -> bool:
    """Whether `value` itself (not an iterable of them) is what `takes` says."""
    if takes == RECORD:
        return isinstance(value, RecordText)
    return isinstance(value, (str, RecordText)) or takes != TEXT and _is_source(value)


def _source_item(call: str, name: str, index: int, item: Any) -> Any:
    if _is_source(item) or isinstance(item, Skipped):
        return item
    raise TypeError(f"{call} takes {SOURCE} as {name}[{index}], not {_shown(item)}")


def _is_source(value: Any) -> bool:
    return isinstance(value, (str, os.PathLike, RecordText)) or hasattr(value, "read")


def _shown(value: Any) -> str:
    return "None" if value is None else f"{type(value).__name__} ({reprlib.repr(value)})"


for _name in __all__:  # the library's calls
    if inspect.isfunction(_called := globals()[_name]):
        globals()[_name] = _at_the_seam(_called)
