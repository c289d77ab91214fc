"""Syntax slips: "did you mean …?" for the commonest transcription mistakes, and
--keep-going reading past them."""

from dataclasses import replace

import pytest
from click.testing import CliRunner
from toy_game import Slide, SlidePosition

from lusoria import accelerator
from lusoria.cli import main
from lusoria.notation import SyntaxProblem, parse_record
from lusoria.notation.reader import RecordText, split_records
from lusoria.validator.diagram import Diagram, Squares
from lusoria.validator.games import GAMES
from lusoria.validator.laquet_slips import read_points, reordered_turns
from lusoria.validator.replay import check

TABLUT, SENECA, DUX, LAQUET = (
    '[Game "tablut"]',
    '[Game "latrunculi"]',
    '[Game "latrunculi"]\n[Variant "dux"]',
    '[Game "laquet"]',
)
LEFT_OVER = f'{LAQUET}\n[Position "2:3,3:1,7:2,8:2,9:2,10:1,16:2,17:1,18:1 6:12,12:1,13:1,14:1 b"]'  # Black leaves a 4
INCITI = f'{SENECA}\n[Position "pp6/8/8/8/3I4/8/P1I5/PP6 w"]'  # White's inciti on d4 and c2
COMMANDERS = '[Game "hnefatafl"]\n[Variant "alea-evangelii-dux4-19x19"]'  # commanders (C) on f14, n14, f6, n6


@pytest.mark.parametrize(
    "tags, movetext, found, meant",
    [
        (TABLUT, "1. e3c3 *", "e3c3", "e3-c3"),  # no hyphen
        (SENECA, "1. @d4 @e5 2. d4d3 *", "d4d3", "d4-d3"),
        (TABLUT, "1. e3xc3 *", "e3xc3", "e3-c3"),  # a chess-style capture
        (DUX, "1. a1xa2 *", "a1xa2", "a1-a2"),
        (SENECA, "1. @d4 e5 *", "e5", "@e5"),  # a placement without its @
        (SENECA, "1. P@d4 *", "P@d4", "@d4"),  # as crazyhouse drops a piece
        (SENECA, "1. D@d4 *", "D@d4", "@d4"),  # a dux so dropped: a placement names no piece
        (DUX, "1. d@d4 *", "d@d4", "@d4"),  # a placement, which the replay then judges
        (SENECA, "1. @D4 *", "@D4", "@d4"),
        (TABLUT, "1. e3–c3 *", "e3–c3", "e3-c3"),  # an en dash
        (TABLUT, "1. e3—c3 *", "e3—c3", "e3-c3"),  # an em dash
        (DUX, "1. a1−a2 *", "a1−a2", "a1-a2"),  # a minus sign
        (TABLUT, "1. e3-c3 d1-d3 2. e4-e3×d3 *", "×d3", "e4-e3xd3"),  # a multiplication sign for x (newcomer-54b)
        (TABLUT, "1. e3-c3 d1-d3 2. e4-e3Xd3 *", "Xd3", "e4-e3xd3"),  # a capital X
        (TABLUT, "1. e3-c3 d1-d3 2. e4-e3:d3 *", ":d3", "e4-e3xd3"),  # an old chess capture sign
        ('[Game "copenhagen"]', "1. d1-d3 f4-c4 2. a4-a10×b10 *", "×b10", "a4-a10xb10"),  # after a square of 2 digits
        (LAQUET, "1. 6–3: 5/11 1/4 *", "6–3:", "6-3:"),
        (TABLUT, "1. e3-c3 dl-d3 *", "dl-d3", "d1-d3"),  # an OCR's l for 1 (h78a)
        (TABLUT, "1. e3-c3 dI-d3 *", "dI-d3", "d1-d3"),  # and I
        (LAQUET, "1. 64: 5/11 4/8 6l: 6/12 6/7 *", "6l:", "61:"),
        (LAQUET, "1. 6,3: 5/11 1/4 *", "6,3:", "6-3:"),  # the dice as a pair (found by new-user-25)
        (LAQUET, "1. 6/3: 5/11 1/4 *", "6/3:", "6-3:"),  # parted by a slash (h73b)
        (LAQUET, "1. 6.3: 5/11 1/4 *", "6.3:", "6-3:"),  # by a full stop (review76: no did-you-mean)
        (TABLUT, "1. e3-c3 pass *", "pass", "--"),  # a pass in words
        (TABLUT, "1. e3-c3 — *", "—", "--"),  # a pass with one long dash
        (TABLUT, "1. e3-c3 —--- *", "—---", "--"),  # a pass with dashes of both kinds
        (TABLUT, "1. ke5-e4 *", "ke5-e4", "Ke5-e4"),  # a lowercase piece letter
        (TABLUT, "1. pe3-c3 *", "pe3-c3", "Pe3-c3"),
        (DUX, "1. de2-e5 *", "de2-e5", "De2-e5"),
        (TABLUT, "1. ke5e4 *", "ke5e4", "Ke5-e4"),  # two slips in one ply
        (TABLUT, "1. E3-C3 *", "E3-C3", "e3-c3"),  # squares with capital files
        (DUX, "1. A1-A2 *", "A1-A2", "a1-a2"),
        (COMMANDERS, "1. C14-C11 *", "C14-C11", "c14-c11"),  # C: the file, not a commander's letter
        (COMMANDERS, "1. p8-p6 Cf14-f15 *", "Cf14-f15", "f14-f15"),  # a commander's letter, which plies do not write
        (COMMANDERS, "1. p8-p6 CF14F15 *", "CF14F15", "f14-f15"),
        (COMMANDERS, "1. p8-p6 cf14f15 *", "cf14f15", "f14-f15"),  # in lower case, and without its hyphen
        (TABLUT, "1. e3-c3 !? d1-d3 *", "!?", "e3-c3!?"),  # a detached suffix
        (SENECA, "1. @d4 ! @e5 *", "!", "@d4!"),
        (DUX, "1. a1-a5 # *", "#", "a1-a5#"),  # Latrunculi's end of the game
        (SENECA, "1. @d4 @e5 2. d4-d3 ~e5 *", "~e5", "d4-d3~e5"),  # a detached removal
        (DUX, "1. a1-a5 b8-b5 2. c1-c5 xb5 *", "xb5", "c1-c5xb5"),  # a detached capture list
        (DUX, "1. a1-a5 b8-b5 2. c1-c5 xDb5 *", "xDb5", "c1-c5xDb5"),  # with a piece letter
        (TABLUT, "1. e3-c3 d1-d3 2. e4-e3 xd3 *", "xd3", "e4-e3xd3"),
        (TABLUT, "1. e3-c3 d1-d3 2. e4-e3 xd3+ *", "xd3+", "e4-e3xd3+"),  # a tail of two parts: the ply's own
        (DUX, "1. a1-a5 b8-b5 2. c1-c5 xb5# *", "xb5#", "c1-c5xb5#"),
        (TABLUT, "1. e3-c3 d1-d3 2. e4-e3xd3xd4 *", "xd4", "e4-e3xd3/d4"),  # each capture after its x
        (DUX, "1. a1-a5 b8-b5 2. c1-c5xb5xDc6 *", "xDc6", "c1-c5xb5/Dc6"),  # (aagenielsen.dk's way)
        (LAQUET, "1. 63: 5/11 1/4 ?! 2. 41: 6/10 6/7 *", "?!", "1/4?!"),
        (TABLUT, "1.. e3-c3 *", ".", "1..."),  # a move number's dots
        (TABLUT, "1. e3-c3 1…d1-d3 *", "1…d1-d3", "1... d1-d3"),
        (TABLUT, "1. e3-c3 1.…d1-d3 *", "…d1-d3", "1... d1-d3"),  # (a full stop, then an ellipsis: h80b)
        (TABLUT, "1. e3-c3 d1-d3 2 e4-e3 *", "2", "2."),
        (TABLUT, "1. e3-c3 d1-d3 2) *", "2", "2."),  # mended, it reads up to a mistake of its own right after it
        (LAQUET, "1.. 63: 5/11 1/4 *", ".", "1..."),
        (SENECA, "1 @d4 *", "1", "1."),
        (LAQUET, "1. 63 5/11 1/4 *", "63", "63:"),  # a roll without its colon
        (LAQUET, "1. 6-3 5/11 1/4 *", "6-3", "6-3:"),
        (LAQUET, "1. 63: 6/12 >3 5/8 *", ">3", ">3:"),  # a > group's die without its colon
        (LAQUET, "1. 63: 6/12 3: 5/8 *", "3:", ">3:"),  # a > group without its >
        (LAQUET, "1. 64: 5/11, 5/9 *", ",", "5/11"),  # plays parted by a comma
        (LAQUET, "1. 64: 5/11,5/9 *", ",5/9", "5/11 5/9"),
        (LAQUET, "1. 64: 5/11 5/9 2. 63: 15/off 14/OFF *", "14/OFF", "14/off"),  # bearing off in capitals
        (LAQUET, "1. 64: 5/11 5/9 2. 63: 15/off 14/0 *", "14/0", "14/off"),  # or to point 0
        (LAQUET, "1. 64: 5/11 5/9 2. 63: 15/off 14-Off *", "14-Off", "14/off"),
        (LAQUET, "1. 63: 5/11 1/4 12 41: 6/10 6/7 *", "12", "12."),  # a move number: it reads further
        (TABLUT, "1. e3-c3 ½-½", "½-½", "1/2-1/2"),  # a result in another convention
        (TABLUT, "1. e3-c3 1:0", "1:0", "1-0"),
        (TABLUT, "1. e3-c3 0.5-0.5", "5-0.5", "1/2-1/2"),  # (h80b: each convention of a draw, unpinned)
        (TABLUT, "1. e3-c3 ½:½", "½:½", "1/2-1/2"),
        (TABLUT, "1. e3-c3 =", "=", "1/2-1/2"),
        (TABLUT, "1. e3-c3 1/2", "1/2", "1/2-1/2"),
        (LAQUET, "1. 63: 5/11 1/4 0–1", "0–1", "0-1"),
        (LAQUET, "1. 63: 5/11 1/4 1–0", "1–0", "1-0"),  # (h82b: offered the play 1/off, its 0 read as off)
        (LAQUET, "1. 63: 5/11 1/4 1−0", "1−0", "1-0"),  # (a minus sign)
        (SENECA, "1. @d4 0:1", "0:1", "0-1"),
    ],
)
def test_a_slip_gets_what_was_meant(tags, movetext, found, meant):
    (diagnostic,) = check(f"{tags}\n{movetext}\n").diagnostics
    said = f": {EXPLAINED[found]}" if found in EXPLAINED else ", expected "
    assert diagnostic.rule == "syntax" and diagnostic.message.startswith(f"found '{found}'{said}")
    assert diagnostic.suggestions == (meant,)


@pytest.mark.parametrize("word, meant", [("l7l11", "l7-l11"), ("k2l2", "k2-l2")])
def test_a_file_l_is_read_as_written_before_an_ocrs_1(word, meant):
    """On a board of 12 files or more, l is a file: `l7l11` lost its `l7-l11` to the OCR's reading `l7111`, which
    reads as nothing (review78). The word as written is read first."""
    text = f'[Game "hnefatafl"]\n[Variant "copenhagen-hnefatafl-13x13"]\n1... {word} *\n'
    [slip] = check(text).diagnostics
    assert (slip.rule, slip.suggestions) == ("syntax", (meant,))


def test_an_ocrs_reading_is_offered_after_the_words_own_where_the_rules_refuse_that():
    """On 19×19, `cl4-b14` (c14-b14, its 1 read l) was offered `l4-b14`, its own reading, which the rules refuse:
    the OCR's reading was tried only where the word's own read nothing (review78b). It is judged after it."""
    text = '[Game "hnefatafl"]\n[Variant "tablut-19x19"]\n1. cl4-b14 *\n'
    [slip] = check(text).diagnostics
    assert slip.suggestions == ("c14-b14", "l4-b14") and slip.message.endswith("read as c14-b14, it breaks none there")
    kept = check(text, keep_going=True).diagnostics  # (read as c14-b14: nothing more said)
    assert [(d.rule, d.ply, d.suggestions) for d in kept] == [("syntax", 1, ("c14-b14",))]


def test_an_ocrs_letters_for_digits_are_read_as_the_digits_in_a_laquet_play():
    """`5/1l` and `1O/16` (an OCR's l for 1, O for 0) were offered nothing (h78a); `14/off` keeps its o."""
    for played, meant in (("5/1l 4/8", "5/11 4/8"), ("1O/14 8/12", "10/14 8/12")):
        [slip] = check(f"{LAQUET}\n1. 64: 5/11 4/8 61: 6/12 6/7 2. 64: {played} *\n").diagnostics
        assert (slip.rule, slip.suggestions[0]) == ("syntax", f"64: {meant}")


ROLL_WRITTEN = "a roll is written as its two dice and a colon"
EXPLAINED = {  # the slips the message explains (h76b), not the parser's words alone
    **{roll: f"{ROLL_WRITTEN}, as 63: or 6-3:" for roll in ("6–3:", "6,3:", "6.3:")},
    "3:": f"{ROLL_WRITTEN} (63:, 6-3:); a die left over, in a > group: >3:",
}


@pytest.mark.parametrize(
    "tags, movetext, found, meant",
    [
        (SENECA, "I. @d4 @e5 *", "I.", "1."),  # a move number in Roman numerals, as a manuscript writes it
        (TABLUT, "I. e3-c3 *", "I.", "1."),  # the first word, where a tag may stand too (historian-45)
        (LAQUET, "1. 52: 2/4 5/10 32: 6/8 8/11 IIII. 64: 2/8 10/14 *", "IIII.", "4."),  # (4., though 2. is right)
        (SENECA, "1. @d4 @e5 2. @c3 XIV... @b2 *", "XIV...", "14..."),
        (DUX, "XLIX. c1-c5 *", "XLIX.", "49."),
    ],
)
def test_a_roman_move_number_is_said_to_be_one_with_the_digits_to_write(tags, movetext, found, meant):
    """Not "expected a tag, a ply, …": what it looks like, and what to write (a chapter of the
    source numbered so: a comment)."""
    (diagnostic,) = check(f"{tags}\n{movetext}\n").diagnostics
    assert diagnostic.message == (
        f"found '{found}': a move number is written in digits, {meant}, not in Roman numerals"
        f" (a chapter or section of the source numbered {found} goes in a comment: {{ {found} }})"
    )
    assert diagnostic.suggestions == (meant,)


@pytest.mark.parametrize(
    "tags, movetext, found, meant",
    [
        (TABLUT, "1. e3-c3 d1-d3 128? *", "128?", "128."),  # a move number in doubt (historian-45)
        (TABLUT, "1. e3-c3 d1-d3 2? e4-e3 *", "2?", "2."),
        (TABLUT, "1. e3-c3 d1-d3 2.? e4-e3 *", "2.?", "2."),
        (LAQUET, "1? 63: 5/11 1/4 *", "1?", "1."),
        (TABLUT, "1. e3-c3 2...? d1-d3 *", "2...?", "2..."),  # Black's (review-45h)
    ],
)
def test_a_move_number_in_doubt_is_told_where_a_doubt_goes(tags, movetext, found, meant):
    (diagnostic,) = check(f"{tags}\n{movetext}\n").diagnostics
    assert diagnostic.message == (
        f"found '{found}': a move number takes no '?': write {meant} and say the doubt in a comment after"
        " the ply ({ reading uncertain }; docs/notation.md §3)"
    )
    assert diagnostic.suggestions == (meant,)


