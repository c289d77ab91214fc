"""The sums of the plies played from the opening positions (`next_plies`, schema version 11): the
move tree read from them answers as the tree read from the games, kept by every import batch,
made by an upgrade, and left as it was by a failed import."""

import sqlite3

import pytest
from conftest import archive_copy, connect

from lusoria.api import random_records
from lusoria.archive import Archive, Filters, InvalidSQL, commands
from lusoria.archive.importer import import_rows
from lusoria.archive.next_plies import SUMMED_PLIES, Written
from lusoria.archive.query import summable
from lusoria.archive.records_as_rows import checked_rows
from lusoria.archive.schema import open_archive
from lusoria.pipeline import records as read
from lusoria.validator import tablut

# back at the start at plies 4 and 8 (a short token past ply 5: found by its board), then on
BACK_AND_FORTH = (
    '[Game "tablut"]\n[Date "2019.05.??"]\n\n1. e3-c3 d1-d2 2. c3-e3 d2-d1 3. e3-c3 d1-d2 '
    "4. c3-e3 d2-d1 5. e6-b6 e2-a2 0-1\n"
)
FILTERS = [
    Filters(),
    Filters(valid=True),
    Filters(game="TABLUT"),
    Filters(valid=False, symmetric=True),
    Filters(symmetric=True),
    Filters(variant="seed", valid=True),
]


