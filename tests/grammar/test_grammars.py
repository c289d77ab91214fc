"""Edges of the grammars (issue 13): what each terminal accepts and refuses, with the line
and column of the syntax error."""

import pytest
from toy_game import Slide

from lusoria.grammar import ply_letters
from lusoria.notation import SyntaxProblem, parse_record
from lusoria.validator.games import GAMES
from lusoria.validator.replay import check


def syntax_error(text: str) -> tuple[int, int, str]:
    with pytest.raises(SyntaxProblem) as caught:
        parse_record(text)
    problem = caught.value
    assert problem.rule == "syntax"
    return problem.line, problem.column, problem.text


def plies(text: str) -> list[tuple[str, str | None, list[int]]]:
    return [(p.text, p.number, p.nags) for p in parse_record(text).main.plies]


TABLUT = '[Game "tablut"]\n'
LAQUET = '[Game "laquet"]\n'
LATRUNCULI = '[Game "latrunculi"]\n'


# -- common.lark -----------------------------------------------------------------------------


@pytest.mark.parametrize("number, column", [("1..", 3), ("1....", 5), (".1.", 1), ("1", 1)])
def test_a_move_number_is_digits_and_one_dot_or_three(number, column):
    assert syntax_error(TABLUT + f"{number} e3-c3 *")[:2] == (2, column)


def test_move_numbers_for_white_and_black():
    assert plies(TABLUT + "1. e3-c3 1... d1-d3 2.e4-e3 *") == [
        ("e3-c3", "1.", []),
        ("d1-d3", "1...", []),
        ("e4-e3", "2.", []),
    ]
    assert plies(TABLUT + "12. e3-c3 *") == [("e3-c3", "12.", [])]


@pytest.mark.parametrize("number", ["10.", "90...", "109.", "0."])
def test_every_digit_in_a_move_number(number):
    assert plies(TABLUT + f"{number} e3-c3 *") == [("e3-c3", number, [])]
    warning = check(TABLUT + f"{number} e3-c3 *").diagnostics[0]
    said = f"the move number should be 1., not {number}"  # (then, past 1., why a record is numbered from 1)
    assert (warning.rule, warning.message.split(" (")[0]) == ("number", said)


@pytest.mark.parametrize("suffix, nag", [("!", 1), ("?", 2), ("!!", 3), ("??", 4), ("!?", 5), ("?!", 6)])
def test_every_suffix_annotation(suffix, nag):
    assert plies(TABLUT + f"1. e3-c3{suffix} d1-d3 *") == [("e3-c3", "1.", [nag]), ("d1-d3", None, [])]


def test_three_suffix_marks_are_not_a_suffix():
    assert syntax_error(TABLUT + "1. e3-c3!!! *") == (2, 11, "!")


@pytest.mark.parametrize("result", ["1-0", "0-1", "1/2-1/2", "*"])
def test_every_result_marker(result):
    record = parse_record(TABLUT + f"1. e3-c3 {result}")
    assert record.result == result and record.result_column == 10


@pytest.mark.parametrize("marker", ["1-1", "1/2", "0-0", "**"])
def test_other_result_markers_are_refused(marker):
    line, column, _ = syntax_error(TABLUT + f"1. e3-c3 {marker}")
    assert line == 2 and column >= 10


def test_tags_comments_nags_and_escapes():
    record = parse_record(
        '[Game "tablut"]\n[Event "A \\"quoted\\" name"]\n[X_1 ""]\n%escaped\n1. e3-c3 $0 $255 {a} ;b\n d1-d3 *'
    )
    assert record.tags == {"Game": "tablut", "Event": 'A "quoted" name', "X_1": ""}
    first, second = record.main.plies
    assert (first.nags, first.comments, second.text) == ([0, 255], ["a", "b"], "d1-d3")


def test_one_letter_tag_names_empty_comments_and_a_bare_escape_line():
    record = parse_record('[X "1"]\n[Game "tablut"]\n%\n{}1. e3-c3 {} d1-d3 ;\n*')
    assert record.tags == {"X": "1", "Game": "tablut"}
    assert record.main.comments == [""] and record.main.plies[0].comments == [""]
    assert record.main.plies[1].comments == [""]


@pytest.mark.parametrize("name", ["Xz", "Zz9_", "a", "zz", "Z"])
def test_tag_names_of_letters_digits_and_underscores(name):
    assert parse_record(f'[Game "tablut"]\n[{name} "v"]\n1. e3-c3 *').tags[name] == "v"