@pytest.mark.parametrize(
    "tags, movetext, found, meant",
    [
        (TABLUT, "1. e3-c3 d1-d3 2. ?e4-e3 *", "?e4-e3", ("e4-e3",)),  # a ply in doubt (historian-45)
        (TABLUT, "1. e3-c3 d1-d? *", "d1-d?", ()),  # a rank the source does not show: nothing to offer
        (TABLUT, "1. e3-c3 (?) d1-d3 *", "?", ()),  # a doubt in parentheses, as an editor prints it
        (TABLUT, "1. e3-c3 d1-d3 2. ??? *", "???", ()),  # a ply the source does not show (review-45h)
        (LAQUET, "1. 63?: 5/11 1/4 *", "63?:", ("63:",)),
    ],
)
def test_a_question_mark_of_doubt_in_a_ply_is_told_where_a_doubt_goes(tags, movetext, found, meant):
    (diagnostic,) = check(f"{tags}\n{movetext}\n").diagnostics
    assert diagnostic.message == (
        f"found '{found}': a '?' marks no doubt in a ply or a move number: write what the source most likely"
        " shows, and say the doubt in a comment after the ply ({ reading uncertain }; docs/notation.md §3); a ? straight"
        " after a ply is the annotation 'a poor move'"
    )
    assert diagnostic.suggestions == meant


@pytest.mark.parametrize(
    "movetext, found, column",
    [
        ("1. e3-c3?!? d1-d3 *", "?", 11),
        ("1. e3-c3??? d1-d3 *", "?", 11),
        ("1. e3-c3!?? d1-d3 *", "?", 11),
        ("1. e3-c3 d1-d?? *", "d1-d??", 10),  # (two marks: `??`, a blunder)
    ],
)
def test_marks_mistyped_after_a_ply_are_no_doubt_and_are_not_dropped(movetext, found, column):
    """Two or more marks after a ply annotate it, mistyped: not a transcriber's doubt, so not told where
    a doubt goes, nor offered the ply without its `?` (`e3-c3!`, another annotation; review-45h)."""
    (diagnostic,) = check(f"{TABLUT}\n{movetext}\n").diagnostics
    assert diagnostic.message.startswith(f"found '{found}', expected a ply, a move number, a comment")
    assert (diagnostic.column, diagnostic.suggestions) == (column, ())


@pytest.mark.parametrize(
    "movetext, written, meant",
    [
        ("1. 44: 1/5 1/5 53: >3: 6/9 9/14 *", "53: >3: 6/9 9/14", "53: 9/14 >3: 6/9"),  # the > group first
        ("1. 44: 1/5 1/5 53: 9/14 6/9 >3: *", "53: 9/14 6/9 >3:", "53: 9/14 >3: 6/9"),  # its dice last
        ("1. 44: 1/5 1/5 9/14 53: >3: 6/9 *", "9/14 53: >3: 6/9", "53: 9/14 >3: 6/9"),  # the roll after its play
        ("1. 1/5 1/5 44: 53: 6/9 9/14 *", "1/5 1/5 44:", "44: 1/5 1/5"),  # after its plays
        ("1. 44: 1/5 1/5 6/9 9/14 53: *", "6/9 9/14 53:", "53: 6/9 9/14"),  # (not 1/5 6/9 9/14: 44: needs both)
        ("1. 64: 5/11 5/9 63: >6: 1/7 1/4(2) *", "63: >6: 1/7 1/4(2)", "63: 1/4(2) >6: 1/7"),
        ("1. 64: 5/11 5/9 63: >63: 1/7 1/4 2/6 *", "63: >63: 1/7 1/4 2/6", "63: 2/6 >63: 1/7 1/4"),  # two dice
        # the group's plays counted from the last (one play of two steps is not its two dice; review-45h)
        ("1. 64: 5/11 5/9 63: 1/7/10 2/6 1/4 >63: *", "63: 1/7/10 2/6 1/4 >63:", "63: 1/7/10 >63: 2/6 1/4"),
        # no more plays before the roll than its dice (not 6/9 9/14 2/3, after a ply that played both)
        ("1. 64: 5/11 5/9 6/9 9/14 2/3 53: *", "9/14 2/3 53:", "53: 9/14 2/3"),
    ],
)
def test_a_laquet_ply_in_the_sources_order_is_offered_in_the_notations(movetext, written, meant):
    """A source that writes the > group before the roll's plays, its dice after its plays, or the
    roll after its plays (historian-45): the ply as lusoria writes it."""
    (diagnostic,) = check(f"{LAQUET}\n{movetext}\n").diagnostics
    assert (diagnostic.rule, diagnostic.text, diagnostic.suggestions) == ("syntax", written, (meant,))


@pytest.mark.parametrize(
    "movetext, column, said",
    [
        (
            "1. 66:\r\n>6: 3/9 9/15 *",
            4,
            "found '66:': a roll is followed by its plays, or -- when none can be played, and the > group of the"
            " dice the opponent plays comes after them",  # (on the next line too)
        ),
        # a > group after a > group is not told that a > group comes after its dice (review-45h), but that its dice
        # have no plays (h73b)
        (
            "1. 64: 5/11 5/9 >6: >4: 1/5 *",
            4,
            "found '>6:': the dice of a > group are followed by their plays: the opponent's play of each die left"
            " (63: 10/16 >3: 6/9), or -- when none can be played",
        ),
    ],
)
def test_a_laquet_roll_followed_by_a_group_is_told_the_group_comes_after_its_plays(movetext, column, said):
    (diagnostic,) = check(f"{LAQUET}\n{movetext}\n").diagnostics
    assert (diagnostic.column, diagnostic.message) == (column, said)


def test_a_laquet_turn_in_another_order_is_found_from_its_first_character_to_its_last():
    """The turns written in another order that hold a place: not the blank before one, nor the one after it."""
    text = "1. 66: >6: 3/9 9/15 *"
    assert [reordered_turns(text, position) for position in (2, 3, 18, 19)] == [
        [],
        [(3, 19, "66: 9/15 >6: 3/9")],
        [(3, 19, "66: 9/15 >6: 3/9")],
        [],
    ]


def test_a_laquet_ply_whose_roll_would_be_left_no_play_is_not_reordered():
    """`66: >6: 3/9` (the > group's dice and their play, the roll's own plays left out) is no ply in
    another order: nothing to offer, not `66:  >6: 3/9`."""
    assert reordered_turns("1. 66: >6: 3/9 *", 3) == []
    assert reordered_turns("1. 66: 3/9 >6: *", 11) == []
    assert reordered_turns("1. 66: >6: 3/9 9/15 *", 3) == [(3, 19, "66: 9/15 >6: 3/9")]


@pytest.mark.parametrize(
    "movetext, column",
    [
        ("1. 64: 5/11 5/9 52: *", 17),  # a roll cut short after a whole ply: its plays are not before it
        ("1. 64: 5/11 52: *", 13),  # nor are those of a ply that left a die unplayed
    ],
)
def test_a_laquet_roll_without_plays_after_a_ply_is_not_said_to_follow_its_plays(movetext, column):
    (diagnostic,) = check(f"{LAQUET}\n{movetext}\n").diagnostics
    assert diagnostic.column == column and diagnostic.suggestions == ()
    assert diagnostic.message.endswith("a roll is followed by its plays, or -- when none can be played")


# what the rules say of a reading they refuse at its ply, after the message (historian-48)
BROKEN_THERE = {
    "1. 63: 14/OFF, 15/0 *": "; read as 63: 14/off 15/off, it breaks Q7 there (White may bear off only once all 15"
    " checkers are in quadrant III (13-18); some stand on 1, 2, 3, 4, 5)",
    "1. 71: 5/11 5/6 *": "; read as 61: 5/11 5/6, it breaks Q3 there (5/6 lands on point 6, held by Black: no checker"
    " may stop on an enemy point)",
    "1. ??: 1/7/10 *": "; read as 63: 1/7/10, it breaks Q3 there (1/7/10 stops on point 7, held by Black: no checker"
    " may stop on an enemy point)",
    "1. ??: 3/6(2) *": "; read as 33: 3/6(2), it breaks Q3 there (3/6 lands on point 6, held by Black: no checker"
    " may stop on an enemy point)",
    "1. 33: 3-6(2) 8-11 *": "; read as 33: 3/6(2) 8/11, it breaks Q3 there (3/6 lands on point 6, held by Black: no"
    " checker may stop on an enemy point)",
}


@pytest.mark.parametrize(
    "movetext, written, meant",
    [
        ("1. 63: 5-11 1-4 *", "63: 5-11 1-4", "63: 5/11 1/4"),
        ("1. 63: 5/11 1/4 41: 6-10 6-7 2. 63: 5/11 *", "41: 6-10 6-7", "41: 6/10 6/7"),  # up to the move number
        ("1. 64: 5-11 5-9 52: 6-8 7-12 *", "64: 5-11 5-9", "64: 5/11 5/9"),  # up to the next roll: its own slip
        ("1. 6-4: 5-11 5/9 {a comment} *", "6-4: 5-11 5/9", "6-4: 5/11 5/9"),  # a roll with its hyphen stays one
        ("1. 44:\t1-5\t1-5 *", "44:\t1-5\t1-5", "44:\t1/5\t1/5"),  # plays parted by tabs, kept
        ("1. 63: 14/OFF, 15/0 *", "63: 14/OFF, 15/0", "63: 14/off 15/off"),  # other slips of plays, with their roll
        ("1. 63: 5–11 1—4 *", "63: 5–11 1—4", "63: 5/11 1/4"),  # an en dash, an em dash (review76)
        # h78c: past a play's repeat, the plays after it (was cut after `3-6(2)`: `8-11` left as written)
        ("1. 33: 3-6(2) 8-11 *", "33: 3-6(2) 8-11", "33: 3/6(2) 8/11"),
    ],
)
def test_laquet_plays_written_with_hyphens_are_mended_with_their_roll(movetext, written, meant):
    """A historian copied a book that writes plays `5-11`: the error is at the roll (no play follows it),
    and what was meant is the roll with its plays written FROM/TO; the diagnostic spans what it replaces."""
    diagnostic = check(f"{LAQUET}\n{movetext}\n").diagnostics[0]
    roll = written.split()[0]
    assert (diagnostic.rule, diagnostic.text, diagnostic.column) == ("syntax", written, movetext.index(roll) + 1)
    assert (
        diagnostic.message
        == f"found '{roll}': a roll is followed by its plays, or -- when none can be played"
        + FIRST_MENDED.get(movetext, "")
        + BROKEN_THERE.get(movetext, "")
    )
    assert diagnostic.suggestions == (meant,)


FIRST_MENDED = {  # (h76b: the first play, which the slips mend, said as they write it)
    "1. 63: 5-11 1-4 *": ", and 5-11 is none: it is written 5/11",
    "1. 63: 5/11 1/4 41: 6-10 6-7 2. 63: 5/11 *": ", and 6-10 is none: it is written 6/10",
    "1. 64: 5-11 5-9 52: 6-8 7-12 *": ", and 5-11 is none: it is written 5/11",
    "1. 6-4: 5-11 5/9 {a comment} *": ", and 5-11 is none: it is written 5/11",
    "1. 63: 14/OFF, 15/0 *": ", and 14/OFF is none: it is written 14/off",
    "1. 63: 5–11 1—4 *": ", and 5–11 is none: it is written 5/11",
}


@pytest.mark.parametrize(
    "movetext, written, meant",
    [
        ("1. 5/11 5/9 52: 6/8 7/12 *", "5/11 5/9", "64: 5/11 5/9"),  # up to the next roll
        ("1. 64: 5/11 5/9 52: 6/8 7/12 2. 4/7 4/5 *", "4/7 4/5", "31: 4/7 4/5"),  # up to the result marker
        ("1. 1/7/10 52: 6/8 7/12 *", "1/7/10", "63: 1/7/10"),  # one checker, both dice
    ],
)
def test_laquet_plays_written_without_their_roll_get_the_roll_they_show(movetext, written, meant):
    """A historian copied the plays and left out the dice: the plays show them (5/11 and 5/9: 6 and 4)."""
    [diagnostic] = check(f"{LAQUET}\n{movetext}\n").diagnostics
    assert (diagnostic.rule, diagnostic.text, diagnostic.column) == ("syntax", written, movetext.index(written) + 1)
    assert diagnostic.message.startswith(f"found '{written.split()[0]}', expected a ply, a move number")
    assert diagnostic.suggestions == (meant,)


UNREAD = (
    "a roll writes both dice; for a die the source does not show, the one its plays show (and the doubt in a comment)"
)


@pytest.mark.parametrize(
    "movetext, written, meant",
    [
        ("1. ??: 5/11 5/9 52: 6/8 7/12 *", "??: 5/11 5/9", "64: 5/11 5/9"),  # neither die shown
        ("1. 6?: 5/11 5/9 52: 6/8 7/12 *", "6?: 5/11 5/9", "64: 5/11 5/9"),  # the second die not shown
        ("1. 64: 5/11 5/9 ?-2: 6/8 7/12 *", "?-2: 6/8 7/12", "52: 6/8 7/12"),  # with its hyphen
        ("1. ??: 1/7/10 *", "??: 1/7/10", "63: 1/7/10"),  # one checker, both dice
        ("1. 5?: 5/11 5/9 *", "5?: 5/11 5/9", "64: 5/11 5/9"),  # the die read is not one the plays show: theirs
        ("1. ??: 3/6(2) *", "??: 3/6(2)", "33: 3/6(2)"),  # a play repeated
        ("1. ??: 5-11 5-9 *", "??: 5-11 5-9", "64: 5/11 5/9"),  # plays written with hyphens
        ("1. ??: 5/11 *", "??:", None),  # one die played: the other is not shown
        ("1. ??: 1/10 *", "??:", None),  # one checker, its stop not written: which dice is not shown
    ],
)
def test_a_laquet_roll_with_a_die_the_source_does_not_show_gets_the_roll_its_plays_show(movetext, written, meant):
    """A historian read a die of the roll as `?` (a worn miniature): the plays show it, when they show
    two dice, whatever die was read (the plays are what the source shows played); else no roll is offered."""
    [diagnostic] = check(f"{LAQUET}\n{movetext}\n").diagnostics
    roll = written.split()[0]
    assert (diagnostic.rule, diagnostic.text, diagnostic.column) == ("syntax", written, movetext.index(roll) + 1)
    assert diagnostic.message == f"found '{roll}': {UNREAD}" + BROKEN_THERE.get(movetext, "")
    assert diagnostic.suggestions == ((meant,) if meant else ())


@pytest.mark.parametrize(
    "movetext, written, meant",
    [
        ("1. 71: 5/11 5/6 *", "71: 5/11 5/6", "61: 5/11 5/6"),
        ("1. 06: 5/11 5/10 *", "06: 5/11 5/10", "65: 5/11 5/10"),  # a 0, as a worn 6 may be read
        ("1. 64: 5/11 5/9 07: 6/8 7/12 *", "07: 6/8 7/12", "52: 6/8 7/12"),
        ("1. 08: 5/11 *", "08:", None),  # one die played: the other is not shown
    ],
)
def test_a_laquet_roll_with_a_face_no_die_has_gets_the_roll_its_plays_show(movetext, written, meant):
    [diagnostic] = check(f"{LAQUET}\n{movetext}\n").diagnostics
    roll = written.split()[0]
    assert (diagnostic.rule, diagnostic.text, diagnostic.column) == ("syntax", written, movetext.index(roll) + 1)
    assert diagnostic.message == f"found '{roll}': a die shows 1 to 6" + BROKEN_THERE.get(movetext, "")
    assert diagnostic.suggestions == ((meant,) if meant else ())


def test_laquet_plays_written_with_hyphens_and_no_roll_get_the_roll_they_show():
    [diagnostic] = check(f"{LAQUET}\n1. 5-11 5/9 *\n").diagnostics
    assert (diagnostic.rule, diagnostic.text, diagnostic.suggestions) == ("syntax", "5-11 5/9", ("64: 5/11 5/9",))


@pytest.mark.parametrize("movetext", ["1. 5/11 52: 6/8 7/12 *", "1. 1/10 52: 6/8 7/12 *", "1. 5/14 1/4 *"])
def test_laquet_plays_without_their_roll_that_do_not_show_two_dice_get_no_roll(movetext):
    """One die (5/11), one checker whose stop is not written (1/10), a play longer than a die (5/14)."""
    [diagnostic] = check(f"{LAQUET}\n{movetext}\n").diagnostics
    assert (diagnostic.rule, diagnostic.suggestions) == ("syntax", ())


