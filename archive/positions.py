"""What the archive keeps of the positions a record's main line reached: their keys, a token
each in the record's row of `positions` (`position_key`, `position_token`: the index that
position search and the move tree look up, with the ply played from each position; a whole key
for the first EXACT_PLIES plies, where games share positions, its first SHORT_LENGTH characters
after, where a position found by them is checked against the record's board: `reaches`); each
board spelled out one character a square, compressed per record (`record_boards`, which
pattern search reads, archive/patterns.py); what each square held at some ply
(`record_squares`, which pattern search checks first); the material ply by ply as runs of
plies (`material_runs`) and its least and most over the record (`material_ranges`), which
material search reads. No table holds a row per ply or per distinct position: a random game
reaches a new one at almost every ply (docs/archive.md, "Size")."""
# lusoria: compiled with mypyc

from __future__ import annotations

import hashlib
import threading
from base64 import b64encode
from functools import cache, lru_cache
from operator import itemgetter

import sqlite_utils
import zstandard

from lusoria.archive.functions import FunctionError, go_on, inflated
from lusoria.validator.base import (
    BLACK,
    EMPTY_SQUARE,
    MATERIAL,
    MATERIAL_SUMS,
    PIECE_BITS,
    WHITE,
    Game,
    Material,
    Position,
)
from lusoria.validator.games import GAMES
from lusoria.validator.grid import GridGame, spelling

RANGED = (*MATERIAL, *MATERIAL_SUMS)
RANGE_COLUMNS = ["record_id", *(f"{name}_{end}" for name in RANGED for end in ("min", "max"))]
RUN_COLUMNS = ["record_id", "first_ply", "last_ply", *MATERIAL]
EMPTY = EMPTY_SQUARE
Columns = list[list]  # a table's rows of one record, column by column, its record id left out (the
# writing process adds it): a few lists pass between processes for less than a list a row


def columns(rows: list[list]) -> Columns:
    """Rows (each without the record id) as Columns."""
    return [list(column) for column in zip(*rows)]


_SIDES = {WHITE: b" w", BLACK: b" b"}  # the side to move, as a spelled-out board ends


def _grid_boards(rules: GridGame, positions: list) -> list[bytes]:
    """Positions on a board of squares spelled out: each one's position string (docs/notation.md §6)
    with each empty square written `.` (built from the board's bytes at once: tests/archive/test_research.py
    checks that folding the `.` back gives `format_position`)."""
    if not positions:
        return []
    width, size = rules.board_width(), len(positions[0].board)
    table = spelling(tuple(rules.letters.items()))
    ranks = itemgetter(*[slice(start, start + width) for start in range(size - width, -1, -width)])  # top first
    if rules.in_hand(positions[0]) is None:
        return [b"/".join(ranks(position.board.translate(table))) + _SIDES[position.turn] for position in positions]
    return [
        b"/".join(ranks(position.board.translate(table))) + _SIDES[position.turn] + _hand(rules.in_hand(position))
        for position in positions
    ]


def _hand(pieces: tuple[int, int] | None) -> bytes:
    """The pieces each side holds in hand, as a spelled-out board ends with them (none: nothing)."""
    return f" {pieces[0]} {pieces[1]}".encode() if pieces and pieces != (0, 0) else b""


def boards_and_materials(rules: Game, positions: list) -> tuple[list[bytes], list[Material]]:
    """The board of each of a record's positions spelled out one character a square (what a pattern
    matches; as ASCII bytes), and its material. A game on a board of squares is spelled out here
    (fast, compiled), from what it says of its board; any other game spells out its own
    (`Game.boards_and_materials`)."""
    if not isinstance(rules, GridGame) or not rules.letters:
        return rules.boards_and_materials(positions)
    boards = _grid_boards(rules, positions)
    counted = [(MATERIAL.index(name), letter.encode()) for name, letter in rules.counted_letters().items()]
    steady = rules.material_follows_empty_squares()  # then the material changes only with the empty squares
    materials: list[Material] = []
    empty = -1
    for position, board in zip(positions, boards):
        if steady:
            before, empty = empty, position.board.count(0)
            if empty == before:
                materials.append(materials[-1])
                continue
        material: list[int | None] = [*rules.material(position), None, None, None, None, None]
        for index, letter in counted:
            material[index] = board.count(letter)
        materials.append(tuple(material))
    return boards, materials


