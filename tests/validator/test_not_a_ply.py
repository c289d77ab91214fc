"""`Game.play` of text that is no ply of the game: NotAPly, saying what a ply looks like, where
`lusoria.api.is_ply` says it is none too (never a bare AssertionError, never a Laquet pass)."""

import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lusoria.api import NotAPly, is_ply
from lusoria.validator.base import Illegal
from lusoria.validator.games import game_class

TAFL = "a ply is a move from square to square (e3-c3), which may name its piece first (Ke5-e6) and the squares it captures after x (e3-c3xd3/Kf3)"
SHAPES = {
    "tablut": ("tablut", TAFL),
    "copenhagen": ("copenhagen", TAFL),
    "brandubh": ("brandubh", TAFL),
    "hnefatafl": ("hnefatafl", TAFL),
    "latrunculi": (
        "latrunculi",
        "a ply is a placement (@d4) or a move (d4-d6; a jump d4^d6^f6), which may name its piece first (Dd4-d6) "
        "and the squares it captures after x (d4-d6xd7), then a removal after ~ (~e5) and # at the end",
    ),
    "laquet": (
        "laquet",
        "a ply is the roll, a colon and the plays, each from point to point (31: 3/6 13/14), or -- when none can "
        "be played (31: --), then perhaps the dice the opponent played after > (> 1: 4/5)",
    ),
}
SHAPES_OF_TAFL = {game for game, (_, shape) in SHAPES.items() if shape == TAFL}
ALPHABET = "aeikps0135679-=^@x/KPD~#+: >()off"  # the letters of every game's plies, and others


def start(game):
    rules = game_class(game)(variant=next(iter(game_class(game).presets)))
    return rules, rules.initial()


@pytest.mark.parametrize("game", SHAPES)
@pytest.mark.parametrize("text", ["zz", "", "e3-c3x"])
def test_play_of_text_that_is_no_ply_says_what_a_ply_looks_like(game, text):
    rules, position = start(game)
    with pytest.raises(NotAPly) as raised:
        rules.play(position, text)
    named, shape = SHAPES[game]
    assert str(raised.value) == f"'{text}' is not a ply of {named}: {shape}"
    assert isinstance(raised.value, ValueError) and not is_ply(game, text)
    assert str(pickle.loads(pickle.dumps(raised.value))) == str(raised.value)  # (from a worker process)


@pytest.mark.parametrize("game", ["tablut", "copenhagen", "hnefatafl", "latrunculi"])
def test_the_tafl_and_latrunculi_suggestions_refuse_text_that_is_no_ply(game):
    rules, _ = start(game)
    with pytest.raises(NotAPly, match=f"^'zz' is not a ply of {game}: "):
        rules.ply_parts("zz")


@pytest.mark.parametrize("game", SHAPES)
@given(data=st.data())
def test_play_calls_no_ply_only_what_is_ply_calls_none(game, data):
    rules, position = start(game)
    legal = data.draw(st.sampled_from(rules.legal_plies(position)))
    mended = st.builds(lambda cut, tail: legal[:cut] + tail, st.integers(0, len(legal)), st.text(ALPHABET, max_size=3))
    text = data.draw(st.text(ALPHABET, max_size=10) | mended)
    try:
        rules.play(position, text)
    except NotAPly:
        assert not is_ply(game, text)
    except Illegal:
        pass  # a ply the rules refuse, or one on squares off the board
    else:  # (Laquet: never text read as a pass)
        # (a tafl game plays what another tafl game writes: Tablut's announcements, a pass, judged by its rules)
        assert is_ply(game, text) or game in SHAPES_OF_TAFL and (is_ply("tablut", text) or text == "--")
