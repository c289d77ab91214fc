"""The table of distinct positions: each position key of `plies.position` once, with the
game's position string, the board spelled out one character a square (for pattern search,
archive/patterns.py) and the material of the position (for material search); and per record
the least and the most of each material count over its positions (`material_ranges`), which
lets a material search skip the records that cannot match."""

from __future__ import annotations

import sqlite_utils

from lusoria.validator import latrunculi, tablut
from lusoria.validator.base import BLACK, WHITE, Game
from lusoria.validator.replay import check

MATERIAL = ("white", "black", "king", "white_inciti", "black_inciti", "white_off", "black_off")
POSITION_COLUMNS = ["key", "game", "position", "board", *MATERIAL]
RANGED = (*MATERIAL, "inciti")  # inciti: of both sides
RANGE_COLUMNS = ["record_id", *(f"{name}_{end}" for name in RANGED for end in ("min", "max"))]
EMPTY = "."
LAQUET_POINTS = 18


def create_positions(db: sqlite_utils.Database) -> None:
    """The `positions` table (part of schema version 3)."""
    db.table("positions").create({"key": int, "game": str, "position": str, "board": str,
                            **{column: int for column in MATERIAL}}, pk="key")
    db.table("material_ranges").create({column: int for column in RANGE_COLUMNS}, pk="record_id",
                                 foreign_keys=[("record_id", "records", "id")])


def laquet_board(points: tuple[int, ...]) -> str:
    """Points 1–18 as one character each: `.` empty, `a`–`o` 1–15 White checkers, `A`–`O` Black."""
    return "".join(EMPTY if n == 0 else chr(ord("a" if n > 0 else "A") + abs(n) - 1)
                   for n in points[1:LAQUET_POINTS + 1])


_TRANSLATIONS = {game: bytes.maketrans(bytes([0, *letters]), (EMPTY + "".join(letters.values())).encode())
                 for game, letters in (("tablut", tablut.LETTERS), ("latrunculi", latrunculi.LETTERS))}


def _width(rules: Game) -> int:
    return rules.geo.width if isinstance(rules, latrunculi.Latrunculi) else tablut.SIZE


def _grid_board(rules: Game, position) -> str:
    """A Tablut or Latrunculi position spelled out: its position string (docs/notation.md §6)
    with each empty square written `.` (built from the board's bytes at once: tests/test_research.py
    checks that folding the `.` back gives `format_position`)."""
    width = _width(rules)
    squares = position.board.translate(_TRANSLATIONS[rules.name]).decode()
    ranks = "/".join(squares[start:start + width] for start in range(len(squares) - width, -1, -width))
    hand = getattr(position, "hand", (0, 0))
    return ranks + (" w" if position.turn == WHITE else " b") + (f" {hand[0]} {hand[1]}" if any(hand) else "")


def folded(board: str, width: int = 16) -> str:
    """A spelled-out board written back as a position string: runs of `.` as their length
    (the longest runs first; a run never outgrows a rank of `width` squares)."""
    for run in range(width, 0, -1):
        board = board.replace(EMPTY * run, str(run))
    return board


def position_row(rules: Game, position, key: int) -> list:
    """The row of `positions` for one position."""
    white, black = rules.material(position)
    king = white_inciti = black_inciti = white_off = black_off = None
    if rules.name == "laquet":
        text = rules.format_position(position)
        board = laquet_board(position.points) + text[text.rindex(" "):]
        white_off, black_off = position.off(WHITE), position.off(BLACK)
    elif rules.name not in _TRANSLATIONS:  # a game with no spelled-out board here: its position string
        text = board = rules.format_position(position)
    else:
        board = _grid_board(rules, position)
        text = folded(board, _width(rules))
        if rules.name == "tablut":
            king = board.count("K")
        elif rules.variant == "seneca":
            white_inciti, black_inciti = board.count("I"), board.count("i")
    return [key, rules.name, text, board, white, black, king, white_inciti, black_inciti, white_off, black_off]


def record_positions(rules: Game, positions: list, keys: list[int] | None = None) -> list[list]:
    """The rows of `positions` for the positions a record reached (each once), given their keys
    or not."""
    from lusoria.archive.importer import position_key

    rows, seen = [], set()
    for position, key in zip(positions, keys or [position_key(rules, p) for p in positions]):
        if key not in seen:
            seen.add(key)
            rows.append(position_row(rules, position, key))
    return rows


def material_range(rows: list[list]) -> list:
    """The least and the most of each material count over the `positions` rows of one record
    (a row of `material_ranges` without its record id)."""
    counts = {name: [row[POSITION_COLUMNS.index(name)] for row in rows] for name in MATERIAL}
    counts["inciti"] = [w + b if w is not None else None
                        for w, b in zip(counts["white_inciti"], counts["black_inciti"])]
    found = []
    for name in RANGED:
        values = [value for value in counts[name] if value is not None]
        found += [min(values), max(values)] if values else [None, None]
    return found


# The pieces a square of a spelled-out board can hold, as bits (Laquet: White's or Black's checkers)
PIECE_BITS = {"tablut": {letter: 1 << bit for bit, letter in enumerate("KPp")},
              "latrunculi": {letter: 1 << bit for bit, letter in enumerate("PDIpdi")},
              "laquet": {**{chr(ord("a") + n): 1 for n in range(15)}, **{chr(ord("A") + n): 2 for n in range(15)}}}
SQUARES_HELD = 48  # the character of the bits 0 (no piece ever)


