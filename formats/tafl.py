"""Tafl move lists (Damian Walker's notation, as aagenielsen.dk writes it: `e2-c2 f9-f5xg5 …
resigned`), the JSON files of the aagenielsen.dk scrape, whose `Moves` are such lists, and the
CSV move lists of the Rust tafl engines (`moves,defenders lost,attackers lost,status`), for every
game of the tafl family. Their capture lists follow the sites' conventions (RULES.md H1–H3,
formats/common.py `read_site_captures`)."""

from __future__ import annotations

import functools
import html
import itertools
import json
import re
from collections.abc import Iterator, Mapping

from lusoria.formats import FORMATS
from lusoria.formats.common import ONE_A_LINE, Draft, Locator, drafts, read_site_captures, shown, tafl_games, tafl_rules
from lusoria.notation.json_input import deep_error, text_decoder, too_deep
from lusoria.notation.numbers import whole_number
from lusoria.notation.reader import RecordText, SyntaxProblem
from lusoria.notation.sources import InputError
from lusoria.validator.base import WHITE, OptionError
from lusoria.validator.suggest import alike
from lusoria.validator.tafl import TaflGame
from lusoria.validator.tafl_board import EMPTY, Geometry
from lusoria.words import plural

_TOKEN = re.compile(r"\S+")
_JSON_TOKEN = re.compile(r'"(?:[^"\\]++|\\.)*+"?|[^\s"\[\]{},:]+')  # strings, numbers and words (MAX_TOKEN)
_JSON_STRING = re.compile(r'"(?:[^"\\]++|\\.)*+"')
_SURROGATE = re.compile("[\ud800-\udfff]")
_SQUARE = r"[a-s](?:1[0-9]|[1-9])"  # any tafl board: a1 to s19
_MOVE = re.compile(
    rf"(?P<king>K)?(?P<origin>{_SQUARE})(?P<hyphen>-?)(?P<target>{_SQUARE})"
    rf"(?:x(?P<captures>{_SQUARE}(?:[/x]{_SQUARE})*))?\+{{0,2}}"
)  # xc5/d4, or xc5xd4 as the sites write
_ANY_SQUARE = r"[a-z][0-9]{1,2}"  # what a hand writes as a square, on a board or off every board
_MOVE_SHAPED = re.compile(rf"K?{_ANY_SQUARE}-?{_ANY_SQUARE}(?:x{_ANY_SQUARE}(?:[/x]{_ANY_SQUARE})*)?\+{{0,2}}")
_NUMBER = re.compile(r"[0-9]+\.+")
TERMINATIONS = {"resigned": "resignation", "resigns": "resignation", "timeout": "time forfeit"}


