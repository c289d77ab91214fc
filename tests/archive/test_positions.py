"""`record_squares` (schema version 4): what each square of a record held at some ply, which a
pattern search checks before it looks at the record's plies (the check may only rule out
records that cannot match); and `material_runs`, the material of each record ply by ply in
runs, which a material search reads instead of every ply's position."""

import random
import shutil
import sqlite3
from contextlib import closing

import pytest
from conftest import ROOT, connect

from lusoria.archive import Archive, Filters
from lusoria.archive.patterns import pattern_globs, required_squares
from lusoria.archive.positions import (
    EXACT_PLIES,
    SHORT_LENGTH,
    board_at,
    boards_and_materials,
    material_runs,
    pack_boards,
    position_key,
    position_token,
    search_terms,
    squares_held,
    tokens_of,
    unpacked_boards,
)
from lusoria.archive.search import _held
from lusoria.validator.base import MATERIAL
from lusoria.validator.games import GAMES
from lusoria.validator.replay import check

EMPTY_RANK = "*********"


def tablut(*squares: tuple[str, str], turn: str = "*") -> str:
    """A Tablut pattern open everywhere but at `squares` ((square, what), a1 at the bottom left)."""
    board = [list(EMPTY_RANK) for _ in range(9)]
    for square, what in squares:
        board[9 - int(square[1:])][ord(square[0]) - ord("a")] = what
    return "/".join("".join(rank) for rank in board) + " " + turn


@pytest.fixture(scope="module")
def samples(tmp_path_factory):
    archive = Archive(str(tmp_path_factory.mktemp("squares") / "samples.db"))
    archive.import_paths([str(ROOT / "samples")])
    return archive


@pytest.mark.parametrize(
    "boards",
    [[], [b"K.p/P.. w"], [b"K.p/P.. w", b".Kp/..p b 1 0", b".Kp/.p. w"], [b"x" * 400 + b" b", b"y" * 401 + b" w 12 3"]],
)
def test_boards_read_back_as_packed(boards):
    # square by square, each padded to the longest (schema version 9): the same boards, in order
    packed = pack_boards(boards)
    assert packed.startswith(b"\x28\xb5\x2f\xfd")  # Zstandard
    assert unpacked_boards(packed) == "\n".join(board.decode() for board in boards)
    assert [board_at(packed, ply) for ply in range(-1, len(boards) + 1)] == [
        None,
        *(board.decode() for board in boards),
        None,
    ]  # one board, read alone (a short token's check)


def test_squares_held_are_the_pieces_each_square_ever_held():
    boards = [b"K.p/P.. w", b".Kp/..p b"]  # bits: K 1, P 2, p 4
    assert squares_held("tablut", boards) == "".join(chr(48 + bits) for bits in (1, 1, 4, 0, 2, 0, 4))
    assert squares_held("laquet", [b"a.B w", b"b.. b"]) == chr(49) + chr(48) + chr(50)
    # boards with hands after the side to move; an odd number of them; none
    assert squares_held("latrunculi", [b"P.. w 3 4", b".d. b 3 3", b"..i w"]) == chr(49) + chr(64) + chr(80)
    assert squares_held("tablut", []) == ""


def test_squares_held_of_boards_of_different_lengths_are_those_all_have():
    # a game's position strings (a game without a spelled-out board): the first squares of each
    assert squares_held("tablut", [b"KP w", b"p w", b"PPP b"]) == chr(48 + 7)


def test_required_squares_ask_only_for_what_must_be_there():
    game, glob = (
        "tablut",
        dict(pattern_globs(tablut(("e5", "K"), ("e4", "W"), ("e6", "?"), ("e7", "B"), ("e3", "1"))))["tablut"],
    )
    # squares count from the top rank, 10 characters a rank (with its "/"): e7 is the 25th;
    # the empty e3 (65th) asks for nothing
    assert required_squares(game, glob) == [(25, 4), (35, 1 | 2 | 4), (45, 1), (55, 1 | 2)]
    laquet = dict(pattern_globs("1:2,5:* 6:*,* w"))["laquet"]
    assert required_squares("laquet", laquet) == [(1, 1), (5, 1), (6, 2)]


