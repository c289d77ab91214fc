"""A `.lgn` document as an editor sees it: its records, each checked once and re-checked
only when its text changes, and what an editor asks of it (a ply at a place, the fixes
of a diagnostic, the legal plies to complete, tokens to colour, one symbol per record).

Everything here works in code points, lines and columns 0-based; `lusoria/lsp.py`
turns it into the Language Server Protocol. Reports are checked with the record at
line 1 and shifted by the record's place in the document, so that a record that only
moved (lines added above it) is not checked again.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, fields
from difflib import SequenceMatcher
from functools import cache, lru_cache
from typing import cast

from lusoria import rulebook
from lusoria.api import Board, format_record
from lusoria.formats.sources import text_format, text_records
from lusoria.notation.dates import kept_aside
from lusoria.notation.escapes import as_lines
from lusoria.notation.lalr import builder_parser, open_variations
from lusoria.notation.model import Line, Ply, Record
from lusoria.notation.reader import (
    RecordText,
    escapes_in,
    header_of,
    known_games,
    parse_record,
    scan_tags,
    split_records,
)
from lusoria.notation.slips import RESULTS
from lusoria.notation.sources import BOM, InputError
from lusoria.notation.syntax import (
    BLANK,
    MISSING_RESULT,
    NOT_MOVETEXT,
    TAG_BEFORE_NAME,
    TAG_BEFORE_VALUE,
    TAG_VALUE,
    UNWRITTEN_TAG,
    SyntaxProblem,
    offset_of,
    row_column,
)
from lusoria.notation.visitor import Continued, PlyKey, Visitor, walk
from lusoria.notation.writer import TAG_NAMES, quote
from lusoria.validator.base import LISTED, Game
from lusoria.validator.games import GAMES, any_game, game_class, names_elsewhere, variant_named
from lusoria.validator.replay import (
    ASSUMED_RESULT,
    ERROR,
    Diagnostic,
    Moves,
    Report,
    assumed_end,
    check,
    move_number,
    number_place,
    numbering,
    wrong_numbers,
)
from lusoria.words import PAGE, plural


def normalized(text: str) -> str:
    """The text with `\\n` line ends, as the reader sees a file (CRLF and CR too), and the byte order mark
    at its start as a space that keeps the editor's columns (the reader drops it); after a `%` line, which begins with %."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    first, end, rest = text.removeprefix(BOM).partition("\n")
    return text if not text.startswith(BOM) else f"{first} {end}{rest}" if first.startswith("%") else " " + text[1:]


def lines_of(text: str) -> list[str]:
    """The lines of a normalized text (LSP counts lines by line ends only)."""
    return text.split("\n")


def safe_check(text: str | RecordText, assume_result: bool = False) -> Report:
    """The record's report (`assume_result`: replayed even though a tag is written twice, as
    `check` reads it); a failure of the library itself becomes a diagnostic, so that no input
    stops the server. A text is checked as an lgn record at line 1."""
    source = text if isinstance(text, RecordText) else RecordText(text)
    try:
        return check(source, assume_result=assume_result)
    except Exception as error:
        report = Report(source)
        report.error(
            "internal", f"lusoria could not check this record ({type(error).__name__}: {error})", line=1, column=1
        )
        return report


ReportKey = tuple[str, str]


def report_key(source: RecordText) -> ReportKey:
    """What a record's report is kept by: an lgn record's text and whether a tag line follows it (checked
    at line 1, its report holds wherever the record moves); another format's, its text and all its
    reader made of it: its place (the reader places its diagnostics in the document: `checked`), its
    game (a move lists' header, `# brandubh`, names it for the lists below), which of the games sharing
    a line it is (a scrape written on one line): the repr of each field but its text (the RecordText's
    own repr shows only where it stands and how its text begins)."""
    if source.format == "lgn":
        return source.text, "a tag follows" if source.tag_follows else ""
    return source.text, repr([getattr(source, field.name) for field in fields(source) if field.name != "text"])


def checked(source: RecordText) -> Report:
    """A record's report: an lgn record's checked at line 1, from its document's file (its messages as validate
    words them: h71a, a text of no record was said to be read as lgn unless a format is named); another
    format's as `validate` checks it (its plies and diagnostics at their places in the document)."""
    lgn = source.format == "lgn"
    return safe_check(RecordText(source.text, path=source.path, tag_follows=source.tag_follows) if lgn else source)


def check_missing(sources: Iterable[RecordText], stale: Callable[[], bool]) -> dict[ReportKey, Report]:
    """Reports for records (by `report_key`), until `stale()` says a newer edit made them useless;
    the reports done so far are returned (and kept: the next check reuses them)."""
    done: dict[ReportKey, Report] = {}
    for source in sources:
        if stale():
            break
        done[report_key(source)] = checked(source)
    return done


@dataclass(frozen=True, slots=True)
class Entry:
    """One record of a document: its text, where it stands, and its report."""

    source: RecordText  # line: the record's first line in the document (1-based)
    reports: dict[ReportKey, Report]  # the document's reports, by `report_key`

    @property
    def report(self) -> Report:
        """The record's report (`checked`; now, if not yet)."""
        key = report_key(self.source)
        report = self.reports.get(key)
        if report is None:
            report = self.reports[key] = checked(self.source)
        return report

    @property
    def lgn(self) -> bool:
        """Whether the record is written in lgn, whose text the editor's features read and write."""
        return self.source.format == "lgn"

    @property
    def first_line(self) -> int:
        """The record's first line, 0-based in the document."""
        return self.source.line - 1

    @property
    def offset(self) -> int:
        """What to add to a report's 1-based line for a 0-based document line: the lines before an lgn
        record (checked at line 1); none before another format's (its reader places its report)."""
        return self.first_line if self.lgn else 0

    @property
    def content(self) -> str:
        """The record's text without the blank and `%` lines that follow it."""
        lines = lines_of(self.source.text)
        while len(lines) > 1 and (not lines[-1].strip() or lines[-1].startswith("%")):
            lines.pop()
        return "\n".join(lines)

    @property
    def last_line(self) -> int:
        """The record's last line with text, 0-based in the document."""
        return self.first_line + self.content.count("\n")

    @property
    def replayed(self) -> Report:
        """The report whose plies a hover shows: the record's or, for a record being typed, which
        ends without its result marker yet, the record read with one assumed (`typed_so_far`)."""
        report = self.report
        return report if report.record is not None or not self.lgn else typed_so_far(self.source.text)

    def plies(self, report: Report | None = None) -> list[tuple[Ply, int, PlyKey]]:
        """Every ply of the record (variations too), in the order written: the ply, its
        number, its key in the tree (of `report`'s record: by default the record's report)."""
        found = _Plies()
        record = (report or self.report).record
        if record is not None:
            walk(record, found)
        return found.plies

    def ply_at(self, line: int, column: int) -> tuple[Ply, int, PlyKey] | None:
        """The ply under a document place (0-based), with its number and its key in the tree (of a
        record being typed too: `replayed`)."""
        for ply, number, key in self.plies(self.replayed):
            if ply.line - 1 + self.offset == line and ply.column - 1 <= column <= ply.column - 1 + len(ply.text):
                return ply, number, key
        return None


