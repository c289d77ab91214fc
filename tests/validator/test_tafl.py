"""Copenhagen Hnefatafl (C1–C14) and Brandubh (B1–B12) on the tafl engine, at the edges of their
rules: restricted and hostile squares, the armed king, the shieldwall with the king in the line,
exit forts whose wall could or could not be captured, encirclement of every defender, the king
captured on and beside the throne, on the edge and against a corner."""

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lusoria.validator.base import BLACK, WHITE, Illegal, OptionError
from lusoria.validator.brandubh import Brandubh
from lusoria.validator.copenhagen import Copenhagen
from lusoria.validator.games import GAMES
from lusoria.validator.replay import check
from lusoria.validator.tafl import TaflGame
from lusoria.validator.tafl_board import (
    ATTACKER,
    DEFENDER,
    KING,
    OWNER,
    PIECE_NAMES,
    TaflPosition,
)
from lusoria.validator.tafl_continuations import taken
from lusoria.validator.tafl_settings import square_index

COPENHAGEN, BRANDUBH = Copenhagen(), Brandubh()


def position(rules: TaflGame, white: str = "", black: str = "", turn: str = "b") -> TaflPosition:
    """White's pieces (`Kf6` the king) and Black's, by square."""
    board = bytearray(rules.geo.squares)
    for item in white.split():
        board[rules.geo.index[item.lstrip("K")]] = KING if item.startswith("K") else DEFENDER
    for item in black.split():
        board[rules.geo.index[item]] = ATTACKER
    return TaflPosition(bytes(board), WHITE if turn == "w" else BLACK)


def played(rules: TaflGame, white: str, black: str, turn: str, ply: str):
    return rules.play(position(rules, white, black, turn), ply)


def refused(rules: TaflGame, white: str, black: str, turn: str, ply: str) -> tuple[str, str]:
    with pytest.raises(Illegal) as illegal:
        played(rules, white, black, turn, ply)
    return illegal.value.rule, illegal.value.message


def captured(rules: TaflGame, white: str, black: str, turn: str, ply: str) -> list[str]:
    after = played(rules, white, black, turn, ply)
    before = position(rules, white, black, turn).board
    return sorted(
        rules.geo.names[s]
        for s in range(rules.geo.squares)
        if before[s] and not after.position.board[s] and s != rules.geo.index[ply.lstrip("K").split("-")[0]]
    )


# -- Copenhagen ---------------------------------------------------------------------------------


def test_the_start_and_the_attackers_first():
    start = COPENHAGEN.initial()
    assert start.turn == BLACK and COPENHAGEN.material(start) == (13, 24)
    assert COPENHAGEN.format_position(start) == COPENHAGEN.board.start
    report = check('[Game "copenhagen"]\n\n1. f4-c4 *\n')
    assert [(d.rule, d.ply) for d in report.diagnostics if d.severity == "error"] == [("C2", 1)]


def test_restricted_squares_only_the_king_stops_there_and_soldiers_cross_the_empty_throne():
    assert refused(COPENHAGEN, "Kd6", "a2", "b", "a2-a1") == ("C4", "only the king may stop on a corner (a1)")
    assert refused(COPENHAGEN, "Kd6", "f9", "b", "f9-f6") == ("C4", "only the king may stop on the throne (f6)")
    assert played(COPENHAGEN, "Kd6", "f9", "b", "f9-f3").outcome is None  # over the empty throne (674 games)
    assert refused(COPENHAGEN, "Kf6", "f9", "b", "f9-f3") == ("C3", "the way is blocked at f6")
    back = played(COPENHAGEN, "Kf7 c3", "a8", "w", "Kf7-f6")
    assert back.position.board[COPENHAGEN.geo.throne] == KING


