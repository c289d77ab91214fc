"""Tafl move lists (Damian Walker's notation, as aagenielsen.dk writes it: `e2-c2 f9-f5xg5 …
resigned`) and the CSV move lists of the Rust tafl engines (`moves,defenders lost,attackers
lost,status`), for every game of the tafl family (the aagenielsen.dk scrape's `Moves`, such lists:
formats/aage.py). Their capture lists follow the sites' conventions (RULES.md H1–H3,
formats/common.py `SiteClaims`, which the replay checks)."""

from __future__ import annotations

import csv
import functools
import io
import ntpath
import re
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, replace
from pathlib import PurePath

from lusoria.formats import FORMATS
from lusoria.formats.common import Draft, Locator, drafts, site_claims, tafl_games, tafl_rules
from lusoria.notation.numbers import whole_number
from lusoria.notation.reader import Prose, RecordText, closing, is_title, prose, prose_note, signature
from lusoria.notation.sources import ESCAPED_BYTE, REPLACEMENT, InputError, names_a_file
from lusoria.notation.syntax import TAG_BEFORE_VALUE, SyntaxProblem
from lusoria.validator.base import SIDE_NAMES, WHITE, Illegal, OptionError
from lusoria.validator.suggest import meant_among
from lusoria.validator.tafl import TaflGame
from lusoria.words import QUOTED, listed, quoted

_TOKEN = re.compile(r"\S+")
SQUARE = r"[a-s](?:1[0-9]|[1-9])"  # any tafl board: a1 to s19
MOVE = re.compile(
    rf"(?P<king>K)?(?P<origin>{SQUARE})(?P<hyphen>-?)(?P<target>{SQUARE})"
    rf"(?:x(?P<captures>{SQUARE}(?:[/x]{SQUARE})*))?\+{{0,2}}"
)  # xc5/d4, or xc5xd4 as the sites write
_ANY_SQUARE = r"[a-z][0-9]{1,2}"  # what a hand writes as a square, on a board or off every board
_MOVE_SHAPED = re.compile(rf"K?{_ANY_SQUARE}-?{_ANY_SQUARE}(?:x{_ANY_SQUARE}(?:[/x]{_ANY_SQUARE})*)?\+{{0,2}}")
_NUMBER = re.compile(r"[0-9]+\.+")
TERMINATIONS = {"resigned": "resignation", "resigns": "resignation", "timeout": "time forfeit"}


def read_moves(draft: Draft, text: str, base: int, rules: TaflGame) -> str | None:
    """Add the plies of a move list to `draft`: `text` stands at offset `base` of the file. A
    move written with its hyphen lists its captures (`draft.listed`). A termination word sets
    the result: the side to move resigned, or ran out of time; it is returned (None: none ends the list)."""
    if is_title(text):
        title = text.strip()
        raise draft.problem(
            f"found {quoted(title)}, a game's title: a file of move lists holds the moves alone (were its moves left out?)",
            base + text.index(title[0]),
            title,
        )
    for token in _TOKEN.finditer(text):
        word, offset = token[0], base + token.start()
        if _NUMBER.fullmatch(word):
            continue
        if word.lower() in TERMINATIONS:
            _read_termination(draft, text, base, token, rules.initial().turn == WHITE)
            return word
        _read_move(draft, word, offset, rules)
    return None


def _read_termination(draft: Draft, text: str, base: int, token: re.Match[str], first_white: bool) -> None:
    """The word `token` of `text` (at `base`) that ends the game: the side to move resigned or ran
    out of time (`first_white`: White plays the first ply); a word after it is a problem."""
    word, offset = token[0], base + token.start()
    white_to_move = (len(draft.line.plies) % 2 == 0) == first_white
    draft.result, draft.result_at = ("0-1" if white_to_move else "1-0"), offset
    draft.tag("Termination", TERMINATIONS[word.lower()], offset)
    after = _TOKEN.search(text, token.end())
    if after:
        raise after_the_end(draft, after[0], base + after.start(), word)


def after_the_end(draft: Draft, found: str, offset: int, end: str) -> SyntaxProblem:
    """The problem of a word `found` at `offset` after the word `end` that ends the game (`resigned`)."""
    return draft.problem(f"found {quoted(found)} after '{end}', which ends the game", offset, found)


def _read_move(draft: Draft, word: str, offset: int, rules: TaflGame) -> None:
    """The ply of the move `word` (at `offset`), added to `draft`; a word that is no move of the
    rules' board is a problem. A capture list that repeats a square is read without it, noted."""
    move = MOVE.fullmatch(word)
    index = rules.geo.index  # (a move of two squares of the board, capturing none, is on it: no more to look at)
    if move is None or move["captures"] or move["origin"] not in index or move["target"] not in index:
        if move or _MOVE_SHAPED.fullmatch(word):  # e7-z7: past any tafl board, a move all the same
            _check_on_board(draft, word, offset, rules)
    if move is None:
        raise draft.problem(
            f"found {quoted(word)}, expected a move such as e2-c2 or f9-f5xg5, 'resigned' or 'timeout'",
            offset,
            word,
        )
    ply_text = f"{move['king'] or ''}{move['origin']}-{move['target']}"
    if move["hyphen"]:
        draft.listed.add(len(draft.line.plies))
    ply = draft.ply(ply_text, offset)
    if move["captures"]:
        squares = re.split("[/x]", move["captures"])
        unique = list(dict.fromkeys(squares))
        ply.text += "x" + "/".join(unique)
        if len(unique) < len(squares):
            draft.note(f"the capture list {move['captures']} repeats a square; read as {'/'.join(unique)}", ply)


def _check_on_board(draft: Draft, word: str, offset: int, rules: TaflGame) -> None:
    """A problem at a move `word` (at `offset`) with a square off the rules' board."""
    off_board = [square for square in re.findall(_ANY_SQUARE, word) if square not in rules.geo.index]
    if off_board:
        names = rules.geo.names
        raise draft.problem(
            f"found {quoted(word)}: {off_board[0]} is not a square of the {rules.title} board ({names[0]}–{names[-1]})",
            offset,
            word,
        )


def looks_like_move_lists(head: str, fewest: int = 2) -> bool:
    """Whether the first line of a text is a tafl move list of `fewest` moves or more, and at most
    one word after them: what ends the game (`resigned`, `timeout`), or a slip of it (`resign`,
    `1-0`), which the reader then names at its place. `head` may end inside that line (the first
    few thousand characters of a file): a word it ends in may be cut, so it is not judged when two
    others are. A header and lines of prose above it (`_games_start`) are passed over; under a header that
    names a tafl game (`# brandubh`), one move is enough, and a first line that is none and holds no CSV
    delimiter (`zz`) is a move list all the same, said at its place as one, unless a line below it holds
    a delimiter before any is a move list (`2026-05-01` above the rows of a CSV file: `_tells_format`)."""
    lines = head[_games_start(head) :].splitlines(keepends=True)
    first, second = [*(line for line in lines if line.strip()), "", ""][:2]
    if _names_a_game(head):
        told = next(filter(_tells_format, lines), None)
        return _is_move_list(told, 1) if told is not None else bool(first)
    # (a game of one move is a move list above one of `fewest`: h79c, a file begun so was read as lgn; not one
    # numbered, which the line below goes on, as an lgn movetext's does: review79b)
    alone = _is_move_list(first, 1) and not any(map(_NUMBER.fullmatch, first.split()))
    return _is_move_list(first, fewest) or alone and _is_move_list(second, fewest)


def _tells_format(line: str) -> bool:
    """Whether a line under a header naming a tafl game tells move lists from a CSV file's lines
    (`looks_like_move_lists`): a move list, or a line that holds a CSV delimiter (a CSV line's)."""
    return _is_move_list(line, 1) or any(map(line.__contains__, CSV_DELIMITERS))


