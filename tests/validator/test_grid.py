"""What every game on squares shares: the symmetries of a square board, as the move tree folds
them (`Game.symmetric`: a position turned or mirrored, and a ply played there turned back); a
board's ranks written as a position string; its squares' names and lines."""

import random

import pytest

from lusoria.api import random_records
from lusoria.archive.positions import position_key
from lusoria.validator.games import GAMES
from lusoria.validator.grid import _symmetries, _turned, board_grid, written_ranks
from lusoria.validator.replay import check

SQUARE_BOARDS = [
    ("tablut", {}),
    ("copenhagen", {}),
    ("brandubh", {}),
    ("latrunculi", {"Variant": "petteia"}),
    ("hnefatafl", {"Variant": "alea-berserk-17x17-martens"}),  # files to q, ranks to 17
    ("hnefatafl", {"Variant": "tablut-19x19"}),  # to s19: the tree folded by them failed past p16
]


@pytest.mark.parametrize("size", [3, 7, 8, 9, 11, 19])
@pytest.mark.parametrize("symmetries", ["rows", "squares"])
def test_a_square_board_has_eight_symmetries_that_form_a_group(size, symmetries):
    """Of a pattern's rows (`_symmetries`) and of a board's squares by number (`_turned`)."""
    squares = [list(range(row * size, (row + 1) * size)) for row in range(size)]
    if symmetries == "rows":
        found = {tuple(square for row in image for square in row) for image in _symmetries(squares)}
    else:
        found = {tuple(map(ord, image)) for image in _turned("".join(map(chr, range(size * size))), size)}
    assert len(found) == 8 and tuple(range(size * size)) in found
    for first in found:
        for second in found:
            assert tuple(second[square] for square in first) in found  # one after the other is one of them


def sampled_positions(game: str, tags: dict, rng: random.Random, seed: int):
    """Four positions of each of two random games (their rules, the position)."""
    for text in random_records(game, 2, seed=seed, tags=tags, max_plies=30):
        report = check(text)
        for position in rng.sample(report.positions, 4):
            yield report.rules, position


@pytest.mark.parametrize("game, tags", SQUARE_BOARDS)
def test_a_ply_played_in_an_image_is_the_image_of_the_ply_turned_back(game, tags):
    """For each image of positions of random games, and plies legal there: the ply turned back is
    legal from the position, and leads to a position whose images hold the one the ply led to."""
    rng = random.Random(3)
    for rules, position in sampled_positions(game, tags, rng, 4):
        images = rules.symmetric(position)
        assert len(images) == 8 and images[0][0] == position
        for image, back in images:
            for ply in rng.sample(rules.legal_plies(image), 3):
                after = rules.play(position, back(ply)).position
                turned = {position_key(rules, found) for found, _ in rules.symmetric(after)}
                assert position_key(rules, rules.play(image, ply).position) in turned, (ply, back(ply))


@pytest.mark.parametrize("game, tags", SQUARE_BOARDS)
def test_the_images_turned_from_the_boards_bytes_are_those_of_the_position_string(game, tags):
    """The images made from a board's bytes (`square_board`, `with_board`: fast) are the ones its
    position string turned and read again gives, in the same order; the image they fold by
    (`canonical`) is one of them, the same from each."""
    for rules, position in sampled_positions(game, tags, random.Random(5), 6):
        images = rules.symmetric(position)
        assert [image for image, _ in images] == [image for image, _ in rules._symmetric_strings(position)]
        canonical = {rules.canonical(image) for image, _ in images}
        assert len(canonical) == 1 and canonical <= {image for image, _ in images}


def test_a_board_that_is_not_square_and_laquet_have_no_other_image():
    piso = GAMES["latrunculi"].from_tags({"Variant": "piso", "Board": "10x7"})
    laquet = GAMES["laquet"]()
    for rules in (piso, laquet):
        start = rules.initial()
        assert [image for image, _ in rules.symmetric(start)] == [start] and rules.canonical(start) == start


def test_a_boards_ranks_are_written_top_first_with_runs_of_empty_squares_as_numbers():
    """`written_ranks`, which every game on squares writes its position strings with: a 5×3
    board (not square), a rank wholly empty, runs at either end and between pieces."""
    board = bytes([1, 0, 0, 2, 0]) + bytes(5) + bytes([0, 0, 1, 1, 0])  # a1 b1 … e1, then rank 2, rank 3
    assert written_ranks(board, 5, {1: "P", 2: "p"}) == "2PP1/5/P2p1"


def test_a_boards_grid_names_its_squares_and_their_lines():
    """`Grid`, the squares every game on squares looks up (each game's Geometry holds these): on a
    4×3 board, b2 (square 5) sees b3 up, b1 down, c2 and d2 right, a2 left."""
    grid = board_grid(4, 3)
    assert grid.names[5] == "b2" and grid.index["d3"] == 11 and len(grid.names) == 12
    assert grid.rays[5] == ((9,), (1,), (6, 7), (4,))
    assert grid.neighbours[5] == (9, 1, 6, 4) and grid.neighbours[0] == (4, 1)  # a1: no square below or left
    assert grid.corners == (0, 3, 8, 11)
