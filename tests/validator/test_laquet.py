"""Every Laquet rule (Q1–Q9) and option, from small positions and given rolls."""

import random
import re

import pytest

from lusoria.archive.patterns import pattern_globs
from lusoria.validator.base import BLACK, WHITE, Illegal, OptionError
from lusoria.validator.laquet import Laquet
from lusoria.validator.laquet_moves import sequences
from lusoria.validator.laquet_points import (
    OFF,
    all_home,
    checker_behind,
    destination,
    holds,
    most_playable,
    on_board,
    winner,
)
from lusoria.validator.laquet_turns import parse_turn
from lusoria.validator.replay import check
from lusoria.validator.suggest import suggestions

SEED = Laquet()
START = SEED.initial()
# Black to move: with 31, either the 3 (12/15) or the 1 (12/13) can be played, never both
EITHER = SEED.parse_position("3:1,4:4,7:3,9:1,10:2,11:1,16:2,18:1 6:10,12:1,17:4 b")
# Black to move: with 54 nothing can be played; White can play both dice
BLOCKED = SEED.parse_position("1:2,2:3,3:3,4:1,7:1,10:1,11:1,16:1,17:1,18:1 6:12,12:1,13:1,14:1 b")
HOME = SEED.parse_position("13:1,17:14 6:14,7:1 w")  # every White checker in quadrant III
LAST = SEED.parse_position("18:1 6:14,7:1 w")  # White's last checker


def refusal(rules: Laquet, position, ply: str) -> tuple[str, str]:
    """The rule a ply breaks, and what the refusal says."""
    with pytest.raises(Illegal) as caught:
        rules.play(position, ply)
    return caught.value.rule, str(caught.value)


def rule_broken(rules: Laquet, position, ply: str) -> str:
    return refusal(rules, position, ply)[0]


def test_q1_the_start_and_white_moves_first():
    assert SEED.format_position(START) == "1:2,2:3,3:3,4:3,5:3,18:1 6:14,7:1 w"
    assert START.turn == WHITE and START.off(WHITE) == START.off(BLACK) == 0
    assert SEED.play(START, "63: 5/11 5/8").position.turn == BLACK


def test_q1_a_turn_played_with_the_other_sides_checkers_says_whose_turn_it_is():
    # a pupil who lets Black begin: Black's 14 checkers on 6, and White to move
    with pytest.raises(Illegal) as caught:
        SEED.play(START, "64: 6/12 6/10")
    assert (caught.value.rule, str(caught.value)) == (
        "Q1",
        "6/12: the checkers on point 6 are Black's, and White is to move",
    )
    assert rule_broken(SEED, START, "64: 8/12 6/10") == "Q3"  # 8 is empty: no White checker there
    # (h78c) and Black, to move, playing White's checkers: Q1 too (the other side counted as `1 + side`: Q3 "no Black
    # checker on point 5")
    black = SEED.play(START, "63: 5/11 1/4").position
    assert refusal(SEED, black, "63: 5/11 1/4") == (
        "Q1",
        "5/11: the checkers on point 5 are White's, and Black is to move",
    )


def test_the_move_numbers_after_a_turn_written_on_with_the_other_sides_plays_count_it_as_written():
    """h82b asked that `2.` after `1. 64: 5/11 5/9 6/8 7/12` (Black's roll left out) be taken for right, the two turns
    counted; review83 found that `fmt` and an editor's quick fix number the plies as written, one here, and wrote
    what that warning then refused, for good: the warning counts them as written too, until the roll is written in
    (docs/slips.md), and then `2.` is right."""
    [used_up, misnumbered] = check('[Game "laquet"]\n1. 64: 5/11 5/9 6/8 7/12 2. 63: 11/17 9/12 *\n').diagnostics
    assert (used_up.rule, used_up.ply, misnumbered.rule, misnumbered.ply) == ("Q2", 1, "number", 2)
    assert misnumbered.message == "the move number should be 1..., not 2."
    written_in = check('[Game "laquet"]\n1. 64: 5/11 5/9 52: 6/8 7/12 2. 63: 11/17 9/12 *\n').diagnostics
    assert [(diagnostic.rule, diagnostic.ply) for diagnostic in written_in] == [("Q3", 3)]  # (2. right: no warning)


def test_q2_rolls_higher_die_first_and_doubles_played_as_two_moves():
    assert SEED.play(START, "36: 5/11 5/8").text == "63: 5/11 5/8"
    assert SEED.play(START, "6-3: 5/11 5/8").text == "63: 5/11 5/8"
    assert SEED.play(START, "33: 5/8(2)").text == "33: 5/8 5/8"
    assert rule_broken(SEED, START, "33: 5/8(3)") == "Q2"


