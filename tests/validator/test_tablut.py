"""Every Tablut rule (T1–T10) and option, from small positions."""

import re

import pytest

from lusoria.validator.base import BLACK, WHITE, Illegal, OptionError
from lusoria.validator.replay import check
from lusoria.validator.tablut import GEOMETRY, KING, MUSCOVITE, SWEDE, Tablut
from lusoria.validator.tafl_board import TaflPosition as TablutPosition


def square_index(name: str) -> int:
    return GEOMETRY.index[name]


def position(white: str = "", black: str = "", turn: str = "w") -> TablutPosition:
    """A position from piece lists: white "Kc5 d5" (K marks the king), black "c9 f5"."""
    board = bytearray(81)
    for name in white.split():
        board[square_index(name.lstrip("K"))] = KING if name.startswith("K") else SWEDE
    for name in black.split():
        board[square_index(name)] = MUSCOVITE
    return TablutPosition(bytes(board), WHITE if turn == "w" else BLACK)


def rule_broken(rules: Tablut, pos: TablutPosition, ply: str) -> str:
    with pytest.raises(Illegal) as caught:
        rules.play(pos, ply)
    return caught.value.rule


SEED = Tablut()


# -- T1, T2 ------------------------------------------------------------------------------


def test_t1_a_side_moves_only_its_own_pieces():
    assert rule_broken(SEED, position("Kc3 a2", "h8", "w"), "h8-h6") == "T1"
    assert rule_broken(SEED, position("Kc3 a2", "h8", "b"), "a2-a4") == "T1"


@pytest.mark.parametrize(
    "ply",
    [
        "a2-b3",  # not along a rank or file
        "a2-a2",  # does not move
        "a2-a6",  # through a4
        "a2-a4",  # onto a4
        "b2-b4",  # no piece there
        "Ka2-a3",  # the letter names the king; a2 holds a soldier
    ],
)
def test_t2_moves_go_straight_over_empty_squares(ply):
    assert rule_broken(SEED, position("Kc3 a2", "a4"), ply) == "T2"


def test_t2_any_distance_along_an_empty_line():
    played = SEED.play(position("Kc3 a2", "h8"), "a2-a8")
    assert played.position.board[square_index("a8")] == SWEDE
    assert played.position.board[square_index("a2")] == 0
    assert played.text == "a2-a8" and played.position.turn == BLACK


# -- T3, throne-pass, throne-stop ------------------------------------------------------------


def test_t3_only_the_king_may_stop_on_the_konakis():
    assert rule_broken(SEED, position("Kc3 e2", "a9"), "e2-e5") == "T3"
    assert SEED.play(position("Kc5 e2", "a9"), "Kc5-e5").position.board[square_index("e5")] == KING


@pytest.mark.parametrize(
    "throne_pass, soldier_passes, king_passes", [("all", True, True), ("king", False, True), ("none", False, False)]
)
def test_t3_throne_pass(throne_pass, soldier_passes, king_passes):
    rules = Tablut({"throne-pass": throne_pass})
    for pos, ply, allowed in (
        (position("Kb3 e2", "a9"), "e2-e8", soldier_passes),
        (position("Ke3", "a9"), "Ke3-e7", king_passes),
    ):
        if allowed:
            assert rules.play(pos, ply).text == ply
        else:
            assert rule_broken(rules, pos, ply) == "T3"


def test_t3_throne_stop_none_keeps_every_piece_off_once_the_king_has_left():
    assert rule_broken(Tablut({"throne-stop": "none"}), position("Kc5", "a9"), "Kc5-e5") == "T3"


# -- T4, king-armed, throne-hostile ----------------------------------------------------------


def test_t4_custodial_capture_by_the_moved_piece():
    played = SEED.play(position("Kg7 c3 c6", "c5"), "c3-c4")
    assert played.text == "c3-c4xc5"
    assert played.position.board[square_index("c5")] == 0


def test_t4_three_captures_in_one_move_written_in_export_order():
    played = SEED.play(position("Kg7 b4 f4 d6 d1", "c4 e4 d5"), "d1-d4")
    assert played.text == "d1-d4xc4/d5/e4"


def test_t4_moving_between_two_enemies_is_safe():
    played = SEED.play(position("Kg7 b4 d4", "c1", "b"), "c1-c4")
    assert played.text == "c1-c4" and played.position.board[square_index("c4")] == MUSCOVITE


