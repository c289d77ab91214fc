"""A ply swapped with the next, in real games of aagenielsen.dk's tafl types (../shared/real/
aagenielsen-types), is caught at its ply: the swapped-in move is the other side's, so the first
error is the turn rule's (G2) at that ply, naming the square the moved piece stands on, whatever
the type, its board and its capture lists. (The issue's "larger unseen set" is measured the same
way; this reads a fixed sample of the games here, a few swaps each, to stay cheap.)"""

import json
import random
import re

import pytest
from test_aagenielsen_types import TYPES, folders, listed
from test_real_files import require_real_files  # noqa: F401 (skips without ../shared/real, fails so on CI)

from lusoria import api

MOVE = re.compile(r"K?([a-s][0-9]+)-?[a-s][0-9]+(?:x.*)?")  # a move as the site writes it (h1-h3xh4, h1h3)
EVERY = 9  # one type in so many, by folder name, from each board size alike
SWAPS = 3  # swaps in a game


def sample() -> list[str]:
    """Every EVERY-th type folder (the types the catalogue plays); without ../shared/real, the
    one name that require_real_files skips."""
    playable = [name for name in folders() if listed().get(name, {}).get("*", {}).get("rule") != "refused"]
    return playable[::EVERY]


def valid_games(folder: str) -> list[tuple[str, list[str]]]:
    """The games of a type that read valid (none the list names), with their moves, by name."""
    named = listed().get(folder, {})
    games = []
    for path in sorted((TYPES / folder).glob("*.json")):
        moves = json.loads(path.read_text())["Moves"]
        if path.name not in named and len(moves) >= 6:
            games.append((path.name, moves))
    return games


@pytest.mark.parametrize("folder", sample())
def test_a_ply_swapped_with_the_next_is_caught_at_its_ply(folder, tmp_path):
    rng = random.Random(folder)
    name, moves = valid_games(folder)[0]
    game = json.loads((TYPES / folder / name).read_text())
    plies = [
        index for index in range(len(moves) - 1) if MOVE.fullmatch(moves[index]) and MOVE.fullmatch(moves[index + 1])
    ]
    for index in sorted(rng.sample(plies, min(SWAPS, len(plies)))):
        swapped = moves[:index] + [moves[index + 1], moves[index]] + moves[index + 2 :]
        path = tmp_path / f"{index}-{name}"
        path.write_text(json.dumps({**game, "Moves": swapped}))
        report = api.check(api.record_at(str(path)))
        error = next(d for d in report.diagnostics if d.severity == api.ERROR)
        origin = MOVE.fullmatch(moves[index + 1])[1]
        assert (error.rule, error.ply) == ("G2", index + 1), (folder, name, index + 1, error.message)
        assert error.message.startswith(f"the piece on {origin} is "), (folder, name, error.message)
