"""Rule edges the other rules tests left open (issue 13): each test pins the rule ID and
the ply or position of a verdict, so that a wrong verdict fails it."""

import re

import pytest
from test_latrunculi import at, rules
from test_latrunculi import position as lpos
from test_tablut import position, square_index

from lusoria.validator.base import WHITE, Illegal, OptionError
from lusoria.validator.laquet import Laquet
from lusoria.validator.latrunculi import Latrunculi
from lusoria.validator.latrunculi_play import DUX, piece
from lusoria.validator.replay import check
from lusoria.validator.tablut import KING, Tablut
from lusoria.validator.tafl_board import TaflPosition, read_board


def broken(game, pos, ply: str) -> Illegal:
    with pytest.raises(Illegal) as caught:
        game.play(pos, ply)
    return caught.value


def first_error(text: str) -> tuple:
    error = next(d for d in check(text).diagnostics if d.severity == "error")
    return error.rule, error.ply, error.text


# -- Tablut --------------------------------------------------------------------------------------

KING_CAPTURE_2 = Tablut({"king-capture": "2"})


def test_king_capture_2_next_to_the_konakis_still_takes_three_attackers_and_the_konakis():
    # e4 is next to the konakis: two attackers (d4, f4) do not capture the king there
    played = KING_CAPTURE_2.play(position("Ke4 a2", "f4 d2", "b"), "d2-d4")
    assert played.text == "d2-d4" and played.outcome is None
    assert played.position.board[square_index("e4")] == KING
    # ... the third attacker (with the konakis as the fourth side) does
    played = KING_CAPTURE_2.play(position("Ke4 a2", "f4 d4 c3", "b"), "c3-e3")
    assert played.text == "c3-e3xe4"
    assert (played.outcome.result, played.outcome.rule) == ("0-1", "T7")
    # away from the konakis two attackers are enough
    played = KING_CAPTURE_2.play(position("Kc3 a2", "d3 b1", "b"), "b1-b3")
    assert played.text == "b1-b3xc3" and played.outcome.rule == "T7"


# Black's only piece stands on e4 next to the empty konakis, walled in by d4, f4, e3 and (beyond
# the konakis) e6: it cannot move, though one of its neighbours is empty. The king is walled in too.
WALLED = position("Kg7 g8 g6 h7 f7 d4 f4 e6 e2", "e4")


def test_a_piece_next_to_the_empty_konakis_that_cannot_cross_it_has_no_move():
    played = Tablut().play(WALLED, "e2-e3")
    assert played.text == "e2-e3"
    assert (played.outcome.result, played.outcome.rule) == ("1-0", "T9")
    assert played.outcome.reason == "Black has no legal move"


def test_under_no_move_passes_black_passes_and_the_game_goes_on():
    passes = Tablut({"no-move": "passes"})
    played = passes.play(WALLED, "e2-e3")
    assert played.outcome is None
    assert passes.legal_plies(played.position) == ["--"]
    assert passes.play(played.position, "--").position.turn == 0  # White again


# The board full but for e4; the king leaves the konakis for it, and nothing may stop on the
# konakis (throne-stop=none): neither side has a move left. No game reaches it (a side has 24
# pieces at most, T1's start): the engine's rule is played on it as a board, not a Position tag.
JAMMED = "ppppppppp/PPPPPPPPP/PPPPPPPPP/PPPPPPPPP/PPPPKPPPP/PPPP1PPPP/PPPPPPPPP/PPPPPPPPP/PPPPPPPPP w"
JAMMED_BOARD = TaflPosition(bytes(read_board(JAMMED.split()[0], 9, "Tablut")), WHITE)


def test_no_move_passes_neither_side_can_move_is_a_draw():
    rules = Tablut({"no-move": "passes", "throne-stop": "none"})
    played = rules.play(JAMMED_BOARD, "Ke5-e4")
    assert played.outcome.result == "1/2-1/2" and played.outcome.rule == "T9"
    assert played.outcome.reason == "neither side has a legal move"
    loses = Tablut({"throne-stop": "none"})
    assert loses.play(JAMMED_BOARD, "Ke5-e4").outcome.result == "1-0"