def test_t4_written_captures_must_match_exactly():
    pos = position("Kg7 c3 c6", "c5")
    assert SEED.play(pos, "c3-c4xc5").text == "c3-c4xc5"
    assert rule_broken(SEED, pos, "c3-c4xc6") == "T4"
    assert rule_broken(SEED, position("Kg7 c3", "c5"), "c3-c4xc5") == "T4"
    # a White move's list that names its own king's square is T4's: T5 is the king captured by Black (h74a)
    assert rule_broken(SEED, position("Kg7 c3", "c5"), "Kg7-g6xg7") == "T4"
    assert rule_broken(SEED, position("Kg7 c3", "g8 a1", "b"), "a1-a2xg7") == "T5"


@pytest.mark.parametrize(
    "white, black, ply, right, rule, said",
    [
        (
            "Kg7 d3",
            "c3 e4",
            "e4-e3xKd3",
            "e4-e3xPd3",
            "T4",
            "the piece captured on d3 is a soldier, not the king: write xd3, or xPd3",
        ),
        (
            "Ke5 i1",
            "d5 f5 e6 e2",
            "e2-e4xPe5",
            "e2-e4xKe5",
            "T5",
            "the piece captured on e5 is the king, not a soldier: write xe5, or xKe5",
        ),
        # two captured: each misnamed named, the whole list to write (historian-44: the advice named d3 alone)
        (
            "Kg7 d3 f3",
            "c3 g3 e4",
            "e4-e3xKd3/f3",
            "e4-e3xPd3/Pf3",
            "T4",
            "the piece captured on d3 is a soldier, not the king: write xd3/f3, or xPd3/Pf3",
        ),
        (
            "Kg7 d3 f3",
            "c3 g3 e4",
            "e4-e3xKf3/Kd3",
            "e4-e3xPf3/Pd3",
            "T4",
            "the pieces captured on f3 and d3 are each a soldier, not the king: write xf3/d3, or xPf3/Pd3",
        ),
        # the king and a soldier captured: the king's rule when the king is misnamed, T4 when the soldier
        # alone is (review-44h)
        (
            "Ke5 i1 d4",
            "d5 f5 e6 e2 c4",
            "e2-e4xKd4/Pe5",
            "e2-e4xPd4/Ke5",
            "T5",
            "the piece captured on d4 is a soldier, not the king; the piece captured on e5 is the king, not a "
            "soldier: write xd4/e5, or xPd4/Ke5",
        ),
        (
            "Ke5 i1 d4",
            "d5 f5 e6 e2 c4",
            "e2-e4xKd4/Ke5",
            "e2-e4xPd4/Ke5",
            "T4",
            "the piece captured on d4 is a soldier, not the king: write xd4/e5, or xPd4/Ke5",
        ),
    ],
)
def test_t4_t5_a_capture_written_with_the_letter_of_another_piece(white, black, ply, right, rule, said):
    """NOTATION.md checks whatever is written: the letter of a captured piece too (the letter was not read)."""
    before = position(white, black, "b")
    assert SEED.play(before, right).text == re.sub("[KP]([a-i][1-9])", r"\1", right.replace("xPf3/Pd3", "xPd3/Pf3"))
    with pytest.raises(Illegal) as caught:
        SEED.play(before, ply)
    assert (caught.value.rule, caught.value.message) == (rule, said)


def test_t4_a_wrong_letter_is_said_at_its_ply_of_the_record():
    record = '[Game "tablut"]\n[Position "9/9/4K4/9/9/4p4/2pP5/9/9 b"]\n\n1... e4-e3xKd3 *\n'
    (diagnostic,) = check(record).diagnostics
    assert (diagnostic.rule, diagnostic.ply, diagnostic.line, diagnostic.column) == ("T4", 1, 4, 6)
    assert diagnostic.suggestions[0] == "e4-e3xd3"


@pytest.mark.parametrize("armed, captures", [("yes", True), ("no", False)])
def test_t4_king_armed(armed, captures):
    rules = Tablut({"king-armed": armed})
    assert ("x" in rules.play(position("Kc3 c6", "c5"), "Kc3-c4").text) is captures  # the king moves
    assert ("x" in rules.play(position("Kc4 c7", "c5"), "c7-c6").text) is captures  # the king as anvil


