"""The JSON files of the aagenielsen.dk scrape, whose `Moves` are tafl move lists (formats/tafl.py),
each game read as its type's rules say, from the layout its moves fit; a game type lusoria does not
play refused, with how its records may be read."""

from __future__ import annotations

import functools
import html
import itertools
import json
import re
from collections import Counter
from collections.abc import Iterator, Mapping
from typing import Any, Final, NamedTuple, cast

from lusoria.formats import FORMATS
from lusoria.formats.common import Draft, Locator, site_claims, tafl_games, tafl_rules
from lusoria.formats.contract import TYPE_TAG
from lusoria.formats.tafl import MOVE, SQUARE, after_the_end, chosen_tags, read_moves
from lusoria.notation.json_input import deep_error, text_decoder, too_deep
from lusoria.notation.model import Record
from lusoria.notation.numbers import whole_number
from lusoria.notation.reader import RecordText
from lusoria.notation.sources import literal
from lusoria.notation.syntax import SyntaxProblem
from lusoria.validator.base import WHITE, OptionError
from lusoria.validator.replay import Moves
from lusoria.validator.suggest import alike, meant, meant_among
from lusoria.validator.tafl import TaflGame
from lusoria.validator.tafl_board import EMPTY, Geometry
from lusoria.words import NAME_QUOTED, first_few, plural, quoted, times

_JSON_TOKEN = re.compile(r'"(?:[^"\\]++|\\.)*+"?|[^\s"\[\]{},:]+')  # strings, numbers and words (MAX_TOKEN)
_JSON_STRING = re.compile(r'"(?:[^"\\]++|\\.)*+"')
_SURROGATE = re.compile("[\ud800-\udfff]")
_NEXT_GAME = re.compile(r"^[ \t]*(?P<game>\{)", re.M)  # a game object that starts a line
_JSON_PLACE = re.compile(r"( starting)? at$")  # the end of Python's "Unterminated string starting at"
_JSON_SAID: Final = {  # what Python's json says is wrong, said plainly (note81: "Expecting ',' delimiter")
    "Expecting value": "expected a value (a string, a number, true, false, null, an object or an array)",
    "Expecting ':' delimiter": "expected ':' after a member's name",
    "Expecting ',' delimiter": "expected ',' or the end of the object or array",
    "Expecting property name enclosed in double quotes": "expected a member's name in double quotes (after a ',': the "
    "last member has none after it)",
    "Unterminated string": "a string not closed (no '\"' at its end)",
    "Invalid control character": "a control character (a tab?) inside a string, where JSON writes it escaped (\\t)",
    "Invalid \\escape": "a backslash that begins no escape of JSON's (a backslash itself is written \\\\)",
    "Invalid \\uXXXX escape": "\\u not followed by four hexadecimal digits",
    "Illegal trailing comma before end of object": "a ',' after the last member of an object",  # (Python 3.13)
    "Illegal trailing comma before end of array": "a ',' after the last value of an array",
}
_BLANK_TO_THE_END = re.compile(r"\s*+\Z")  # nothing but blanks from a place to the end of the text
FIELDS = ("WhiteSidePlayerName", "BlackSidePlayerName", "AageGameTypeName", "WhoMovedFirst", "Moves", "WhoWon")
WINNERS = {"white": "1-0", "black": "0-1", "draw": "1/2-1/2"}  # WhoWon, in lower case -> the result
UNDECIDED = ("ongoing", "")  # WhoWon of a game the site gives no result (the move list's ending decides)


# A file's name as the scrape names it, or a copy of it as a browser names a file downloaded again (`… (1).json`),
# Windows (`… - Copy (2).json`) or macOS (`… copy 2.json`)
_FILE_NAME = re.compile(
    r"(?:copy (?:\([0-9]+\) )?of )?"  # (Windows XP's Explorer, Google Drive: `Copy of game-….json`, h80c)
    r"game-(?P<type>[0-9]+)-[0-9]+-(?P<game>[0-9]+)(?: ?\([0-9]+\)| - copy(?: \([0-9]+\))?| copy(?: [0-9]+)?)?\.json",
    re.I,
)
_BOARD = re.compile(r"(?<![0-9])(?P<size>[0-9]{1,2})[xX×](?P=size)(?![0-9])")  # a type's name says its board: 11x11