def test_the_check_never_rules_out_a_record_that_matches(samples, tmp_path):
    """With every square said to have held every piece, the check lets every record through:
    pattern searches must find the same records as with the real record_squares."""
    patterns = [
        tablut(("e5", "K")),
        tablut(("c1", "K")),
        tablut(("e4", "p"), ("e5", "K"), turn="b"),
        tablut(("d5", "B"), ("e5", "K")),
        "1:*,18:* * w",
    ]
    found = {
        pattern: [(row["id"], row["ply"]) for row in samples.query(Filters(pattern=pattern))] for pattern in patterns
    }
    assert any(found.values()) and not all(found.values())
    open_path = str(tmp_path / "open.db")
    shutil.copy(samples.path, open_path)
    with closing(connect(open_path)) as conn:
        conn.execute("UPDATE record_squares SET squares = replace(hex(zeroblob(length(squares))), '00', 'oo')")
        conn.commit()
    for pattern in patterns:
        assert [(row["id"], row["ply"]) for row in Archive(open_path).query(Filters(pattern=pattern))] == found[pattern]
        assert [
            (row["id"], row["ply"]) for row in Archive(open_path).query(Filters(pattern=pattern, symmetric=True))
        ] == [(row["id"], row["ply"]) for row in samples.query(Filters(pattern=pattern, symmetric=True))]
        assert [
            (row["id"], row["ply"]) for row in Archive(open_path).query(Filters(pattern=pattern, material_for=2))
        ] == [(row["id"], row["ply"]) for row in samples.query(Filters(pattern=pattern, material_for=2))]


def test_the_check_rules_out_records_whose_squares_never_held_the_pieces(samples):
    def passing(pattern: str) -> int:
        sql, params = _held(pattern_globs(pattern))
        with closing(connect(samples.path)) as conn:
            return conn.execute(f"SELECT count(*) FROM ({sql})", params).fetchone()[0]

    # one square and no side to move: the check is exact
    for square in ("e5", "a1", "c1"):
        pattern = tablut((square, "K"))
        assert passing(pattern) == len(samples.query(Filters(pattern=pattern)))
    assert passing(tablut(("a1", "K"))) < passing(tablut(("e5", "K")))
    with closing(connect(samples.path)) as conn:
        tablut_records = conn.execute("SELECT count(*) FROM records WHERE game = 'tablut'").fetchone()[0]
    assert passing(tablut(("e4", "p"), ("e5", "K"), ("e6", "p"))) < tablut_records


def test_material_runs_cut_the_main_line_where_the_material_changes():
    full, taken = (9, 16, 1, None, None, None, None), (9, 15, 1, None, None, None, None)
    assert material_runs([full, full, full, taken, taken, full]) == [
        [0, 2, 9, 16, 1, None, None, None, None],
        [3, 4, 9, 15, 1, None, None, None, None],
        [5, 5, 9, 16, 1, None, None, None, None],
    ]


@pytest.fixture(scope="module")
def materials(samples) -> list[tuple]:
    """(record id, ply, material…) for every ply of every sample record, replayed (as its import checked it)."""
    rows = []
    with closing(connect(samples.path)) as conn:
        texts = conn.execute("SELECT id, text FROM record_texts ORDER BY id").fetchall()
    for record, text in texts:
        report = check(text, assume_result=True)
        if report.rules is None:  # (a record no rules replay: it reached no position)
            continue
        _, played = boards_and_materials(report.rules, report.positions)
        rows += [(record, ply, *material) for ply, material in enumerate(played)]
    return rows


@pytest.mark.parametrize(
    "condition", ["white<=15", "black>=15", "king", "white<=14, black>=14", "inciti", "white_off>=1", "black!=16"]
)
@pytest.mark.parametrize("run", [1, 2, 5])
def test_material_search_over_runs_finds_what_every_ply_shows(samples, materials, condition, run):
    """The first ply of the first run of `run` plies where the condition holds, ply by ply from
    each record replayed, against the query (which reads material_runs)."""
    from lusoria.archive.search import material_condition

    sql, params, _, _ = material_condition(condition)
    expected = {}
    with closing(sqlite3.connect(":memory:")) as conn:
        conn.execute(f"CREATE TABLE s (record_id, ply, {', '.join(MATERIAL)})")
        conn.executemany(f"INSERT INTO s VALUES ({', '.join('?' * (2 + len(MATERIAL)))})", materials)
        plies = conn.execute(f"SELECT record_id, ply, {sql} FROM s ORDER BY record_id, ply", params).fetchall()
    length = 0
    for index, (record, ply, holds) in enumerate(plies):
        length = length + 1 if holds and index and plies[index - 1][0] == record and length else int(bool(holds))
        if length == run and record not in expected:
            expected[record] = ply - run + 1
    found = {row["id"]: row["ply"] for row in samples.query(Filters(material=[condition], material_for=run))}
    assert found == expected


def random_tablut(seed: int, plies: int) -> tuple[str, list]:
    """A record of a random Tablut game of `plies` plies (seeded), and its positions."""
    rules = GAMES["tablut"]()
    rng, position, written, reached = random.Random(seed), rules.initial(), [], [rules.initial()]
    for _ in range(plies):
        ply = rules.random_ply(position, rng)
        position = rules.play(position, ply).position
        written.append(ply)
        reached.append(position)
    moves = " ".join(f"{n // 2 + 1}. {ply}" if n % 2 == 0 else ply for n, ply in enumerate(written))
    return f'[Game "tablut"]\n\n{moves} *\n', reached