def test_q2_plays_past_the_roll_of_the_other_sides_checkers_say_their_roll_may_be_left_out():
    """A historian left out Black's roll (52:), and the Q2 error did not say why two more plays stood there."""
    [used_up] = check('[Game "laquet"]\n1. 64: 5/11 5/9 6/8 7/12 *\n').diagnostics
    assert (used_up.rule, used_up.ply, used_up.message) == (
        "Q2",
        1,
        "6/8: the roll is used up (6 and 4 played); 6 holds Black's checkers: "
        "Black's roll is perhaps left out before 6/8; the rest of this line is not checked",
    )
    assert used_up.suggestions[0] == "64: 5/11 5/9 52: 6/8 7/12"  # (h82b: `64: 5/11 5/9` alone, Black's plays lost)
    [kept] = check('[Game "laquet"]\n1. 64: 5/11 5/9 6/8 7/12 *\n', keep_going=True).diagnostics  # (it read no ply of
    assert kept.message == used_up.message + (  # two: an internal error)
        " (--keep-going reads one ply in the place of an illegal one, and 64: 5/11 5/9 52: 6/8 7/12 is two)"
    )
    [dropped] = check('[Game "laquet"]\n1. 64: 5/11 5/9 6/8 7/18 *\n').diagnostics  # (no turn of Black's: 7/18)
    assert "64: 5/11 5/9 52: 6/8 7/18" not in dropped.suggestions
    [one] = check('[Game "laquet"]\n1. 21: 1/4 6/8 7/12 *\n').diagnostics  # (a play of both dice, then Black's)
    assert one.suggestions[0] == "21: 1/4 52: 6/8 7/12"
    [misread] = check('[Game "laquet"]\n1. 65: 5/11 5/9 *\n', keep_going=True).diagnostics  # (one ply: read)
    assert misread.message.endswith(
        "(the plays written fit the roll 64: a die misread?); --keep-going reads it as 64: 5/11 5/9"
    )
    with pytest.raises(Illegal) as caught:  # one's own checkers: no roll left out
        SEED.play(START, "11: 1/2 1/2 2/3")
    assert str(caught.value) == "2/3: the roll is used up (a double is played as two moves, not four)"
    with pytest.raises(Illegal) as caught:  # (h76b: the double was said of every roll)
        SEED.play(START, "63: 5/11 5/8 4/7")
    assert str(caught.value) == "4/7: the roll is used up (6 and 3 played)"
    assert refusal(SEED, EITHER, "31: 12/15 >1: 3/4 9/10") == (  # one die left over, played
        "Q2",
        "White's play of the dice left over, 9/10: the roll is used up (1 played)",
    )


@pytest.mark.parametrize("ply", ["63: 5/9 1/4", "63: 9/15 1/4", "21: 5/3 1/2"])
def test_q3_a_die_moves_a_checker_of_ones_own_that_many_points_forward(ply):
    assert rule_broken(SEED, START, ply) == "Q3"


def test_q3_no_checker_lands_or_stops_on_an_enemy_point():
    assert rule_broken(SEED, START, "61: 5/6 1/7") == "Q3"
    assert rule_broken(SEED, START, "63: 1/7/10") == "Q3"  # stops on Black's 7


@pytest.mark.parametrize(
    "ply, message",
    [
        ("64: 1/9", "1/9 moves 8 points, and the dice left are 6 and 4"),
        (  # not 1/4/10 moves 3
            "64: 1/4/10",
            "1/4/10: 1/4 moves 3 points, and the dice left are 6 and 4 (the plays written fit the roll 63: a die misread?)",
        ),
        (
            "64: 1/5/9",
            "1/5/9: 5/9 moves 4 points, and the die left is 6 (the plays written fit the roll 44: a die misread?)",
        ),
        ("63: 5/18 5/8", "5/18 moves 13 points, and the dice left are 6 and 3"),  # 18, the last point, is open
    ],
)
def test_q3_a_play_through_points_names_the_step_no_die_moves(ply, message):
    with pytest.raises(Illegal) as caught:
        SEED.play(START, ply)
    assert (caught.value.rule, str(caught.value)) == ("Q3", message)


def test_q3_one_checker_with_both_dice_written_merged_takes_an_open_order():
    assert SEED.play(START, "63: 1/10").text == "63: 1/4 4/10"  # 1/7 is closed, 1/4 is open
    assert SEED.play(START, "63: 2/11").text == "63: 2/8 8/11"  # both open: the first die first
    assert SEED.play(START, "63: 1/4/10").text == "63: 1/4 4/10"
    assert SEED.play(SEED.parse_position("9:1,1:14 6:15 w"), "63: 9/18").text == "63: 9/15 15/18"  # (to 18, the last)


@pytest.mark.parametrize("ply", ["35: 14/22", "53: 14/22", "36: 11/20", "63: 11/20"])
def test_q4_one_checker_with_both_dice_to_points_19_to_24_breaks_q4_whichever_die_is_written_first(ply):
    """h76b: `35: 14/22` broke Q3 (its first die stops it on Black's 17), `53: 14/22` Q4 (its first die on 19):
    the play ends past 18 either way, which Q4 forbids."""
    position = SEED.parse_position("14:1,11:1,1:13 17:15 w")
    play = ply.split()[1]
    assert refusal(SEED, position, ply) == (
        "Q4",
        f"{play}: no checker may enter points 19-24; it leaves past 18 only by bearing off",
    )


def test_q4_points_19_to_24_are_never_entered():
    assert rule_broken(SEED, START, "61: 18/24 1/2") == "Q4"
    # while White is not home, the checker on 18 cannot move at all
    assert all(step[0] != 18 for way in sequences(START, WHITE, (6, 1)) for step in way)


@pytest.mark.parametrize(
    "position, ply, said",
    [
        (HOME, "65: 13/19 17/off", "13/19: no checker may enter points 19-24; it leaves past 18 only by bearing off"),
        (START, "61: 18/19 1/2", "18/19: no checker may enter points 19-24; it leaves past 18 only by bearing off"),
        (HOME, "21: 19/off 17/18", "19/off: no checker stands on points 19-24; they are never used"),
        (START, "63: 20/23 1/4", "20/23: no checker stands on points 19-24; they are never used"),
        (START, "63: 24/off 1/4", "24/off: no checker stands on points 19-24; they are never used"),
    ],
)
def test_q4_a_play_written_to_or_from_points_19_to_24_breaks_q4(position, ply, said):
    """Point 19 is no bear-off (`13/19` is not `13/off`), and a play from 19-24 is no crash."""
    with pytest.raises(Illegal) as caught:
        SEED.play(position, ply)
    assert (caught.value.rule, str(caught.value)) == ("Q4", said)