@pytest.mark.parametrize("text", ['[A{ "v"]', '[A: "v"]', '[_A "v"]', '[{ "v"]', '[@A "v"]'])
def test_other_tag_names_are_refused(text):
    (error,) = check(f'[Game "tablut"]\n{text}\n1. e3-c3 *').diagnostics
    assert (error.rule, error.line, error.column) == ("syntax", 2, 1)


def test_nags_of_every_digit():
    record = parse_record(TABLUT + "1. e3-c3 $9 $10 $89 *")
    assert record.main.plies[0].nags == [9, 10, 89]
    assert syntax_error(TABLUT + "1. e3-c3 $: *")[:2] == (2, 10)
    assert syntax_error(TABLUT + "1. e3-c3 $1: *") == (2, 12, ":")  # a NAG is digits only
    assert syntax_error(TABLUT + "1. e3-c3 $ *")[:2] == (2, 10)


@pytest.mark.parametrize("number", ["1:.", ":."])
def test_a_move_number_is_made_of_digits(number):
    assert syntax_error(TABLUT + f"{number} e3-c3 *")[:2] == (2, 1)


def test_a_game_tag_inside_a_comment_is_no_game_tag():
    report = check('{\n[Game "tablut"]\n} 1. e3-c3 *')
    assert [(d.rule, d.message, d.line, d.column) for d in report.diagnostics] == [
        ("tag", "the record has no Game tag", 1, 1)
    ]


def test_a_game_tag_in_another_case_is_named_where_it_stands():
    """Tag names are case-sensitive (NOTATION.md §2): `[game "tablut"]` is no Game tag, and the
    error says so at that tag, not at the record's first line."""
    report = check('[Event "Club"]\n  [GAME "tablut"]\n1. e3-c3 *')
    assert [(d.rule, d.message, d.line, d.column, d.text) for d in report.diagnostics] == [
        ("tag", "the record has no Game tag: tag names are case-sensitive, and 'GAME' is not Game", 2, 4, "GAME")
    ]
    misspelled = check('[Event "Club"]\n[Gmae "tablut"]\n1. e3-c3 *')
    assert [(d.rule, d.message, d.line, d.column, d.text) for d in misspelled.diagnostics] == [
        ("tag", "the record has no Game tag: 'Gmae' is not Game", 2, 2, "Gmae")
    ]
    escaped = check('[Game "tab\\"lut"]\n1. e3-c3 *')  # a Game tag the scan does not read: not a case slip
    assert [(d.rule, d.message, d.line, d.column) for d in escaped.diagnostics] == [
        (
            "tag",
            "the Game tag's value holds a backslash, which no game's name has (known: brandubh, copenhagen,"
            " hnefatafl, laquet, latrunculi, tablut)",
            1,
            2,
        )
    ]  # not told to begin the record with a Game tag, which it has


def test_a_tag_name_starts_with_a_letter():
    assert check('[Game "tablut"]\n[1x "v"]\n1. e3-c3 *').diagnostics[0].rule == "syntax"


def test_a_variation_holds_plies():
    record = parse_record(TABLUT + "1. e3-c3 (1. e3-d3 d1-d2) d1-d3 *")
    assert [p.text for p in record.main.plies[0].variations[0].plies] == ["e3-d3", "d1-d2"]
    assert syntax_error(TABLUT + "1. e3-c3 () d1-d3 *")[:2] == (2, 11)


def test_a_long_run_of_plies_is_read_whole():
    moves = " ".join(["e3-c3 d1-d3 c3-e3 d3-d1"] * 40)  # 160 plies: more than one token's 64
    assert len(parse_record(TABLUT + moves + " *").main.plies) == 160


# -- tablut.lark -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "ply, column",
    [
        ("e3-c3+++", 11),
        ("e3-c0", 4),
        ("j3-c3", 4),
        ("e3-c10", 4),  # off the board: said at the ply's start, naming c10
        ("e3c3", 4),
        ("Qe3-c3", 4),
        ("e3-c3x", 9),
        ("e:-c3", 4),
        ("e3-c:", 4),
    ],
)
def test_tablut_plies_the_grammar_refuses(ply, column):
    assert syntax_error(TABLUT + f"1. {ply} *")[:2] == (2, column)


