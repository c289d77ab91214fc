"""A ply swapped with the next, in real games of aagenielsen.dk's tafl types (../shared/real/
aagenielsen-types), is caught at its ply: the swapped-in move is the other side's, so the first
error is the turn rule's (G2) at that ply, naming the square the moved piece stands on, whatever
the type, its board and its capture lists. (The issue's "larger unseen set" is measured the same
way; this reads the first valid game of every type here, a few swaps each, to stay cheap.)"""

import json
import random
import re
from collections.abc import Iterator

import pytest
from test_aagenielsen_types import TYPES, folders, listed
from test_real_files import require_real_files  # noqa: F401 (skips without ../shared/real, fails so on CI)

from lusoria import api
from lusoria.formats import FORMATS
from lusoria.validator.games import GAMES

MOVE = re.compile(r"K?([a-s][0-9]+)-?[a-s][0-9]+(?:x.*)?")  # a move as the site writes it (h1-h3xh4, h1h3)
SWAPS = 3  # swaps in a game


def sample() -> list[str]:
    """Every type folder the catalogue plays with a valid game to swap plies in (all but the
    types whose games are all listed broken or too short); without ../shared/real, the one name
    that require_real_files skips."""
    playable = [name for name in folders() if listed().get(name, {}).get("*", {}).get("rule") != "refused"]
    return [name for name in playable if name == "absent" or next(valid_games(name), None)]


def valid_games(folder: str) -> Iterator[tuple[str, list[str]]]:
    """The games of a type that read valid (none the list names), with their moves, by name (read as asked:
    collecting the tests asks for the first of each type only, where reading all took 1.5 s in each worker)."""
    named = listed().get(folder, {})
    for path in sorted((TYPES / folder).glob("*.json")):
        moves = json.loads(path.read_text())["Moves"]
        if path.name not in named and len(moves) >= 6:
            yield path.name, moves


def swapped_error(game: dict, index: int, path) -> tuple[api.Diagnostic, str]:
    """The first error of `game` with its move `index` (0-based) swapped with the next, written to
    `path`, and the square the swapped-in move starts from."""
    moves = game["Moves"]
    path.write_text(
        json.dumps({**game, "Moves": moves[:index] + [moves[index + 1], moves[index]] + moves[index + 2 :]})
    )
    report = api.check(api.record_at(str(path)))
    return next(d for d in report.diagnostics if d.severity == api.ERROR), MOVE.fullmatch(moves[index + 1])[1]


def swapped(moves: list[str], seed: str) -> list[int]:
    """SWAPS plies (0-based) drawn with `seed` among those that can be swapped with the next (both
    are moves), in order."""
    plies = [index for index, pair in enumerate(zip(moves, moves[1:])) if all(map(MOVE.fullmatch, pair))]
    return sorted(random.Random(seed).sample(plies, min(SWAPS, len(plies))))


def assert_caught_by_the_turn_rule(game: dict, index: int, path) -> None:
    """`game` with its move `index` swapped with the next is invalid first at that ply by the turn
    rule (G2), naming the square the swapped-in move starts from."""
    error, origin = swapped_error(game, index, path)
    assert (error.rule, error.ply) == ("G2", index + 1), (path.name, index + 1, error.rule, error.ply, error.message)
    assert error.message.startswith(f"the piece on {origin} is "), (path.name, error.message)


@pytest.mark.parametrize("folder", sample())
def test_a_ply_swapped_with_the_next_is_caught_at_its_ply(folder, tmp_path):
    name, moves = next(valid_games(folder))
    game = json.loads((TYPES / folder / name).read_text())
    for index in swapped(moves, folder):
        assert_caught_by_the_turn_rule(game, index, tmp_path / f"{index}-{name}")


CONTINUATION = re.compile(
    r"the record leaves out a berserk continuation after \S+: (?:\S+ )*?\S+-(?P<end>[a-s][0-9]+)\S*"
)


def after_captures(moves: list[str]) -> list[int]:
    """The plies (0-based) that follow a capture and are followed by a move: swapped with the next,
    the swapped-in move is the capturing side's, where a continuation the record leaves out may be."""
    return [
        index
        for index in range(1, len(moves) - 1)
        if "x" in moves[index - 1] and MOVE.fullmatch(moves[index]) and MOVE.fullmatch(moves[index + 1])
    ]