def test_hostile_squares_corners_for_all_the_throne_for_defenders_only_when_empty():
    assert captured(COPENHAGEN, "Kd6 a2", "a4", "b", "a4-a3") == ["a2"]  # against the corner a1
    assert captured(COPENHAGEN, "Kd6 c4", "b1", "w", "c4-c1") == ["b1"]  # an attacker too
    assert captured(COPENHAGEN, "Kd9 f7", "h8", "b", "h8-f8") == ["f7"]  # against the empty throne
    assert captured(COPENHAGEN, "Kf6 f7", "h8", "b", "h8-f8") == []  # the king on it: not hostile to defenders
    assert captured(COPENHAGEN, "Kf6 h8", "f7", "w", "h8-f8") == ["f7"]  # the king closes: he is armed (C6)
    assert captured(COPENHAGEN, "Kc6 c2", "c3", "w", "Kc6-c4") == ["c3"]  # the king captures
    assert captured(COPENHAGEN, "Kd6 c5", "a5", "w", "c5-b5") == []  # the edge is never hostile


def test_shieldwall_captures_the_line_but_the_king_and_needs_every_front():
    wall, fronts = "c1 d1 e1", "c2 d2 e2"
    assert captured(COPENHAGEN, f"Kf6 b1 {fronts} f3", wall, "w", "f3-f1") == ["c1", "d1", "e1"]
    assert captured(COPENHAGEN, f"Kf6 {fronts} f3", wall, "w", "f3-f1") == []  # b1 empty: the line is not closed
    assert captured(COPENHAGEN, "Kf6 b1 c2 d2 f3", wall, "w", "f3-f1") == []  # e1 has no enemy in front
    assert captured(COPENHAGEN, "Kf6 h2 i2 j2 g3", "h1 i1 j1", "w", "g3-g1") == ["h1", "i1", "j1"]  # closed by k1
    weak = Copenhagen({"shieldwall": "weak"})  # a corner closes no line (OpenTafl's sw:w)
    assert captured(weak, "Kf6 h2 i2 j2 g3", "h1 i1 j1", "w", "g3-g1") == []
    assert captured(weak, f"Kf6 b1 {fronts} f3", wall, "w", "f3-f1") == ["c1", "d1", "e1"]
    assert captured(Copenhagen(variant="fetlar"), f"Kf6 b1 {fronts} f3", wall, "w", "f3-f1") == []  # no shieldwall
    assert captured(COPENHAGEN, "Kf6 b3 b4 b5 c6 a3", "a4 a5", "w", "c6-a6") == ["a4", "a5"]  # along the a-file
    assert captured(COPENHAGEN, "Kf6 j3 j4 j5 i6 k3", "k4 k5", "w", "i6-k6") == ["k4", "k5"]  # along the k-file
    # a line that leaves the edge, flanked and closed as a wall is, is none: e1's file inward, e2 and e3 stay
    assert captured(COPENHAGEN, "Kf6 e2 e3", "f2 f3 e4 h1", "b", "h1-e1") == []
    unarmed = Copenhagen({"king-armed": "no"})  # an unarmed king closes no shieldwall
    assert captured(unarmed, "b1 c2 d2 e2 Kf3", wall, "w", "Kf3-f1") == []
    assert captured(COPENHAGEN, "c1 Kd1 e5", "b1 c2 d2 e3", "b", "e3-e1") == ["c1"]  # the king in the line stays
    assert played(COPENHAGEN, f"Kf6 b1 {fronts} f3", wall, "w", "f3-f1xc1/d1/e1").text == "f3-f1xc1/d1/e1"
    assert refused(COPENHAGEN, f"Kf6 b1 {fronts} f3", wall, "w", "f3-f1xe1") == (
        "C7",
        "the move captures c1/d1/e1, not e1",
    )  # the list leaves out what the shieldwall captures
    assert refused(COPENHAGEN, "Kf6 b1 c2 d2 f3 a7", "c1 d1 a6 a8", "w", "f3-f1xa6")[0] == "C6"  # a custodial one
    assert refused(COPENHAGEN, f"Kf6 b1 {fronts} f3 h1", f"{wall} g1", "w", "f3-f1xg1") == (
        "C7",
        "the move captures c1/d1/e1/g1, not g1",
    )  # the list names the custodial capture alone: the shieldwall's rule still (no camp to blame)


