"""The move tree with variations (`lusoria tree --variations`, schema version 4): the plies of
variations are stored from the position they were played in, and counted only on request."""

import io
import json

import pytest
from click.testing import CliRunner
from conftest import archive_copy
from test_migration import as_version_7, downgraded, rows

from lusoria.archive import Archive, Filters, schema
from lusoria.archive.variations import variation_rows
from lusoria.cli import main
from lusoria.validator.replay import check

INITIAL_TABLUT = "3ppp3/4p4/4P4/p3P3p/ppPPKPPpp/p3P3p/4P4/4p4/3ppp3 w"
# Record 1 has a variation from the start (d5-d3 …), which has one of its own at its second ply
# (i6-f6, then the king's illegal e5-e9, left out); record 2 plays that variation as its main
# line; record 3 plays its main line's first ply again in its variation (it counts once).
RECORDS = """\
[Game "tablut"]
[Event "Spring"]
[Result "1-0"]

1. c5-c3 (1. d5-d3 i4-h4 (1... i6-f6 2. e5-e9) 2. c5-c3) i6-f6 2. d5-d3 i4-h4 1-0

[Game "tablut"]
[Event "Autumn"]
[Result "0-1"]

1. d5-d3 i4-h4 0-1

[Game "tablut"]
[Event "Autumn"]
[Result "*"]

1. c5-c3 (1. c5-c3 i4-h4) i6-f6 *
"""


def counts(nodes, prefix=()) -> dict[tuple[str, ...], tuple[int, int, int, int]]:
    """Every node of a tree by its line of plies: (games, White wins, Black wins, unfinished)."""
    found = {}
    for node in nodes:
        line = prefix + (node.ply,)
        found[line] = (node.games, node.white, node.black, node.unfinished)
        found.update(counts(node.children, line))
    return found


@pytest.fixture(scope="module")
def archive(tmp_path_factory):
    archive = Archive(str(tmp_path_factory.mktemp("variations") / "variations.db"))
    assert archive.import_paths([io.StringIO(RECORDS)]).added == 3
    return archive


def test_variation_plies_are_stored_as_far_as_they_are_legal(archive):
    stored = rows(archive.path, "SELECT record_id, line, ply, text FROM variation_plies ORDER BY record_id, line, ply")
    assert stored == [
        (1, 1, 0, "d5-d3"),
        (1, 1, 1, "i4-h4"),
        (1, 1, 2, "c5-c3"),
        (1, 2, 1, "i6-f6"),
        (3, 1, 0, "c5-c3"),
        (3, 1, 1, "i4-h4"),
    ]
    # a variation ply starts where its line's ply before it ended, and its parent's line too
    linked = rows(
        archive.path,
        "SELECT count(*) FROM variation_plies v JOIN variation_plies w ON "
        "w.record_id = v.record_id AND w.line = v.line AND w.ply = v.ply + 1 "
        "WHERE w.position != v.next",
    )
    assert linked == [(0,)]
    nested = rows(
        archive.path,
        "SELECT v.position = w.position FROM variation_plies v, variation_plies w "
        "WHERE v.record_id = 1 AND v.line = 1 AND v.ply = 1 AND w.record_id = 1 AND w.line = 2",
    )
    assert nested == [(1,)]


def test_main_lines_keep_each_position_and_the_ply_played_from_it(archive):
    assert rows(
        archive.path,
        "SELECT record_id, group_concat(move, ' ') FROM (SELECT * FROM plies "
        "ORDER BY record_id, ply) GROUP BY record_id",
    ) == [(1, "c5-c3 i6-f6 d5-d3 i4-h4"), (2, "d5-d3 i4-h4"), (3, "c5-c3 i6-f6")]
    assert rows(archive.path, "SELECT record_id, ply FROM plies WHERE move IS NULL ORDER BY record_id") == [
        (1, 4),
        (2, 2),
        (3, 2),
    ]


def test_the_tree_counts_variations_only_on_request(archive):
    assert counts(archive.tree(INITIAL_TABLUT, depth=2)) == {
        ("c5-c3",): (2, 1, 0, 1),
        ("c5-c3", "i6-f6"): (2, 1, 0, 1),
        ("d5-d3",): (1, 0, 1, 0),
        ("d5-d3", "i4-h4"): (1, 0, 1, 0),
    }
    assert counts(archive.tree(INITIAL_TABLUT, depth=3, variations=True)) == {
        ("c5-c3",): (2, 1, 0, 1),
        ("c5-c3", "i6-f6"): (2, 1, 0, 1),
        ("c5-c3", "i4-h4"): (1, 0, 0, 1),
        ("c5-c3", "i6-f6", "d5-d3"): (1, 1, 0, 0),
        ("d5-d3",): (2, 1, 1, 0),
        ("d5-d3", "i4-h4"): (2, 1, 1, 0),
        ("d5-d3", "i6-f6"): (1, 1, 0, 0),
        ("d5-d3", "i4-h4", "c5-c3"): (1, 1, 0, 0),
    }
    # the mean ply number: variation plies count with their own numbers
    assert [node.average_ply for node in archive.tree(INITIAL_TABLUT, variations=True)] == [1.0, 1.0]