def test_the_plays_of_a_laquet_leftover_group_written_with_hyphens_are_mended_with_its_dice():
    (diagnostic,) = check(f"{LAQUET}\n1. 63: 5/11 1/4 >3: 6-9 6-7 *\n").diagnostics
    assert (diagnostic.rule, diagnostic.text, diagnostic.suggestions) == ("syntax", ">3: 6-9 6-7", (">3: 6/9 6/7",))


@pytest.mark.parametrize(
    "tags, movetext, found, written, meant, plies",
    [
        (LAQUET, "1. 64: { rolled } 5/11 5/9 *", "64:", "64: { rolled } 5/11 5/9", "64: 5/11 5/9 { rolled }", 1),
        (LAQUET, "1. 64: 5/11 5/9 52: {2} 6/8 7/12 *", "52:", "52: {2} 6/8 7/12", "52: 6/8 7/12 {2}", 2),
        (LAQUET, "1. 64: {a {b} 5/11 5/9 *", "64:", "64: {a {b} 5/11 5/9", "64: 5/11 5/9 {a {b}", 1),  # { in a comment
        (
            LAQUET,
            "1. 64: ; p. 4\n5/11 5/9 *",
            "64:",
            "64: ; p. 4\n5/11 5/9",
            "64: 5/11 5/9 {p. 4}",
            1,
        ),  # over two lines
        (
            LEFT_OVER,
            "1... 41: 13/14 >4: {White's} 3/7 *",
            ">4:",
            ">4: {White's} 3/7",
            ">4: 3/7 {White's}",
            1,
        ),
    ],
)
def test_a_comment_between_the_dice_and_their_plays_goes_after_the_ply(tags, movetext, found, written, meant, plies):
    """The historian wrote a note between a roll and its plays (a `;` one too, the plays on the next
    line), which was said to be a roll without plays: the error, at the roll (or a > group's dice), says where a comment goes, what was meant
    moves it after the plays (as for a comment inside a ply), and --keep-going reads the record so."""
    text = f"{tags}\n{movetext}\n"
    (diagnostic,) = check(text).diagnostics
    message = f"found '{found}': a comment goes after the ply, not between its dice and their plays"
    place = (diagnostic.rule, diagnostic.message, diagnostic.line, diagnostic.column, diagnostic.ply)
    assert place == ("syntax", message, text.count("\n") - movetext.count("\n"), movetext.index(found) + 1, None)
    assert (diagnostic.text, diagnostic.suggestions) == (written, (meant,))
    report = check(text, keep_going=True)
    assert unplied(report.diagnostics) == [diagnostic] and len(report.positions) == 1 + plies


@pytest.mark.parametrize(
    "movetext, found, meant",
    [
        ("1. 64: 5/11 5/9 2. 31:\n4-7 4-5 *", "31:", "31: 4/7 4/5"),  # the roll at a line's end
        ("1. 64: 5-11\n5-9 *", "64:", "64: 5/11 5/9"),  # a play on each line (`64: 5/11` alone was offered)
    ],
)
def test_a_laquet_ply_with_hyphens_over_two_lines_is_offered_whole_on_one(movetext, found, meant):
    """`31:`⏎`4-7 4-5` got no offer: the plays on the next line are the roll's, mended with it."""
    (diagnostic,) = check(f"{LAQUET}\n{movetext}\n").diagnostics
    assert (diagnostic.rule, diagnostic.line, diagnostic.column) == ("syntax", 2, movetext.index(found) + 1)
    assert diagnostic.message.startswith(f"found '{found}': a roll is followed by its plays")
    assert diagnostic.suggestions == (meant,)


@pytest.mark.parametrize(
    "tags, movetext, meant",
    [
        (TABLUT, "1. e3-c3 d1-d3 2. e4-\ne3 *", "e4-e3"),  # the line broken after the hyphen
        (TABLUT, "1. e3-c3 d1-d3 2. e4 -\n e3 *", "e4-e3"),  # blanks about it too
        (DUX, "1. a1-a5 b8-b5 2. c1-\nc5xb5 *", "c1-c5xb5"),
    ],
)
def test_a_ply_broken_at_its_hyphen_over_two_lines_is_offered_joined(tags, movetext, meant):
    """`e4-`⏎`e3` (a hand's line break inside a ply) got no offer: its squares joined, as `e4 - e3` is."""
    (diagnostic,) = check(f"{tags}\n{movetext}\n").diagnostics
    start = movetext.index(meant[:2])
    assert (diagnostic.rule, diagnostic.line, diagnostic.column) == ("syntax", 2 + tags.count("\n"), start + 1)
    assert (diagnostic.text, diagnostic.suggestions) == (movetext[start:].split(" *")[0], (meant,))


@pytest.mark.parametrize("parted", ["31: ; p. 4\n4/7 4/5", "31: 4/7 {p. 4}\n4/5"])
def test_keep_going_past_a_slip_over_two_lines_places_what_follows_where_it_was_written(parted):
    """Mended onto one line, the slip moved the lines after it up one: the next ply's error was said on
    line 2, at a column of line 3; it is said on its own line and column, the slip's line break as ⏎."""
    text = f"{LAQUET}\n1. 64: 5/11 5/9 52: 6/8 7/12 2. {parted} 21: 6/8 6/7\n3. 53: 2/7 3/6 *\n"
    slip, illegal, _ = check(text, keep_going=True).diagnostics
    ply = text.split("\n")[2]
    assert (illegal.rule, illegal.line, illegal.column, illegal.text) == ("Q3", 3, ply.index("21:") + 1, "21: 6/8 6/7")
    assert illegal.assumed == (f"line 2: {slip.suggestions[0]} for {slip.text.replace(chr(10), '⏎')}",)


def test_keep_going_past_a_slip_over_two_lines_of_a_crlf_text_says_its_line_break_as_one_mark():
    """The library reads a text as given: its `\\r` stood before the ⏎ and sent a terminal back to the
    note's line start."""
    text = f"{LAQUET}\n1. 32: ; p. 12\n2/5 1/3 64: 6/10 10/46 *\n".replace("\n", "\r\n")
    _, off = check(text, keep_going=True).diagnostics
    assert off.assumed == ("line 2: 32: 2/5 1/3 {p. 12} for 32: ; p. 12⏎2/5 1/3",)


@pytest.mark.parametrize("movetext", ["1. 64: { no move } *", "1. 64: { no move } 2. 52: 6/8 7/12 *"])
def test_a_comment_after_a_roll_that_no_play_follows_is_no_comment_between_dice_and_plays(movetext):
    """A roll without plays, then a comment: the roll lacks its plays (or --), not the comment its place."""
    (diagnostic,) = check(f"{LAQUET}\n{movetext}\n").diagnostics
    assert (diagnostic.rule, diagnostic.column, diagnostic.message) == (
        "syntax",
        4,
        "found '64:': a roll is followed by its plays, or -- when none can be played",
    )


@pytest.mark.parametrize(
    "tags, movetext, written, meant, plies",
    [
        (LAQUET, "1. 64: 5/11 { first die } 5/9 52: 6/8 7/12 *", "{ first die } 5/9", "5/9 { first die }", 2),
        (
            LEFT_OVER,
            "1... 41: 13/14 {the 4 is left} >4: 3/7 *",
            "{the 4 is left} >4: 3/7",
            ">4: 3/7 {the 4 is left}",
            1,
        ),
        (TABLUT, "1. e3-c3 d1-d3 2. e4-e3 { takes } xd3 *", "e4-e3 { takes } xd3", "e4-e3xd3 { takes }", 3),
        (INCITI, "1. a2-a3 {removes d4} ~d4 *", "a2-a3 {removes d4} ~d4", "a2-a3~d4 {removes d4}", 1),
        (LAQUET, "1. 64: 5/11! 5/9 52: 6/8 7/12 *", "5/11! 5/9", "5/11 5/9!", 2),
        (LAQUET, "1. 64: 5/11 $1 $14 5/9 *", "$1 $14 5/9", "5/9 $1 $14", 1),
        (LAQUET, "1. 64: 5/11 ; the 6 first\n5/9 *", "; the 6 first\n5/9", "5/9 {the 6 first}", 1),
        (LEFT_OVER, "1... 41: 13/14?! >4: 3/7 *", "13/14?! >4: 3/7", "13/14 >4: 3/7?!", 1),
        (TABLUT, "1. e3-c3 d1-d3 2. e4-e3! xd3 *", "e4-e3! xd3", "e4-e3xd3!", 3),
        (TABLUT, "1. e3-c3 d1-d3 2. e4-e3 $1 xd3 *", "e4-e3 $1 xd3", "e4-e3xd3 $1", 3),
        (TABLUT, "1. e3-c3 d1-d3 2. e4-e3 ; takes\nxd3 *", "e4-e3 ; takes\nxd3", "e4-e3xd3 {takes}", 3),
        (INCITI, "1. a2-a3!! ~d4 *", "a2-a3!! ~d4", "a2-a3~d4!!", 1),
        (LEFT_OVER, "1... 41: 13/14 2. >4: 3/7 *", "2. >4: 3/7", ">4: 3/7", 1),  # White's plies, not White's move
        (LAQUET, "1. 64: 5/11 2. 5/9 *", "2. 5/9", "5/9", 1),
    ],
)
def test_a_comment_that_parts_a_ply_is_moved_after_it(tags, movetext, written, meant, plies):
    """A transcriber's note put inside a ply, before its last play, its > group, its captures or its
    removal (found by new-user-8), or there a `;` note, NAGs or a suffix marking one play of a roll
    (`5/11!`), or a move number before a > group (found by new-user-25): what was meant writes the
    comment, NAGs or suffix after the whole ply, leaves the number out, and --keep-going reads the
    record so."""
    (diagnostic,) = check(f"{tags}\n{movetext}\n").diagnostics
    assert (diagnostic.rule, diagnostic.text, diagnostic.suggestions) == ("syntax", written, (meant,))
    report = check(f"{tags}\n{movetext}\n", keep_going=True)
    assert unplied(report.diagnostics) == [diagnostic] and len(report.positions) == 1 + plies


@pytest.mark.parametrize(
    "movetext, parted",
    [
        ("1. 64: 5/11 { first die } 5/9 52: 6/8 7/12 *", "5/11 {…} 5/9"),
        ("1. 64: 5/11 ; the 6 first\n5/9 *", "5/11 {…} 5/9"),
        ("1. 6-3: 1/7 {its stop} 7/10 *", "1/7 {…} 7/10"),  # one checker, both dice, its stop written
        ("1. 64:5/11 {x} 5/9 *", "5/11 {…} 5/9"),  # no blank after the roll's colon
    ],
)
def test_a_comment_between_two_plays_of_a_roll_says_where_a_comment_goes(movetext, parted):
    """A historian's note on one play of a roll (NOTATION.md §3: a comment follows a ply, which is
    the whole turn): the error says so, at the play after the comment."""
    (diagnostic,) = check(f"{LAQUET}\n{movetext}\n").diagnostics
    before, _, after = parted.partition(" {…} ")
    assert diagnostic.message == (
        f"found '{after}': a comment goes after the whole ply, not between its plays: "
        f"{parted} is written {before} {after} {{…}}"
    )


@pytest.mark.parametrize("movetext", ["1. 64: 5/11 (1. 64: 4/10 5/9) 5/9 *", "1. 64: 5/11\n(1. 64: 4/10 5/9)\n5/9 *"])
def test_a_variation_between_two_plays_of_a_roll_says_where_a_variation_goes(movetext):
    """A variation of one play of a roll was a bare "found '5/9', expected a ply, …" (h69c): a variation holds a
    whole ply, and follows the ply it replaces, as a comment does."""
    (diagnostic,) = check(f"{LAQUET}\n{movetext}\n").diagnostics
    assert (diagnostic.rule, diagnostic.text) == ("syntax", "5/9")
    assert diagnostic.message == (
        "found '5/9': a variation goes after the whole ply, not between its plays: 5/11 (…) 5/9 is written 5/11 5/9 (…)"
    )


@pytest.mark.parametrize(
    "movetext, column, said",
    [
        ("1. 64: 5/11 5/9 {x} 5/9 *", 21, "64: 5/11 5/9 has played all its dice, and 5/9"),
        ("1. 64: 5/11 5/9 ; x\n5/9 *", 1, "64: 5/11 5/9 has played all its dice, and 5/9"),
        ("1. 63: 1/10 {x} 1/10 *", 17, "63: 1/10 has played all its dice, and 1/10"),  # one checker, both dice
        ("1. 33: 5/8 5/8 {x} 5/8 *", 20, "33: 5/8 5/8 has played all its dice, and 5/8"),
        ("1. 63: 10/16 >3: 6/9 {x} 6/9 *", 26, "63: 10/16 >3: 6/9 has played all its dice, and 6/9"),
        ("1. 64: 5/11 5/9 52: 6/8 7/12 {x} 7/12 *", 34, "52: 6/8 7/12 has played all its dice, and 7/12"),
        ("1. 64: 5/11 5/9 {x} {y} 5/9 *", 25, "64: 5/11 5/9 has played all its dice, and 5/9"),  # two comments
        ("1. 64: 5/11 5/9! {x} 5/9 *", 22, "64: 5/11 5/9 has played all its dice, and 5/9"),  # a suffix, a comment
        ("1. 64: 5/11 5/9 $1 5/9 *", 20, "64: 5/11 5/9 has played all its dice, and 5/9"),  # a NAG alone
        ("1. 64: 5/11 5/9?! 5/9 *", 19, "64: 5/11 5/9 has played all its dice, and 5/9"),  # a suffix alone
    ],
)
def test_a_play_written_again_after_a_whole_laquet_ply_and_its_comment_is_said_to_be_no_play_of_it(
    movetext, column, said
):
    """A play after a comment that follows a ply whose plays used its dice (found by historian-42): the
    comment is not moved after it (a third play is no ply), and the error says the ply is whole."""
    (diagnostic,) = check(f"{LAQUET}\n{movetext}\n").diagnostics
    assert (diagnostic.rule, diagnostic.column, diagnostic.suggestions) == ("syntax", column, ())
    assert diagnostic.message.endswith(f"{said} after it is no play of it: a play written twice is struck out")


def test_a_play_after_a_whole_laquet_ply_that_is_part_of_one_of_its_plays_is_no_play_written_twice():
    """h78c: `5/1` is no play of `64: 5/11 5/9` written again (a word of it, not a part of one: `ply.split()`), so the
    next ply is said to begin with its roll."""
    (diagnostic,) = check(f"{LAQUET}\n1. 64: 5/11 5/9 {{x}} 5/1 *\n").diagnostics
    assert (diagnostic.rule, diagnostic.column, diagnostic.message) == (
        "syntax",
        21,
        "found '5/1': 64: 5/11 5/9 has played all its dice, and 5/1 after it is no play of it: "
        "the next ply begins with its roll",
    )


@pytest.mark.parametrize(
    "movetext, said, meant",
    [
        ("1. 64: 5/11 5/9 {x} 6/8 7/12 *", "'6/8': 64: 5/11 5/9 has played all its dice, and 6/8", ("52: 6/8 7/12",)),
        ("1. 33: 5/8(2) {x} 4/7 *", "'4/7': 33: 5/8(2) has played all its dice, and 4/7", ()),  # Q2: two moves
        ("1. 21: 5/8 {x} 4/5 *", "'4/5': 21: 5/8 has played all its dice, and 4/5", ()),
        ("1. 33: 3/6(2) {c} 6/9 *", "'6/9': 33: 3/6(2) has played all its dice, and 6/9", ()),
        ("1. 63: 1/7/10 {c} 5/9 *", "'5/9': 63: 1/7/10 has played all its dice, and 5/9", ()),
    ],
)
def test_a_play_after_a_whole_laquet_ply_and_its_comment_begins_the_next_ply_with_its_roll(movetext, said, meant):
    (diagnostic,) = check(f"{LAQUET}\n{movetext}\n").diagnostics
    assert diagnostic.message == f"found {said} after it is no play of it: the next ply begins with its roll"
    assert diagnostic.suggestions == meant