def _is_move_list(first: str, fewest: int) -> bool:
    """Whether a line is a tafl move list of `fewest` moves or more (`looks_like_move_lists`), some
    mistyped perhaps: a word that looks like a move (`_MOVE_OR_SLIP`: `e4-ee1`, `e4-e1x`), or that ends a
    game (`resigned` before a move), counts as one if a move is well written; the reader names the slip at
    its place (h79a: a file whose first game held one was skipped whole)."""
    if _csv_row(first, delimiter=csv_delimiter(first)):
        return False  # a CSV file's game (`d1-d3 e5-e2,0,0,Ongoing`), in a file of another name
    words = [word for word in first.split() if not _NUMBER.fullmatch(word)]
    if len(words) > 2 and not first[-1:].isspace():
        words.pop()
    if words and not _move_or_slip(words[-1]):
        words.pop()
    return len(words) >= fewest and any(map(MOVE.fullmatch, words)) and all(map(_move_or_slip, words))


def _move_or_slip(word: str) -> bool:
    """Whether a word of a move list's line is a move, written well or not (`_MOVE_OR_SLIP`), or a word
    that ends a game (`_is_move_list`)."""
    return bool(_MOVE_OR_SLIP.fullmatch(word)) or word.lower() in TERMINATIONS


# A move, or one mistyped (`e4-ee1`, `e4-e1x`, `e8–b8`, `E3-c3`, `d1-c1,`): the king's K or a file (in capitals
# too), a rank, then squares, captures and marks, and a comma or a full stop; not another piece's letter, as chess
# writes (`Ng1-f3`), nor a mark of lgn (`e3-d3!`: review79, review79b)
_MOVE_OR_SLIP = re.compile(r"(?:K?[a-z][a-z]?\d|[A-S]\d+[-–—x])[a-z0-9x/+\-–—]*[.,;]?")


_SQUARE_LIKE = re.compile(r"[a-z][0-9]", re.I)  # what a move holds, written well or not: e2-c2, E2–c2, e22


def _begins_moves(line: str) -> bool:
    """Whether a line above the first move list holds moves, so that it is no prose: a move, or
    nothing but move numbers and words that end a game (`1. resigned`); a sentence that holds them
    (`she resigned`, `Tuesday, 1. December`) is prose, for the line below the prose must be a move
    list (`looks_like_move_lists`). An lgn record's tag line is none either (`[Game "tablut"]`: an lgn
    record saved as .txt is no move list under an e-mail's greeting)."""
    words = re.findall(r"[\w.]+", line)
    tagged = _TAG_LINE.match(line) is not None
    return tagged or bool(_SQUARE_LIKE.search(line)) or bool(words) and all(map(_ends_or_numbers, words))


_TAG_LINE = re.compile(rf'{TAG_BEFORE_VALUE}"')  # an lgn record's tag line


def _ends_or_numbers(word: str) -> bool:
    """Whether a word of a line is a move number (`2.`) or a word that ends a game (`resigned`)."""
    return bool(_NUMBER.fullmatch(word)) or word.lower() in TERMINATIONS


def _ends_moves(line: str) -> bool:
    """Whether a line below the last move list holds what a move list holds, so that it is read, a
    game or an error at its place, not passed over as an e-mail's closing (`closing`): a move, even
    one mistyped (a letter followed by a digit, `e8–b8`), a move number or a word that ends a game
    (`_ends_or_numbers`), or a mark of a move list (`_MOVE_LIST_MARK`). Above the first move list, a
    line of such a mark alone is prose (`_begins_moves`): there the move lists are told from other
    text by their first line (`looks_like_move_lists`)."""
    marked = _SQUARE_LIKE.search(line) or _MOVE_LIST_MARK.search(line)
    return bool(marked) or any(map(_ends_or_numbers, re.findall(r"[\w.]+", line)))


# What a line of a move list may hold and prose does not, besides moves, move numbers and the words
# that end a game: a slip of one (`resign`), a result, a brace of a comment, a move mistyped without
# its digits (`el-dl`, `eO-bO`).
_MOVE_LIST_MARK = re.compile(
    r"\bresign\b|(?<!\S)(?:1-0|0-1|1/2-1/2|½-½|\*)(?!\S)|[{}]|(?<!\S)K?[a-z][a-z0-9]?-[a-z][a-z0-9]?(?!\S)",
    re.I,
)


def _above_header(text: str) -> Prose | None:
    """The lines of prose above the header of `text` (an e-mail's `Hi Jon,` above `# brandubh`), if
    any (`prose`): a line that starts with `#` is never prose, nor one that holds a move or a count."""
    found = prose(text, 0, _holds_header_or_game)
    return found if found and text.startswith("#", found.games) else None


def _holds_header_or_game(line: str) -> bool:
    """Whether a line above a file's header is none of its prose (`_above_header`): the header
    itself, or what a move list's or CSV file's line holds (`_begins_moves`, `_holds_csv_row`, a
    count, a field of its own: `White,0,0`); a number among words is prose's (`Tuesday, 1. December`)."""
    line_holds = _begins_moves(line) or _holds_csv_row(line) or _holds_count(line)
    return line.lstrip().startswith("#") or bool(line_holds)


def _holds_count(line: str) -> bool:
    """Whether a line holds a field of a CSV row that is a count (`_COUNT`), beside another (a number
    alone is none: `2026`, a year): its fields split apart, in time linear in the line (a pattern that
    took a delimiter's blanks after it was tried again from each tab of a run: quadratic)."""
    fields = _CSV_DELIMITER.split(line)
    return len(fields) > 1 and any(map(_COUNT.fullmatch, fields))


def _games_start(text: str) -> int:
    """Where the move lists of `text` start: after its header and lines of prose (`prose`: a line
    of a move list holds moves, `_begins_moves`)."""
    end = _header(text)[1]
    found = prose(text, end, _begins_moves)
    return found.games if found else end


_HEADER = re.compile(r"\s*(#[^\n\r]*)")  # a file's header: a first line `# …` (CR alone may end it, in a sniffed head)


def _names_a_game(text: str) -> bool:
    """Whether the header of `text` (`_header`) names a tafl game."""
    header = _header(text)[0]
    return bool(header) and bool(_games_in(header, [game.name for game in tafl_games()]))


_PAIR = r"(?:[^,:]*:)?[ \t]*([^,:]*?\S)[ \t]+{}[ \t]+([^,:]*?\S)[ \t]*"  # a header's part [TITLE:] WHITE … BLACK
_PLAYERS = re.compile(_PAIR.format(r"vs\.?"), re.I)  # WHITE vs BLACK, no colon in a name
_DASHED = re.compile(_PAIR.format("[-–—]"))  # WHITE - BLACK: players perhaps, not read (`_players_said`)
_NAME = re.compile(r"[^\W\d_]{2}")  # what a player's name holds: a word of letters


def _players(header: str) -> dict[str, str]:
    """The players a file's header names, as White and Black tags: a part of it between commas that is
    WHITE vs BLACK (`# brandubh, Anna Berg vs Jon Ruud`, as a Tablut Challenge log's `Players:` line
    orders them; a title before a colon is none of them: `round 2: Anna vs Jon`), each name a word of
    letters and no game's (`_names_players`), and not both the sides' (`attackers vs defenders`:
    `_sides`); {} for none."""
    found = _players_part(header)
    return {"White": found[2][1], "Black": found[2][2]} if found and not _sides(found[2]) else {}


def _players_part(header: str, pair: re.Pattern[str] = _PLAYERS) -> tuple[list[str], int, re.Match[str]] | None:
    """The parts of a header between commas, and the index and match of the first that is WHITE vs
    BLACK (or else as `pair` separates them) naming players or sides (`_names_players`), if any."""
    parts = header.lstrip("#").split(",")
    found = ((index, pair.fullmatch(part)) for index, part in enumerate(parts))
    return next(((parts, index, part) for index, part in found if part and _names_players(part)), None)


def _names_players(part: re.Match[str] | None) -> bool:
    """Whether a part of a header that is WHITE vs BLACK (`_players`) names players: not two games
    (`# brandubh vs tablut`) nor boards (`# 9x9 vs 7x7`)."""
    games = [game.name for game in tafl_games()]
    return part is not None and all(_NAME.search(name) and not _games_in(name, games) for name in part.groups())


