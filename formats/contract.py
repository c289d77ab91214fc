"""What a format's reader hands over, checked where the pipeline takes it (`handed_over`, called
by `lusoria.formats.read_text` on every reader, built in or a plug-in's). The contract:

- the reader yields `RecordText`s, one a record, in the order of the file;
- each one's `parsed` is None (its `text` is lgn, which lusoria's reader parses and checks), a
  `SyntaxProblem` (the record cannot be read: where and why), or a `Record` whose `Game` tag names
  a game the registry knows (`lusoria.validator.games.GAMES`) and whose every ply, in the main
  line and in variations, is a ply of that game as its grammar writes it
  (`lusoria.notation.is_ply`: no move number, no suffix such as `!`); or a refused `Record`: no
  `Game` tag and no ply, its tags what the file says of the game (its type, when the file names
  one, as its `GameType` tag: `TYPE_TAG`), and a `tag` problem among its `problems` saying why its
  game could not be named (the archive keeps it, `Report.refused`; the summary of a run counts
  such records by type, saying why as their format's `Format.why_refused` does);
- what it found wrong at plies goes to `problems` (SyntaxProblems), the record still read; what only
  a replay of its main line can check goes to `claims` (`lusoria.validator.base.Claims`, such as the
  tafl sites' capture lists: `formats.common.SiteClaims`), which `check`'s replay asks of each ply;
- every place it gives (of the record, its tags, plies and result, and of its problems) is a place of
  the text it read: a line of it, and a column of that line or just after its end.

The pipeline makes each run of line breaks in a handed-over record's tag value a space, as lgn,
which writes a tag on one line, reads it back (`one_line`).

A record that breaks it becomes a SyntaxProblem in its place, located at the breach and naming the
reader (`error[syntax]: the moves reader handed over 'zz', which is not a ply of tablut`): the other
records go on, and the bug is the reader's, not lusoria's. An item that is no RecordText ends the
source with an InputError naming the reader, as does an exception raised by a plug-in's reader
(`read_by_plug_in`: its bug, said with where it was raised, not lusoria's internal error)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace

from lusoria.errors import DataError
from lusoria.notation.model import Ply, Record
from lusoria.notation.reader import RecordText, is_ply
from lusoria.notation.sources import InputError, shown_place
from lusoria.notation.syntax import SyntaxProblem
from lusoria.notation.visitor import PlyKey, Visitor, walk
from lusoria.notation.writer import one_line
from lusoria.plugins import FAILS, failure, traceback_of
from lusoria.validator.games import GAMES, known_games
from lusoria.words import quoted

TYPE_TAG = "GameType"  # the tag of a refused record that names its game type, as its file names it


def handed_over(records: Iterable[object], format: str, path: str, text: str) -> Iterator[RecordText]:
    """The records a reader of `format` yields for the file `path`, whose `text` it read, each checked
    against the contract."""
    lines = text.split("\n")
    for record in records:
        if not isinstance(record, RecordText):
            raise InputError(
                f"{shown_place(path)}: the {format} reader handed over a {type(record).__name__}, "
                "not a record (RecordText)"
            )
        refused = any(problem.rule == "tag" for problem in record.problems)
        breach = misplaced(record, format, lines)
        if breach is None and isinstance(record.parsed, Record):
            breach = breach_of(record.parsed, format, refused)
        yield _on_one_line(record) if breach is None else replace(record, parsed=breach, problems=())


def read_by_plug_in(
    read: Callable[[str, str, dict[str, str] | None], Iterable[object]],
    format: str,
    text: str,
    path: str,
    tags: dict[str, str] | None,
) -> Iterator[object]:
    """What the reader of a plug-in's `format` yields for the file `path`; an exception it raises
    (but an InputError, a DataError of lusoria's data, or a MemoryError: the input too large, as
    for any reader) ends the source with an InputError that names the reader and the last record
    it handed over (the file is read up to there); so does what is no iterable of records (a
    reader that returns None)."""
    last: object = None
    try:
        records = read(text, path, tags)
        if not isinstance(records, Iterable):
            raise InputError(
                f"{shown_place(path)}: the {format} reader handed back a {type(records).__name__}, not records"
            )
        for last in records:
            yield last
    except (InputError, DataError, MemoryError):
        raise
    except FAILS as error:  # its sys.exit() too
        after = f" after record {last.index} (line {last.line})" if isinstance(last, RecordText) else ""
        said = f"{shown_place(path)}: the {format} reader failed{after}: {failure(read, error)}"
        raise InputError(said, trace=traceback_of(error)) from error


def misplaced(record: RecordText, format: str, lines: list[str]) -> SyntaxProblem | None:
    """The first place `record` gives that is not in the text of `lines`, as a SyntaxProblem at its
    first line (or the text's, when that is not in it); None when every place is."""
    for what, named, line, column in _places(record):
        if not 1 <= line <= len(lines):
            where = f"not in the text it read, which ends at {len(lines)}:{len(lines[-1]) + 1}"
        elif not 1 <= column <= len(lines[line - 1]) + 1:
            where = f"not on line {line}, which ends at {line}:{len(lines[line - 1]) + 1}"
        else:
            continue
        first = record.line if 1 <= record.line <= len(lines) else 1
        said = _described(what, named)
        return SyntaxProblem(f"the {format} reader handed over {said} at {line}:{column}, {where}", first, 1)
    return None


def _described(what: str, named: str | None) -> str:
    """A place `what` is, with its `named`: a tag's name, a problem's message or a ply's text, quoted."""
    if named is None:
        return what
    return f"{what} {named if what == 'the tag' else quoted(named)}"


def _places(record: RecordText) -> Iterator[tuple[str, str | None, int, int]]:
    """What `record` places in its text (a problem, a tag, a ply… and its message, name or text, quoted
    only when a place is misplaced: a ply each), with its line and column (1 for a line alone: a
    problem's column left unset, 0 in a SyntaxProblem)."""
    yield "the record", None, record.line, 1
    problems = [*record.problems, *([record.parsed] if isinstance(record.parsed, SyntaxProblem) else [])]
    for problem in problems:
        if problem.line is not None:
            yield "the problem", problem.message, problem.line, problem.column or 1
    if isinstance(record.parsed, Record):
        parsed = record.parsed
        yield "the record", None, parsed.line, 1
        for name, (line, column) in parsed.tag_places.items():
            yield "the tag", name, line, column
        plies = _Plies()
        walk(parsed, plies)
        for ply in plies.found:
            yield "the ply", ply.text, ply.line, ply.column
        if parsed.result_line:
            yield "the result", None, parsed.result_line, parsed.result_column


def _on_one_line(record: RecordText) -> RecordText:
    """The record with its tag values on one line (the same record when they are)."""
    if not isinstance(record.parsed, Record):
        return record
    tags = {name: one_line(value) for name, value in record.parsed.tags.items()}
    return record if tags == record.parsed.tags else replace(record, parsed=replace(record.parsed, tags=tags))


def breach_of(record: Record, format: str, refused: bool = False) -> SyntaxProblem | None:
    """Where and how a record read by the reader of `format` breaks the contract; None when it keeps it.
    `refused`: the reader said why it could not name the record's game (a `tag` problem)."""
    game = record.tags.get("Game")
    line, column = record.tag_places.get("Game", (record.line, 1))
    if game is None and refused and not record.main.plies:
        return None
    if game is None:
        return SyntaxProblem(f"the {format} reader handed over a record with no Game tag", record.line, 1, "", "tag")
    if game.lower() not in GAMES:
        return SyntaxProblem(
            f"the {format} reader handed over the unknown game '{game}' (known: {', '.join(known_games())})",
            line,
            column,
            game,
            "tag",
        )
    plies = _Plies()
    walk(record, plies)
    wrong = next((ply for ply in plies.found if not is_ply(game, ply.text)), None)
    if wrong is None:
        return None
    return SyntaxProblem(
        f"the {format} reader handed over {quoted(wrong.text)}, which is not a ply of {game.lower()}",
        wrong.line,
        wrong.column,
        wrong.text[:20],
    )


class _Plies(Visitor):
    """Every ply of a record, variations included."""

    def __init__(self) -> None:
        self.found: list[Ply] = []

    def visit_ply(self, ply: Ply, number: int, key: PlyKey) -> None:
        self.found.append(ply)