def _site_id(path: str, type_key: object) -> str | None:
    """The site's number of a game, which the scrape writes in its file's name only
    (`game-4-100-24187.json`: type 4, game 24187; a copy's too, `game-4-100-24187 (1).json`), when that name is
    of the game's type."""
    found = _FILE_NAME.fullmatch(path.replace("\\", "/").rsplit("/", 1)[-1])
    return found["game"] if found and found["type"] == str(type_key) else None


_KEYED = re.compile(r"(?:#[0-9]+)?(?:/[0-9]+)?$")  # a type's name as the catalogue keys it: `name#key/layout`


@functools.lru_cache(maxsize=64)  # (the types most like it take 20 ms: once a type, not once a game)
def refused_message(kind: str) -> str:
    """What a record of an unknown game type says of itself, with the known types most like it
    (a slip of the hand: `Saami tablut`); the summary says the rest (`refusal`)."""
    if not kind:
        return "the game names no game type (AageGameTypeName), whose rules it follows"
    like = alike(kind, {_KEYED.sub("", name) for name in FORMATS["aage"].games})
    return f"game type {quoted(kind, NAME_QUOTED)} is none that lusoria knows" + meant(f"'{name}'" for name in like)


def why_refused(kind: str, said: list[str]) -> str:
    """Why the records of a game type are refused, as the summary says it (`Format.why_refused`), a
    Note's template: what the reader said of them (`said`), or, of a type it does not know,
    `refusal` (how to read them)."""
    return literal(next((message for message in said if message != refused_message(kind)), "")) or refusal(kind)


def _refused_type(tags: Mapping[str, str]) -> str | None:
    """Why lusoria refuses the records of a game type it knows (`tags`: the type's Game and Variant),
    a variant whose rules it does not play (refused by name); None when it reads them."""
    try:
        tafl_rules(dict(tags))
    except OptionError as problem:
        return str(problem)
    return None


def refusal(kind: str) -> str:
    """Why the records of an unknown game type are refused, and how to read them: with a tafl game
    played on the board the type's name says, or a variant of one that describes its boards; a
    Note's template, which names the reading settings as its caller does (`{Game}`: `--game`)."""
    named = _BOARD.search(kind)
    size = (whole_number(named["size"], 1, 99) or 0) if named else 0
    games = tafl_games()
    on_board = [game.name for game in games if not game.described and game.board.size == size]
    boards = {game.name: _variant_boards(game) for game in games if game.described}
    described = {name: [v for v, on in variants.items() if on == size or not size] for name, variants in boards.items()}
    describing = [
        f"{name} has {plural(len(variants), 'variant')} on its {size}×{size} board ({first_few(variants)})"
        if size
        else f"{name} describes boards by its variants"
        for name, variants in described.items()
        if variants
    ]
    if on_board or describing:
        played = f"{' and '.join(on_board)} {'is' if len(on_board) == 1 else 'are'} played on its {size}×{size} board"
        ways = [_read_as(game) for game in games if game.name in on_board] + [
            f"{{Game}} {name} {{Variant}} V" for name, variants in described.items() if variants
        ]
        return (
            f"lusoria has no rules of that type; {'; '.join([played] * bool(on_board) + describing)}: read them "
            f"with {' or '.join(ways)} (and {{Rules}} 'KEY=VALUE …'; lusoria rules --game G --variant V "
            "proposes the rule set that makes the most of them legal)"
        )
    everywhere = [f"{game.name} {game.board.size}×{game.board.size}" for game in games if not game.described] + [
        f"the variants of {name} ({min(sizes)}×{min(sizes)} to {max(sizes)}×{max(sizes)})"
        for name, sizes in ((name, variants.values()) for name, variants in boards.items())
        if sizes
    ]
    where = f"on a {size}×{size} board" if size else "on its board"
    return (
        f"lusoria has no rules of that type, and no tafl game it knows is played {where} ({', '.join(everywhere)}): "
        "they cannot be read until its rules are added"
    )


def _read_as(game: type[TaflGame]) -> str:
    """The settings that read records as `game` (a Note's template): Game, and its variants when it has several."""
    presets = list(game.presets)
    chosen = f" ({{Variant}} {', '.join(presets[:-1])} or {presets[-1]})" if len(presets) > 1 else ""
    return f"{{Game}} {game.name}{chosen}"