def _sides(part: re.Match[str]) -> bool:
    """Whether a header's WHITE vs BLACK (`_players_part`) names the sides, not players: each a side's
    name (White, Black, or as a tafl game names them: attackers, Swedes…), in any case, one or several,
    `the` before it or not."""
    words = {side.lower().removesuffix("s") for game in tafl_games() for side in (*SIDE_NAMES, *game.sides)}
    return all(name.lower().removeprefix("the ").removesuffix("s") in words for name in part.groups())


_LONE_NAME = re.compile(r"[ \t]*([^\W\d_]+)[ \t]*")  # a part of a header of one word: a last name before a comma


def _players_said(header: str) -> str:
    """What a note says of the players a header names, when they may not be those meant: sides
    (`attackers vs defenders`), no players; names beside a part of one word (`Berg, Anna vs Ruud,
    Jon`, `Jon, Oslo vs Anna, Bergen`: a name holds no comma), the words read and those not; "" else."""
    found = _players_part(header)
    if found is None:
        return ""
    parts, index, names = found
    if _sides(names):
        return f"'{names[1]} vs {names[2]}' names the sides, not players: no White or Black tag"
    beside = [_LONE_NAME.fullmatch(part) for part in parts[max(index - 1, 0) : index] + parts[index + 1 : index + 2]]
    games = [game.name for game in tafl_games()]
    unread = [word[1] for word in beside if word and word[1].istitle() and not _games_in(word[1], games)]
    if not unread:
        return ""
    return (
        f"{header!r} names the players {names[1]} (White) and {names[2]} (Black), read between the commas around 'vs'; "
        f"{' and '.join(map(repr, unread))} beside them {'is' if len(unread) == 1 else 'are'} not read (a name "
        "holds no comma: write a name whole, 'Anna Berg vs Jon Ruud')"
    )


def _dashed_said(header: str) -> str:
    """What a note says of a header's part WHITE - BLACK (`_DASHED`: `Anna - Jon`) when it names no
    players WHITE vs BLACK: none read, how to name them; "" else."""
    dashed = None if _players_part(header) else _players_part(header, _DASHED)
    if dashed is None or _sides(names := dashed[2]):
        return ""
    return (
        f"'{names[0].strip()}' names no players: a header names them WHITE vs BLACK (if {names[1]} and "
        f"{names[2]} are the players, write '{names[1]} vs {names[2]}', White first): no White or Black tag"
    )


def _header(text: str) -> tuple[str, int]:
    """The header of a file of move lists or a CSV file, its first line when it starts with `#` (`#
    brandubh, from the club's server`), or the first below lines of prose (`_above_header`), which
    may name its game (`_game_named`), and where it ends; ("", 0) for none."""
    return _header_below(text, _above_header(text))


def _header_below(text: str, above: Prose | None) -> tuple[str, int]:
    """The header of `text` (`_header`) below its lines of prose `above` (`_above_header`), if any."""
    found = _HEADER.match(text, above.games if above else 0)
    return (found[1], found.end()) if found else ("", 0)


@dataclass(frozen=True)
class _Pasted:
    """What stands around the games of a file of move lists or a CSV file, read once (`_pasted`): its
    header, the prose above it, the prose above and below the games, the e-mail's signature below them."""

    header: str  # its header (`_header`), "" for none
    header_end: int  # where it ends (0 for none)
    above_header: Prose | None  # the prose above it (`_above_header`), but its title
    header_title: str  # the note of a game's title right above it (`Game 1` above `# brandubh`), "" for none
    greeting: Prose | None  # the prose above the games, after the header (`prose`)
    closing: Prose | None  # the prose below them (`closing`)
    signed: tuple[int, str] | None  # the signature below them (`_signature`)
    spans: tuple[tuple[int, int], ...]  # where the games stand: above the closing, and a title below it
    players: dict[str, str]  # the White and Black tags its header gives every game (`_players`)


def _pasted(
    lines: Locator, begins: Callable[[str], bool], holds: Callable[[str], bool], ends: Callable[[str], bool]
) -> _Pasted:
    """What stands around the games of a file (`lines`), a line of them told by what `begins` the
    games (`prose`), what `holds` a game (`_signature`) and what `ends` them (`closing`). A game's
    title that ends the games (`_last_title`) is read below a closing, at its place."""
    text = lines.text
    above = _above_header(text)
    header, header_end = _header_below(text, above)
    above, header_title = _title_above_header(lines, above)
    greeting, signed = prose(text, header_end, begins), _signature(lines, holds)
    start, end = greeting.games if greeting else header_end, signed[0] if signed else len(text)
    title = _last_title(text, start, end)
    closed = closing(text, start, title, ends)
    spans = ((start, closed.games if closed else title), (title, end))
    players = {} if ESCAPED_BYTE.search(header) else _players(header)  # a name of a byte not decoded is none
    return _Pasted(header, header_end, above, header_title, greeting, closed, signed, spans, players)


def _title_above_header(lines: Locator, above: Prose | None) -> tuple[Prose | None, str]:
    """The prose `above` a file's header (`_above_header`) but a game's title that ends it, right above
    the header (`Game 1` above `# brandubh`: the first game's, as a person reads it, not a greeting's
    line), and the note of that title ("" for none)."""
    text = lines.text
    line = text.rfind("\n", 0, above.end) + 1 if above else 0
    if above is None or not is_title(text[line : above.end]):
        return above, ""
    rest = text[above.start : line].rstrip()
    said = f"line {lines.where(line)[0]}, {quoted(text[line : above.end].strip())}, its title: not read"
    return (replace(above, end=above.start + len(rest)) if rest else None), said


_BLANK_LINE_ABOVE = re.compile(r"\n[^\S\n]*\n\Z")  # text that ends in a blank line, then the line break above a line


def _last_title(text: str, start: int, end: int) -> int:
    """Where a game's title that ends `text[start:end]` starts (`is_title`: `Game 2`, its moves left out),
    when it heads lines of its own (a blank line above it); else `end`. (A title with nothing but blank
    lines above it is read at its place all the same.)"""
    body = text[start:end].rstrip()
    line = body.rfind("\n") + 1
    return start + line if _BLANK_LINE_ABOVE.search(body[:line]) and is_title(body[line:]) else end


CSV_DELIMITERS = ",;"  # what separates a CSV file's fields: a spreadsheet of a European locale writes `;`
TAB = "\t"  # separates the fields of a file only under a header of names it separates: a move list's blank too
_CSV_DELIMITER = re.compile(f"[{CSV_DELIMITERS}{TAB}]")  # any of them, where a file's own is not known yet
_CSV_ROW = re.compile(r"^(?![ \t]*#)[^\n]*\S[^\n]*", re.M)  # a line of a CSV file that is no `#` line
_COLUMN_NAME = re.compile(r'[ \t]*("?)[a-z][a-z _-]*\1[ \t]*', re.I)  # a name of a row of column names


def csv_delimiter(text: str) -> str:
    """The delimiter of a CSV file's fields (`_delimiting_row`)."""
    return _delimiting_row(text)[1]


def _delimiting_row(text: str) -> tuple[int, str]:
    """The line of a CSV file's first row of four fields (after `#` lines: column names or a game; a
    row mistyped before it aside; a field quoted may hold the delimiter), and the one of CSV_DELIMITERS
    that separates them (or TAB, a row of names); else the first row of names and their delimiter (a
    header of five); else (0, ","). Lines may end in CR."""
    lines = enumerate(io.StringIO(text, newline=None), 1)
    rows = ((number, line) for number, line in lines if not line.lstrip().startswith("#"))
    named: tuple[int, str] | None = None
    for number, row in rows:
        names = _column_names(row)
        found = [d for d in CSV_DELIMITERS + (names or "") if _field_count(row, d) == 4]
        if found:
            return number, found[0]
        if names and named is None:
            named = (number, names)
    return named or (0, ",")


def _field_count(row: str, delimiter: str) -> int:
    """How many fields `delimiter` separates in a CSV row, a field quoted holding it as a character
    (a field longer than the csv module reads, 128 Ki characters, is counted as if unquoted)."""
    try:
        # (the row as `_csv_row` reads it, stripped: h74b, ` "…;…";0`)
        return len(next(csv.reader([row.strip()], delimiter=delimiter), []))
    except csv.Error:
        return row.count(delimiter) + 1