@pytest.mark.parametrize(
    "ply", ["e3-c3xd3/d4", "e3-c3xKd3/d4", "e3-c3", "Pe3-c3", "e3-c3+", "e3-c3++", "a1-i9", "i9-a1", "e3-c3xd3/Kd4/Pd2"]
)
def test_tablut_plies_the_grammar_accepts(ply):
    assert plies(TABLUT + f"1. {ply} *")[0][0] == ply


def test_the_tablut_pass():
    assert plies(TABLUT + "1. -- *")[0][0] == "--"
    assert check(TABLUT + "1. -- *").diagnostics[0].rule == "T9"


# -- latrunculi.lark -------------------------------------------------------------------------


def test_ranks_10_to_16_on_a_large_board():
    text = LATRUNCULI + '[Board "16x16"]\n1. @a16 @p10 2. @b11 @p1 3. @h12 @i13 4. @j14 @k15 *'
    report = check(text)
    assert report.valid and report.plies == 8
    assert check(LATRUNCULI + '[Board "16x16"]\n1. @a17 *').diagnostics[0].rule == "syntax"
    assert check(LATRUNCULI + '[Board "16x16"]\n1. @q1 *').diagnostics[0].rule == "syntax"
    assert check(LATRUNCULI + '[Board "16x16"]\n1. @a0 *').diagnostics[0].rule == "syntax"


@pytest.mark.parametrize(
    "ply",
    [
        "@d4",
        "d4-d5",
        "De2-e5",
        "Pd4-d5",
        "c3^c5^e5",
        "d4-d5xd6/Dc5",
        "d4-d5~a1",
        "d4-d5xd6~a1#",
        "d4-d5#",
        "@p9",
        "a1^a3",
        "d4-d5xd6/c5",
        "d4-d5xDd6/c5",
    ],
)
def test_latrunculi_plies_the_grammar_accepts(ply):
    assert plies(LATRUNCULI + f"1. {ply} *")[0][0] == ply


@pytest.mark.parametrize(
    "ply",
    [
        "@d4-d5",
        "d4",
        "Kd4-d5",
        "d4-d5x",
        "d4^",
        "d4-d5~",
        "d4-d5##",
        "d4-d5-d6",
        "@q1",
        "d4-d5xd6x",
        "@a:",
        "@a1:",
        "a1-a:",
    ],
)
def test_latrunculi_plies_the_grammar_refuses(ply):
    assert syntax_error(LATRUNCULI + f"1. {ply} *")[0] == 2


# -- laquet.lark -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "ply",
    [
        "33: 5/8(0) 5/8",
        "33: 5/8(1) 5/8(3)",
        "33: 5/8(10)",
        "63: 5/25",
        "63: 0/6",
        "73: 5/12",
        "60: 5/11",
        "63 5/11",
        "63: 5/11 >",
        "63: off/5",
        "63: 5-11",
        "63: 5/11/",
        "633: 5/11",
        "33: 5/8(:)",
        "63: 5/1:",
        "63: 5/:",
        "63: 2:/5",
        "6:3: 5/11",
        "63: 5/11 >:: 6/9",
    ],
)
def test_laquet_plies_the_grammar_refuses(ply):
    assert syntax_error(LAQUET + f"1. {ply} *")[0] == 2


def test_a_repeat_count_of_one_or_none_is_refused_where_it_stands():
    assert syntax_error(LAQUET + "1. 33: 5/8(1) 5/8 *") == (2, 12, "1")
    assert syntax_error(LAQUET + "1. 33: 5/8(0) *") == (2, 12, "0")


@pytest.mark.parametrize(
    "ply, canonical",
    [
        ("33: 5/8(2)", "33: 5/8 5/8"),
        ("22: 2/4(2)", "22: 2/4 2/4"),
        ("6-3: 5/11 5/8", "63: 5/11 5/8"),
        ("36:5/11 5/8", "63: 5/11 5/8"),
        ("63: 5/11/14", "63: 5/11 11/14"),
        ("63: 5/14", "63: 5/11 11/14"),
    ],
)
def test_laquet_plies_the_grammar_accepts(ply, canonical):
    report = check(LAQUET + f"1. {ply} *")
    assert report.valid, report.diagnostics
    assert report.canonical[(0, 0)] == canonical


def test_laquet_points_up_to_24_and_off():
    assert plies(LAQUET + "1. 63: 18/24 *")[0][0] == "63: 18/24"
    assert plies(LAQUET + "1. 63: 13/off 10/19 *")[0][0] == "63: 13/off 10/19"
    assert check(LAQUET + "1. 63: 18/24 *").diagnostics[0].rule == "Q4"