_LAST_NUMBER = re.compile(r"[0-9]+\.(\.\.)?\s*$")


def _without_last_number(text: str) -> str:
    """The text without the move number it ends with, if any (a ply not typed yet)."""
    return _LAST_NUMBER.sub("", text)


@lru_cache(maxsize=16)
def typed_so_far(text: str) -> Report:
    """A record being typed, read with a result marker put after it (as validate checks it), without
    the move number it may end with (`16. `, the next ply not typed yet); one that does not parse so
    (a ply half typed, `2. e4-`), read up to its first syntax error: its plies before it. Kept: a
    hover asks again and again. A variation not closed yet is closed (`1. e3-c3 (1. e3-d3 `); a tag
    written twice is read with its first value, as validate reads it."""
    report = safe_check(_ended(text), assume_result=True)
    cut = _syntax_error_at(report, text) if report.record is None else None
    return report if cut is None else safe_check(_ended(text[:cut]), assume_result=True)


def _ended(text: str) -> str:
    """A record being typed as validate reads it once it ends: without the move number it may end
    with, then ended as the replay ends one without a result marker (`assumed_end`: its variations
    closed, a result assumed), unless it ends with one (it does not parse for another reason, a tag
    written twice)."""
    text = _without_last_number(text)
    return text if text.split()[-1:] in ([marker] for marker in RESULTS) else assumed_end(text)


def _syntax_error_at(report: Report, text: str) -> int | None:
    """Where in `text` the syntax error of `report` (of `text` and a result after it) stands, if
    it stands in `text`, before its last character."""
    place = next(((d.line, d.column) for d in report.diagnostics if d.rule == "syntax"), None)
    if place is None:
        return None
    lines = text.split("\n")
    if not 0 < place[0] <= len(lines):
        return None
    at = sum(len(line) + 1 for line in lines[: place[0] - 1]) + place[1] - 1
    return at if 0 <= at < len(text.rstrip()) else None


class _Plies(Visitor):
    def __init__(self) -> None:
        self.plies: list[tuple[Ply, int, PlyKey]] = []

    def visit_ply(self, ply: Ply, number: int, key: PlyKey) -> None:
        self.plies.append((ply, number, key))


class Document:
    """The records of one document, the file `path` (its name says its format, as `validate` reads
    it: `text_format`), and their reports, kept between edits."""

    def __init__(self, path: str = "") -> None:
        self.path = path
        self.entries: list[Entry] = []
        self.reports: dict[ReportKey, Report] = {}
        self.read: tuple[str | None, str, list[RecordText]] = (None, "lgn", [])  # the text last split, its format
        # and its records (one tuple: a read in a worker thread replaces the three at once)
        self.tokens = KeptTokens()  # of its lgn records, as last laid out

    def split(self, text: str) -> list[RecordText]:
        """The document's records, read as `validate` reads its file, once for each text (each edit's
        check and the requests that follow it ask for the same text)."""
        read = self.read
        if text != read[0]:
            read = self.read = (text, *self._records(text))
        return read[2]

    def _records(self, text: str) -> tuple[str, list[RecordText]]:
        """The format of a text and its records; a text that a reader of another format cannot read at
        all is one record, whose report says why."""
        text = normalized(text)
        format = text_format(self.path, text)
        try:
            return format, list(text_records(text, self.path, format))
        except InputError as error:
            return format, [RecordText(text, format=format, parsed=SyntaxProblem(error.advised(to=PAGE), 1, 1))]

    @property
    def format(self) -> str:
        """The format the document was last read in."""
        return self.read[1]

    @property
    def lgn(self) -> bool:
        """Whether the document is read as lgn: formatting and completion are for lgn."""
        return self.format == "lgn"

    def missing(self, sources: list[RecordText]) -> list[RecordText]:
        """The records not checked yet, each once, in order."""
        keyed = {report_key(source): source for source in sources}
        return [source for key, source in keyed.items() if key not in self.reports]

    def update(self, sources: list[RecordText], checked: dict[ReportKey, Report] | None = None) -> None:
        """Take the new records with their reports; forget the reports of records gone.
        A record not checked yet is checked when its report is first asked for."""
        known = {**self.reports, **(checked or {})}
        keys = (report_key(source) for source in sources)
        self.reports = {key: known[key] for key in keys if key in known}
        self.entries = [Entry(s, self.reports) for s in sources]

    def entries_at(self, line: int) -> list[Entry]:
        """The records holding a document line (0-based): one, or the games written on it (a scrape's
        on one line); between records, the one before."""
        before = [entry for entry in self.entries if entry.first_line <= line]
        return [entry for entry in before if entry.first_line == before[-1].first_line]

    def entry_at(self, line: int) -> Entry | None:
        """The record holding a document line (0-based), the last of those written on it."""
        found = self.entries_at(line)
        return found[-1] if found else None

    def diagnostics(self) -> Iterator[tuple[Entry, Diagnostic]]:
        for entry in self.entries:
            for diagnostic in entry.report.diagnostics:
                yield entry, diagnostic