def _column_names(row: str) -> str | None:
    """The delimiter of a row of column names (two or more of letters, spaces, `_` and `-`, each
    quoted or not), separated by one of CSV_DELIMITERS or TAB, if it is one: four names, or another
    number of names two of which name columns (`id,moves,defenders lost,attackers lost,status`)."""
    for delimiter in CSV_DELIMITERS + TAB:
        names = row.rstrip("\r\n").split(delimiter)
        if len(names) > 1 and all(map(_COLUMN_NAME.fullmatch, names)):
            return delimiter if len(names) == 4 or _columns_named(names) > 1 else None
    return None


def _columns_named(names: list[str]) -> int:
    """How many of the columns a row of column names names."""
    return len({_column_of(name) for name in names} - {""})


# A game of a file of move lists: a line, and when its moves are numbered, the lines after it up to a blank line
# or one that starts again at move 1 (an unnumbered game goes on only over lines that start with a number)
_GAME = re.compile(
    r"^[^\S\n]*(?:(?P<numbered>[0-9]+\.)|(?=\S))[^\n]*"
    r"(?:\n(?=[^\S\n]*\S)(?![^\S\n]*1\.)(?(numbered)|(?=[^\S\n]*[0-9]+\.))[^\n]*)*",
    re.M,
)


def _signature(lines: Locator, holds_game: Callable[[str], object]) -> tuple[int, str] | None:
    """The signature of games pasted from an e-mail (`signature`): after the last line that `holds_game`
    (a move list: a game's line whose move list follows a form feed or a U+2028 line separator is one
    too, `_holds_move_list`; a CSV file's row, `_holds_csv_row`)."""
    count = len(lines.starts)
    last = next((line for line in range(count, 0, -1) if holds_game(lines.lines(line, line))), 0)
    return signature(lines.text, lines.starts[last] if last < count else len(lines.text))


def _holds_move_list(line: str) -> bool:
    """Whether a line of a file (up to its `\\n`) is a move list in one of the parts that `str.splitlines`
    tells apart (`Round 2\\x0cd5-d3 i4-h4`, after a form feed)."""
    return any(looks_like_move_lists(part, 1) for part in line.splitlines(keepends=True))


def read_move_lists(text: str, path: str, tags: dict[str, str] | None = None) -> Iterator[RecordText]:
    """The games of a file of move lists: one a line, a game of numbered moves going on over the
    lines after it (`_GAME`), after a header and lines of prose (`_begun`) and up to lines
    of prose and an e-mail's signature line (`-- `) below them (`_mailed`), each noted, as is a game's
    title on the line above it (`_titled`). `tags`: Game, Variant, Rules; without
    Game, the game the file's name names (`_named_game`: its default preset), else the format's
    entry's, and then the first error of each game says how it was read (`_read_as_default`)."""
    lines = Locator(text)
    pasted = _title_above_games(text, _pasted(lines, _begins_moves, _holds_move_list, _ends_moves))
    given, default = tags or {}, FORMATS["tafl"].games[""]
    named = None if given.get("Game") else _game_named(path, pasted.header, "tafl")
    chosen = {"Game": named} if named and named != default["Game"] else chosen_tags(default, given)
    rules = _rules_of(chosen)
    hint = (
        "" if given.get("Game") else _read_as_named_default(chosen, given) if named else _read_as_default(chosen, path)
    )
    overruled = _overruled(pasted, lines, path, given, chosen["Game"], "tafl")
    games = _titled(text, [game for span in pasted.spans for game in _GAME.finditer(text, *span)])
    for index, block, draft in drafts("tafl", lines, games):
        draft.hint = hint
        _begun(draft, (index, len(games)), pasted, chosen, overruled, _title_said(lines, games[block]))
        yield _read_list(draft, block[0], block.start(), path, index, rules)


def _title_above_games(text: str, pasted: _Pasted) -> _Pasted:
    """`pasted` with the titles (`Game 1`, `Round one:`) that end the prose above the first game read
    as the games below them are (`_titled`): the last the first game's title, one above a title the
    error of a game whose moves were left out; the lines above them, if any, stay that prose."""
    greeting = pasted.greeting
    if greeting is None:
        return pasted
    title, end = None, greeting.end
    while is_title(text[(line := text.rfind("\n", 0, end) + 1) : end]):  # "" above the prose stops it
        title, end = line, greeting.start + len(text[greeting.start : line].rstrip())
    if title is None:
        return pasted
    above = text[greeting.start : title].rstrip()
    kept = replace(greeting, end=greeting.start + len(above), games=title) if above else None
    spans = ((title, pasted.spans[0][1]), *pasted.spans[1:])
    return replace(pasted, greeting=kept, spans=spans)


def _title_said(lines: Locator, title: re.Match[str] | None) -> str:
    """The note of a game's title (`_titled`), not read; "" for a game with none."""
    return f"line {lines.where(title.start())[0]}, {quoted(title[0].strip())}, its title: not read" if title else ""


def _titled(text: str, blocks: list[re.Match[str]]) -> dict[re.Match[str], re.Match[str] | None]:
    """The games of a file of move lists (`blocks`, `_GAME`), each with its title (`is_title`: `Game 2`)
    when it stands above it, blank lines between or not, as no game: its moves are there, not left out.
    A title below a title is a game whose moves were left out."""
    games: dict[re.Match[str], re.Match[str] | None] = {}
    for block, below in zip(blocks, [*blocks[1:], None]):
        if below is not None and is_title(block[0]) and not is_title(below[0]):
            games[below] = block
        else:
            games.setdefault(block, None)
    return games


def _begun(
    draft: Draft, place: tuple[int, int], pasted: _Pasted, chosen: Mapping[str, str], overruled: str, title: str = ""
) -> None:
    """A game of a file of move lists or a CSV file, at `place` (its index, and how many games the
    file holds), begun: the `chosen` tags and the players of its header, the notes of what is not read
    around the games and of its header, in the order of their lines: the prose above the header
    (`_above_header`), the header: `overruled` (`_overruled_said`), naming no game, or naming
    players that may not be those meant (`_header_said`), the prose and signature around the games and
    the game's `title` between them (`_mailed`)."""
    for name, value in {**chosen, **pasted.players}.items():
        draft.tag(name, value)
    if place[0] == 0 and pasted.above_header is not None:
        draft.note_unread(_prose_said(draft, pasted.above_header, "greeting"))
    if place[0] == 0 and pasted.header_title:
        draft.note_unread(pasted.header_title)
    _overruled_said(draft, place[0], overruled)
    if place[0] == 0:
        _header_said(draft, pasted)
    _mailed(draft, place, pasted, title)


def _header_said(draft: Draft, pasted: _Pasted) -> None:
    """The note of the first game of a file of move lists or a CSV file of a header that names no game
    (`# round 2`: `_header`), not read, or else of players it names that may not be those meant
    (`_players_said`); and of a byte in it that did not decode, which leaves it no players (a header
    of one and no game gets both notes), or else of names it separates by a dash, read as no players
    (`_dashed_said`)."""
    header, line = pasted.header, draft.locator.where(pasted.header_end)[0]
    undecoded = ESCAPED_BYTE.search(header) is not None
    if header and not _names_a_game(header) and not pasted.players:
        quoted = ESCAPED_BYTE.sub(REPLACEMENT, header)
        draft.note_unread(f"line {line}, {quoted!r}, a header that names no game: not read")
    elif not undecoded and (said := _players_said(header)):
        draft.note(f"line {line}, {said}")
    if undecoded:  # (the byte is said with the file's encoding)
        draft.note(f"line {line}, the header holds a byte that does not decode: no player read")
    elif said := _dashed_said(header):
        draft.note(f"line {line}, {said}")