def test_a_comment_before_a_laquet_leftover_group_says_it_goes_after_the_whole_ply():
    (diagnostic,) = check(f"{LEFT_OVER}\n1... 41: 13/14 {{the 4 is left}} >4: 3/7 *\n").diagnostics
    assert diagnostic.message == (
        "found '>4:': a comment goes after the whole ply, not before its > group: "
        "13/14 {…} >4: is written 13/14 >4: … {…}"
    )
    shut_in = '[Game "laquet"]\n[Position "1:15 6:1,7:14 w"]\n1. 65: -- {White is shut in} >65: 7/13 6/11 *\n'
    (diagnostic,) = check(shut_in).diagnostics  # (h76b: after a roll that plays nothing, the parser's words alone)
    assert diagnostic.message == (
        "found '>65:': a comment goes after the whole ply, not before its > group: -- {…} >65: is written -- >65: … {…}"
    )
    assert diagnostic.suggestions == (">65: 7/13 6/11 {White is shut in}",)
    (diagnostic,) = check(f"{LAQUET}\n1. 65: -- {{c}} 5/11 *\n").diagnostics  # (a play after a pass is none of it)
    assert diagnostic.message.startswith("found '5/11', expected a ply")


def test_a_play_marked_as_a_hit_is_said_to_end_the_record_at_its_mark():
    """h76b: a backgammon book's hit, `5/11*`, ended the record with no word of why."""
    (diagnostic,) = check(f"{LAQUET}\n1. 65: 5/11* 5/10 *\n").diagnostics
    assert diagnostic.message == (
        "found '5/10' after the result marker, which ends the record: the * written against 5/11 is that marker, "
        "and a ply carries no *"
    )
    (diagnostic,) = check(f"{TABLUT}\n1. e3-c3 * d1-d3 *\n").diagnostics
    assert diagnostic.message == "found 'd1-d3' after the result marker, which ends the record"
    (diagnostic,) = check(
        f"{TABLUT}\n1. e3-c3 {{a note*}} d1-d3 * e4-e5 *\n"
    ).diagnostics  # (a * before, not the marker)
    assert diagnostic.message == "found 'e4-e5' after the result marker, which ends the record"
    with pytest.raises(SyntaxProblem) as caught:  # a record that ends so, the next one's tags after it
        parse_record(f'{TABLUT}\n1. e3-c3*\n[Game "tablut"]\n1. e3-c3 *\n')
    assert caught.value.message == (
        "found '[' after the result marker, which ends the record: [Game \"tablut\"] begins the next record, "
        "and a text of several is read record by record"
    )


def test_a_word_after_a_comment_that_is_neither_a_play_nor_a_group_is_no_comment_out_of_place():
    (diagnostic,) = check(f"{LAQUET}\n1. 64: 5/11 {{c}} zz *\n").diagnostics
    assert diagnostic.message.startswith("found 'zz', expected a ply")


@pytest.mark.parametrize(
    "tags, movetext",
    [(TABLUT, "1. e3-c3 {x} d1-d3"), (TABLUT, "1. e3-c3! d1-d3"), (LAQUET, "1. 64: 5/11 5/9 $1 52: 6/8 7/12")],
)
def test_a_record_that_ends_without_its_marker_after_a_note_is_said_so_without_a_suggestion(tags, movetext):
    """An annotated ply, then the last and no result marker: what parts no ply is not moved after it
    (`did you mean d1-d3 {x}?`, the error shown at the comment, as before new-user-25)."""
    (diagnostic,) = check(f"{tags}\n{movetext}\n").diagnostics
    place = (diagnostic.message, diagnostic.column, diagnostic.suggestions)
    assert place == ("the record ends without a result marker (1-0, 0-1, 1/2-1/2, *)", len(movetext) + 1, ())


@pytest.mark.parametrize(
    "movetext, begun, around",
    [
        ("1. e3-c3 d1-d3 (1... d1-d2", 16, ""),
        ("1. e3-c3 d1-d3 (1... d1-d2 2. c3-c4 (2. c3-c5", 37, " (nor is the one around it)"),  # the innermost
        ("1. e3-c3 d1-d3 (1... d1-d2 2. c3-c4 (2. c3-c5)", 16, ""),  # the inner closed: the outer
        ("1. e3-c3 d1-d3 (1... d1-d2 {(} ; (\n2. c3-c4", 16, ""),  # not a ( of a comment
        ("1. e3-c3 d1-d3 (1... d1-d2 (1... d9-d8 (1... a4-a3", 40, " (nor are the 2 around it)"),  # how many ) lack
    ],
)
def test_a_record_that_ends_inside_a_variation_says_where_the_variation_begins(movetext, begun, around):
    """A marker would not end the record there: the error said only that it had none. (Its plies are
    checked, the variations closed: those after it are theirs.)"""
    diagnostic, *replayed = check(f"{TABLUT}\n{movetext}\n").diagnostics
    assert all(d.rule != "syntax" for d in replayed)
    assert diagnostic.message == (
        "the record ends without a result marker (1-0, 0-1, 1/2-1/2, *);"
        f" the variation begun at line 2, column {begun} is not closed with ')'{around}"
    )


@pytest.mark.parametrize(
    "tags, movetext, column, written, meant, plies",
    [
        (LAQUET, "1. 46: 5/11* 4/8 16: 6/12 6/7 *", 8, "5/11*", "5/11", 2),  # a hit, as backgammon marks it
        (LAQUET, "1. 46: 5/11 4/8* 16: 6/12 6/7 *", 13, "4/8*", "4/8", 2),
        (TABLUT, "1. e3-c3* d1-d3 *", 4, "e3-c3*", "e3-c3", 2),
    ],
)
def test_a_star_written_on_a_ply_is_no_result_marker_there(tags, movetext, column, written, meant, plies):
    """`5/11*` read as the ply and the marker of an unfinished game: the rest was "found after the
    result marker", with no suggestion (session 34 left it)."""
    (diagnostic,) = check(f"{tags}\n{movetext}\n", keep_going=True).diagnostics
    assert (diagnostic.rule, diagnostic.column, diagnostic.text, diagnostic.suggestions) == (
        "syntax",
        column,
        written,
        (meant,),
    )
    assert len(check(f"{tags}\n{movetext}\n", keep_going=True).positions) == 1 + plies


@pytest.mark.parametrize(
    "movetext, column, found",
    [("1. e3-c3 * d1-d3 *", 12, "d1-d3"), ("1. e3-c3* zz *", 11, "zz"), ("1. e3-c3* *d1-d3 *", 11, "*d1-d3")],
)  # apart from its ply; no ply after it; the ply mended stops at d1-d3, where `*d1-d3` was (h80b: `>` made `>=`)
def test_a_star_that_ends_the_record_before_what_reads_no_further_gets_no_suggestion(movetext, column, found):
    (diagnostic,) = check(f"{TABLUT}\n{movetext}\n").diagnostics
    assert (diagnostic.column, diagnostic.text, diagnostic.suggestions) == (column, found, ())


@pytest.mark.parametrize(
    "written, meant",
    [("a1-a3-c3", "a1^a3^c3"), ("Pa1-a3-c3", "Pa1^a3^c3")],
)
def test_latrunculi_jumps_joined_with_hyphens_get_their_carets(written, meant):
    """A historian wrote a double jump as a line of squares (`a1-a3-c3`, found by new-user-8): the
    syntax error spans the word, and what was meant joins its landings with ^."""
    movetext = f"1. {written} *"
    (diagnostic,) = check(f'{SENECA}\n[Position "pp6/8/8/8/8/1P6/P7/P7 w"]\n{movetext}\n').diagnostics
    assert (diagnostic.rule, diagnostic.text, diagnostic.column) == ("syntax", written, 4)
    assert diagnostic.suggestions == (meant,)
    assert check(f'{SENECA}\n[Position "pp6/8/8/8/8/1P6/P7/P7 w"]\n1. {meant} *\n').diagnostics == []


@pytest.mark.parametrize(
    "tags, movetext, written, meant",
    [
        (TABLUT, "1. e3 - c3 d1-d3 *", "e3 - c3", "e3-c3"),
        (TABLUT, "1. e3 c3 d1-d3 *", "e3 c3", "e3-c3"),  # no hyphen at all (found by new-user-16)
        (TABLUT, "1. e3-c3 d1-d3 2. e4 e3xd3 *", "e4 e3xd3", "e4-e3xd3"),
        (TABLUT, "1. e3-c3 d1 -d3 *", "d1 -d3", "d1-d3"),
        (TABLUT, "1. e3- c3 *", "e3- c3", "e3-c3"),
        (TABLUT, "1. e3 – c3 *", "e3 – c3", "e3-c3"),  # and an en dash
        (TABLUT, "1. e3-c3 d1-d3 2. e4 - e3xd3 *", "e4 - e3xd3", "e4-e3xd3"),
        (DUX, "1. a1 - a5 *", "a1 - a5", "a1-a5"),  # not @a1: dux has no placements
        (f'{SENECA}\n[Position "pp6/8/8/8/8/1P6/P7/P7 w"]', "1. a1 ^ a3 ^ c3 *", "a1 ^ a3 ^ c3", "a1^a3^c3"),
        (LAQUET, "1. 63 : 5/11 1/4 *", "63 :", "63:"),  # not 63., a move number
        (LAQUET, "1. 6 3: 5/11 1/4 *", "6 3:", "63:"),  # not 6.
        (LAQUET, "1. 6-3 : 5/11 1/4 *", "6-3 :", "6-3:"),
        (LAQUET, "1. 63 - 5/11 1/4 *", "63 -", "63:"),  # a dash for its colon (note81): not 63.
        (LAQUET, "1. 6-3 – 5/11 1/4 *", "6-3 –", "6-3:"),
        (LAQUET, "1. 63 - 5-11 1-4 *", "63 - 5-11 1-4", "63: 5/11 1/4"),  # (its plays with hyphens too: review83)
        (LAQUET, "1. 63: 5/11 1/4 41 : 6/10 6/7 *", "41 :", "41:"),
    ],
)
def test_a_ply_or_roll_written_with_blanks_in_it_is_joined(tags, movetext, written, meant):
    """A historian typed `e3 - c3`, `e3 c3` or `63 :` (found by new-user-13): no suggestion in the tafl games,
    in Latrunculi `@a1`, a placement, in Laquet `63.`, a move number; what was meant is the ply or
    the roll joined, and --keep-going reads it so."""
    (diagnostic,) = check(f"{tags}\n{movetext}\n").diagnostics
    assert (diagnostic.rule, diagnostic.text, diagnostic.suggestions) == ("syntax", written, (meant,))
    assert unplied(check(f"{tags}\n{movetext}\n", keep_going=True).diagnostics) == [diagnostic]


def test_two_squares_apart_in_a_game_of_placements_are_a_placement_first():
    """`a1 b2` in Latrunculi's placement phase: the square alone is a placement (`@a1`), tried
    before the two squares joined as a move (`a1-b2`)."""
    diagnostic = check(f"{SENECA}\n1. a1 b2 *\n").diagnostics[0]
    assert (diagnostic.rule, diagnostic.text, diagnostic.suggestions) == ("syntax", "a1", ("@a1",))


@pytest.mark.parametrize("rules", ["", '\n[Rules "removal=before-move"]'])
@pytest.mark.parametrize("movetext", ["1. ~a1 g1-g2 *", "~a1 g1-g2 *", "1. ~a1\tg1-g2 *"])
def test_a_removal_written_before_its_move_goes_after_it(rules, movetext):
    """Under removal=before-move the incitus goes before the move, and a historian wrote it so (found by
    new-user-13): the notation writes it after the move, whatever the option; a tab between them too (h80b)."""
    tags = f'{SENECA}{rules}\n[Position "6pp/8/8/8/8/8/8/II4PP w"]'
    (diagnostic,) = check(f"{tags}\n{movetext}\n").diagnostics
    written = movetext.removeprefix("1. ").removesuffix(" *")
    assert (diagnostic.rule, diagnostic.text, diagnostic.suggestions) == ("syntax", written, ("g1-g2~a1",))
    assert unplied(check(f"{tags}\n{movetext}\n", keep_going=True).diagnostics) == [diagnostic]


@pytest.mark.parametrize("word", ["xc4", "!?"])
def test_a_capture_list_or_a_suffix_before_the_first_move_is_not_moved_after_it(word):
    """Only a removal is written before its move (removal=before-move); a capture list or a suffix no ply
    comes before is no slip of a known habit: said where it is, with no suggestion."""
    (diagnostic,) = check(f"{TABLUT}\n1. {word} e3-c3 *\n").diagnostics
    assert (diagnostic.rule, diagnostic.text, diagnostic.suggestions) == ("syntax", word, ())


@pytest.mark.parametrize(
    "written, text, meant",
    [
        ("41: pass", "41: pass", "41: --"),
        ("41: Pass", "41: Pass", "41: --"),
        ("41: -", "41: -", "41: --"),
        ("41: —", "41: —", "41: --"),  # a word processor's dash for --
        ("41: ———", "41: ———", "41: --"),  # dashes the syntax does not read: said at the roll
        ("41: —— ——", "41: —— ——", "41: --"),
        ("41: - -", "41: - -", "41: --"),
        ("41: ---", "---", "--"),
        ("41: -- --", "-- --", "--"),  # once per die
        ("4–1:---", "4–1:---", "4-1: --"),  # the dashes mended as a pass do not read: the usual mending does
        ("41:\tpass", "41:\tpass", "41:\t--"),  # the blank after the roll kept as written (h80b)
    ],
)
def test_a_laquet_roll_with_nothing_played_written_otherwise_gets_its_pass(written, text, meant):
    """A transcriber writes a roll that cannot be played as the book or a habit has it: `--` is meant."""
    (diagnostic,) = check(f"{LAQUET}\n1. 63: 5/11 1/4 {written} *\n").diagnostics
    assert (diagnostic.rule, diagnostic.text, diagnostic.suggestions) == ("syntax", text, (meant,))


@pytest.mark.parametrize(
    "movetext, text, meant",
    [
        ("1. 64: 5-11 5-9 >64: 1/5 *", "64: 5-11 5-9", "64: 5/11 5/9"),
        ("1. 5/11 5/9 >64: 1/5 *", "5/11 5/9", "64: 5/11 5/9"),
    ],
)
def test_a_laquet_ply_mended_ends_before_the_group_after_it(movetext, text, meant):
    """A ply's words, mended (plays with hyphens, a roll left out), end at a > group, the opponent's: the group is
    no play of the ply (h80b: `>.*` dropped from `_STOP` took it into the ply, or offered nothing)."""
    (diagnostic,) = check(f"{LAQUET}\n{movetext}\n").diagnostics
    assert (diagnostic.rule, diagnostic.column, diagnostic.text, diagnostic.suggestions) == (
        "syntax",
        4,
        text,
        (meant,),
    )


def test_keep_going_reads_past_laquet_plays_written_with_hyphens():
    syntax, illegal = check(f"{LAQUET}\n1. 63: 5-11 1-4 41: 6/10 6/7 2. 63: 5/12 *\n", keep_going=True).diagnostics
    assert (syntax.rule, syntax.suggestions) == ("syntax", ("63: 5/11 1/4",))
    assert (illegal.rule, illegal.ply, illegal.assumed) == ("Q3", 3, ("line 2: 63: 5/11 1/4 for 63: 5-11 1-4",))


def test_keep_going_assumes_for_a_diagnostic_only_the_slips_read_past_before_it():
    """An illegal ply before a slip does not rest on the slip's fix (docs/slips.md: every later diagnostic)."""
    report = check(f"{TABLUT}\n1. e3-d2 d1-d3 2. e4-e3 !? e2-e1 *\n", keep_going=True)
    assert [(d.rule, d.column, d.assumed) for d in report.diagnostics] == [
        ("T2", 4, ()),
        ("T2", 10, ("move 1, White: e3-d3",)),
        ("syntax", 19, ()),
        ("T2", 28, ("line 2: e4-e3!? for e4-e3 !?", "move 1, White: e3-d3", "move 1, Black: d1-d2")),
    ]


