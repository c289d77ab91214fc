"""Tablut Challenge server logs (`*_gameLog.txt`, written by GameAshtonTablut.java of
AGalassi/TablutCompetition through java.util.logging's SimpleFormatter): a header line, then
`LEVEL: message` (the level's name may be localised), messages in Italian; its lines may be
indented (tabs or spaces), and a tab may stand for a space (`_blanked`).

The reader takes the players (`Players:`), each move the server accepted (`Turn: W Pawn from
e3 to f3`, followed by the board it printed), and the end (`Bianco vince…`, `Nero vince…`,
`…pareggio…`, or the turn `WW`/`BW`/`D` under the last board). The server prints rank 1 first
(row i is rank i+1, column j is file a+j: `State.getBox`), `T` for the empty throne. The squares
that the printed board emptied of the opponent's pieces become the ply's capture list, so a
board that differs from lusoria's rules is a T4/T5 diagnostic at that ply; a board that the
move cannot explain at all is an error at the move. A move the server refused (a warning
follows it) is skipped with a note. A log that ends without an ending is a game without a
result (`*`), noted; one that ends inside a board (truncated), or whose board does not show the
move before it, is read up to that move, the board its error."""

from __future__ import annotations

import re
from collections.abc import Iterator

from lusoria.formats import FORMATS
from lusoria.formats.common import (
    CANNOT_EXPRESS,
    Draft,
    Locator,
    main_line_played,
    one_game,
    tafl_rules,
)
from lusoria.notation.model import Ply
from lusoria.notation.numbers import checked_number
from lusoria.notation.reader import RecordText
from lusoria.notation.sources import ESCAPED_BYTE
from lusoria.notation.syntax import SyntaxProblem
from lusoria.validator.tafl import TaflGame
from lusoria.validator.tafl_board import ATTACKER, DEFENDER, KING, OWNER, capture_list

_MESSAGE = re.compile(r"^[ \t]*(?P<level>[A-Z][A-Za-z]+|[A-Z]+):[ \t](?P<text>.*)$")  # indented or not
_TURN = re.compile(
    r"Turn:[ \t](?P<side>[WB]|null)[ \t]Pawn[ \t]from[ \t](?P<origin>[A-Za-z]\d)[ \t]to[ \t](?P<target>[A-Za-z]\d)"
)  # a blank a tab or a space, as in every message (`_blanked`)
_KING_TAKEN = re.compile(
    r"Nero[ \t]vince[ \t]con[ \t]re[ \t]catturato[ \t]in:[ \t](?P<square>[A-Ia-i][1-9])"
)  # a square of the board
_DATE_LINE = re.compile(
    r"[ \t]*(?P<month>[A-Za-z]{3})[ \t](?P<day>[0-9]{1,2}),[ \t](?P<year>[0-9]{4})[ \t]"
    r"(?P<hour>[0-9]{1,2}):(?P<minute>[0-9]{2}):(?P<second>[0-9]{2})[ \t](?P<half>[AP]M)[ \t]"
)
_DATE_END = re.compile(r"[ \t][AP]M[ \t]")  # what ends the date of a log's first line
MONTHS = {  # a month's name as the server's clock writes it (its locale's: English, Italian) -> its number
    name: number
    for names in ("jan feb mar apr may jun jul aug sep oct nov dec", "gen feb mar apr mag giu lug ago set ott nov dic")
    for number, name in enumerate(names.split(), 1)
}
_PLAYERS = re.compile(r"Players:\t(?:White:\t)?(?P<white>.*)\tvs\t(?P<black>.*)")  # "White:" in 2019's first logs
_REPEATED = re.compile(r"Repeated moves allowed:\t(?P<allowed>-?\d+)\tCache:\t(?P<cache>-?\d+)")
_ROW = re.compile(r"[OWBKT]{9}")
_BOARD_LINE = re.compile(r"[OWBKT]{9}|-|W|B|WW|BW|D")  # a board's row, or a line printed under it
_CUT = re.compile(r"[^\n]*(?:\n[OWBKT]*)*\s*")  # a log's end from a board's last line: rows, the last cut short
_FIELDS = re.compile(r"[^\t\n]+")  # a log's tokens: a line's tab-separated fields (MAX_TOKEN)
NOISE = ("Movimento", "Pedina", "Capture", "Current", "Equal", "Inizio")  # how the messages the reader
# ignores start (a move made, a piece removed, the draw cache, the game's start), unless they hold an ending
CELLS = {"O": 0, "T": 0, "W": DEFENDER, "B": ATTACKER, "K": KING}
ENDINGS = (("Bianco vince", "1-0"), ("Nero vince", "0-1"), ("pareggio", "1/2-1/2"))
TURN_RESULTS = {"WW": "1-0", "BW": "0-1", "D": "1/2-1/2"}


