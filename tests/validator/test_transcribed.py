"""A historian's transcriptions of Latrunculi and Laquet games (tests/fixtures/transcribed/, written
for these tests), each record with one slip: the first diagnostic names the rule and the ply (or
the line, for the text and the tags), says what was found, and offers what was meant where the
record shows it."""

import pytest
from conftest import ROOT

from lusoria import api

TRANSCRIBED = ROOT / "tests" / "fixtures" / "transcribed"

# per record: rule, ply, line, the first suggestion (None: none), words of the message
LATRUNCULI = [
    ("syntax", None, 9, "@d5", "found 'd5', expected a ply"),  # a placement without its @
    ("L5", 2, 16, None, "the game is already over (White has a single piece left, S5)"),
    ("tag", None, 20, "????.??.??", "a year BC has no place in it: write ????.??.?? and keep '44 BC' in a comment"),
    (
        "S2",
        1,
        30,
        None,
        'd5 is the enemy\'s (a reading that lets it go over either colour says [Rules "jump-over=any"])',
    ),
    ("L5", 1, 37, None, "the game is already over in the Position tag (Black has a single piece left, L4)"),
    ("E2", 6, 44, "d7-d6", "D names a dux, and the petteia variant has none: only the dux variant has one"),
    ("tag", None, 48, "????.??.??", "a century names no year"),
    ("X3", 1, 58, "De2-e6", "the dux on d7 is never captured"),
    ("tag", None, 62, "0040.??.??", "not 'c. 40 AD'"),
]
LAQUET = [
    ("syntax", None, 8, "61: 8/14 6/7", "found '6?:': a roll writes both dice"),
    ("syntax", None, 13, "61: 5/11 5/6", "found '71:': a die shows 1 to 6"),
    ("syntax", None, 18, "5/9 { the six first }", "a comment goes after the whole ply, not between its plays"),
    ("syntax", None, 23, "64: 5/11 5/9", "found '5-11'"),
    ("syntax", None, 28, "33: 3/6(2)", "found '??:'"),
    ("tag", None, 31, "1283.??.??", "not '1283'"),
]

GAP = "a gap in the source? A record has no mark for one: end it with * before the gap"
NO_GAP = "a record has no mark for a gap in its source: end it with * before the gap"
NO_YEAR_0 = "there is no year 0 (1 BC is followed by AD 1)"
LATRUNCULI_FRAGMENTS = [  # a second historian's: fragments, gaps, capture letters
    ("L1", 4, 10, "e6-e3xd3", "the piece captured on d3 is a pawn, not a dux (a dux is never captured, X3)"),
    ("number", 5, 17, None, f"6. is 6 plies ahead, and so is the one after it: {GAP}"),
    ("L1", 1, 24, "c4-d4xd5", "the piece captured on d5 is a pawn, not a dux (the piso variant has none)"),
    ("tag", None, 28, "????.??.??", f"not 'AD 0'; {NO_YEAR_0}"),
    ("syntax", None, 38, None, f"found '[…]': {NO_GAP}"),
]
LAQUET_FRAGMENTS = [
    ("syntax", None, 8, None, "64: 5/11 5/9 has played all its dice, and 5/9 after it is no play of it"),
    ("number", 3, 13, None, f"4. is 4 plies ahead, and so are the 2 move numbers after it: {GAP}"),
    ("tag", None, 16, "????.??.??", f"not '0 BC'; {NO_YEAR_0}"),
    ("syntax", None, 24, None, f"found '...': {NO_GAP}"),
]


@pytest.mark.parametrize(
    "name, expected",
    [
        ("latrunculi.lgn", LATRUNCULI),
        ("laquet.lgn", LAQUET),
        ("latrunculi-fragments.lgn", LATRUNCULI_FRAGMENTS),
        ("laquet-fragments.lgn", LAQUET_FRAGMENTS),
    ],
)
def test_each_slip_of_a_transcription_is_said_with_its_rule_its_place_and_what_was_meant(name, expected):
    verdicts = list(api.validate([TRANSCRIBED / name]))
    assert len(verdicts) == len(expected)
    for verdict, (rule, ply, line, meant, words) in zip(verdicts, expected):
        first = verdict.diagnostics[0]
        assert (first.rule, first.ply, first.line) == (rule, ply, line)
        assert first.suggestions[:1] == ((meant,) if meant else ())
        assert words in first.message