def diagnostic_span(entry: Entry, diagnostic: Diagnostic) -> tuple[int, int, int]:
    """Where a diagnostic points, as `lusoria validate`'s caret: line, first and last column
    (0-based, in the document)."""
    start = max(diagnostic.column - 1, 0)
    return (entry.offset + max(diagnostic.line, 1) - 1, start, start + max(1, diagnostic.span))


def diagnostic_range(entry: Entry, diagnostic: Diagnostic) -> tuple[int, int, int, int]:
    """What a diagnostic covers, as `lusoria validate`'s carets: line and column where it begins, line and
    column where it ends (0-based, in the document); a slip over two lines (`31:`⏎`4-7 4-5`) to its end
    on the second."""
    line, start, end = diagnostic_span(entry, diagnostic)
    rows = diagnostic.text.split("\n")
    return (line, start, line + len(rows) - 1, len(rows[-1])) if len(rows) > 1 else (line, start, line, end)


# -- edits --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Edit:
    """Replace document text from (line, column) to (end_line, end_column), 0-based."""

    line: int
    column: int
    end_line: int
    end_column: int
    text: str


@dataclass(frozen=True, slots=True)
class Fix:
    title: str
    edits: tuple[Edit, ...]
    diagnostic: Diagnostic | None = None
    preferred: bool = False
    kind: str = "quickfix"


def fixes(entry: Entry, diagnostic: Diagnostic) -> list[Fix]:
    """The quick fixes of one diagnostic: its suggestions, the right move number, result."""
    found = [
        _suggested_fix(entry, diagnostic, suggestion, i == 0) for i, suggestion in enumerate(diagnostic.suggestions)
    ]
    if diagnostic.rule == "number" and diagnostic.ply is not None:
        found += _number_fix(entry, diagnostic)
    if diagnostic.rule == "result":
        found += _result_fix(entry, diagnostic)
    if diagnostic.message.startswith(MISSING_RESULT):
        found += _ended_fix(entry, diagnostic)
    return found


def _suggested_fix(entry: Entry, diagnostic: Diagnostic, suggestion: str, preferred: bool) -> Fix:
    """The fix that writes a suggestion where the diagnostic points; a tag's that only closes it (a
    `]` after its value), "Close the tag", which writes that `]`."""
    line, start, end = diagnostic_span(entry, diagnostic)
    if diagnostic.message.startswith(UNWRITTEN_TAG) and suggestion == f"{diagnostic.text}]":
        return Fix("Close the tag", (Edit(line, end, line, end, "]"),), diagnostic, preferred)
    kept, text = kept_aside(diagnostic.message), entry.source.text
    movetext = _TAG_SECTION.sub("", text, count=1)  # (the comment is written before it)
    if kept and movetext:
        row, column = row_column(text, len(text) - len(movetext), entry.first_line - 1)
        comment = Edit(row, column - 1, row, column - 1, f"{{Date: {kept}}} ")
        value = Edit(line, start, line, end, suggestion)
        return Fix(f"Replace with {suggestion}, keeping {kept} in a comment", (value, comment), diagnostic, preferred)
    edit = Edit(*diagnostic_range(entry, diagnostic), suggestion)  # (a slip over two lines: replaced whole)
    return Fix(f"Replace with {suggestion}", (edit,), diagnostic, preferred)


# a record's tag section (its tags, `%` lines, blanks), before its movetext
_TAG_SECTION = re.compile(rf"(?:[ \t\r\n]*(?:%[^\n]*|{TAG_BEFORE_VALUE}{TAG_VALUE}{BLANK}*\]))*[ \t\r\n]*")


def _number_fix(entry: Entry, diagnostic: Diagnostic) -> list[Fix]:
    """One action that writes every wrong move number of the record right (the validator says them
    in one warning, at the first), each where it stands on its ply's line."""
    report, rules = entry.report, entry.report.rules
    if rules is None or report.record is None or not report.positions:
        return []
    edits = []
    for ply, _, expected in wrong_numbers(report.record, rules, report.positions[0], report.passed):
        place = number_place(report.source, ply)
        if place is not None:
            line, column = entry.offset + place[0] - 1, place[1] - 1
            edits.append(Edit(line, column, line, column + len(ply.number or ""), expected))
    if not edits:
        return []
    title = f"Number the move {edits[0].text}" if len(edits) == 1 else f"Number the {len(edits)} moves right"
    return [Fix(title, tuple(edits), diagnostic, True)]


def _result_fix(entry: Entry, diagnostic: Diagnostic) -> list[Fix]:
    """One action that makes the marker (and the Result tag) say the right result: the one the game ended with,
    where it ended (h79c: the marker's own, right, came after the tag's, which the rules refute); else the tag's
    or the marker's."""
    report = entry.report
    record = report.record
    if record is None:  # a record that does not parse has no result diagnostic
        return []
    tag = record.tags.get("Result")
    choices = [report.outcome.result] if report.outcome else [tag, record.result] if tag is not None else []
    found: list[Fix] = []
    for result in dict.fromkeys(choices):
        edits: list[Edit | None] = []
        if result != record.result:
            line = entry.offset + record.result_line - 1
            column = record.result_column - 1
            edits.append(Edit(line, column, line, column + len(record.result), result))
        if tag is not None and result != tag:
            edits.append(_tag_value_edit(entry, "Result", result))
        found.append(Fix(f"Set the result to {result}", tuple(e for e in edits if e), diagnostic, not found))
    return [f for f in found if f.edits]


def _ended_fix(entry: Entry, diagnostic: Diagnostic) -> list[Fix]:
    """For a record that ends without its result marker after the game ended: one action that writes
    the marker there (and the Result tag) as the game ended."""
    report = entry.replayed
    if report.record is None or report.outcome is None or open_variations(entry.source.text):
        return []  # (a marker written inside a variation would end nothing)
    result, tag = report.outcome.result, report.record.tags.get("Result")
    line, column, _ = diagnostic_span(entry, diagnostic)
    edits: list[Edit | None] = [_marker_edit(entry, line, column, result)]
    if tag is not None and tag != result:
        edits.append(_tag_value_edit(entry, "Result", result, report.record))
    return [Fix(f"Set the result to {result}", tuple(e for e in edits if e), diagnostic, True)]


