"""What every reader of another format shares: where an offset is in the file, a record
under construction (`Draft`), the rule tags of a set of options, and the claims of the capture
lists of the tafl sites (RULES.md H1–H3), which write them their own way: `SiteClaims`, which the
record's replay checks."""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import cast

from lusoria.notation.model import Line, Ply, Record
from lusoria.notation.reader import RecordText, long_token, token_message
from lusoria.notation.syntax import SyntaxProblem
from lusoria.validator.base import (
    Claims,
    Game,
    Illegal,
    OptionError,
    Outcome,
    Played,
    Position,
    changed_options,
    written_options,
)
from lusoria.validator.games import GAMES, rules_from_tags
from lusoria.validator.tafl import TaflGame
from lusoria.validator.tafl_board import KING, Move, TaflPosition, capture_list, parse_move
from lusoria.validator.tafl_continuations import played_on, taken
from lusoria.validator.tafl_rules import idle
from lusoria.words import escape_controls, quoted

CANNOT_EXPRESS = "lusoria cannot express"
SHOWN = 40  # characters of a word of the input quoted in a message


def reader_note(reader: str, message: str) -> str:
    """A comment the reader of a format adds to a record it read, of how it read its source (`aage reader:
    the capture list a10xa10 repeats a square; read as a10`): lusoria's, not the annotator's, which the replay
    page shows apart (h75b)."""
    return f"{reader} reader: {message}"


def shown(word: str) -> str:
    """A word of the input as a message quotes it: cut after SHOWN characters, its control
    characters made visible (`\\x00`)."""
    return escape_controls(word if len(word) <= SHOWN else word[:SHOWN] + "…")


_LINE_END = re.compile("\n")


class Locator:
    """1-based line and column of an offset in a text: `starts`, the offsets its lines start at,
    found by the regular-expression engine (a list: `bisect` over an array took more time than the
    finding saves)."""

    def __init__(self, text: str):
        self.text = text
        self.starts = [0] + [end.end() for end in _LINE_END.finditer(text)]

    def where(self, offset: int) -> tuple[int, int]:
        line = bisect_right(self.starts, offset)
        return line, offset - self.starts[line - 1] + 1

    def lines(self, first: int, last: int) -> str:
        """The text of lines `first`…`last` (1-based, inclusive)."""
        end = self.starts[last] if last < len(self.starts) else len(self.text)
        return self.text[self.starts[first - 1] : end]


