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
    "winner, result",
    [("white", "1-0"), ("Black", "0-1"), ("Draw", "1/2-1/2"), ("Ongoing", "*"), ("", "*"), ("ONGOING", "*")],
)
def test_who_won_is_the_result(winner, result):
    """What the site writes (White, Black, Draw, Ongoing, empty: every real file), in any case."""
    (source,) = read_text('{%s, "Moves": "f1-f3 d5-d2", "WhoWon": "%s"}' % (SAAMI, winner), "aage", "x.json")
    report = check(source)
    assert report.record.result == result and report.valid, report.diagnostics


@pytest.mark.parametrize(
    "winner, meant",
    [("nobody", ""), ("whte", " (did you mean White?)"), ("Drwa", " (did you mean Draw?)"), ("none", "")],
)
def test_who_won_that_the_site_never_writes_is_an_error_at_it(winner, meant):
    # each was read as no result ("none" as a draw), silently: a typo lost the game's result
    text = '{%s, "Moves": "f1-f3 d5-d2", "WhoWon": "%s"}' % (SAAMI, winner)
    (source,) = read_text(text, "aage", "x.json")
    report = check(source)
    said = f"WhoWon is White, Black, Draw, Ongoing or empty, not '{winner}'{meant}"
    column = text.index(f'"{winner}"') + 2  # past the quote
    assert [(d.rule, d.line, d.column, d.message) for d in report.diagnostics] == [("syntax", 1, column, said)]
    assert report.record.result == "*" and report.record.main.plies  # the moves still read


@pytest.mark.parametrize(
    "winner, result, comments",
    [
        ("white", "1-0", []),
        ("black", "0-1", ["aage reader: WhoWon says black, the move list's ending says 1-0; WhoWon decides"]),
    ],
)
def test_who_won_decides_over_a_resignation_and_a_disagreement_is_noted(winner, result, comments):
    """Black moves first: after two moves Black is to move, and resigns (1-0)."""
    (source,) = read_text('{%s, "Moves": "f1-f3 d5-d2 resigned", "WhoWon": "%s"}' % (SAAMI, winner), "aage", "x.json")
    report = check(source)
    assert report.valid and report.record.tags["Termination"] == "resignation"
    assert (report.record.result, report.record.main.comments) == (result, comments)


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


def test_a_log_cut_after_a_move_keeps_the_moves_its_boards_confirm_and_says_which_it_left_out():
    cut = LOG[: LOG.index("FINE: Turn: W Pawn from e4 to d4\n")] + "FINE: Turn: W Pawn from e4 to d4\n"
    (source,) = read_text(cut, "tablut-challenge", "x_gameLog.txt")
    report = check(source)
    assert report.valid and [ply.text for ply in report.record.main.plies] == ["d5-d6", "d1-d5xc5"]
    assert report.record.main.comments == [
        "tablut-challenge reader: the log ends after the move e4-d4 without the board that follows it (truncated?)",
        "tablut-challenge reader: the log ends without a result (a timeout, a lost connection or a truncated log)",
    ]


def test_the_tags_a_log_does_not_write_are_placed_at_its_first_character():
    """The format's tags (its Game, Variant, Event) are said, when they are wrong, where the log starts."""
    (source,) = read_text(LOG, "tablut-challenge", "x_gameLog.txt")
    places = source.parsed.tag_places
    assert [places["Game"], places["Variant"], places["Event"], places["White"]] == [(1, 1), (1, 1), (1, 1), (2, 16)]
