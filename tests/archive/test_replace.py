"""`lusoria import --replace`: the records the archive holds from each file read are removed
first, so that an archive built by importing a file and then replacing it with an edited copy is,
table by table, the archive of the edited file imported alone (ids, rowids and the codes of plies
aside), its move tree and full-text search included."""

import io
import os
import random
import shutil
from pathlib import Path

import pytest
import zstandard
from click.testing import CliRunner
from conftest import connect
from hypothesis import given, settings
from hypothesis import strategies as st

from lusoria.api import random_records
from lusoria.archive import Archive, Filters, Read
from lusoria.archive import texts as texts_module
from lusoria.archive.positions import EXACT_PLIES, KEY_LENGTH, SHORT_LENGTH
from lusoria.archive.records_as_rows import Failure, checked_rows
from lusoria.cli import main
from lusoria.notation import sources
from lusoria.pipeline import records as read
from lusoria.validator import tablut

NAMES = ["Karin Nilsson", "Olof Rudbeck", "Anna Fomina", "Jens Holm"]
RESULTS = ["1-0", "0-1", "1/2-1/2", "*"]


def games(seed: int, count: int = 24) -> list[str]:
    """Records of tablut and brandubh (sharing their first plies: the sums of `next_plies`), with
    players, dates, results and a comment of their own."""
    chosen = random.Random(seed)
    found = []
    for number, text in enumerate(
        [
            *random_records("tablut", count * 2 // 3, seed=seed, max_plies=6),
            *random_records("brandubh", count // 3, seed=seed, max_plies=4),
        ]
    ):
        result = chosen.choice(RESULTS)
        text = (
            text.replace('[White "random"]', f'[White "{chosen.choice(NAMES)}"]')
            .replace('[Black "random"]', f'[Black "{chosen.choice(NAMES)}"]')
            .replace("????.??.??", f"{chosen.randint(1990, 2024)}.0{chosen.randint(1, 9)}.1{chosen.randint(0, 9)}")
            .replace('[Result "*"]', f'[Result "{result}"]')
            .replace(" *\n", f" {{game {number} escapes}} {result}\n")
        )
        found.append(text)
    return found


def renamed(records: list[str]) -> list[str]:
    return [records[0].replace("[White ", '[White "Ida Lind"]\n[Annotator ', 1), *records[1:]]


def mended(records: list[str]) -> list[str]:
    """The plies of record 2 mended: those of another game."""
    other = games(99, 3)[0]
    return [*records[:2], records[2].split("\n\n")[0] + "\n\n" + other.split("\n\n")[1], *records[3:]]


def commented(records: list[str]) -> list[str]:
    """Record 1's comment edited: the same game (the identity leaves comments out), another text."""
    return [records[0], records[1].replace("escapes}", "escapes at last}"), *records[2:]]


def sourced(records: list[str]) -> list[str]:
    """A Source tag added to record 4, which the identity leaves out too."""
    return [*records[:4], records[4].replace("[Round ", '[Source "Club book, p. 3"]\n[Round ', 1), *records[5:]]


def removed(records: list[str]) -> list[str]:
    return records[:3] + records[4:]


def added(records: list[str]) -> list[str]:
    return [*records, games(7, 3)[1]]


EDITS = {
    "unchanged": lambda records: records,
    "player renamed": renamed,
    "ply mended": mended,
    "record removed": removed,
    "record added": added,
    "comment edited": commented,
    "Source tag added": sourced,
    "records moved": lambda records: [records[-1], *records[2:-1], records[1], records[0]],
    "a record first": lambda records: [games(7, 3)[1], *records],
    "all edits": lambda records: added(removed(sourced(commented(mended(renamed(records)))))),
    "all but one removed": lambda records: records[5:6],
}


def write(path, records: list[str]) -> None:
    path.write_text("\n".join(records))


def lines_of(path) -> list[int]:
    """The lines the records of a file begin at (a line `[Game …` after a blank one, or the first)."""
    text = path.read_text().split("\n")
    return [n for n, line in enumerate(text, 1) if line.startswith("[Game") and (n == 1 or not text[n - 2].strip())]


def contents(path: str) -> dict[str, list]:
    """Every table of an archive, each record named by its place (path, line), a ply by its text:
    what does not depend on the order records were stored in (ids, rowids, the codes of plies).
    The full-text indexes are read by their words (fts5vocab), each checked first."""
    conn = connect(path)
    assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
    conn.execute("INSERT INTO records_fts (records_fts, rank) VALUES ('integrity-check', 1)")
    conn.execute("INSERT INTO positions (positions) VALUES ('integrity-check')")
    conn.execute("CREATE VIRTUAL TABLE temp.words USING fts5vocab(main, records_fts, instance)")
    place = {record: (path, line) for record, path, line in conn.execute("SELECT id, path, line FROM records")}
    move = dict(conn.execute("SELECT code, text FROM moves"))

    def named(sql: str) -> list:
        return sorted(([place[row[0]], *row[1:]] for row in conn.execute(sql)), key=repr)

    def ply(term: str, offset: int) -> tuple[str, str]:
        token = term[: KEY_LENGTH if offset < EXACT_PLIES else SHORT_LENGTH]
        return token, move.get(term[len(token) :], "")

    cursor = conn.execute("SELECT r.*, t.text FROM records r JOIN record_texts t USING (id)")
    kept = [n for n, (name, *_) in enumerate(cursor.description) if name not in ("id", "packed_text")]
    found = {  # (packed_text: compressed with the archive's dictionary, if it has one: its text compared)
        "records": sorted(([place[row[0]], *(row[n] for n in kept)] for row in cursor), key=repr),
        "records_fts": named("SELECT doc, term, col, offset FROM temp.words"),
        "positions": named("SELECT doc, offset, term FROM position_plies"),
        "next_plies": sorted(
            ([*row[:1], move[row[1]], *row[2:]] for row in conn.execute("SELECT * FROM next_plies")), key=repr
        ),
        "player_aliases": conn.execute("SELECT * FROM player_aliases ORDER BY alias").fetchall(),
        "rules": conn.execute("SELECT count(*) FROM rules").fetchall(),
    }
    found["positions"] = [[row[0], row[1], ply(row[2], row[1])] for row in found["positions"]]
    for table in (
        "other_tags",
        "diagnostics",
        "variation_plies",
        "record_boards",
        "record_squares",
        "material_runs",
        "material_ranges",
    ):
        columns = [name for (name,) in conn.execute(f"SELECT name FROM pragma_table_info('{table}')")]
        others = ", ".join(name for name in columns if name != "record_id")
        found[table] = named(f"SELECT record_id, {others} FROM [{table}]")
    tables = {name for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    conn.close()
    # every table is compared but the dictionaries (of plies: codes; of texts: none in these archives) and the
    # last id given (ids are not compared)
    assert tables - set(found) - {"moves", "text_dictionaries", "record_ids"} == {
        name for name in tables if name.startswith(("records_fts_", "positions_")) or name == "position_plies"
    }
    return found


def texts(archive: Archive) -> dict[str, int]:
    """The ids of an archive's records, by text."""
    return {row["text"]: row["id"] for row in archive.sql("SELECT id, text FROM record_texts")}


def answers(archive: Archive) -> list:
    """What the move tree (from its sums and from the games) and full-text search answer."""
    trees = [
        [node.as_dict() for node in archive.tree(position=tablut.INITIAL, depth=2, filters=filters)]
        for filters in (Filters(), Filters(valid=True), Filters(player="Karin Nilsson", symmetric=True))
    ]
    words = [
        sorted((row["path"], row["line"]) for row in archive.query(Filters(text=text)))
        for text in ("escape", "Ida", "game 2", "Fomina")
    ]
    return [trees, words, archive.stats()]


def fail_to_store(monkeypatch, *parts: str) -> None:
    """Make storing a record raise (a bug) when a value of its row holds each of `parts`."""
    from lusoria.archive import importer

    insert_rows = importer.insert_rows

    def failing(conn, tables, *args, **kwargs):
        for _, found in tables.get("records", []):
            values = [str(value) for (value,) in found]
            if all(any(part in value for value in values) for part in parts):
                raise ValueError("a bug")
        return insert_rows(conn, tables, *args, **kwargs)

    monkeypatch.setattr(importer, "insert_rows", failing)


@pytest.fixture
def in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    os.mkdir("games")
    return tmp_path


@pytest.mark.parametrize(
    "edit, batch",
    [
        *((edit, 1000) for edit in EDITS),
        # batches of 5 part a file of six records: the edits that move records across their border
        *(
            (edit, 5)
            for edit in (
                *("unchanged", "record removed", "record added", "records moved"),
                *("a record first", "all edits", "all but one removed"),
            )
        ),
    ],
    ids=lambda value: ("one batch" if value == 1000 else f"batches of {value}") if isinstance(value, int) else value,
)
def test_a_replaced_file_leaves_the_archive_of_the_file_as_it_is_now(in_tmp, edit, batch):
    records = games(1)
    other = games(2, 6)
    write(in_tmp / "games/a.lgn", records)
    write(in_tmp / "games/b.lgn", other)
    replaced = Archive("replaced.db")
    replaced.import_paths(["games"], batch_size=batch)
    replaced.merge_players(["Jens Holm"], "J. Holm")  # aliases are the user's: kept
    ids = texts(replaced)
    write(in_tmp / "games/a.lgn", EDITS[edit](records))
    summary = replaced.import_paths(["./games/a.lgn"], batch_size=batch, replace=True)
    unchanged = [record for record in records if record in EDITS[edit](records)]
    assert (summary.kept, summary.replaced, summary.added) == (
        len(unchanged),
        len(records) - len(unchanged),
        len(EDITS[edit](records)) - len(unchanged),
    )
    assert summary.replaced_files == (len(unchanged) < len(records))
    now = texts(replaced)
    assert {text: ids[text] for text in unchanged} == {text: now[text] for text in unchanged}
    fresh = Archive("fresh.db")
    fresh.import_paths(["./games/a.lgn", "games/b.lgn"], batch_size=batch)  # (paths as given)
    fresh.merge_players(["Jens Holm"], "J. Holm")
    assert contents(replaced.path) == contents(fresh.path)
    assert answers(replaced) == answers(fresh)


def test_replacing_every_file_unchanged_in_batches_changes_nothing_and_a_file_is_found_from_anywhere(in_tmp):
    write(in_tmp / "games/a.lgn", games(3))
    write(in_tmp / "games/b.lgn", games(4))
    archive = Archive(str(in_tmp / "a.db"))
    archive.import_paths(["games"], batch_size=7)
    before = contents(archive.path)
    summary = archive.import_paths(["games/"], batch_size=7, replace=True)
    assert str(summary) == "added 0 records (0 invalid, 0 of them unparsable), kept 48 unchanged, skipped 0 duplicates"
    assert contents(archive.path) == before
    summary = archive.import_paths([str(in_tmp / "games" / "b.lgn")], replace=True)
    assert (summary.replaced, summary.replaced_files, summary.added, summary.kept) == (0, 0, 0, 24)
    assert archive.sql("SELECT DISTINCT path FROM records WHERE path LIKE '%b.lgn'") == [
        {"path": str(in_tmp / "games" / "b.lgn")}  # (the path it is read by now)
    ]
    assert archive.sql("SELECT count(*) AS n FROM records") == [{"n": 48}]
    os.chdir("games")  # the same file from elsewhere (its records were skipped as duplicates of themselves)
    summary = archive.import_paths(["a.lgn"], replace=True)
    assert (summary.replaced, summary.added, summary.duplicates, summary.kept) == (0, 0, 0, 24)


def tablut_record(date: str, plies: str) -> str:
    return f'[Game "tablut"]\n[Date "{date}"]\n\n{plies} *\n'


# The position after e3-c3, in the opening of LATE's game only, which reaches it again at ply 5;
# the earliest game of e3-c3 and the latest (MID plays it too)
LATE = tablut_record("2000.01.01", "1. e3-d3 d1-d2 2. d3-b3 d2-d1 3. b3-c3 d1-d2")
MID = tablut_record("2005.01.01", "1. e3-c3 d1-d2 2. c3-b3 d2-d1")
EARLY, LAST = tablut_record("1990.01.01", "1. e3-c3 d1-d2"), tablut_record("2020.01.01", "1. e3-c3 d1-d3")
HAND_EDITS = {  # a.lgn before and after, b.lgn
    "a first date removed": ([EARLY, LAST], [LAST], [MID]),
    "a last date removed": ([EARLY, LAST], [EARLY], [MID]),
    "an opening left": ([EARLY], [tablut_record("2010.01.01", "1. e3-d3 d1-d2")], [LATE]),
    "an undated opening left": (  # (no first or last date of it: the position goes as an opening left)
        [tablut_record("????.??.??", "1. e3-c3 d1-d2")],
        [tablut_record("2010.01.01", "1. e3-d3 d1-d2")],
        [LATE],
    ),
    "only a last date removed": ([LAST], [tablut_record("2010.01.01", "1. e3-d3 d1-d2")], [EARLY, MID]),
}


@pytest.mark.parametrize("edit", list(HAND_EDITS))
def test_the_sums_of_a_position_are_as_the_games_left_make_them(in_tmp, edit):
    """The first and last dates of a ply that a removed record gave are those of the games left;
    a position no record's opening reaches any more is not summed up (LATE reaches it later)."""
    before, after, other = HAND_EDITS[edit]
    write(in_tmp / "games/a.lgn", before)
    write(in_tmp / "games/b.lgn", other)
    replaced = Archive("replaced.db")
    replaced.import_paths(["games"])
    write(in_tmp / "games/a.lgn", after)
    replaced.import_paths(["games/a.lgn"], replace=True)
    Archive("fresh.db").import_paths(["games"])
    assert contents(replaced.path) == contents("fresh.db")
    assert answers(replaced) == answers(Archive("fresh.db"))


def test_a_record_of_another_file_is_still_a_duplicate(in_tmp):
    records = games(5, 6)
    write(in_tmp / "games/a.lgn", records)
    write(in_tmp / "games/b.lgn", records[:2])  # the same games: skipped, a's kept
    archive = Archive("a.db")
    archive.import_paths(["games"])
    write(in_tmp / "games/a.lgn", records[1:])
    summary = archive.import_paths(["games/a.lgn"], replace=True)
    assert (summary.replaced, summary.added, summary.kept, summary.duplicates) == (1, 0, 5, 0)
    write(in_tmp / "games/b.lgn", records[:3])  # b's second and third records: now a's
    summary = archive.import_paths(["games/b.lgn"], replace=True)
    assert (summary.replaced, summary.added, summary.duplicates) == (0, 1, 2)
    starts = [n for n, line in enumerate((in_tmp / "games/a.lgn").read_text().splitlines(), 1) if "[Game" in line]
    assert sorted((row["path"], row["line"]) for row in archive.query(Filters())) == [
        *(("games/a.lgn", line) for line in starts),
        ("games/b.lgn", 1),
    ]
    summary = archive.import_paths(["\n".join(records)], replace=True)  # a text: of no file, nothing replaced
    assert (summary.replaced, summary.added, summary.duplicates) == (0, 0, 6)


INTERRUPTIONS = {  # the edit, the batch stopped at its commit (of 3), the records left; then replaced, added, kept
    # record 0 another game: the old one removed at the file's end (the batch stopped), the new one added
    "renamed": (renamed, 3, 13, (1, 0, 12)),
    # record 1 the same game: the old one removed and the new one added in the first batch
    "commented": (commented, 2, 12, (0, 0, 12)),
}


@pytest.mark.parametrize("interruption", list(INTERRUPTIONS))
def test_an_interrupted_replacement_run_again_completes_it(in_tmp, monkeypatch, interruption):
    edit, batch, left, counts = INTERRUPTIONS[interruption]
    records = games(6, 12)
    write(in_tmp / "games/a.lgn", records)
    archive = Archive("a.db")
    archive.import_paths(["games"], batch_size=5)
    write(in_tmp / "games/a.lgn", edit(records))
    monkeypatch.setenv("LUSORIA_IMPORT_FAULT", f"commit:{batch}:raise")
    with pytest.raises(RuntimeError, match=f"stopped at commit of batch {batch}"):
        archive.import_paths(["games"], batch_size=5, replace=True)
    assert len(archive.query(Filters())) == left
    monkeypatch.delenv("LUSORIA_IMPORT_FAULT")
    summary = archive.import_paths(["games"], batch_size=5, replace=True)
    assert (summary.replaced, summary.added, summary.kept) == counts
    Archive("fresh.db").import_paths(["games"], batch_size=5)
    assert contents(archive.path) == contents("fresh.db")


def record_removed_from_a(in_tmp, records: list[str]) -> Archive:
    """An archive of a.lgn's `records` and b.lgn's, imported in batches of 5; a.lgn's record 3 then removed."""
    write(in_tmp / "games/a.lgn", records)
    write(in_tmp / "games/b.lgn", games(27, 3))
    archive = Archive("a.db")
    archive.import_paths(["games"], batch_size=5)
    write(in_tmp / "games/a.lgn", removed(records))
    return archive


def holds_a_as_it_is(archive: Archive, records: list[str]) -> bool:
    """Whether the archive's records of a.lgn are those of `records` with record 3 removed."""
    held = sorted(row["id"] for row in archive.sql("SELECT id FROM records WHERE path = 'games/a.lgn'"))
    ids = texts(archive)
    return held == sorted(ids[record] for record in removed(records))


def test_the_records_a_file_no_longer_has_go_with_the_batch_of_its_last_record(in_tmp, monkeypatch):
    """a.lgn's last record ends the first batch: the record removed from a.lgn is gone with it,
    though b.lgn's batch, the next, fails."""
    records = games(26, 9)[:6]
    archive = record_removed_from_a(in_tmp, records)
    monkeypatch.setenv("LUSORIA_IMPORT_FAULT", "commit:2:raise")
    with pytest.raises(RuntimeError, match="stopped at commit of batch 2"):
        archive.import_paths(["games"], batch_size=5, replace=True)
    assert holds_a_as_it_is(archive, records)


def test_a_failure_after_a_batch_tells_not_whether_its_file_ends(in_tmp):
    """What comes after a batch tells whether the file of its last record ends in it; a record
    lusoria failed on (left out) tells nothing, and a.lgn, whose record follows it, ends with the
    next batch: its record there keeps the one held. Which record held the failed one was cannot be
    told: a.lgn's record 3, not read again, is kept."""
    records = games(28, 12)[:7]
    archive = record_removed_from_a(in_tmp, records)
    failed = Failure("games/a.lgn:56", "ValueError: a bug", "", os.path.realpath("games/a.lgn"))

    def checked():
        read_again = list(checked_rows(read(["games/a.lgn"])))
        yield from read_again[:5]
        yield failed
        yield from read_again[5:]
        yield from checked_rows(read(["games/b.lgn"]))

    summary = archive.import_rows(checked(), batch_size=5, replace=True)
    assert (summary.replaced, summary.added, summary.kept, summary.failed) == (0, 0, 9, [failed])
    held = archive.sql("SELECT id FROM records WHERE path = 'games/a.lgn'")
    now = texts(archive)
    assert sorted(row["id"] for row in held) == sorted(now[record] for record in records)


# Back at the start at plies 4 and 8 (a short token past ply 5), then on
BACK_AND_FORTH = tablut_record(
    "2019.05.01", "1. e3-c3 d1-d2 2. c3-e3 d2-d1 3. e3-c3 d1-d2 4. c3-e3 d2-d1 5. e6-b6 e2-a2"
)
# At the position after e3-c3 (MID's opening) at ply 9 alone: a short token
LATE_E3_C3 = tablut_record(
    "2018.05.01", "1. e3-d3 d1-d2 2. d3-e3 d2-d1 3. e3-d3 d1-d2 4. d3-e3 d2-d1 5. e3-c3 d1-d2 6. c3-b3 d2-d3"
)


def replaced_short(in_tmp, monkeypatch, replaced: Archive, records: list[str]) -> None:
    """Import a.lgn again into `replaced` (`replace`), its third record `mended`, each record removed replayed as an
    older lusoria stored it otherwise: its positions cut after its second ply."""
    from lusoria.archive import removal

    stored_report = removal.stored_report

    def replayed_short(*stored):
        report = stored_report(*stored)
        del report.positions[3:]
        return report

    monkeypatch.setattr(removal, "stored_report", replayed_short)
    write(in_tmp / "games/a.lgn", mended(records))
    replaced.import_paths(["games/a.lgn"], replace=True)


@pytest.mark.parametrize("first", [BACK_AND_FORTH, LATE_E3_C3], ids=["back and forth", "a summed position late"])
def test_a_record_replayed_otherwise_than_it_was_stored_is_removed_by_what_the_archive_holds(
    in_tmp, monkeypatch, first
):
    """A record whose text replays otherwise than its import stored it (an older lusoria, or a
    record of another format whose text in lusoria's notation replays otherwise: a berserk record
    of ../shared/real) is taken out of `positions` by its terms there, and the positions it may
    have been summed up in are summed up again."""
    records = games(14, 9)
    records.insert(2, first)  # the record `mended` gives other plies (h83a: it was record 0, kept)
    write(in_tmp / "games/a.lgn", records)
    write(in_tmp / "games/b.lgn", [MID, *games(15, 6)])
    replaced = Archive("replaced.db")
    replaced.import_paths(["games"])

    replaced_short(in_tmp, monkeypatch, replaced, records)
    Archive("fresh.db").import_paths(["games"])
    assert contents(replaced.path) == contents("fresh.db")


# The position after its ply 6, the first one a short token stands for, and no other in its first
# plies: the start of SET_UP, a record of that position (summed up: an opening, white to move)
AT_PLY_SIX = tablut_record("2019.05.01", "1. e3-f3 d1-d2 2. f3-g3 d2-d3 3. g3-h3 d3-c3 4. h3-h2 c3-c2")
SET_UP = tablut_record("2011.01.01", "1. h3-h2 c3-c2").replace(
    "\n\n", '\n[Position "3ppp3/4p4/4P4/p3P3p/ppPPKPPpp/p3P3p/2p4P1/4p4/4pp3 w"]\n\n', 1
)


def test_a_summed_position_a_record_replayed_otherwise_reached_at_its_first_short_token_is_summed_again(
    in_tmp, monkeypatch
):
    """h83a: the positions summed up that a record replayed otherwise than it was stored may have
    reached are sought by its whole tokens before ply EXACT_PLIES and by its short ones from it on:
    AT_PLY_SIX, removed, reached SET_UP's opening at ply 6 (EXACT_PLIES) alone, whose sums lose its
    ply there (`ply > EXACT_PLIES` in `NextPlies.reached` passed the test above, whose first record
    is kept: its records replayed otherwise are random games)."""
    assert EXACT_PLIES == 6
    records = games(14, 9)
    records.insert(2, AT_PLY_SIX)  # the record `mended` gives other plies: removed, replayed short
    write(in_tmp / "games/a.lgn", records)
    write(in_tmp / "games/b.lgn", [SET_UP, *games(15, 6)])
    replaced = Archive("replaced.db")
    replaced.import_paths(["games"])
    from_set_up = "SELECT games FROM next_plies WHERE move = (SELECT code FROM moves WHERE text = 'h3-h2')"
    assert replaced.sql(from_set_up) == [{"games": 2}]  # SET_UP's first ply, and AT_PLY_SIX's seventh

    replaced_short(in_tmp, monkeypatch, replaced, records)
    assert replaced.sql(from_set_up) == [{"games": 1}]
    Archive("fresh.db").import_paths(["games"])
    assert contents(replaced.path) == contents("fresh.db")


# Reached after two plies (no opening of a game played from the start: its plies 0 and 1 are), and the start
# of OPENED_THERE: its opening, summed up while it is held
TWO_PLIES_IN = tablut_record("2012.01.01", "1. e3-f3 d1-d2 2. f3-g3 d2-c2")
OPENED_THERE = tablut_record("2013.01.01", "1. f3-g3 d2-c2").replace(
    "\n\n", '\n[Position "3ppp3/4p4/4P4/p3P3p/ppPPKPPpp/p3P3p/5P3/3pp4/4pp3 w"]\n\n', 1
)


@pytest.mark.parametrize(
    "now, games_there",
    [([], []), ([OPENED_THERE.replace("2013.01.01", "2014.01.01")], [{"games": 2}])],
    ids=["removed", "replaced by another game opened there"],
)
def test_a_position_no_opening_reaches_once_its_record_is_removed_is_summed_up_no_longer(in_tmp, now, games_there):
    """h83a: OPENED_THERE's start, summed up as its opening, is reached by TWO_PLIES_IN at ply 2 alone, past
    the first SUMMED_PLIES plies: with OPENED_THERE removed no opening reaches it, and its sums go (`p.offset
    <= ?` in AN_OPENING kept them, and TWO_PLIES_IN's ply there); a game opened there added in the same batch
    sums it up again from all its games (with its key left among those summed up, only the new game's ply
    was added)."""
    from_there = "SELECT games FROM next_plies WHERE move = (SELECT code FROM moves WHERE text = 'f3-g3')"
    write(in_tmp / "games/a.lgn", [OPENED_THERE, *games(17, 6)])
    write(in_tmp / "games/b.lgn", [TWO_PLIES_IN, *games(18, 6)])
    replaced = Archive("replaced.db")
    replaced.import_paths(["games"])
    assert replaced.sql(from_there) == [{"games": 2}]
    write(in_tmp / "games/a.lgn", [*now, *games(17, 6)])
    summary = replaced.import_paths(["games/a.lgn"], replace=True)
    assert (summary.replaced, summary.added) == (1, len(now))
    assert replaced.sql(from_there) == games_there
    Archive("fresh.db").import_paths(["games"])
    assert contents(replaced.path) == contents("fresh.db")


def test_a_record_stored_without_boards_that_replays_now_is_removed(in_tmp, monkeypatch):
    """A record whose rules were unknown at its import (no boards stored: a variant a user's
    catalogue adds later, here `[Variant "later"]`) and replay now is removed as one replayed
    otherwise than it was stored, not read for boards it has none of."""
    from lusoria.archive import removal

    later = MID.replace('[Game "tablut"]\n', '[Game "tablut"]\n[Variant "later"]\n')
    write(in_tmp / "games/a.lgn", [later, *games(16, 6)])
    replaced = Archive("replaced.db")
    replaced.import_paths(["games"])
    assert replaced.sql("SELECT count(*) AS n FROM record_boards") == [{"n": 6}]
    removal_replay = removal.stored_report
    monkeypatch.setattr(
        removal,
        "stored_report",
        lambda text, *kept: removal_replay(text.replace('[Variant "later"]\n', ""), *kept),
    )
    write(in_tmp / "games/a.lgn", games(16, 6))
    replaced.import_paths(["games/a.lgn"], replace=True)
    Archive("fresh.db").import_paths(["games"])
    assert contents(replaced.path) == contents("fresh.db")


def test_a_new_archive_made_by_a_replacement_keeps_the_records_of_its_first_batch(in_tmp):
    write(in_tmp / "games/a.lgn", games(10, 12))
    summary = Archive("a.db").import_paths(["games"], batch_size=5, replace=True)
    assert (summary.replaced, summary.added) == (0, 12)
    assert Archive("a.db").sql("SELECT count(*) AS n FROM records") == [{"n": 12}]


@pytest.mark.parametrize(
    ("edit", "batch"),
    [(mended, 1), (lambda records: records[:-1], 3)],
    ids=["a record changed", "the last record gone: the last batch"],
)
def test_a_failed_batch_leaves_the_records_it_was_replacing(in_tmp, monkeypatch, edit, batch):
    records = games(11, 12)
    write(in_tmp / "games/a.lgn", records)
    write(in_tmp / "games/b.lgn", records[:1])
    archive = Archive("a.db")
    archive.import_paths(["games"], batch_size=5)
    before = contents(archive.path)
    write(in_tmp / "games/a.lgn", edit(records))
    monkeypatch.setenv("LUSORIA_IMPORT_FAULT", f"insert:{batch}:raise")
    with pytest.raises(RuntimeError, match=f"stopped at insert of batch {batch}"):
        archive.import_paths(["games"], batch_size=5, replace=True)
    assert contents(archive.path) == before


POOL, OTHERS = games(12, 9)[:7], games(13, 3)  # of a.lgn, of b.lgn: none of a game of the other


@settings(max_examples=8)
@given(
    before=st.lists(st.sampled_from(POOL), min_size=1, max_size=6),
    after=st.lists(st.sampled_from(POOL), min_size=1, max_size=6),
    batch=st.integers(1, 4),
)
def test_any_file_replaced_by_any_other_is_the_other_imported_alone(tmp_path_factory, before, after, batch):
    folder = tmp_path_factory.mktemp("replace")
    write(folder / "a.lgn", before)
    write(folder / "b.lgn", OTHERS)
    replaced = Archive(str(folder / "replaced.db"))
    replaced.import_paths([str(folder / "a.lgn"), str(folder / "b.lgn")], batch_size=batch)
    write(folder / "a.lgn", after)
    replaced.import_paths([str(folder / "a.lgn")], batch_size=batch, replace=True)
    fresh = Archive(str(folder / "fresh.db"))
    fresh.import_paths([str(folder / "a.lgn"), str(folder / "b.lgn")], batch_size=batch)
    assert contents(replaced.path) == contents(fresh.path)


def test_import_replace_says_what_it_replaced(in_tmp):
    write(in_tmp / "games/a.lgn", games(8, 6))
    runner = CliRunner()
    assert runner.invoke(main, ["import", "--db", "a.db", "games"]).exit_code == 0
    write(in_tmp / "games/a.lgn", removed(games(8, 6)))
    write(in_tmp / "games/b.lgn", games(9, 3))
    result = runner.invoke(main, ["import", "--db", "a.db", "--replace", "games/"])
    assert (result.exit_code, result.stdout) == (
        0,
        "a.db: removed 1 record of 1 file, added 3 records (0 invalid, 0 of them unparsable), kept 5 unchanged, "
        "skipped 0 duplicates\n",
    )


def test_import_replace_of_unchanged_files_succeeds(in_tmp):
    """Every record kept unchanged is found: `import --replace` said "no record found" and exited 2
    after "kept 6 unchanged" (the README's tour runs it so)."""
    write(in_tmp / "games/a.lgn", games(8, 6))
    runner = CliRunner()
    assert runner.invoke(main, ["import", "--db", "a.db", "games"]).exit_code == 0
    result = runner.invoke(main, ["import", "--db", "a.db", "--replace", "games/"])
    assert (result.exit_code, result.stdout, result.stderr) == (
        0,
        "a.db: added 0 records (0 invalid, 0 of them unparsable), kept 6 unchanged, skipped 0 duplicates\n",
        "",
    )


def test_import_replace_of_as_many_new_records_as_unchanged_ones_found_them(in_tmp):
    """The records added and those kept are all found (ImportSummary.found), however many of each."""
    write(in_tmp / "games/a.lgn", games(8, 3))
    runner = CliRunner()
    assert runner.invoke(main, ["import", "--db", "a.db", "games"]).exit_code == 0
    write(in_tmp / "games/b.lgn", games(9, 3))
    result = runner.invoke(main, ["import", "--db", "a.db", "--replace", "games/"])
    assert (result.exit_code, result.stdout, result.stderr) == (
        0,
        "a.db: added 3 records (0 invalid, 0 of them unparsable), kept 3 unchanged, skipped 0 duplicates\n",
        "",
    )


def test_what_a_replacement_reads_is_told_by_the_paths_given_once():
    """`Read.of` (docs/archive.md: `import_rows` told what an import read) takes the paths as any
    iterable: standard input (one note, named twice) and a stream among them are no file, each said in a note."""
    read = Read.of(iter(["games", "-", "-", io.StringIO()]), iter(["games/a.lgn"]), [])
    assert (read.paths, read.files, read.unfiled) == (["games"], ["games/a.lgn"], ["<stdin>", "<stream>"])
    opened = io.StringIO()
    opened.name = "g.lgn"  # (as `open("g.lgn")` names its stream: "g.lgn is none" said a file was none, review-52)
    assert Read.of([opened], [], []).unfiled == ["the stream g.lgn"]
    assert [note.said({"replace=True": "--replace"}) for note in read.notes()] == [
        f"note: --replace replaces the records the archive holds from files: {name} is none; its records "
        "are added as without it (those it holds already skipped as duplicates)"
        for name in ("<stdin>", "<stream>")
    ]


def test_standard_input_is_no_file_to_replace(in_tmp):
    """Records read from `-` are stored with the path `<stdin>`: `--replace -` replaced every record
    any earlier standard input gave (other games altogether), where docs/archive.md says records
    read from standard input keep what the archive holds of them. A note says so (session 51: the
    same records given again were skipped as duplicates without a word of why), of a stream too."""
    first, second = games(16, 3), games(17, 3)
    runner = CliRunner()
    assert runner.invoke(main, ["import", "--db", "a.db", "-"], input="\n".join(first)).exit_code == 0
    result = runner.invoke(main, ["import", "--db", "a.db", "--replace", "-"], input="\n".join(second))
    assert (result.exit_code, result.stdout, result.stderr) == (
        0,
        "a.db: added 3 records (0 invalid, 0 of them unparsable), skipped 0 duplicates\n",
        "lusoria: note: --replace replaces the records the archive holds from files: <stdin> is none; its records "
        "are added as without it (those it holds already skipped as duplicates)\n",
    )
    assert Archive("a.db").sql("SELECT count(*) AS n FROM records") == [{"n": 6}]
    write(in_tmp / "games/a.lgn", first)
    walked = sources.Skipped("notes.md", "not a record file")  # an earlier walk's, said as it is: no source to note
    given = ["\n".join(first), walked, "games"]  # text, and a file
    summary = Archive("a.db").import_paths(given, replace=True)
    assert [str(problem) for problem in summary.problems] == [
        "note: replace=True replaces the records the archive holds from files: the text is none; its records "
        "are added as without it (those it holds already skipped as duplicates)",
        "notes.md: skipped, not a record file",
    ]
    assert (summary.added, summary.duplicates) == (0, 6)  # the text's and a.lgn's, all held


@pytest.mark.parametrize("batch", [1000, 2], ids=["one batch", "batches of 2"])
def test_a_game_moved_to_a_file_read_before_its_old_one_is_kept(in_tmp, batch):
    """A game moved from b.lgn to a.lgn, both replaced by one import: a.lgn's copy was skipped as a
    duplicate of b.lgn's, which b.lgn's batch then removed, so that the game was gone from the
    archive when its file's batch came after a.lgn's. It is the archive of both files imported anew
    (a game copied to a.lgn whose record b.lgn changed is a.lgn's, read first; a later copy in a.lgn
    is a duplicate)."""
    records, moved = games(18, 6), games(19, 3)
    write(in_tmp / "games/a.lgn", records)
    write(in_tmp / "games/b.lgn", moved)
    archive = Archive("replaced.db")
    archive.import_paths(["games"], batch_size=batch)
    # in batches of 2: moved[1] twice in one batch, moved[2] in the next, again in b.lgn's first
    write(in_tmp / "games/a.lgn", [*records, moved[1], moved[1], moved[2], moved[1], moved[2]])
    # (moved[2] copied, its comment edited in b.lgn: a's first is stored, read first)
    write(in_tmp / "games/b.lgn", [moved[0], moved[2].replace("escapes}", "escapes at last}")])
    summary = archive.import_paths(["games"], batch_size=batch, replace=True)
    assert (summary.replaced, summary.added, summary.kept, summary.duplicates) == (2, 2, 7, 4)
    fresh = Archive("fresh.db")
    assert fresh.import_paths(["games"], batch_size=batch).duplicates == 4
    assert contents(archive.path) == contents(fresh.path)


@pytest.mark.parametrize("batch", [1000, 1], ids=["one batch", "batches of 1"])
def test_a_copy_of_a_file_read_before_it_leaves_the_file_its_records(in_tmp, batch):
    """Newcomer-59c: `game (1).lgn`, a download saved again, sorts before `game.lgn`; `--replace`
    stored its copies in place of game.lgn's records (new ids, "removed 2 records of 1 file"), and
    `remove --path 'games/* (1).lgn'`, to clean up the copy, then took the games out. A copy of a
    game its own file still has unchanged is a duplicate: the file keeps its records and ids."""
    records = games(24, 3)[:2]
    write(in_tmp / "games/game.lgn", records)
    archive = Archive("a.db")
    archive.import_paths(["games"])
    held = texts(archive)
    write(in_tmp / "games/game (1).lgn", records)
    summary = archive.import_paths(["games"], batch_size=batch, replace=True)
    assert (summary.replaced, summary.added, summary.kept, summary.duplicates) == (0, 0, 2, 2)
    assert [str(skipped) for skipped in summary.skipped] == [
        "games/game (1).lgn:1: skipped, the same game as record 1",
        f"games/game (1).lgn:{records[0].count(chr(10)) + 2}: skipped, the same game as record 2",
    ]
    assert texts(archive) == held
    result = CliRunner().invoke(main, ["remove", "--db", "a.db", "--path", "games/* (1).lgn"])
    assert (result.exit_code, result.stderr, texts(archive)) == (
        1,
        "lusoria: no record matches the filters: nothing removed\n",
        held,
    )


def test_a_game_of_a_file_not_read_again_is_still_a_duplicate(in_tmp):
    """A duplicate of a record of another file is kept aside only until that file is read: a file
    not read keeps its record, and the copy is counted a duplicate."""
    records, others = games(20, 6), games(21, 3)
    write(in_tmp / "games/a.lgn", records)
    write(in_tmp / "games/b.lgn", others)
    archive = Archive("a.db")
    archive.import_paths(["games"], batch_size=2)
    write(in_tmp / "games/a.lgn", [*records, others[0]])
    summary = archive.import_paths(["games/a.lgn"], batch_size=2, replace=True)
    assert (summary.replaced, summary.added, summary.kept, summary.duplicates) == (0, 0, 6, 1)
    assert [str(skipped) for skipped in summary.skipped] == [
        "games/a.lgn:67: skipped, the same game as record 7"  # b.lgn's first, after a.lgn's six
    ]
    assert ("games/b.lgn", 1) in [(row["path"], row["line"]) for row in archive.query(Filters())]


def test_replacing_a_file_with_one_record_mended_keeps_the_others_and_their_ids(in_tmp):
    records = games(22, 6)[:4]
    write(in_tmp / "games/a.lgn", records)
    runner = CliRunner()
    assert runner.invoke(main, ["import", "--db", "a.db", "games"]).exit_code == 0
    ids = texts(Archive("a.db"))
    write(in_tmp / "games/a.lgn", mended(records))
    result = runner.invoke(main, ["import", "--db", "a.db", "--replace", "games"])
    assert (result.exit_code, result.stdout) == (
        0,
        "a.db: removed 1 record of 1 file, added 1 record (1 invalid, 0 of them unparsable), kept 3 unchanged, "
        "skipped 0 duplicates\n",
    )
    assert texts(Archive("a.db")) == {
        **{text: ids[text] for text in records if text != records[2]},
        mended(records)[2]: 5,
    }


INVALID = tablut_record("2001.01.01", "1. e3-c3 d1-d2 2. c3-c3")  # T2 at ply 3, on the record's line 4


def test_a_record_moved_within_its_file_keeps_its_id_and_takes_its_new_place(in_tmp):
    """Its `line` and its diagnostics' lines are the file's: made those of its new place."""
    records = [*games(23, 3)[:2], INVALID]
    write(in_tmp / "games/a.lgn", records)
    archive = Archive("a.db")
    archive.import_paths(["games"])
    ids = texts(archive)
    assert archive.sql("SELECT rule, line FROM diagnostics") == [{"rule": "T2", "line": 26}]
    write(in_tmp / "games/a.lgn", [EARLY, INVALID, records[1], records[0]])
    summary = archive.import_paths(["games"], replace=True)
    assert (summary.replaced, summary.added, summary.kept) == (0, 1, 3)
    now = texts(archive)
    assert {text: now[text] for text in records} == ids
    assert archive.sql("SELECT rule, line FROM diagnostics") == [{"rule": "T2", "line": 9}]
    Archive("fresh.db").import_paths(["games"])
    assert contents(archive.path) == contents("fresh.db")


@pytest.mark.parametrize("first", ["as it was", "its comment edited"])
def test_a_record_twice_in_its_file_is_the_first_copy(in_tmp, first):
    """The first copy of a game in the file keeps the record held when it has its text, else
    replaces it; the second is a duplicate, as in a new import of the file."""
    records = games(24, 3)
    write(in_tmp / "games/a.lgn", records)
    archive = Archive("a.db")
    archive.import_paths(["games"])
    copy = commented(records)[1] if first == "its comment edited" else records[1]
    write(in_tmp / "games/a.lgn", [records[0], copy, records[2], records[1]])
    summary = archive.import_paths(["games"], replace=True)
    edited = copy != records[1]
    assert (summary.replaced, summary.added, summary.kept, summary.duplicates) == (edited, edited, 3 - edited, 1)
    Archive("fresh.db").import_paths(["games"])
    assert contents(archive.path) == contents("fresh.db")


def test_a_record_edited_where_its_identity_does_not_look_is_replaced(in_tmp):
    """A Source tag added: the same game (`hash`), but the archive holds the record as it is now,
    under a new id (the record kept would keep its old text)."""
    records = games(25, 6)
    write(in_tmp / "games/a.lgn", records)
    archive = Archive("a.db")
    archive.import_paths(["games"])
    (held,) = archive.sql(f"SELECT id, hash FROM records WHERE id = {texts(archive)[records[4]]}")
    write(in_tmp / "games/a.lgn", sourced(records))
    summary = archive.import_paths(["games"], replace=True)
    assert (summary.replaced, summary.added, summary.kept) == (1, 1, 5)
    assert held["id"] == 5
    assert archive.sql("SELECT id, hash, sources FROM records WHERE sources IS NOT NULL") == [
        {"id": 7, "hash": held["hash"], "sources": "Club book, p. 3"}
    ]


def test_import_replace_from_another_directory_replaces_the_same_file(in_tmp):
    """`lusoria import --replace ../games` from another directory: the records of games/a.lgn,
    imported as `games/a.lgn`, were compared by that path made absolute from there, so a mended
    record was added beside the old one (and a record edited where its identity does not look was
    skipped as a duplicate, its old text kept)."""
    write(in_tmp / "games/a.lgn", games(30, 6))
    runner = CliRunner()
    assert runner.invoke(main, ["import", "--db", "a.db", "games"]).exit_code == 0
    write(in_tmp / "games/a.lgn", mended(commented(games(30, 6))))
    os.mkdir("elsewhere")
    os.chdir("elsewhere")
    replaced_as_imported_anew("../a.db", "../games", kept=4)


def replaced_as_imported_anew(db: str, folder: str, kept: int) -> None:
    """`import --replace FOLDER` into `db` replaces the two records mended in games/a.lgn (`mended`) and keeps
    the `kept` others: the archive is then as a new import of the folder makes it."""
    result = CliRunner().invoke(main, ["import", "--db", db, "--replace", folder])
    assert (result.exit_code, result.stdout) == (
        0,
        f"{db}: removed 2 records of 1 file, added 2 records (1 invalid, 0 of them unparsable), "
        f"kept {kept} unchanged, skipped 0 duplicates\n",
    )
    fresh = Archive("fresh.db")
    fresh.import_paths([folder])
    assert contents(db) == contents(fresh.path)


def test_a_folder_moved_with_its_archive_replaces_a_file_edited_since(in_tmp):
    """A club's folder, its archive in it, handed over (moved): its files' real paths are gone, and an edited
    game was added beside its old text by `import --replace games` run there, and by a plain import without a
    word (h70a: the standings counted the game twice). A record of a file gone is its path's file now."""
    club = in_tmp / "club"
    os.makedirs(club / "games")
    write(club / "games/a.lgn", games(30, 6))
    write(club / "games/b.lgn", games(32, 3))
    os.chdir(club)
    runner = CliRunner()
    assert runner.invoke(main, ["import", "--db", "a.db", "games"]).exit_code == 0
    os.makedirs(in_tmp / "elsewhere/games")  # (the archive copied alone, beside another club's games/a.lgn: its
    write(in_tmp / "elsewhere/games/a.lgn", games(40, 3))  # file is still in the club: not this one)
    shutil.copy("a.db", in_tmp / "elsewhere/alone.db")
    os.chdir(in_tmp / "elsewhere")
    alone = runner.invoke(main, ["import", "--db", "alone.db", "--replace", "games"])
    assert "removed" not in alone.stdout and len(Archive("alone.db").sql("SELECT id FROM records")) == 9 + 3
    os.chdir(in_tmp)
    os.rename(club, in_tmp / "handed-over")
    os.chdir("handed-over")
    write(in_tmp / "handed-over/games/a.lgn", mended(commented(games(30, 6))))
    shutil.copy("a.db", "copy.db")
    plain = runner.invoke(main, ["import", "--db", "copy.db", "games"])
    assert "; 1 file imported before read as other records now (games/a.lgn: changed since" in plain.stdout
    replaced_as_imported_anew("a.db", "games", kept=7)
    os.chdir(in_tmp)  # (from elsewhere, its path names no file there: nothing of it is said gone under games)
    assert runner.invoke(main, ["import", "--db", "handed-over/a.db", "--replace", "games"]).stdout == (
        "handed-over/a.db: added 0 records (0 invalid, 0 of them unparsable), skipped 0 duplicates; 1 file or folder "
        "skipped (each said with why)\n"
    )
    os.chdir("handed-over")
    os.remove("games/b.lgn")  # (deleted since: its records, of the club's file, stay so, not said of a file never read)
    deleted = runner.invoke(main, ["import", "--db", "copy.db", "--replace", "games"])
    assert "removed 2 records of 1 file" in deleted.stdout and "no longer exist" not in deleted.stdout


def test_a_file_of_another_folder_imported_by_the_same_path_is_not_replaced(in_tmp):
    """Two clubs' `games/a.lgn`, each imported from its own folder into one archive: a --replace in one folder
    leaves the other's records, whose file still exists (only a file gone is found by its path)."""
    for club, seed in (("north", 30), ("south", 32)):
        os.makedirs(in_tmp / club / "games")
        write(in_tmp / club / "games/a.lgn", games(seed, 3))
        os.chdir(in_tmp / club)
        assert CliRunner().invoke(main, ["import", "--db", str(in_tmp / "a.db"), "games"]).exit_code == 0
    write(in_tmp / "south/games/a.lgn", games(32, 3)[:2])
    result = CliRunner().invoke(main, ["import", "--db", str(in_tmp / "a.db"), "--replace", "games"])
    assert "removed 1 record of 1 file" in result.stdout and "kept 2 unchanged" in result.stdout
    assert len(Archive(str(in_tmp / "a.db")).sql("SELECT id FROM records")) == 5
    shutil.rmtree(in_tmp / "north")  # (its folder gone, the archive where it was: not moved with it, kept)
    result = CliRunner().invoke(main, ["import", "--db", str(in_tmp / "a.db"), "--replace", "games"])
    assert "removed" not in result.stdout and "kept 2 unchanged" in result.stdout
    assert len(Archive(str(in_tmp / "a.db")).sql("SELECT id FROM records")) == 5


@pytest.mark.parametrize("batch", [1000, 2], ids=["one batch", "batches of 2"])
def test_a_file_now_empty_keeps_no_record(in_tmp, batch):
    """A file emptied: its records were kept, as no record read named the file."""
    write(in_tmp / "games/a.lgn", games(31, 6))
    write(in_tmp / "games/b.lgn", games(32, 3))
    archive = Archive("a.db")
    archive.import_paths(["games"], batch_size=batch)
    write(in_tmp / "games/b.lgn", [])
    summary = archive.import_paths(["games"], batch_size=batch, replace=True)
    assert (summary.replaced, summary.replaced_files, summary.added, summary.kept) == (3, 1, 0, 6)
    fresh = Archive("fresh.db")
    fresh.import_paths(["games"], batch_size=batch)
    assert contents(archive.path) == contents(fresh.path)
    write(in_tmp / "games/a.lgn", [])  # every file read empty: no record read at all
    result = CliRunner().invoke(main, ["import", "--db", "a.db", "--replace", "games"])
    assert (result.exit_code, result.stdout, result.stderr) == (
        0,
        "a.db: removed 6 records of 1 file, added 0 records (0 invalid, 0 of them unparsable), skipped 0 duplicates"
        "; 2 files or folders skipped (each said with why)\n",
        "".join(f"lusoria: games/{name}.lgn: skipped, an empty file, no record\n" for name in "ab"),
    )
    assert archive.sql("SELECT count(*) AS n FROM records") == [{"n": 0}]


def test_a_file_of_another_format_emptied_in_a_folder_keeps_its_records_said(in_tmp):
    """A CSV or JSON file emptied in place, its folder imported again with --replace: the walk skips it as an empty
    file, and its records were kept unsaid (newcomer-58b: 511 records of a CSV file emptied), then removed as an lgn
    file's are, which lost a download that failed (newcomer-59). They are kept, said as a source not read, with how
    to take them out."""
    Path("games/brandubh.csv").write_text("b4-b3 c4-c5 d6-c6,0,0,Ongoing\n")
    Path("games/game-166-1-5.json").write_text(
        '{"AageGameTypeName": "Historical Hnefatafl 9x9 (Saami Tablut)", "WhoMovedFirst": "black", "Moves": ["f5-f2"]}'
    )
    archive = Archive("a.db")
    assert archive.import_paths(["games"]).added == 2
    for name in ("brandubh.csv", "game-166-1-5.json"):
        Path("games", name).write_text("")
    summary = archive.import_paths(["games"], replace=True)
    assert (summary.replaced, summary.replaced_files, len(summary.unreadable)) == (0, 0, 2)
    assert [str(problem) for problem in summary.problems] == [
        f"games/{name}: an empty file now, where the archive holds records read from it as {format} before (a download "
        "that failed?): it keeps its records held; removing the records of its path takes them out"
        for name, format in (("brandubh.csv", "csv"), ("game-166-1-5.json", "aage"))
    ]
    assert archive.sql("SELECT count(*) AS n FROM records") == [{"n": 2}]


def test_a_game_moved_out_of_a_file_now_empty_is_kept(in_tmp):
    """The copy read of a game whose file held it before, now empty, is stored: as a new import."""
    records, moved = games(33, 3), games(34, 3)
    write(in_tmp / "games/a.lgn", records)
    write(in_tmp / "games/b.lgn", moved)
    archive = Archive("a.db")
    archive.import_paths(["games"])
    write(in_tmp / "games/a.lgn", [*records, *moved])
    write(in_tmp / "games/b.lgn", [])
    summary = archive.import_paths(["games"], replace=True)
    assert (summary.replaced, summary.added, summary.kept, summary.duplicates) == (3, 3, 3, 0)
    fresh = Archive("fresh.db")
    fresh.import_paths(["games"])
    assert contents(archive.path) == contents(fresh.path)


def test_a_file_deleted_keeps_its_records_and_is_said(in_tmp):
    write(in_tmp / "games/a.lgn", games(35, 3))
    write(in_tmp / "games/b.lgn", games(36, 3))
    os.mkdir("games/old")
    write(in_tmp / "games/old/c.lgn", games(37, 3))
    runner = CliRunner()
    assert runner.invoke(main, ["import", "--db", "a.db", "games"]).exit_code == 0
    os.remove("games/b.lgn")
    os.remove("games/old/c.lgn")
    result = runner.invoke(main, ["import", "--db", "a.db", "--replace", "games", "games/old"])
    b, c = os.path.realpath("games/b.lgn"), os.path.realpath("games/old/c.lgn")
    assert (result.exit_code, result.stdout) == (
        0,
        "a.db: added 0 records (0 invalid, 0 of them unparsable), kept 3 unchanged, skipped 0 duplicates; "
        "1 file or folder skipped (each said with why); "
        f"2 files the archive holds under games no longer exist ({b}, {c}); their records are kept; 1 file the "
        f"archive holds under games/old no longer exists ({c}); its records are kept (lusoria remove --path FILE "
        "takes a file's out)\n",
    )
    assert Archive("a.db").sql("SELECT count(*) AS n FROM records") == [{"n": 9}]
    again = Archive("a.db").import_paths(["games"], replace=True)
    assert str(again).endswith(
        f"; 2 files the archive holds under games no longer exist ({b}, {c}); their records are kept "
        "(Archive.remove(Filters(path=FILE)) takes a file's out)"
    )
    removed = runner.invoke(main, ["remove", "--db", "a.db", "--path", "games/b.lgn"])
    assert removed.stdout.endswith("a.db: removed 3 records\n")
    again = Archive("a.db").import_paths(["games", "games/old"], replace=True)
    assert str(again).endswith(
        f"; 1 file the archive holds under games no longer exists ({c}); its records are kept; 1 file the archive "
        f"holds under games/old no longer exists ({c}); its records are kept "
        f"(Archive.remove(Filters(path={c!r})) takes them out)"  # (one file, under two paths read)
    )


def test_a_file_deleted_in_a_folder_whose_name_begins_as_the_folder_read_is_not_said_under_it(in_tmp):
    """h79b: a file is under a folder read when its path goes on from the folder's with a separator: games2/b.lgn,
    deleted, is no file under games (a path that merely begins with `games` was said gone from it)."""
    write(in_tmp / "games/a.lgn", games(35, 3))
    os.mkdir("games2")
    write(in_tmp / "games2/b.lgn", games(36, 3))
    assert Archive("a.db").import_paths(["games", "games2"]).added == 6
    os.remove("games2/b.lgn")
    summary = Archive("a.db").import_paths(["games"], replace=True)
    assert (summary.kept, summary.replaced, summary.gone) == (3, 0, {})
    both = Archive("a.db").import_paths(["games", "games2"], replace=True)
    assert both.gone == {"games2": [os.path.realpath("games2/b.lgn")]}
    assert Archive("a.db").sql("SELECT count(*) AS n FROM records") == [{"n": 6}]


def test_a_game_copied_into_another_file_with_another_text_is_a_duplicate_not_a_file_changed(in_tmp):
    """h79b: a record skipped as the same game as one held is "read from this file before it changed" only when it
    stands at that record's place (its file and line): b.lgn, a copy of a.lgn with a comment edited, holds its games
    (skipped), and neither file changed; a.lgn edited so is said changed."""
    write(in_tmp / "games/a.lgn", games(44, 3))
    write(in_tmp / "games/b.lgn", commented(games(44, 3)))
    archive = Archive("a.db")
    assert archive.import_paths(["games/a.lgn"]).added == 3
    copied = archive.import_paths(["games/b.lgn"])
    assert [(str(skipped), skipped.changed) for skipped in copied.skipped] == [
        (f"games/b.lgn:{line}: skipped, the same game as record {record}", False)
        for line, record in zip(lines_of(in_tmp / "games/b.lgn"), (1, 2, 3))
    ]
    assert "changed since" not in str(copied)
    write(in_tmp / "games/a.lgn", commented(games(44, 3)))
    edited = archive.import_paths(["games/a.lgn"])
    assert [skipped.changed for skipped in edited.skipped] == [False, True, False]


def test_a_file_moved_and_edited_that_holds_a_game_twice_stores_its_first_copy(in_tmp):
    """h79b: club/a.lgn moved to moved/a.lgn, its second game's comment edited and the game copied again at its end:
    the record found again in a file gone is no longer waited for, so the edited game is stored from its first copy
    (line 12) and the second (line 34) is its duplicate, as a game twice in its file is its first copy (a record
    still waited for set the second copy aside, and stored it in the first's place)."""
    os.mkdir("club")
    os.mkdir("moved")
    records = games(45, 3)
    write(in_tmp / "club/a.lgn", records)
    assert Archive("a.db").import_paths(["club"]).added == 3
    os.remove("club/a.lgn")
    edited = commented(records)
    write(in_tmp / "moved/a.lgn", [*edited, edited[1]])
    assert lines_of(in_tmp / "moved/a.lgn") == [1, 12, 23, 34]
    summary = Archive("a.db").import_paths(["club", "moved"], replace=True)
    assert (summary.replaced, summary.added, summary.kept) == (1, 1, 2)
    assert [str(skipped) for skipped in summary.skipped] == ["moved/a.lgn:34: skipped, the same game as record 4"]
    assert Archive("a.db").sql("SELECT id, path, line FROM records ORDER BY id") == [
        {"id": 1, "path": "moved/a.lgn", "line": 1},
        {"id": 3, "path": "moved/a.lgn", "line": 23},
        {"id": 4, "path": "moved/a.lgn", "line": 12},
    ]


@pytest.mark.parametrize("read", [["games", "moved"], ["moved"]], ids=["both folders", "the new folder alone"])
def test_a_file_moved_takes_its_records_with_it(in_tmp, read):
    """newcomer-58b: a file moved to another folder, both imported again with --replace: its games were skipped as
    duplicates of the records of the file gone, and the summary's advice to remove those records removed the games.
    A record of a file that no longer exists, read again elsewhere, is kept (its id) and takes its new place."""
    write(in_tmp / "games/a.lgn", games(38, 3))
    write(in_tmp / "games/b.lgn", games(39, 3))
    archive = Archive("a.db")
    archive.import_paths(["games"])
    held = archive.sql("SELECT id, hash FROM records ORDER BY id")
    os.mkdir("moved")
    os.rename("games/b.lgn", "moved/b.lgn")
    summary = archive.import_paths(read, replace=True)
    assert str(summary) == (
        f"added 0 records (0 invalid, 0 of them unparsable), kept {3 * len(read)} unchanged, skipped 0 duplicates"
    )
    assert archive.sql("SELECT id, hash FROM records ORDER BY id") == held
    places = archive.sql("SELECT path, line FROM records ORDER BY id")
    assert [row["path"] for row in places] == ["games/a.lgn"] * 3 + ["moved/b.lgn"] * 3
    fresh = Archive("fresh.db")
    fresh.import_paths(["games", "moved"])
    assert contents(archive.path) == contents(fresh.path)


def test_a_file_moved_that_writes_its_games_twice_keeps_them_at_the_first(in_tmp):
    """A game the moved file writes twice: the record held takes the first copy's place, the second is a duplicate
    (it was removed and added again, at the second: its id lost)."""
    records = games(40, 3)
    write(in_tmp / "games/a.lgn", records)
    archive = Archive("a.db")
    archive.import_paths(["games"])
    os.mkdir("moved")
    write(in_tmp / "moved/a.lgn", records + records)
    os.remove("games/a.lgn")
    summary = archive.import_paths(["moved"], replace=True)
    assert (summary.replaced, summary.added, summary.kept, summary.duplicates) == (0, 0, 3, 3)
    assert [tuple(row.values()) for row in archive.sql("SELECT id, path FROM records ORDER BY id")] == [
        (1, "moved/a.lgn"),
        (2, "moved/a.lgn"),
        (3, "moved/a.lgn"),
    ]
    fresh = Archive("fresh.db")
    fresh.import_paths(["moved"])
    assert contents(archive.path) == contents(fresh.path)


def test_the_files_gone_are_named_with_the_glob_that_removes_their_records_alone(in_tmp):
    """Reviewer-57: a file `round[1].lgn` deleted was said as "lusoria remove --path FILE", and that command
    with its name removed the records of `round1.lgn`, which is still there ([1] a glob's class); the
    summary named no file. Now each file gone is named, and one alone with the glob that is it alone."""
    for seed, name in enumerate(("round[1]", "round1", "q?", "qa"), 44):
        write(in_tmp / f"games/{name}.lgn", games(seed, 3))
    runner = CliRunner()
    assert runner.invoke(main, ["import", "--db", "a.db", "games"]).exit_code == 0
    os.remove("games/round[1].lgn")
    result = runner.invoke(main, ["import", "--db", "a.db", "--replace", "games"])
    gone = os.path.realpath("games/round[1].lgn")
    glob = gone.replace("round[1]", "round[[]1]")
    assert result.stdout.endswith(
        f"; 1 file the archive holds under games no longer exists ({gone}); its records are kept "
        f"(lusoria remove --path '{glob}' takes them out)\n"
    )
    removed = runner.invoke(main, ["remove", "--db", "a.db", "--path", glob])
    assert removed.stdout.splitlines()[-1] == "a.db: removed 3 records"
    assert [row["path"] for row in Archive("a.db").sql("SELECT DISTINCT path FROM records ORDER BY path")] == [
        "games/q?.lgn",
        "games/qa.lgn",
        "games/round1.lgn",
    ]
    assert {row["path"] for row in Archive("a.db").query(Filters(path="games/q[?].lgn"))} == {"games/q?.lgn"}


def test_a_path_filter_finds_a_file_by_the_name_the_file_system_gives_it_here(in_tmp):
    """Reviewer-57: `--path ./games/a.lgn`, and `--path sub/b.lgn` of a file imported by its absolute path,
    found nothing: the path is matched as the import was given it, and now as the file system names it."""
    write(in_tmp / "games/a.lgn", games(41, 3)[:1])
    os.mkdir("sub")
    write(in_tmp / "sub/b.lgn", games(42, 3)[:1])
    archive = Archive("a.db")
    archive.import_paths(["./games", os.path.realpath("sub")])
    found = {
        name: [row["path"] for row in archive.query(Filters(path=name))] for name in ("./games/a.lgn", "sub/b.lgn")
    }
    assert found == {"./games/a.lgn": ["games/a.lgn"], "sub/b.lgn": [os.path.realpath("sub/b.lgn")]}
    assert [row["path"] for row in archive.query(Filters(path="sub/*"))] == [os.path.realpath("sub/b.lgn")]
    assert archive.query(Filters(path="games/b.lgn")) == []
    os.chdir("sub")  # (the path as the import was given it, from anywhere)
    assert [row["path"] for row in Archive("../a.db").query(Filters(path="games/*"))] == ["games/a.lgn"]
    os.chdir("..")
    os.rename("games", "g[x")  # (reviewer-57b: from a folder whose name holds a `[`, every --path was refused)
    os.chdir("g[x")
    held = Archive("../a.db")
    write(in_tmp / "g[x" / "c.lgn", games(43, 3)[:1])
    held.import_paths(["c.lgn"])
    assert [row["path"] for row in held.query(Filters(path="./c.lgn"))] == ["c.lgn"]
    assert len(held.query(Filters(path="*"))) == 3


def test_a_file_whose_records_lusoria_failed_on_is_not_emptied(in_tmp):
    """A file read whose every record lusoria failed on (a bug: left out) has records all the same:
    it keeps those the archive holds."""
    records = games(38, 3)
    write(in_tmp / "games/a.lgn", records)
    archive = Archive("a.db")
    archive.import_paths(["games"])
    failed = Failure("games/a.lgn:1", "ValueError: a bug", "", os.path.realpath("games/a.lgn"))
    summary = archive.import_rows([failed], replace=True, read=Read(["games"], ["games/a.lgn"]))
    assert (summary.replaced, summary.kept, summary.failed) == (0, 0, [failed])
    assert archive.sql("SELECT count(*) AS n FROM records") == [{"n": len(records)}]


def test_a_file_named_that_cannot_be_read_is_not_one_now_empty(in_tmp):
    """`import --replace games/b.lgn` after b.lgn was deleted: read, it gives no record, and its
    records were removed as a file now empty's are."""
    write(in_tmp / "games/a.lgn", games(39, 3))
    write(in_tmp / "games/b.lgn", games(40, 3))
    runner = CliRunner()
    assert runner.invoke(main, ["import", "--db", "a.db", "games"]).exit_code == 0
    os.remove("games/b.lgn")
    result = runner.invoke(main, ["import", "--db", "a.db", "--replace", "games/a.lgn", "games/b.lgn"])
    assert (result.exit_code, result.stdout, result.stderr) == (
        2,
        "a.db: added 0 records (0 invalid, 0 of them unparsable), kept 3 unchanged, skipped 0 duplicates; "
        "could not read 1 source (each said with why); "
        f"1 file the archive holds under games/b.lgn no longer exists ({os.path.realpath('games/b.lgn')}); its records "
        f"are kept (lusoria remove --path {os.path.realpath('games/b.lgn')} takes them out)\n",
        "lusoria: games/b.lgn: no such file or directory\n",
    )
    summary = Archive("a.db").import_paths(["games/b.lgn"], replace=True)
    assert (summary.replaced, summary.unreadable) == (0, ["games/b.lgn: no such file or directory"])
    assert Archive("a.db").sql("SELECT count(*) AS n FROM records") == [{"n": 6}]


def test_a_file_that_stops_decoding_midway_keeps_the_records_after_the_bad_byte(in_tmp, monkeypatch):
    """A file whose bytes stop decoding after some of its records were read (past the first MiB,
    which is decoded and split at once): the records held after that point were removed as
    records the file no longer has. Those before the line that stops it are all read (h72b: the last
    of them, and those of the piece it was decoded in, were not), and the file is one not read whole."""
    records = games(41, 12)
    write(in_tmp / "games/a.lgn", [*records[:6], "\n" * (1 << 20), *records[6:]])
    write(in_tmp / "games/b.lgn", games(42, 3))
    runner = CliRunner()
    assert runner.invoke(main, ["import", "--db", "a.db", "games"]).exit_code == 0
    line = stopped_reading(in_tmp / "games/a.lgn", records[8], monkeypatch)
    result = runner.invoke(main, ["import", "--db", "a.db", "--replace", "games"])
    assert (result.exit_code, result.stdout, result.stderr) == (
        2,
        "a.db: added 0 records (0 invalid, 0 of them unparsable), kept 11 unchanged, skipped 0 duplicates; "
        "could not read 1 source (each said with why)\n",
        f"lusoria: games/a.lgn: line {line} is longer than 1,000 characters, the most lusoria reads; the rest of "
        "the file is not read\n",
    )


def stopped_reading(path: Path, record: str, monkeypatch) -> int:
    """The file at `path` written again with a line longer than lusoria reads (MAX_LINE, made short
    here, as the pieces it is decoded in) before `record`, where its reading stops (a byte or a
    UTF-16 unit that does not decode is its record's error alone): that line's number."""
    monkeypatch.setattr(sources, "MAX_LINE", 1000)
    monkeypatch.setattr(sources, "CHUNK", 4096)
    text = path.read_text()
    at = text.index(record)
    path.write_text(text[:at] + "x" * 5000 + "\n" + text[at:])
    return text[:at].count("\n") + 1
    assert Archive("a.db").sql("SELECT count(*) AS n FROM records") == [{"n": 15}]


def test_a_file_skipped_in_a_folder_replaced_is_no_file_read(in_tmp):
    """A file of a folder that holds no records lusoria reads is skipped, said, and left out of the
    files the replacement reads (`Read.of`): the folder's records are kept."""
    write(in_tmp / "games/a.lgn", games(41, 3))
    (in_tmp / "games/notes.txt").write_text("just notes\n")
    runner = CliRunner()
    assert runner.invoke(main, ["import", "--db", "a.db", "games"]).exit_code == 0
    result = runner.invoke(main, ["import", "--db", "a.db", "--replace", "games"])
    assert (result.exit_code, result.stdout, result.stderr) == (
        0,
        "a.db: added 0 records (0 invalid, 0 of them unparsable), kept 3 unchanged, skipped 0 duplicates"
        "; 1 file or folder skipped (each said with why)\n",
        "lusoria: games/notes.txt: skipped, a .txt file that is neither tafl move lists nor a Tablut Challenge "
        "game log\n",
    )


def test_text_given_to_a_replacement_is_no_file_read(in_tmp):
    """`[old].lgn` given as a source is the file of that name (newcomer-57b: it was read as a record's text, as it
    starts with `[`); `[gone].lgn`, which names no file, is text, read as a record: the records the archive holds
    from the file are not those of a file read, now empty, and are kept."""
    write(in_tmp / "[old].lgn", games(42, 3))
    archive = Archive("a.db")
    archive.import_paths(["./[old].lgn"])
    summary = archive.import_paths(["[old].lgn"], replace=True)
    assert (summary.replaced, summary.added, summary.kept) == (0, 0, 3)
    summary = archive.import_paths(["[gone].lgn"], replace=True)
    assert (summary.replaced, summary.added, summary.invalid) == (0, 1, 1)
    assert archive.sql("SELECT count(*) AS n FROM records WHERE file IS NOT NULL") == [{"n": 3}]


@pytest.mark.parametrize("edit", ["unchanged", "record removed"])
def test_a_record_lusoria_fails_on_keeps_what_the_archive_held_of_its_file(in_tmp, monkeypatch, edit):
    """lusoria failing on record 2 of a.lgn (a bug: left out) cannot tell which record held it
    was: the records a.lgn held that are not read again are kept, the failure said (exit 3). A
    file whose records all read replaces them as before (b.lgn)."""
    from lusoria.archive import records_as_rows

    records, others = games(41, 6), games(42, 3)
    write(in_tmp / "games/a.lgn", records)
    write(in_tmp / "games/b.lgn", others)
    runner = CliRunner()
    assert runner.invoke(main, ["import", "--db", "a.db", "games"]).exit_code == 0
    before = sorted(texts(Archive("a.db")))
    if edit == "record removed":
        write(in_tmp / "games/a.lgn", removed(records))
    write(in_tmp / "games/b.lgn", others[:2])
    rows = records_as_rows.rows

    def failing(report):
        if "{game 2 " in report.source.text:
            raise ValueError("a bug")
        return rows(report)

    monkeypatch.setattr(records_as_rows, "rows", failing)
    result = runner.invoke(main, ["import", "--db", "a.db", "--replace", "games"])
    kept = 4 if edit == "record removed" else 5
    assert (result.exit_code, result.stdout) == (
        3,
        f"a.db: removed 1 record of 1 file, added 0 records (0 invalid, 0 of them unparsable), kept {kept + 2} "
        "unchanged, skipped 0 duplicates, 1 record failed\n",
    )
    assert result.stderr.startswith(
        "lusoria: games/a.lgn:23: internal error: ValueError: a bug; the record was not stored\n"
    )
    assert sorted(texts(Archive("a.db"))) == [text for text in before if text != others[2]]


def test_a_file_name_that_is_not_utf8_is_shown_escaped_and_found_again(in_tmp):
    """`games/caf\\xe9.lgn` (Latin-1): the archive holds its name as lusoria shows it, `\\xe9`,
    and `--replace` finds the file by it: kept unchanged, its records removed once it is empty,
    and counted gone only once it is deleted."""
    name = os.fsdecode(b"games/caf\xe9.lgn")
    try:
        write(in_tmp / name, games(43, 3)[:2])
    except (OSError, UnicodeEncodeError):
        pytest.skip("this file system takes no name that is not UTF-8")
    runner = CliRunner()
    assert runner.invoke(main, ["import", "--db", "a.db", "games"]).exit_code == 0
    held = Archive("a.db").sql("SELECT DISTINCT path, file FROM records")
    assert held == [{"path": "games/caf\\xe9.lgn", "file": f"{os.path.realpath(in_tmp)}/games/caf\\xe9.lgn"}]
    summary = "a.db: added 0 records (0 invalid, 0 of them unparsable), kept 2 unchanged, skipped 0 duplicates\n"
    assert runner.invoke(main, ["import", "--db", "a.db", "--replace", "games"]).stdout == summary
    write(in_tmp / name, [])
    result = runner.invoke(main, ["import", "--db", "a.db", "--replace", "games"])
    assert (result.exit_code, result.stdout) == (
        0,
        "a.db: removed 2 records of 1 file, added 0 records (0 invalid, 0 of them unparsable), skipped 0 duplicates"
        "; 1 file or folder skipped (each said with why)\n",
    )
    write(in_tmp / name, games(43, 3)[:2])
    assert runner.invoke(main, ["import", "--db", "a.db", "--replace", "games"]).exit_code == 0
    os.remove(name)
    result = runner.invoke(main, ["import", "--db", "a.db", "--replace", "games"])
    file = f"{os.path.realpath(in_tmp)}/games/caf\\xe9.lgn"
    assert result.stdout.endswith(
        f"; 1 file the archive holds under games no longer exists ({file}); its records are kept "
        f"(lusoria remove --path '{file}' takes them out)\n"
    )
    removed = runner.invoke(main, ["remove", "--db", "a.db", "--path", file])  # (the name as it is said)
    assert removed.stdout.splitlines()[-1] == "a.db: removed 2 records"


def commented_late(records: list[str]) -> list[str]:
    """Record 7's comment edited: in batches of 5, in the second batch."""
    return [*records[:7], records[7].replace("escapes}", "escapes at last}"), *records[8:]]


@pytest.mark.parametrize("batch", [1000, 5], ids=["one batch", "batches of 5"])
@pytest.mark.parametrize(
    "edit", [commented, mended, commented_late], ids=["the same game", "another game", "a later record"]
)
def test_a_record_lusoria_fails_to_store_keeps_what_the_archive_held(in_tmp, monkeypatch, edit, batch):
    """Storing the new text of a.lgn's edited record fails (a bug: left out): the record the archive
    held of it was removed first, and was lost. The batch is stored again with that record failed:
    the archive is as it was, the failure said. (In a later batch, what the first batch changed of
    the Replacement is restored to as it was after it, not as it began.)"""
    records = games(51, 12)
    write(in_tmp / "games/a.lgn", records)
    archive = Archive("a.db")
    archive.import_paths(["games"], batch_size=batch)
    before = contents(archive.path)
    edited = edit(records)
    write(in_tmp / "games/a.lgn", edited)
    (changed,) = set(edited) - set(records)
    fail_to_store(monkeypatch, changed.strip())
    summary = archive.import_paths(["games"], batch_size=batch, replace=True)
    assert (summary.replaced, summary.added, summary.kept) == (0, 0, len(records) - 1)
    assert [failed.error for failed in summary.failed] == ["ValueError: a bug"]
    assert contents(archive.path) == before


def test_of_two_texts_one_failing_to_store_only_it_fails(in_tmp, monkeypatch):
    """Records given as text all have the place `<text>:1`: when one of them failed to store (replacing,
    in an archive that holds records), every record of that place was made its Failure (failures
    were matched by place), and the other was not stored."""
    one, two = games(60, 3)[:2]
    write(in_tmp / "games/c.lgn", games(61, 3))
    archive = Archive("a.db")
    archive.import_paths(["games"])
    fail_to_store(monkeypatch, two.strip())
    summary = archive.import_paths([one, two], replace=True)
    assert (summary.added, [failed.error for failed in summary.failed]) == (1, ["ValueError: a bug"])
    assert [text for text in texts(archive) if text in (one, two)] == [one]


@pytest.mark.parametrize("batch", [1000, 2], ids=["one batch", "batches of 2"])
def test_a_record_set_aside_that_fails_to_store_keeps_the_record_it_waited_for(in_tmp, monkeypatch, batch):
    """A copy of b.lgn's record 1 added to a.lgn, read first, waits for b.lgn (set aside); b.lgn
    edits its comment, and storing the copy fails (a bug) once b.lgn's batch returns it: in batches
    of 2, that batch was not stored again (only the records read in it were looked for among the
    failures) and b.lgn's record, removed for the copy, was lost. b.lgn's edited record replaces it."""
    records, moved = games(18, 4), games(19, 3)
    write(in_tmp / "games/a.lgn", records)
    write(in_tmp / "games/b.lgn", moved)
    archive = Archive("a.db")
    archive.import_paths(["games"], batch_size=batch)
    held = texts(archive)
    write(in_tmp / "games/a.lgn", [*records, moved[1]])
    edited = moved[1].replace("escapes}", "escapes at last}")
    write(in_tmp / "games/b.lgn", [moved[0], edited, moved[2]])
    fail_to_store(monkeypatch, "games/a.lgn", moved[1].strip())
    summary = archive.import_paths(["games"], batch_size=batch, replace=True)
    assert (summary.replaced, summary.added, summary.kept, summary.duplicates) == (1, 1, 5, 0)
    line = "\n".join(records).count("\n") + 2  # (the copy's first line)
    assert [(failed.place, failed.error) for failed in summary.failed] == [(f"games/a.lgn:{line}", "ValueError: a bug")]
    kept = {text: record for text, record in held.items() if text != moved[1]}
    assert texts(archive) == kept | {edited: len(held) + 1}


def test_two_names_that_were_shown_alike_are_two_files(in_tmp):
    """`games/caf\\xe9.lgn` (a backslash, x, e, 9) and Latin-1 `games/café.lgn` were both held as
    `games/caf\\xe9.lgn`, one file: `--replace` of one removed the other's records. A backslash is
    held doubled (`\\\\`), and each name is its own file."""
    latin1, literal = os.fsdecode(b"games/caf\xe9.lgn"), "games/caf\\xe9.lgn"
    try:
        write(in_tmp / latin1, games(43, 3)[:2])
    except (OSError, UnicodeEncodeError):
        pytest.skip("this file system takes no name that is not UTF-8")
    write(in_tmp / literal, games(44, 3)[:2])
    runner = CliRunner()
    assert runner.invoke(main, ["import", "--db", "a.db", "games"]).exit_code == 0
    held = {row["path"] for row in Archive("a.db").sql("SELECT path FROM records")}
    assert held == {"games/caf\\xe9.lgn", "games/caf\\\\xe9.lgn"}
    before = sorted(texts(Archive("a.db")))
    result = runner.invoke(main, ["import", "--db", "a.db", "--replace", literal])
    assert (result.exit_code, result.stdout) == (
        0,
        "a.db: added 0 records (0 invalid, 0 of them unparsable), kept 2 unchanged, skipped 0 duplicates\n",
    )
    assert sorted(texts(Archive("a.db"))) == before


def test_a_file_whose_name_holds_a_backslash_is_not_gone(in_tmp):
    """A file named `caf\\xe9.lgn` (a backslash, x, e, 9) was looked for as Latin-1 `café.lgn`, and
    counted as no longer existing on every `--replace` of its folder."""
    write(in_tmp / "games/caf\\xe9.lgn", games(43, 3)[:2])
    runner = CliRunner()
    assert runner.invoke(main, ["import", "--db", "a.db", "games"]).exit_code == 0
    result = runner.invoke(main, ["import", "--db", "a.db", "--replace", "--from", "otn", "games"])  # (read: none)
    assert (result.exit_code, result.stdout) == (
        2,
        "a.db: added 0 records (0 invalid, 0 of them unparsable), skipped 0 duplicates"
        "; 1 file or folder skipped (each said with why)\n",
    )


def test_a_name_held_with_a_single_backslash_by_an_older_lusoria_is_found_again(in_tmp):
    """An older lusoria held a backslash single: `--replace` finds that file all the same, keeps its
    records and holds its name as it is shown now."""
    write(in_tmp / "games/a\\b.lgn", games(45, 3)[:2])
    archive = Archive("a.db")
    archive.import_paths(["games"])
    with connect("a.db") as conn:
        conn.execute("UPDATE records SET path = replace(path, '\\\\', '\\'), file = replace(file, '\\\\', '\\')")
    assert {row["path"] for row in archive.sql("SELECT path FROM records")} == {"games/a\\b.lgn"}
    summary = archive.import_paths(["games"], replace=True)
    assert (summary.replaced, summary.added, summary.kept, summary.duplicates, summary.gone) == (0, 0, 2, 0, {})
    assert {row["path"] for row in archive.sql("SELECT path FROM records")} == {"games/a\\\\b.lgn"}


def test_a_link_whose_name_is_not_utf8_is_its_target(in_tmp, monkeypatch):
    """A link `games/caf\\xe9.lgn` (Latin-1) to `elsewhere/x.lgn`: its records' `file` is the target
    (`real_file` undoes the escape before the link is resolved), found from the name held before
    version 15 (`same_file`), and kept whole when the target stops decoding midway (`Read.unread`)."""
    records = games(46, 3)[:2]
    os.mkdir("elsewhere")
    write(in_tmp / "elsewhere/x.lgn", [records[0], "\n" * (1 << 20), records[1]])
    try:
        os.symlink(os.path.realpath("elsewhere/x.lgn"), os.fsdecode(b"games/caf\xe9.lgn"))
    except (OSError, UnicodeEncodeError):
        pytest.skip("this file system takes no name that is not UTF-8")
    archive = Archive("a.db")
    archive.import_paths(["games"])
    held = archive.sql("SELECT DISTINCT path, file FROM records")
    assert held == [{"path": "games/caf\\xe9.lgn", "file": os.path.realpath("elsewhere/x.lgn")}]
    with connect("a.db") as conn:
        conn.execute("UPDATE records SET file = NULL")  # (as an archive made before version 15 holds them)
    summary = archive.import_paths(["games"], replace=True)
    assert (summary.replaced, summary.added, summary.kept, summary.duplicates) == (0, 0, 2, 0)
    stopped_reading(in_tmp / "elsewhere/x.lgn", records[1], monkeypatch)
    summary = archive.import_paths(["games"], replace=True)
    assert (summary.replaced, summary.added, len(summary.unreadable)) == (0, 0, 1)
    assert archive.sql("SELECT count(*) AS n FROM records") == [{"n": 2}]


def test_a_file_named_with_a_backslash_that_stops_decoding_midway_keeps_its_records(in_tmp, monkeypatch):
    """A file that cannot be read is named by the file system's name (`Unreadable.path`), not as
    lusoria shows it: `caf\\xe9.lgn` (a backslash, x, e, 9) was taken for a Latin-1 name, so that
    its records after the bad byte were removed as records the file no longer has."""
    records = games(46, 3)[:2]
    name = "games/caf\\xe9.lgn"
    write(in_tmp / name, [records[0], "\n" * (1 << 20), records[1]])
    archive = Archive("a.db")
    archive.import_paths(["games"])
    stopped_reading(in_tmp / name, records[1], monkeypatch)
    summary = archive.import_paths(["games"], replace=True)
    assert (summary.replaced, summary.added, len(summary.unreadable)) == (0, 0, 1)
    assert archive.sql("SELECT count(*) AS n FROM records") == [{"n": 2}]


def test_a_batch_stored_again_after_a_failure_is_sorted_as_the_first_time(in_tmp, monkeypatch):
    """One batch of three files: a.lgn's edited record 1 fails to store (a bug), and the batch is
    sorted again from where it began (`Replacement.restore`): b.lgn's record 3, moved to a.lgn,
    waits again for b.lgn (which no longer has it: a.lgn's copy is stored), b.lgn counts again
    among the files replaced, and c.lgn, now empty, gives up its records again."""
    first, second, third = games(61, 6)[:4], games(62, 6)[:4], games(63, 3)[:2]
    for name, records in (("a", first), ("b", second), ("c", third)):
        write(in_tmp / f"games/{name}.lgn", records)
    archive = Archive("a.db")
    archive.import_paths(["games"])
    write(in_tmp / "games/a.lgn", [*commented(first), second[3]])
    write(in_tmp / "games/b.lgn", second[1:3])
    write(in_tmp / "games/c.lgn", [])
    edited = commented(first)[1]
    fail_to_store(monkeypatch, edited.strip())
    summary = archive.import_paths(["games"], replace=True)
    counts = (summary.replaced, summary.replaced_files, summary.added, summary.kept, summary.duplicates)
    assert (counts, len(summary.failed)) == ((4, 2, 1, 5, 0), 1)
    held = {
        row["text"]: row["path"] for row in archive.sql("SELECT text, path FROM records JOIN record_texts USING (id)")
    }
    assert held == {
        **dict.fromkeys(first, "games/a.lgn"),
        **dict.fromkeys(second[1:3], "games/b.lgn"),
        second[3]: "games/a.lgn",
    }


FORMATS = Path(__file__).parent.parent / "fixtures" / "formats"
ABOVE = {  # a game put first in a file of several games of another format
    "saami.txt": lambda text: "e8-b8 d5-d6 d1-d5xc5\n" + text,
    "scrape.json": lambda text: text.replace("[", '[{"AageGameTypeName": "Brandubh 7x7", "Moves": "d1-d3"},', 1),
}


@pytest.mark.parametrize("name", ["tafl/saami.txt", "aage/scrape.json", "otn/brandubh.otg"])
def test_a_record_of_another_format_read_from_elsewhere_or_after_a_game_added_is_kept(in_tmp, name):
    """Its text, written in lusoria's notation, holds the file as named and the record's place in it
    (SourceFile, SourceRecord), as its path and line do: kept, with its place and those tags made
    the file's now (they made it another record: removed and added again under a new id)."""
    file = in_tmp / "games" / Path(name).name
    file.write_text((FORMATS / name).read_text())
    archive = Archive(str(in_tmp / "a.db"))
    archive.import_paths([f"games/{file.name}"])
    ids = archive.sql("SELECT id FROM records ORDER BY id")
    os.chdir("games")
    summary = archive.import_paths([file.name], replace=True)
    assert (summary.replaced, summary.added, summary.kept) == (0, 0, len(ids))
    assert archive.sql("SELECT id FROM records ORDER BY id") == ids
    Archive("fresh.db").import_paths([file.name])
    assert contents(archive.path) == contents("fresh.db")
    if file.name in ABOVE:
        file.write_text(ABOVE[file.name](file.read_text()))
        summary = archive.import_paths([file.name], replace=True)
        assert (summary.replaced, summary.added, summary.kept) == (0, 1, len(ids))
        assert archive.sql(f"SELECT id FROM records WHERE id <= {len(ids)} ORDER BY id") == ids
        Archive("fresh-too.db").import_paths([file.name])
        assert contents(archive.path) == contents("fresh-too.db")


def test_the_records_a_replacement_moves_are_packed_with_the_archives_dictionary(in_tmp, monkeypatch):
    """The first batch of a replacement moves the records kept (their texts, whose source tags say
    the place, packed again) before it stores any: with the dictionary the archive holds, which an
    import before trained, not without one."""
    monkeypatch.setattr(texts_module, "TRAIN_AT", 40)
    monkeypatch.setattr(texts_module, "DICTIONARY_SIZE", 4096)
    records = games(3, 48)
    write(in_tmp / "games/a.lgn", records)
    archive = Archive("a.db")
    archive.import_paths(["games"])
    write(in_tmp / "games/a.lgn", records[::-1])
    summary = archive.import_paths(["games/a.lgn"], replace=True)
    assert (summary.kept, summary.replaced, summary.added) == (48, 0, 0)
    conn = connect(archive.path)
    packed = [value for (value,) in conn.execute("SELECT packed_text FROM records")]
    conn.close()
    assert len(packed) == 48 and {zstandard.get_frame_parameters(value).dict_id for value in packed} == {1}


@pytest.mark.parametrize(
    "edit, said",
    [
        (
            "ply mended",
            "a.db: added 1 record (1 invalid, 0 of them unparsable), skipped 5 duplicates; 1 file imported before "
            "read as other records now (games/a.lgn: changed since, or read under other rules): the records added "
            "sit beside the old, which are kept (import --replace keeps only what a file holds now)\n",
        ),
        ("record added", "a.db: added 1 record (0 invalid, 0 of them unparsable), skipped 6 duplicates\n"),
    ],
)
def test_import_of_a_file_changed_since_its_import_says_its_old_records_are_kept(in_tmp, edit, said):
    """A tournament director imported a round, mended a move and imported it again: the game was then
    in the archive twice, the mistyped copy and the mended one, each counted in the score table,
    without a word. A file that only gained records adds them, as before, without a note."""
    write(in_tmp / "games/a.lgn", games(8, 6))
    runner = CliRunner()
    assert runner.invoke(main, ["import", "--db", "a.db", "games"]).exit_code == 0
    write(in_tmp / "games/a.lgn", EDITS[edit](games(8, 6)))
    result = runner.invoke(main, ["import", "--db", "a.db", "games"])
    assert (result.exit_code, result.stdout.splitlines(keepends=True)[0]) == (0, said)


@pytest.mark.parametrize(
    "second, added, changed",
    [
        ({"paths": ["m.txt"], "tags": {"Game": "tablut"}}, 0, []),  # read again as it was
        ({"paths": ["m.txt"], "tags": {"Game": "tablut", "Variant": "aage"}}, 1, ["m.txt"]),  # under other rules
        ({"paths": ["m.txt", "n.txt"], "tags": {"Game": "tablut", "Variant": "aage"}}, 2, ["m.txt"]),  # n.txt: new
        ({"paths": ["m.txt"], "tags": {"Game": "tablut"}, "replace": True}, 1, []),  # its record kept, one added
        ({"paths": [sources.STDIN], "tags": {"Game": "tablut", "Variant": "aage"}}, 1, []),  # no file held
    ],
    ids=["unchanged", "other rules", "a new file beside", "replaced", "standard input"],
)
def test_import_summary_names_the_files_held_that_read_as_other_records_now(
    in_tmp, monkeypatch, second, added, changed
):
    """ImportSummary.changed, which `lusoria import` says: the files imported before whose records held are
    not all read again, and which added records. A file read under other rules than at its import is
    another game too: it is named, though its text did not change; standard input names no file."""
    Path("m.txt").write_text("c5-c3 i6-f6\n")
    Path("n.txt").write_text("e3-c3 e5-e4\n")
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"c5-c3 i6-f6\n")))
    archive = Archive("a.db")
    assert archive.import_paths(["m.txt"], tags={"Game": "tablut"}).changed == []
    Path("m.txt").write_text("c5-c3 i6-f6\nd5-d3\n" if second.get("replace") else "c5-c3 i6-f6\n")
    summary = archive.import_paths(**second)
    assert (summary.added, summary.changed) == (added, changed)