@pytest.mark.parametrize(
    "hostile, when_empty, with_king", [("no", False, False), ("empty", True, False), ("always", True, True)]
)
def test_t4_throne_hostile_against_both_sides(hostile, when_empty, with_king):
    rules = Tablut({"throne-hostile": hostile})
    assert ("x" in rules.play(position("Kg7 d5", "c9", "b"), "c9-c5").text) is when_empty  # a Swede on d5
    assert ("x" in rules.play(position("Kg7 c9", "d5"), "c9-c5").text) is when_empty  # a Muscovite on d5
    assert ("x" in rules.play(position("Ke5 d5", "c9", "b"), "c9-c5").text) is with_king


def said_illegal(rules: Tablut, pos: TablutPosition, ply: str) -> tuple[str, str]:
    with pytest.raises(Illegal) as caught:
        rules.play(pos, ply)
    return caught.value.rule, str(caught.value.message)


def test_t4_a_capture_the_rules_settings_forbid_names_the_setting():
    """h74a: a capture against the empty konakis under the seed, or by the unarmed king, was told only
    "captures nothing": the setting that makes it so is named, the king's way of capturing said."""
    assert said_illegal(SEED, position("c3", "d5"), "c3-c5xd5") == (
        "T4",
        "the move captures nothing, not d5 (the konakis (e5) does not capture it when empty, throne-hostile=no)",
    )
    unarmed = Tablut({"king-armed": "no"})
    assert said_illegal(unarmed, position("Kc3 c6", "c5"), "Kc3-c4xc5") == (
        "T4",
        "the move captures nothing, not c5 (the king does not capture by moving, king-armed=no)",
    )
    assert said_illegal(unarmed, position("Kc4 c7", "c5"), "c7-c6xc5") == (
        "T4",
        "the move captures nothing, not c5 (the king does not capture by standing against it, king-armed=no)",
    )
    assert said_illegal(SEED, position("c3", "d5"), "c3-c4xd4") == ("T4", "the move captures nothing, not d4")


# -- T5, king-capture --------------------------------------------------------------------------


def test_t5_the_king_needs_four_attackers():
    assert SEED.play(position("Kc5 i1", "b5 d5 c6 c2", "b"), "c2-c4").outcome.rule == "T7"
    assert SEED.play(position("Kc5 i1", "b5 d5 c2", "b"), "c2-c4").outcome is None


def test_t5_next_to_the_konakis_three_attackers_suffice():
    played = SEED.play(position("Kd5 i1", "c5 d6 d2", "b"), "d2-d4")
    assert played.text == "d2-d4xd5" and played.outcome.result == "0-1"


def test_t5_the_moved_soldier_must_be_one_of_the_enclosure():
    assert SEED.play(position("Kc5 i1", "b5 d5 c6 c4 h2", "b"), "h2-h3").outcome is None


def test_t5_a_false_king_capture_cites_t5():
    assert rule_broken(SEED, position("Kc5 i1", "b5 d5 c2", "b"), "c2-c4xc5") == "T5"


@pytest.mark.parametrize(
    "king, black, ply, taken, under_seed",
    [
        ("c4", "c5 c2", "c2-c3", True, False),  # away from the konakis: between two
        ("e5", "d5 f5 e6 e2", "e2-e4", True, True),  # on the konakis: four
        ("e5", "d5 f5 e2", "e2-e4", False, False),
        ("d5", "c5 d6 d2", "d2-d4", True, True),  # next to it: three and the konakis
        ("d5", "c5 d2", "d2-d4", False, False),
    ],
)
def test_king_capture_2(king, black, ply, taken, under_seed):
    pos = position(f"K{king} i1", black, "b")
    for rules, expected in ((Tablut({"king-capture": "2"}), taken), (SEED, under_seed)):
        outcome = rules.play(pos, ply).outcome
        assert (outcome is not None and outcome.rule == "T7") is expected


# -- T6, T8 --------------------------------------------------------------------------------------


def test_t6_the_king_escapes_to_the_edge():
    outcome = SEED.play(position("Kc5 i1", "h8"), "Kc5-c1").outcome
    assert (outcome.result, outcome.rule) == ("1-0", "T6")