def test_a_zero_zero_result_offers_a_draw_or_an_unfinished_game():
    (diagnostic,) = check(f"{TABLUT}\n1. e3-c3 d1-d3 0-0\n").diagnostics
    assert diagnostic.suggestions == ("1/2-1/2", "*")


def test_what_is_no_known_slip_gets_no_suggestion():
    (diagnostic,) = check(f"{TABLUT}\n1. e3-c3 e4 *\n").diagnostics
    assert diagnostic.message.startswith("found 'e4', expected a ply") and diagnostic.suggestions == ()
    (diagnostic,) = check(f"{LAQUET}\n1. e3c3 *\n").diagnostics  # no such ply in Laquet
    assert diagnostic.suggestions == ()


def test_a_record_cut_short_inside_a_variation_is_said_so_where_the_variation_begins_and_checked():
    """The main line's cut word was said "is it cut short?", and its plies before it checked; one inside
    a variation not closed was said a plain syntax error, and nothing of the record checked."""
    diagnostics = check(f"{TABLUT}\n1. e3-c3 e4-b4 (1... e4-b4 2. e4-\n").diagnostics
    assert [(d.rule, d.line, d.column) for d in diagnostics] == [("syntax", 2, 31), ("T1", 2, 10), ("T1", 2, 22)]
    assert diagnostics[0].message == (
        "found 'e4-', expected a ply, a move number, a comment, a NAG, a variation or ')'; the variation begun at "
        "line 2, column 16 is not closed with ')'; the record ends there, without a result marker: is it cut short?"
    )


@pytest.mark.parametrize(
    ("movetext", "first"),
    [
        ("1. e3-c3 e4-b4 (1... e4-", (2, 22)),  # cut at its only ply
        ("1. e3-c3 e4-b4 (", (2, 17)),  # begun and no more: no marker
        ("1. e3-c3 e4-b4 (1... d1-d3 ( {a note} 2. ", (2, 41)),
    ],
)
def test_a_variation_with_no_ply_left_at_the_end_is_left_out_not_closed_empty(movetext, first):
    """Closed with `)`, it was an empty variation: a second syntax error, at its move number or at a line past the
    record's end, and none of its plies checked."""
    said = [(d.rule, d.line, d.column) for d in check(f"{TABLUT}\n{movetext}\n").diagnostics]
    assert said == [("syntax", *first), ("T1", 2, 10)]


@pytest.mark.parametrize(("cut", "column"), [("", 39), (" 2. e4-", 43)])  # no marker; cut short
def test_a_record_that_ends_inside_nested_variations_has_each_closed_and_their_plies_checked(cut, column):
    """One `)` for each variation open: with one only, the text did not parse and no ply was checked."""
    said = [(d.rule, d.column) for d in check(f"{TABLUT}\n1. e3-c3 d1-d3 (1... d1-d2 (1... e4-e3{cut}\n").diagnostics]
    assert said == [("syntax", column), ("T1", 34)]


def test_a_laquet_record_cut_at_a_roll_inside_a_variation_says_where_the_variation_begins():
    (cut,) = check('[Game "laquet"]\n1. 64: 5/11 4/8 61: 6/12 6/7 (1... 62: 6/\n').diagnostics
    assert (cut.line, cut.column, cut.message) == (
        2,
        36,
        "found '62:': a roll is followed by its plays, or -- when none can be played; the variation begun at line 2, "
        "column 30 is not closed with ')'; the record ends there, without a result marker: is it cut short?",
    )


def test_a_closing_parenthesis_is_expected_only_inside_a_variation():
    (outside,) = check(f"{TABLUT}\n1. e3-c3 d1-d3 0-0\n").diagnostics
    assert outside.message == (
        "found '0-0', expected a ply, a move number, a comment, a NAG, a variation "
        "or a result marker (1-0, 0-1, 1/2-1/2, *)"
    )
    inside = check(f'{TABLUT}\n[Event "a (b"]\n1. e3-c3 {{ ( }} (d1-d3 0-0 d9-d8)\n*\n').diagnostics[0]
    assert inside.message == "found '0-0', expected a ply, a move number, a comment, a NAG, a variation or ')'"


def unplied(diagnostics: list) -> list:
    """Diagnostics of `check(…, keep_going=True)` as `check` says them: without the ply and move of the slips
    read past (test_keep_going_says_a_slip_at_the_ply_its_reading_is), nor what their message says they are read
    as, which must be their one suggestion (test_the_cli_shows_the_suggestion_under_the_slip)."""
    return [replace(d, ply=None, move="", message=without_reading(d)) if d.rule == "syntax" else d for d in diagnostics]


def without_reading(diagnostic) -> str:
    """The message of a slip --keep-going read past, without what it says the slip is read as (its one
    suggestion); a message that says another reading, as it is."""
    said = f"; --keep-going reads it as {diagnostic.suggestions[0]}" if len(diagnostic.suggestions) == 1 else None
    return diagnostic.message.removesuffix(said) if said else diagnostic.message


SLIPS = f"{TABLUT}\n1. e3c3 d1-d3 2. e4-e3 !? d3-d2 3. c5–c4 d1-d2 1:0\n"


def test_without_keep_going_the_first_slip_stops_the_record():
    assert [(d.rule, d.column, d.suggestions) for d in check(SLIPS).diagnostics] == [("syntax", 4, ("e3-c3",))]


def test_keep_going_reads_past_every_slip_and_replays_what_was_meant():
    found = [(d.rule, d.column, d.suggestions, d.assumed) for d in check(SLIPS, keep_going=True).diagnostics]
    assert found == [
        ("syntax", 4, ("e3-c3",), ()),
        ("syntax", 18, ("e4-e3!?",), ("line 2: e3-c3 for e3c3",)),  # at e4-e3 !?, what the suggestion replaces
        ("T2", 27, ("e2-d2",), ("line 2: e3-c3 for e3c3", "line 2: e4-e3!? for e4-e3 !?")),  # d3 was captured
        ("syntax", 36, ("c5-c4",), ("line 2: e3-c3 for e3c3", "line 2: e4-e3!? for e4-e3 !?")),
        (
            "T2",
            42,
            ("d2-d1", "d2-d3", "e1-d1"),
            (
                "line 2: e3-c3 for e3c3",
                "line 2: e4-e3!? for e4-e3 !?",
                "line 2: c5-c4 for c5–c4",
                "move 2, Black: e2-d2",
            ),
        ),  # placed in the line as written; the 1-0 further on is no ground for it
        ("syntax", 48, ("1-0",), ("line 2: e3-c3 for e3c3", "line 2: e4-e3!? for e4-e3 !?", "line 2: c5-c4 for c5–c4")),
    ]


def test_keep_going_places_later_diagnostics_in_the_text_as_written():
    report = check(f"{TABLUT}\n1. e3c3 d1-d3 2. e4-e3xd3 a4-b3 *\n", keep_going=True)
    assert [(d.rule, d.line, d.column, d.text) for d in report.diagnostics] == [
        ("syntax", 2, 4, "e3c3"),
        ("T2", 2, 27, "a4-b3"),
    ]


def test_keep_going_stops_at_a_slip_with_no_single_fix():
    report = check(f"{TABLUT}\n1. e3c3 d1-d3 0-0\n", keep_going=True)
    assert [(d.rule, d.suggestions) for d in report.diagnostics] == [
        ("syntax", ("e3-c3",)),
        ("syntax", ("1/2-1/2", "*")),
    ]
    assert not report.valid


def test_the_cli_shows_the_suggestion_under_the_slip():
    result = CliRunner().invoke(main, ["validate", "--keep-going", "-"], input=f"{TABLUT}\n1. e3c3 d1-d3 *\n")
    assert result.output.splitlines()[:3] == [
        "<stdin>:2:4: error[syntax]: move 1, White: found 'e3c3', expected a ply, a move number, a comment, a NAG, "
        "a variation or a result marker (1-0, 0-1, 1/2-1/2, *); --keep-going reads it as e3-c3",  # (note79)
        " 2 | 1. e3c3 d1-d3 *",
        "   |    ^^^^ did you mean e3-c3?",
    ]
    assert result.exit_code == 1


@pytest.mark.parametrize(
    "text, later",
    [
        (f'{SENECA}\n[Position "6pp/8/8/8/8/8/P7/P6P w"]\n1. a1a3 *\n', ("S2", 1)),  # a1-a3: a step too long
        (f"{DUX}\n1. e1xe3 *\n", ("X2", 1)),  # e1-e3: over the dux on e2
        (f"{LAQUET}\n1. 6–3: 5/11 1/4 41: 6/10 6/7 2. 63: 5/12 *\n", ("Q3", 3)),  # the third turn, replayed
        (f"{LAQUET}\n1. 63 5/11 1/4 41: 6/10 6/7 2. 63: 5/12 *\n", ("Q3", 3)),
    ],
)
def test_keep_going_reads_past_a_slip_in_every_game(text, later):
    syntax, illegal = check(text, keep_going=True).diagnostics
    assert syntax.rule == "syntax" and len(syntax.suggestions) == 1
    assert (illegal.rule, illegal.ply) == later and illegal.assumed[0].endswith(f"for {syntax.text}")


def test_keep_going_reads_past_at_most_max_slips():
    from lusoria.validator.replay import MAX_SLIPS

    movetext = " ".join(["e3c3 d1d2 c3e3 d2d1"] * 26)  # 104 slips, legal once mended
    report = check(f"{TABLUT}\n{movetext} *\n", keep_going=True)
    assert [d.rule for d in report.diagnostics] == ["syntax"] * (MAX_SLIPS + 1)
    assert len(report.diagnostics[-1].assumed) == MAX_SLIPS and report.record is None
    read = [d.message.endswith(f"; --keep-going reads it as {d.suggestions[0]}") for d in report.diagnostics]
    assert read == [True] * MAX_SLIPS + [False]  # (the last one stops the record: read as nothing)


def test_a_mended_slip_moves_only_the_columns_of_its_own_line():
    report = check(f"{TABLUT}\n\n1. e3c3 d1-d3\n2. e4-e3 a4-b3 *\n", keep_going=True)
    assert [(d.rule, d.line, d.column, d.ply) for d in report.diagnostics] == [("syntax", 3, 4, 1), ("T2", 4, 10, 4)]


def test_keep_going_says_a_slip_at_the_ply_its_reading_is():
    """Newcomer-55b: a slip read as it meant is replayed as a ply, but its syntax error had no ply (JSON `null`,
    no move said); each has the ply and move of its reading, a slip that is no ply (the result) none."""
    said = [(d.rule, d.ply, d.move, d.text) for d in check(SLIPS, keep_going=True).diagnostics if d.rule == "syntax"]
    assert said == [
        ("syntax", 1, "move 1, White", "e3c3"),
        ("syntax", 3, "move 2, White", "e4-e3 !?"),
        ("syntax", 5, "move 3, White", "c5–c4"),
        ("syntax", None, "", "1:0"),
    ]
    assert [d.ply for d in check(SLIPS).diagnostics] == [None]  # not read past: not replayed


def test_a_mended_slip_on_the_line_after_a_leading_blank_line_keeps_its_line_and_columns():
    report = check('\n[Game "tablut"] 1. e3c3 d1-d3 2. e4-e3xd3 a4-b3 *\n', keep_going=True)
    assert [(d.rule, d.line, d.column, d.text, d.assumed) for d in report.diagnostics] == [
        ("syntax", 2, 20, "e3c3", ()),
        ("T2", 2, 43, "a4-b3", ("line 2: e3-c3 for e3c3",)),
    ]


def test_an_illegal_mended_ply_is_placed_where_it_was_written():
    report = check(f"{TABLUT}\n\n1. e3-c3 a4-b3 !? *\n", keep_going=True)  # mended shorter: a4-b3!?
    assert [(d.rule, d.line, d.column, d.ply) for d in report.diagnostics] == [
        ("syntax", 3, 10, 2),  # a4-b3 !?, which its suggestion replaces, the ply its reading is
        ("T2", 3, 10, 2),
    ]


def test_a_word_longer_than_a_hand_writes_is_not_mended():
    """A slip is a word as written by hand: one of 64 characters is still mended, a longer one
    is not even read (a 4 MB move number once cost seconds per command, scanned char by char)."""
    from lusoria.notation.slips import slip_fixes

    number = "1" * 64
    assert slip_fixes(f"{number} e3-c3 *", 1, 1, "tablut") == [(0, 64, number + ".")]
    assert slip_fixes(f"{number} e3-c3 *", 1, 64, "tablut") == [(0, 64, number + ".")]
    assert slip_fixes(f"{number}1 e3-c3 *", 1, 1, "tablut") == []
    assert slip_fixes(f"{number}1 e3-c3 *", 1, 65, "tablut") == []


def test_a_suffix_that_parts_a_ply_at_the_start_of_the_text_moves_after_the_whole_ply():
    """A record read with `--game`, no tag and no move number before its first ply (`validate --game laquet`):
    the roll the suffix is written on begins the text, and the fix takes all of it (h80b: `first > 0` made
    `first > 1` left its first digit out, `4: 5/11 5/9!`)."""
    from lusoria.notation.slips import slip_fixes

    assert slip_fixes("64:! 5/11 5/9 *\n", 1, 6, "laquet") == [(0, 13, "64: 5/11 5/9!")]
    assert slip_fixes("64:! 5/11 5/9 *", 1, 6, "laquet") == [(0, 13, "64: 5/11 5/9!")]  # (no character before it)
    assert slip_fixes("1. 64:! 5/11 5/9 *\n", 1, 9, "laquet") == [(3, 16, "64: 5/11 5/9!")]
    assert slip_fixes("e4-e3 xd3 *", 1, 7, "tablut") == [(0, 9, "e4-e3xd3")]  # (a capture list apart: `_attached`)


def test_a_place_past_the_end_of_its_line_has_no_fix():
    """Not the slip on the next line, which a column past the end would reach in the whole text."""
    from lusoria.notation.slips import slip_fixes

    text = '[Game "tablut"]\n1. e3c3 d1-d3 *'
    assert slip_fixes(text, 2, 4, "tablut") == [(19, 23, "e3-c3")]
    assert (
        slip_fixes(text, 1, 20, "tablut") == slip_fixes(text, 1, 0, "tablut") == slip_fixes(text, 3, 1, "tablut") == []
    )


@pytest.mark.parametrize(
    "text, line, column, meant",
    [
        ('[Game "tablut"]\n1. e3-c3 d1-d3 2. e4-e3 xd3 *', 2, 25, (34, 43, "e4-e3xd3")),  # a detached capture list
        ('[Game "tablut"]\n1. e3-c3 d1-d3 2 e4-e3 *', 2, 16, (31, 32, "2.")),  # a move number without its dot
    ],
)
def test_each_fix_of_a_slip_is_parsed_once(monkeypatch, text, line, column, meant):
    """Whether a fix reads on is a parse of the whole record: a detached suffix's fixes were
    checked twice, and so were a move number's (each read to its end, then checked)."""
    from lusoria.notation import slips

    parsed = []
    read_to = slips._read_to

    def counted(text, fix, game):
        parsed.append(fix)
        return read_to(text, fix, game)

    monkeypatch.setattr(slips, "_read_to", counted)
    assert slips.slip_fixes(text, line, column, "tablut") == [meant]
    assert len(parsed) == len(set(parsed)) > 0


@pytest.mark.parametrize(
    "text, line",
    [
        ('[Game "tablut"]\n[White "Jens Holm"\n[Black "Olof Berg"]\n\n1. e3-c3 *\n', 2),
        ('[Game "tablut"]\n[White "Jens Holm"  \n\n1. e3-c3 *\n', 2),  # blanks after its value: the ] goes before
        ('[Game "tablut"\n[White "Jens Holm"]\n\n1. e3-c3 *\n', 1),  # the Game tag itself: closed, it names the game
    ],
)
def test_a_tag_without_its_closing_bracket_is_closed_after_its_value(text, line):
    written = text.split("\n")[line - 1].rstrip()
    report = check(text)
    [diagnostic] = report.diagnostics
    assert (diagnostic.rule, diagnostic.line, diagnostic.column, diagnostic.text) == ("syntax", line, 1, written)
    assert diagnostic.message.startswith('this tag is not written [Name "value"]: ')
    assert diagnostic.suggestions == (f"{written}]",)
    kept_going = check(text, keep_going=True)  # read past it, as closed: the record is replayed
    assert unplied(kept_going.diagnostics) == [diagnostic] and kept_going.record.tags["White"] == "Jens Holm"
    assert kept_going.plies == 1