def test_the_king_is_captured_on_four_sides_three_beside_the_empty_throne_and_never_on_the_edge():
    four = played(COPENHAGEN, "Kd4", "c4 e4 d5 d2", "b", "d2-d3")
    assert (four.outcome.rule, four.outcome.result, four.text) == ("C8", "0-1", "d2-d3xd4")
    assert played(COPENHAGEN, "Kd4", "c4 e4 d7", "b", "d7-d5").outcome is None  # three: no
    assert played(COPENHAGEN, "Kf5", "e5 g5 f3", "b", "f3-f4").outcome.rule == "C8"  # the empty throne f6 beside
    assert played(COPENHAGEN, "Kf6", "e6 g6 f7 f3", "b", "f3-f5").outcome.rule == "C8"  # on it: four attackers
    assert played(COPENHAGEN, "Kf6", "e6 g6 f3", "b", "f3-f5").outcome is None  # on it, three: no
    assert played(COPENHAGEN, "Kd1 j9", "c1 d2 f1", "b", "f1-e1").outcome is None  # never on the edge


def test_the_king_escapes_to_a_corner_only():
    assert played(COPENHAGEN, "Ka5 j9", "k9", "w", "Ka5-a1").outcome.rule == "C9"
    assert played(COPENHAGEN, "Ka5 j9", "k9", "w", "Ka5-a2").outcome is None  # the edge is not enough


FORT = "Ke1 d1 d2 d3 e3 f2 f1"  # the king on e1, e2 empty inside, every wall piece safe


def test_an_exit_fort_wins_when_its_wall_can_never_be_captured():
    done = played(COPENHAGEN, FORT.replace("d3", "d5"), "k6 j9", "w", "d5-d3")
    assert (done.outcome.rule, done.outcome.result) == ("C10", "1-0")
    small = played(COPENHAGEN, "Ke1 d1 g1 e2 f5", "k6 j9", "w", "f5-f2")  # e1 and f1 inside, every defender a wall
    assert small.outcome.rule == "C10"
    start = position(COPENHAGEN, "Ke1 d1 g1 e2 f2", "k6 j9", "b")  # a record that starts in a fort is over (C14)
    assert COPENHAGEN.outcome(start).rule == "C10"
    assert COPENHAGEN.outcome(position(COPENHAGEN, "Kf6 f5", "e5 g5 e6 g6 f7 f4", "w")).rule == "C11"
    assert played(COPENHAGEN, FORT.replace("d3", "h7"), "k6 j9", "w", "h7-h8").outcome is None  # e3 could be taken
    assert played(COPENHAGEN, FORT.replace("d3", "d5"), "e2 j9", "w", "d5-d3").outcome is None  # an attacker inside
    assert played(COPENHAGEN, "Ke1 d1 d2 e2 f2 f1 h7", "k6 j9", "w", "h7-h8").outcome is None  # a safe wall, but
    # the king cannot move


def test_encirclement_shuts_in_every_defender():
    ring = "e5 g5 e6 g6 f7"
    closed = played(COPENHAGEN, "Kf6 f5", ring + " f2", "b", "f2-f4")
    assert (closed.outcome.rule, closed.outcome.result) == ("C11", "0-1")
    assert played(COPENHAGEN, "Kf6 f5", ring + " f2 a2", "b", "a2-a3").outcome is None  # f4 open
    assert played(COPENHAGEN, "Kf6 f5 j9", ring + " f2", "b", "f2-f4").outcome is None  # j9 can reach the edge


def test_a_side_without_a_move_loses():
    stuck = played(COPENHAGEN, "Kd1", "c1 e1 d2 h5", "b", "h5-h4")
    assert (stuck.outcome.rule, stuck.outcome.result) == ("C13", "0-1")
    beside_a_corner = played(COPENHAGEN, "Kd1 a2", "c1 e1 d2 a3 b2 h5", "b", "h5-h4")  # a2 may not go to a1
    assert beside_a_corner.outcome.rule == "C13"
    assert COPENHAGEN.random_ply(stuck.position, random.Random(1)) is None