def test_a_file_changed_is_named_though_another_file_holds_its_old_game(in_tmp):
    """A record of a file held is read again only from that file: its old game, found in another
    file of the import (a round's file and the season's), does not hide the change."""
    Path("round.txt").write_text("c5-c3 i6-f6\ne3-c3 e5-e4\n")
    archive = Archive("a.db")
    archive.import_paths(["round.txt"], tags={"Game": "tablut"})
    Path("round.txt").write_text("c5-c3 i6-f6\ne3-c3 e5-e3\n")
    Path("season.txt").write_text("e3-c3 e5-e4\n")
    summary = archive.import_paths(["round.txt", "season.txt"], tags={"Game": "tablut"})
    assert (summary.added, len(summary.skipped), summary.changed) == (1, 2, ["round.txt"])


def test_a_file_mended_since_its_import_is_said_changed_where_its_records_are_skipped(in_tmp):
    """Newcomer-56b: a file whose record was mended with the same identity (a field that is no part of it)
    was skipped on its next import, said only to be the same game as the record it held: that record was
    read from this file as it was; import --replace holds the file as it is now."""
    records = games(5, 3)
    write(in_tmp / "games/a.lgn", records)
    write(in_tmp / "games/b.lgn", records[:1])
    archive = Archive("a.db")
    archive.import_paths(["games/a.lgn"])
    write(in_tmp / "games/a.lgn", [records[0].replace("escapes}", "escapes, mended}"), *records[1:]])
    summary = archive.import_paths(["games/a.lgn", "games/b.lgn"])
    assert [str(skipped) for skipped in summary.skipped] == [
        "games/a.lgn:1: skipped, the same game as record 1, read from this file before it changed (import --replace "
        "holds it as it is now)",
        "games/a.lgn:12: skipped, the same game as record 2",
        "games/a.lgn:23: skipped, the same game as record 3",
        "games/b.lgn:1: skipped, the same game as record 1",
    ]
    replaced = archive.import_paths(["games/a.lgn"], replace=True)
    assert (replaced.replaced, replaced.added, replaced.kept) == (1, 1, 2)


