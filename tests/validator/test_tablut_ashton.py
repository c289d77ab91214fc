"""Ashton Tablut (RULES.md T11–T13, the options camps, camp-hostile, repetition) and the
presets aage and ashton, from small positions and short records."""

import pytest
from test_tablut import position, rule_broken

from lusoria.validator.base import BLACK, WHITE, OptionError
from lusoria.validator.replay import check
from lusoria.validator.tablut import Tablut
from lusoria.validator.tafl_play import _remember

ASHTON = Tablut(variant="ashton")
CAMPS = Tablut({"camps": "ashton"})


def test_presets_are_bundles_of_options():
    assert (
        Tablut(variant="aage").option
        == Tablut({"first": "black", "king-capture": "2", "tuichi-ends": "no", "throne-hostile": "empty"}).option
    )
    assert ASHTON.option["camps"] == "ashton" and ASHTON.option["repetition"] == "draw"
    assert ASHTON.option["camp-hostile"] == "always" and ASHTON.initial().turn == WHITE
    assert Tablut(variant="aage").initial().turn == BLACK


# -- T11: movement ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "white, black, turn, ply",
    [
        ("Kg7 c1", "a9", "w", "c1-d1"),  # a Swede may not stop on a camp square
        ("Kg7 c1", "a9", "w", "c1-g1"),  # ... nor pass over one (d1 e1 f1)
        ("Kg4", "a9", "w", "Kg4-i4"),  # nor the king
        ("Kg5", "a9", "w", "Kg5-h5"),  # h5 is the east camp's tip
        ("Kg7", "a8 a3", "b", "a3-a4"),  # a Muscovite that has left its camp never comes back
        ("Kg7", "e2 i9", "b", "e2-e8"),  # nor enters another camp (e8: north)
        ("Kg7", "d8 i1", "b", "d8-d9"),
    ],
)
def test_t11_camp_squares_are_closed_to_outsiders(white, black, turn, ply):
    pos = position(white, black, turn)
    assert rule_broken(CAMPS, pos, ply) == "T11"
    assert Tablut().play(pos, ply).text == ply  # legal without camps


def test_t11_a_muscovite_moves_inside_its_own_camp_and_leaves_across_it():
    pos = position("Kg7", "a4 i9", "b")
    assert CAMPS.play(pos, "a4-a6").text == "a4-a6"  # inside the west camp, over a5
    assert CAMPS.play(pos, "a4-a2").text == "a4-a2"  # out of it
    assert CAMPS.play(position("Kg7", "e2 i9", "b"), "e2-e7").text == "e2-e7"  # out, stopping short of e8
    assert CAMPS.play(position("Kg7", "e8 i8", "b"), "e8-a8").text == "e8-a8"


def test_t11_the_generated_moves_agree_with_the_check():
    plies = CAMPS.legal_plies(position("Kg4 c1", "a3 i9", "w"))
    assert "Kg4-i4" not in plies and "c1-d1" not in plies and "Kg4-h4" in plies
    assert "Kg4-g1" in plies and "c1-c4" in plies
    black = CAMPS.legal_plies(position("Kg7", "a4 a3 i9", "b"))
    assert "a4-a5" in black and "a3-a2" in black and not any(p.startswith("a3-a4") for p in black)
    boxed = position("Kg7 b1", "a1 c1 d2 i9", "w")  # b1 may go only to b2…b4; c1 blocks, a1 is Black
    assert sorted(p for p in CAMPS.legal_plies(boxed) if p.startswith("b1")) == ["b1-b2", "b1-b3", "b1-b4"]


def test_t11_a_position_with_a_swede_on_a_camp_is_malformed():
    with pytest.raises(OptionError, match="camp square d1"):
        CAMPS.parse_position("9/9/9/9/4K4/9/9/9/3P5 w")
    assert Tablut().parse_position("9/9/9/9/4K4/9/9/9/3P5 w")


# -- T12: captures ------------------------------------------------------------------------------