def squares_held(game: str, boards: list[str]) -> str:
    """What each square of a record's boards held at some ply, one character a square of its
    spelled-out board (`chr(48 + bits)`, PIECE_BITS), up to the side to move: a pattern search
    skips the records whose squares never held what the pattern asks for (`record_squares`).
    A game without PIECE_BITS (one added without pattern search) is written as never held."""
    bits = PIECE_BITS.get(game, {})
    squares = zip(*(board.split(" ", 1)[0] for board in boards))
    return "".join(chr(SQUARES_HELD + sum({bits.get(piece, 0) for piece in set(held)})) for held in squares)


RUN_COLUMNS = ["record_id", "first_ply", "last_ply", *MATERIAL]


def material_runs(keys: list[int], rows: list[list]) -> list[list]:
    """The rows of `material_runs` of one record (its id, the first column, left to fill in):
    its main line, ply by ply (`keys`), cut where the material changes; `rows`: the
    `positions` rows of those keys."""
    material = {row[0]: row[POSITION_COLUMNS.index(MATERIAL[0]):] for row in rows}
    found: list[list] = []
    for ply, key in enumerate(keys):
        if found and found[-1][3:] == material[key]:
            found[-1][2] = ply
        else:
            found.append([None, ply, ply, *material[key]])
    return found


WINDOW = 16  # the plies a row of window_squares covers


def window_squares(game: str, boards: list[str]) -> list[list]:
    """The rows of `window_squares` of one record (its id, the first column, left to fill in):
    `squares_held` over each WINDOW plies of its main line (`boards`, ply by ply)."""
    return [[None, first, squares_held(game, boards[first:first + WINDOW])] for first in range(0, len(boards), WINDOW)]


def create_record_summaries(db: sqlite_utils.Database) -> None:
    """Schema version 4: per record, what its squares held (`record_squares`, `squares_held`),
    the same per WINDOW plies (`window_squares`), and its material ply by ply as runs of plies with the same material (`material_runs`, one
    b-tree ordered by record and ply: a material search reads a few rows a record, and no
    position)."""
    db.table("record_squares").create({"record_id": int, "squares": str}, pk="record_id",
                                      foreign_keys=[("record_id", "records", "id")])
    db.execute("""CREATE TABLE "window_squares" (
   "record_id" INTEGER REFERENCES "records"("id"),
   "first_ply" INTEGER NOT NULL,
   "squares" TEXT NOT NULL,
   PRIMARY KEY ("record_id", "first_ply")
) WITHOUT ROWID""")
    db.execute(f"""CREATE TABLE "material_runs" (
   "record_id" INTEGER REFERENCES "records"("id"),
   "first_ply" INTEGER NOT NULL,
   "last_ply" INTEGER NOT NULL,
   {", ".join(f'"{name}" INTEGER' for name in MATERIAL)},
   PRIMARY KEY ("record_id", "first_ply")
) WITHOUT ROWID""")


def _insert_summaries(db: sqlite_utils.Database, squares: list[list], windows: list[list], runs: list[list]) -> None:
    db.conn.executemany("INSERT INTO record_squares (record_id, squares) VALUES (?, ?)", squares)
    db.conn.executemany("INSERT INTO window_squares (record_id, first_ply, squares) VALUES (?, ?, ?)", windows)
    db.conn.executemany(f"INSERT INTO material_runs VALUES ({', '.join('?' * len(RUN_COLUMNS))})", runs)


def fill_record_summaries(db: sqlite_utils.Database, batch: int = 1000) -> None:
    """Fill `record_squares`, `window_squares` and `material_runs` from the plies and
    `positions` (an archive made before version 4)."""
    squares: list[list] = []
    windows: list[list] = []
    runs: list[list] = []
    rows: list[list] = []
    keys: list[int] = []
    current = None

    def close() -> None:
        squares.append([current, squares_held(rows[0][1], [row[3] for row in rows])])
        windows.extend([current, *window[1:]] for window in window_squares(rows[0][1], [row[3] for row in rows]))
        runs.extend([current, *run[1:]] for run in material_runs(keys, rows))

    for record, *row in db.execute(f"SELECT p.record_id, {', '.join('s.' + c for c in POSITION_COLUMNS)} FROM plies p "
                                   "JOIN positions s ON s.key = p.position ORDER BY p.record_id, p.ply"):
        if record != current:
            if rows:
                close()
            current, rows, keys = record, [], []
            if len(squares) >= batch:
                _insert_summaries(db, squares, windows, runs)
                squares, windows, runs = [], [], []
        rows.append(row)
        keys.append(row[0])
    if rows:
        close()
    _insert_summaries(db, squares, windows, runs)


def insert_positions(db: sqlite_utils.Database, rows: list[list], ranges: list[list]) -> None:
    """Add `positions` rows (those already there are kept) and `material_ranges` rows."""
    for table, columns, new, verb in (("positions", POSITION_COLUMNS, rows, "INSERT OR IGNORE"),
                                      ("material_ranges", RANGE_COLUMNS, ranges, "INSERT")):
        db.conn.executemany(f"{verb} INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})",
                            new)


def fill_positions(db: sqlite_utils.Database, batch: int = 1000) -> None:
    """Fill `positions` and `material_ranges` from the records of an archive made before version 3 (each record is
    replayed once: the keys of `plies.position` cannot be turned back into positions)."""
    rows: list[list] = []
    ranges: list[list] = []
    for record, text in db.execute("SELECT id, text FROM records ORDER BY id"):
        report = check(text)
        if report.positions and report.rules is not None:
            reached = record_positions(report.rules, report.positions)
            rows += reached
            ranges.append([record, *material_range(reached)])
        if len(ranges) >= batch:
            insert_positions(db, rows, ranges)
            rows, ranges = [], []
    insert_positions(db, rows, ranges)