def _marker_edit(entry: Entry, line: int, column: int, marker: str) -> Edit:
    """The edit that writes `marker` at the record's end (line, column): after its last word or, where
    the record ends in a `;` comment or a `%` line, which would hold it, on a line of its own after."""
    lines = lines_of(entry.source.text)
    text, cursor = lines[line - entry.offset], offset_of(lines, line - entry.offset + 1, column + 1)
    if any(m[0][0] in ";%" and m.start() < cursor <= m.end() for m in NOT_MOVETEXT.finditer(entry.source.text)):
        return Edit(line, len(text), line, len(text), f"\n{marker}")
    return Edit(line, column, line, column, f" {marker}")  # the place is just after the record's last word


def _tag_value_edit(entry: Entry, name: str, value: str, record: Record | None = None) -> Edit | None:
    """The edit that makes tag `name` say `value` (in `record`, by default the record's report's)."""
    record = record or entry.report.record
    if record is None:
        return None
    row, column = record.tag_places[name]
    text = lines_of(entry.source.text)[row - 1]
    quoted = re.compile(TAG_VALUE).search(text, column - 1)
    if quoted is None:
        return None
    line = entry.offset + row - 1
    return Edit(line, quoted.start(), line, quoted.end(), quote(value))


def canonical_fixes(entry: Entry, first: int, last: int) -> list[Fix]:
    """For the plies on document lines first..last written otherwise than in canonical form
    (a missing capture list, …): write it out."""
    found = []
    for ply, _, key in entry.plies():
        line = entry.offset + ply.line - 1
        canonical = entry.report.canonical.get(key)
        if first <= line <= last and canonical and canonical != ply.text:
            column = ply.column - 1
            found.append(
                Fix(f"Write {ply.text} as {canonical}", (Edit(line, column, line, column + len(ply.text), canonical),))
            )
    return found


def format_fix(entry: Entry) -> Fix | None:
    """`lusoria fmt` applied to one record, when that changes it: none for a record that does not
    parse as written (one being typed, without its result marker yet; a tag written twice) or was refused,
    which fmt writes as it was (the action only stripped its trailing blanks)."""
    report, content = entry.report, entry.content
    if not report.rewritable:
        return None
    formatted = formatted_record(content)
    if formatted.rstrip() == content:
        return None
    lines = lines_of(content)
    edit = Edit(entry.offset, 0, entry.offset + len(lines) - 1, len(lines[-1]), formatted.rstrip())
    return Fix("Format this record (lusoria fmt)", (edit,), kind="refactor.rewrite")


@lru_cache(maxsize=256)
def formatted_record(text: str) -> str:
    """A record as `lusoria fmt` writes it (kept: code actions ask again and again)."""
    return format_record(RecordText(text))[0]


def formatted_document(text: str) -> str:
    """The whole document as `lusoria fmt` writes it (its `%` lines kept, those before its first record too)."""
    sources = list(split_records([normalized(text)]))
    if not sources:  # blank and `%` lines only
        return as_lines(escapes_in(normalized(text)))
    return "\n".join(as_lines(source.before) + formatted_record(source.text).rstrip("\n") + "\n" for source in sources)


# -- hover --------------------------------------------------------------------


def ply_hover(entry: Entry, ply: Ply, number: int, key: PlyKey) -> str:
    """The board after a ply, as `lusoria show` prints it, and what the ply did, the ply said by its
    move (`Report.move`); after a variation's, the board of its line (`_line_up_to`); where its line is
    not replayed up to it, why (`_not_replayed`)."""
    main = key[0] == 0
    report = entry.replayed if main else _variation_replayed(entry, ply)
    rules, said, where = report.rules, entry.replayed.move(number, key), "" if main else ", in a variation"
    if rules is None or number >= len(report.positions) or not main and _refused_on_its_line(entry, ply):
        return _not_replayed(entry.replayed.diagnostics, ply, said, where)
    board = Board(report, number)
    canonical = board.last or ply.text
    lines = [
        f"**{said}**{where}: `{canonical}`",
        rules.ply_summary(canonical, report.positions[0], report.positions[number]),
    ]
    return "\n\n".join(lines) + f"\n\n```text\n{board.text()}\n```"


def _variation_replayed(entry: Entry, ply: Ply) -> Report:
    """The line of a variation's ply replayed up to it, as if written in the main line."""
    text = entry.source.text
    end = offset_of(lines_of(text), ply.line, ply.column) + len(ply.text)
    return safe_check(_line_up_to(text[:end]) + " *")


def _refused_on_its_line(entry: Entry, ply: Ply) -> bool:
    """Whether the record's replay refused a variation's `ply` or a ply before it on its line, which
    the line replayed alone (`_variation_replayed`) may play: a variation after a berserk continuation
    the record leaves out starts where the continuation went (G16), as validate and show start it."""
    keys = {(each.line, each.column): key for each, _, key in entry.plies(entry.replayed)}
    line, index = keys[ply.line, ply.column]
    refused = [keys.get((d.line, d.column)) for d in entry.replayed.diagnostics if d.severity == "error"]
    return any(key is not None and key[0] == line and key[1] <= index for key in refused)


def _not_replayed(diagnostics: Iterable[Diagnostic], ply: Ply, said: str, where: str) -> str:
    """A ply (`said`: its move) its line's replay did not play: the illegal one, with the rule it
    breaks (of the record's `diagnostics`, at the ply; the hover shows the rule's text below), or one
    after it; `where`, in a variation, says so."""
    for diagnostic in diagnostics:
        if diagnostic.severity == "error" and (diagnostic.line, diagnostic.column) == (ply.line, ply.column):
            return f"**{said}**{where}: `{ply.text}` is illegal ({diagnostic.rule}): {diagnostic.message}"
    stops = "its line stops" if where else "the record stops"
    return f"{said}{where}: `{ply.text}` was not replayed: {stops} being checked before it"