def test_q5_a_die_only_a_checker_on_point_1_can_play_must_be_played():
    far_behind = SEED.parse_position("1:1,17:14 6:14,7:1 w")  # the 2 moves 1/3 alone (17/19 enters 19)
    with pytest.raises(Illegal) as caught:
        SEED.play(far_behind, "21: 17/18")
    assert (caught.value.rule, str(caught.value)) == (
        "Q5",
        "White must play both dice when able (played 17/18); possible: 17/18 1/3; 1/3 3/4; 1/3 17/18; …",
    )


def test_q5_says_each_way_of_playing_both_dice_once():
    """h73b: two orders of the dice that write the same plays were both listed (`16/off 17/off; 16/off 17/off`)."""
    bearing_off = SEED.parse_position("16:1,17:14 6:14,7:1 w")
    with pytest.raises(Illegal) as caught:
        SEED.play(bearing_off, "65: 16/off")
    assert (caught.value.rule, str(caught.value)) == (
        "Q5",
        "White must play both dice when able (played 16/off); possible: 16/off 17/off",
    )


def test_a_play_repeated_past_the_checkers_of_its_point_says_how_many_it_moved():
    """h73b: `7/10(2)` from a point of one checker was told "there is no Black checker on point 7", as if
    the point held none."""
    one_there = SEED.parse_position("1:15 6:14,7:1 b")
    with pytest.raises(Illegal) as caught:
        SEED.play(one_there, "33: 7/10(2)")
    assert (caught.value.rule, str(caught.value)) == (
        "Q3",
        "7/10: there is no Black checker on point 7, after 7/10(2) moved 1 of its checkers",
    )
    with pytest.raises(Illegal, match=r"^7/10: there is no Black checker on point 7$"):  # (none moved)
        SEED.play(SEED.parse_position("1:15 6:15 b"), "33: 7/10(2)")


def test_q5_both_dice_must_be_played_when_they_can_be():
    assert rule_broken(SEED, START, "63: 5/11") == "Q5"
    assert rule_broken(SEED, START, "63: --") == "Q5"
    with pytest.raises(Illegal, match=r"possible: 5/11 "):
        SEED.play(START, "63: 5/11")  # the ways that go on from what was written come first


def test_q5_when_only_one_die_can_be_played_either_may_be():
    assert SEED.play(EITHER, "31: 12/15 >1: 3/4").text == "31: 12/15 >1: 3/4"
    assert SEED.play(EITHER, "31: 12/13 >3: 4/7").text == "31: 12/13 >3: 4/7"


@pytest.mark.parametrize(
    "movetext, column",
    [
        ("1. 64: 5/11 -- *", 13),  # after a play
        ("1. 63: 14/off -- *", 15),  # after a bear-off
        ("1. 64: 5/11 {the 4 is lost} -- *", 29),  # after a play and its comment (historian-44)
    ],
)
def test_q6_a_pass_written_for_a_die_that_cannot_be_played_says_such_a_die_is_not_written(movetext, column):
    """A transcriber wrote `--` after the plays for the die that could not be played (`63: 6/12 --`),
    and was told only that a ply was expected: a die left unplayed is not written, and the opponent
    plays one left over in a `>` group (Q6)."""
    [said] = check(f'[Game "laquet"]\n{movetext}\n').diagnostics
    assert (said.rule, said.line, said.column, said.message) == (
        "syntax",
        2,
        column,
        "found '--': a die that cannot be played is not written: a turn writes its plays, and a > group "
        "after them the dice the opponent plays (Q6)",
    )


@pytest.mark.parametrize(
    "movetext, column, ply",
    [
        ("1. 64: 5/11 5/9 -- *", 17, "64: 5/11 5/9"),
        ("1. 64: 5/11 5/9 {c} -- *", 21, "64: 5/11 5/9"),  # after its comment (historian-44)
        ("1. 64: 5/11 5/9 $1 -- *", 20, "64: 5/11 5/9"),
        ("1. 64: 5/11/15 -- *", 16, "64: 5/11/15"),  # one checker's two dice
        ("1. 63: 10/16 >3: 6/9 {c} -- *", 26, "63: 10/16 >3: 6/9"),  # the dice the opponent played
    ],
)
def test_a_pass_after_a_laquet_ply_that_played_all_its_dice_is_said_to_need_its_own_roll(movetext, column, ply):
    """`64: 5/11 5/9 {c} --`: no die was left, so the pass is the opponent's, whose roll is not written
    (found by historian-44, who was told only what may stand there)."""
    [said] = check(f'[Game "laquet"]\n{movetext}\n').diagnostics
    assert (said.rule, said.line, said.column, said.suggestions, said.message) == (
        "syntax",
        2,
        column,
        (),
        f"found '--': {ply} has played all its dice, and -- after it is no play of it: a pass is a ply of its own, "
        "after its roll: write the dice the opponent threw before -- (`52: --`), or strike -- out",
    )


@pytest.mark.parametrize("movetext", ["1. -- *", "1. 64: -- -- *"])
def test_a_pass_written_after_no_play_is_not_said_a_die_left_unplayed(movetext):
    """A `--` after a move number or after a turn's own `--` follows no play: no die of it was left
    unplayed, and the syntax error says what may stand there."""
    [said] = check(f'[Game "laquet"]\n{movetext}\n').diagnostics
    assert (said.rule, said.message) == (
        "syntax",
        "found '--', expected a ply, a move number, a comment, a NAG, a variation or a result marker "
        "(1-0, 0-1, 1/2-1/2, *)",
    )