@pytest.mark.parametrize(
    "wrapped, value",
    [
        ('[White "Jens\nHolm"]', "Jens Holm"),
        ('[Site "the long hall of the museum of  \r\n   the north"]', "the long hall of the museum of the north"),
        ('[White "Jens\n"]', "Jens"),
        ('[White "Jens\r\nHolm"]\r', "Jens Holm"),  # (a file of CRLF line ends)
        # a web address or a path holds no blank the wrap took (review81)
        ('[Site "the club at https://example.org/games?\nround=3"]', "the club at https://example.org/games?round=3"),
        ('[Site "www.example.org/games?\nround=3"]', "www.example.org/games?round=3"),
        ('[Site "see example.org\n/tafl"]', "see example.org/tafl"),
        ('[Annotator "C:/games/\r\nround3"]\r', "C:/games/round3"),
        ('[Site "https://example.org/ \r\nthe hall"]\r', "https://example.org/ the hall"),  # (the break after a blank)
        ('[Site "see https://example.org\nfor the rules"]', "see https://example.org for the rules"),  # (review82: a
        ('[Site "www.example.org\nhall 3"]', "www.example.org hall 3"),  # break after a whole address)
        ('[Site "a/b\nc"]', "a/b c"),
        ('[Site "the hall.\nThen more"]', "the hall. Then more"),  # (no address: its full stop ends a sentence)
        ('[Site "https://example.\norg/tafl"]', "https://example.org/tafl"),
        ('[Site "www.tafl-\nclub.org"]', "www.tafl-club.org"),
    ],
)
def test_a_tag_whose_value_runs_onto_the_next_line_is_offered_on_one_and_the_record_read_on(wrapped, value):
    """h80c: an e-mail client wraps a long tag line; the rest of its value, on the next line, was movetext, and the
    next tag line began another record, "with no Game tag". The record is one, its tag said where written, offered on
    one line, and the record read on with it (its plies checked: e4-b4 crosses e.g. d4's Swede)."""
    text = f'[Game "tablut"]\n{wrapped}\n[Black "Olof Berg"]\n\n1. e3-c3 e4-b4 *\n'
    [read] = split_records([text])
    report = check(text)
    said = [(d.rule, d.line, d.column, d.suggestions) for d in report.diagnostics]
    name = wrapped[1 : wrapped.index(" ")]
    assert said == [("syntax", 2, 1, (f'[{name} "{value}"]',)), ("T1", 6, 10, ("a4-b4",))]
    assert (report.tags[name], report.tags["Black"], report.plies) == (value, "Olof Berg", 2)
    assert report.diagnostics[0].message.startswith(
        'this tag is not written [Name "value"] (its value runs onto the next line, as an e-mail wraps a long one: '
        f"a tag is written on one line): {wrapped.split(chr(10))[0]}"
    )
    assert read.text == text
    indented = text.replace(wrapped, "  " + wrapped)  # (a tag line may begin with blanks: review81b)
    assert [(d.line, d.column) for d in check(indented).diagnostics] == [(2, 3), (6, 10)]
    assert [record.text for record in split_records([indented])] == [indented]
    alone = '[Game "tablut"]\n1. e1-e3 * ; Freja wrote "]\n[Game "tablut"]\n1. e1-e3 *\n'  # (no tag left open above)
    assert [record.line for record in split_records([alone])] == [1, 3]  # (review81: one record, the second lost)


@pytest.mark.parametrize(
    "written",
    [
        "[White “Jens Holm”]",
        "[White «Jens Holm»]",
        '[White"Jens Holm"]',
        "[White 'Jens Holm']",
        "[White „Jens Holm“]",
        "[White ‚Jens Holm‘]",
    ],
)
def test_a_tag_quoted_otherwise_is_quoted_with_straight_quotes_and_the_record_read_on(written):
    """Newcomer-53a: a word processor's quotes (`[White “Alfonso”]`) made the tag line no tag line: the record was cut
    there, the tags after it a record of their own with no Game tag. It is its record's, said with the tag written,
    and the record read on with it (its plies checked in the same run, the archive stores it replayed)."""
    text = f'[Game "tablut"]\n{written}\n[Black "Olof Berg"]\n\n1. e3-c3 e4-b4 *\n'
    report = check(text)
    said = [(d.rule, d.line, d.column, d.suggestions) for d in report.diagnostics]
    assert said == [("syntax", 2, 1, ('[White "Jens Holm"]',)), ("T1", 5, 10, ("a4-b4",))]
    assert (report.tags["White"], report.tags["Black"], report.plies) == ("Jens Holm", "Olof Berg", 2)
    assert report.diagnostics[0].message == f'this tag is not written [Name "value"]: {written}'


def test_each_tag_without_its_closing_bracket_is_said_and_the_record_read_on_with_them_closed():
    """Only the first was said until it was fixed: the record is read on with each closed (they are
    no guess), so that every one is said at its line, and the plies after them are checked."""
    text = '[Game "tablut"]\n[White "Jens Holm"\n[Black "Olof Berg"\n[Event "Cup"]\n\n1. e3-c3 e4-b4 *\n'
    said = [(d.rule, d.line, d.column, d.suggestions) for d in check(text).diagnostics]
    assert said == [
        ("syntax", 2, 1, ('[White "Jens Holm"]',)),
        ("syntax", 3, 1, ('[Black "Olof Berg"]',)),
        ("T1", 6, 10, ("a4-b4",)),
    ]


def test_a_tag_left_open_before_another_on_its_line_is_closed_and_each_said_where_written():
    """`[White "Jens" [Black "Olof"` was one error, its line quoted, no fix, nothing after it checked; `[Event "x"
    [Site "y"]` was told that a `"` inside a value is written `\\"`."""
    text = '[Game "tablut"]\n[White "Jens" [Black "Olof"\n[Event "x" [Site "y"]\n\n1. e3-c3 e4-b4 *\n'
    diagnostics = check(text).diagnostics
    assert [(d.rule, d.line, d.column, d.suggestions) for d in diagnostics] == [
        ("syntax", 2, 1, ('[White "Jens"]',)),
        ("syntax", 2, 15, ('[Black "Olof"]',)),
        ("syntax", 3, 1, ('[Event "x"]',)),
        ("T1", 5, 10, ("a4-b4",)),
    ]
    assert diagnostics[2].message == 'this tag is not written [Name "value"]: [Event "x" [Site "y"]'


def test_a_tag_error_after_a_tag_left_open_on_its_line_is_said_where_written():
    """The tag after the one closed was said a column on (the `]` read in): `sed` at column 26, its fix a column off."""
    text = '[Game "tablut"]\n[White "Jens" [Variant "sed"]\n\n1. e3-c3 d1-d3 *\n'
    said = [(d.rule, d.line, d.column, d.text) for d in check(text).diagnostics]
    assert said == [("syntax", 2, 1, '[White "Jens"'), ("tag", 2, 25, "sed")]
    assert text.splitlines()[1][24:27] == "sed"


@pytest.mark.parametrize("keep_going", [False, True])
@pytest.mark.parametrize(
    "tags, movetext",
    [
        ('[Date "2020.13.45"', "1. e3-c3 d1-d3 ) *"),  # inside the tag closed: no column back
        ('[White "Jens" [White "Jens"', "1. e3-c3 d1-d3 *"),  # two closed, the second one's column once back
        ('[White "Jens" [Variant "sed"] [White "a"]', "1. e3-c3 d1-d3 ) *"),  # a record that does not parse
    ],
)
def test_each_diagnostic_of_a_record_with_tags_left_open_stands_where_its_text_is_written(tags, movetext, keep_going):
    """A column inside a tag closed was put one back; one after it, twice back, or not back where the record did not
    parse (its tags read alone, closed already) or `--keep-going` mended it."""
    text = f'[Game "tablut"]\n{tags}\n\n{movetext}\n'
    lines = text.splitlines()
    placed = [
        (d.text, lines[d.line - 1][d.column - 1 :][: len(d.text)])
        for d in check(text, keep_going=keep_going).diagnostics
    ]
    assert any(rule == "tag" for rule in (d.rule for d in check(text).diagnostics))
    assert [written for written, _ in placed] == [found for _, found in placed]


def test_a_record_that_ends_with_a_tag_left_open_says_its_marker_missing_at_the_end_of_the_line_as_written():
    """The `]` read in moved it one column on, past the end of the line."""
    said = [(d.line, d.column) for d in check('[Game "tablut"]\n[White "Jens" {a note}\n').diagnostics]
    assert said == [(2, 1), (2, 23)]


@pytest.mark.parametrize(
    "tag",
    ['[White "Jens Holm', '[White "Jens Holm" x', '[White "Jens Holm" {a} x', '[White "Jens Holm"]]', '[Game "go"'],
)
def test_only_a_tag_that_a_closing_bracket_makes_whole_is_closed(tag):
    """No quote to close the value, a word after it, a ] too many, a game lusoria does not know: no fix."""
    text = f'[Game "tablut"]\n{tag}\n\n1. e3-c3 *\n' if "Game" not in tag else f"{tag}\n\n1. e3-c3 *\n"
    assert all(d.suggestions == () for d in check(text).diagnostics)


@pytest.mark.parametrize("after", [" {a note}", " ; a note", "{a} {b} ;c"])
def test_a_tag_without_its_closing_bracket_before_a_comment_is_closed_before_the_comment(after):
    """A comment after the tag on its line hid the fix: the `]` goes after the value, the comment stays."""
    text = f'[Game "tablut"]\n[White "Jens Holm"{after}\n\n1. e3-c3 *\n'
    [diagnostic] = check(text).diagnostics
    assert (diagnostic.line, diagnostic.column, diagnostic.text) == (2, 1, '[White "Jens Holm"')
    assert diagnostic.suggestions == ('[White "Jens Holm"]',)
    kept_going = check(text, keep_going=True)
    assert kept_going.record.tags["White"] == "Jens Holm" and kept_going.plies == 1


@pytest.mark.parametrize(
    "movetext, found, meant",
    [
        ("1. 63: 6/12 3>: 5/8 *", "3>:", ">3:"),  # the > after the group's die
        ("1. 54: -- 54>: 1/5 4/9 *", "54>:", ">54:"),  # after both dice
        ("1. 63: 6/12 3:> 5/8 *", "3:>", ">3:"),  # after the colon
    ],
)
def test_a_groups_dice_written_before_its_mark_are_said_so_and_offered_after_it(movetext, found, meant):
    """`3>:` got the generic "expected a ply, …" and no offer: the dice of a > group go after its >."""
    (diagnostic,) = check(f"{LAQUET}\n{movetext}\n").diagnostics
    assert (diagnostic.rule, diagnostic.line, diagnostic.column, diagnostic.text) == (
        "syntax",
        2,
        movetext.index(found) + 1,
        found,
    )
    assert diagnostic.message == f"found '{found}': the dice of a > group are written after its >: {meant}"
    assert diagnostic.suggestions == (meant,)


@pytest.mark.parametrize(
    "movetext, found, column, turn, meant",
    [  # the point after the roll's other play, which leaves a 6: 26 read as 16 (a digit misread)
        ("1. 64: 5/11 5/9 66: 7/13 10/26 *", "10/26", 17, "66: 7/13 10/26", "66: 7/13 10/16"),
        ("1. 52: 10/32 7/12 *", "52:", 4, "52: 10/32 7/12", "52: 10/12 7/12"),  # the first play: 32 as 12 (the 2 left)
        ("1. 42: 10/41 *", "42:", 4, "42: 10/41", "42: 10/14"),  # the digits swapped
        ("1. 64: 5/11 10/26 *", "10/26", 13, None, None),  # the 4 left: no reading of 26 is 14
        ("1. 21: 1/32 *", "21:", 4, None, None),  # 2 and 3 both fit: no one reading
        ("1. 51: 20/25 10/35 *", "51:", 4, None, None),  # 21 and 15 fit, each a play: no one reading
        ("1. 64: 5/8 10/26 *", "10/26", 4, "64: 5/8 10/26", "64: 5/8 10/16"),  # 5/8 moves no die: it leaves none
        # one checker played on through both dice: 40 read as 10, the 3 after the 6 (historian-47)
        ("1. 63: 1/7/40 *", "63:", 4, "63: 1/7/40", "63: 1/7/10"),
        ("1. 63: 1/70/10 *", "63:", 4, "63: 1/70/10", "63: 1/7/10"),  # 70 as 7: the 6 to it, the 3 from it
        ("1. 63: 1/70/16 *", "63:", 4, None, None),  # 7 moves the 6 to it, but 9 from it: no reading
        ("1. 66: 7/13\n10/26 *", "10/26", 4, "66: 7/13\n10/26", "66: 7/13 10/16"),  # the plays over two lines
        ("1. 66:\n7/13 10/26 *", "10/26", 4, "66:\n7/13 10/26", "66: 7/13 10/16"),
        # a > group's plays, read as a roll's are, by the group's dice (historian-48: none were offered)
        ("1. 63: 10/16 >3: 6/29 *", ">3:", 14, ">3: 6/29", ">3: 6/9"),
        ("1. 63: 10/16 >3: 6/31 *", ">3:", 14, None, None),  # no reading of 31 is 3 on from 6
        ("1. 51: -- >51: 1/60/7 *", ">51:", 11, ">51: 1/60/7", ">51: 1/6/7"),  # both dice, one checker
    ],
)
def test_a_laquet_point_off_the_board_is_offered_the_one_reading_that_fits_the_dice(
    movetext, found, column, turn, meant
):
    """`10/26` got no suggestion: the board's points are said, and where one reading of the point (a
    digit changed, left out, or two swapped) moves a die the turn's other plays leave, its turn."""
    (diagnostic,) = check(f"{LAQUET}\n{movetext}\n").diagnostics
    assert diagnostic.rule == "syntax" and diagnostic.message.startswith(f"found '{found}'")
    assert "is not a point of the board (1–24)" in diagnostic.message
    assert (diagnostic.line, diagnostic.column, diagnostic.text) == (2, column, turn or found)
    assert diagnostic.suggestions == ((meant,) if meant else ())


def test_the_dice_a_laquet_play_off_the_board_leaves_are_those_of_the_plays_on_it():
    """`12/27` moves no die: the 1 is left for 5/36's reading 5/6 as the 5 for 27's reading 17, two readings, none
    offered (`12/17 5/6` offered, had 5/6 played the 1); a reading on points 19-24, which no checker enters
    (Q4), is none (h76b: `66: 17/28` read `17/23`)."""
    assert read_points("1. 51: 12/27 5/36 *", 3) == []
    assert read_points("1. 51: 12/27 5/6 *", 3) == [(3, 16, "51: 12/17 5/6")]
    assert read_points("1. 66: 17/28 17/off *", 3) == []
    assert read_points("1. 51: 20/25 10/15 *", 3) == []  # (not 20/21)
    assert [read_points(f"1. 61: {play} 5/6 *", 3) for play in ("13/29", "18/34", "12/28")] == [
        [],  # (not 13/19)
        [],  # (not 18/24)
        [(3, 16, "61: 12/18 5/6")],  # 18, the last point a checker stands on
    ]


def test_a_laquet_play_from_the_first_point_moves_its_die():
    """Point 1 is on the board: `1/2` plays the 1, which leaves the 6 alone for `10/61`'s reading 16
    (had it moved none, 11 would fit the 1 too: two readings, none offered)."""
    assert read_points("1. 61: 1/2 10/61 *", 3) == [(3, 16, "61: 1/2 10/16")]


