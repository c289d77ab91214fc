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
    # (a tafl game plays what another tafl game writes: Tablut's announcements, a pass, judged by its rules)
    read = is_ply(game, text) or game in SHAPES_OF_TAFL and any(is_ply(other, text) for other in SHAPES_OF_TAFL)
    try:
        rules.play(position, text)
    except NotAPly:
        assert not is_ply(game, text)
    except Illegal as refused:  # a ply the rules refuse, or one on squares off the board
        assert read and refused.rule, text
    else:  # (Laquet: never text read as a pass)
        assert read


@pytest.mark.parametrize(
    "game, text",
    [
        *((game, text) for game in sorted(SHAPES_OF_TAFL) for text in ("a0-a1", "a01-a3", "a20-a1", "e3-c3xa0")),
        *(("latrunculi", text) for text in ("@a0", "@a01", "@p17", "a2-a3~a0")),
    ],
)
def test_a_game_plays_no_square_that_no_grammar_of_its_family_writes(game, text):
    """A tafl game read `a0`, `a01`, `a20` as squares (off the board: Illegal), which no tafl
    game's grammar writes, and Latrunculi `@a0`, `@p17`: `is_ply` said no ply where `play` played one."""
    rules, position = start(game)
    with pytest.raises(NotAPly):
        rules.play(position, text)
    assert not any(is_ply(other, text) for other in (SHAPES_OF_TAFL if game in SHAPES_OF_TAFL else [game]))


@pytest.mark.parametrize("game, rule", [("tablut", "T2"), ("copenhagen", "C3"), ("brandubh", "B3")])
def test_a_berserk_move_written_in_a_game_without_berserk_cites_its_movement_rule(game, rule):
    """`e3=c3` (OTN's berserk move, G15) in a game that has none was refused citing no rule."""
    rules, position = start(game)
    with pytest.raises(Illegal) as refused:
        rules.play(position, "e3=c3")
    assert (refused.value.rule, refused.value.message) == (
        rule,
        "e3=c3 is written as a berserk move (=), and no piece that captured moves again from e3",
    )