def _overruled(pasted: _Pasted, lines: Locator, path: str, given: Mapping[str, str], game: str, reader: str) -> str:
    """What is said of a file whose name (`brandubh.csv`) or header (`# brandubh`) names another game than `game`,
    which `--game` (the `given` tags) chose, or else the file's name (over its header): neither is read as the game
    (the note of its first game, and what the first error of each adds, a byte of the header that did not decode
    U+FFFD); "" else."""
    games = [tafl.name for tafl in tafl_games()]
    option = _option_of(given) if given.get("Game") else ""
    by = option or ("the file's name" if _named_game(path, reader) else "")
    said, why = [], " (--game wins over a file's name)"
    if option and (named := _games_in(ntpath.basename(path), games)) and game not in named:
        said.append(f"the file's name names {' and '.join(named)}: read as {game}, as {option} says")
    if by and (named := _games_in(pasted.header, games)) and game not in named:
        line, quoted = lines.where(pasted.header_end)[0], ESCAPED_BYTE.sub(REPLACEMENT, pasted.header)
        said.append(f"the header on line {line}, {quoted!r}, names {' and '.join(named)}: read as {game}, as {by} says")
        why = " (--game, then a file's name, win over a header)"
    return "; ".join(said) + why if said else ""


def _option_of(given: Mapping[str, str]) -> str:
    """The option that chose the game the `given` tags name: `--game`, unless they name a variant of
    it, which may have named it alone (`--variant Brandub` is hnefatafl's): the tags do not say."""
    game = next((tafl for tafl in tafl_games() if tafl.name == given["Game"]), None)
    return "--game (or --variant)" if game is not None and given.get("Variant", "") in game.presets else "--game"


def _overruled_said(draft: Draft, index: int, overruled: str) -> None:
    """`_overruled` said: in a note of the file's first game (`index` 0), after each game's first error."""
    if overruled:
        draft.hint += f"; {overruled}"
        if index == 0:
            draft.note(overruled)


def _mailed(draft: Draft, place: tuple[int, int], pasted: _Pasted, title: str) -> None:
    """The notes of a game of a file pasted from an e-mail, at `place` (its index, and how many games
    the file holds): the prose above the first (`_Pasted.greeting`), the game's `title` (said, if it
    has one), the prose and the signature below the last (`closing`, `signed`)."""
    if place[0] == 0 and pasted.greeting is not None:
        draft.note_unread(_prose_said(draft, pasted.greeting, "greeting"))
    if title:
        draft.note_unread(title)
    if place[0] == place[1] - 1:
        if pasted.closing is not None:
            draft.note_unread(_prose_said(draft, pasted.closing, "closing"))
        if pasted.signed:
            draft.note_unread(pasted.signed[1])


def _prose_said(draft: Draft, found: Prose, part: str) -> str:
    """The note of lines of prose, an e-mail's `part`, not read (`prose_note`)."""
    return prose_note(draft.locator.where(found.start)[0], draft.locator.where(found.end)[0], part)


def chosen_tags(default: Mapping[str, str], tags: dict[str, str]) -> dict[str, str]:
    """The tags of records whose files do not name their rules: those given (`--game`,
    `--variant`, `--rules`) over the format's `default`, which a game given replaces."""
    return dict(tags) if tags.get("Game") else {**default, **tags}


def _rules_of(tags: dict[str, str]) -> TaflGame | OptionError:
    """The rules that a file's tags choose for all its games, or why there are none."""
    try:
        return tafl_rules(tags)
    except OptionError as problem:
        return problem


def _read_as_default(chosen: Mapping[str, str], path: str) -> str:
    """What the first error of a move list of the file `path` read as the format's default game adds:
    how to name its game: a file's name of its own suffix (`brandubh.md`), or, for standard input or
    a text, which have none, a header."""
    variant = f" (--variant {chosen['Variant']})" if chosen.get("Variant") else ""
    other = next(game.name for game in tafl_games() if not game.described and game.name != chosen["Game"])
    if names_a_file(path):
        by = f"the file's name ({other}{PurePath(path).suffix.lower() or FORMATS['tafl'].suffixes[0]})"
    else:
        by = f"a header such as '# {other}'"
    return (
        f"; a move list does not say its game: read as {chosen['Game']}{variant} unless --game or {by} "
        f"names it{_or_variant()}"
    )


def _read_as_named_default(chosen: Mapping[str, str], given: Mapping[str, str]) -> str:
    """What the first error of a move list whose file's name or header names its game adds when that game is
    the format's default's and no --variant is given: the default's variant, not the game's own default preset
    (`tablut.txt` is read as the site's Saami Tablut, Muscovites first, which seed Tablut's Swedes-first games
    fail at their first move), and how to name another; "" for another game, read as its own default preset."""
    if chosen != FORMATS["tafl"].games[""] or given.get("Variant"):  # (review79: not under --variant aage)
        return ""
    own = next(iter(next(game for game in tafl_games() if game.name == chosen["Game"]).presets))
    return (
        f"; {chosen['Game']} is read as the site's (--variant {chosen['Variant']}), this format's default, unless"
        f" --variant names another (--variant {own}: {chosen['Game']}'s own)"
    )


def _or_variant() -> str:
    """How to name a variant of a game that describes its boards by its variants, after another way."""
    return "".join(f" (or {named})" for named in _variants_named())


def _variants_named() -> list[str]:
    """How to name a variant of each game that describes its boards by its variants."""
    return [
        f"its variant of {game.name} with --game {game.name} --variant V" for game in tafl_games() if game.described
    ]


def _read_list(draft: Draft, moves: str, at: int, path: str, index: int, rules: TaflGame | OptionError) -> RecordText:
    """The record of one move list (`moves`, at offset `at`) under `rules`, those of `draft`'s tags."""
    if isinstance(rules, OptionError):
        return draft.source(path, index, draft.problem(str(rules), draft.start, rule="tag"))
    try:
        draft.refuse_long_tokens(_TOKEN)
        read_moves(draft, moves, at, rules)
    except SyntaxProblem as problem:
        return draft.source(path, index, problem)
    draft.claims = site_claims(draft)
    return draft.source(path, index)


# -- the CSV move lists of the Rust tafl engines ------------------------------------------------

# a CSV game's columns, unless a row of column names orders them
_CSV_FIELDS: tuple[str, ...] = ("moves", "defenders", "attackers", "status")
_CSV_COLUMN_WORDS = {
    "move": "moves",
    "defender": "defenders",
    "attacker": "attackers",
    "status": "status",
    "result": "status",
}


@functools.cache
def _csv_line(order: tuple[str, ...], delimiter: str) -> re.Pattern[str]:
    """A CSV game of the columns in `order`, its fields separated by `delimiter`, each quoted or not,
    as CSV writers may ("d1-d3 e5-e2",0,0,"Ongoing"); a field quoted may hold the delimiter, and a
    quote written twice (`""`), as the csv module reads it: `_field` reads it as one."""
    fields = (
        rf'(?P<q{name}>")?(?P<{name}>(?(q{name})(?:[^"\n]|"")*|[^{delimiter}\n"]*))(?(q{name})")' for name in order
    )
    return re.compile(delimiter.join(fields))


def _csv_order(names: str, delimiter: str) -> tuple[str, ...] | None:
    """The columns a row of column names (`status,moves,defenders_lost,attackers_lost`) orders: each
    the field whose word its name holds (move, defender, attacker, status or result), when they
    name the four once each; else None."""
    fields = [_column_of(name) for name in names.strip().split(delimiter)]
    return tuple(fields) if sorted(fields) == sorted(_CSV_FIELDS) else None


STATUSES = {"white": "1-0", "black": "0-1", "ongoing": "*", "draw": "1/2-1/2"}
_COUNT = re.compile(r"[ \t]*[0-9]+[ \t]*")


def _csv_row(line: str, order: tuple[str, ...] = _CSV_FIELDS, *, delimiter: str) -> re.Match[str] | None:
    """The fields of a line shaped as a CSV file's game of the columns in `order`, separated by
    `delimiter`, if it is: moves (one is enough, among words that are none: the reader names a slip
    among them at its place) and the three other fields (no move list holds a comma or a semicolon)."""
    row = _csv_line(order, delimiter).match(line.strip())
    return row if row is not None and any(map(MOVE.fullmatch, row["moves"].split())) else None