def test_the_board_as_text_marks_the_throne_and_the_corners():
    rows = COPENHAGEN.render(COPENHAGEN.initial()).splitlines()
    assert rows[0] == "11 # . . p p p p p . . #" and rows[5] == " 6 p p . P P K P P . p p"
    assert rows[10] == " 1 # . . p p p p p . . #" and rows[11] == "   a b c d e f g h i j k"
    assert BRANDUBH.render(position(BRANDUBH, "Kb6", "a4")).splitlines()[3] == "4 p . . + . . ."


# -- Brandubh -----------------------------------------------------------------------------------


def test_brandubh_captures_the_king_between_two_on_the_edge_and_against_a_corner():
    assert played(BRANDUBH, "Kc2", "b2 d6", "b", "d6-d2").outcome.rule == "B7"  # between two attackers
    assert played(BRANDUBH, "Kc1", "b1 e1", "b", "e1-d1").outcome.rule == "B7"  # on the edge too
    assert played(BRANDUBH, "Kb1", "e1", "b", "e1-c1").outcome.rule == "B7"  # against the corner a1
    assert played(BRANDUBH, "Kd5", "c5 e5 f6", "b", "f6-d6").outcome.rule == "B7"  # beside the throne: three
    assert played(BRANDUBH, "Kd5", "e5 f6", "b", "f6-d6").outcome is None  # two beside the throne: no
    assert played(BRANDUBH, "Kc4", "a4", "b", "a4-b4").outcome is None  # the empty throne is not hostile to him


def test_brandubh_has_no_shieldwall_and_its_corners_and_empty_throne_are_hostile():
    assert captured(BRANDUBH, "Kd4 b1 c2 d2 e2 f3", "c1 d1 e1", "w", "f3-f1") == []  # B9: no shieldwall
    assert captured(BRANDUBH, "Ke4 a2", "a4", "b", "a4-a3") == ["a2"]  # against the corner a1
    assert captured(BRANDUBH, "Kb6 d5", "d7", "b", "d7-d6") == ["d5"]  # against the empty throne d4
    assert captured(BRANDUBH, "Kb6 g6", "d5", "w", "g6-d6") == ["d5"]  # an attacker too


def test_random_games_of_the_family_replay_clean():
    from lusoria.api import random_records

    for game in ("copenhagen", "brandubh"):
        for text in random_records(game, 5, seed=3, max_plies=120):
            assert check(text).diagnostics == [], text


# -- the archive: patterns and material on any board ------------------------------------------------


def test_patterns_with_symmetries_and_material_on_the_familys_boards(tmp_path):
    from conftest import ROOT

    from lusoria.archive import Archive, Filters

    archive = Archive(str(tmp_path / "family.db"))
    archive.import_paths([str(ROOT / "tests" / "fixtures" / "formats" / "csv")])
    rank, wide = "*" * 11, "*" * 7

    def ids(**filters) -> list[int]:
        return [row["id"] for row in archive.query(Filters(**filters))]

    on_throne = "/".join([rank] * 5 + ["*****K*****"] + [rank] * 5)
    assert ids(pattern=on_throne) == [5, 6, 7, 8]  # every Copenhagen game starts so; no Brandubh board is 11×11
    beside = "/".join([rank] * 5 + ["****K******"] + [rank] * 5)  # the king on e6, or (turned) f5, f7, g6
    assert set(ids(pattern=beside, symmetric=True)) >= set(ids(pattern=beside)) and ids(pattern=beside, symmetric=True)
    assert ids(pattern="/".join([wide] * 3 + ["***K***"] + [wide] * 3), game="brandubh") == [1, 2, 3, 4]
    assert ids(material=["king=1"], game="brandubh") == [1, 2, 3, 4]
    assert ids(material=["white=13"], game="copenhagen") == [5, 6, 7, 8]  # the start's 12 soldiers and the king
    first = archive.tree(Copenhagen.board.start)  # the tree from the start: each game's first ply, once
    assert sorted(node.ply for node in first) == sorted(
        row["text"].split("\n\n")[1].split()[1] for row in archive.query(Filters(game="copenhagen"))
    )
    assert sum(node.games for node in first) == 4