_CONTEXTS = threading.local()  # a zstd context may serve one thread at a time (Datasette queries from several)


def _zstd() -> tuple[zstandard.ZstdCompressor, zstandard.ZstdDecompressor]:
    """This thread's zstd contexts, made once: a new one costs 15 µs, more than compressing a record's boards."""
    contexts = getattr(_CONTEXTS, "zstd", None)
    if contexts is None:
        contexts = _CONTEXTS.zstd = (zstandard.ZstdCompressor(level=BOARDS_LEVEL), zstandard.ZstdDecompressor())
    return contexts


BOARDS_LEVEL = 5  # boards square by square: level 5 takes a fifth off level 1, which levels 2 and 3 do not
PADDING = b"\n"  # after a board shorter than a record's longest (a board holds no line break)


def pack_boards(boards: list[bytes]) -> bytes:
    """A record's boards, ply by ply, as one value of `record_boards`: each padded to the
    longest one's length (PADDING), written square by square (what a square held at each ply,
    then the next square: a square keeps its piece for many plies), after that length in two
    bytes, compressed with Zstandard at BOARDS_LEVEL. Three quarters of the boards one a line at
    level 1 (schema versions 7–8), for about 15 µs more a record to read (BENCHMARKS.md, "Issue 31")."""
    width, count = max(map(len, boards), default=0), len(boards)
    squares = bytearray(PADDING * (width * count))
    for ply, board in enumerate(boards):
        squares[ply : ply + len(board) * count : count] = board
    return _zstd()[0].compress(width.to_bytes(2, "big") + squares)


def _squares(packed: bytes) -> tuple[bytes, int]:
    """A record's boards as `pack_boards` writes them, decompressed (its squares from the third
    byte), and how many boards; FunctionError for a value that is not (inflated: at most MAX_VALUE bytes)."""
    data = inflated(_zstd()[1], packed)
    width = int.from_bytes(data[:2], "big")
    if len(data) < 2 or width and (len(data) - 2) % width:
        raise FunctionError("its argument is not a record's boards")
    return data, (len(data) - 2) // width if width else 0


@lru_cache(
    maxsize=2
)  # a query reads the same record's boards for its condition and its column (each at most MAX_VALUE)
def unpacked_boards(packed: bytes) -> str:
    """The boards of `pack_boards`, one a line."""
    data, count = _squares(packed)
    boards: list[bytes] = []
    for ply in range(count):
        if ply % 4096 == 0:
            go_on()  # the statement's timeout and Ctrl-C
        boards.append(data[2 + ply :: count].rstrip(PADDING))
    return b"\n".join(boards).decode()


def board_at(packed: bytes | None, ply: int | None) -> str | None:
    """The SQL function `lusoria_board_at(record_boards.boards, PLY)`: the board of `pack_boards`
    at `ply` (None beyond the last), read without the others."""
    if packed is None or ply is None:
        return None
    data, count = _squares(packed)
    return data[2 + ply :: count].rstrip(PADDING).decode() if 0 <= ply < count else None


def material_range(materials: list[Material]) -> list:
    """The least and the most of each material count over a record's plies (a row of
    `material_ranges` without its record id)."""
    counts = {name: [material[index] for material in materials] for index, name in enumerate(MATERIAL)}
    for total, parts in MATERIAL_SUMS.items():
        counts[total] = [None if None in values else sum(values) for values in zip(*(counts[part] for part in parts))]
    found: list[int | None] = []
    for name in RANGED:
        values = [value for value in counts[name] if value is not None]
        found += [min(values), max(values)] if values else [None, None]
    return found


SQUARES_HELD = 48  # the character of the bits 0 (no piece ever)
_HELD_CHARACTERS = bytes.maketrans(
    bytes(range(1 << PIECE_BITS)), bytes(range(SQUARES_HELD, SQUARES_HELD + (1 << PIECE_BITS)))
)


