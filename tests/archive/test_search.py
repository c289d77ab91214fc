"""The position strings searched for (`read_positions`): read by every game that reads them."""

import pytest
from click.testing import CliRunner
from conftest import ROOT

from lusoria.archive import Archive, Filters
from lusoria.archive.search import read_positions
from lusoria.cli import main
from lusoria.validator.games import GAMES

INITIAL_TABLUT = "3ppp3/4p4/4P4/p3P3p/ppPPKPPpp/p3P3p/4P4/4p4/3ppp3 w"
SHORT_RANK = "3ppppp3/5p5/11/p4P4p/p3PPP3p/pp1PPKP2pp/p3PPP3p/p4P5/3p3P2p/5p5/4ppp3 w"  # Copenhagen's, a p short


def test_a_position_no_game_reads_is_said_so_with_why_each_game_does_not():
    """New user 38: a Copenhagen position with a rank one square short was "not a position string
    of any game (see docs/notation.md §6)", which did not say where; each game now says why, as a
    pattern's refusal does, and the game the filters name alone says its own."""
    with pytest.raises(ValueError) as refused:
        read_positions(SHORT_RANK)
    assert str(refused.value) == (
        f"'{SHORT_RANK}' is not a position string of any game (brandubh: a Brandubh position has 7 ranks, "
        "not 11; copenhagen: the rank '4ppp3' covers 10 squares, not 11; hnefatafl: the rank '4ppp3' covers "
        "10 squares, not 11; laquet: a Laquet position is White's checkers, Black's and the side to move, as "
        "in '1:2,2:3,3:3,4:3,5:3,18:1 6:14,7:1 w'; latrunculi: 'K' is not a Latrunculi piece (P, D, I, p, d, i) "
        "or a count of empty squares; "
        "tablut: a Tablut position has 9 ranks, not 11; see docs/notation.md §6)"
    )
    black_to_move = SHORT_RANK.removesuffix(" w") + " b"  # why as written, not of a second side to move
    with pytest.raises(ValueError) as refused:
        read_positions(black_to_move, sought_in="tablut")
    assert str(refused.value) == (
        f"'{black_to_move}' is not a position string of tablut (a Tablut position has 9 ranks, not 11; "
        "see docs/notation.md §6)"
    )
    placing = "8/8/8/8/8/8/8/7 w 16 16"  # Latrunculi's, the pieces in hand after the side to move
    with pytest.raises(ValueError) as refused:
        read_positions(placing, sought_in="latrunculi")
    assert str(refused.value) == (
        f"'{placing}' is not a position string of latrunculi (the rank '7' covers 7 squares, not 8; "
        "see docs/notation.md §6)"
    )
    with pytest.raises(ValueError) as refused:  # no variant of Hnefatafl to read it with: said so
        read_positions("zz", sought_in="hnefatafl")
    assert str(refused.value) == (
        "'zz' is not a position string of hnefatafl (none of its variants is played on a board of that size; "
        "see docs/notation.md §6)"
    )
    without_side = SHORT_RANK.removesuffix(" w")  # why with White to move, not that the side is missing
    with pytest.raises(ValueError) as refused:
        read_positions(without_side, sought_in="Copenhagen")
    assert str(refused.value) == (
        f"'{without_side}' is not a position string of copenhagen (the rank '4ppp3' covers 10 squares, "
        "not 11; see docs/notation.md §6)"
    )


def test_the_query_says_why_the_game_it_names_does_not_read_a_position(tmp_path):
    archive = Archive(str(tmp_path / "tablut.db"))
    archive.import_paths([str(ROOT / "samples/tablut")])
    why = f"'{SHORT_RANK}' is not a position string of tablut (a Tablut position has 9 ranks, not 11; see docs/notation.md §6)"
    with pytest.raises(ValueError) as refused:
        archive.query(Filters(game="tablut", position=SHORT_RANK))
    assert str(refused.value) == why
    shown = CliRunner().invoke(main, ["query", "--db", archive.path, "--game", "tablut", "--position", SHORT_RANK])
    assert shown.exit_code == 2 and shown.stderr.splitlines()[-1] == f"Error: {why}"


def test_a_games_failure_to_read_a_position_is_no_position_of_it(monkeypatch):
    """A game refuses a position string it cannot read with OptionError (`Game.parse_position`); any
    other exception is its bug, which the search lets through, not a string taken for another game's
    or for none (an empty answer where the archive holds the position)."""
    assert "tablut" in {rules.name for rules, _ in read_positions(INITIAL_TABLUT)}

    def broken(self, text):
        raise IndexError("list index out of range")

    monkeypatch.setattr(GAMES["tablut"], "parse_position", broken)
    with pytest.raises(IndexError, match="list index out of range"):
        read_positions(INITIAL_TABLUT)