def test_q6_the_opponent_plays_the_dice_left_over_then_their_own_turn():
    played = SEED.play(BLOCKED, "54: -- >54: 1/5 4/9")
    assert played.text == "54: -- >54: 1/5 4/9" and played.position.turn == WHITE
    assert rule_broken(SEED, BLOCKED, "54: --") == "Q6"  # the opponent can play and must
    with pytest.raises(Illegal, match=r"^the die left over is 1, not 3$"):
        SEED.play(EITHER, "31: 12/15 >3: 4/7")
    assert rule_broken(SEED, EITHER, "31: 12/15 >1: 5/6") == "Q3"  # no White checker on 5
    # (h78c) nor on 6, Black's: the > group is White's to play, whose turn it is not (no Q1 "White is to move")
    assert refusal(SEED, EITHER, "31: 12/15 >1: 6/7") == (
        "Q3",
        "White's play of the dice left over, 6/7: there is no White checker on point 6",
    )
    assert rule_broken(SEED, START, "63: 5/11 5/8 >3: 6/9") == "Q6"  # nothing was left


def test_q6_a_play_of_the_dice_left_over_is_said_as_the_opponents():
    """New-user 68: `66: -- >66: 18/off 14/off` said `move 1, White: 18/off: bearing off …`, a play of Black's
    under White's move; and a double of which one die could be played was said as "can play the 6 and 6"."""
    over = SEED.parse_position("8:14,12:1 14:1,18:1 w")
    assert refusal(SEED, over, "66: -- >66: 18/off 14/off") == (
        "Q7",
        "Black's play of the dice left over, 18/off: bearing off from 18 takes a 1, or a higher die when no "
        "checker of Black's stands behind it; the dice left: 6 and 6",
    )
    with pytest.raises(Illegal, match=r"^Black can play one of the 6 and 6 left over and must: "):
        SEED.play(SEED.parse_position("1:14,14:1 7:1,8:14 w"), "66: --")
    with pytest.raises(Illegal, match=r"^White can play the 5 and 4 left over and must: "):
        SEED.play(BLOCKED, "54: --")


def test_leftover_none():
    rules = Laquet({"leftover": "none"})
    assert rules.play(BLOCKED, "54: --").text == "54: --"
    assert rule_broken(rules, BLOCKED, "54: -- >54: 1/5 4/9") == "Q6"


def test_both_dice_may():
    rules = Laquet({"both-dice": "may"})
    assert rules.play(START, "63: 5/11").text == "63: 5/11"
    assert rules.play(START, "63: 5/11 >3: 6/9").text == "63: 5/11 >3: 6/9"
    assert rules.play(START, "63: --").text == "63: --"


def test_q7_bearing_off_exactly_or_by_excess_from_the_furthest_point():
    assert SEED.play(HOME, "65: 13/off 17/off").text == "65: 13/off 17/off"  # 6 exact, then 5 by excess
    assert rule_broken(SEED, HOME, "65: 17/off 17/off") == "Q7"  # 13 stands behind 17
    assert rule_broken(SEED, START, "61: 18/off 5/6") == "Q7"  # not every checker home


def test_q7_a_lower_die_bears_off_no_checker_though_none_stands_behind_it():
    alone = SEED.parse_position("15:1 6:14,7:1 w")  # White's last checker, on 15: bearing off takes a 4
    assert refusal(SEED, alone, "21: 15/off") == (
        "Q7",
        "15/off: bearing off from 15 takes a 4, or a higher die when no checker of White's stands behind it; "
        "the dice left: 2 and 1",
    )  # (nor do both dice: 15/17 leaves the 1, 15/16 the 2, short of the edge)


def test_a_bear_off_with_both_dice_may_leave_out_its_middle_point_as_1_10_does():
    """NOTATION.md §4 reads `1/10` as one checker playing both dice, in either order: so is `21: 16/off`, where
    no one die bears the checker off (h69c: it was refused, Q7, "takes a 3 … the dice left: 2 and 1"); where one
    die does, it takes that die alone, and the other is left for the next play."""
    alone = SEED.parse_position("16:1 6:14,7:1 w")  # White's last checker, on 16: bearing off takes a 3
    assert SEED.play(alone, "21: 16/off").text == SEED.play(alone, "21: 16/18 18/off").text == "21: 16/18 18/off"
    assert SEED.play(alone, "21: 16/off").outcome.result == "1-0"
    two = SEED.parse_position("16:1,17:1 6:14,7:1 w")
    assert SEED.play(two, "41: 16/off 17/18").text == "41: 16/off 17/18"  # the 4 alone bears 16 off
    assert refusal(SEED, two, "21: 16/off 17/18")[0] == "Q2"  # both dice bear 16 off: none left for 17/18
    blocked = SEED.parse_position("16:1 6:13,7:1,18:1 w")  # ... and Black holds 18
    assert SEED.play(blocked, "21: 16/off").text == "21: 16/17 17/off"
    ahead = SEED.parse_position("16:1,18:1 6:14,7:1 w")  # the 4 alone bears 16 off, and then the 1 must be played
    assert refusal(SEED, ahead, "41: 16/off")[0] == "Q5"  # (not read as 16/17 17/off: a play one die makes)
    assert refusal(SEED, START, "63: 1/10/13") == ("Q3", "1/10/13: 1/10 moves 9 points, and the dice left are 6 and 3")
    # (a play with its middle point written is never read as both dice to that point: 1/4 4/10, 13 left out)


def test_q7_bearing_off_is_never_forced():
    assert SEED.play(HOME, "65: 13/18 17/off").text == "65: 13/18 17/off"