def test_a_position_past_the_whole_tokens_is_found_by_its_board_not_by_its_short_token(tmp_path):
    # two random games (seeds found by search) whose positions after ply 20 and ply 15 are different
    # but whose keys' tokens begin alike: past EXACT_PLIES the index keeps only those characters, so
    # each record is a candidate for the other's position, and its board rules it out
    (first, reached), (second, passed) = random_tablut(83, 24), random_tablut(202, 18)
    rules = GAMES["tablut"]()
    mine, other = (position_token(position_key(rules, position)) for position in (reached[20], passed[15]))
    assert mine != other and mine[:SHORT_LENGTH] == other[:SHORT_LENGTH] and 15 >= EXACT_PLIES
    archive = Archive(str(tmp_path / "a.db"))
    archive.import_paths([first + "\n" + second])
    with closing(connect(archive.path)) as conn:
        assert conn.execute(
            "SELECT doc, offset FROM position_plies WHERE term >= ? AND term < ? ORDER BY doc",
            search_terms(rules, reached[20])[4:6],
        ).fetchall() == [(1, 20), (2, 15)]  # both candidates
    position = rules.format_position(reached[20])
    assert [(row["id"], row["ply"]) for row in archive.query(Filters(position=position))] == [(1, 20)]
    (node,) = archive.tree(position)
    assert node.games == 1 and node.average_ply == 21.0
    assert [row["id"] for row in archive.query(Filters(records=[first]))] == [1]
    assert [row["id"] for row in archive.query(Filters(records=[second]))] == [2]
    assert [
        row["board"]
        for row in archive.sql(
            "SELECT lusoria_board_at(b.boards, p.ply) AS board FROM plies p "
            "JOIN record_boards b USING (record_id) WHERE p.record_id = 2 "
            "AND p.ply = 15"
        )
    ] == [boards_and_materials(rules, passed)[0][15].decode()]


def test_a_record_searched_for_is_compared_board_by_board_past_the_whole_tokens(tmp_path, monkeypatch):
    # `--records`: the record's tokens in a row find the candidates; short tokens alike (as if the
    # second record's were the first's) leave its boards to rule the other record out
    from lusoria.archive import search

    (first, _), (second, _) = random_tablut(3, 10), random_tablut(4, 10)
    archive = Archive(str(tmp_path / "a.db"))
    archive.import_paths([first + "\n" + second])
    assert [row["id"] for row in archive.query(Filters(records=[first]))] == [1]
    rules = GAMES["tablut"]()
    others = tokens_of(rules, check(second).positions)
    monkeypatch.setattr(search, "tokens_of", lambda *_: others)
    assert archive.query(Filters(records=[second])) != [] and archive.query(Filters(records=[first])) == []


def test_positions_on_boards_of_other_shapes_with_as_many_squares_are_others():
    # Latrunculi's 12×8 and 8×12 boards hold 96 squares each: the same bytes are other positions
    wide, tall = (GAMES["latrunculi"].from_tags({"Variant": "seneca", "Board": shape}) for shape in ("12x8", "8x12"))
    first, second = wide.initial(), tall.initial()
    keys = {position_key(wide, first), position_key(tall, second)}
    assert first == second and len(keys) == 2


def test_every_piece_of_the_tafl_games_is_remembered_in_one_character_a_square(tmp_path):
    """Knights, commanders and mercenaries too (nine letters): the bits of a square's pieces fit one
    character (pieces past the sixth share a bit); an import of such a game failed ('bytes must be
    in range(0, 256)'), and a pattern search finds the mercenary where it stands."""
    bits = GAMES["hnefatafl"].piece_bits()
    assert set("KPNCMpncm") <= set(bits) and all(0 < bit < 64 for bit in bits.values())
    board = b"KPNCMpncm."
    held = squares_held("hnefatafl", [board + b" w"])
    assert [ord(char) - 48 for char in held] == [*(bits[letter] for letter in "KPNCMpncm"), 0]
    record = tmp_path / "m.lgn"
    start = "11/11/11/11/5M5/11/11/11/11/11/K10 w"
    record.write_text(f'[Game "hnefatafl"]\n[Variant "fetlar-hnefatafl-11x11"]\n[Position "{start}"]\n\n*\n')
    archive = Archive(str(tmp_path / "a.db"))
    assert archive.import_paths([str(record)]).added == 1
    assert [row["ply"] for row in archive.query(Filters(pattern=start))] == [0]