def test_t12_an_empty_camp_square_captures_a_swede():
    pos = position("Kg7 d2", "b2 i9", "b")  # d2 between c2 and the empty camp square e2
    assert CAMPS.play(pos, "b2-c2").text == "b2-c2xd2"
    assert Tablut().play(pos, "b2-c2").text == "b2-c2"


def test_t12_a_muscovite_that_left_its_camp_is_captured_against_it():
    pos = position("Kg7 b2", "a3 i9")  # a3 between a2 and the camp square a4
    assert CAMPS.play(pos, "b2-a2").text == "b2-a2xa3"
    assert Tablut().play(pos, "b2-a2").text == "b2-a2"


def test_t12_a_muscovite_in_its_camp_falls_only_on_the_tip_between_two_white_pieces():
    assert CAMPS.play(position("Kg7 a2", "a4 i9"), "a2-a3").text == "a2-a3"  # a5 is a4's own camp
    assert CAMPS.play(position("Kg7 c8", "b5 i9"), "c8-c5").text == "c8-c5"  # a5 is b5's own camp
    assert CAMPS.play(position("Kg7 b7 b4", "b5 i9"), "b7-b6").text == "b7-b6xb5"
    assert CAMPS.play(position("Kg7 b7", "b5 b4 i9"), "b7-b6").text == "b7-b6"


@pytest.mark.parametrize("hostile, taken", [("always", True), ("empty", False)])
def test_t12_camp_hostile_a_held_camp_square_and_other_muscovites(hostile, taken):
    rules = Tablut({"camps": "ashton", "camp-hostile": hostile})
    played = rules.play(position("Kg7 g3", "f2 e2 i9"), "g3-g2")  # f2 between g2 and e2, held by a Muscovite
    assert ("x" in played.text) is taken
    assert rules.play(position("Kg7 g3", "f2 i9"), "g3-g2").text == "g3-g2xf2"  # e2 empty: hostile either way
    # a camp square holding a Muscovite still captures Swedes (as the Muscovite would)
    assert rules.play(position("Kg7 f2", "e2 g3 i9", "b"), "g3-g2").text == "g3-g2xf2"


def test_t12_the_king_is_captured_against_a_camp_square():
    pos = position("Kc5 i1", "d8", "b")  # c5 between d5 and the camp's tip b5
    played = ASHTON.play(pos, "d8-d5")
    assert played.text == "d8-d5xc5" and (played.outcome.rule, played.outcome.result) == ("T7", "0-1")
    assert Tablut({"king-capture": "2"}).play(pos, "d8-d5").outcome is None  # no camps: b5 is a plain square
    assert CAMPS.play(pos, "d8-d5").outcome is None  # camps do not count under king-capture=4
    assert ASHTON.play(pos, "d8-d5xc5").outcome.rule == "T7"


def test_throne_always_hostile_to_a_swede_next_to_the_king_on_it():
    assert ASHTON.play(position("Ke5 d5 i1", "c8", "b"), "c8-c5").text == "c8-c5xd5"


def test_t6_with_camps_a_tuichi_line_may_not_cross_a_camp():
    pos = position("Kg4 g2", "g6 a9")  # after g2-f2: down open; right (i4) and left (a4) end in camps
    assert CAMPS.play(pos, "g2-f2").outcome is None
    assert CAMPS.play(pos, "g2-f2+").warnings == []  # one open line: Raichi
    assert Tablut().play(pos, "g2-f2").outcome.reason.endswith("(Tuichi)")
    open_lines = position("Kg3 c7", "g9 a9")  # down, right and left stay open
    assert CAMPS.play(open_lines, "c7-c8").outcome.reason.endswith("(Tuichi)")


# -- T13: repetition -------------------------------------------------------------------------

START = "7p1/9/6K2/9/9/9/p8/2P6/9 w"  # Kg7 c2 against a3 h9


def record(moves: str, rules: str = "", result: str = "*") -> str:
    tag = f'[Rules "{rules}"]\n' if rules else ""
    return f'[Game "tablut"]\n[Variant "ashton"]\n{tag}[Position "{START}"]\n\n{moves} {result}\n'