def test_q8_the_last_checker_borne_off_ends_the_game_at_once():
    played = SEED.play(LAST, "21: 18/off")
    assert (played.outcome.result, played.outcome.rule) == ("1-0", "Q8")
    assert played.text == "21: 18/off"  # the 2 is neither owed (Q5) nor left to Black (Q6)
    assert rule_broken(SEED, LAST, "21: 18/off 17/18") == "Q8"


def test_q9_a_finished_start():
    assert SEED.outcome(SEED.parse_position("- 6:14,7:1 b")).rule == "Q8"
    assert SEED.outcome(START) is None


def test_turn_parts():
    assert parse_turn("6-3: 1/10 3/6(2) >3: 13/off") == ((6, 3), (((1, 10), 1), ((3, 6), 2)), ((3,), (((13, OFF), 1),)))
    assert parse_turn("36:\t--") == ((3, 6), (), None)
    assert parse_turn("55: -- > 5-5:\n8/13/18 10/15") == ((5, 5), (), ((5, 5), (((8, 13, 18), 1), ((10, 15), 1))))
    assert parse_turn("63: 10/16 >31: --") == ((6, 3), (((10, 16), 1),), ((3, 1), ()))


@pytest.mark.parametrize("written", ["16:", "1-6:", "61:", "6-1:"])
def test_a_roll_written_either_way_is_the_roll_of_the_canonical_plies(written):
    """The editor's completions offer the plies of the roll typed, which write the higher die first."""
    assert Laquet.roll_text(Laquet.roll.match(written)) == "61:"


@pytest.mark.parametrize("text", ["1:2 6:14", "19:1 6:14 w", "1:16 6:14 w", "1:2,1:3 6:1 w", "1:x 6:1 w"])
def test_malformed_positions(text):
    with pytest.raises(OptionError):
        SEED.parse_position(text)


@pytest.mark.parametrize(
    "text, said",
    [
        ("1:2,6:1 6:14 w", "point 6 is given to White and to Black: a point holds the checkers of one colour (Q3)"),
        ("1:2,2:3 6:14,1:1 w", "point 1 is given to White and to Black: a point holds the checkers of one colour (Q3)"),
        ("1:2,1:3 6:14 w", "point 1 is given twice"),
    ],
)
def test_a_position_that_gives_a_point_to_both_colours_says_so(text, said):
    """A historian gave point 6 to each side once: the error said it was given twice."""
    with pytest.raises(OptionError) as caught:
        SEED.parse_position(text)
    assert str(caught.value) == said


@pytest.mark.parametrize(
    "text, column, item",
    [("1:2,1:3 13:1 w", 16, "1:3"), ("1:2,2:3,20:1 13:1 w", 20, "20:1"), ("1:2 13:1,14:0 w", 21, "14:0")],
)
def test_a_positions_item_at_fault_after_others_is_said_at_it(text, column, item):
    """h78c: the items before it and their commas counted one character too many (`len(item) + 2`), and the error
    was said at the tag's name: it is said at the item, whichever of its side's it is."""
    (error,) = check(f'[Game "laquet"]\n[Position "{text}"]\n*\n').diagnostics
    assert (error.rule, error.line, error.column, error.text) == ("tag", 2, column, item)


def test_a_position_whose_side_to_move_is_misspelt_is_said_so_at_it():
    """`W` for `w`: the error points at the side to move and offers what it may mean."""
    (error,) = check('[Game "laquet"]\n[Position "13:1,17:14 6:14,7:1 W"]\n*\n').diagnostics
    assert (error.rule, error.message, error.line, error.column, error.suggestions) == (
        "tag",
        "malformed Position: the side to move is w or b, not 'W'",
        2,
        32,
        ("w",),
    )


def test_the_legal_plies_of_a_roll_are_all_valid():
    plies = SEED.plies_for_roll(BLOCKED, (5, 4))
    assert plies and all(ply.startswith("54: -- >54: ") for ply in plies)
    assert all(SEED.play(BLOCKED, ply).text == ply for ply in plies)
    assert BLACK == BLOCKED.turn


def test_the_legal_plies_of_a_position_are_those_of_the_21_rolls():
    legal = SEED.legal_plies(SEED.initial())
    rolls = {ply.split(":")[0] for ply in legal}
    assert rolls == {f"{high}{low}" for high in range(1, 7) for low in range(1, high + 1)}
    assert sorted(legal) == sorted(
        ply for roll in rolls for ply in SEED.plies_for_roll(SEED.initial(), (int(roll[0]), int(roll[1])))
    )


def test_a_random_ply_draws_every_one_of_the_21_rolls():
    """Each die of `random_ply`'s roll is 1 to 6: 300 seeded draws from the start give all 21 rolls."""
    rng = random.Random(31)
    drawn = {SEED.chance(SEED.random_ply(START, rng)) for _ in range(300)}
    assert drawn == {f"{high}{low}" for high in range(1, 7) for low in range(1, high + 1)}


def test_the_candidates_of_a_written_turn_play_its_roll_alone():
    """42 written: the plies of 42, not of 52, 32, 43 or 41 (a die misread by one): the roll is the
    source's, and a suggestion keeps it (the editor's quick fix wrote `54: 5/10 4/8` for `64: 5/12 4/8`)."""
    written = SEED.plies_for_roll(START, (4, 2))[0]
    candidates = SEED.candidates(START, written)
    assert {parse_turn(ply).roll for ply in candidates} == {(4, 2)}
    assert suggestions(SEED, START, "64: 5/12 4/8") == ["64: 5/11 4/8", "64: 4/10 4/8", "64: 2/8 4/8"]