def _is_csv_game(line: str, order: tuple[str, ...], delimiter: str) -> bool:
    """Whether a line is a CSV file's game (`_csv_row`) of a status (White, Black, Ongoing, Draw),
    or, the line those four fields alone and its counts numbers, of one word else (empty, an unknown
    result, as real files hold; a slip, `Whte`: the reader names it at its place)."""
    row = _csv_row(line, order, delimiter=delimiter)
    if row is None:
        return False
    if row["status"].strip().lower() in STATUSES:
        return True
    counted = all(_COUNT.fullmatch(row[side]) for side in ("defenders", "attackers"))
    return counted and row.end() == len(line.strip()) and len(row["status"].split()) < 2


def looks_like_csv(head: str) -> bool:
    """Whether a text is CSV move lists: its first line (after header lines: `# …`, column names), or
    another line of `head`, is a CSV game (`_is_csv_game`: moves, one is enough, two counts and a
    status), so that a first game mistyped is said at its place, not the file skipped; or its header
    (`_header`) names a tafl game and its first line is no move list alone (a move list's, with it). `head` may
    end inside the first line (a game longer than the characters looked at): its moves so far then
    judge it. Lines may end in CR alone (the head is not yet read as text, which makes them LF). Its
    fields are separated by `,` or `;` (`csv_delimiter`), or by tabs under a header of names so
    separated; a game of the other separator than its header's counts too (rows pasted under another
    file's header: the reader says them at their place). A header of column names that names two
    columns or more is enough (a file of no game yet; a header of five columns, which the reader says)."""
    lines, delimiter = head.lstrip().splitlines(keepends=True), csv_delimiter(head)
    order, named = _CSV_FIELDS, False
    while lines and ((header := _column_names(lines[0])) == delimiter or lines[0].lstrip().startswith("#")):
        names = lines[0].split(delimiter) if header else []
        order, named = _csv_order(lines[0], delimiter) or order, named or _columns_named(names) > 1
        lines = lines[1:]
    if named or any(_is_csv_game(line, order, separator) for line in lines for separator in CSV_DELIMITERS + TAB):
        return True
    if _names_a_game(head):
        first = next((line for line in lines if line.strip()), "")  # (blank lines under the header aside)
        alone = _is_move_list(first, 1) and not any(map(first.__contains__, CSV_DELIMITERS))
        return not alone  # its lines said at their place; move lists alone (no move holds `,`, `;`): tafl's
    first = lines[0].lstrip() if lines else ""
    if not first or first.endswith(("\n", "\r")) or _csv_line(order, delimiter).match(first):
        return False
    fields = first.split(delimiter)[order.index("moves") :]
    return bool(fields) and looks_like_move_lists(fields[0].strip('"') + (" " if len(fields) > 1 else ""))


def _csv_game(path: str, text: str, header: tuple[str, int]) -> str:
    """The tafl game of a CSV file (`text`, its header `header` and where it ends: `_header`), which its
    lines do not say: the one its name names (copenhagen.csv), or else the one its header names (a
    first line `# brandubh`), or else the one game whose board holds every square its moves name (a
    board that holds them holds them on any larger one too: no game is picked by its size); a game
    whose variants describe their own boards (`described`) only by `--game` and `--variant`.
    InputError when several games fit (each named), or none, or the name or header names such a
    game's variant (or such a game alone): `--game` names it."""
    tafl = {game.name: game for game in tafl_games() if not game.described}
    named = _game_named(path, header[0], "csv")
    if named:
        return named
    needed = _board_needed(text[header[1] :])
    fitting = sorted((cls.board.size, game) for game, cls in tafl.items() if cls.board.size >= needed)
    if not fitting:
        largest = max(cls.board.size for cls in tafl.values())
        raise InputError(
            f"{path}: its moves need a board of {needed} files or ranks, and no game a file's name names is "
            f"played on one larger than {largest}×{largest}: {_name_it(None, path, 'csv')}",
            "game",
        )
    if len(fitting) > 1:
        raise InputError(
            f"{path}: its moves fit the boards of {len(fitting)} games "
            f"({', '.join(f'{game} {size}×{size}' for size, game in fitting)}): {_name_it(fitting[0][1], path, 'csv')}",
            "game",
        )
    return fitting[0][1]


_SQUARE_PARTS = re.compile(r"([a-s])(1[0-9]|[1-9])")  # a square (`SQUARE`): its file, its rank


def _board_needed(text: str) -> int:
    """The size of the smallest square board that holds every square of `text` (`d11`: 11)."""
    squares = set(_SQUARE_PARTS.findall(text))  # (each once: a long game names few squares many times)
    files = max((ord(file) - ord("a") + 1 for file, _ in squares), default=0)
    ranks = max((whole_number(rank, 1, 19) or 0 for rank in {rank for _, rank in squares}), default=0)  # (each once)
    return max(files, ranks)


def _game_named(path: str, header: str, reader: str) -> str | None:
    """The tafl game that a file's name names, or else its `header` (`_header`: `# brandubh`): `_named_game`."""
    return _named_game(path, reader) or _named_game(path, reader, header, "its header")


def _named_game(path: str, reader: str, words: str | None = None, where: str = "its name") -> str | None:
    """The tafl game that a file's name (or `words`, its `where`: a CSV file's header) names:
    `brandubh_valid.csv`, `club-copenhagen.txt`; None when it names none. InputError when it names
    several (said as the `reader`'s files name a game: `_name_it`), or a variant of a game that
    describes its boards by its variants (`_refuse_described`)."""
    said = (ntpath.basename(path) if words is None else words).lower()
    named = _games_in(said, [game.name for game in tafl_games() if not game.described])
    _refuse_described(path, where, said, named)
    if len(named) > 1:
        raise InputError(
            f"{path}: {where} names several games ({', '.join(named)}): {_name_it(named[0], path, reader)}", "game"
        )
    return named[0] if named else None


def _games_in(words: str, games: list[str]) -> list[str]:
    """The names of `games` that `words` (in lower case) holds as words of their own."""
    return [game for game in games if re.search(rf"(?<![a-z]){re.escape(game)}(?![a-z])", words.lower())]


def _refuse_described(path: str, where: str, words: str, named: list[str]) -> None:
    """InputError when a CSV file's name or header (`words`) names a variant of a game that describes
    its boards by its variants (`brandubh-7x7-walker`, which would else read as the game it names),
    or names such a game and no other: `--game` and `--variant` read it."""
    for game in tafl_games():
        if not game.described:
            continue
        variant = next(
            (v for v in game.presets if re.search(rf"(?<![a-z0-9-]){re.escape(v)}(?![a-z0-9-])", words)), None
        )
        if variant or (not named and re.search(rf"(?<![a-z]){re.escape(game.name)}(?![a-z])", words)):
            said = f"the variant {variant} of {game.name}" if variant else game.name
            raise InputError(
                f"{path}: {where} names {said}: read it with --game {game.name} --variant {variant or 'V'}", "game"
            )


def _name_it(example: str | None, path: str, reader: str) -> str:
    """How to name the game of the file `path` read by `reader` (a CSV file's or a move list's: its
    name, of its own suffix, else of the reader's format, or its header, which may stand below an
    e-mail's greeting), `example` the game named; None: no game a file's name names fits (a board
    larger than theirs), so a variant of a game that describes its boards is named alone."""
    if example is None:
        listed = " or ".join(f"lusoria explain {game.name}" for game in tafl_games() if game.described)
        return f"name its game: {' or '.join(_variants_named())} ({listed} lists them)"
    suffix = PurePath(path).suffix.lower() or FORMATS[reader].suffixes[0]
    return (
        f"name its game with --game, in the file's name ({example}{suffix}) or in a header such as "
        f"'# {example}'{_or_variant()}"
    )