def test_t13_the_first_repetition_is_a_draw_and_the_start_does_not_count():
    # after ply 4 the start is back (no draw); ply 5 repeats the position after ply 1
    report = check(record("1. c2-c3 a3-a2 2. c3-c2 a2-a3 3. c2-c3 a3-a2"))
    assert [(d.rule, d.ply) for d in report.diagnostics] == [("T10", 6)]
    assert "repetition" in report.diagnostics[0].message
    report = check(record("1. c2-c3 a3-a2 2. c3-c2 a2-a3 3. c2-c3", result="1/2-1/2"))
    assert report.valid and (report.outcome.rule, report.outcome.result) == ("T13", "1/2-1/2")
    report = check(record("1. c2-c3 a3-a2 2. c3-c2 a2-a3 3. c2-c3", result="1-0"))
    assert [d.rule for d in report.diagnostics] == ["result"] and "T13" in report.diagnostics[0].message
    assert check(record("1. c2-c3 a3-a2 2. c3-c2 a2-a3", result="*")).outcome is None


def test_t13_repetition_none():
    assert check(record("1. c2-c3 a3-a2 2. c3-c2 a2-a3 3. c2-c3 a3-a2", "repetition=none")).valid


def test_t13_a_capture_clears_the_history():
    after = ASHTON.play(ASHTON.initial(), "c5-c2").position
    assert after.earlier == {after}
    again = ASHTON.play(after, "a4-a3").position
    assert again.earlier == {after, again}
    captured = ASHTON.play(
        _remember(again, position("Kg7 b2", "a3 i9"), None, False, BLACK, ASHTON.settings)[0], "b2-a2"
    )
    assert captured.text == "b2-a2xa3" and len(captured.position.earlier) == 1


def test_t13_a_variation_inherits_the_main_line_history():
    moves = "1. c2-c3 a3-a2 2. c3-c2 a2-a3 3. c2-c4 ( 3. c2-c3 { a draw } a3-a2 ) a3-a2"
    report = check(record(moves))
    assert [(d.rule, d.ply, d.text) for d in report.diagnostics] == [("T10", 6, "a3-a2")]
    assert report.diagnostics[0].column < len(moves) - 8  # the variation's ply, not the main line's


BOXED = '[Game "tablut"]\n[Rules "no-move=passes repetition=draw"]\n[Position "9/9/9/4P4/3PKP3/4P4/9/P8/p1P6 w"]\n\n'


@pytest.mark.parametrize("moves", ["1. c1-b1 -- 2. e6-e7 -- 3. e7-e6", "1. c1-b1 2. e6-e7 3. e7-e6"])
def test_t13_the_history_goes_on_through_a_forced_pass(moves):
    """A pass is a ply (T9), written or left out: the position after 3. e7-e6 (Black, boxed in on a1, to
    move) arose after 1. c1-b1, with two passes between (review69: each pass forgot the history)."""
    report = check(BOXED + moves + " 1/2-1/2\n")
    assert report.valid and (report.outcome.rule, report.outcome.result) == ("T13", "1/2-1/2")
    [said] = check(BOXED + moves + " *\n").diagnostics
    assert (said.rule, said.message) == (
        "result",
        "the game ended 1/2-1/2 (the position arose before (repetition), T13), but the record says *",
    )


def test_t13_a_pass_that_brings_back_a_position_draws():
    """The position after a pass counts as any ply's (T13): a4-a3 leaves its camp into a box (T11), and after
    g7-g8, g8-g7 Black's second pass brings back the position after a4-a3, White to move."""
    boxed = (
        '[Game "tablut"]\n[Variant "ashton"]\n[Rules "no-move=passes"]\n[Position "9/9/6P2/9/4K4/p8/1P7/P8/9 b"]\n\n'
    )
    report = check(boxed + "1... a4-a3 2. g7-g8 -- 3. g8-g7 -- 1/2-1/2\n")
    assert report.valid and (report.outcome.rule, report.outcome.result) == ("T13", "1/2-1/2"), report.diagnostics
    assert check(boxed + "1... a4-a3 2. g7-g8 -- 3. g8-g7 1/2-1/2\n").outcome is None  # (the start does not count)
    for keep_going in (False, True):  # the pass left out before a ply: that ply is after the end (review70)
        report = check(boxed + "1... a4-a3 2. g7-g8 -- 3. g8-g7 4. g7-h7 1/2-1/2\n", keep_going=keep_going)
        assert (report.outcome.rule, report.outcome.result) == ("T13", "1/2-1/2")
        assert [(d.rule, d.ply, d.move, d.suggestions, d.message) for d in report.diagnostics] == [
            (
                "T10",
                5,
                "move 4, White",
                (),
                "after Black's forced pass (no move), the game is already over (the position arose before "
                "(repetition), T13); no ply may follow",
            )
        ]