def test_the_candidates_offer_a_groups_plays_in_another_order_once():
    """`>54: 4/9 1/5` is `>54: 1/5 4/9` (the order written the most alike kept), not a second suggestion."""
    assert suggestions(SEED, BLOCKED, "54: -- >54: 1/5 4/10") == [
        "54: -- >54: 1/5 5/10",
        "54: -- >54: 1/5 4/9",
        "54: -- >54: 1/5 10/15",
    ]
    assert suggestions(SEED, BLOCKED, "54: -- >54: 4/10 1/5")[0] == "54: -- >54: 4/9 1/5"  # as written


@pytest.mark.parametrize(
    "position, ply, message",
    [
        ("15:2,18:8 17:8 b", "52: 17/off 14/off", "Q3: 14/off: there is no Black checker on point 14"),
        (
            "8:1,10:4,12:1,14:4,16:3,18:2 9:1,11:1,13:4,15:4,17:5 b",
            "32: 9/14",  # (its end the enemy's too: said of it, which no order mends; h82b: of point 12, as if 9/11/14
            "Q3: 9/14 lands on point 14, held by White: no checker may stop on an enemy point",  # might do)
        ),
        ("1:15 4:7,6:8 w", "53: 1/9", "Q3: 1/9 stops on point 6, held by Black: no checker may stop on an enemy point"),
        ("1:15 6:8,7:7 w", "51: 1/7", "Q3: 1/7 lands on point 7, held by Black: no checker may stop on an enemy point"),
        ("1:15 6:8,7:7 w", "51: 1/6", "Q3: 1/6 lands on point 6, held by Black: no checker may stop on an enemy point"),
    ],
)
def test_a_play_the_dice_break_every_way_says_the_first_ways_error(position, ply, message):
    """The dice in their written order first (17/off takes the 2, 1/9 stops on 1+5): its error is the one said."""
    with pytest.raises(Illegal) as caught:
        SEED.play(SEED.parse_position(position), ply)
    assert f"{caught.value.rule}: {caught.value}" == message


def counts(text: str) -> list[int]:
    """A position's points as the play path's list of counts."""
    return list(SEED.parse_position(text).points)


def test_where_a_die_carries_a_checker():
    start, home = list(START.points), list(HOME.points)
    assert destination(start, WHITE, 5, 3, False) == 8
    assert destination(start, WHITE, 1, 6, False) == 0  # Black holds 7
    assert destination(start, WHITE, 6, 1, False) == 0  # no White checker on 6
    assert destination(start, BLACK, 6, 1, False) == 7  # onto its own point
    assert destination(start, WHITE, 18, 1, False) == 0  # not home: 19-24 are never entered
    assert destination(home, WHITE, 17, 2, True) == OFF  # the exact die
    assert destination(home, WHITE, 13, 6, True) == OFF
    assert destination(home, WHITE, 17, 6, True) == 0  # by excess, with a checker behind on 13
    assert destination(counts("17:15 6:15 w"), WHITE, 17, 6, True) == OFF  # by excess, none behind
    assert destination(home, WHITE, 17, 2, False) == 0  # not home
    assert destination(home, WHITE, 17, 1, True) == 18


def test_whose_checkers_a_count_is():
    assert holds(3, WHITE) and not holds(-3, WHITE) and not holds(0, WHITE)
    assert holds(-1, BLACK) and not holds(1, BLACK) and not holds(0, BLACK)


def test_home_and_behind():
    assert all_home(list(HOME.points), WHITE) and not all_home(list(START.points), WHITE)
    assert all_home(counts("1:15 18:15 b"), BLACK) and not all_home(counts("13:1 12:15 w"), BLACK)
    home = list(HOME.points)
    assert not checker_behind(home, WHITE, 13) and checker_behind(home, WHITE, 14) and checker_behind(home, WHITE, 18)
    assert not checker_behind(home, BLACK, 18)


@pytest.mark.parametrize(
    "position, side, dice, most",
    [
        (EITHER, BLACK, (3, 1), 1),
        (BLOCKED, BLACK, (5, 4), 0),
        (BLOCKED, WHITE, (5, 4), 2),
        (START, WHITE, (6, 3), 2),
        (LAST, WHITE, (2, 1), 2),  # the last checker off: the 1 counts as played
        (LAST, WHITE, (1,), 1),
        (HOME, BLACK, (6, 6), 2),
    ],
)
def test_most_playable_leaves_the_counts_as_they_were(position, side, dice, most):
    points = list(position.points)
    assert most_playable(points, side, dice) == most
    assert points == list(position.points)


def test_which_sides_are_on_the_board():
    assert on_board(list(START.points)) == (True, True)
    assert on_board(counts("- 6:14,7:1 b")) == (False, True) and on_board(counts("18:1 - w")) == (True, False)
    assert on_board([0] * 19) == (False, False)


def test_the_winner_is_the_side_with_no_checker_left():
    assert winner(counts("- 6:14,7:1 b")) is not None and winner(counts("- 6:14,7:1 b")).result == "1-0"
    assert winner(counts("18:1 - w")).result == "0-1"
    assert winner(list(START.points)) is None


@pytest.mark.parametrize(
    "plays, rule",
    [
        ("5/8 5/8(1)", "syntax"),
        ("5/8 5/8(0)", "syntax"),
        ("5/8 8/off", "Q7"),  # the grammar's later plays
        ("5/8 1/4(2)", "Q2"),
        ("-- >33: 6/9 6/9(1)", "syntax"),
        ("5/8 >3: 6/9 6/9(1)", "syntax"),
    ],
)
def test_the_grammar_reads_every_play_of_a_ply_alike(plays, rule):
    """The Laquet grammar writes a ply's first play and the later ones apart (possessive patterns)."""
    report = check(f'[Game "laquet"]\n\n1. 33: {plays} *\n')
    assert [d.rule for d in report.diagnostics][:1] == [rule]