@dataclass
class Draft:
    """A record being read from another format; offsets are into the whole file. A reader sets its
    tags (`tag`), its plies (`ply`) and its result marker (`result`, at the offset `result_at`: the
    game's end when None), then hands over `source(path, index)`; what the text gets wrong where no
    record can be read is a `problem`, given to `source` in the record's place."""

    reader: str  # the format's name, for notes
    locator: Locator
    start: int  # offset of the game's first character
    end: int  # offset just past its last
    tags: dict[str, str] = field(default_factory=dict)
    places: dict[str, tuple[int, int]] = field(default_factory=dict)
    line: Line = field(default_factory=Line)
    result: str = "*"
    result_at: int | None = None
    listed: set[int] = field(default_factory=set)  # the plies (indexes) whose every capture the source lists
    problems: list[SyntaxProblem] = field(default_factory=list)  # what the source gets wrong, at plies
    hint: str = ""  # what the record's first error adds (RecordText.hint)
    unread: list[str] = field(default_factory=list)  # its notes of lines of its file not read (`note_unread`)
    claims: Claims | None = None  # what its replay checks of its main line (RecordText.claims: `site_claims`)

    def tag(self, name: str, value: str, offset: int | None = None) -> None:
        """Set the tag `name` to `value`, written at `offset` (None: the game's first character)."""
        self.tags[name] = value
        self.places[name] = self.locator.where(self.start if offset is None else offset)

    def ply(self, text: str, offset: int, end: int | None = None) -> Ply:
        """Add a ply to the main line, written at `offset`; `end`: where the source's words for it end,
        when it writes it otherwise (`Ply.width`); the Ply (a `note` may go to it)."""
        line, column = self.locator.where(offset)
        ply = Ply(text, line, column, width=0 if end is None else end - offset)
        self.line.plies.append(ply)
        return ply

    def note(self, message: str, ply: Ply | None = None) -> None:
        """Say, in the record, how the reader normalised what the source wrote."""
        (ply.comments if ply else self.line.comments).append(reader_note(self.reader, message))

    def note_unread(self, message: str) -> None:
        """Say, in the record, that lines of its file are not read (an e-mail's prose, its signature):
        said after its first error too when it does not parse (RecordText.notes)."""
        self.note(message)
        self.unread.append(self.line.comments[-1])

    def problem(self, message: str, offset: int, found: str = "", rule: str = "syntax") -> SyntaxProblem:
        """What the text gets wrong at `offset` (`found`: the text at fault there; `rule`: `syntax`, or
        `tag` for a tag's value), as a record's problem, at its line and column."""
        return SyntaxProblem(message, *self.locator.where(offset), found, rule)

    def problem_at_ply(self, index: int, message: str, rule: str) -> None:
        """Keep what the source gets wrong at ply `index` of the main line (a capture), breaking `rule`,
        at the ply's place and width (validate's caret and the editor's underline cover the ply as written)."""
        ply = self.line.plies[index]
        self.problems.append(SyntaxProblem(message, ply.line, ply.column, ply.text, rule, index + 1, ply.width))

    def refuse_long_tokens(self, pieces: re.Pattern[str]) -> None:
        """A SyntaxProblem at the record's first token longer than MAX_TOKEN (`pieces` cuts the
        format's text into tokens), before anything reads it: lgn's bound, for every format."""
        token = long_token(self.locator.text, pieces, self.start, self.end)
        if token is not None:
            raise self.problem(token_message(token), token.start(), token[0][:20])

    def source(self, path: str, index: int, parsed: Record | SyntaxProblem | None = None) -> RecordText:
        """The RecordText the commands check: the game's own lines, the record read from them, and the
        notes of lines not read (`note_unread`: said after the first error of a record that does not parse)."""
        first = self.locator.where(self.start)[0]
        last = self.locator.where(max(self.start, self.end - 1))[0]
        if parsed is None:
            parsed = self.record()
        problems = tuple(self.problems) if isinstance(parsed, Record) else ()
        lines = self.locator.lines(first, last)
        placed = tuple(self.line.plies) if isinstance(parsed, SyntaxProblem) else ()
        return RecordText(
            lines,
            first,
            index,
            path,
            self.reader,
            parsed,
            problems,
            self.hint,
            notes=tuple(self.unread),
            placed=placed,
            claims=self.claims if isinstance(parsed, Record) else None,
        )

    def record(self) -> Record:
        """The record read: its tags (with a Result tag, the result read, when the source gave none;
        `tags` gets it too), each at its place (a tag of no place at the game's first line), its
        main line and result."""
        first = self.locator.where(self.start)
        places = {name: self.places.get(name, first) for name in self.tags}
        result_line, result_column = self.locator.where(self.end if self.result_at is None else self.result_at)
        self.tags.setdefault("Result", self.result)
        places.setdefault("Result", first)
        return Record(dict(self.tags), self.line, self.result, first[0], places, result_line, result_column)


ONE_A_LINE = re.compile(r"[^\n]*\S[^\n]*")  # a line that is not blank: a game of a file of one game a line


def drafts(
    reader: str, text: str | Locator, games: re.Pattern[str] | Iterable[re.Match[str]] = ONE_A_LINE
) -> Iterator[tuple[int, re.Match[str], Draft]]:
    """Each game of a file (its text, or the Locator of its lines that the reader made already) that
    holds one game a line (or a `games` match, or each of the matches `games`): its index, the match
    and a Draft over it (`reader`: the format's name)."""
    locator = text if isinstance(text, Locator) else Locator(text)
    for index, game in enumerate(games.finditer(locator.text) if isinstance(games, re.Pattern) else games):
        yield index, game, Draft(reader, locator, game.start(), game.end())