def records(seed: int) -> str:
    games = [
        *random_records("tablut", 40, seed=seed, max_plies=7),
        *random_records("brandubh", 25, seed=seed, max_plies=5),
        *random_records("laquet", 25, seed=seed, max_plies=4),
    ]
    # some records twice over, with another result and date (the same plies: not duplicates)
    games += [
        text.replace('[Result "*"]', '[Result "1-0"]').replace("*\n", "1-0\n") + '[Date "2020.01.02"]\n'
        for text in games[::7]
    ]
    games.insert(len(games) // 2, BACK_AND_FORTH)
    return "\n".join(games)


def by_games(archive: Archive, **asked) -> list:
    """The tree as read from the games alone."""
    original = commands.summable
    commands.summable = lambda *_: None
    try:
        return [node.as_dict() for node in archive.tree(**asked)]
    finally:
        commands.summable = original


def starts(archive: Archive) -> list[dict]:
    """Positions to ask from: each game's start, and positions after the first plies of some records."""
    asked = [{"from_id": record, "ply": ply} for record in range(1, 200, 9) for ply in range(SUMMED_PLIES + 2)]
    return [{"position": tablut.INITIAL}, *asked]


@pytest.fixture(scope="module", params=[(5, 1000), (17, 13)], ids=["one batch", "batches of 13"])
def archive(request, tmp_path_factory):
    seed, batch = request.param
    archive = Archive(str(tmp_path_factory.mktemp("sums") / "a.db"))
    archive.import_paths([records(seed)], batch_size=batch)
    return archive


@pytest.mark.parametrize("filters", FILTERS, ids=repr)
def test_the_tree_read_from_the_sums_is_the_tree_read_from_the_games(archive, filters):
    assert summable(filters, variations=False) is not None
    for asked in starts(archive):
        try:
            expected = by_games(archive, filters=filters, depth=2, **asked)
        except ValueError:  # no such ply in that record
            continue
        assert [node.as_dict() for node in archive.tree(filters=filters, depth=2, **asked)] == expected, asked


def test_the_sums_count_a_position_reached_again_later_in_a_game(tmp_path):
    archive = Archive(str(tmp_path / "a.db"))
    archive.import_paths([BACK_AND_FORTH])  # the start at plies 0, 4 (e3-c3 both times) and 8 (e6-b6)
    found = {node.ply: node for node in archive.tree(tablut.INITIAL)}
    assert [(n.ply, n.games, n.black, n.average_ply, n.first, n.last) for n in found.values()] == [
        ("e3-c3", 1, 1, 3.0, "2019.05.01", "2019.05.31"),
        ("e6-b6", 1, 1, 9.0, "2019.05.01", "2019.05.31"),
    ]
    assert len(sums(archive.path)) == 2 + 1  # from the start, and from the position after ply 1 (plies 1, 5, 9)


def test_the_position_a_record_ends_at_is_not_summed_up(tmp_path):
    """No ply is played from it in that record: the position after 1. e6-b6, which BACK_AND_FORTH
    reaches at ply 9 only, is read from the games."""
    archive = Archive(str(tmp_path / "a.db"))
    archive.import_paths([BACK_AND_FORTH, '[Game "tablut"]\n\n1. e6-b6 *\n'])
    assert [(n.ply, n.games) for n in archive.tree(tablut.INITIAL)] == [("e6-b6", 2), ("e3-c3", 1)]
    assert len(sums(archive.path)) == 2 + 1  # as BACK_AND_FORTH's alone: nothing from after e6-b6
    assert [(n.ply, n.games, n.average_ply) for n in archive.tree(from_id=2, ply=1)] == [("e2-a2", 1, 10.0)]


def test_filters_the_sums_cannot_answer_read_the_games():
    assert summable(Filters(player="Karin Nilsson"), variations=False) is None
    assert summable(Filters(date_from="2020"), variations=False) is None
    assert summable(Filters(limit=3), variations=False) is None
    assert summable(Filters(), variations=True) is None
    assert summable(Filters(game="tablut", valid=True, symmetric=True), variations=False) == (
        "n.game = lower(?) AND n.valid = ?",
        ["tablut", True],
    )


def sums(path: str) -> list[tuple]:
    conn = connect(path)
    try:
        return conn.execute("SELECT * FROM next_plies ORDER BY 1, 2, 3, 4, 5, 6").fetchall()
    finally:
        conn.close()


def test_an_import_in_batches_sums_up_as_one_batch(tmp_path):
    one, many = Archive(str(tmp_path / "one.db")), Archive(str(tmp_path / "many.db"))
    one.import_paths([records(3)])
    many.import_paths([records(3)], batch_size=11)
    assert sums(one.path) == sums(many.path) and len(sums(one.path)) > 50


def test_a_failed_import_leaves_the_sums_as_they_were(archive, tmp_path, monkeypatch):
    path = archive_copy(archive.path, tmp_path)
    before = sums(path)
    monkeypatch.setenv("LUSORIA_IMPORT_FAULT", "commit:1:raise")
    with pytest.raises(RuntimeError):
        Archive(path).import_paths(
            [
                "\n".join(random_records("tablut", 30, seed=99, max_plies=6))
                + "\n"
                + BACK_AND_FORTH.replace("2019", "2021")
            ]
        )
    assert sums(path) == before
    monkeypatch.delenv("LUSORIA_IMPORT_FAULT")
    Archive(path).import_paths([BACK_AND_FORTH.replace("2019", "2021")])
    assert sums(path) != before
    assert by_games(Archive(path), position=tablut.INITIAL, depth=3) == [
        node.as_dict() for node in Archive(path).tree(tablut.INITIAL, depth=3)
    ]


def test_the_tree_from_positions_summed_up_reads_no_game(archive, monkeypatch):
    from lusoria.archive import tree

    rules = tablut.Tablut()  # the start string alone is read by every game of its board: Tablut's start here
    expected = archive.tree_from(rules, rules.initial(), filters=Filters(valid=True, symmetric=True))
    monkeypatch.setattr(tree, "LEVEL", "not SQL {variations}{won}{lost}{only}")
    assert archive.tree_from(rules, rules.initial(), filters=Filters(valid=True, symmetric=True)) == expected
    with pytest.raises(InvalidSQL) as refused:  # deeper: not summed up, read from their games
        archive.tree(tablut.INITIAL, depth=SUMMED_PLIES + 1)
    assert str(refused.value) == 'near "not": syntax error'  # as Archive.sql says SQL SQLite cannot run


def test_an_import_adds_to_the_sums_another_import_made_between_its_batches(tmp_path):
    """An import by another connection (as by another process), committed between two batches of
    this one, summed up positions this one's next batch reaches: it adds to their sums rather than
    summing them up again (a constraint failed)."""
    first, between = (list(random_records("tablut", 6, seed=seed, max_plies=6)) for seed in (41, 42))
    last = [text.replace("????.??.??", "2020.01.02") for text in between]  # their openings again, another day
    together = Archive(str(tmp_path / "together.db"))
    together.import_paths(["\n".join(first + between + last)])
    path = str(tmp_path / "a.db")

    def checked():
        yield from checked_rows(read(["\n".join(first)]))
        Archive(path).import_paths(["\n".join(between)])  # another connection's import, committed
        yield from checked_rows(read(["\n".join(last)]))

    summary = import_rows(open_archive(path), checked(), batch_size=6)
    assert (summary.added, summary.failed) == (12, [])
    assert sums(path) == sums(together.path) and len(sums(path)) > 10


def test_a_writing_process_knows_when_another_wrote_to_the_archive(tmp_path):
    """`Written`, which MoveCodes and NextPlies read again by: another connection's commit is a write
    since; this connection's own is not; `forget` makes the next question yes."""
    path = tmp_path / "a.db"
    mine, other = sqlite3.connect(path), sqlite3.connect(path)
    mine.execute("CREATE TABLE t (x)")
    mine.commit()
    written = Written(mine)
    assert [written.since(), written.since()] == [True, False]
    mine.execute("INSERT INTO t VALUES (1)")
    mine.commit()
    assert not written.since()
    other.execute("INSERT INTO t VALUES (2)")
    other.commit()
    assert [written.since(), written.since()] == [True, False]
    written.forget()
    assert written.since()
    mine.close()
    other.close()
