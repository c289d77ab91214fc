"""aagenielsen.dk's capture totals (`WhitePiecesCaptured`: the attackers lost; `BlackPiecesCaptured`:
the defenders lost, RULES.md H1) count what its engine captured, not what its lists write: in the
records of its old style (`h1h3`: no move lists its captures), they are the only word on what the
moves captured, and lusoria's engine captures as many of each side (../shared/real/aagenielsen-types:
every such game that reads valid without a berserk continuation the record leaves out, whose
captures the site writes nowhere)."""

import json
import re

from test_aagenielsen_types import TYPES, folders
from test_real_files import require_real_files  # noqa: F401 (skips without ../shared/real, fails so on CI)

from lusoria import api
from lusoria.validator.base import BLACK
from lusoria.validator.tafl_board import KING, OWNER

SQUARE = re.compile(r"[a-s](?:1[0-9]|[1-9])")
# the one such game whose totals differ, and why
DIFFERENT = {
    "t013-old-copenhagen-hnefatafl-11x11/game-13-28-18338.json": (
        "the site counts a defender more, no move saying which; in the type's later games the site captures "
        "against the empty throne, which lusoria's rules do not (aagenielsen_types.tsv, game-13-1-26149)"
    ),
}


def old_style_games() -> list[tuple[str, dict]]:
    """The type's games of the old style that the site counted captures of, by folder/file."""
    games = []
    for folder in folders():
        for path in sorted((TYPES / folder).glob("*.json")) if folder != "absent" else []:
            game = json.loads(path.read_text())
            moves = [move for move in game.get("Moves") or [] if SQUARE.match(move)]
            counted = game.get("WhitePiecesCaptured") or game.get("BlackPiecesCaptured")
            if moves and counted and not any("-" in move for move in moves):
                games.append((f"{folder}/{path.name}", game))
    return games


def captured(report: api.Report) -> tuple[int, int]:
    """The attackers and the defenders lost in the replayed main line, the king aside."""
    size = int(len(report.positions[0].board) ** 0.5)
    lost = [0, 0]
    for (variation, index), text in report.canonical.items():
        if variation:
            continue
        board = report.positions[index].board
        squares = SQUARE.findall(text.partition("x")[2])
        for piece in (board[(int(square[1:]) - 1) * size + ord(square[0]) - ord("a")] for square in squares):
            if piece != KING:
                lost[OWNER[piece] != BLACK] += 1  # by the piece's owner, not the ply's parity (found by review)
    return lost[0], lost[1]


def test_the_site_s_capture_totals_are_the_captures_the_engine_makes_in_old_style_records():
    games = old_style_games()
    different, compared = {}, 0
    for name, game in games:
        report = api.check(api.record_at(str(TYPES / name)))
        if not report.valid or any(d.rule == "G16" for d in report.diagnostics):
            continue
        compared += 1
        site = (game["WhitePiecesCaptured"], game["BlackPiecesCaptured"])
        if captured(report) != site:
            different[name] = (site, captured(report))
    assert compared >= 35 or games == []
    assert different.keys() == DIFFERENT.keys(), different
    assert different == {"t013-old-copenhagen-hnefatafl-11x11/game-13-28-18338.json": ((5, 4), (5, 3))}