def tag_hover(entry: Entry, name: str) -> str | None:
    """For Game, Variant and Rules: the rules in force and the other choices."""
    if name not in ("Game", "Variant", "Rules", "Board"):
        return None
    report = entry.report
    if report.rules is None:  # the movetext may not parse yet (no result marker): the tags alone choose them
        report = header_read(entry.source.text)
    if report.rules is None:
        problem = next((d.message for d in report.diagnostics if d.rule in ("tag", "syntax")), "")
        return f"the rules cannot be chosen: {problem}" if problem else None
    rules = report.rules
    lines = [
        f"**{rules.name}**, variant `{rules.variant}` ({_other_variants(rules.name, list(rules.presets))})",
        "",
        "| option | in force | choices |",
        "| --- | --- | --- |",
    ]
    lines += [f"| `{key}` | `{rules.option[key]}` | {_choices(rules, key)} |" for key in rules.options]
    return "\n".join(lines)


def header_read(text: str) -> Report:
    """A record's tag section read alone, with a result assumed (its movetext may not parse yet): its
    tags as validate reads them, with their places (comments and `%` lines are no tags)."""
    return safe_check(header_of(text) + ASSUMED_RESULT, assume_result=True)


def _choices(rules: Game, key: str) -> str:
    """What a Rules tag may set an option to, or that only the variant sets it (a tafl board's size
    and start)."""
    return rules.known_values(key) if key in rules.rules_tag_keys() else "the variant's: a Rules tag cannot set it"


_CITED = re.compile(r"\b[A-Z]+[0-9]+\b")  # a rule's ID as a comment cites it: T4, C10 (in upper case: e4 is a square)


def rules_at(entry: Entry, line: int, column: int) -> list[str]:
    """The IDs of the rules at a document place (0-based), each once: those of the record's
    diagnostics that span it, and a rule's ID a comment or `%` line names there (`{T4 applies}`)."""
    found = []
    for diagnostic in entry.report.diagnostics:
        row, start, end = diagnostic_span(entry, diagnostic)
        found += [diagnostic.rule] if row == line and start <= column <= end else []
    comment = TOKEN_TYPES.index("comment")
    if any(
        row == line and start <= column <= start + length
        for row, start, length, kind in tokens(entry)
        if kind == comment
    ):
        found += cited_at(lines_of(entry.source.text)[line - entry.offset], column)
    return _rules_of(found)


def cited_at(text: str, column: int) -> list[str]:
    """The IDs of the rules that the line `text` of a comment or a `%` line cites at `column` (0-based)."""
    return _rules_of(cited[0] for cited in _CITED.finditer(text) if cited.start() <= column <= cited.end())


def _rules_of(found: Iterable[str]) -> list[str]:
    """The IDs of `found` that are the rulebook's rules', each once."""
    known = {rule.id.upper() for rule in rulebook.rules()}
    return [rule_id for rule_id in dict.fromkeys(found) if rule_id.upper() in known]


def rule_hover(rule_id: str) -> str:
    """A rule as `lusoria explain ID` prints it."""
    return f"```text\n{rulebook.explain(rule_id)}\n```"


def _other_variants(game: str, presets: list[str]) -> str:
    """A game's variants, as a tag's hover names them: all, or, of more than LISTED (the tafl family's
    catalogue), how many and where they are listed."""
    if len(presets) <= LISTED:
        return f"known: {', '.join(presets)}"
    return f"{len(presets)} known: `lusoria explain {game}` lists them"


def tag_at(entry: Entry, line: int, column: int) -> str | None:
    """The name of the tag on a document line, when the place is on it (of an lgn record)."""
    if not entry.lgn:
        return None
    lines = lines_of(entry.source.text)
    text = lines[line - entry.offset] if 0 <= line - entry.offset < len(lines) else ""
    match = re.match(rf"{TAG_BEFORE_VALUE}{TAG_VALUE}{BLANK}*\]", text)
    return match[1] if match and column <= match.end() else None


# -- completion ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Completion:
    label: str
    kind: str  # "ply", "number", "result", "tag", "value"
    start: int  # the columns (0-based) of the text the label replaces
    end: int
    detail: str = ""
    edits: tuple[Edit, ...] = ()  # elsewhere, that go with it: the Rules a variant's name sets
    filter: str = ""  # what the editor matches the text typed against, where not the label: a variant's name in
    # other programs (`Saami Tablut` is no part of `aage`: an editor would leave it out)


_WORD = re.compile(r"[^\s(){}\[\];]*$")


def completions(entry: Entry | None, document_line: str, line: int, column: int) -> list[Completion]:
    """What may be written at a place: a tag name or value in the tag section, else the legal
    plies there (most alike the word typed first), the move number, the result markers."""
    before = document_line[:column]
    tag = re.match(rf"{TAG_BEFORE_NAME}([A-Za-z0-9_]*)$", before)
    if tag:
        return [Completion(name, "tag", tag.start(1), column) for name in TAG_NAMES if name.startswith(tag[1])]
    value = re.match(rf'{TAG_BEFORE_VALUE}"([^"]*)$', before)
    if value:
        return _tag_values(entry, value[1], value[2], line, column)
    if entry is None or entry.report.record is None and "Game" not in entry.report.tags:
        return []
    after = re.match(r"[^\s(){}\[\];]*", document_line[column:])
    return _ply_completions(entry, line, column, before, after[0] if after else "")


def _tag_values(entry: Entry | None, name: str, typed: str, line: int, column: int) -> list[Completion]:
    tags = entry.report.tags if entry else {}
    cls = None
    try:
        cls = game_class(tags.get("Game", ""))
    except KeyError:
        pass
    if name == "Game":
        values = list(known_games())
    elif name == "Result":
        values = list(RESULTS)
    elif name == "Variant" and cls and entry:
        return _variants(cls, typed, column, _named_rules_edit(entry, line))
    elif name == "Rules" and cls:
        *written, word = typed.split(" ")
        chosen = {entry.partition("=")[0].lower() for entry in written}  # not offered again
        return [
            Completion(f"{key}={value}", "value", column - len(word), column, f"default {values[0]}")
            for key, values in cls.options.items()
            if key in cls.rules_tag_keys() and key not in chosen
            for value in values
            if f"{key}={value}".startswith(word)
        ]
    else:
        return []
    return [Completion(v, "value", column - len(typed), column) for v in _holding(values, typed)]