def looks_like_log(head: str) -> bool:
    return "Players:\t" in head and ("Inizio partita" in head or "Stato:" in head)


def read_log(text: str, path: str, tags: dict[str, str] | None = None) -> Iterator[RecordText]:
    """A game log holds one game, under the rules of the format's entry (`tags` are not read:
    the server's rules are its own)."""
    draft = Draft("tablut-challenge", Locator(text), 0, len(text))
    for name, value in FORMATS["tablut-challenge"].games[""].items():
        draft.tag(name, value)
    return one_game(draft, _read, text, path)


def _messages(text: str) -> Iterator[tuple[int, str, list[tuple[int, str]]]]:
    """(offset, first line of the message, following lines with their offsets) for each log
    message; the SimpleFormatter's date lines are dropped."""
    current: tuple[int, str, list[tuple[int, str]]] | None = None
    offset = 0
    for line in text.splitlines(keepends=True):
        stripped = line.rstrip()  # (and the blanks it ends in: a log pasted from a mail or a web page)
        match = _MESSAGE.match(stripped)
        if match:
            if current:
                yield current
            current = (offset + match.start("text"), match["text"], [])
        elif current is not None and _BOARD_LINE.fullmatch(stripped.lstrip()):  # (indented, by tabs or spaces)
            current[2].append((offset, stripped.lstrip()))
        elif current is not None:  # a date line: the message has ended
            yield current
            current = None
        offset += len(line)
    if current:
        yield current


def noise_lines(text: str, first_line: int = 1) -> set[int]:
    """The lines of a log's `text` (its first line the line `first_line` of its file) that the reader
    ignores: the messages of `NOISE`, the date lines (the first's date is read when a byte that does
    not decode leaves it whole: `_date`) and the other lines of no message, but for those where a
    board's line may stand (after `Stato:`, a row or the `-` under the rows)."""
    noise, board = set(), False  # board: whether a board's line may follow
    for index, line in enumerate(text.split("\n")):  # as the file's lines are counted
        line = line.strip()
        message = _MESSAGE.match(line)
        if message:
            ignored, board = _noise(message["text"]), message["text"].startswith("Stato:")
        else:
            ignored = _DATE_LINE.match(line) is not None or not board
            board = board and (line == "-" or _ROW.fullmatch(line) is not None)
        if ignored:
            noise.add(first_line + index)
    return noise


def _noise(message: str) -> bool:
    """Whether the reader ignores a log message (`NOISE`)."""
    return message.startswith(NOISE) and not any(words in _blanked(message) for words, _ in ENDINGS)


def _blanked(message: str) -> str:
    """A log message, a tab between its words read as the space the server wrote (a log whose
    spaces became tabs: pasted from an editor that tabs, `expand`'s reverse)."""
    return message.replace("\t", " ")