# -- every command on the family's records ----------------------------------------------------------


@pytest.mark.parametrize(
    "game, size, last, rule, slip", [("copenhagen", 11, "k11", "C7", "d1-f1"), ("brandubh", 7, "g7", "B7", "d2-c3")]
)
def test_every_command_works_on_the_familys_records(game, size, last, rule, slip, tmp_path):
    from click.testing import CliRunner

    from lusoria.cli import main
    from lusoria.document import Document, completions
    from lusoria.validator.games import GAMES

    def run(*args):
        return CliRunner().invoke(main, [str(arg) for arg in args])

    made = run("random", "--game", game, "-n", "2", "--seed", "4", "--max-plies", "40")
    path = tmp_path / f"{game}.lgn"
    path.write_text(made.stdout)
    assert made.exit_code == 0 and run("validate", path).stdout.startswith("2 records: 2 valid")
    assert run("fmt", "--check", path).exit_code == 0  # random games come canonical
    shown = run("show", path).stdout.splitlines()
    files = " " * (len(str(size)) + 1) + " ".join("abcdefghijk"[:size])
    assert shown[2].startswith(f"{size} ") and shown[2 + size] == files  # any size, the ranks right-aligned
    svg = run("show", "--format", "svg", path).stdout
    assert svg.startswith("<svg") and f'data-square="{last}"' in svg
    assert run("html", "-o", tmp_path / "page.html", path).exit_code == 0
    assert "<svg" in (tmp_path / "page.html").read_text()
    assert run("explain", rule).stdout.startswith(f"{rule} ({game})")
    report = check(f'[Game "{game}"]\n\n1... {slip} *\n')  # blocked: a slip, with its "did you mean"
    assert [(d.rule, d.ply) for d in report.diagnostics] == [(GAMES[game]().settings.ids.move, 1)]
    assert report.diagnostics[0].suggestions
    document = Document()
    document.update(document.split(f'[Game "{game}"]\n\n1... \n'))
    plies = [c.label for c in completions(document.entry_at(2), "1... ", 2, 5) if c.kind == "ply"]
    rules = GAMES[game]()
    assert sorted(plies) == sorted(rules.legal_plies(rules.initial()))


@given(
    st.integers(0, 4).flatmap(
        lambda size: st.tuples(
            st.binary(min_size=(7 + 2 * size) ** 2, max_size=(7 + 2 * size) ** 2),
            st.lists(st.tuples(st.integers(0, (7 + 2 * size) ** 2 - 1), st.integers(0, 9)), max_size=8),
        )
    )
)
def test_taken_is_every_square_whose_piece_left_or_changed_sides(case):
    """`taken` reads only the squares a ply changed: the same as walking the whole board."""
    board, changes = case
    board = bytes(value % 10 for value in board)
    after = bytearray(board)
    for square, piece in changes:
        after[square] = piece
    walked = [s for s, (was, now) in enumerate(zip(board, after)) if was and OWNER[now] != OWNER[was]]
    assert taken(board, bytes(after)) == walked


@pytest.mark.parametrize(
    "size, name, index", [(11, "a1", 0), (11, "k1", 10), (11, "a2", 11), (11, "k11", 120), (19, "s19", 360)]
)
def test_a_square_is_numbered_from_a1_rank_by_rank(size, name, index):
    assert square_index(size, name) == index


@pytest.mark.parametrize("name", ["a0", "a12", "l1", "a", ""])
def test_a_square_off_the_board_is_an_option_error_that_names_the_board(name):
    with pytest.raises(OptionError, match=f"^{name} is not a square of a 11×11 board \\(a1–k11\\)$"):
        square_index(11, name)