def one_game(draft: Draft, read: Callable[[Draft, str], None], text: str, path: str) -> Iterator[RecordText]:
    """The record of a file that holds one game, read into `draft` by `read`; a syntax problem
    makes it a record that carries the problem."""
    try:
        read(draft, text)
    except SyntaxProblem as problem:
        yield draft.source(path, 0, problem)
        return
    yield draft.source(path, 0)


def rule_tags(
    game: type[TaflGame], options: dict[str, str], kept: tuple[str, ...] = (), preferred: str | None = None
) -> dict[str, str]:
    """`Variant` and `Rules` tags for a full set of a tafl game's options: the preset `preferred`
    (the one a file names), else the one that needs the fewest overrides (no Variant tag for the
    default preset of a game with a default), among those whose options `kept` are the set's (the
    generic game's board: its presets' `dim` and `start`)."""

    unused = idle(options)

    def overrides(preset: str) -> dict[str, str]:
        return {
            key: value
            for key, value in changed_options(options, game.preset_options(preset)).items()
            if key not in unused
        }

    among = [name for name in game.presets if all(game.preset_options(name)[key] == options[key] for key in kept)]
    preset = preferred if preferred in among else min(among or game.presets, key=lambda name: len(overrides(name)))
    tags = {"Variant": preset} if preset != next(iter(game.presets)) or game.described else {}
    if changed := overrides(preset):
        tags["Rules"] = written_options(changed)
    return tags


def tafl_games() -> list[type[TaflGame]]:
    """The registered games of the tafl family (the registry's order)."""
    found = []
    for name in GAMES:
        if issubclass(game := GAMES[name], TaflGame):
            found.append(game)
    return found


def tafl_rules(tags: dict[str, str]) -> TaflGame:
    """The rules of the tafl game that `tags` choose (its Game tag; OptionError if none): every
    format here is the tafl family's. A reader needs rules (a board, a first mover): of a game whose
    boards are its variants, a variant, unlike an lgn record, which `lusoria rules` searches without one."""
    game = GAMES[tags["Game"]] if tags.get("Game") in GAMES else None
    if game is None or not issubclass(game, TaflGame):
        raise OptionError(f"{quoted(str(tags.get('Game')))} is not a tafl game", "Game")
    if game.described and not (tags.get("Variant") or "").strip():
        raise OptionError(
            f"{game.name} describes its boards by its variants, and these records are read under one (its board, "
            f"the side that moves first): name any of their board's with --variant V (lusoria explain {game.name} "
            f"lists its {len(game.presets)}); lusoria rules --game {game.name} --variant V tries the others too",
            "Variant",
        )
    return rules_from_tags(game, tags)


def without_captures(text: str) -> str:
    return text.split("x", 1)[0]


@dataclass(frozen=True)
class SiteClaims:
    """What a tafl site's file says of a record's main line that only its replay checks (RULES.md
    H1–H3; RecordText.claims, which `check`'s replay asks of each ply: one replay, not one here and
    one there): a move written with its hyphen lists every soldier it captures (`listed`, the plies'
    indexes), and never the king; `stated`: whether the file states the result. A list that lacks
    only the captured king gets him, with a note; a list that leaves out a soldier the move captures
    (an empty one included, which lusoria's notation would read as "computed") is a problem of the
    record at that ply; a list with a square too many is the validator's to report. A list that says
    nothing of the result gets the one its last ply ends the game with (`ended`)."""

    reader: str  # the format's name, for notes
    listed: frozenset[int]
    stated: bool

    def retried(self, rules: Game, position: Position, ply: Ply) -> Played | None:
        """The move of `ply` (its list the rules refuse) played as the site writes it, its list without
        the king; None for another list, where the move alone is the ply as written (`unwritten`), or
        where a square is off the board (a set of another board that `lusoria rules` tries)."""
        tafl = cast(TaflGame, rules)
        text = ply.text if tafl.settings.unwritten else without_captures(ply.text)
        try:
            move = parse_move(tafl.geo, ply.text)
            if text == ply.text or move is None:
                return None
            played = tafl.play(cast(TaflPosition, position), text)
        except Illegal:
            return None
        actual, soldiers = _captured(tafl, move, position, played)
        if move.captures != soldiers or actual == soldiers:
            return None
        self._add_king(tafl, ply, played, actual - soldiers)
        return played

    def checked(
        self, rules: Game, index: int, position: Position, played: Played, record: Record
    ) -> tuple[str, str] | bool:
        tafl, ply = cast(TaflGame, rules), record.main.plies[index]
        move = parse_move(tafl.geo, ply.text)
        actual, soldiers = _captured(tafl, move, position, played) if move else (frozenset[int](), frozenset[int]())
        said: tuple[str, str] | bool = True
        written = move.captures if move else None
        if written is None and index in self.listed and soldiers:  # the notation would compute them
            said = (
                tafl.settings.ids.capture,
                f"the move captures {capture_list(tafl.geo, soldiers)}, which the record does not list",
            )
        elif written is not None and written != actual:
            if written != soldiers:
                return False
            self._add_king(tafl, ply, played, actual - soldiers)
        if not self.stated and record.result == "*" and index == len(record.main.plies) - 1 and played.outcome:
            record.result = record.tags["Result"] = played.outcome.result
            ply.comments.append(reader_note(self.reader, ended(played.outcome, "list")))
        return said

    def _add_king(self, rules: TaflGame, ply: Ply, played: Played, king: frozenset[int]) -> None:
        ply.comments.append(
            reader_note(
                self.reader, f"the source does not list the captured king; added {rules.geo.names[next(iter(king))]}"
            )
        )
        ply.text = played.text