def _variant_boards(game: type[TaflGame]) -> dict[str, int]:
    """The board size of each variant of a game that describes its boards by its variants."""
    return {variant: game(variant=variant).geo.size for variant in game.presets}


def _layout(draft: Draft, rules: TaflGame, others: list[Mapping[str, str]]) -> TaflGame:
    """The rules of the layout a game was played from, among its type's (`rules`, then the tags
    of `others`: the same rules from other starts): the one under which its moves go furthest
    before one does not fit the board (`_misfit`); where several go as far, one whose piece is there
    for the move that does not fit, which only crosses or lands on a piece, over one that lacks it,
    then the one fewest moves misfit in all (a ply swapped with the next may land on the piece the
    next captures under the layout played, and fit no layout from there: the moves after decide).
    The first unless another is ahead of every other; the tags of one chosen so (its Variant)
    replace the first's, with a note why."""
    if not others:
        return rules
    layouts = [(rules, {}), *((tafl_rules(dict(tags)), dict(tags)) for tags in others)]
    texts = (ply.text for ply in draft.line.plies)  # each written from a MOVE match (`read_moves`): each matches
    moves = [move for move in map(MOVE.fullmatch, texts) if move is not None]
    misfits = [_misfit(layout, moves, draft.listed) for layout, _ in layouts]
    fits = [(fitted, there, -misfitting) for fitted, there, misfitting, _ in misfits]
    fitting = [number for number, fit in enumerate(fits) if fit == max(fits)]
    if len(fitting) > 1 or fitting[0] == 0:
        return rules
    chosen, tags = layouts[fitting[0]]
    draft.tags.update(tags)
    fitted, _, _, what = misfits[0]
    better = "" if fits[fitting[0]][0] > fitted else " better"  # (its first misfit as far)
    said = Moves(Record(draft.tags, draft.line, draft.result), rules, rules.initial()).said(fitted + 1, (0, fitted))
    draft.note(
        f"read from the layout of {tags.get('Variant', '')}, which its moves fit{better}: in the type's first, "
        f"{draft.line.plies[fitted].text} ({said}) {what}"
    )
    return chosen


def _misfit(rules: TaflGame, moves: list[re.Match[str]], listed: set[int]) -> tuple[int, bool, int, str]:
    """How far a game's moves fit the start of `rules`, the pieces moved and captured as the moves
    write them: the number of moves before the first that leaves an empty square or that crosses or
    lands on a piece, whether its piece is there (it only crosses or lands on one; True when none
    misfits), how many misfit in all, and what the first does (its
    text and move the caller says); whose turn it is, the rules say (a ply swapped with the next is
    caught at its ply, whatever the layout). After a move that does not list its captures (not in
    `listed`) the board is not known: only the squares moves leave say more."""
    geo = rules.geo
    board, known = bytearray(rules.initial().board), True
    misfits: list[tuple[int, bool, str]] = []
    for number, move in enumerate(moves):
        if misfit := _misfitting(board, geo, move, known):
            misfits.append((number, misfit[0], misfit[1]))
        origin, target = geo.index[move["origin"]], geo.index[move["target"]]
        board[target], board[origin] = board[origin], EMPTY
        for square in re.findall(SQUARE, move["captures"] or ""):
            board[geo.index[square]] = EMPTY
        known = known and number in listed
    number, there, what = misfits[0] if misfits else (len(moves), True, "")
    return number, there, len(misfits), what