def test_the_jammed_board_is_no_position_a_record_starts_from():
    text = f'[Game "tablut"]\n[Rules "no-move=passes throne-stop=none"]\n[Position "{JAMMED}"]\n1. Ke5-e4 1/2-1/2'
    (error,) = check(text).diagnostics
    assert (error.rule, error.line, error.column) == ("tag", 3, 2)
    assert error.message == "malformed Position: White (Swedes) has 70 soldiers on the board; White starts with 8 (T0)"


# -- capture lists -------------------------------------------------------------------------------


def test_a_square_written_twice_in_a_capture_list_is_an_error_that_suggests_the_list_once():
    text = '[Game "tablut"]\n1. e3-c3 d1-d3 2. e4-e3xd3/d3 *'
    (error,) = check(text).diagnostics
    assert (error.rule, error.ply, error.text, error.column) == ("T4", 3, "e4-e3xd3/d3", 19)
    assert "names d3 more than once" in error.message
    assert error.suggestions[0] == "e4-e3xd3"
    king = broken(Tablut(), position("Ke4 a2", "f4 d4 c3", "b"), "c3-e3xe4/Ke4")
    assert king.rule == "T4" and "e4 more than once" in king.message


def test_a_latrunculi_capture_list_with_a_square_twice():
    seneca = rules()
    pos = lpos(seneca, "c3 e2", "d3 h8")
    assert seneca.play(pos, "e2-e3xd3").text == "e2-e3xd3"
    error = broken(seneca, pos, "e2-e3xd3/d3")
    assert error.rule == "L1" and "d3 more than once" in error.message
    # the check reads only the capture list, not the removal after it
    assert seneca.play(lpos(seneca, "c3 e2 Ih1", "d3 h8"), "e2-e3xd3~h1").text == "e2-e3xd3~h1"


# -- Latrunculi ----------------------------------------------------------------------------------


def test_a_dux_in_a_corner_is_never_captured():
    dux = rules("dux")
    pos = lpos(dux, "a2 c1 h1", "Da1 g8 h8")
    played = dux.play(pos, "c1-b1")
    assert played.text == "c1-b1" and at(dux, played.position, "a1") == piece(1, DUX)
    error = broken(dux, pos, "c1-b1xa1")
    assert error.rule == "X3" and "dux on a1 is never captured" in error.message
    # a pawn there is captured (L2)
    played = dux.play(lpos(dux, "a2 c1 h1", "a1 g8 h8"), "c1-b1")
    assert played.text == "c1-b1xa1" and at(dux, played.position, "a1") == 0


def test_the_end_checks_the_side_that_just_played_first():
    seneca = rules()
    # one piece each, White to move: Black moved last and is checked first
    outcome = seneca.outcome(seneca.parse_position("P7/8/8/8/8/8/8/7p w"))
    assert (outcome.result, outcome.rule, outcome.reason) == ("1-0", "S5", "Black has a single piece left")
    outcome = seneca.outcome(seneca.parse_position("P7/8/8/8/8/8/8/7p b"))
    assert (outcome.result, outcome.rule) == ("0-1", "S5")
    text = '[Game "latrunculi"]\n[Position "P7/8/8/8/8/8/8/7p w"]\n'
    assert check(text + "1-0").valid
    assert first_error(text + "0-1") == ("result", None, "0-1")


# Black's pawns b8 and g8 are walled in by White's; b8 can only jump over b7 (an enemy).
WALLED_IN = dict(white="a8 c8 b7 f8 h8 g7 e4", black="b8 g8")


def test_jump_over_any_a_jump_over_an_enemy_counts_as_a_legal_move():
    anyone = rules(jump_over="any")
    played = anyone.play(lpos(anyone, **WALLED_IN), "e4-e3")
    assert played.outcome is None
    assert anyone.play(played.position, "b8^b6").text == "b8^b6"
    own = rules()
    played = own.play(lpos(own, **WALLED_IN), "e4-e3")
    assert (played.outcome.result, played.outcome.rule) == ("1-0", "L4")
    assert played.outcome.reason == "Black has no legal move"


def test_a_jump_over_an_empty_square_is_refused():
    seneca = rules()
    error = broken(seneca, lpos(seneca, "d4 a1", "h8 g8"), "d4^d6")
    assert error.rule == "S2" and error.message == "there is no piece on d5 to jump over"
    error = broken(seneca, lpos(seneca, "d4 d5 a1", "h8 g8"), "d4^d6^d8")
    assert error.rule == "S2" and error.message == "there is no piece on d7 to jump over"
    assert seneca.play(lpos(seneca, "d4 d5 d7 a1", "h8 g8"), "d4^d6^d8").text == "d4^d6^d8"