def _captured(rules: TaflGame, move: Move, position: Position, played: Played) -> tuple[frozenset[int], frozenset[int]]:
    """What `move`, `played` from `position`, captures: every piece, and the soldiers."""
    before, after = cast(TaflPosition, position), cast(TaflPosition, played.position)
    board = played_on(before, after)
    actual = frozenset(taken(board, after.board)) - {move.origin}  # (taken: the mover's square too)
    return actual, frozenset(square for square in actual if board[square] != KING)


def site_claims(draft: Draft) -> SiteClaims:
    """The claims of `draft`'s tafl site (`SiteClaims`), for its record's replay to check."""
    return SiteClaims(draft.reader, frozenset(draft.listed), draft.result != "*" or "Result" in draft.tags)


def main_line_played(
    draft: Draft, rules: TaflGame, texts: list[str] | None = None
) -> Iterator[tuple[int, TaflPosition, Played[TaflPosition]]]:
    """Replay `draft`'s main line (its plies' `texts`, as written when not given) from its
    Position, or the start: each ply's index, the position before it and how it played. A ply
    that ends the game is read where it did not when the next ply shows that the game went on
    (`Game.play_past_end`, G16: a record that leaves out berserk continuations). Stops after the
    ply that ends the game, and at a bad Position or the first ply that does not play (the
    validator reports them)."""
    try:
        position = rules.parse_position(draft.tags["Position"]) if "Position" in draft.tags else rules.initial()
    except OptionError:
        return
    plies = draft.line.plies
    texts = texts or [ply.text for ply in plies]
    ahead: Played[TaflPosition] | None = None  # the ply played past the end of the game that the ply before it ended
    for index in range(len(plies)):
        try:
            played = ahead if ahead is not None else rules.play(position, texts[index])
        except Illegal:
            return
        went_on = (
            rules.play_past_end(played.position, texts[index + 1])
            if played.outcome is not None and index + 1 < len(plies)
            else None
        )
        if went_on is not None:  # this ply where the game went on, and the next
            played, ahead = went_on.earlier[-1], went_on
        else:
            ahead = None
        yield index, position, played
        if played.outcome is not None:
            return
        position = played.position


def note_the_end(draft: Draft, index: int, played: Played, source: str) -> None:
    """When ply `index`, played, is the main line's last and ends the game: the record gets the
    result it ends with, and a note that the `source` (the list, the header) gives none."""
    if played.outcome is not None and index == len(draft.line.plies) - 1:
        draft.result = played.outcome.result
        draft.note(ended(played.outcome, source), draft.line.plies[index])


def ended(outcome: Outcome, source: str) -> str:
    """The note of a game that `outcome` ended whose `source` (the list, the header) gives no result."""
    return f"the {source} gives no result; the game ended {outcome.result} ({outcome.reason}, {outcome.rule})"