def _board(draft: Draft, message: str, rows: list[tuple[int, str]], at: int) -> tuple[bytes, str | None]:
    """The board printed by the message `Stato:` at `at` (rank 1 first) as lusoria's board bytes,
    and the turn printed under it. Some versions print the first row on the `Stato:` line itself."""
    inline = message.removeprefix("Stato:")
    if inline.strip():
        rows = [(at + len(message) - len(inline.lstrip()), inline.strip()), *rows]
    cells = [row for row in rows if _ROW.fullmatch(row[1])]
    if len(cells) != 9:
        raise draft.problem(f"a board of 9 rows was expected after 'Stato:', found {len(cells)} (truncated log?)", at)
    board = bytes(CELLS[char] for _, row in cells for char in row)
    turn = rows[-1][1] if rows[-1][1] in ("W", "B", "WW", "BW", "D") and len(rows) > 9 else None
    return board, turn


def _read(draft: Draft, text: str) -> None:
    draft.refuse_long_tokens(_FIELDS)
    log = _Log(draft, tafl_rules(draft.tags))
    _date(draft, text)
    for at, message, rest in _messages(text):
        log.read(at, message, rest)
    log.end()


class _Log:
    """What the messages of a log read so far say: the players, the last board printed, the move
    that waits for the board printed after it (`pending`), the square the server said it took the
    king on, each ply with its printed board, the result, and the turn printed under the last board."""

    def __init__(self, draft: Draft, rules: TaflGame) -> None:
        self.draft, self.rules = draft, rules
        self.players = False
        self.board: bytes | None = None
        self.pending: tuple[int, re.Match[str]] | None = None
        self.king_taken: int | None = None  # the square where the server said the king was captured
        self.boards: list[bytes] = []  # the board the server printed after each ply
        self.result: str | None = None
        self.result_at: int | None = None
        self.last_turn: str | None = None
        self.stopped = False  # read no further (`_stop`)

    def read(self, at: int, message: str, rest: list[tuple[int, str]]) -> None:
        """The message at `at`, with the lines that follow it (`_messages`)."""
        if self.stopped:
            return
        if self.players and _PLAYERS.match(message):
            return self._stop(self.draft.problem(_ANOTHER_LOG, at, "Players:"), "the log is read up to the move {}")
        if match := _PLAYERS.match(message):
            self.draft.tag("White", match["white"].strip(), at + match.start("white"))
            self.draft.tag("Black", match["black"].strip(), at + match.start("black"))
            self.players = True
        elif match := _REPEATED.match(message):
            _repetitions(self.draft, match, at)
        elif message.startswith("Stato:"):
            self._printed(message, rest, at)
        elif match := _KING_TAKEN.match(message):
            self.king_taken = self.rules.geo.index[match["square"].lower()]
        elif match := _TURN.match(message):
            if self.pending is not None:  # the previous move got no board: refused
                self.draft.note(f"the server refused {_written(self.pending[1])}")
            self.pending = (at, match)
        elif self.pending is not None and not message.startswith((*NOISE, "Bianco", "Nero", "Partita")):
            self.draft.note(f"the server refused {_written(self.pending[1])}: {message}")
            self.pending = None
        for words, outcome in ENDINGS:
            if words in _blanked(message):
                self.result, self.result_at = outcome, at

    def _printed(self, message: str, rest: list[tuple[int, str]], at: int) -> None:
        """A board the server printed (`Stato:`): the start, or the board after the pending move.
        A board after the start that the log ends inside (a truncated file), or that does not show
        the move before it, is the record's error: the game is read up to that move (`_stop`)."""
        try:
            printed, self.last_turn = _board(self.draft, message, rest, at)
        except SyntaxProblem as problem:
            if self.board is None or not _cut_short(self.draft.locator.text, rest, at):
                raise
            return self._stop(problem, "the log ends inside the board after the move {}")
        if self.board is None:
            _start(self.draft, self.rules, printed, at)
        elif self.pending is not None:
            try:
                printed = _played(
                    self.draft, self.rules, self.board, printed, self.pending, self.king_taken, self.boards
                )
            except SyntaxProblem as problem:
                return self._stop(problem, "the log is read up to the move {}, which its board does not show")
            self.pending = None
        self.board = printed

    def _stop(self, problem: SyntaxProblem, said: str) -> None:
        """Read no further: `problem` is the record's error, and the game ends before the pending
        move, which a note names (`said`)."""
        self.draft.problems.append(problem)
        if self.pending is not None:
            self.draft.note(said.format(_written(self.pending[1])))
        self.pending, self.stopped = None, True

    def end(self) -> None:
        """The log read to its end: the moves checked against lusoria's rules, a move left without
        its board noted, and the result (`*`, noted, when the log says none)."""
        draft = self.draft
        if not self.players or self.board is None:  # (an empty file is none: formats.sources says so)
            raise draft.problem(
                f"not {FORMATS['tablut-challenge'].kind}: no 'Players:' line or no board", 0, rule="tag"
            )
        _cross_check(draft, self.rules, self.boards)
        if self.pending is not None:
            draft.note(
                f"the log ends after the move {_written(self.pending[1])} without the board that follows it "
                "(truncated?)"
            )
        result = self.result
        if result is None and self.last_turn in TURN_RESULTS:
            result = TURN_RESULTS[self.last_turn]
        if result is not None:
            draft.result, draft.result_at = result, self.result_at
            draft.tag("Result", result, self.result_at)
        elif not self.stopped:
            draft.note("the log ends without a result (a timeout, a lost connection or a truncated log)")