@pytest.mark.parametrize(
    "ply, rule, message",
    [
        (  # the 2 read as a 3: the plays are those of 52
            "53: 2/4 5/10",
            "Q3",
            "2/4 moves 2 points, and the dice left are 5 and 3 (the plays written fit the roll 52: a die misread?)",
        ),
        (
            "64: 2/8 3/8",
            "Q3",
            "3/8 moves 5 points, and the die left is 4 (the plays written fit the roll 65: a die misread?)",
        ),
        ("33: 5/9", "Q3", "5/9 moves 4 points, and the dice left are 3 and 3"),  # one step shows one die, not two
        ("53: 2/8 3/9", "Q3", "2/8 moves 6 points, and the dice left are 5 and 3"),  # legal as 66: two dice apart
        (
            "63: --",
            "Q5",
            "White must play both dice when able (played nothing); possible: 2/8 1/4; 2/8 2/5; 2/8 5/8; …",
        ),  # no play: no note
    ],
)
def test_plays_that_fit_a_roll_one_die_apart_say_a_die_may_be_misread(ply, rule, message):
    """A transcriber's misread die (RULES.md Q3): the note names the roll the plays show, each step a
    die, when it is legal, and offers that reading (`meant`); none without the note."""
    with pytest.raises(Illegal) as caught:
        SEED.play(START, ply)
    assert (caught.value.rule, str(caught.value)) == (rule, message)
    roll = re.search(r"fit the roll ([1-6]{2})", message)
    assert caught.value.meant == (f"{roll[1]}:{ply.partition(':')[2]}" if roll else "")


def test_a_misread_roll_is_offered_first_and_then_the_plies_of_the_roll_written():
    """`64: 5/11 5/8` was told its plays fit 63 and offered plies of 64 alone: the offer agrees with the
    words, the reading they name first."""
    (error,) = check('[Game "laquet"]\n\n1. 64: 5/11 5/8 *\n').diagnostics
    assert "(the plays written fit the roll 63: a die misread?)" in error.message
    assert error.suggestions == ("63: 5/11 5/8", "64: 5/11 4/8", "64: 5/11 5/9")


@pytest.mark.parametrize("movetext", ["1. 64: 5/11 4/8. 61: 6/12 6/7 *", "1. 64: 5/11 4/8 61: 6/12 6/7. *"])
def test_a_full_stop_after_a_play_says_a_play_has_none(movetext):
    """`5/9.` (a full stop after a play, as a sentence ends) was a generic syntax error at the `.`:
    it says a play has none, and the play to write."""
    (diagnostic,) = check(f'[Game "laquet"]\n\n{movetext}\n').diagnostics
    dot = movetext.index(". ", 3)
    play = movetext[:dot].split()[-1]
    assert (diagnostic.rule, diagnostic.line, diagnostic.column, diagnostic.text, diagnostic.ply) == (
        "syntax",
        3,
        dot + 1,
        ".",
        None,
    )
    assert (
        diagnostic.message
        == f"found '.': a play ends with no full stop: write {play} alone (a move number has the dot: `2.`)"
    )


@pytest.mark.parametrize(
    "movetext",
    ["1. 64: 5/11 4/8 (>4: 9/13) *", "1. 64: 5/11 4/8 ( >4: 9/13) *", "1. 64: 5/11 4/8 (64: --) >4: 9/13 *"],
)
def test_a_laquet_group_after_no_plays_of_its_ply_is_said_to_follow_them(movetext):
    """newcomer-58a: a variation of a > group alone (or a > group after a variation) was a bare syntax error,
    `found '>4:', expected a ply, …`: it says where a > group goes, and what a variation holds (one after a comment
    is said to go before it: test_slips.py)."""
    (diagnostic,) = check(f'[Game "laquet"]\n\n{movetext}\n').diagnostics
    assert (diagnostic.rule, diagnostic.line, diagnostic.column) == ("syntax", 3, movetext.index(">") + 1)
    assert diagnostic.message == (
        "found '>4:': a > group plays the dice a ply left, and follows that ply's plays: a variation holds a whole "
        "ply, its roll, plays and > group (`(54: -- >54: 4/8 1/5)`)"
    )


@pytest.mark.parametrize(
    "text, said",
    [
        (
            "1:2,2:3,3:3,4:3,5:2,18:1 6:14,7:1 w",
            "White has 1 checker borne off and one on point 1; a checker is borne off only once all 15 are in "
            "quadrant III, 13-18 (Q7)",
        ),
        (
            "13:15 6:13,12:1 b",
            "Black has 1 checker borne off and one on point 6; a checker is borne off only once all 15 are in "
            "quadrant III, 13-18 (Q7)",
        ),
        ("- - w", "both sides have borne off all their checkers: the game ended when the first did (Q8)"),
    ],
)
def test_a_position_no_game_reaches_is_refused(text, said):
    """Newcomer-54b: a checker borne off while another stands outside quadrant III, and both sides borne off,
    were read as positions (Latrunculi's and the tafl games' that no game reaches are refused)."""
    with pytest.raises(OptionError) as caught:
        SEED.parse_position(text)
    assert str(caught.value) == said


