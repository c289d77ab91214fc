"""Real aagenielsen.dk berserk games (../shared/real/aagenielsen-types) whose records leave out
berserk continuations (G16) that a later ply showed: stepping through their boards (what show,
html and the archive read) moves one piece a ply, with what it captures, plus the continuations
the warnings name after a capture; never a jump where the written line's boards were kept."""

import re

from test_real_files import REAL, require_real_files  # noqa: F401 (skips without ../shared/real, fails so on CI)

from lusoria import api
from lusoria.validator.tafl_board import parse_move

TYPES = REAL / "aagenielsen-types"
RECORDS = [
    "t156-old-tyr-11x11/game-156-24-*.json",  # look backs (berw:a), one to a capture on a line left out before it
    "t151-tyr-11x11/game-151-65-28797.json",  # a line of left-out continuations chosen without a look back (berw:n)
    "t134-old-tyr-1-17x17/game-134-75-4569.json",  # a continuation back to the square the capture left
]
LEFT_OUT = re.compile(r"berserk continuation after (\S+): (.*) \(berw")


def test_each_ply_of_a_game_with_left_out_continuations_moves_one_piece_on_the_line_found():
    for pattern in RECORDS:
        [path] = TYPES.glob(pattern)
        report = api.check(api.record_at(str(path)))
        geo, canonical = report.rules.geo, report.canonical
        plies = len(report.positions) - 1
        assert plies == report.plies and report.valid, path
        allowed = {ply: squares(geo, canonical[0, ply - 1]) for ply in range(1, plies + 1)}
        warned = [(d.ply, LEFT_OUT.search(d.message)) for d in report.diagnostics if d.rule == "G16"]
        assert warned, path
        for at, found in warned:
            capture = max(ply for ply in range(1, at) if canonical[0, ply - 1] == found[1])
            for move in found[2].split(", "):
                allowed[capture] |= squares(geo, move)
        for ply in range(1, plies + 1):
            before, after = report.positions[ply - 1].board, report.positions[ply].board
            changed = {square for square in range(len(after)) if before[square] != after[square]}
            assert changed <= allowed[ply], (path.name, ply, canonical[0, ply - 1], changed - allowed[ply])


def squares(geo, text: str) -> set[int]:
    """The squares a move names: where from, where to, what it captures."""
    move = parse_move(geo, text)
    return {move.origin, move.target, *(move.captures or ())} if move else set()