@pytest.mark.parametrize(
    ("game", "variant", "legend"),
    [
        ("copenhagen", None, "K king, P p soldiers; uppercase: White; + throne; # corner"),
        ("tablut", "ashton", "K king, P p soldiers; uppercase: White; + throne; # camp"),
        ("tablut", None, "K king, P p soldiers; uppercase: White; + throne"),
        ("hnefatafl", "history-craft-hnefatafl-11x11", "K king, P p soldiers; uppercase: White; # corner"),
        ("hnefatafl", "simple-tafl-11x11", "K king, P p soldiers; uppercase: White"),
    ],
)
def test_the_text_board_says_what_its_letters_and_marks_are(game, variant, legend):
    """Under the board, its pieces and the squares it marks when they are empty: + the throne, #
    the corners and the camps, as the board has them (a throneless board has no +)."""
    rules = GAMES[game](variant=variant) if variant else GAMES[game]()
    assert rules.render(rules.initial()).splitlines()[-1] == legend


def test_a_throne_on_the_first_square_is_marked_and_named_under_the_board():
    """A rules record may put the throne on any square, a1 too (cen=a1: the square numbered 0)."""
    rules = GAMES["hnefatafl"].from_tags({"Variant": "simple-tafl-11x11", "Rules": "cen=a1"})
    rows = rules.render(rules.initial()).splitlines()
    assert rows[-3] == " 1 + . . . p p p . . . ."
    assert rows[-1] == "K king, P p soldiers; uppercase: White; + throne"


@pytest.mark.parametrize(
    "board, said", [("K10/11/11/11/11/11/11/11/11/11/5p5", None), ("p10/11/11/11/11/11/11/11/11/11/5K5", "a11")]
)
def test_a_position_holds_a_piece_on_a_corner_where_it_may_stop(board, said):
    """The king may stop on a corner (its escape), so a position may hold him there; a soldier may not."""
    if said is None:
        rules = Copenhagen()
        assert rules.parse_position(f"{board} w").board.index(KING) == rules.geo.index["a11"]
    else:
        with pytest.raises(OptionError, match=rf"^only the king may stand on a corner \({said}\)$"):
            Copenhagen().parse_position(f"{board} w")


# -- a Position no game of its variant reaches -------------------------------------------------

TAFL_VARIANTS = [
    (name, variant) for name, game in GAMES.items() if issubclass(game, TaflGame) for variant in game.presets
]


SIDES = {
    "tablut": ("Swedes", "Muscovites")
}  # the sides' names in a tafl game that does not call them defenders, attackers


@pytest.mark.parametrize("game, variant", TAFL_VARIANTS, ids=[f"{game}-{variant}" for game, variant in TAFL_VARIANTS])
def test_a_position_gives_no_side_more_pieces_of_a_kind_than_its_variants_start(game, variant):
    """The start itself, and the start with a soldier of a side or the king taken off, are positions;
    one more, on a square any piece may stop on, is a tag error that counts them, naming the side as
    the game does."""
    rules = GAMES[game](variant=variant)
    settings, start = rules.settings, bytearray(rules.settings.start)
    assert rules.parse_position(rules.format_position(rules.initial())).board == settings.start
    plain = next(s for s in range(len(start)) if not start[s] and s not in settings.words and not settings.camps[s])
    cited = f" ({settings.ids.start})" if settings.ids.start else ""
    for code in (DEFENDER, KING, ATTACKER):
        fewer = bytes(start).replace(bytes([code]), b"\0", 1)
        assert rules.parse_position(rules.format_position(TaflPosition(fewer, BLACK))).board == fewer
        more = bytearray(start)
        more[plain] = code
        side, count = ("White", "Black")[OWNER[code]], start.count(code)
        named = f"{side} ({SIDES.get(game, ('defenders', 'attackers'))[OWNER[code]]})"
        name = PIECE_NAMES[code] + "s"
        with pytest.raises(OptionError) as error:
            rules.parse_position(rules.format_position(TaflPosition(bytes(more), BLACK)))
        assert str(error.value) == f"{named} has {count + 1} {name} on the board; {side} starts with {count}{cited}"