@pytest.mark.parametrize("text", ["13:1 6:14,7:1 w", "- 6:14,7:1 w", "13:14 18:1 b", "1:2,2:3,3:3,4:3,5:3,18:1 - b"])
def test_a_position_with_checkers_borne_off_from_quadrant_iii_is_read(text):
    assert SEED.format_position(SEED.parse_position(text)) == text


# -- what a mutation run found unpinned (h76a): each test kills a mutant that lived ------------------------


def verdict(record: str):
    """The rule and ply of each error of a record."""
    return [(d.rule, d.ply) for d in check(record).diagnostics if d.severity == "error"]


def test_q7_a_bear_off_before_every_checker_is_home_is_refused_when_the_other_die_is_played_too():
    """laquet_fast._chain's Q7 check (`if not all_home(points, side)`): 18/off takes the 2 (by excess: the smaller die that fits), 5/11 the 6;
    every written step takes one die, so the fast path decides, and must refuse it: 1-5 are outside III."""
    assert verdict('[Game "laquet"]\n1. 62: 18/off 5/11 *\n') == [("Q7", 1)]


def test_q6_a_leftover_group_labelled_with_a_die_not_left_is_refused_though_its_play_fits():
    """laquet_fast.play_plain: `>3: 4/5` plays the 1 that is left, but says 3."""
    record = (
        '[Game "laquet"]\n[Position "3:1,4:4,7:3,9:1,10:2,11:1,16:2,18:1 6:10,12:1,17:4 b"]\n1... 31: 12/15 >3: 4/5 *\n'
    )
    assert verdict(record) == [("Q6", 1)]


def test_under_both_dice_may_the_opponent_need_not_play_the_die_left_by_a_bear_off_by_excess():
    """laquet_checked._check_leftover (`not must or …`): 16/off, either die by excess (the checked path), leaves
    the other die; under both-dice=may Black need not play it."""
    record = '[Game "laquet"]\n[Rules "both-dice=may"]\n[Position "16:1,18:1 6:14,7:1 w"]\n1. 65: 16/off *\n'
    assert verdict(record) == []


def test_a_play_of_no_points_after_the_roll_is_used_up_is_q2():
    """laquet_checked._follow (`len(left) == 2`): `8/8` after both dice; no crash."""
    assert verdict('[Game "laquet"]\n1. 63: 5/11 5/8 8/8 *\n') == [("Q2", 1)]


def test_q8_a_play_after_the_last_checker_is_off_is_q8_even_where_the_die_left_fits_it():
    """laquet_checked._dice_for (`not position.done(side)`): 18/off may take the 1 (exactly), leaving the 2,
    which 16/18 would fit: the game is over (Q8), not "no White checker on point 16" (Q3)."""
    assert verdict('[Game "laquet"]\n[Position "18:1 6:14,7:1 w"]\n1. 21: 18/off 16/18 *\n') == [("Q8", 1)]


def test_the_archive_counts_fifteen_checkers_on_one_point_as_on_the_board():
    """h78c: a point of 15 checkers, a side's whole set (the spelled-out board's `o` and `O`), was counted as none
    on the board and 15 borne off when the table of White's counts stopped at 14 (`<= 15` written `< 15`)."""
    [board], [material] = SEED.boards_and_materials([SEED.parse_position("12:15 13:15 w")])
    assert (board, material) == (b"...........oO..... w", (15, 15, None, None, None, 0, 0))


def test_a_position_of_more_than_15_checkers_over_several_points_is_refused():
    """laquet.Laquet.parse_position (`if total > CHECKERS`): each count is at most 15, but 10 + 10 is 20 (in
    quadrant III, so that no other check of the position's refuses it)."""
    [said] = check('[Game "laquet"]\n[Position "13:10,14:10 6:14,7:1 w"]\n1. 63: 13/16 13/off *\n').diagnostics
    assert (said.rule, said.ply, said.message) == (
        "tag",
        None,
        "malformed Position: White has 20 checkers on the board; each side has 15",
    )


def test_a_position_of_16_checkers_one_more_than_a_side_has_is_refused():
    """laquet.Laquet.parse_position (`total > CHECKERS`): the bound itself, 16 (h80b: `> CHECKERS + 1` passed
    every test; in quadrant III the count of those borne off, -1, found no checker outside it)."""
    [said] = check('[Game "laquet"]\n[Position "13:6,14:10 6:14,7:1 w"]\n1. 63: 13/16 13/off *\n').diagnostics
    assert (said.rule, said.ply, said.message) == (
        "tag",
        None,
        "malformed Position: White has 16 checkers on the board; each side has 15",
    )
    assert SEED.format_position(SEED.parse_position("13:5,14:10 6:14,7:1 w")) == "13:5,14:10 6:14,7:1 w"


@pytest.mark.parametrize("pattern", ["1:2,* - x", "1:2,* - w b"])
def test_a_laquet_pattern_with_a_wrong_side_to_move_or_a_field_too_many_says_so(pattern):
    """laquet.Laquet.pattern_globs (`len(fields) != 3 or fields[2] not in …`): not a glob that matches nothing."""
    with pytest.raises(ValueError, match="a Laquet pattern is White's checkers, Black's and the side to move"):
        pattern_globs(pattern, sought_in="laquet")


def test_a_repeated_play_written_before_its_roll_is_offered_after_it():
    """laquet_slips._covering (`checked_number(repeat[0], 2, 9)`): `1/5(2) 44:` is the source's order of
    `44: 1/5(2)`; the one repeat the tests of the sources' order had was none (`1/5 1/5 44:`)."""
    [said] = check('[Game "laquet"]\n1. 1/5(2) 44: *\n').diagnostics
    assert (said.rule, said.ply, said.suggestions) == ("syntax", None, ("44: 1/5(2)",))