@cache
def _held_bits(game: str) -> bytes:
    """What a square's character counts in squares_held, per game: its bits (Game.piece_bits), a byte a character."""
    bits = GAMES[game].piece_bits() if game in GAMES else {}
    return bytes(bits.get(chr(code), 0) for code in range(256))


def squares_held(game: str, boards: list[bytes]) -> str:
    """What each square of a record's boards held at some ply, one character a square of its
    spelled-out board (`chr(48 + bits)`, Game.piece_bits), up to the side to move: a pattern search
    skips the records whose squares never held what the pattern asks for (`record_squares`).
    A game without piece bits (no pattern search) is written as never held.
    (Each board's bits, a byte a square, are one integer: OR-ed, the bytes never carry.)"""
    table = _held_bits(game)
    squares = [board.split(b" ", 1)[0] for board in boards]
    length = min(map(len, squares), default=0)
    held = 0
    for board in squares:
        held |= int.from_bytes(board[:length].translate(table), "big")
    return held.to_bytes(length, "big").translate(_HELD_CHARACTERS).decode()


def material_runs(materials: list[Material]) -> list[list]:
    """The rows of `material_runs` of one record, without its id: its main line's material, ply
    by ply, cut where the material changes."""
    found: list[list] = []
    last = None
    for ply, material in enumerate(materials):
        if material == last:
            found[-1][1] = ply
        else:
            found.append([ply, ply, *material])
            last = material
    return found


def summary_rows(rules: Game, positions: list) -> dict[str, Columns]:
    """The rows of `record_boards`, `record_squares`, `material_runs` and `material_ranges` of
    one record's main line (`positions`, ply by ply)."""
    boards, materials = boards_and_materials(rules, positions)
    runs = material_runs(materials)
    return {
        "record_boards": [[pack_boards(boards)]],
        "record_squares": [[rules.name], [squares_held(rules.name, boards)]],
        "material_runs": columns(runs),
        "material_ranges": [[value] for value in material_range([tuple(run[2:]) for run in runs])],
    }  # each material once


def position_key(rules: Game, position: Position) -> int:
    """A 64-bit key of a position, the same for the same position in any record and any run
    (positions are immutable values of bytes, ints and tuples): the blake2b of `key_texts`, after
    the game's name and, on a board of squares, its width (schema version 10: Latrunculi's 12×8
    and 8×12 boards hold as many squares, and their positions are others)."""
    return keys_of(rules, [position])[0]


def keys_of(rules: Game, positions: list[Position]) -> list[int]:
    """`position_key` of each of `positions` (of one game)."""
    empty, from_bytes = hashlib.blake2b(digest_size=8), int.from_bytes  # copied: cheaper than made anew
    keys = []
    width = f"{rules.board_width()} " if isinstance(rules, GridGame) and rules.letters else ""
    for text in key_texts(f"{rules.name} {width}", positions, getattr(rules, "position_name", None)):
        key = empty.copy()
        key.update(text)
        keys.append(from_bytes(key.digest(), "big", signed=True))
    return keys


def key_texts(prefix: str, positions: list[Position], name: str | None = None) -> list[bytes]:
    """What the key of each of a record's positions (of one type) is made from: `prefix`, then
    for a NamedTuple its `name` (by default the name its repr writes) and each field, a bytes field
    (a board) as it is, any other as its repr (`Name(board=…, turn=0)`: one bytes format for the
    record, and a Tablut board fits in one block of blake2b); for any other position, its repr."""
    first = positions[0] if positions else None
    fields = getattr(first, "_fields", None)
    if fields and isinstance(first, tuple):
        parts = ", ".join(
            f"{name}=%b" if isinstance(value, bytes) else f"{name}=%a" for name, value in zip(fields, first)
        )
        template = f"{prefix}{name or repr(first).partition('(')[0]}({parts})".encode()
        return [template % position for position in positions]
    return [(prefix + repr(position)).encode() for position in positions]