_ANOTHER_LOG = (
    "found a second 'Players:' line, another game's log (two logs in one file?): a log file holds one game, "
    "read up to here; split the file at the date line above"
)


def _cut_short(text: str, rows: list[tuple[int, str]], at: int) -> bool:
    """Whether the log ends inside the board printed at `at` (`rows`: its lines so far): nothing
    but part of a row follows its last row."""
    if rows and not _ROW.fullmatch(rows[-1][1]):
        return False
    return _CUT.fullmatch(text, rows[-1][0] if rows else at) is not None


def _written(move: re.Match[str]) -> str:
    """A move of the server's `Turn:` message, as its squares say it (`e3-f3`)."""
    return f"{move['origin']}-{move['target']}"


def _repetitions(draft: Draft, match: re.Match[str], at: int) -> None:
    """The server's repetitions (`Repeated moves allowed`, at `at`): a draw later than at the first
    repetition refused, a short memory of positions noted."""
    if match["allowed"] != "0":
        raise draft.problem(
            f"repeated moves allowed {match['allowed']}: {CANNOT_EXPRESS} a draw later than at the first repetition",
            at + match.start("allowed"),
            match["allowed"],
            "tag",
        )
    if match["cache"] != "-1":
        draft.note(f"the server remembered only the last {match['cache']} positions for repetitions")


def _played(
    draft: Draft,
    rules: TaflGame,
    board: bytes,
    printed: bytes,
    pending: tuple[int, re.Match[str]],
    king_taken: int | None,
    boards: list[bytes],
) -> bytes:
    """The move `pending` read off the board the server `printed` after it (`board` before it); that
    board, added to `boards`, is returned. A king the server said it took on
    `king_taken` and left on its board is read as captured, with a note."""
    left = king_taken if king_taken is not None and printed[king_taken] == KING else None
    if left is not None:  # the server leaves the captured king on its board
        printed = printed[:left] + bytes(1) + printed[left + 1 :]
    ply = _ply(draft, rules, board, printed, pending)
    if left is not None:
        draft.note(
            f"the server's board after the last move still shows the captured king on "
            f"{rules.geo.names[left]}; read as captured",
            ply,
        )
    boards.append(printed)
    return printed