def test_a_laquet_point_off_the_board_is_read_on_it_alone():
    """A reading is a point of the board (`50/6` is not `0/6`); `0/6` moves no die, so 0 read as 2
    and 26 as 16 are two readings, none offered; a point beside another off the board has no step to read."""
    assert read_points("1. 65: 50/6 *", 3) == []
    assert read_points("1. 64: 0/6 10/26 *", 3) == []
    assert read_points("1. 64: 2/6 10/26 *", 3) == [(3, 16, "64: 2/6 10/16")]
    assert read_points("1. 42: 70/40 *", 3) == []  # (40 as 4 is no step from 70, which is off the board too)
    assert read_points("1. 64: 20/off 10/26 *", 3) == [(3, 19, "64: 20/off 10/16")]  # (off is read as written)


def test_a_laquet_turn_takes_no_plays_from_the_next_line_once_its_dice_are_played():
    """The next line's plays are the next ply's (its roll left out) once the turn's plays make a step for
    each die: `63: 1/7 7/40`⏎`5/11 5/9` was offered `63: 1/7 7/10 5/11 5/9` over both lines, and a turn
    still short of its dice takes the next line's (`63: 1/7`⏎`7/40`)."""
    assert read_points("1. 63: 1/7 7/40\n5/11 5/9 *", 3) == [(3, 15, "63: 1/7 7/10")]
    assert read_points("1. 63: 1/7/40\n5/11 5/9 *", 3) == [(3, 13, "63: 1/7/10")]  # (one play, two steps)
    assert read_points("1. 33: 3/60(2)\n5/11 5/9 *", 3) == [(3, 14, "33: 3/6(2)")]  # (one step, twice)
    assert read_points("1. 63: 1/7\n  7/40\n5/11 5/9 *", 3) == [(3, 17, "63: 1/7 7/10")]
    assert read_points("1. 63: 1/7 7/40\n5/11 5/90 *", 21) == []  # (5/90 in a ply whose roll is left out: no turn's)


def test_a_laquet_bear_off_moves_its_die():
    """Bearing off from p takes 19 - p (Q7): `18/off` plays the 1, so `61: 18/off 12/31` is offered nothing
    (it was offered `12/13`, a second 1), and a checker played on to `off` through a point misread is read
    (`61: 12/81/off`: 81 as 18, the 6 to it and the 1 from it)."""
    assert read_points("1. 61: 18/off 12/31 *", 3) == []
    assert read_points("1. 61: 12/81/off *", 3) == [(3, 16, "61: 12/18/off")]
    assert read_points("1. 61: 12/81/off(2) *", 3) == []  # (the 6 and the 1 played twice)


def test_a_repeated_laquet_play_moves_its_die_each_time():
    """`33: 3/6(2) 10/43` was offered `10/13`, a third 3 of a double played twice; a reading in a repeated
    play moves its die each time too."""
    assert read_points("1. 33: 3/6(2) 10/43 *", 3) == []
    assert read_points("1. 33: 3/6 10/43 *", 3) == [(3, 16, "33: 3/6 10/13")]
    assert read_points("1. 21: 1/30(2) *", 3) == []  # (30 as 3: the 2 played twice, and one 2 thrown)


@pytest.mark.parametrize("word", ["IC.", "CIVIL.", "VX.", "IIIII.", "MIX.", ".", "..."])
def test_words_that_write_no_roman_numeral_are_no_move_number(word):
    """`IC.` or `CIVIL.` is no Roman numeral, subtractive or additive (`IV.`, `IIII.`), nor are a move
    number's dots alone: no number is suggested (`0.`)."""
    (diagnostic,) = check(f"{SENECA}\n1. @d4 @e5 {word} @c3 *\n").diagnostics
    assert (diagnostic.rule, diagnostic.text, diagnostic.suggestions) == ("syntax", word, ())


@pytest.mark.parametrize(
    "header, movetext, word, meant",
    [  # a letter no file of the record's board has: `v` on any, `i` on 7x7 and 8x8, `l` on 11x11, `x` on 19x19
        ('[Game "tablut"]', "iv. e3-c3 *", "iv.", "4."),
        ('[Game "brandubh"]', "i. d1-d2 *", "i.", "1."),
        ('[Game "latrunculi"]\n[Variant "seneca"]', "i. @d4 @e5 ii. @c3 *", "i.", "1."),
        ('[Game "laquet"]', "xiv... 63: 1/7 *", "xiv...", "14..."),  # points, no files
        ('[Game "copenhagen"]', "l. d1-d2 *", "l.", "50."),
        ('[Game "hnefatafl"]\n[Variant "tablut-19x19"]', "xi. f14-f15 *", "xi.", "11."),
        # more than a piece's letter before a file: no square cut short (historian-47; `i` is a file on 9x9)
        ('[Game "tablut"]', "ii. e3-c3 *", "ii.", "2."),
        ('[Game "tablut"]', "iii. e3-c3 *", "iii.", "3."),
        ('[Game "copenhagen"]', "cii. d1-d2 *", "cii.", "102."),
        # the letters before a file are those the game's plies write (historian-48): no incitus in Latrunculi,
        # no commander in a tafl game (`cf4-f5` is a slip for f4-f5 of its own)
        ('[Game "latrunculi"]\n[Variant "seneca"]\n[Board "10x10"]', "ii. @d4 *", "ii.", "2."),
        ('[Game "tablut"]', "ci. e3-c3 *", "ci.", "101."),
        ('[Game "copenhagen"]', "ci. d1-d2 *", "ci.", "101."),
    ],
)
def test_a_lowercase_roman_move_number_is_offered_where_it_can_be_no_squares_file(header, movetext, word, meant):
    """`iv.` got nothing: a lowercase letter is a file on a large tafl board, so only where it is none,
    or where the letters before the last are more than a piece's (`ii.` on 9x9); said as an uppercase
    one is (it got the generic "expected a ply, …")."""
    diagnostic = check(f"{header}\n{movetext}\n").diagnostics[0]
    assert (diagnostic.rule, diagnostic.ply, diagnostic.line, diagnostic.column) == (
        "syntax",
        None,
        2 + header.count("\n"),
        1,
    )
    assert (diagnostic.text, diagnostic.suggestions) == (word, (meant,))
    assert diagnostic.message == (
        f"found '{word}': a move number is written in digits, {meant}, not in Roman numerals"
        f" (a chapter or section of the source numbered {word} goes in a comment: {{ {word} }})"
    )


@pytest.mark.parametrize(
    "header, movetext, word",
    [
        ('[Game "tablut"]', "i. e3-c3 *", "i."),
        ('[Game "latrunculi"]\n[Variant "seneca"]\n[Board "10x10"]', "i. @d4 *", "i."),  # i is a file of 10
        ('[Game "latrunculi"] [Variant "seneca"] [Board "12x8"]', "i. @i4 @d4 *", "i."),  # tags on one line
        ('[Game "laquet"]', "Iv. 63: 1/7 *", "Iv."),  # a numeral in neither case
    ],
)
def test_a_lowercase_roman_move_number_of_the_boards_files_alone_is_offered_nothing(header, movetext, word):
    """`i.` on 9x9 and on a Latrunculi board of 10 files: every letter a file of the board, it may be a
    square cut short; `Iv.`, in two cases, is no numeral."""
    [diagnostic] = check(f"{header}\n{movetext}\n").diagnostics
    assert (diagnostic.rule, diagnostic.text, diagnostic.suggestions) == ("syntax", word, ())
    assert diagnostic.message.startswith(f"found '{word}', expected")


class Wide(Slide):
    """Slide on a board of 27 files: wider than the alphabet, every letter one of its files."""

    name = "wide"

    def diagram(self, position: SlidePosition, last: str | None = None) -> Diagram:
        return Diagram("wide", Squares(27, 1, tuple(f"f{number}" for number in range(27))), {}, {})


def test_a_lowercase_roman_move_number_on_a_board_wider_than_the_alphabet_is_offered_nothing():
    """A plug-in's board of 27 files has every letter for a file: `iv.` may be a square cut short
    (session 47: it was offered `4.`, the board's width beyond 26 read as no file at all)."""
    GAMES.register(Wide)
    try:
        [diagnostic] = check('[Game "wide"]\niv. a1-a2 *\n').diagnostics
    finally:
        GAMES.unregister("wide")
    assert (diagnostic.rule, diagnostic.text, diagnostic.suggestions) == ("syntax", "iv.", ())
    assert diagnostic.message.startswith("found 'iv.', expected")


class Pieces(Slide):
    """Slide whose grammar (written in its test) names a piece `Q` that its play, as Slide's, cannot read."""

    name = "pieces"


def test_a_plug_ins_failure_on_a_reading_lusoria_guessed_leaves_the_records_syntax_error(tmp_path):
    """`qa1-a2`, read `Qa1-a2` (a letter of PIECE), failed in the plug-in's play when the reading was judged
    by the rules: the record said the plug-in failed, on a ply it never wrote, not its syntax error
    (review-48h); a record that writes `Qa1-a2` still says the plug-in failed."""
    Pieces.grammar = tmp_path / "pieces.lark"
    Pieces.grammar.write_text('PLY: PIECE? SQUARE "-" SQUARE\nPIECE: "Q"\nSQUARE: /[a-c][1-3]/\n')
    GAMES.register(Pieces)
    try:
        [guessed] = check('[Game "pieces"]\n1. qa1-a2 *\n').diagnostics
        [written] = check('[Game "pieces"]\n1. Qa1-a2 *\n').diagnostics
    finally:
        GAMES.unregister("pieces")
    assert (guessed.rule, guessed.text, guessed.suggestions) == ("syntax", "qa1-a2", ("Qa1-a2",))
    assert guessed.message.endswith("result marker (1-0, 0-1, 1/2-1/2, *)")
    assert (written.rule, written.message.startswith("the pieces game failed: ")) == ("plug-in", True)


@pytest.mark.skipif(accelerator.compiled(), reason="a compiled module's calls do not go through its patched names")
def test_lusorias_own_failure_judging_a_reading_is_raised_not_hidden(monkeypatch):
    """Only a plug-in's failure on a reading is passed over: one in a built-in game (lusoria's bug) is raised
    as `check` raises it."""

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("lusoria's bug")

    monkeypatch.setattr(GAMES["tablut"], "play", broken)
    with pytest.raises(RuntimeError, match="lusoria's bug"):
        check('[Game "tablut"]\n1. e3c4 *\n')


@pytest.mark.parametrize(
    "record, note",
    [
        (  # no hyphen, and the square no rank or file of e3: the reading breaks T2 at its ply
            '[Game "tablut"]\n1. e3c4 d1-d3 *\n',
            "; read as e3-c4, it breaks T2 there (a piece moves along its rank or file, and c4 is on neither)",
        ),
        (  # the second ply: the record is replayed up to it
            '[Game "tablut"]\n1. e3-c3 d1-d3 2. c3d4 *\n',
            "; read as c3-d4, it breaks T2 there (a piece moves along its rank or file, and d4 is on neither)",
        ),
        ('[Game "tablut"]\n1. e3c3 d1-d3 *\n', ""),  # a legal reading: nothing more said
        ('[Game "tablut"]\n1. e3c4 d1d3 *\n', ""),  # (read on, the next ply breaks the syntax: not judged)
        ('[Game "tablut"]\n1. e3-c4 d1d3 *\n', ""),  # a ply before it breaks the rules: not judged
        (  # read on to the next move number only: the slip after it is not read, and does not stop the note
            '[Game "tablut"]\n1. e3c4 d1-d3 2. c3c4 *\n',
            "; read as e3-c4, it breaks T2 there (a piece moves along its rank or file, and c4 is on neither)",
        ),
    ],
)
def test_a_reading_the_rules_refuse_at_its_ply_is_said_to(record, note):
    """A slip's reading was offered unchecked (`e3c4`: did you mean e3-c4?, which fails at once): the
    message says the rule it breaks there, what that rule's error says, without where the replay stops."""
    diagnostic = check(record).diagnostics[0]
    assert diagnostic.rule == "syntax" and diagnostic.message.startswith(f"found '{diagnostic.text}', expected")
    assert diagnostic.message.endswith("result marker (1-0, 0-1, 1/2-1/2, *)" + note)


def test_keep_going_says_a_refused_reading_once_at_its_ply():
    """--keep-going reads the slip as its one reading and replays it: the rule it breaks is said by the
    replay's error at that ply, not again after the syntax error."""
    syntax, broken = check('[Game "tablut"]\n1. e3c4 d1-d3 *\n', keep_going=True).diagnostics
    assert (syntax.rule, syntax.suggestions, broken.rule, broken.ply, broken.text) == (
        "syntax",
        ("e3-c4",),
        "T2",
        1,
        "e3-c4",
    )
    assert "read as" not in syntax.message


FOUND_0_0 = "found '0-0', expected a ply, a move number, a comment, a NAG, a variation or a result marker (1-0, 0-1, 1/2-1/2, *)"


@pytest.mark.parametrize(
    "result, note, meant",
    [
        (  # the first reading differs from the tag: the next, which agrees with it, is said and offered first
            "*",
            "; read as 1/2-1/2, it breaks result there (the result marker 1/2-1/2 differs from the Result tag (*));"
            " read as *, it breaks none there",
            ("*", "1/2-1/2"),
        ),
        ("1/2-1/2", "", ("1/2-1/2", "*")),  # the first reading agrees with the tag: nothing more said
        (  # neither agrees: the first reading's refusal is said, and the readings stay as they were
            "1-0",
            "; read as 1/2-1/2, it breaks result there (the result marker 1/2-1/2 differs from the Result tag (1-0))",
            ("1/2-1/2", "*"),
        ),
    ],
)
def test_a_refused_reading_is_followed_by_the_next_the_rules_accept(result, note, meant):
    """A historian copied a score that ends `0-0` (a draw, or unfinished) into a record whose Result tag says
    `*`: the validator offered 1/2-1/2 first, unjudged (a result marker's reading was read with one more
    assumed after it, which does not parse). A result marker read is judged as written, and where the rules
    refuse the first reading, the next they accept is said and offered first (historian-49b)."""
    (diagnostic,) = check(f'[Game "tablut"]\n[Result "{result}"]\n\n1. e3-c3 0-0\n').diagnostics
    assert (diagnostic.rule, diagnostic.ply, diagnostic.line, diagnostic.column, diagnostic.text) == (
        "syntax",
        None,
        4,
        10,
        "0-0",
    )
    assert (diagnostic.message, diagnostic.suggestions) == (FOUND_0_0 + note, meant)


FOUND_1 = (
    "found '1', expected a ply, a move number, a comment, a NAG, a variation or a result marker (1-0, 0-1, 1/2-1/2, *)"
)