def read_moves(draft: Draft, text: str, base: int, rules: TaflGame, unnamed: str = "") -> None:
    """Add the plies of a move list to `draft`: `text` stands at offset `base` of the file. A
    move written with its hyphen lists its captures (`draft.listed`). A termination word sets
    the result: the side to move resigned, or ran out of time. `unnamed`: what a square off the
    board adds when the file did not name the game (how to name it)."""
    first_white = rules.initial().turn == WHITE
    for token in _TOKEN.finditer(text):
        word, offset = token[0], base + token.start()
        if _NUMBER.fullmatch(word):
            continue
        if word.lower() in TERMINATIONS:
            white_to_move = (len(draft.line.plies) % 2 == 0) == first_white
            draft.result, draft.result_at = ("0-1" if white_to_move else "1-0"), offset
            draft.tag("Termination", TERMINATIONS[word.lower()], offset)
            after = _TOKEN.search(text, token.end())
            if after:
                raise draft.problem(
                    f"found '{shown(after[0])}' after '{word}', which ends the game", base + after.start(), after[0]
                )
            return
        move = _MOVE.fullmatch(word)
        shaped = move or _MOVE_SHAPED.fullmatch(word)  # e7-z7: past any tafl board, a move all the same
        off_board = (
            [square for square in re.findall(_ANY_SQUARE, word) if square not in rules.geo.index] if shaped else []
        )
        if off_board:
            names = rules.geo.names
            raise draft.problem(
                f"found '{shown(word)}': {off_board[0]} is not a square of the {rules.title} board "
                f"({names[0]}–{names[-1]}){unnamed}",
                offset,
                word,
            )
        if move is None:
            raise draft.problem(
                f"found '{shown(word)}', expected a move such as e2-c2 or f9-f5xg5, 'resigned' or 'timeout'",
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


def looks_like_move_lists(head: str, fewest: int = 2) -> bool:
    """Whether the first line of a text is a tafl move list of `fewest` moves or more, and at most
    one word after them: what ends the game (`resigned`, `timeout`), or a slip of it (`resign`,
    `1-0`), which the reader then names at its place. `head` may end inside that line (the first
    few thousand characters of a file): a word it ends in may be cut, so it is not judged when two
    others are."""
    first = next((line for line in head.splitlines(keepends=True) if line.strip()), "")
    words = [word for word in first.split() if not _NUMBER.fullmatch(word)]
    if len(words) > 2 and not first[-1:].isspace():
        words.pop()
    if words and not _MOVE.fullmatch(words[-1]):
        words.pop()
    return len(words) >= fewest and all(_MOVE.fullmatch(word) for word in words)


_CSV_GAME = re.compile(r"^(?![ \t]*#)[^\n]*\S[^\n]*", re.M)  # a game of a CSV file: a line neither blank nor its header
_BLOCK = re.compile(r"\S(?:.|\n(?![ \t]*\n))*")  # a game of a file with blank lines between games


def read_move_lists(text: str, path: str, tags: dict[str, str] | None = None) -> Iterator[RecordText]:
    """The games of a file of move lists: one per blank-line-separated block when the file has
    blank lines between games, otherwise one per line. `tags`: Game, Variant, Rules (by default,
    those of the format's entry)."""
    chosen = _chosen(FORMATS["tafl"].games[""], tags or {})
    rules = _rules_of(chosen)
    unnamed = "" if (tags or {}).get("Game") else _read_as_default(chosen)
    blank_lines_between = re.search(r"\S[ \t]*\n[ \t]*\n\s*\S", text)
    for index, block, draft in drafts("tafl", text, _BLOCK if blank_lines_between else ONE_A_LINE):
        for name, value in chosen.items():
            draft.tag(name, value)
        yield _read_list(draft, block[0], block.start(), path, index, rules, unnamed)


def _chosen(default: Mapping[str, str], tags: dict[str, str]) -> dict[str, str]:
    """The tags of records whose files do not name their rules: those given (`--game`,
    `--variant`, `--rules`) over the format's `default`, which a game given replaces."""
    return dict(tags) if tags.get("Game") else {**default, **tags}


def _rules_of(tags: dict[str, str]) -> TaflGame | OptionError:
    """The rules that a file's tags choose for all its games, or why there are none."""
    try:
        return tafl_rules(tags)
    except OptionError as problem:
        return problem


def _read_as_default(chosen: Mapping[str, str]) -> str:
    """What a square off the board adds to a move list read as the format's default game: how to
    name its game."""
    variant = f" (--variant {chosen['Variant']})" if chosen.get("Variant") else ""
    return (
        f"; a move list does not say its game: read as {chosen['Game']}{variant} unless --game names it{_or_variant()}"
    )


def _or_variant() -> str:
    """How to name a variant of a game that describes its boards by its variants."""
    return "".join(
        f" (or its variant of {game.name} with --game {game.name} --variant V)"
        for game in tafl_games()
        if game.described
    )


def _read_list(
    draft: Draft, moves: str, at: int, path: str, index: int, rules: TaflGame | OptionError, unnamed: str = ""
) -> RecordText:
    """The record of one move list (`moves`, at offset `at`) under `rules`, those of `draft`'s tags
    (`unnamed`: as read_moves')."""
    if isinstance(rules, OptionError):
        return draft.source(path, index, draft.problem(str(rules), draft.start, rule="tag"))
    try:
        draft.refuse_long_tokens(_TOKEN)
        read_moves(draft, moves, at, rules, unnamed)
    except SyntaxProblem as problem:
        return draft.source(path, index, problem)
    read_site_captures(draft, rules)
    return draft.source(path, index)


# -- the CSV move lists of the Rust tafl engines ------------------------------------------------

_CSV_LINE = re.compile(r"(?P<moves>[^,\n]*),(?P<defenders>[^,\n]*),(?P<attackers>[^,\n]*),(?P<status>[^,\n]*)")
STATUSES = {"white": "1-0", "black": "0-1", "ongoing": "*", "draw": "1/2-1/2"}


def looks_like_csv(head: str) -> bool:
    """Whether the first line of a text (after a header line `# …`) is a CSV move list: moves (one
    is enough: the counts and the status say it is a CSV row), two counts and a status. `head`
    may end inside that line (a game longer than the characters looked at): its moves so far then
    judge it. Lines may end in CR alone (the head is not yet read as text, which makes them LF)."""
    lines = head.lstrip().splitlines(keepends=True)
    if lines and lines[0].startswith("#"):
        lines = lines[1:]
    first = lines[0].lstrip() if lines else ""
    row = _CSV_LINE.match(first.rstrip("\r\n"))
    if row is not None:
        return row["status"].strip().lower() in STATUSES and looks_like_move_lists(row["moves"] + " ", fewest=1)
    if first.endswith(("\n", "\r")):
        return False
    moves, comma, _ = first.partition(",")
    return looks_like_move_lists(moves + (" " if comma else ""))


def csv_game(path: str, text: str) -> str:
    """The tafl game of a CSV file, which its lines do not say: the one its name names
    (copenhagen.csv), or else the one its header names (a first line `# brandubh`), or else
    the one game whose board holds every square its moves name (a board that holds them holds
    them on any larger one too: no game is picked by its size); a game whose variants describe
    their own boards (`described`) only by `--game` and `--variant`. InputError when several
    games fit (each named), or none, or the name or header names such a game's variant (or such a
    game alone): `--game` names it."""
    tafl = {game.name: game for game in tafl_games() if not game.described}
    name = path.replace("\\", "/").rsplit("/", 1)[-1]
    header = text.lstrip().split("\n", 1)[0] if text.lstrip().startswith("#") else ""
    for where, words in (("its name", name), ("its header", header)):
        named = [game for game in tafl if re.search(rf"(?<![a-z]){re.escape(game)}(?![a-z])", words.lower())]
        _refuse_described(path, where, words.lower(), named)
        if len(named) == 1:
            return named[0]
        if named:
            raise InputError(f"{path}: {where} names several games ({', '.join(named)}): {_name_it(named[0])}", "game")
    squares = re.findall(_SQUARE, text[len(header) :])
    files = max((ord(square[0]) - ord("a") + 1 for square in squares), default=0)
    ranks = max((whole_number(square[1:], 1, 19) or 0 for square in squares), default=0)
    needed = max(files, ranks)
    fitting = sorted((cls.board.size, game) for game, cls in tafl.items() if cls.board.size >= needed)
    if not fitting:
        largest = max(cls.board.size for cls in tafl.values())
        raise InputError(
            f"{path}: its moves need a board of {needed} files or ranks, and no tafl game "
            f"lusoria knows is played on one larger than {largest}×{largest}: {_name_it(min(tafl))}",
            "game",
        )
    if len(fitting) > 1:
        raise InputError(
            f"{path}: its moves fit the boards of {len(fitting)} games "
            f"({', '.join(f'{game} {size}×{size}' for size, game in fitting)}): {_name_it(fitting[0][1])}",
            "game",
        )
    return fitting[0][1]


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


def _name_it(example: str) -> str:
    return (
        f"name its game with --game, in the file's name ({example}.csv) or in a first line such as '# {example}'"
        + _or_variant()
    )


def read_csv(text: str, path: str, tags: dict[str, str] | None = None) -> Iterator[RecordText]:
    """The games of a CSV file, one a line: `moves,defenders lost,attackers lost,status`, after
    a header line (`# …`) if it has one; the game from `tags` (Game, and then Variant and Rules
    with it) or `csv_game`. A count that differs from the captures the moves list (each square
    counted as often as listed, H3) is a problem of the record at the count."""
    chosen = dict(tags) if tags and tags.get("Game") else {"Game": csv_game(path, text)}
    rules = _rules_of(chosen)
    for index, line, draft in drafts("csv", text, _CSV_GAME):
        for name, value in chosen.items():
            draft.tag(name, value)
        row = _CSV_LINE.fullmatch(line[0].strip())
        if row is None:
            yield draft.source(
                path,
                index,
                draft.problem(
                    "a line of a CSV move list is moves,defenders lost,attackers lost,status",
                    line.start(),
                    line[0][:20],
                ),
            )
            continue
        at = line.start() + len(line[0]) - len(line[0].lstrip())
        status = row["status"].strip().lower()
        if status in STATUSES:
            draft.result, draft.result_at = STATUSES[status], at + row.start("status")
        if not isinstance(rules, OptionError):
            draft.problems += _count_problems(draft, row, at, rules)
        yield _read_list(draft, row["moves"], at, path, index, rules)


def _count_problems(draft: Draft, row: re.Match[str], at: int, rules: TaflGame) -> list[SyntaxProblem]:
    """The CSV counts that differ from the capture lists of the moves, each square counted as
    often as it is listed (H3): a `tag` problem of the record at the count."""
    attackers_first = rules.initial().turn != WHITE
    lost = {"defenders": 0, "attackers": 0}  # the squares the moves of the other side list
    for number, move in enumerate(_MOVE.finditer(row["moves"])):
        by_attackers = (number % 2 == 0) == attackers_first
        lost["defenders" if by_attackers else "attackers"] += len(re.findall(_SQUARE, move["captures"] or ""))
    return [
        draft.problem(
            f"the {side} lost are counted {row[side].strip()}, and the moves list {count}",
            at + row.start(side),
            row[side],
            "tag",
        )
        for side, count in lost.items()
        if whole_number(row[side].strip(), 0, 1 << 20) != count
    ]


# -- the aagenielsen.dk JSON scrape -------------------------------------------------------------

FIELDS = ("WhiteSidePlayerName", "BlackSidePlayerName", "AageGameTypeName", "WhoMovedFirst", "Moves", "WhoWon")
WINNERS = {"white": "1-0", "black": "0-1", "draw": "1/2-1/2", "none": "1/2-1/2"}


_FILE_NAME = re.compile(r"game-(?P<type>[0-9]+)-[0-9]+-(?P<game>[0-9]+)\.json", re.I)  # as the scrape names them
_BOARD = re.compile(r"(?<![0-9])(?P<size>[0-9]{1,2})x(?P=size)(?![0-9])")  # a type's name says its board: 11x11


def _site_id(path: str, type_key: object) -> str | None:
    """The site's number of a game, which the scrape writes in its file's name only
    (`game-4-100-24187.json`: type 4, game 24187), when that name is of the game's type."""
    found = _FILE_NAME.fullmatch(path.replace("\\", "/").rsplit("/", 1)[-1])
    return found["game"] if found and found["type"] == str(type_key) else None


@functools.lru_cache(maxsize=64)  # (the types most like it take 20 ms: once a type, not once a game)
def refused_message(kind: str) -> str:
    """What a record of an unknown game type says of itself, with the known types most like it
    (a slip of the hand: `Saami tablut`); the summary says the rest (`refusal`)."""
    meant = alike(kind, {name.partition("#")[0] for name in FORMATS["aage"].games})  # (`name#key`: one of two)
    return f"game type '{kind}' is none that lusoria knows" + (
        "; did you mean " + " or ".join(f"'{name}'" for name in meant) + "?" if meant else ""
    )


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
    played on the board the type's name says, or a variant of one that describes its boards."""
    named = _BOARD.search(kind)
    size = (whole_number(named["size"], 1, 99) or 0) if named else 0
    games = tafl_games()
    on_board = [game.name for game in games if not game.described and game.board.size == size]
    boards = {game.name: _variant_boards(game) for game in games if game.described}
    described = {name: [v for v, on in variants.items() if on == size or not size] for name, variants in boards.items()}
    describing = [
        f"{name} has {plural(len(variants), 'variant')} on its {size}×{size} board ({', '.join(variants[:3])}{', …' if len(variants) > 3 else ''})"
        if size
        else f"{name} describes boards by its variants"
        for name, variants in described.items()
        if variants
    ]
    if on_board or describing:
        played = f"{' and '.join(on_board)} {'is' if len(on_board) == 1 else 'are'} played on its {size}×{size} board"
        ways = [_read_as(game) for game in games if game.name in on_board] + [
            f"--game {name} --variant V" for name, variants in described.items() if variants
        ]
        return (
            f"lusoria has no rules of that type; {'; '.join([played] * bool(on_board) + describing)}: read them "
            f"with {' or '.join(ways)} (and --rules 'KEY=VALUE …'; lusoria rules --game G --variant V "
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
    """The options that read records as `game`: --game, and its variants when it has several."""
    presets = list(game.presets)
    chosen = f" (--variant {', '.join(presets[:-1])} or {presets[-1]})" if len(presets) > 1 else ""
    return f"--game {game.name}{chosen}"


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
    moves = [_MOVE.fullmatch(ply.text) for ply in draft.line.plies]
    misfits = [_misfit(layout, moves, draft.listed) for layout, _ in layouts]
    fits = [(fitted, there, -misfitting) for fitted, there, misfitting, _ in misfits]
    fitting = [number for number, fit in enumerate(fits) if fit == max(fits)]
    if len(fitting) > 1 or fitting[0] == 0:
        return rules
    chosen, tags = layouts[fitting[0]]
    draft.tags.update(tags)
    fitted, _, _, what = misfits[0]
    better = "" if fits[fitting[0]][0] > fitted else " better"  # (its first misfit as far)
    draft.note(
        f"read from the layout of {tags.get('Variant', '')}, which its moves fit{better}: in the type's first, {what}"
    )
    return chosen


def _misfit(rules: TaflGame, moves: list[re.Match[str] | None], listed: set[int]) -> tuple[int, bool, int, str]:
    """How far a game's moves fit the start of `rules`, the pieces moved and captured as the moves
    write them: the number of moves before the first that leaves an empty square or that crosses or
    lands on a piece, whether its piece is there (it only crosses or lands on one; True when none
    misfits, or one is no move, where it stops), how many misfit in all, and what the first does;
    whose turn it is, the rules say (a ply swapped with the next is caught at its ply, whatever the
    layout). After a move that does not list its captures (not in `listed`) the board is not known:
    only the squares moves leave say more."""
    geo = rules.geo
    board, known = bytearray(rules.initial().board), True
    misfits: list[tuple[int, bool, str]] = []
    for number, move in enumerate(moves):
        if move is None:
            misfits.append((number, True, f"ply {number + 1} is no move"))
            break
        if misfit := _misfitting(board, geo, move, known):
            misfits.append((number, misfit[0], f"ply {number + 1} {misfit[1]}"))
        origin, target = geo.index[move["origin"]], geo.index[move["target"]]
        board[target], board[origin] = board[origin], EMPTY
        for square in re.findall(_SQUARE, move["captures"] or ""):
            board[geo.index[square]] = EMPTY
        known = known and number in listed
    number, there, what = misfits[0] if misfits else (len(moves), True, "")
    return number, there, len(misfits), what


def _misfitting(board: bytearray, geo: Geometry, move: re.Match[str], known: bool) -> tuple[bool, str] | None:
    """Whether a move that does not fit `board` has its piece there (it crosses or lands on a piece,
    the board `known`; not: it leaves an empty square), and what it does (its ply number left to
    the caller); None when it fits."""
    origin, target = geo.index[move["origin"]], geo.index[move["target"]]
    if board[origin] == EMPTY:
        return False, f"({move[0]}) leaves {move['origin']}, which holds no piece"
    same_file = (target - origin) % geo.size == 0
    if known and (same_file or origin // geo.size == target // geo.size):
        step = (geo.size if same_file else 1) * (1 if target > origin else -1)
        taken = next((square for square in range(origin + step, target + step, step) if board[square] != EMPTY), None)
        if taken is not None:
            return True, f"({move[0]}) moves across or onto {geo.names[taken]}, which a piece holds"
    return None


def _old_style(draft: Draft, rules: TaflGame) -> TaflGame:
    """The rules of a record in the site's old style (`a4e4`: no move lists its captures) of a type
    whose records leave out berserk continuations (berw:n): berw:u, under which a ply fits whatever
    it captures, in its Rules tag, with a note why."""
    draft.tag("Rules", f"{draft.tags.get('Rules', '')} berw=u".lstrip(), draft.start)
    draft.note(
        "no move lists its captures (the site's old style): read with berw=u, a ply fitting whatever it captures"
    )
    return tafl_rules(draft.tags)


def looks_like_aage(text: str) -> bool:
    head = text[:4096]
    return head.lstrip()[:1] in "[{" and '"AageGameTypeName"' in head and '"Moves"' in head


def _objects(text: str) -> Iterator[tuple[int, int, object]]:
    """Each game object of the file with its span: a JSON array of objects, one object, or
    one object per line, its numbers as text (nothing is counted with them). ValueError
    (json.JSONDecodeError) when the JSON is broken, or nested deeper than MAX_DEPTH."""
    decoder = text_decoder()

    def decoded(position: int) -> tuple[object, int]:
        if (deep := too_deep(text, position)) is not None:
            raise deep_error(text, deep)
        return decoder.raw_decode(text, position)

    position = len(text) - len(text.lstrip())
    if text.startswith("[", position):
        position += 1
        while True:
            position = _skip(text, position, ",")
            if text.startswith("]", position):
                return
            value, end = decoded(position)
            yield position, end, value
            position = _skip(text, end, "")
            if not text.startswith((",", "]"), position):
                raise json.JSONDecodeError("expected ',' or ']'", text, position)
    while position < len(text):
        value, end = decoded(position)
        yield position, end, value
        position = _skip(text, end, "")


def _skip(text: str, position: int, also: str) -> int:
    while position < len(text) and (text[position].isspace() or text[position] in also):
        position += 1
    return position


def read_aage(text: str, path: str, tags: dict[str, str] | None = None) -> Iterator[RecordText]:
    """The games of an aagenielsen.dk JSON file; a file that is not valid JSON is one record
    whose problem names the place. The format's entry names the game types lusoria knows;
    `tags` (Variant, Rules, read as a plain move list's) give the rules of the others."""
    locator = Locator(text)
    index = 0
    try:
        for start, end, game in _objects(text):
            yield _aage_game(locator, start, end, game, path, index, tags)
            index += 1
    except json.JSONDecodeError as error:
        draft = Draft("aage", locator, min(error.pos, max(len(text) - 1, 0)), len(text))
        yield draft.source(path, index, draft.problem(f"broken JSON: {error.msg}", error.pos, text[error.pos :][:1]))


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
        read_site_captures(draft, rules)
    return draft.source(path, index)


def _read_game(draft: Draft, game: object, tags: dict[str, str] | None, path: str) -> TaflGame | None:
    """The tags, plies and result of one game object of the scrape (of file `path`), read into
    `draft`; its rules. Every record has the site's number of its game (`SiteGameId`) when the
    file's name says it. A game of a type lusoria does not know or does not play (refused by its
    catalogue entry), whose rules `tags` do not give, is refused (None): its record keeps its players, type (`GameType`), site id and result, no plies
    and no Game tag, and the reason is its problem (`refused_message`)."""
    if not isinstance(game, dict) or "Moves" not in game:
        raise draft.problem("a game of the scrape is an object with the fields " + ", ".join(FIELDS), draft.start)
    span = draft.locator.text[draft.start : draft.end]

    def offset(name: str) -> int:
        found = re.search(rf'"{name}"\s*:\s*', span)
        return draft.start + found.end() if found else draft.start

    def text(name: str, value: object) -> str:
        """A field's value as text; a lone surrogate (`\\udc00`), which is no character, is an error."""
        written = str(value)
        if surrogate := _SURROGATE.search(written):
            raise draft.problem(
                f"{name} holds \\u{ord(surrogate[0]):04x}, half of a UTF-16 pair without its other half: no character",
                offset(name),
                rule="syntax",
            )
        return written

    kind = text("AageGameTypeName", game.get("AageGameTypeName", ""))
    draft.tag("Site", "aagenielsen.dk")
    if site_id := _site_id(path, game.get("AageGameTypeKey")):
        draft.tag("SiteGameId", site_id)
    for field, tag in (("WhiteSidePlayerName", "White"), ("BlackSidePlayerName", "Black")):
        if game.get(field):
            draft.tag(tag, html.unescape(text(field, game[field])), offset(field))  # (the scrape: `J&uuml;rgen`)
    types = FORMATS["aage"].games
    names = (f"{kind}#{game.get('AageGameTypeKey')}", kind)  # (two types share a name: by key)
    named = next((name for name in names if name in types), None)
    chosen = types[named] if named else None
    why = _refused_type(chosen) if chosen is not None else None  # (a type lusoria does not play)
    if (chosen is None or why) and tags:  # the rules the reading options give, for a type lusoria cannot read
        chosen, why, named = _chosen(FORMATS["tafl"].games[""], tags), None, None
    if chosen is None or why:  # refused: the record keeps what the file says of the game, for the archive
        draft.tag("GameType", kind, offset("AageGameTypeName"))
        winner = text("WhoWon", game.get("WhoWon", "")).lower()
        if winner in WINNERS:
            draft.result, draft.result_at = WINNERS[winner], offset("WhoWon")
        draft.problems.append(draft.problem(why or refused_message(kind), offset("AageGameTypeName"), kind, "tag"))
        return None
    for name, value in chosen.items():
        draft.tag(name, value, offset("AageGameTypeName"))
    try:
        rules = tafl_rules(draft.tags)
    except OptionError as problem:
        raise draft.problem(str(problem), offset("AageGameTypeName"), rule="tag") from None
    first_white = rules.initial().turn == WHITE
    said = text("WhoMovedFirst", game.get("WhoMovedFirst", "")).lower()
    if said in ("white", "black") and (said == "white") != first_white:
        draft.note(
            f"WhoMovedFirst says {said}, but {kind} games start with "
            f"{'White' if first_white else 'Black'}; the game type decides"
        )
    moves = game["Moves"]
    if isinstance(moves, str):
        read_moves(draft, text("Moves", moves), offset("Moves") + 1, rules)
    elif isinstance(moves, list):
        # each move at its string, the strings of the list taken in turn (a move was searched for
        # as json.dumps writes it, from the list's start: one written with \u escapes was never
        # found, and 40,000 of them took 35 s)
        listed = offset("Moves")
        strings = _JSON_STRING.finditer(span, listed - draft.start)
        for move in moves:
            found = next(strings, None) if isinstance(move, str) else None
            read_moves(draft, text("Moves", move), draft.start + found.start() + 1 if found else listed, rules)
    else:
        raise draft.problem("Moves is a list of moves or one string of moves", offset("Moves"))
    if named:
        others = itertools.takewhile(bool, (types.get(f"{named}/{number}", {}) for number in itertools.count(2)))
        rules = _layout(draft, rules, list(others))  # (the type's other layouts: `Sea battle tafl 13x13#34/2`)
    if rules.settings.unwritten == "n" and draft.line.plies and not draft.listed:
        rules = _old_style(draft, rules)
    winner = text("WhoWon", game.get("WhoWon", "")).lower()
    if winner in WINNERS:
        if "Termination" in draft.tags and WINNERS[winner] != draft.result:
            draft.note(f"WhoWon says {winner}, the move list's ending says {draft.result}; WhoWon decides")
        draft.result, draft.result_at = WINNERS[winner], offset("WhoWon")
    return rules