@pytest.mark.parametrize(
    "game, variant, board, said",
    [
        (
            "tablut",
            "seed",
            "ppppppppp/pp2p2pp/4P4/p3P3p/ppPPKPPpp/p3P3p/4P4/4p4/3ppp3 w",
            "Black (Muscovites) has 26 soldiers on the board; Black starts with 16 (T0)",
        ),
        (
            "copenhagen",
            "standard",
            "K10/11/11/11/11/5K5/11/11/11/11/5p5 b",
            "White (defenders) has 2 kings on the board; White starts with 1 (C1)",
        ),
        (
            "brandubh",
            "standard",
            "7/7/2PPP2/3K3/2PP3/7/3p3 b",
            "White (defenders) has 5 soldiers on the board; White starts with 4 (B1)",
        ),
        (
            "hnefatafl",
            "tyr-9x9",
            "3ppp3/4p4/4P4/p3P3p/ppPPKPPpp/p3P3p/4P4/4p4/3pPp3 b",
            "White (defenders) has 9 soldiers on the board; White starts with 8 (G1)",
        ),
    ],
)
def test_a_position_that_no_game_reaches_is_a_tag_error_at_the_tag(game, variant, board, said):
    (error,) = check(f'[Game "{game}"]\n[Variant "{variant}"]\n[Position "{board}"]\n\n*').diagnostics
    assert (error.rule, error.line, error.column, error.message) == ("tag", 3, 2, f"malformed Position: {said}")


BERSERK = "3ppppp3/5c5/11/p4P4p/p3NPP3p/pc1PPKPP1cp/p3PPP3p/p4P4p/11/5c5/3ppppp3 b"  # 4 c, 1 N
ALEA = (  # Alea Berserk 17x17 (Martens): mercenaries, 1 M and 4 m
    "2p1p1p3m1p1p2/17/p3p7p3p/6p1P1p6/p1p4p1p4p1p/5P2M2P5/m2p3P1P3p2p/4p1P1P1P1p4/3P1P1PKP1P1P3/"
    "4p1P1P1P1p4/p2p3P1P3p2m/5P2P2P5/p1p4p1p4p1p/6p1P1p6/p3p7p3p/17/2p1p1m3p1p1p2 b"
)


@pytest.mark.parametrize(
    "variant, board, said",
    [
        (
            "berserk-hnefatafl-11x11",
            BERSERK.replace("3ppppp3 b", "3ppcpp3 b"),
            "Black (attackers) has 5 commanders on the board; Black starts with 4 (G1)",
        ),
        (
            "berserk-hnefatafl-11x11",
            BERSERK.replace("3ppppp3 b", "3ppNpp3 b"),
            "White (defenders) has 2 knights on the board; White starts with 1 (G1)",
        ),
        (
            "alea-berserk-17x17-martens",
            ALEA.replace("2p1p1p3m", "2m1p1p3m", 1),
            "Black (attackers) has 5 mercenaries on the board, and White 1; the two sides start with 5 between "
            "them, a captured one changing sides (G1)",
        ),
        (
            "alea-berserk-17x17-martens",
            ALEA.replace("2p1p1p3m", "2M1p1p3m", 1),
            "White (defenders) has 2 mercenaries on the board, and Black 4; the two sides start with 5 between "
            "them, a captured one changing sides (G1)",
        ),
    ],
    ids=["a commander more", "a knight more", "a mercenary more", "a white one more"],
)
def test_a_position_counts_opentafls_pieces_by_kind_and_side(variant, board, said):
    """Knights and commanders count as kings and soldiers do, by side (new in session 37: they were
    not counted); mercenaries, which change sides when captured, count for both sides together."""
    (error,) = check(f'[Game "hnefatafl"]\n[Variant "{variant}"]\n[Position "{board}"]\n\n*').diagnostics
    assert (error.rule, error.line, error.column, error.message) == ("tag", 3, 2, f"malformed Position: {said}")