@pytest.mark.parametrize(
    "ply", ["63: 10/16>3: 6/9", "63:10/16 >3:6/9", "63: 14/20", "63: 1/7 1/4", "11: 5/6(9)", "63: 5/8/14", "21: 3/off"]
)
def test_laquet_plies_read_whole(ply):
    assert plies(LAQUET + f"1. {ply} *")[0][0] == ply


# Each place of a Laquet ply's pattern (grammar/laquet.lark writes the point's pattern once per
# place): a play's first point, its second, a third, the same in a later play, a repeat count
POINT_PLACES = ["63: {}/5", "63: 5/{}", "63: 5/8/{}", "63: 3/4 {}/5", "63: 3/4 5/{}", "63: 3/4 5/8/{}"]
REPEAT_PLACES = ["33: 5/8({})", "33: 3/6 5/8({})"]
DIE_PLACES = ["{}3: 5/8", "6{}: 5/8", "6-{}: 5/8", "63: 5/8 >{}: 6/9", "63: 5/8 >3{}: 6/9", "63: 5/8 >3-{}: 6/9"]
# what each place takes, and what it refuses
PLACES = [
    (POINT_PLACES, range(1, 25), ("0", "25", "1:", "2:", ":")),
    (REPEAT_PLACES, range(2, 10), ("0", "1", ":", "10")),
    (DIE_PLACES, range(1, 7), ("0", "7", ":")),
]


@pytest.mark.parametrize("place, taken", [(place, taken) for places, taken, _ in PLACES for place in places])
def test_every_point_repeat_count_and_die_reads_in_every_place_of_a_ply(place, taken):
    for value in taken:
        assert plies(LAQUET + f"1. {place.format(value)} *")[0][0] == place.format(value)


def test_what_each_place_of_a_laquet_ply_refuses_and_where_the_error_is(snapshot):
    """(line, column, text) of the syntax error: the ply in a first play or roll, the play in a later one."""
    assert {
        place: {value: syntax_error(LAQUET + f"1. {place.format(value)} *") for value in refused}
        for places, _, refused in PLACES
        for place in places
    } == snapshot


@pytest.mark.parametrize("play", ["5/110", "5/30", "5/11a", "5/11/", "5/11-"])
def test_a_laquet_point_ends_where_the_play_does(play):
    assert syntax_error(LAQUET + f"1. 63: {play} *")[:2] == (2, 4)
    assert syntax_error(LAQUET + f"1. 63: 3/4 {play} *") == (2, 12, play)  # a later play: the error is the play


def test_laquet_leftover_groups():
    assert plies(LAQUET + "1. 63: 10/16 >3: 6/9 *")[0][0] == "63: 10/16 >3: 6/9"
    assert plies(LAQUET + "1. 63: 10/16 > 31: -- *")[0][0] == "63: 10/16 > 31: --"
    assert plies(LAQUET + "1. 11: -- *")[0][0] == "11: --"


# -- the letters a ply names a piece with (grammar.ply_letters) ---------------------------------------


@pytest.mark.parametrize(
    "written",
    ['PIECE: "P" | "Q"', 'PIECE.2 : "P" | "Q"', 'PIECE: "P"\n    | "Q"', 'PIECE.-1 :\n    "P"\n  | "Q"'],
)
def test_the_letters_a_ply_names_pieces_with_are_read_from_piece_as_lark_takes_it(tmp_path, written):
    """A plug-in's PIECE with a priority, blanks before its colon or its letters on the indented lines after
    (as lark reads it) gave no letters: the slips offered no `Qa1-a2` for `qa1-a2` (review-48h)."""
    grammar = tmp_path / "pieces.lark"
    grammar.write_text(f'PLY: PIECE? SQUARE "-" SQUARE\n{written}\nSQUARE: /[a-c][1-3]/\nOTHER: "R"\n')

    class Pieces(Slide):
        name = "pieces"

    Pieces.grammar = grammar
    GAMES.register(Pieces)
    try:
        letters = ply_letters("pieces")
        [ply] = parse_record('[Game "pieces"]\n1. Qa1-a2 *\n').main.plies  # (lark reads the grammar so)
    finally:
        GAMES.unregister("pieces")
    assert (letters, ply.text) == ("PQ", "Qa1-a2")
    assert [ply_letters(game) for game in ("tablut", "latrunculi", "laquet")] == ["KP", "DP", ""]