# A position's token in `positions`: its key's 8 bytes in base 64, written with characters that
# FTS5's ascii tokenizer keeps within a token (it folds capitals: none is used)
TOKEN_CHARACTERS = "0123456789abcdefghijklmnopqrstuvwxyz!#$%&()*+,-./:;<=>?@[]^_{|}~"
KEY_LENGTH = 11  # characters: the 64 bits of a key (and 2 more)
_TOKEN_TRANSLATION = bytes.maketrans(
    b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/", TOKEN_CHARACTERS.encode()
)


def position_token(key: int) -> str:
    """The token of a position's key in `positions` (KEY_LENGTH characters of TOKEN_CHARACTERS)."""
    return b64encode(key.to_bytes(8, "big", signed=True))[:KEY_LENGTH].translate(_TOKEN_TRANSLATION).decode()


def move_code(number: int) -> str:
    """The code of the `number`-th ply of the archive's dictionary of plies (`moves`): its digits in
    base 64, in TOKEN_CHARACTERS, least significant first."""
    digits = TOKEN_CHARACTERS[number % 64]
    while number >= 64:
        number //= 64
        digits += TOKEN_CHARACTERS[number % 64]
    return digits


EXACT_PLIES = 6  # the plies whose positions' tokens are whole keys: the openings, which many games share
SHORT_LENGTH = 4  # the characters of a key's token after them (24 bits): a position found by them is checked


def position_rows(keys: list[int], moves: list[str]) -> Columns:
    """The row of `positions` of one record, without its record id: the token of each position of
    its main line (whole for the first EXACT_PLIES plies, then its first SHORT_LENGTH characters;
    `keys`: their keys), and the ply played from it in canonical form (`moves`, one fewer: none at
    the end). The writing process turns each ply into its code (`importer.MoveCodes`)."""
    return [[line_tokens(keys)], [moves]]


def tokens_of(rules: Game, positions: list[Position]) -> list[str]:
    """The tokens of a main line's positions in `positions` (`line_tokens`)."""
    return line_tokens(keys_of(rules, positions))


def line_tokens(keys: list[int]) -> list[str]:
    """The tokens of a main line's positions, from their keys: whole for the first EXACT_PLIES
    plies, then their first SHORT_LENGTH characters."""
    tokens = [position_token(key) for key in keys]
    return [token if ply < EXACT_PLIES else token[:SHORT_LENGTH] for ply, token in enumerate(tokens)]


def search_terms(rules: Game, position: Position) -> list:
    """What `reaches` compares a term of `positions` with (SEARCH_TERMS): the position's key, token,
    game and board, and the bounds of the terms that may be it: every term that begins with its
    token's first SHORT_LENGTH characters, and those that begin with its whole token."""
    return all_search_terms(rules, [position])[0]


def all_search_terms(rules: Game, positions: list[Position]) -> list[list]:
    """`search_terms` of each of `positions` (of one game), their keys and boards made at once."""
    boards, _ = boards_and_materials(rules, positions)
    found = []
    for key, board in zip(keys_of(rules, positions), boards):
        token = position_token(key)
        found.append(
            [
                key,
                token,
                rules.name,
                board.decode(),
                token[:SHORT_LENGTH],
                token[:SHORT_LENGTH] + LAST_CHARACTER,
                token + LAST_CHARACTER,
            ]
        )
    return found


SEARCH_TERMS = ("key", "token", "game", "board", "low", "high", "end")  # `search_terms`, as SQL names them
LAST_CHARACTER = "\x7f"  # after every character of a token


def reaches(v: str, w: str, bare: bool) -> str:
    """SQL: the row `v` of `position_plies` (its term, of record `doc` at ply `offset`), read
    between the bounds `low` and `high` of the row `w` (SEARCH_TERMS), is the position sought; with
    `bare`, also at the end of a main line (no ply played from it). A whole token is its
    position's; a short one may be another's, so the record's board at that ply is compared
    (a spelled-out board is the whole position, the side to move included)."""
    return (
        f"({v}.term {'>=' if bare else '>'} {w}.token AND {v}.term < {w}.end "
        f"OR length({v}.term) BETWEEN {SHORT_LENGTH if bare else SHORT_LENGTH + 1} AND {KEY_LENGTH - 1} "
        f"AND (SELECT game FROM records WHERE id = {v}.doc) = {w}.game AND lusoria_board_at("
        f"(SELECT boards FROM record_boards WHERE record_id = {v}.doc), {v}.offset) = {w}.board)"
    )