@pytest.mark.parametrize(
    "variant, board",
    [
        ("alea-berserk-17x17-martens", ALEA.replace("m", "M", 1)),
        ("tyr-9x9", "3ppp3/4p4/4P4/p3P3p/ppPPKPPpp/p3P3p/4P4/4p4/3pCp3 b"),
        ("tyr-9x9", "3ppp3/4p4/4P4/p3P3p/ppPPKPPpp/p3P3p/4P4/4p4/3mMm3 b"),
    ],
    ids=["a mercenary that changed sides", "a commander the start has not", "mercenaries the start has not"],
)
def test_a_position_may_hold_a_mercenary_that_changed_sides_and_pieces_its_start_has_not(variant, board):
    """A captured mercenary is the other side's: one side more and the other one fewer is a position.
    A kind of OpenTafl's pieces the start has not is not counted: a position sets them out on any
    board (as the rules' tests do, a commander on Fetlar's board to try its jumps)."""
    report = check(f'[Game "hnefatafl"]\n[Variant "{variant}"]\n[Position "{board}"]\n\n*')
    assert report.valid, report.diagnostics


def test_a_position_without_the_king_is_one_where_he_was_captured():
    report = check('[Game "tablut"]\n[Position "9/9/9/9/9/9/9/4p4/9 w"]\n\n*')
    assert [(d.rule, d.message) for d in report.diagnostics] == [
        ("result", "the game ended 0-1 (there is no king on the board, T7), but the record says *")
    ]


def test_a_move_written_as_berserk_in_a_game_without_berserk_is_a_movement_its_rules_refuse():
    """`=` (G15's berserk move) in Copenhagen, played through the library: refused under C3, the game's rule
    of movement, as it has no berserk rule to cite."""
    assert refused(COPENHAGEN, "Kd6", "d1", "b", "d1=d3") == (
        "C3",
        "d1=d3 is written as a berserk move (=), and no piece that captured moves again from d1",
    )


SHUTTLE = {  # each side's piece back and forth: the position after the first ply arises a third time at ply 9
    "copenhagen": "1. d1-d2 f4-f3 2. d2-d1 f3-f4 3. d1-d2 f4-f3 4. d2-d1 f3-f4 5. d1-d2 f4-f3",
    "brandubh": "1. d1-c1 d3-c3 2. c1-d1 c3-d3 3. d1-c1 d3-c3 4. c1-d1 c3-d3 5. d1-c1 d3-c3",
}


@pytest.mark.parametrize("game, rule, end", [("copenhagen", "C12", "C14"), ("brandubh", "B10", "B12")])
@pytest.mark.parametrize("repetition, result", [("defenders-lose", "0-1"), ("draw", "1/2-1/2"), ("none", None)])
def test_the_repetition_option_ends_a_corner_game_at_a_positions_third_occurrence(game, rule, end, repetition, result):
    """C12 (B10 as C12): repetition does not end the game, "an option may end it on the third occurrence;
    off by default" (RULES.md), which lusoria's Copenhagen lacked (h79a): `repetition` ends it, lost by the
    defenders as Aage's text has it, or drawn, at ply 9; under `none` (the default) the game goes on."""
    report = check(f'[Game "{game}"] [Rules "repetition={repetition}"] {SHUTTLE[game]} *')
    if result is None:
        assert report.outcome is None and report.valid
        assert check(f'[Game "{game}"] {SHUTTLE[game]} *').valid  # (the default)
        return
    assert (report.outcome.result, report.outcome.rule, report.outcome.ending) == (result, rule, "repetition")
    assert [(d.rule, d.ply) for d in report.diagnostics] == [(end, 10)]
    assert report.diagnostics[0].message == (
        f"the game is already over (the position arose twice before (repetition), {rule}); no ply may follow"
    )
