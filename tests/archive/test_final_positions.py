"""Position search and the move tree at the final position of a game longer than EXACT_PLIES
(issue 41's mutants): past the whole tokens the index keeps a short token, and at a main line's
end that token has no ply after it; both records are found there, and the tree counts the one
that goes on."""

from test_positions import random_tablut

from lusoria.archive import Archive, Filters
from lusoria.archive.positions import EXACT_PLIES
from lusoria.validator.games import GAMES


def test_the_final_position_of_a_long_game_is_found(tmp_path):
    (first, reached), (second, passed) = random_tablut(5, 12), random_tablut(5, 14)  # the second goes on
    assert second.startswith(first.removesuffix(" *\n")) and 12 > EXACT_PLIES
    archive = Archive(str(tmp_path / "a.db"))
    assert archive.import_paths([first + "\n" + second]).added == 2
    rules = GAMES["tablut"]()
    end, longer_end = rules.format_position(reached[12]), rules.format_position(passed[14])
    assert [(row["id"], row["ply"]) for row in archive.query(Filters(position=end))] == [(1, 12), (2, 12)]
    assert [(row["id"], row["ply"]) for row in archive.query(Filters(position=longer_end))] == [(2, 14)]
    (node,) = archive.tree(end)
    assert (node.ply, node.games, node.average_ply) == ("f6-f9", 1, 13.0)
    assert [(n.ply, n.games) for n in archive.tree(from_id=1, ply=12)] == [("f6-f9", 1)]
    assert archive.tree(longer_end) == [] and archive.tree(from_id=2, ply=14) == []
    assert [row["id"] for row in archive.query(Filters(records=[first]))] == [1, 2]  # the same game, or more