GLOB_LETTERS = st.sampled_from("ab*?[]^-/")


@settings(max_examples=200, deadline=None)
@given(
    st.text(GLOB_LETTERS, min_size=1, max_size=8), st.integers(0, 7), GLOB_LETTERS, st.text(GLOB_LETTERS, max_size=2)
)
def test_a_name_as_a_glob_matches_that_name_alone(name, at, letter, added):
    """`glob_escaped`, which the summary's `remove --path` of a file gone gives: SQLite's GLOB of it takes
    the name, and no other name (one letter changed, or letters added)."""
    from lusoria.archive.query import glob_escaped

    at %= len(name)
    others = [name[:at] + letter + name[at + 1 :], name + added]
    conn = connect(":memory:")
    for other in others:
        assert conn.execute("SELECT ? GLOB ?", [other, glob_escaped(name)]).fetchone() == (int(other == name),)


def test_a_summary_names_three_files_gone_under_a_path_and_counts_the_rest():
    from lusoria.archive.importer import ImportSummary

    for names, listed in (("abcde", "/club/games/c.lgn, …"), ("abc", "/club/games/c.lgn")):
        summary = ImportSummary(gone={"games": [f"/club/games/{n}.lgn" for n in names]})
        assert str(summary).endswith(
            f"; {len(names)} files the archive holds under games no longer exist (/club/games/a.lgn, /club/games/b.lgn, "
            f"{listed}); their records are kept (Archive.remove(Filters(path=FILE)) takes a file's out)"
        )


def test_an_import_beside_another_says_no_file_of_the_other_changed(in_tmp):
    """h81b: two imports into one archive at once: the records another import added meanwhile (ids after those held
    when this one began) were taken for this one's, and a file only the other read, changed since it was imported
    before, was said to be this one's, "changed since", its records beside the old."""
    write(in_tmp / "games/x.lgn", games(44, 3))
    archive = Archive("a.db")
    assert archive.import_paths(["games/x.lgn"]).added == 3
    write(in_tmp / "games/x.lgn", games(45, 3))  # (changed since)
    write(in_tmp / "games/y1.lgn", games(46, 3))
    write(in_tmp / "games/y2.lgn", games(47, 3))
    other = []

    def beside(size):  # (told as y1.lgn is read: the other import runs while this one's batch of y1 waits)
        if not other:
            other.append(Archive("a.db").import_paths(["games/x.lgn"]))

    this = archive.import_paths(["games/y1.lgn", "games/y2.lgn"], batch_size=1, progress=beside)
    assert (this.added, this.changed) == (6, [])
    assert (other[0].added, other[0].changed) == (3, ["games/x.lgn"])