def date_place(text: str, first_line: int, line: int, column: int) -> str | None:
    """What a byte that does not decode at `line`, `column` of a log (its `text` from the file's line
    `first_line`) is in, said of the file: the date of its first line (up to AM or PM), when the byte
    leaves it unknown (`_date`); None for any other place the reader ignores (`noise_lines`)."""
    end = _DATE_END.search(text.partition("\n")[0])
    if line != first_line or _read_date(text) is not None or end is not None and column > end.start():
        return None
    return "the log's date (its first line), which is left unknown"


def _read_date(text: str) -> re.Match[str] | None:
    """The date of a log's first line, if it reads as one."""
    found = _DATE_LINE.match(text)
    return found if found is not None and found["month"].lower() in MONTHS else None


def _date(draft: Draft, text: str) -> None:
    """`Date` and `Time` from the log's first line, the date line of its first message (as the
    server's clock said, in English or Italian: `May 23, 2019 5:40:02 PM`, `mag 23, 2019 …`); a
    byte there that does not decode (ESCAPED_BYTE: said of the file) leaves them unknown, noted."""
    found = _read_date(text)
    if found is None:
        if ESCAPED_BYTE.search(text.partition("\n")[0]):
            draft.note("the log's first line holds a byte that does not decode: its date is unknown")
        return
    hour = checked_number(found["hour"], 0, 99) % 12 + (12 if found["half"] == "PM" else 0)
    day = checked_number(found["day"], 0, 99)
    draft.tag("Date", f"{found['year']}.{MONTHS[found['month'].lower()]:02}.{day:02}", 0)
    draft.tag("Time", f"{hour:02}:{found['minute']}:{found['second']}", found.start("hour"))


def _start(draft: Draft, rules: TaflGame, printed: bytes, at: int) -> None:
    """The first board: the standard start, or a Position tag."""
    initial = rules.initial()
    if printed != initial.board:
        draft.tag("Position", rules.format_position(type(initial)(printed, initial.turn)), at)


def _ply(draft: Draft, rules: TaflGame, before: bytes, after: bytes, pending: tuple[int, re.Match[str]]) -> Ply:
    """A move the server accepted, with the captures its board shows."""
    at, match = pending
    origin, target = (match[name].lower() for name in ("origin", "target"))
    geo = rules.geo
    squares = [geo.index[origin], geo.index[target]] if origin in geo.index and target in geo.index else None
    if squares is None or not before[squares[0]] or after[squares[1]] != before[squares[0]] or after[squares[0]]:
        raise draft.problem(
            f"the board printed after {origin}-{target} does not show that move",
            at + match.start("origin"),
            match[0][match.start("origin") :],
        )
    mover = OWNER[before[squares[0]]]
    captured = [
        s for s in range(len(before)) if before[s] and not after[s] and s != squares[0] and OWNER[before[s]] != mover
    ]
    changed = [s for s in range(len(before)) if before[s] != after[s] and s not in squares and s not in captured]
    if changed:
        raise draft.problem(
            f"the board printed after {origin}-{target} also changed {geo.names[changed[0]]}",
            at + match.start("origin"),
            f"{origin}",
        )
    piece = "K" if before[squares[0]] == KING else ""
    text = f"{piece}{origin}-{target}"
    if captured:
        text += "x" + capture_list(geo, captured)
    return draft.ply(text, at + match.start("origin"), at + match.end("target"))


def _cross_check(draft: Draft, rules: TaflGame, boards: list[bytes]) -> None:
    """A capture that lusoria's rules make and the server's board (`boards`: the one printed after
    each ply) does not show (a capture list cannot say "nothing"): a problem of the record at that
    ply, the first one only (the boards then differ). Stops where `main_line_played` stops (the
    validator reports a ply that does not play)."""
    for index, _, played in main_line_played(draft, rules):
        printed, after = boards[index], played.position.board
        kept = [rules.geo.names[s] for s in range(len(printed)) if printed[s] and not after[s]]
        if kept:
            said = (
                f"the move captures {'/'.join(kept)} under these rules, but the server's board "
                "after it still holds them"
            )
            draft.problem_at_ply(index, said, rules.settings.ids.capture)
            return