def _misfitting(board: bytearray, geo: Geometry, move: re.Match[str], known: bool) -> tuple[bool, str] | None:
    """Whether a move that does not fit `board` has its piece there (it crosses or lands on a piece,
    the board `known`; not: it leaves an empty square), and what it does (its ply and move left to
    the caller); None when it fits."""
    origin, target = geo.index[move["origin"]], geo.index[move["target"]]
    if board[origin] == EMPTY:
        return False, f"leaves {move['origin']}, which holds no piece"
    same_file = (target - origin) % geo.size == 0
    if known and (same_file or origin // geo.size == target // geo.size):
        step = (geo.size if same_file else 1) * (1 if target > origin else -1)
        taken = next((square for square in range(origin + step, target + step, step) if board[square] != EMPTY), None)
        if taken is not None:
            return True, f"moves across or onto {geo.names[taken]}, which a piece holds"
    return None


def _old_style(draft: Draft) -> TaflGame:
    """The rules of a record in the site's old style (`a4e4`: no move lists its captures) of a type
    whose records leave out berserk continuations (berw:n): berw:u, under which a ply fits whatever
    it captures, in its Rules tag, with a note why."""
    draft.tag("Rules", f"{draft.tags.get('Rules', '')} berw=u".lstrip(), draft.start)
    draft.note(
        "no move lists its captures (the site's old style): read with berw=u, a ply fitting whatever it captures"
    )
    return tafl_rules(draft.tags)


def looks_like_aage(text: str) -> bool:
    """Whether a `.json` file is the scrape's: JSON that names a game type in its first 4,096 characters
    (`Moves` not needed there: a file cut short before them is a game, read and said cut short; a folder's
    import skipped it, newcomer-56b)."""
    head = text[:4096]
    return head.lstrip()[:1] in "[{" and '"AageGameTypeName"' in head


class _Object(dict):
    """A JSON object of the file; `repeated`: the names it gives more than once, and how often (the
    last value kept)."""

    def __init__(self, pairs: list[tuple[str, Any]]) -> None:
        super().__init__(pairs)
        self.repeated = {name: count for name, count in Counter(name for name, _ in pairs).items() if count > 1}


def _not_text(value: object) -> str | None:
    """What a JSON value that is no text is (true, false, a list, an object); None for a string or a
    number (read as text)."""
    if isinstance(value, bool):
        return str(value).lower()
    return "a list" if isinstance(value, list) else "an object" if isinstance(value, dict) else None


class BrokenJSON(NamedTuple):
    """Where the JSON of a game breaks (`pos`, in the file's text) and how (`msg`, json's words)."""

    msg: str
    pos: int


def _objects(text: str) -> Iterator[tuple[int, int, object]]:
    """Each game object of the file with its span: a JSON array of objects, one object, or
    one object per line, its numbers as text (nothing is counted with them). Where the JSON is
    broken, or nested deeper than MAX_DEPTH, a BrokenJSON in its place, spanning up to
    the next game that starts a line (as one a line, or an array json.dump indents, writes
    them), where the reading goes on: one broken game does not lose the games after it."""
    decoder = text_decoder(_Object)
    start = _skip(text, 0, "")
    in_array = text.startswith("[", start)
    position = start + 1 if in_array else start
    while True:
        start = _skip(text, position, "," if in_array else "")
        if start >= len(text) or in_array and text.startswith("]", start):
            return
        broken = start  # where the text of a broken game starts: the game's, or what follows a whole one
        decoded = _decoded(decoder, text, start)
        if not isinstance(decoded, BrokenJSON):
            value, end = decoded
            yield start, end, value
            position = broken = _skip(text, end, "")
            if not in_array or text.startswith((",", "]"), position):
                continue
            decoded = BrokenJSON("expected ',' or ']'", position)
        after = _NEXT_GAME.search(text, max(decoded.pos, start + 1))  # (never the broken game's own start)
        yield broken, after.start() if after else len(text), decoded  # (up to the next game's line)
        if after is None:
            return
        position = after.start("game")


def _decoded(decoder: json.JSONDecoder, text: str, start: int) -> tuple[object, int] | BrokenJSON:
    """The JSON value at `start` and where it ends, or where and how it breaks. It is read from a
    window of the text that ends where a game starts a line, doubled until the value or its break is
    inside it: json counts the lines before a break from the start of the text it is given (the
    whole file, for each of 8,000 broken games, took 3 s; the time grew as the square of the games)."""
    size = 1
    while True:
        following = _NEXT_GAME.search(text, start + size)
        limit = following.start() if following else len(text)
        window = text[start:limit]
        try:
            if (deep := too_deep(window)) is not None:
                raise deep_error(window, deep)
            value, end = decoder.raw_decode(window)
            return value, start + end
        except json.JSONDecodeError as error:
            if limit == len(text) or not _BLANK_TO_THE_END.match(window, error.pos):
                return BrokenJSON(error.msg, start + error.pos)
        size = 2 * (limit - start)  # the break may be the window's end: the value goes on past it


def _skip(text: str, position: int, also: str) -> int:
    """Where the text from `position` goes on past white space and the characters of `also`, and past the byte order
    mark and the DOS end-of-file mark (Ctrl-Z) that files saved by Notepad and joined (`copy /b`, `cat`) hold between
    their games and at their end (h80c: the second game, or an empty one, was broken JSON)."""
    return cast(re.Match[str], _skipped(also).match(text, position)).end()  # (a pattern that matches the empty text)


@functools.cache
def _skipped(also: str) -> re.Pattern[str]:
    return re.compile(rf"[\s\ufeff\x1a{re.escape(also)}]*")


def read_aage(text: str, path: str, tags: dict[str, str] | None = None) -> Iterator[RecordText]:
    """The games of an aagenielsen.dk JSON file; a game whose JSON is broken is a record whose
    problem names the place, and the games after it are read (`_objects`). The format's entry
    names the game types lusoria knows; `tags` (Variant, Rules, read as a plain move list's) give
    the rules of the others."""
    locator = Locator(text)
    for index, (start, end, game) in enumerate(_objects(text)):
        if isinstance(game, BrokenJSON):
            yield _broken(locator, start, end, game, path, index)
        else:
            yield _aage_game(locator, start, end, game, path, index, tags)


def _broken(locator: Locator, start: int, end: int, error: BrokenJSON, path: str, index: int) -> RecordText:
    """The record of a game whose JSON, from `start`, is broken (at `error.pos`): its text as it is,
    its problem says how."""
    draft = Draft("aage", locator, min(start, max(len(locator.text) - 1, 0)), end)
    python = _JSON_PLACE.sub("", error.msg)  # (the place is the diagnostic's)
    said, at = _JSON_SAID.get(python, python), error.pos
    if python == "Invalid control character" and locator.text[at : at + 1] in ("\n", "\r"):
        said = "a string not closed before its line ends"
    elif _BLANK_TO_THE_END.match(locator.text, at) or python == "Unterminated string":  # (ended inside a string)
        said = f"the text ends before its JSON does (cut short?): {said}"
    return draft.source(path, index, draft.problem(f"broken JSON: {said}", at, locator.text[at : at + 1]))


def _aage_game(
    locator: Locator, start: int, end: int, game, path: str, index: int, tags: dict[str, str] | None
) -> RecordText:
    draft = Draft("aage", locator, start, end)
    try:
        draft.refuse_long_tokens(_JSON_TOKEN)
        rules = _read_game(draft, game, tags, path)
    except SyntaxProblem as problem:
        return draft.source(path, index, problem)
    if rules is not None:
        draft.claims = site_claims(draft)
    return draft.source(path, index)


class _Fields:
    """The fields of one game object of the scrape, read in `draft`'s span of the file."""

    def __init__(self, draft: Draft, game: dict) -> None:
        self.draft, self.game, self.span = draft, game, draft.locator.text[draft.start : draft.end]

    def offset(self, name: str, nth: int = 0) -> int:
        """Where the value of field `name` starts (its `nth` value, from 0, when the game gives it
        more than once), past the quote that opens a string (the object's start when it has none)."""
        places = re.finditer(rf'"{re.escape(name)}"\s*:\s*"?', self.span)
        found = next(itertools.islice(places, nth, None), None)
        return self.draft.start + found.end() if found else self.draft.start

    def field(self, name: str) -> str:
        """The value of field `name` as text ("" when there is none, or null)."""
        return self.text(name, self.game.get(name))

    def text(self, name: str, value: object) -> str:
        """A value of field `name` as text ("" for null); a list, an object, true or false, and a lone
        surrogate (`\\udc00`), which is no character, are errors."""
        if value is None:
            return ""
        if kind := _not_text(value):
            raise self.draft.problem(f"{name} is {kind}, not a string", self.offset(name), rule="syntax")
        written = str(value)
        if surrogate := _SURROGATE.search(written):
            raise self.draft.problem(
                f"{name} holds \\u{ord(surrogate[0]):04x}, half of a UTF-16 pair without its other half: no character",
                self.offset(name),
                rule="syntax",
            )
        return written


def _read_game(draft: Draft, game: object, tags: dict[str, str] | None, path: str) -> TaflGame | None:
    """The tags, plies and result of one game object of the scrape (of file `path`), read into
    `draft`; its rules. Every record has the site's number of its game (`SiteGameId`) when the
    file's name says it. A game of a type lusoria does not know or does not play (refused by its
    catalogue entry), whose rules `tags` do not give, is refused (None): its record keeps its players, type (`GameType`), site id and result, no plies
    and no Game tag, and the reason is its problem (`refused_message`)."""
    if not isinstance(game, dict) or "Moves" not in game:
        raise draft.problem(_no_game(game), draft.start)
    fields = _Fields(draft, game)
    if isinstance(game, _Object) and game.repeated:
        name, count = next(iter(game.repeated.items()))
        raise draft.problem(
            f"{name} is given {times(count)}: a game gives each field once", fields.offset(name, 1), rule="syntax"
        )
    kind, at = fields.field("AageGameTypeName"), fields.offset("AageGameTypeName")
    _read_site_and_players(draft, fields, path)
    named, chosen, why = _game_type(kind, game.get("AageGameTypeKey"), tags)
    if chosen is None or why:  # refused: the record keeps what the file says of the game, for the archive
        draft.tag(TYPE_TAG, kind, at)
        _read_winner(draft, fields)
        draft.problems.append(draft.problem(why or refused_message(kind), at, kind, "tag"))
        return None
    for name, value in chosen.items():
        draft.tag(name, value, at)
    if named and _KEYED.sub("", named) != kind:
        draft.note(f"game type '{kind}' read as '{_KEYED.sub('', named)}', as the site writes it")
    try:
        rules = tafl_rules(draft.tags)
    except OptionError as problem:
        raise draft.problem(str(problem), at, rule="tag") from None
    _check_first_mover(draft, fields, rules, kind)
    _read_moves_field(draft, fields, rules)
    if named:
        others = itertools.takewhile(
            bool, (FORMATS["aage"].games.get(f"{named}/{number}", {}) for number in itertools.count(2))
        )
        rules = _layout(draft, rules, list(others))  # (the type's other layouts: `Sea battle tafl 13x13#34/2`)
    if rules.settings.unwritten == "n" and draft.line.plies and not draft.listed:
        rules = _old_style(draft)
    _read_winner(draft, fields, "Termination" in draft.tags)
    return rules


def _no_game(value: object) -> str:
    """What is said of a JSON value of the file that is no game of the scrape (no Moves field): JSON
    that is none at all (neither AageGameTypeName nor Moves: a file named `.json` of another program)."""
    fields = "a game of the scrape is an object with the fields " + ", ".join(FIELDS)
    if isinstance(value, dict) and "AageGameTypeName" in value:
        return fields
    return f"JSON, but not an aagenielsen.dk game: {fields}"


def _read_site_and_players(draft: Draft, fields: _Fields, path: str) -> None:
    """The Site tag, the site's number of the game when the file's name says it (`SiteGameId`),
    and the players' names (HTML entities decoded)."""
    game = fields.game
    draft.tag("Site", "aagenielsen.dk")
    if site_id := _site_id(path, game.get("AageGameTypeKey")):
        draft.tag("SiteGameId", site_id)
    for field, tag in (("WhiteSidePlayerName", "White"), ("BlackSidePlayerName", "Black")):
        if name := fields.field(field):
            draft.tag(tag, html.unescape(name), fields.offset(field))  # (the scrape: `J&uuml;rgen`)


def _game_type(
    kind: str, key: object, tags: dict[str, str] | None
) -> tuple[str | None, Mapping[str, str] | None, str | None]:
    """The catalogue's entry of the game type `kind` (its `key`: two types share a name), its tags
    and why lusoria refuses its records (None: it reads them); for a type lusoria cannot read, the
    tags of the reading options (`tags`) when given, and no entry."""
    types = FORMATS["aage"].games
    keyed = f"{kind}#{key}"
    named = next((name for name in (keyed, kind) if name in types), None) or _written_otherwise(kind, keyed)
    chosen = types[named] if named else None
    why = _refused_type(chosen) if chosen is not None else None  # (a type lusoria does not play)
    if (chosen is None or why) and tags:  # the rules the reading options give, for a type lusoria cannot read
        return None, chosen_tags(FORMATS["tafl"].games[""], tags), None
    return named, chosen, why


def _written_otherwise(kind: str, keyed: str) -> str | None:
    """The catalogue entry of the game type `kind` (`keyed`: with its key, `kind#key`) written in another
    case or spacing (`historical hnefatafl 9X9  (saami tablut)`, as a transcriber types it); else None."""
    entries = _folded_types()
    return next((entries[_folded(name)] for name in (keyed, kind) if entries.get(_folded(name))), None)


@functools.cache  # (once a process, as the catalogues are read)
def _folded_types() -> dict[str, str | None]:
    """Each catalogue name of a game type (`FORMATS["aage"].games`) by its name `_folded`; None for
    a name two types fold to (a user's catalogue may add `tyr 13X13` beside `Tyr 13x13`): neither is guessed."""
    found: dict[str, str | None] = {}
    for name in FORMATS["aage"].games:
        found[_folded(name)] = None if _folded(name) in found else name
    return found


def _folded(name: str) -> str:
    """A game type's name in lower case, its blanks one space."""
    return " ".join(name.split()).casefold()


def _check_first_mover(draft: Draft, fields: _Fields, rules: TaflGame, kind: str) -> None:
    """A note when `WhoMovedFirst` says another side than the one the game type's rules start with."""
    first_white = rules.initial().turn == WHITE
    said = fields.field("WhoMovedFirst").lower()
    if said in ("white", "black") and (said == "white") != first_white:
        draft.note(
            f"WhoMovedFirst says {said}, but {kind} games start with "
            f"{'White' if first_white else 'Black'}; the game type decides"
        )


def _read_moves_field(draft: Draft, fields: _Fields, rules: TaflGame) -> None:
    """The plies of a game's `Moves`: one string of moves, or a list of them."""
    moves = fields.game["Moves"]
    if isinstance(moves, str):
        read_moves(draft, fields.text("Moves", moves), fields.offset("Moves"), rules)
    elif isinstance(moves, list):
        # each move at its string, the list's items taken in turn (a move was searched for as
        # json.dumps writes it, from the list's start: one written with \u escapes was never found,
        # and 40,000 of them took 35 s; then the strings of the list in turn: those of an item that
        # is no string, a list, taken for the items after it)
        text = draft.locator.text
        after = fields.offset("Moves") + 1  # past the list's `[`, then past each item: the next one, past a comma
        ended: str | None = None  # the item that ends the game (`resigned`): an item after it is a problem (h79a)
        for number, move in enumerate(moves, 1):
            item = _skip(text, after, ",")
            found = _JSON_STRING.match(text, item) if isinstance(move, str) else None  # (a number is read as text)
            if found is None:
                raise draft.problem(
                    f'Moves item {number} is not a string: a list of moves holds each as one ("e2-c2")',
                    item,
                    text[item : item + 1],
                )
            if ended is not None and move.strip():  # (an empty item holds no move)
                raise after_the_end(draft, move, found.start() + 1, ended)
            after = found.end()
            ended = read_moves(draft, fields.text("Moves", move), found.start() + 1, rules) or ended  # (review79: an
            # empty item between them, which ends nothing, did not forget the end)
    else:
        raise draft.problem("Moves is a list of moves or one string of moves", fields.offset("Moves"))


def _read_winner(draft: Draft, fields: _Fields, ended: bool = False) -> None:
    """The result `WhoWon` says, over the one the move list's ending says (`ended`: a Termination
    read), with a note when they differ; a value the site never writes (`whte`) is a problem at it."""
    written = fields.field("WhoWon")
    winner = written.lower()
    if winner in WINNERS:
        if ended and WINNERS[winner] != draft.result:
            draft.note(f"WhoWon says {winner}, the move list's ending says {draft.result}; WhoWon decides")
        draft.result, draft.result_at = WINNERS[winner], fields.offset("WhoWon")
    elif winner not in UNDECIDED:
        draft.problems.append(draft.problem(_unknown_winner(written), fields.offset("WhoWon"), written))


def _unknown_winner(written: str) -> str:
    """What is said of a `WhoWon` that is none of the site's values (a typo, `whte`): them, and those like it."""
    values = [value.title() for value in (*WINNERS, *UNDECIDED) if value]
    return f"WhoWon is {', '.join(values)} or empty, not {quoted(written)}{meant_among(written, values)}"