def test_the_tree_with_variations_applies_the_filters(archive):
    assert counts(archive.tree(INITIAL_TABLUT, filters=Filters(event="Spring"), variations=True)) == {
        ("c5-c3",): (1, 1, 0, 0),
        ("d5-d3",): (1, 1, 0, 0),
    }


def test_tree_command_variations(archive):
    runner = CliRunner()
    plain = json.loads(runner.invoke(main, ["tree", INITIAL_TABLUT, "--db", archive.path, "--format", "json"]).output)
    flagged = runner.invoke(main, ["tree", INITIAL_TABLUT, "--db", archive.path, "--format", "json", "--variations"])
    assert flagged.exit_code == 0, flagged.output
    assert [(n["ply"], n["games"]) for n in plain] == [("c5-c3", 2), ("d5-d3", 1)]
    assert [(n["ply"], n["games"]) for n in json.loads(flagged.output)] == [("c5-c3", 2), ("d5-d3", 2)]


def as_version_3(path: str) -> None:
    """Turn an archive into what version 3 of the schema made, as far as the upgrade reads it: no
    plies.next, no variation plies, no record_boards, record_squares or material_runs."""
    as_version_7(path)
    with downgraded(path, 3) as conn:
        for table in ("variation_plies", "record_boards", "record_squares", "material_runs"):
            conn.execute(f"DROP TABLE {table}")
        conn.execute("ALTER TABLE plies DROP COLUMN next")


def test_a_version_3_archive_is_upgraded_with_its_variations(archive, tmp_path):
    path = archive_copy(archive.path, tmp_path)
    as_version_3(path)
    old = Archive(path)
    assert counts(old.tree(INITIAL_TABLUT, depth=3, variations=True)) == counts(
        archive.tree(INITIAL_TABLUT, depth=3, variations=True)
    )
    assert rows(path, "PRAGMA user_version") == [(schema.SCHEMA_VERSION,)]
    for table, order in (
        ("plies", "position, record_id, ply"),
        ("variation_plies", "position, record_id, ply"),
        ("record_squares", "record_id"),
        ("material_runs", "record_id, first_ply"),
        ("record_boards", "record_id"),
        ("material_ranges", "record_id"),
    ):
        assert rows(path, f"SELECT * FROM {table} ORDER BY {order}") == rows(
            archive.path, f"SELECT * FROM {table} ORDER BY {order}"
        )


def test_a_record_that_cannot_be_replayed_has_no_variation_rows():
    assert variation_rows(check('[Game "tablut"]\n[Variant "nosuch"]\n\n1. e3-c3 (1. e3-d3) *\n')) == []  # no rules
    assert variation_rows(check('[Game "tablut"]\n\n1. e3-z9 (1. e3-d3) *\n')) == []  # not parsed


def test_the_plies_of_a_variation_stand_where_its_later_plies_showed_its_game_went():
    """A tafl record that leaves out berserk continuations (G16): the variation's ply 3 shows that
    c4 went on to c6 after c2-c4xd4 (ply 1), so its plies 1 and 2 are stored on the boards of that
    line, as the main line's are (before, on the boards as written: c6-c5 from a board without c6)."""
    text = (
        '[Game "hnefatafl"] [Variant "tyr-9x9"] [Position "9/2p3K2/2P6/9/9/3Pp4/9/2p6/9 b"] '
        "1... c2-c3 (1... c2-c4xd4 2. Kg8-g7 c6-c5) 2. Kg8-g7 *"
    )
    report = check(text)
    assert [(d.rule, d.ply) for d in report.diagnostics] == [("G16", 3)]
    lines, plies, before, after, texts = variation_rows(report, lambda rules, position: rules.format_position(position))
    assert (lines, plies, texts) == ([1, 1, 1], [0, 1, 2], ["c2-c4xd4", "Kg8-g7", "c6-c5"])
    assert before == ["9/2p3K2/2P6/9/9/3Pp4/9/2p6/9 b", "9/2p3K2/9/2p6/9/4p4/9/9/9 w", "9/2p6/6K2/2p6/9/4p4/9/9/9 b"]
    assert after == [*before[1:], "9/2p6/6K2/9/2p6/4p4/9/9/9 w"]