def move_of(term: str) -> str:
    """SQL: the code of the ply played from a term's position (`move_code`; '' at the end of a line)."""
    return f"substr({term}, CASE WHEN length({term}) >= {KEY_LENGTH} THEN {KEY_LENGTH + 1} ELSE {SHORT_LENGTH + 1} END)"


def create_positions(db: sqlite_utils.Database) -> None:
    """`positions`, an FTS5 index of the records' main lines: per record (its rowid), the token
    of each position in ply order (the ply is the token's offset), followed by the code of the
    ply played from it (none at the end); `position_plies` lists its tokens, each with its
    record (`doc`) and ply (`offset`), ordered by token; `moves`, the dictionary of plies
    (`move_code`); `plies`, a view of a row per position reached (its record and ply cast as whole numbers:
    Datasette's filters compare a value typed in as text, which a column of no type never equals, version 24): its key's token while whole
    (the first EXACT_PLIES plies) and the ply played from it, read with SQLite alone (a board:
    `lusoria_board_at(record_boards.boards, ply)`; docs/archive.md, "Size"). The index keeps
    each document's size (`positions_docsize`, schema version 14): without it, SQLite cannot
    count its rows (`count(*)`, which Datasette runs on every table)."""
    separators = TOKEN_CHARACTERS[36:]
    db.execute(f"""CREATE VIRTUAL TABLE "positions" USING fts5(plies, content='',
    tokenize="ascii tokenchars '{separators}'")""")
    db.execute('CREATE VIRTUAL TABLE "position_plies" USING fts5vocab(positions, instance)')
    db.execute('CREATE TABLE "moves" ("code" TEXT PRIMARY KEY, "text" TEXT NOT NULL UNIQUE) WITHOUT ROWID')
    db.execute(f"""CREATE VIEW "plies" AS
SELECT CAST(p.doc AS INTEGER) AS record_id, CAST(p.offset AS INTEGER) AS ply,
       CASE WHEN length(p.term) >= {KEY_LENGTH} THEN substr(p.term, 1, {KEY_LENGTH}) END AS position, m.text AS move
FROM position_plies p LEFT JOIN moves m ON m.code = {move_of("p.term")}""")


def create_record_summaries(db: sqlite_utils.Database) -> None:
    """Per record: its boards (`record_boards`), what its squares held (`record_squares`,
    `squares_held`, ordered by game: a pattern search reads those of its game), its material ply by ply as runs of plies with the same material
    (`material_runs`, one b-tree ordered by record and ply: a material search reads a few rows
    a record) and the least and most of each count (`material_ranges`)."""
    db.table("record_boards").create(
        {"record_id": int, "boards": bytes}, pk="record_id", foreign_keys=[("record_id", "records", "id")]
    )
    db.execute("""CREATE TABLE "record_squares" (
   "record_id" INTEGER REFERENCES "records"("id"),
   "game" TEXT NOT NULL,
   "squares" TEXT NOT NULL,
   PRIMARY KEY ("game", "record_id")
) WITHOUT ROWID""")
    db.execute(f"""CREATE TABLE "material_runs" (
   "record_id" INTEGER REFERENCES "records"("id"),
   "first_ply" INTEGER NOT NULL,
   "last_ply" INTEGER NOT NULL,
   {", ".join(f'"{name}" INTEGER' for name in MATERIAL)},
   PRIMARY KEY ("record_id", "first_ply")
) WITHOUT ROWID""")
    db.table("material_ranges").create(
        {column: int for column in RANGE_COLUMNS}, pk="record_id", foreign_keys=[("record_id", "records", "id")]
    )