def berserk_folders() -> list[str]:
    """The types the catalogue plays with berserk continuations the records leave out (berw:n or a, G16),
    where the search for them might take a swapped-in move for one (each by its games' type), that
    have a valid game with a capture to swap after."""
    found = []
    for folder in folders():
        if folder == "absent" or listed().get(folder, {}).get("*", {}).get("rule") == "refused":
            continue
        first = json.loads(next((TYPES / folder).glob("*.json")).read_text())
        types = FORMATS["aage"].games
        tags = types.get(f"{first['AageGameTypeName']}#{first['AageGameTypeKey']}") or types.get(
            first["AageGameTypeName"], {}
        )
        berserk = "Variant" in tags and GAMES["hnefatafl"].preset_options(tags["Variant"]).get("berw") in ("n", "a")
        if berserk and any(after_captures(moves) for _, moves in valid_games(folder)):
            found.append(folder)
    return found or ["absent"]


def test_most_types_with_left_out_berserk_moves_are_tried():
    assert len(berserk_folders()) >= 10


@pytest.mark.parametrize("folder", berserk_folders())
def test_a_ply_swapped_after_a_capture_is_caught_at_its_ply_under_left_out_berserk_moves(folder, tmp_path):
    """Where a capture may be followed by berserk moves the record leaves out, a ply swapped with the
    next right after a capture is still caught at its ply, never read as a continuation: by the turn
    rule (G2) naming the square the moved piece stands on, or, when that piece came there by a
    continuation the record leaves out (the game's own G16 warning names it, just before), by G3, its
    square being empty on the board the record writes."""
    name, moves = next((name, moves) for name, moves in valid_games(folder) if after_captures(moves))
    path = TYPES / folder / name
    game = json.loads(path.read_text())
    original = api.check(api.record_at(str(path)))
    for index in after_captures(moves)[:SWAPS]:
        error, origin = swapped_error(game, index, tmp_path / f"{index}-{name}")
        assert error.ply == index + 1, (folder, name, index + 1, error.rule, error.ply, error.message)
        if error.rule == "G3":
            assert re.match(rf"there is no piece on {origin}( \(|;)", error.message), (folder, name, error.message)
            left_out = [
                found["end"]
                for d in original.diagnostics
                if d.rule == "G16" and d.ply in (index + 1, index + 2) and (found := CONTINUATION.match(d.message))
            ]
            assert origin in left_out, (folder, name, index + 1, left_out)
        else:
            assert error.rule == "G2" and error.message.startswith(f"the piece on {origin} is "), (folder, error)


def test_a_swapped_in_move_from_a_square_a_left_out_continuation_filled_is_a_g3_error_at_its_ply(tmp_path):
    """Tyr 13×13, game 19078: a6-c6xc7 (ply 43) goes on, unwritten, c6-c5xc4; ply 45 moves from c5.
    Swapped before ply 44, it is caught at 44: c5 is empty on the written board."""
    path = TYPES / "t150-tyr-13x13" / "game-150-111-19078.json"
    game = json.loads(path.read_text())
    moves = game["Moves"]
    assert moves[42:45] == ["a6-c6xc7", "g6-a6", "c5-c7"]
    original = api.check(api.record_at(str(path)))
    assert original.valid and [(d.rule, d.message) for d in original.diagnostics if d.ply == 44] == [
        ("G16", "the record leaves out a berserk continuation after a6-c6xc7: c6-c5xc4 (berw: n)")
    ]
    error, origin = swapped_error(game, 43, tmp_path / path.name)
    assert (origin, error.rule, error.ply, error.message) == (
        "c5",
        "G3",
        44,
        "there is no piece on c5 (moved away by move 20, White: c5-c4); the rest of this line is not checked",
    )


def layout_folders() -> list[str]:
    """The types the site played from several layouts (the catalogue's `layout_of` entries: the
    reader takes the one a game's moves fit), by folder; without ../shared/real, `absent`."""
    types = FORMATS["aage"].games
    keys = {name.partition("#")[2].partition("/")[0] for name in types if "#" in name and name.endswith("/2")}
    found = [folder for folder in folders() if folder != "absent" and str(int(folder[1:4])) in keys]
    return found or ["absent"]


def test_the_types_played_from_several_layouts_are_tried():
    assert len(layout_folders()) >= 5