# -- Laquet --------------------------------------------------------------------------------------

LAQUET = Laquet()


def test_no_leftover_group_after_the_last_checker_is_borne_off():
    last = LAQUET.parse_position("18:1 6:14,7:1 w")
    error = broken(LAQUET, last, "21: 18/off >2: 6/8")
    assert error.rule == "Q8" and "bore off the last checker" in error.message
    played = LAQUET.play(last, "21: 18/off")
    assert played.text == "21: 18/off" and (played.outcome.result, played.outcome.rule) == ("1-0", "Q8")


def test_a_one_die_bear_off_that_ends_the_game_is_a_legal_ply():
    pos = LAQUET.parse_position("17:1 6:14,7:1 w")
    assert LAQUET.plies_for_roll(pos, (2, 1)) == ["21: 17/off", "21: 17/18 18/off"]
    assert "21: 17/off" in LAQUET.legal_plies(pos)
    assert LAQUET.play(pos, "21: 17/off").outcome.rule == "Q8"
    # Black's side of the same, and the move generator's random play ends the game too
    black = LAQUET.parse_position("1:1,2:14 17:1 b")
    assert LAQUET.plies_for_roll(black, (2, 1)) == ["21: 17/off", "21: 17/18 18/off"]
    assert LAQUET.play(black, "21: 17/off").outcome.result == "0-1"


# -- option bounds -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "value, accepted", [("1", False), ("2", True), ("128", True), ("129", False), ("x", False), ("", False)]
)
def test_latrunculi_pieces_from_2_to_128(value, accepted):
    assert Latrunculi.accepts("pieces", value) is accepted


@pytest.mark.parametrize(
    "board, accepted",
    [("4x4", True), ("4x3", False), ("16x16", True), ("3x8", False), ("8x17", False), ("8x8x8", False), ("8", False)],
)
def test_latrunculi_boards_from_4_to_16_a_side(board, accepted):
    tags = {"Board": board, "Rules": "pieces=8"}
    if accepted:
        assert Latrunculi.from_tags(tags).extra_tags().get("Board", "8x8") == board
    else:
        with pytest.raises(OptionError) as caught:
            Latrunculi.from_tags(tags)
        assert caught.value.tag == "Board"


# -- found by the mutation run ---------------------------------------------------------------------


def test_only_the_first_ply_after_the_end_is_reported():
    text = '[Game "tablut"]\n[Position "4K4/9/9/9/9/9/9/9/p8 b"]\n1... a1-a2 2. Ke9-d9 a2-a3 *'
    errors = [(d.rule, d.ply) for d in check(text).diagnostics if d.severity == "error"]
    assert errors[0] == ("T10", 1) and [e for e in errors if e[0] == "T10"] == [("T10", 1)]


def test_no_placement_in_the_dux_variant():
    assert broken(rules("dux"), rules("dux").initial(), "@d4").rule == "X1"


def test_inciti_only_in_seneca_and_pieces_in_hand_are_two_numbers():
    piso = rules("piso")
    assert piso.parse_position("8/8/8/8/8/8/8/P7 w").board[0] == piece(0, 1)
    with pytest.raises(OptionError):
        piso.parse_position("8/8/8/8/8/8/8/I7 w")
    with pytest.raises(OptionError):
        rules().parse_position("8/8/8/8/8/8/8/P7 w x 3")


def test_a_capture_written_where_there_is_none():
    seneca = rules()
    error = broken(seneca, lpos(seneca, "c3 e2", "h8 g8"), "e2-e3xd3")
    assert (error.rule, error.message) == ("L1", "the move captures nothing, not d3")


def test_a_jump_never_lands_on_a_piece():
    seneca = rules()
    error = broken(seneca, lpos(seneca, "d4 d5 a1", "d6 g8"), "d4^d6")
    assert (error.rule, error.message) == ("S2", "d6 is occupied")


def test_with_two_inciti_every_legal_ply_says_which_is_removed():
    seneca = rules()
    pos = lpos(seneca, "Ia1 Ih1 d4 e4", "a8 h8")
    plies = seneca.legal_plies(pos)
    assert plies and all(re.search(r"~(a1|h1)$", ply) for ply in plies)
    assert len(plies) == 2 * len({ply.split("~")[0] for ply in plies})