def test_t6_a_king_on_a1_has_escaped_not_gone():
    # a1 is square 0: the king found there is on the board (T6), not missing from it (T7)
    played = SEED.play(position("Ka3 i1", "h8"), "Ka3-a1").outcome
    assert (played.result, played.rule) == ("1-0", "T6")
    start = SEED.outcome(position("Ka1", "h8", "b"))
    assert (start.result, start.rule) == ("1-0", "T6")


def test_t6_tuichi_two_open_lines_end_the_game():
    tuichi = position("Kc4 c3", "b4 a9")  # after c3-d3: open up, down and right
    assert SEED.play(tuichi, "c3-d3").outcome.reason.endswith("(Tuichi)")
    raichi = position("Kc4 c3 d4", "b4 c9")  # after c3-d3: only the way down is open
    assert SEED.play(raichi, "c3-d3").outcome is None


def test_t6_tuichi_ends_no():
    assert Tablut({"tuichi-ends": "no"}).play(position("Kc4 c3", "b4 a9"), "c3-d3").outcome is None


def test_t8_announcements_are_checked_as_warnings():
    raichi = position("Kc4 c3 d4", "b4 c9")
    assert SEED.play(raichi, "c3-d3+").warnings == []
    assert SEED.play(raichi, "c3-d3++").warnings[0][0] == "T8"
    assert SEED.play(position("Kc4 c3", "b4 a9"), "c3-d3++").warnings == []
    assert SEED.play(position("Kc4 c3", "b4 a9"), "c3-d3+").warnings[0][0] == "T8"
    # `+` on the move that ends the game (h74a: the king on the edge "has 0 open lines", or one: unsaid)
    for black in ("b1 d1", "b1", "a9"):  # on c1, lines open along the edge or none
        assert SEED.play(position("Kc5", black), "Kc5-c1+").warnings == [
            ("T8", "announced + (Raichi), but the move ends the game: the king reached the edge; ++ marks it")
        ]
    assert SEED.play(position("Kc5", "b1"), "Kc5-c1++").warnings == []


def test_t6_the_konakis_blocks_a_line_when_the_king_may_not_pass_it():
    pos = position("Kc5 c3", "b5 c9 c1 a9")  # after c3-d3 the one open line runs over e5 to i5
    assert SEED.play(pos, "c3-d3+").warnings == []
    assert Tablut({"throne-pass": "none"}).play(pos, "c3-d3+").warnings[0][0] == "T8"


# -- T9, no-move -----------------------------------------------------------------------------------

BOXED = position("Kd2 c2", "b2 c3 c1 d1 e2 d3 i9", "b")  # after i9-i8, White cannot move


def test_t9_a_side_with_no_move_loses():
    outcome = SEED.play(BOXED, "i9-i8").outcome
    assert (outcome.result, outcome.rule) == ("0-1", "T9")


def test_t9_no_move_passes():
    rules = Tablut({"no-move": "passes"})
    after = rules.play(BOXED, "i9-i8")
    assert after.outcome is None
    assert rules.play(after.position, "--").position.turn == BLACK
    assert rules.play(after.position, "i8-i7").position.turn == WHITE  # the forced pass left out
    assert rule_broken(rules, position("Kc3", "h8"), "--") == "T9"
    assert rule_broken(SEED, BOXED, "--") == "T9"


def test_t9_no_move_passes_black_boxed_in_while_white_can_move():
    rules = Tablut({"no-move": "passes", "tuichi-ends": "no"})
    after = rules.play(position("Ke5 a2 b1 c7", "a1"), "c7-c8")  # Black's a1 cannot move; White's pieces can
    assert after.outcome is None and after.position.turn == BLACK
    assert rules.play(after.position, "--").position.turn == WHITE


def test_t11_camps_close_their_squares_to_pieces_from_outside_only():
    camps = Tablut({"camps": "ashton"})
    white = position("Kg7 c1", "a4 i9")
    assert rule_broken(camps, white, "c1-d1") == "T11" and camps.play(white, "c1-c3").text == "c1-c3"
    assert camps.play(position("Kg7", "a4 i9", "b"), "a4-a6").text == "a4-a6"  # inside its own camp
    assert rule_broken(camps, position("Kg7", "e2 i9", "b"), "e2-e8") == "T11"  # into another camp


# -- T10, first, positions -------------------------------------------------------------------------


