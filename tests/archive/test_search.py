"""The position strings searched for (`read_positions`): read by every game that reads them."""

import pytest

from lusoria.archive.search import read_positions
from lusoria.validator.games import GAMES

INITIAL_TABLUT = "3ppp3/4p4/4P4/p3P3p/ppPPKPPpp/p3P3p/4P4/4p4/3ppp3 w"


def test_a_position_no_game_reads_is_said_so():
    with pytest.raises(ValueError) as refused:
        read_positions("zz")
    assert str(refused.value) == "'zz' is not a position string of any game (see docs/notation.md §6)"


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