def test_ashton_random_games_are_legal():
    from lusoria.api import random_records

    for text in random_records("tablut", count=3, seed=7, tags={"Variant": "ashton"}, max_plies=120):
        assert check(text).valid, text


def test_render_marks_the_camps():
    rows = ASHTON.render(position("Kg7", "i9")).split("\n")
    assert rows[0] == "9 . . . # # # . . p" and rows[4] == "5 # # . . + . . # #"
    assert "#" not in Tablut().render(position("Kg7", "i9"))


def test_the_rule_set_finder_tries_camps_alone_and_through_the_ashton_preset():
    """The camps changed alone are one change from the seed's rules, as the preset is, and nearer (h72a)."""
    from lusoria.notation.reader import parse_record
    from lusoria.validator.fit import fitting_rules

    text = record("1. c2-a2xa3").replace('[Variant "ashton"]\n', "")  # a capture against the camp a4
    fit = fitting_rules(parse_record(text))
    assert not fit.legal and fit.changes == ["if camps=ashton", "under variant ashton"] and fit.tried < 580


def test_the_svg_board_draws_the_camps():
    import xml.etree.ElementTree as ElementTree

    from lusoria.svg import position_svg

    root = ElementTree.fromstring(position_svg(ASHTON, ASHTON.initial()))
    camps = sorted(e.get("data-square") for e in root.iter() if "camp" in (e.get("class") or "").split())
    assert camps == sorted("a4 a5 a6 b5 i4 i5 i6 h5 d1 e1 f1 e2 d9 e9 f9 e8".split())
    assert "camp" not in position_svg(Tablut(), Tablut().initial())


def test_t12_a_capture_list_that_leaves_out_a_camp_capture_cites_t12_at_its_ply():
    pos = position("Kg7 d2 c3", "b2 c4 i9", "b")  # b2-c2 takes d2 (against the camp e2) and c3 (against c4)
    assert ASHTON.play(pos, "b2-c2").text == "b2-c2xc3/d2"
    assert rule_broken(ASHTON, pos, "b2-c2xc3") == "T12"  # what the list would be without camps
    assert rule_broken(ASHTON, pos, "b2-c2xd2") == "T4"
    text = record("1... b2-c2xc3 *", result="").replace("7p1/9/6K2/9/9/9/p8/2P6/9 w", "8p/9/6K2/9/9/2p6/2P6/1p1P5/9 b")
    report = check(text)
    assert [(d.rule, d.ply) for d in report.diagnostics] == [("T12", 1)]
    assert "c3/d2 (against a camp)" in report.diagnostics[0].message
    # the king taken against a camp, left out of the list, is said (h74a: "captures b4/c5 (against a camp)")
    king = check(
        '[Game "tablut"] [Variant "ashton"] [Position "3ppp3/7p1/3P1p3/2p1p4/ppPP2p1p/1K6p/9/9/pP1pp1P2 b"] '
        "i4-c4xc5 0-1"
    )
    assert [(d.rule, d.ply, d.message) for d in king.diagnostics] == [
        (
            "T12",
            1,
            "the move captures b4/c5 (against a camp: the king on b4), not c5; the rest of this line is not checked",
        )
    ]
    listed = check('[Game "tablut"] [Variant "ashton"] [Position "9/9/2p6/9/9/1P1Kp4/9/9/9 b"] c7-c4xd4 0-1')
    assert listed.diagnostics[0].message.startswith(  # (review74: the king the list names is not one left out)
        "the move captures b4/d4 (against a camp), not d4"
    )