def _variants(game: type[Game], typed: str, column: int, rules_edit: Callable[[str], Edit]) -> list[Completion]:
    """A game's variants that hold the text typed, after the one that other programs' files call it
    (`Fetlar`: opentafl-fetlar-11x11; rules_from_tags reads the name so too), then those whose names in other
    programs hold it (`Saami Tablut`: h71a, a name was known only once whole), each with the Rules it sets
    written in the record's Rules tag (`rules_edit`), so that the record reads as the name says, and that name
    for the editor to match what is typed against; each variant and Rules once."""
    start = column - len(typed)
    found = [Completion(variant, "value", start, column) for variant in _holding(list(game.presets), typed)]
    if not typed:
        return found
    names: dict[str, Mapping[str, str]] = {}
    for name, tags in names_elsewhere():
        if tags["Game"] == game.name:
            names.setdefault(name, tags)
    elsewhere = [(name, names[name]) for name in _holding(list(names), typed)]
    exact = variant_named(game, typed)
    offered = [
        *([_named_variant(game, typed, exact, start, column, rules_edit)] if exact else []),
        *found,
        *(_named_variant(game, name, tags, start, column, rules_edit) for name, tags in elsewhere),
    ]
    kept: dict[tuple[str, tuple[Edit, ...]], Completion] = {}
    for completion in offered:
        kept.setdefault((completion.label, completion.edits), completion)
    return list(kept.values())


def _named_variant(
    game: type[Game], name: str, tags: Mapping[str, str], start: int, column: int, rules_edit: Callable[[str], Edit]
) -> Completion:
    """The variant that other programs' files call `name`, whose tags are `tags` (`variant_named`), offered."""
    said = f"{name}, as other programs call it" + (
        f' (its Rules: "{tags["Rules"]}", written too)' if "Rules" in tags else ""
    )
    variant = tags.get("Variant") or next(iter(game.presets))
    edits = (rules_edit(tags["Rules"]),) if "Rules" in tags else ()
    return Completion(variant, "value", start, column, said, edits, name)


def _named_rules_edit(entry: Entry, line: int) -> Callable[[str], Edit]:
    """The edit that writes the Rules a variant's name sets (`first=white`) in the record whose Variant
    tag is typed on document line `line`: in its Rules tag, in place of the options it sets there too; else
    in a Rules tag of its own, on a line before the Variant's, which starts that line: always among the
    record's tags (the line after may hold its movetext: `[Variant "x"] 1. e3-c3 *`). The Rules tag is the
    record's as read (`header_read`), not one a comment quotes (`{ [Rules "first=black"] in the source }`)."""

    def edit(rules: str) -> Edit:
        record = header_read(_open_tags_set_aside(entry.source.text)).record
        written = record.tags.get("Rules") if record else None
        named = {pair.partition("=")[0].lower() for pair in rules.split()}
        kept = [pair for pair in (written or "").split() if pair.partition("=")[0].lower() not in named]
        found = _tag_value_edit(entry, "Rules", " ".join([rules, *kept]), record) if written is not None else None
        return found or Edit(line, 0, line, 0, f"[Rules {quote(rules)}]\n")

    return edit


_OPEN_TAG = re.compile(rf'{TAG_BEFORE_VALUE}"[^"\n]*$', re.M)  # a tag whose value is not closed on its line


def _open_tags_set_aside(text: str) -> str:
    """A record's text with each tag whose value is left open, the one being typed (`[Variant "Saami`)
    or another (`[Event "Lund`), as blanks: the other tags parse, in their places."""
    return _OPEN_TAG.sub(lambda tag: " " * len(tag[0]), text)


def _holding(values: list[str], typed: str) -> list[str]:
    """The values that hold the text typed, in any case (`13x13`: the tafl family's boards of that size),
    those that start with it first, each in the order given."""
    typed = typed.lower()
    held = [value for value in values if typed in value.lower()]
    return sorted(held, key=lambda value: not value.lower().startswith(typed))


def _ply_completions(entry: Entry, line: int, column: int, before: str, after: str) -> list[Completion]:
    """The word under the place (`before` and `after` it) is what the labels replace; in a game of dice,
    from the roll written before it (a ply is a roll and its plays; no result marker in its place while it is half
    written). A result marker just after the place (`d1-d|*`, the record's end typed first) is not part of the word:
    a ply or a move number goes before it, a result replaces it."""
    marker = after if after in RESULTS else ""
    after = after.removesuffix(marker)
    text = entry.source.text
    row = line - entry.offset
    lines = lines_of(text)
    if not 0 <= row < len(lines):
        return []
    under = _WORD.search(before)  # matches, if only the empty string
    word = under[0] if under else ""
    cursor = offset_of(lines, row + 1, column + 1)  # the place, in the record
    offset, typed = cursor - len(word), word + after  # where the word starts, and the word
    game = scan_tags(text).get("Game", "").lower()
    rolls = GAMES[game].roll if game in GAMES else None
    before_ply = _without_last_number(text[:offset])
    report = safe_check(_line_up_to(before_ply) + " *")
    roll = _roll_before(rolls, text, cursor) if rolls is not None and not _ends_whole(report) else None
    if half := roll is not None:
        offset, typed = roll, text[roll:cursor] + after  # the ply being typed, from its roll
        before_ply = _without_last_number(text[:offset])
        report = safe_check(_line_up_to(before_ply) + " *")
    start, end = column - (cursor - offset), column + len(after)
    rules, record = report.rules, report.record
    if rules is None or record is None or len(report.positions) != report.plies + 1:
        return []
    found: list[Completion] = []
    if report.outcome is None:
        found += _next_plies(rules, report, rolls, typed, start, end)
        number = _next_number(rules, record, report, [ply.label for ply in found], _line_broken(record, before_ply))
        if number is not None and before_ply == text[:offset]:
            found.append(Completion(number, "number", start, end, "the move number"))
    ended = report.outcome
    markers = [ended.result] + [r for r in RESULTS if r != ended.result] if ended else list(RESULTS)
    markers = [] if open_variations(before_ply) or half else markers  # a result ends the main line only, and
    # goes after a ply, not in place of one half written (newcomer-58a: `61: 6/12 6/` was offered `*` in its place)
    end += len(marker)
    found += [Completion(r, "result", start, end, "the result" if ended else "") for r in markers]
    return sorted(found, key=lambda item: (not (item.filter or item.label).startswith(typed), item.kind != "number"))
    # (`2` typed: the number first, in a game of dice before the rolls it may begin too, `21:`; `36`: the plies of
    # 63, which their roll as typed begins, review71b)