def test_t10_starting_positions_that_are_already_over():
    assert SEED.outcome(position("Ka5", "h8")).rule == "T6"
    assert SEED.outcome(position("c3", "h8")).rule == "T7"
    assert SEED.outcome(position("Kc4 c3", "b4 a9", "b")) is None  # no Tuichi on a start


def test_first_and_the_initial_position():
    assert Tablut().initial().turn == WHITE
    assert Tablut({"first": "black"}).initial().turn == BLACK
    assert SEED.format_position(SEED.initial()) == "3ppp3/4p4/4P4/p3P3p/ppPPKPPpp/p3P3p/4P4/4p4/3ppp3 w"


@pytest.mark.parametrize(
    "text",
    [
        "3ppp3/4p4 w",
        "9/9/9/9/9/9/9/9/9 x",
        "9/9/9/9/4p4/9/9/9/9 w",
        "9/9/9/9/9/9/9/9/8 w",
        "K8/9/9/9/9/9/9/9/8K w",
        "9/9/9/9/9/9/9/9/9X w",
    ],
)
def test_malformed_positions(text):
    with pytest.raises(OptionError):
        SEED.parse_position(text)


@pytest.mark.parametrize(
    "white, black, written, canonical",
    [
        ("Kf7 e4", "a9", "e4-f4", "e4-f4"),  # already canonical: kept as written
        ("Kf7 e4", "a9", "Pe4-f4", "e4-f4"),  # a soldier's letter is left out
        ("Kf7 e4", "a9", "f7-f8", "Kf7-f8"),  # the king's is written
        ("Kf7 e4", "a9", "Kf7-f8", "Kf7-f8"),
        ("Kf7 c3 e1", "d3 a9", "e1-e3", "e1-e3xd3"),  # the captures are written
        ("Kf7 c3 e1", "d3 a9", "e1-e3xPd3", "e1-e3xd3"),
        ("Kf7 c3 e1", "d3 a9", "e1-e3xd3", "e1-e3xd3"),
    ],
)
def test_the_canonical_text_of_a_move(white, black, written, canonical):
    assert SEED.play(position(white, black), written).text == canonical


def test_a_move_gives_a_plain_position_with_the_other_side_to_move():
    after = SEED.play(SEED.initial(), "e3-h3").position
    board = bytearray(SEED.initial().board)
    board[square_index("h3")], board[square_index("e3")] = SWEDE, 0
    assert type(after) is TablutPosition and after == TablutPosition(bytes(board), BLACK)


def test_the_tables_of_paths_and_camps():
    from lusoria.validator.tablut import ASHTON_CAMPS

    NAMES = GEOMETRY.names

    def path(origin, target):
        return [NAMES[s] for s in GEOMETRY.path(square_index(origin), square_index(target))]

    assert path("a1", "a4") == ["a2", "a3", "a4"] and path("e5", "b5") == ["d5", "c5", "b5"]
    assert path("i9", "i8") == ["i8"] and path("a1", "b2") == [] and path("c3", "c3") == []
    assert path("i1", "a2") == [] and path("a2", "i1") == []  # next to each other in the board's bytes
    assert {NAMES[s]: camp for s, camp in enumerate(ASHTON_CAMPS) if camp} == {
        "a4": 1,
        "a5": 1,
        "a6": 1,
        "b5": 1,
        "i4": 2,
        "i5": 2,
        "i6": 2,
        "h5": 2,
        "d1": 3,
        "e1": 3,
        "f1": 3,
        "e2": 3,
        "d9": 4,
        "e9": 4,
        "f9": 4,
        "e8": 4,
    }


# -- h77a: mutation-testing gaps -------------------------------------------------------------------


def test_t6_tuichi_exactly_two_open_lines_end_the_game():
    """Two open lines suffice (not three): after c3-d3 the ways down and right are open, up is closed at c9."""
    played = SEED.play(position("Kc4 c3", "b4 c9"), "c3-d3")
    assert (played.outcome.result, played.outcome.rule) == ("1-0", "T6")
    assert played.outcome.reason.endswith("(Tuichi)")


def test_t8_a_double_announcement_on_the_move_that_ends_the_game_is_right_whatever_the_lines():
    """`++` marks the end of the game: on c1 the king's lines are all closed (b1, d1, c7), and no warning."""
    played = SEED.play(position("Kc5", "b1 d1 c7"), "Kc5-c1++")
    assert played.outcome is not None and played.outcome.rule == "T6"
    assert played.warnings == []