def read_csv(text: str, path: str, tags: dict[str, str] | None = None) -> Iterator[RecordText]:
    """The games of a CSV file, one a line: `moves,defenders lost,attackers lost,status`, its fields
    separated by `,` or `;` as its first row's are (`csv_delimiter`), after its header lines (`# …`, a
    row of column names, which may order them otherwise: `_csv_order`; one that names other columns
    is an error at its place); the game from `tags` (Game, and then Variant and Rules with it) or
    `_csv_game`. A count that differs from the captures the moves list (each square counted as often
    as listed, H3) is a problem of the record at the count."""
    first_row, delimiter = _delimiting_row(text)
    locator = Locator(text)
    pasted = _pasted(locator, _holds_csv_game, _holds_csv_row, _holds_csv_game)
    lines = [line for span in pasted.spans for line in _CSV_ROW.finditer(text, *span)]
    headers = {line.start(): _csv_order(line[0], delimiter) for line in lines if _column_names(line[0]) == delimiter}
    rows = [line for line in lines if not headers.get(line.start())]
    if not rows:
        return  # column names alone: no game, as an lgn file of comments alone
    games = any(line.start() not in headers for line in rows)  # else names alone, that order no columns
    given = tags or {}
    read_header = (pasted.header, pasted.header_end)
    chosen = dict(given) if given.get("Game") or not games else {"Game": _csv_game(path, text, read_header)}
    rules = _rules_of(chosen)
    overruled = _overruled(pasted, locator, path, given, chosen["Game"], "csv") if games else ""
    others = _other_boards(rows, rules)
    for index, line, draft in drafts("csv", locator, rows):
        _begun(draft, (index, len(rows)), pasted, chosen, overruled)
        if line.start() in others:  # a game of another board: said once, at the first
            if line.start() == next(iter(others)):
                yield draft.source(path, index, _other_board(draft, line, others, chosen["Game"]))
            continue
        if line.start() in headers:  # column names that do not name the four columns
            yield draft.source(path, index, _unknown_names(draft, line, delimiter))
            continue
        header, order = next(
            ((at, order) for at, order in reversed(headers.items()) if at < line.start()), (None, None)
        )
        if order is None:  # no names above, or names that order no columns: the engines' order
            header, order = None, _CSV_FIELDS
        row = _csv_line(order, delimiter).fullmatch(line[0].strip())
        if row is None or _moves_elsewhere(row, order):
            yield draft.source(path, index, _no_game(draft, line, order, (first_row, delimiter), header))
            continue
        at = line.start() + len(line[0]) - len(line[0].lstrip())
        if (quote := row["moves"].find('""')) >= 0:
            yield draft.source(path, index, _quote_in_moves(draft, at + row.start("moves") + quote))
            continue
        status = _field(row, "status").strip().lower()
        if status in STATUSES:
            draft.result, draft.result_at = STATUSES[status], at + row.start("status")
        elif status:
            draft.problems.append(
                draft.problem(_unknown_status(_field(row, "status").strip()), at + row.start("status"), row["status"])
            )
        if not isinstance(rules, OptionError):
            draft.problems += _count_problems(draft, row, at, rules)
        read = _read_list(draft, row["moves"], at + row.start("moves"), path, index, rules)
        if header is not None:  # (kept as written, the row is read again under it)
            names = draft.locator.where(header)[0]
            read = replace(read, heading=draft.locator.lines(names, names))
        yield read


def _other_boards(rows: list[re.Match[str]], rules: TaflGame | OptionError) -> dict[int, tuple[list[str], bool]]:
    """The rows of a CSV file (by offset) that are games of another board than `rules`'s, each with
    the tafl games of other boards it may be a game of and whether its first move is one a game of `rules` may start
    with (its reply then tells): its opening (`_opening`) is none a game of `rules` may open
    with, and one of those games' may, on a board that holds every square of the row (a Brandubh file
    and a Copenhagen file written into one; a first move of both, `a4-a3`, then a reply of one), or its
    squares are off the board of `rules`; none when no row is of `rules` alone (on its board, and
    opening as no game of another board that holds it does). A row of no move is of the file's game."""
    if isinstance(rules, OptionError):
        return {}
    own, starts, found, owned = _first_moves(rules), _starts(), {}, False
    opens: dict[tuple[str, ...], bool] = {}  # whether a game of `rules` may open so, each opening once
    for row in rows:
        opening = _opening(row[0])
        if not opening:
            continue
        needed = _board_needed(row[0])
        others = [  # (a game of its board: its own)
            name
            for size, name, moves in starts
            if size >= needed and size != rules.board.size and _game_opens(name, opening, moves)
        ]
        mine = needed <= rules.board.size and opens.get(opening)
        if mine is None:
            mine = opens[opening] = _opens(rules, opening, own)
        if mine:
            owned = owned or not others  # (else it may be of either)
        elif others:
            found[row.start()] = (others, opening[0] in own)
    return found if owned else {}  # (every game of another board: the file's game misnamed, each row said)


def _opening(row: str) -> tuple[str, ...]:
    """The first two moves of a CSV row (one, or none, when it has fewer), each as `_started` writes it."""
    first = MOVE.search(row)
    second = MOVE.search(row, first.end()) if first else None
    return tuple(_started(move) for move in (first, second) if move)


def _opens(rules: TaflGame, opening: tuple[str, ...], starts: frozenset[str]) -> bool:
    """Whether a game of `rules`, which may start with the moves `starts` (`_first_moves`), may open
    with `opening` (`_opening`): its first move one of them, and its second a reply to it."""
    if opening[0] not in starts:
        return False
    try:
        position = rules.initial()
        for move in opening:
            position = rules.play(position, move).position
    except Illegal:
        return False
    return True


@functools.lru_cache(maxsize=4096)
def _game_opens(name: str, opening: tuple[str, ...], starts: frozenset[str]) -> bool:
    """`_opens` for the tafl game `name`, its default options (`starts`: `_game_starts`)."""
    return _opens(tafl_rules({"Game": name}), opening, starts)


def _started(move: re.Match[str]) -> str:
    """A move as `_first_moves` holds it: its origin and target, `d1-d3`."""
    return f"{move['origin']}-{move['target']}"


def _first_moves(rules: TaflGame) -> frozenset[str]:
    """The moves a game of `rules` may start with (`_started`)."""
    return frozenset(_started(move) for ply in rules.legal_plies(rules.initial()) if (move := MOVE.match(ply)))


def _starts() -> list[tuple[int, str, frozenset[str]]]:
    """Each tafl game whose board is its own (not its variants'): its board's size, its name and
    the moves its games may start with (`_game_starts`), the smallest board first."""
    games = sorted((game.board.size, game.name) for game in tafl_games() if not game.described)
    return [(size, name, _game_starts(name)) for size, name in games]


@functools.lru_cache(maxsize=32)
def _game_starts(name: str) -> frozenset[str]:
    """The moves a game of the tafl game `name`, its default options, may start with (`_first_moves`)."""
    return _first_moves(tafl_rules({"Game": name}))


def _other_board(
    draft: Draft, row: re.Match[str], others: dict[int, tuple[list[str], bool]], read_as: str
) -> SyntaxProblem:
    """The problem of the first `row` of a CSV file's games of another board (`_other_boards`): how
    many rows are and where, that none is read (the file read as the game `read_as`), and the game
    most of them may be a game of."""
    game = Counter(name for games, _ in others.values() for name in games).most_common(1)[0][0]
    lines = [draft.locator.where(at)[0] for at in others]
    if len(lines) == 1:
        where = f"1 row of another board (line {lines[0]}) is"
    else:
        where = f"{len(lines)} rows of another board (lines {listed(_runs(lines))}) are"
    first = MOVE.search(row[0])
    if others[row.start()][1]:  # (a first move of both games: its reply tells)
        opening = (
            f"its first two moves open no game of {read_as} (which this file is read as), and may open a game of {game}"
        )
    else:
        opening = (
            f"its first move is none a game of {read_as} (which this file is read as) starts with, and one a game "
            f"of {game} does"
        )
    said = (
        f"found a game of another board: {opening}; the file holds games of two boards, and its {where} "
        f"not read: give {'it a file of its' if len(lines) == 1 else 'them a file of their'} own ({game}.csv) "
        f"or read {'it' if len(lines) == 1 else 'them'} with --game {game}"
    )
    return draft.problem(said, row.start() + (first.start() if first else 0), first[0] if first else row[0][:20])