def _line_broken(line_up_to: Record, before: str) -> bool:
    """Whether the next ply, after the text `before`, is numbered even as a move's second (`3...`), as
    fmt writes it: at the start of the movetext or of a variation, after a comment or a variation (the
    last ply of the line `line_up_to` reads, `_line_up_to`, holds them) or a `%` line."""
    plies, written = line_up_to.main.plies, before.rstrip()
    return not plies or plies[-1].breaks_line or written.endswith("(") or written.split("\n")[-1].startswith("%")


def _line_up_to(text: str) -> str:
    """A record's text up to a place, as the line the place is in reads from the start: in a variation
    not closed yet (`1. e3-c3 d1-d3 (1... d1-d2 `), each such variation's text in place of the ply it
    replaces and what follows that ply (`1. e3-c3 d1-d2 `); the text as it is where none is open, or
    where it does not parse with them closed."""
    opened = open_variations(text)
    if not opened:
        return text
    try:  # read up to the innermost, which may hold no ply yet
        line = parse_record(text[: opened[-1]] + ")" * (len(opened) - 1) + " *").main
    except SyntaxProblem:
        return text
    lines, pieces, start = lines_of(text), [], 0
    for bracket in opened:
        if not line.plies:  # (a movetext that begins with `(`)
            return text
        replaced = line.plies[-1]  # the ply the variation replaces: the last its line holds
        pieces.append(_without_last_number(text[start : offset_of(lines, replaced.line, replaced.column)]))
        line, start = (replaced.variations or [Line()])[-1], bracket + 1  # (the innermost's is not read)
    return " ".join([*pieces, text[start:]])


def _ends_whole(report: Report) -> bool:
    """Whether a record checked up to a word being typed ends with a whole ply: no error at its last
    ply (`61: 6/12 6/7`, then `2` begins the next move, not a play of 61) but that of the `*` it is
    checked with (the Result tag, or the game's end, says another result)."""
    return report.record is not None and not any(
        d.severity == ERROR and d.ply in (None, report.plies) and d.rule != "result" for d in report.diagnostics
    )


_PLY_ENDED = re.compile(r"[0-9]+\.|[\n{}();]")  # a move number, a line end, a comment, a variation
_REPEATED = re.compile(r"\([0-9]\)")  # a play's repeat count (`2/8(2)`): no variation


def _roll_before(rolls: re.Pattern[str], text: str, cursor: int) -> int | None:
    """Where the roll written last before `cursor` starts, when the ply it begins goes on to the
    cursor (no move number, line end, comment or variation between; `66: 2/8(3)` goes on)."""
    roll = None
    for roll in rolls.finditer(text, max(0, cursor - 80), cursor):
        pass
    if roll is not None and not _PLY_ENDED.search(_REPEATED.sub("", text[roll.end() : cursor])):
        return roll.start()
    return None


def _next_plies(
    rules: Game, report: Report, rolls: re.Pattern[str] | None, typed: str, start: int, end: int
) -> list[Completion]:
    """The legal plies after the record checked, most alike the text typed first; in a game of dice,
    those of the roll typed, each with its roll as typed where the canonical plies write it otherwise (`36`,
    `3-6:`: 63:) for the editor to match what is typed against (review71b: it would hide `63: 2/8 1/4`)."""
    plies = rules.legal_plies(report.positions[-1])
    written = (rolls.match(typed) or rolls.fullmatch(f"{typed}:")) if rolls else None  # (`36`, its colon not typed
    # yet: h71a, its plies were not offered first)
    shown = dice = ""
    if written:  # the plies of the roll written, as the canonical plies write it
        dice = rules.roll_text(written)
        plies = [p for p in plies if p.startswith(dice)]
        shown = typed[: written.end()].removesuffix(":") + ":"
        shown = "" if shown == dice else shown
        typed = dice + typed[written.end() :]
    plies.sort(key=lambda p: (not p.startswith(typed), -SequenceMatcher(None, typed, p).ratio()))
    moves = cast("Moves", report.moves())  # (replayed: `_ply_completions` checks)
    return [
        Completion(p, "ply", start, end, moves.said_after(report.plies, p), (), shown + p[len(dice) :] if shown else "")
        for p in plies
    ]


def _next_number(rules: Game, record: Record, report: Report, plies: list[str], begins: bool) -> str | None:
    """The move number of the next ply (one of `plies`), when one is written before it: not a ply's that
    continues its side's turn, nor a second ply's `N...` but where the line `begins` or is broken
    (`_line_broken`: `(3... d1-c1`, as fmt writes it)."""
    continued = Continued(record, rules.continued, passed=report.passed)
    continues = bool(plies) and rules.continued is not None and all(map(rules.continued.match, plies))
    counted = continued.number(report.plies + 1, (0, report.plies - 1)) - continues  # (a ply that continues a turn
    # is numbered as the ply it continues: `1. d1-d3xd4 {…} 1. d3=f3xg3`, h71a)
    number = move_number(counted, numbering(record, rules, report.positions[0], continued))
    return number if not number.endswith("...") and not continues or begins else None


# -- symbols and tokens ---------------------------------------------------------


def symbol_name(entry: Entry) -> str:
    """`White – Black, Event, Date, result` for the outline; of the Date what is known (`1283` for
    `1283.??.??`), none when nothing is (`????.??.??`, no Date tag)."""
    tags = entry.report.tags
    result = entry.report.result or tags.get("Result", "?")
    date = re.sub(r"(?:^\?+|\.\?+)+$", "", tags.get("Date", ""))
    return (
        f"{tags.get('White', '?')} – {tags.get('Black', '?')}, {tags.get('Event', '?')}, "
        + (f"{date}, " if date else "")
        + result
    )


def symbol_detail(entry: Entry) -> str:
    """`game (variant), N plies, validity` for the outline: of a record being typed, its plies so far."""
    report, replayed = entry.report, entry.replayed
    errors = sum(d.severity == ERROR for d in report.diagnostics)
    state = "valid" if report.valid else plural(errors, "error")
    return f"{replayed.game or '?'} ({replayed.variant or '?'}), {plural(replayed.plies, 'ply', 'plies')}, {state}"