# historian-44's: a Laquet game with dice the opponent plays, a Latrunculi dux game, a Tablut game
# under Linnaeus's rules, each whole (None: valid) and then with one slip a record
THREE_GAMES = [
    None,
    ("syntax", None, 22, "2.", "found 'II.'"),  # the source's Roman numeral
    ("syntax", None, 28, "52: 5/10 10/12", "found '5/10'"),  # the dice not read
    ("syntax", None, 34, None, "and -- after it is no play of it: a pass is a ply of its own, after its roll"),
    # the source's order, > first: the ply as lusoria writes it (historian-45)
    ("syntax", None, 42, "66: 9/15 >6: 3/9", "the > group of the dice the opponent plays comes after them"),
    ("tag", None, 47, None, "not 'AD 0?'"),  # AD 1 to 9: no year 0, no ????.??.?? (review-44h)
    ("syntax", None, 57, "De2-e3", "found 'de2-e3'"),  # the dux's letter in lowercase
    (
        "L1",
        7,
        63,
        "De3-a3xa2",
        "the piece captured on a2 is a pawn, not a dux (a dux is never captured, X3): write xa2",
    ),
    None,
    ("syntax", None, 81, "f1-f3", "found 'F1-F3'"),  # capital squares
    ("number", 11, 87, None, f"7. is 2 plies ahead: {GAP}"),  # a move number alone jumped
]


def test_three_games_transcribed_by_hand_are_valid_whole_and_each_slip_is_said():
    each_slip_is_said("three-games.lgn", THREE_GAMES)


def each_slip_is_said(name: str, expected: list) -> None:
    """Each record of the file `name` is valid (None) or its first diagnostic is as `expected` says:
    rule, ply, line (or line and column), the first suggestion, words of the message."""
    verdicts = list(api.validate([TRANSCRIBED / name]))
    assert len(verdicts) == len(expected)
    for verdict, said in zip(verdicts, expected):
        if said is None:
            assert not verdict.diagnostics
            continue
        rule, ply, place, meant, words = said
        first = verdict.diagnostics[0]
        place = place if isinstance(place, tuple) else (place,)
        assert (first.rule, first.ply, first.line, first.column)[: 2 + len(place)] == (rule, ply, *place)
        assert first.suggestions[:1] == ((meant,) if meant else ())
        assert words in first.message


# historian-45's: a Tablut game, a Latrunculi dux game and a Laquet game, each whole (None: valid) and
# then with ten slips, one a record: rule, ply, (line, column), the first suggestion, words of the message
EXPECTED = "expected a ply, a move number"
DOUBT = "say the doubt in a comment after the ply ({ reading uncertain }; docs/notation.md §3)"
ROMAN = "a move number is written in digits, {}, not in Roman numerals"
HISTORIAN_45 = [
    None,
    ("T1", 1, (18, 4), "e6-c6", "the piece on a6 is Black's, and White is to move"),  # the sides swapped
    ("T4", 9, (23, 64), "c3-d3xd4", "the move captures d4, not e4"),  # the capture's square off by one
    ("T2", 10, (28, 73), None, "there is no piece on d4 (captured by move 5, White: c3-d3xd4)"),  # a capture missed
    ("number", 7, (33, 46), None, "the move number should be 4., not 5."),  # a number off
    ("syntax", None, (38, 25), "a5-a9", "found 'a5-a10': a10 is not a square of any tablut board (a1–i9)"),
    ("syntax", None, (43, 31), "3.", ROMAN.format("3.")),
    ("syntax", None, (48, 79), "6.", f"found '6?': a move number takes no '?': write 6. and {DOUBT}"),
    ("syntax", None, (53, 49), "g4-g3", "found '?g4-g3': a '?' marks no doubt in a ply or a move number"),
    ("syntax", None, (58, 64), "c3-d3xd4", f"found 'xd4', {EXPECTED}"),  # the capture apart from its ply
    ("syntax", None, (63, 19), "g5-g4", f"found 'g5g4', {EXPECTED}"),  # no hyphen
    None,
    ("L0", 1, (77, 4), "De2-e5", "the piece on e8 is Black's, and White is to move"),
    ("L0", 10, (83, 74), None, "there is no piece on d2 (captured by move 5, White: c1-c2xd2)"),
    ("number", 5, (89, 32), None, "the move number should be 3., not 4."),
    ("X2", 7, (95, 50), "b1-b2", "b9 is not on the 8x8 board"),
    ("syntax", None, (101, 80), "6.", ROMAN.format("6.")),
    ("syntax", None, (107, 95), "7.", f"found '7?': a move number takes no '?': write 7. and {DOUBT}"),
    ("syntax", None, (113, 25), "Dd7-f7", f"found 'dd7-f7', {EXPECTED}"),  # the dux's letter in lowercase
    ("X2", 8, (119, 56), "a8-a5", "a8 holds a pawn, not a dux"),  # a pawn named a dux
    ("syntax", None, (125, 65), "c1-c2xd2", f"found 'xd2', {EXPECTED}"),
    ("syntax", None, (131, 35), "h1-h2", f"found 'H1-H2', {EXPECTED}"),  # capital squares
    None,
    ("Q1", 1, (143, 4), None, "7/10: the checkers on point 7 are Black's, and White is to move"),  # the sides swapped
    ("Q3", 1, (148, 4), "43: 2/5 4/8", "(the plays written fit the roll 43: a die misread?)"),
    ("syntax", None, (153, 32), "31: 1/4 8/9", f"found '1/4', {EXPECTED}"),  # the roll left out
    ("number", 5, (158, 57), None, "the move number should be 3., not 4."),
    ("syntax", None, (163, 73), "66: 7/13 10/16", "found '10/26': 26 is not a point of the board (1–24)"),
    ("syntax", None, (168, 29), "2.", ROMAN.format("2.")),
    ("syntax", None, (173, 119), "5.", f"found '5?': a move number takes no '?': write 5. and {DOUBT}"),
    ("syntax", None, (178, 180), "33: 9/12 10/13", "found '3?:': a roll writes both dice"),  # a die unread
    (  # the roll after its plays, as the source writes it
        "syntax",
        None,
        (183, 73),
        "66: 7/13 10/16",
        "found '66:': a roll is followed by its plays, or -- when none can be played: a ply writes its roll "
        "first, and the plays before it are written after it",
    ),
    ("syntax", None, (188, 136), "51: 6/7 6/11", "found '51:': a roll is followed by its plays"),  # plays with hyphens
]