@pytest.mark.parametrize("folder", layout_folders())
def test_a_ply_swapped_in_a_game_of_a_second_layout_is_caught_at_its_ply(folder, tmp_path):
    """In a game read from a layout other than its type's first, a ply swapped with the next is
    caught at its ply by the turn rule (G2), the game read from the same layout: never as a move
    from a square the first layout leaves empty."""
    name, game = next(
        (name, json.loads((TYPES / folder / name).read_text()))
        for name, _ in valid_games(folder)
        if "read from the layout of" in str(api.check(api.record_at(str(TYPES / folder / name))).record.main.comments)
    )
    for index in swapped(game["Moves"], folder):
        assert_caught_by_the_turn_rule(game, index, tmp_path / f"{index}-{name}")


@pytest.mark.parametrize(
    ("name", "index"), [("game-34-117-14785.json", 5), ("game-34-2-3398.json", 13), ("game-34-85-17796.json", 13)]
)
def test_a_swapped_ply_that_misfits_both_layouts_at_its_ply_is_read_from_the_game_s_own(name, index, tmp_path):
    """Sea battle tafl 13x13, games read from its second layout: swapped with the next, the ply
    (in game-34-117, ply 7 b7-c7 before ply 6 f8-c8xc7, which empties c7) lands on a piece under
    that layout and leaves an empty square (b7) under the first, so neither fits further; the moves
    after decide (formats/tafl.py `_layout`): it is caught by G2 at its ply, not by G3 as read
    from the first layout."""
    path = TYPES / "t034-sea-battle-tafl-13x13" / name
    game = json.loads(path.read_text())
    assert api.check(api.record_at(str(path))).variant == "sea-battle-tafl-13x13-b"
    assert_caught_by_the_turn_rule(game, index, tmp_path / name)


def test_a_swapped_in_move_legal_for_the_side_to_move_is_caught_at_the_next_ply(tmp_path):
    """Alea Berserk 19×19 (Bartley), game 27397: a continuation the record leaves out after ply 3
    (m5-m13xm14, then m13-m14xn14) captures the defenders' mercenary on n14, which turns the
    attackers', and they move it at ply 19 (n14-n13): only then does the record show it. Swapped
    before ply 18, n14-n13 is the defenders' legal move there (the mercenary is still theirs on the
    board the record writes): no rule can refuse it, and the swap is caught at ply 19, by the turn
    rule, on the move swapped out (one of 94,812 swaps measured on every valid game of the 163
    types, with four others of that kind)."""
    path = TYPES / "t102-alea-berserk-19x19-bartley" / "game-102-44-27397.json"
    game = json.loads(path.read_text())
    assert game["Moves"][16:19] == ["i15-i16", "j16-j13", "n14-n13"]
    original = api.check(api.record_at(str(path)))
    assert original.valid and [(d.rule, d.ply, d.message) for d in original.diagnostics if d.ply == 19] == [
        ("G16", 19, "the record leaves out a berserk continuation after m5-m13xm14: m13-m14xn14 (berw: n)")
    ]
    error, origin = swapped_error(game, 17, tmp_path / path.name)
    assert (origin, error.rule, error.ply, error.message) == (
        "n14",
        "G2",
        19,
        "the piece on j16 is White's, and Black is to move; the rest of this line is not checked",  # (no atkf: ply 19)
    )


@pytest.mark.parametrize(
    ("folder", "name", "index"),
    [
        ("t137-old-tyr-2-13x13", "game-137-26-19658.json", 21),
        ("t134-old-tyr-1-17x17", "game-134-7-10753.json", 33),
    ],
)
def test_a_look_back_does_not_take_the_swapped_in_piece_to_give_its_square_to_the_mover(folder, name, index, tmp_path):
    """Old Tyr (berw:a): swapped with the next, the ply moves a piece of the side not to move. A look
    back found left-out continuations that took that piece and brought one of the mover's onto its
    square (game-137-26: g13-h13 after ply 9, g11-g13xh13 after ply 18), so the swap was caught a
    ply late; a piece no capture turns (not a mercenary) on the ply's origin is now never looked
    past: G2 at its ply."""
    path = TYPES / folder / name
    assert_caught_by_the_turn_rule(json.loads(path.read_text()), index, tmp_path / name)