@pytest.mark.parametrize(
    "movetext, column, found, written, meant",
    [
        ("1. 63: 5/11 1 / 4 *", 13, FOUND_1, "1 / 4", "1/4"),  # blanks about the slash: the error at its first point
        ("1. 63: 5/11 1 /4 41: 6/10 6/7 *", 13, FOUND_1, "1 /4", "1/4"),
        (  # a play over two lines, its line broken after the slash
            "1. 63: 5/11 1/\n4 *",
            13,
            FOUND_1.replace("'1'", "'1/'"),
            "1/\n4",
            "1/4",
        ),
        (  # the turn's first play: the error at its roll
            "1. 63: 5 /11 1/4 *",
            4,
            "found '63:': a roll is followed by its plays, or -- when none can be played",
            "63: 5 /11 1/4",
            "63: 5/11 1/4",
        ),
        (  # a bear-off in capitals with blanks about its slash: joined, then written as the notation has it
            "1. 63: 5/11 14 / OFF *",
            13,
            FOUND_1.replace("'1'", "'14'"),
            "14 / OFF",
            "14/off",
        ),
        (  # the turn's first play a bear-off in capitals, blanks about its slash: the turn mended (the rules
            # refuse the reading, and say why: the note is the reading's)
            "1. 63: 14 / OFF 1/4 *",
            4,
            "found '63:': a roll is followed by its plays, or -- when none can be played; read as 63: 14/off 1/4, it "
            "breaks Q7 there (White may bear off only once all 15 checkers are in quadrant III (13-18); some stand "
            "on 1, 2, 3, 4, 5)",
            "63: 14 / OFF 1/4",
            "63: 14/off 1/4",
        ),
        (  # a play of three points: joined as written first, its roll read from it after
            "1. 63: 5/11 1 / 4 / 10 *",
            13,
            FOUND_1,
            "1 / 4 / 10",
            "1/4/10",
        ),
        (  # a turn whose roll is left out, its first play with a blank before its slash: joined, then rolled
            "1. 5 /11 5/9 *",
            4,
            FOUND_1.replace("'1'", "'5'"),
            "5 /11 5/9",
            "64: 5/11 5/9",
        ),
        (  # a turn whose roll is left out, a play of it with a blank before its slash: joined, then rolled
            "1. 5/11 5 /9 *",
            4,
            FOUND_1.replace("'1'", "'5/11'"),
            "5/11 5 /9",
            "64: 5/11 5/9",
        ),
    ],
)
def test_a_laquet_play_with_blanks_about_its_slash_is_read_joined(movetext, column, found, written, meant):
    """A historian copied `5/11 1 / 4` from a book set with blanks about its slashes: the validator said
    "did you mean 1.?" (a move number), or nothing for `5 /11` or `1/`⏎`4` (historian-49b); `14 / OFF` and a
    turn whose roll is left out (`5/11 5 /9`) still got "14." and nothing (session 50)."""
    (diagnostic,) = check(f"{LAQUET}\n{movetext}\n").diagnostics
    assert (diagnostic.rule, diagnostic.ply, diagnostic.line, diagnostic.column) == ("syntax", None, 2, column)
    assert (diagnostic.message, diagnostic.text, diagnostic.suggestions) == (found, written, (meant,))


@pytest.mark.parametrize(
    "game, movetext, column, written, meant",
    [
        ("laquet", "1. 5 /11 5/9 *", 4, "5 /11 5/9", "64: 5/11 5/9"),  # (its move number the text's first word)
        ("tablut", "1. e3c3 *", 4, "e3c3", "e3-c3"),
        ("tablut", '[Event "Club night"]\n\n1. e3c3 *', 4, "e3c3", "e3-c3"),
    ],
)
def test_a_record_read_in_the_game_given_for_it_gets_that_games_suggestions(game, movetext, column, written, meant):
    """`validate --game laquet` of a record with no Game tag said `found '5'` with no "did you mean": the slips
    were looked for in the game of its Game tag alone (session 52); the line is the text's own."""
    (diagnostic,) = check(RecordText(movetext + "\n", given=(("Game", game),))).diagnostics
    assert (diagnostic.rule, diagnostic.line, diagnostic.column, diagnostic.text) == (
        "syntax",
        movetext.count("\n") + 1,
        column,
        written,
    )
    assert diagnostic.suggestions == (meant,)


def test_the_tags_of_a_record_read_in_the_game_given_are_checked_when_it_does_not_parse():
    """A record with no Game tag, read with --game, that does not parse: its tags are checked with its syntax
    error, as those of a record that names its game are (its Date was not, session 52)."""
    text = RecordText('[Date "2020.13.01"]\n\n1. e3c3 *\n', given=(("Game", "tablut"),))
    assert [(d.rule, d.line, d.message) for d in check(text).diagnostics] == [
        ("tag", 1, "the Date '2020.13.01' names no real day"),
        (
            "syntax",
            3,
            "found 'e3c3', expected a ply, a move number, a comment, a NAG, a variation or a result marker (1-0, 0-1, 1/2-1/2, *)",
        ),
    ]


@pytest.mark.parametrize(
    "movetext, found, written, meant",
    [
        ("1. 63: 5/11 1/\n2. 41: 6/10 6/7 *", "'1/'", "1/", ()),  # the next line's move number is no point
        ("1. 63: 5/11 1 /\n2. 41: 6/10 6/7 *", "'1'", "1", ("1.",)),
    ],
)
def test_a_laquet_play_cut_at_its_slash_is_not_joined_to_the_next_move_number(movetext, found, written, meant):
    """A play cut short at its line's end (`1/`), the next line a move number: read joined, `1/2` was offered
    (`1 /` too, after `1.`), and --keep-going read the `2` of `2.` as its point (review-49s)."""
    (diagnostic,) = check(f"{LAQUET}\n{movetext}\n").diagnostics
    assert (diagnostic.rule, diagnostic.line, diagnostic.column, diagnostic.text) == ("syntax", 2, 13, written)
    assert (diagnostic.message, diagnostic.suggestions) == (FOUND_1.replace("'1'", found), meant)


@pytest.mark.parametrize(
    "tags, movetext, column, found, note, meant",
    [
        (  # an illegal ply in a variation before it: the main line's replay goes on, and refuses the reading
            "",
            "1. e3-c3 (1. e3-e9) e2-e3 2. c3d4 *",
            30,
            "c3d4",
            "; read as c3-d4, it breaks T2 there (a piece moves along its rank or file, and d4 is on neither)",
            ("c3-d4",),
        ),
        (  # an illegal ply of the main line before it: the first reading breaks the tag, the next is not judged
            '\n[Result "*"]',
            "1. e3-e9 e2-e3 0-0",
            16,
            "0-0",
            "; read as 1/2-1/2, it breaks result there (the result marker 1/2-1/2 differs from the Result tag (*))",
            ("1/2-1/2", "*"),
        ),
    ],
)
def test_a_reading_after_an_illegal_ply_is_refused_where_the_rules_say_so_never_accepted(
    tags, movetext, column, found, note, meant
):
    """An illegal ply in a variation before a slip hid what the rules say of its reading (`c3-d4` breaks T2):
    the first error of the report before the reading was taken for the end of the replay. After an illegal
    ply of the main line, no reading is said accepted: the replay stopped before it (review-49s)."""
    [diagnostic] = [d for d in check(f"{TABLUT}{tags}\n\n{movetext}\n").diagnostics if d.rule == "syntax"]
    assert (diagnostic.rule, diagnostic.ply, diagnostic.column, diagnostic.text) == ("syntax", None, column, found)
    assert diagnostic.message == FOUND_0_0.replace("'0-0'", f"'{found}'") + note
    assert diagnostic.suggestions == meant


@pytest.mark.parametrize("movetext, column", [("1. $1 e3-c3 d1-d3 *", 4), ("{ c } $1 1. e3-c3 d1-d3 *", 7)])
def test_a_nag_before_any_ply_is_offered_no_fix_that_leaves_it_there(movetext, column):
    """`$1` and `$1 { c }` were offered, each a NAG still before any ply (review71)."""
    (nag,) = check(f"{TABLUT}\n{movetext}\n").diagnostics
    assert (nag.rule, nag.column, nag.message, nag.suggestions) == ("syntax", column, "a NAG must follow a ply", ())


@pytest.mark.parametrize("after", ["", " *"])
def test_a_move_number_with_no_ply_after_it_is_not_offered_before_the_comment_it_follows(after):
    """`{ c } 2.`, typed before its ply: `2. { c }`, the fix offered (the editor's quick fix), left the number with
    no ply after it, the same error (h71a). A fix that mends one problem and meets another stays offered (`128?`)."""
    (number, *_) = check(f"{TABLUT}\n1. e3-c3 d1-d3 {{ c }} 2.{after}\n").diagnostics
    assert (number.rule, number.column, number.message, number.suggestions) == (
        "syntax",
        22,
        "found the move number 2. with no ply after it",
        (),
    )


@pytest.mark.parametrize(
    ("game", "mark", "ply", "reply"),
    [("copenhagen", "+", "d1-d3", "f4-c4"), ("brandubh", "++", "d1-c1", "d3-c3"), ("hnefatafl", "+", "d1-d3", "")],
)
def test_a_check_mark_after_a_tafl_ply_says_the_game_writes_none_and_is_read_without_it(game, mark, ply, reply):
    """OpenTafl's records and chess players mark a check `+`: after a Copenhagen ply it was a bare syntax
    error, nothing offered (h79a). It says that only Tablut writes it, offers the ply without it, and
    --keep-going reads that."""
    variant = '[Variant "tyr-9x9"]\n' if game == "hnefatafl" else ""
    text = f'[Game "{game}"]\n{variant}\n1. {ply}{mark} {reply} *\n'
    [error] = check(RecordText(text)).diagnostics
    assert (error.rule, error.column, error.suggestions) == ("syntax", 4, (ply,))
    assert error.message == (
        f"found '{mark}': {mark} is an announcement (a king's open line), or a check as OpenTafl marks it, which {game} does not "
        f"write: write {ply} alone"
    )
    kept = check(RecordText(text), keep_going=True)
    assert [p.text for p in kept.record.main.plies] == [ply, *reply.split()]


@pytest.mark.parametrize(
    ("game", "ply", "mark", "annotation"), [("copenhagen", "d1-d3", "+", "!"), ("brandubh", "d1-c1", "++", "?!")]
)
def test_a_check_mark_before_a_chess_players_annotation_is_left_out_and_the_annotation_kept(
    game, ply, mark, annotation
):
    """A chess player writes a check before the annotation (`Qxf7+!`): `d1-d3+!` was a bare syntax error, nothing
    offered (note79). It says the game writes no mark, and offers the ply with its annotation."""
    [error] = check(RecordText(f'[Game "{game}"]\n\n1. {ply}{mark}{annotation} *\n')).diagnostics
    assert (error.rule, error.column, error.text, error.suggestions) == (
        "syntax",
        4,
        f"{ply}{mark}{annotation}",
        (f"{ply}{annotation}",),
    )
    assert error.message == (
        f"found '{mark}{annotation}': {mark} is an announcement (a king's open line), or a check as OpenTafl marks "
        f"it, which {game} does not write: write {ply}{annotation} alone"
    )


@pytest.mark.parametrize(
    ("name", "meant"),
    [
        ("Événement", "Evenement"),
        ("Source-MS", "Source_MS"),
        ("White:", "White"),
        ("1White", "White"),
        ("_Transcriber", "Transcriber"),
        ("Whte:", "White"),  # (a slip of a tag NOTATION.md names)
    ],
)
def test_a_tag_name_written_otherwise_is_offered_as_a_name_and_its_record_replayed(name, meant):
    """h80a: a tag whose name is no tag name (an accent, a hyphen, a colon) got no suggestion, and its record's
    plies were not checked: the name is offered without its marks, each run of other characters an `_`, from its
    first letter (a slip of a tag NOTATION.md names as that tag), and the record is replayed as with it."""
    [tag, illegal] = check(f'[Game "tablut"]\n[{name} "Ludi"]\n\n1. e3-c4 *\n').diagnostics
    assert (tag.rule, tag.line, tag.suggestions) == ("syntax", 2, (f'[{meant} "Ludi"]',))
    assert (illegal.rule, illegal.ply) == ("T2", 1)
    [above] = check(f'[{name} "Ludi"]\n[Game "tablut"]\n\n1. e3-c3 *\n').diagnostics  # (review80: above its Game
    # tag, its reading was judged cut after its line, and said to break `tag`, the record of no Game tag)
    assert above.suggestions == (f'[{meant} "Ludi"]',) and above.message.endswith(f': [{name} "Ludi"]')


def test_a_mended_tablut_ply_keeps_its_announcement_and_a_mark_alone_is_no_ply():
    """review79: the `+` left out after a ply of a game without announcements was left out of Tablut's too
    (`e4e3+` offered `e4-e3`, the Raichi lost, and `--keep-going` read it so); a `+` alone was offered `""`
    (`did you mean ?`) and said as the mark after the word before it (`write 1. alone`)."""
    [mended] = check(RecordText('[Game "tablut"]\n\n1. e3-c3 d1-d3 2. e4e3+ *\n')).diagnostics
    assert (mended.rule, mended.column, mended.suggestions) == ("syntax", 19, ("e4-e3+",))
    [apart] = check(RecordText('[Game "tablut"]\n\n1. e3-c3 + d1-d3 *\n')).diagnostics  # (Tablut writes it)
    assert apart.message.startswith("found '+', expected a ply") and apart.suggestions == ("e3-c3+",)
    [alone] = check(RecordText('[Game "copenhagen"]\n\n1. + *\n')).diagnostics
    assert (alone.rule, alone.column, alone.suggestions) == ("syntax", 4, ())
    assert alone.message.startswith("found '+', expected a ply")
    [apart] = check(RecordText('[Game "latrunculi"]\n\n1. a2-a3 + *\n')).diagnostics
    assert (apart.rule, apart.column, apart.suggestions) == ("syntax", 10, ())
    [numbered] = check(RecordText('[Game "latrunculi"]\n\n1. + *\n')).diagnostics  # (review79b: `write 1. alone`)
    assert numbered.message.startswith("found '+', expected a ply")


@pytest.mark.parametrize(
    "game, movetext, said",
    [
        ("latrunculi", "1. 64: 5/11 5/9 52: 6/8 7/12 *", "64: 5/11 5/9 is a ply of laquet, not of latrunculi"),
        ("laquet", "1. @d4 @e5 *", "@d4 is a ply of latrunculi, not of laquet"),
        ("laquet", "1. e3-c3 d1-d3 *", "e3-c3 is a ply of brandubh, copenhagen, hnefatafl and 2 more, not of laquet"),
        ("tablut", "1. 63: 5/11\n1/4 *", "63: 5/11 is a ply of laquet, not of tablut"),  # (the words of its line)
    ],
)
def test_the_plies_of_another_game_under_a_records_game_tag_are_said_to_be_its(game, movetext, said):
    """h82b: a transcriber who copied the tags of another game's file got a bare syntax error."""
    [error] = check(f'[Game "{game}"]\n{movetext}\n').diagnostics
    assert (error.rule, error.line, error.column) == ("syntax", 2, 4)
    assert error.message.endswith(f" ({said}: is its Game tag right?)")


@pytest.mark.parametrize(
    "game, movetext",
    [
        ("laquet", "1. 63: 5/11 1/4 -- *"),  # a pass: every game's
        ("tablut", "1. e3-c3 * d1-d3 *"),  # its own ply, after the result marker
        ("tablut", "1. e3-c3 zz9 *"),  # no game's
        ("brandubh", "1. b4-b9 *"),  # off the board: said so, though a ply of larger boards
        ("tablut", "1. e3-c3 $ *"),  # no word found
        ("laquet", "1. 64: 5/11 5/9 e3-c3 *"),  # a stray word after a ply of its own (review82)
        ("laquet", "1. 64: 5/11 5/9 {c} 2. @d4 *"),
    ],
)
def test_a_syntax_error_that_is_no_ply_of_another_game_says_nothing_of_one(game, movetext):
    [error] = check(f'[Game "{game}"]\n{movetext}\n').diagnostics
    assert error.rule == "syntax" and "is its Game tag right?" not in error.message


def test_the_plies_of_another_game_are_said_so_after_comments_and_numbers_but_not_under_a_game_given(tmp_path):
    """review82: the hint named "its Game tag" of a record that has none, its game given (`--game`)."""
    [error] = check('[Game "laquet"]\n{from the club\'s sheet} ; copied\n1... @d4 *\n').diagnostics
    assert error.message.endswith(" (@d4 is a ply of latrunculi, not of laquet: is its Game tag right?)")
    (tmp_path / "given.lgn").write_text("1. e3-c3 d1-d3 *\n")
    result = CliRunner().invoke(main, ["validate", "--game", "laquet", str(tmp_path / "given.lgn")])
    assert "found 'e3-c3', expected a ply" in result.output and "Game tag right" not in result.output


def test_a_move_list_read_as_the_game_its_file_names_is_told_of_no_other_game(tmp_path):
    """A record of a move list is read in the game its file's name says, not a Game tag of its own (`game_read_in`
    gives none): the plies of another game are sought in no record's game (an internal error, "unknown game ''")."""
    (tmp_path / "brandubh.txt").write_text("# copenhagen\nf4-f6 h4-h6\n")
    result = CliRunner().invoke(main, ["validate", str(tmp_path / "brandubh.txt")])
    assert (
        result.exit_code == 1
        and "error[syntax]: found 'h4-h6': h4 is not a square of the Brandubh board" in result.output
    )
