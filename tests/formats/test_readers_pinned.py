"""What the readers of round four's mutants (issue 41) decide, pinned with the rule, the place
and the message: the aagenielsen.dk `WhoWon` values, and a Tablut Challenge board that loses one
of the mover's own pieces (read silently as a capture, the error surfaced moves later)."""

import pytest
from conftest import ROOT

from lusoria.formats import read_text
from lusoria.validator.replay import check

SAAMI = '"AageGameTypeName": "Historical Hnefatafl 9x9 (Saami Tablut)", "WhoMovedFirst": "black"'
LOG = (ROOT / "tests/fixtures/formats/tablut-challenge/Bianchi_vs_Neri_1763719200000_gameLog.txt").read_text()
BOARD = "FINE: Stato:\n"


@pytest.mark.parametrize(
    "winner, result", [("white", "1-0"), ("Black", "0-1"), ("draw", "1/2-1/2"), ("none", "1/2-1/2"), ("nobody", "*")]
)
def test_who_won_is_the_result(winner, result):
    (source,) = read_text('{%s, "Moves": "f1-f3 d5-d2", "WhoWon": "%s"}' % (SAAMI, winner), "aage", "x.json")
    report = check(source)
    assert report.record.result == result and report.valid, report.diagnostics


def changed_log(board: int, row: int, change) -> str:
    """The log with row `row` (0: the first printed) of its board `board` (1: the first) changed."""
    parts = LOG.split(BOARD)
    lines = parts[board].split("\n")
    lines[row] = change(lines[row])
    parts[board] = "\n".join(lines)
    return BOARD.join(parts)


def diagnostics(text: str) -> list[tuple]:
    (source,) = read_text(text, "tablut-challenge", "x_gameLog.txt")
    return [(d.rule, d.line, d.column, d.message) for d in check(source).diagnostics]


def test_a_board_that_loses_a_piece_of_the_mover_is_an_error_at_that_move():
    assert diagnostics(LOG) == []
    # after White's d5-d6 (the log's line 21), White's pawn in the third row is gone: not a capture
    assert diagnostics(changed_log(2, 2, lambda row: row.replace("W", "O"))) == [
        ("syntax", 21, 25, "the board printed after d5-d6 also changed e3")
    ]