TOKEN_TYPES = ("property", "string", "comment", "number", "function", "operator", "keyword", "decorator")
# tag name, tag value, comment (and % lines), move number, ply, capture, result, NAG or suffix


@cache
def _token_pattern(game: str) -> re.Pattern[str]:
    """One pattern for every token of a game's movetext, built from its grammar's terminals."""
    parser = builder_parser(game)
    terminal = {
        name: parser.get_terminal(name).pattern.to_regexp()
        for name in ("TAG_NAME", "TAG_VALUE", "COMMENT", "NAG", "RESULT", "MOVE_NUMBER", "PLY", "SUFFIX")
    }
    return re.compile(
        rf"(?m:^(?P<escape>%[^\n]*))|\[{BLANK}*(?P<property>{terminal['TAG_NAME']}){BLANK}+"
        rf"(?P<string>{terminal['TAG_VALUE']}){BLANK}*\]|(?P<comment>{terminal['COMMENT']})"
        rf"|(?P<decorator>{terminal['NAG']})|(?P<keyword>{terminal['RESULT']})(?![^\s(){{}};])"
        rf"|(?P<number>{terminal['MOVE_NUMBER']})|(?P<function>{terminal['PLY']})"
        rf"(?P<suffix>{terminal['SUFFIX']})?"
    )


Token = tuple[int, int, int, int]  # line, column, length, token type index


class KeptTokens:
    """The tokens of the lgn records of a document's last layout, by text and pattern, their rows from each one's
    first line: an editor asks for every token of a document at each edit, and the records it leaves unchanged keep
    theirs (h79c: a 500-record file's took half a second each time); those of no record of the document at its
    last layout are let go (review80: kept by text in a cache of 4,096, they grew by megabytes an edit)."""

    def __init__(self) -> None:
        self.last: dict[tuple[str, re.Pattern], tuple[Token, ...]] = {}
        self.now: dict[tuple[str, re.Pattern], tuple[Token, ...]] = {}

    def of(self, text: str, pattern: re.Pattern) -> tuple[Token, ...]:
        """The tokens of the record `text`, kept from the last layout, or laid out."""
        key = (text, pattern)
        found = self.now.get(key) or self.last.get(key) or tuple(_lgn_tokens(text, pattern))
        self.now[key] = found
        return found

    def laid_out(self) -> None:
        """A layout of the whole document ended: its records' tokens are those kept."""
        self.last, self.now = self.now, {}


def document_tokens(entries: list[Entry], kept: KeptTokens) -> Iterator[Token]:
    """The tokens of a document's `entries`, in order, its lgn records' `kept` from its last layout, which this one
    then is."""
    for entry in entries:
        yield from tokens(entry, kept)
    kept.laid_out()


def tokens(entry: Entry, kept: KeptTokens | None = None) -> Iterator[Token]:
    """(line, column, length, token type index) of each token, 0-based in the document, one
    line at a time (a token that spans lines is cut at the line ends); of a record of another
    format than lgn, its plies alone (`_read_ply_tokens`). An lgn record's from `kept`, when given."""
    if not entry.lgn:
        yield from _read_ply_tokens(entry)
        return
    game = (scan_tags(entry.source.text).get("Game") or "").lower()
    pattern = _token_pattern(game if game in GAMES else any_game())
    text = entry.source.text
    for row, column, length, kind in kept.of(text, pattern) if kept else _lgn_tokens(text, pattern):
        yield entry.offset + row, column, length, kind


def _lgn_tokens(text: str, pattern: re.Pattern) -> Iterator[Token]:
    """The tokens of an lgn record's `text` (`pattern`: its game's `_token_pattern`), their rows from its first
    line."""
    starts = [0] + [m.end() for m in re.finditer("\n", text)]  # where each line starts

    def spans(start: int, end: int, kind: str) -> Iterator[tuple[int, int, int, int]]:
        row = bisect_right(starts, start) - 1
        while start < end:
            stop = min(end, starts[row + 1] - 1) if row + 1 < len(starts) else end
            if stop > start:
                yield row, start - starts[row], stop - start, TOKEN_TYPES.index(kind)
            row += 1
            start = starts[row] if row < len(starts) else end

    for match in pattern.finditer(text):
        if match["function"]:
            start = match.start("function")
            for part_start, part_end, part in _ply_parts(match["function"]):
                yield from spans(start + part_start, start + part_end, part)
            yield from spans(*match.span("suffix"), "decorator") if match["suffix"] else ()
        elif match["property"]:
            yield from spans(*match.span("property"), "property")
            yield from spans(*match.span("string"), "string")
        elif kind := match.lastgroup:  # the group that matched
            yield from spans(*match.span(kind), "comment" if kind == "escape" else kind)


def _ply_parts(ply: str) -> list[tuple[int, int, str]]:
    """A ply's text as tokens (start, end, type): the move (`function`), then its capture list (`operator`)."""
    capture = re.search(r"x[^~#+]*", ply)
    cut = capture.start() if capture else len(ply)
    return [(0, cut, "function")] + ([(cut, cut + len(capture[0]), "operator")] if capture else [])


def _read_ply_tokens(entry: Entry) -> Iterator[tuple[int, int, int, int]]:
    """The tokens of a record of another format: each ply its reader placed in the document where the
    document writes it as its text (an .otg's, a move list's, a CSV's, a scrape's `Moves`, and those it
    placed before it refused the record: `RecordText.placed`; not a log's `Turn:` line, which writes it
    in words), its capture list apart; the rest of such a document has no syntax in common with lgn's,
    and no token."""
    record, plies = entry.source.parsed, _Plies()
    if isinstance(record, Record):
        walk(record, plies)
    lines = lines_of(entry.source.text)
    for ply in [ply for ply, _, _ in plies.plies] or entry.source.placed:
        row, column = ply.line - entry.source.line, ply.column - 1
        if 0 <= row < len(lines) and lines[row][column : column + len(ply.text)] == ply.text:
            for start, end, kind in _ply_parts(ply.text):
                yield ply.line - 1, column + start, end - start, TOKEN_TYPES.index(kind)