def test_three_games_with_ten_slips_each_say_each_at_its_line_and_column_with_its_rule_ply_and_what_to_write():
    each_slip_is_said("historian-45.lgn", HISTORIAN_45)


# historian-46's: a Laquet game, whole (None: valid), then with one slip a record: rule, ply, (line, column),
# the first suggestion, words of the message
HISTORIAN_46 = [
    None,
    ("syntax", None, (15, 16), "64: 6/10 10/16", "found '10/46': 46 is not a point of the board (1–24)"),
    ("Q3", 5, (23, 62), "31: 5/8 2/3", "the die left is 2 (the plays written fit the roll 31: a die misread?)"),
    ("syntax", None, (32, 1), "4.", ROMAN.format("4.")),
    ("syntax", None, (41, 62), ">3:", "found '3>:': the dice of a > group are written after its >: >3:"),
    ("syntax", None, (47, 31), "2.", f"found '2.?': a move number takes no '?': write 2. and {DOUBT}"),
    ("syntax", None, (56, 70), "63: 5/8 8/14 {p. 12}", "a comment goes after the ply, not between its dice"),
]


def test_a_laquet_game_with_session_46s_slips_offers_each_its_fix():
    each_slip_is_said("historian-46.lgn", HISTORIAN_46)


# historian-47's: historian-45's Tablut game, whole (None: valid), then with one slip a record, and a Laquet
# turn: rule, ply, (line, column), the first suggestion, words of the message
HISTORIAN_47 = [
    None,
    ("syntax", None, (14, 16), "2.", ROMAN.format("2.")),  # `ii.`, where i is a file
    ("syntax", None, (20, 49), "g4-g3", f"found 'g4-', {EXPECTED}"),  # a ply broken over two lines
    ("syntax", None, (27, 4), "63: 1/7/10", "70 is not a point of the board (1–24)"),  # a chained play's stop
]


def test_a_tablut_game_and_a_laquet_turn_with_session_47s_slips_offer_each_its_fix():
    each_slip_is_said("historian-47.lgn", HISTORIAN_47)


# historian-48's: a Latrunculi game on a board of 10 files, a Tablut game and a Laquet game, each whole (None:
# valid), then with one slip a record: rule, ply, (line, column), the first suggestion, words of the message
HISTORIAN_48 = [
    None,
    ("syntax", None, (18, 12), "2.", ROMAN.format("2.")),  # `ii.`, i a file of 10 but no ply's piece letter
    None,
    (  # tabs between the plies (the column counts a tab as one), and a reading the rules refuse
        "syntax",
        None,
        (29, 34),
        "e7-b6",
        "read as e7-b6, it breaks T2 there (a piece moves along its rank or file, and b6 is on neither)",
    ),
    None,
    ("syntax", None, (42, 52), ">22: 5/7 13/15", "51 is not a point of the board (1–24)"),  # a > group's point
    ("syntax", None, (49, 1), "4.", ROMAN.format("4.")),
    ("syntax", None, (54, 62), "31: 5/8 2/3", "found '31:': a roll is followed by its plays"),  # over two lines
]


def test_three_games_with_session_48s_slips_offer_each_its_fix_and_say_a_reading_the_rules_refuse():
    each_slip_is_said("historian-48.lgn", HISTORIAN_48)