def _runs(lines: list[int]) -> list[str]:
    """Rising line numbers as runs of lines next to each other: `2–3`, `7`."""
    starts = [n for i, n in enumerate(lines) if i == 0 or lines[i - 1] != n - 1]
    ends = [n for i, n in enumerate(lines) if i == len(lines) - 1 or lines[i + 1] != n + 1]
    return [str(start) if start == end else f"{start}–{end}" for start, end in zip(starts, ends)]


_FOUR_FIELDS = re.compile(r"([,;\t])(?:[^\n]*\1){2}")  # a row's four fields (three delimiters)


def _holds_csv_row(line: str) -> bool:
    """Whether a line of a CSV file is a row: a game (a move, written well or not, or four fields,
    mistyped: `Ongoing,0,0,resigned`) or column names, so no signature above it (`_signature`: a
    signature's address or phone number holds digits, and is none)."""
    return bool(_SQUARE_LIKE.search(line) or _FOUR_FIELDS.search(line)) or _column_names(line) is not None


def _holds_csv_game(line: str) -> bool:
    """Whether a line of a CSV file holds a game or what else a row holds, a count (`Ongoing,0,resigned`):
    no line of prose (`_pasted`: `prose`, `closing`)."""
    return _holds_csv_row(line) or re.search(r"[0-9]", line) is not None


def _field(row: re.Match[str], name: str) -> str:
    """The field `name` of a CSV game as the csv module reads it: a quote written twice (`""`) is one."""
    return row[name].replace('""', '"') if row[f"q{name}"] else row[name]


def _quote_in_moves(draft: Draft, offset: int) -> SyntaxProblem:
    """The problem of a quote (`""`, at `offset`) in a CSV game's moves, which no move list holds."""
    return draft.problem(
        "found '\"\"', a quote in the moves (a quoted CSV field writes a quote twice): a move list holds no quote",
        offset,
        '""',
    )


def _no_game(
    draft: Draft, line: re.Match[str], order: tuple[str, ...], delimiting: tuple[int, str], header: int | None
) -> SyntaxProblem:
    """The problem of a line that is no CSV game of the columns in `order`, separated by the delimiter
    of `delimiting` (`_delimiting_row`): them, the header that orders them (at offset `header`; None:
    none does), and the other delimiter, at its first, when it would have read the line (tabs: read
    under a header of names they separate); under such a header, a line of more fields (tabs between
    its moves)."""
    first_row, delimiter = delimiting
    said = _columns_said(order, None if header is None else draft.locator.where(header)[0], delimiter)
    others = (d for d in CSV_DELIMITERS + TAB if d != delimiter)
    other = next((d for d in others if _csv_line(order, d).fullmatch(line[0].strip())), "")
    if other == TAB:
        said += (
            "; this line separates its fields by tabs, which a tafl move list has as blanks too: lusoria reads "
            "tabs as separators under a first line of the column names separated by tabs"
        )
    elif other:
        said += (
            f"; this line separates its fields by '{other}', the file by '{delimiter}' (as its line {first_row} does)"
        )
    elif delimiter == TAB and _field_count(line[0], TAB) > len(order):
        said += "; this line has more fields: a tab is a blank between moves too, so separate its moves by spaces"
    elif _cut_short(draft.locator.text, line, _field_count(line[0], delimiter) < len(order)):
        said += "; the file ends inside this line, with no line break (cut short?)"
    at = line[0].index(other) if other else 0
    return draft.problem(said, line.start() + at, other or line[0][:20])


def _cut_short(text: str, line: re.Match[str], short: bool) -> bool:
    """Whether a `line` of `text` that is `short` of fields ends the file inside it: the file's last,
    no line break after it (a download stopped midway)."""
    return short and line.end() == len(text) and not text.endswith(("\n", "\r"))


def _columns_said(order: tuple[str, ...], header: int | None, delimiter: str) -> str:
    """What is said of a line that is no CSV game of the columns in `order` (separated by
    `delimiter`): them, and the line of the header that orders them (`header`; None: none does)."""
    if delimiter == TAB:
        columns = ", ".join(map(_column_name, order[:-1])) + f" and {_column_name(order[-1])}, separated by tabs"
    else:
        columns = delimiter.join(map(_column_name, order))
    return f"a line of a CSV move list is {columns}" + (
        f" (as the header on line {header} orders them)" if header else ""
    )


def _column_name(field: str) -> str:
    """A CSV column as a message names it: `defenders lost`, `moves`."""
    return f"{field} lost" if field in ("defenders", "attackers") else field


def _column_of(name: str) -> str:
    """The CSV column that a column name names: the one whose word it holds (`Defenders_Lost`:
    defenders; `result`: status), or "" for none."""
    return next((field for word, field in _CSV_COLUMN_WORDS.items() if word in name.lower()), "")


def _unknown_names(draft: Draft, names: re.Match[str], delimiter: str) -> SyntaxProblem:
    """The problem of a row of column names that does not name the four columns once each: the
    columns, and the first name that names none of them, or one named before; else (fewer names) the
    columns it does not name, at its start."""
    found = list(re.finditer("[a-z](?:[a-z _-]*[a-z_-])?", names[0], re.I))
    fields = [_column_of(name[0]) for name in found]
    bad = next((index for index, field in enumerate(fields) if not field or field in fields[:index]), None)
    columns = ", ".join(map(_column_name, _CSV_FIELDS[:-1])) + f" and {_CSV_FIELDS[-1]}"
    said = f"the column names are {columns}, in any order, each once (a name holding move, defender, attacker, status or result)"
    if bad is None:
        missing = [_column_name(field) for field in _CSV_FIELDS if field not in fields]
        unnamed = f"{' and '.join(missing)} {'is' if len(missing) == 1 else 'are'} not named"
        return draft.problem(f"{said}: {unnamed}", names.start(), found[0][0])
    name, field = found[bad], fields[bad]
    why = f"{quoted(name[0])} names {_column_name(field) + ' again' if field else 'none of them'}"
    return draft.problem(f"{said}: {why}", names.start() + name.start(), name[0])


def _moves_elsewhere(row: re.Match[str], order: tuple[str, ...]) -> bool:
    """Whether a CSV game's moves stand in another column than `order` gives them, and none in theirs
    (a row of a file pasted under the header of another that orders its columns otherwise)."""
    moves = {field: any(map(MOVE.fullmatch, row[field].split())) for field in order}
    return not moves["moves"] and any(moves.values())


def _unknown_status(written: str) -> str:
    """What is said of a CSV game's status that is none of the statuses (a typo, `Whte`): them, and those like it."""
    statuses = [status.title() for status in STATUSES]
    return f"the status is {', '.join(statuses)} or empty, not {quoted(written)}{meant_among(written, statuses)}"


def _count_problems(draft: Draft, row: re.Match[str], at: int, rules: TaflGame) -> list[SyntaxProblem]:
    """The CSV counts that differ from the capture lists of the moves, each square counted as
    often as it is listed (H3): a problem of the record at the count, of the game's capture rule (as a
    capture a list leaves out is)."""
    attackers_first, capture = rules.initial().turn != WHITE, rules.settings.ids.capture
    lost = {"defenders": 0, "attackers": 0}  # the squares the moves of the other side list
    for number, move in enumerate(MOVE.finditer(row["moves"])):
        by_attackers = (number % 2 == 0) == attackers_first
        lost["defenders" if by_attackers else "attackers"] += len(re.findall(SQUARE, move["captures"] or ""))
    return [
        draft.problem(_miscounted(side, _field(row, side).strip(), count), at + row.start(side), row[side], capture)
        for side, count in lost.items()
        if whole_number(_field(row, side).strip(), 0, 1 << 20) != count
    ]


def _miscounted(side: str, written: str, count: int) -> str:
    """What is said of a CSV count `written` of the `side` lost that is not the `count` the moves list."""
    if not (written.isascii() and written.isdigit()):
        return f"the {side} lost are counted {quoted(written)}, which is no count (0, 1, 2 …); the moves list {count}"
    return f"the {side} lost are counted {written if len(written) <= QUOTED else quoted(written)}, and the moves list {count}"
