"""A game played in code, ply by ply, written as a record (`lusoria.api.played_record`)."""

import pytest

from lusoria import api

TABLUT = api.GAMES["tablut"]


def test_the_plies_are_written_in_canonical_form_under_the_tags_of_the_rules():
    rules = api.rules_from_tags(TABLUT, {"Variant": "unarmed"})
    text = api.played_record(rules, ["e3-c3", "d1-d3", "e4-e3"], {"White": "Karin", "Game": "laquet"})
    assert text.startswith('[Game "tablut"]\n[Variant "unarmed"]\n[Event "?"]')
    assert '[White "Karin"]' in text and text.endswith("\n\n1. e3-c3 d1-d3 2. e4-e3xd3 *\n")  # the capture written out


def test_the_result_is_the_outcome_reached_else_the_one_given():
    escape = ["c5-c3", "i6-f6", "d5-d3", "i4-h4", "c3-c7", "a6-a9", "Ke5-c5", "b5-b9", "Kc5-c1"]
    assert api.played_record(TABLUT(), escape, {"Result": "0-1"}).endswith("5. Kc5-c1 1-0\n")
    assert api.played_record(TABLUT(), escape[:2], {"Result": "0-1"}).endswith("1. c5-c3 i6-f6 0-1\n")


@pytest.mark.parametrize(
    "plies, error, rule, message",
    [
        (["d1-d3"], api.Illegal, "T1", "ply 1 (d1-d3): the piece on d1 is Black's, and White is to move"),
        (["e3-c3", "zz"], api.NotAPly, None, "'zz' is not a ply of tablut: a ply is a move from square"),
        (
            ["c5-c3", "i6-f6", "d5-d3", "i4-h4", "c3-c7", "a6-a9", "Ke5-c5", "b5-b9", "Kc5-c1", "a9-a8"],
            api.Illegal,
            "T10",
            "ply 10 (a9-a8): the game is already over (the king reached the edge, T6); no ply may follow",
        ),
        (["e3-c3", "d1-d3", "e4-e3", "e4-e3"], api.Illegal, "T2", "ply 4 (e4-e3): "),  # newcomer-55b: which ply
    ],
    ids=["illegal", "no ply", "after the end", "which ply"],
)
def test_a_ply_the_rules_refuse_raises_what_play_raises(plies, error, rule, message):
    with pytest.raises(error) as raised:
        api.played_record(TABLUT(), plies)
    assert str(raised.value).startswith(message) and getattr(raised.value, "rule", None) == rule


def test_whose_turn_it_is_is_said_by_the_api_s_names():
    """`Game.turn` says WHITE or BLACK, which only lusoria.validator.base named."""
    rules = TABLUT()
    assert rules.turn(rules.initial()) == api.WHITE
    assert rules.turn(rules.play(rules.initial(), "e3-c3").position) == api.BLACK
    assert api.GAMES["brandubh"]().turn(api.GAMES["brandubh"]().initial()) == api.BLACK


def test_plies_given_as_one_text_are_refused_as_such():
    """Not each letter as a ply: `'e' is not a ply of tablut`."""
    with pytest.raises(TypeError, match=r"^played_record takes a list of plies, not one str \('e3-c3 d1-d3'\)$"):
        api.played_record(TABLUT(), "e3-c3 d1-d3")


@pytest.mark.parametrize(
    "tags, message",
    [
        ({"Bad Name": "x"}, "'Bad Name' is not a tag's name: a letter, then letters, digits or _"),
        ({"Result": "1:0"}, "the Result '1:0' is not a result marker: 1-0, 0-1, 1/2-1/2, *"),
    ],
    ids=["name", "result"],
)
def test_tags_a_record_cannot_hold_are_refused(tags, message):
    """Written as given, they made a record that does not parse (`[Bad Name "x"]`, `1. e3-c3 1:0`)."""
    with pytest.raises(ValueError) as raised:
        api.played_record(TABLUT(), ["e3-c3"], tags)
    assert str(raised.value) == message


def test_tags_that_would_choose_other_rules_give_way_to_those_played():
    """`{"Variant": "ashton"}` for plies played under seed wrote `[Variant "ashton"]`: a record that
    reads back under rules its plies were not played by (and a Board or Position tag, a start not theirs)."""
    given = {"Variant": "ashton", "Rules": "king-armed=no", "Board": "13", "Position": "9/9/9/9/4K4/9/9/9/9 w"}
    text = api.played_record(TABLUT(), ["e3-c3"], {**given, "White": "Karin"})
    assert text.startswith('[Game "tablut"]\n[Event "?"]') and '[White "Karin"]' in text
    assert not any(f"[{name} " in text for name in given) and api.check(text).valid


def test_a_ply_after_a_forced_pass_left_out_is_numbered_as_its_sides(monkeypatch):
    """A game played in code through a forced pass (no-move=passes, T9) was written `1. c1-b1 e6-e7`, which lusoria's
    own validate then warned about (review69): numbered as the replay numbers it, `2. e6-e7`. (A start where Black
    has no move after c1-b1, since the game's own start is far from one.)"""
    rules = api.rules_from_tags(TABLUT, {"Rules": "no-move=passes"})
    boxed = rules.parse_position("9/9/9/4P4/3PKP3/4P4/9/P8/p1P6 w")
    monkeypatch.setattr(rules, "initial", lambda: boxed)
    text = api.played_record(rules, ["c1-b1", "e6-e7", "b1-c1", "a1-b1"])
    assert text.endswith("\n\n1. c1-b1 2. e6-e7 3. b1-c1 a1-b1 *\n")
