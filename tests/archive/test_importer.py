"""Archive edges (issue 13): a failure in the middle of a batch, duplicates within a batch and
across reformatting, the first ply a position is reached at; archives that cannot be made,
imports with nothing to store, a new archive's permissions, exports into a file."""

import os
import sqlite3
import stat
import string
import subprocess
import sys
from fnmatch import fnmatchcase

import pytest
from click.testing import CliRunner
from conftest import ROOT, connect

from lusoria.api import random_records
from lusoria.archive import Archive, Filters
from lusoria.archive.importer import FAULT, MoveCodes, import_rows
from lusoria.archive.positions import move_code
from lusoria.archive.query import build
from lusoria.archive.records_as_rows import checked_rows
from lusoria.archive.schema import open_archive
from lusoria.archive.tables import COLUMN_TAGS
from lusoria.cli import main
from lusoria.notation.writer import unknown
from lusoria.output import render
from lusoria.pipeline import records as read
from lusoria.validator.replay import check
from lusoria.words import COMMAND

RECORD = '[Game "tablut"]\n[White "{name}"]\n[Result "*"]\n\n1. e3-c3 d1-d3 *\n'


def records(count: int) -> str:
    return "\n".join(RECORD.format(name=f"player {n}") for n in range(count))


def counts(db) -> dict[str, int]:
    return {
        table: db.execute(f"SELECT count(*) FROM [{table}]").fetchone()[0]
        for table in ("records", "tags", "plies", "diagnostics")
    }


def test_a_failure_midway_through_a_batch_rolls_the_whole_batch_back(tmp_path, monkeypatch):
    source = tmp_path / "five.lgn"
    source.write_text(records(5))
    db = open_archive(str(tmp_path / "a.db"))
    monkeypatch.setenv(FAULT, "insert:2:raise")  # after batch 2's records rows, before its other rows
    with pytest.raises(RuntimeError, match="stopped at insert of batch 2"):
        import_rows(db, checked_rows(read([str(source)])), batch_size=2)
    # the same connection sees batch 1 whole and nothing of batch 2, and is not left in a transaction
    assert not db.conn.in_transaction
    assert counts(db) == {"records": 2, "tags": 6, "plies": 6, "diagnostics": 0}
    monkeypatch.delenv(FAULT)
    summary = import_rows(db, checked_rows(read([str(source)])), batch_size=2)
    assert (summary.added, summary.duplicates) == (3, 2)
    assert counts(db) == {"records": 5, "tags": 15, "plies": 15, "diagnostics": 0}


def test_a_failure_just_before_commit_keeps_the_earlier_batches(tmp_path, monkeypatch):
    source = tmp_path / "five.lgn"
    source.write_text(records(5))
    db = open_archive(str(tmp_path / "a.db"))
    monkeypatch.setenv(FAULT, "commit:3:raise")
    with pytest.raises(RuntimeError):
        import_rows(db, checked_rows(read([str(source)])), batch_size=2)
    assert counts(db)["records"] == 4 and not db.conn.in_transaction


def test_the_same_record_twice_in_one_batch_is_stored_once(tmp_path):
    source = tmp_path / "twice.lgn"
    one = RECORD.format(name="Karin")
    source.write_text(one + "\n" + one + "\n" + RECORD.format(name="Olof"))
    summary = Archive(str(tmp_path / "a.db")).import_paths([str(source)])
    assert (summary.added, summary.duplicates) == (2, 1)
    assert [row["white"] for row in Archive(str(tmp_path / "a.db")).query(Filters())] == ["Karin", "Olof"]


def test_a_reformatted_record_is_a_duplicate(tmp_path):
    archive = Archive(str(tmp_path / "a.db"))
    first, second = tmp_path / "first.lgn", tmp_path / "second.lgn"
    first.write_text(RECORD.format(name="Karin"))
    second.write_text('[Game "tablut"]\r\n[White "Karin"]   [Result "*"]\r\n1.  e3-c3\n\n\td1-d3\n*')
    assert archive.import_paths([str(first)]).added == 1
    summary = archive.import_paths([str(second)])
    assert (summary.added, summary.duplicates) == (0, 1)
    # a record that differs in more than white space is another record
    changed = tmp_path / "changed.lgn"
    changed.write_text(RECORD.format(name="Karin").replace("e3-c3", "e3-d3"))
    assert archive.import_paths([str(changed)]).added == 1


def test_position_search_gives_the_first_ply_the_position_is_reached_at(tmp_path):
    source = tmp_path / "again.lgn"
    # after ply 1 and again after ply 5; the start again after ply 4
    source.write_text('[Game "tablut"]\n\n1. e3-c3 d1-d2 2. c3-e3 d2-d1 3. e3-c3 *\n')
    archive = Archive(str(tmp_path / "a.db"))
    assert archive.import_paths([str(source)]).invalid == 0
    after_first = "3ppp3/4p4/4P4/p3P3p/ppPPKPPpp/p3P3p/2P6/4p4/3ppp3 b"
    assert [row["ply"] for row in archive.query(Filters(position=after_first))] == [1]
    start = "3ppp3/4p4/4P4/p3P3p/ppPPKPPpp/p3P3p/4P4/4p4/3ppp3 w"
    assert [row["ply"] for row in archive.query(Filters(position=start))] == [0]
    after_second = "3ppp3/4p4/4P4/p3P3p/ppPPKPPpp/p3P3p/2P6/3pp4/4pp3 w"  # after ply 2
    assert [row["ply"] for row in archive.query(Filters(position=after_second))] == [2]
    assert archive.query(Filters(position=after_second.replace(" w", " b"))) == []  # the same board, Black to move


def test_an_import_leaves_no_free_pages_and_a_new_archive_full_pages(tmp_path):
    # merging the index of positions frees the pages of its segments: the archive gives them back
    source = tmp_path / "many.lgn"
    source.write_text("\n".join(random_records("tablut", 200, seed=4, max_plies=60)))
    archive = Archive(str(tmp_path / "a.db"))
    archive.import_paths([str(source)], batch_size=20)
    db = open_archive(archive.path)
    assert db.execute("PRAGMA auto_vacuum").fetchone() == (2,)  # incremental
    assert db.execute("PRAGMA freelist_count").fetchone() == (0,)
    assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    # the ten batches' segments of the index merged into one, which a search looks a token up in
    assert db.execute("SELECT count(DISTINCT segid) FROM positions_idx").fetchone() == (1,)
    pages = db.execute("PRAGMA page_count").fetchone()  # a new archive: written again by VACUUM, pages full
    db.execute("VACUUM")
    assert db.execute("PRAGMA page_count").fetchone() == pages


def test_a_connection_waits_for_a_busy_archive_and_checks_foreign_keys(tmp_path):
    db = open_archive(str(tmp_path / "a.db"))
    assert db.execute("PRAGMA busy_timeout").fetchone() == (5000,)
    assert db.execute("PRAGMA foreign_keys").fetchone() == (1,)
    assert db.execute("PRAGMA journal_mode").fetchone() == ("wal",)


@pytest.mark.parametrize(
    "filters, index",
    [
        (Filters(position="3ppp3/4p4/4P4/p3P3p/ppPPKPPpp/p3P3p/4P4/4p4/3ppp3 w"), "v VIRTUAL TABLE INDEX 6:"),
        (Filters(rule="T4"), "idx_diagnostics_rule_record_id"),
        (Filters(player="Karin"), "idx_records_black_nocase"),
        (Filters(tags=[("Event", "Club*")]), "idx_records_event_nocase"),  # (version 10: a column's tag there)
        (Filters(tags=[("Annotator", "Ann*")]), "PRIMARY KEY (name=?)"),  # (in any case: the tag's values, no range)
        (Filters(result="1-0"), "idx_records_result"),
        (Filters(ending="resigned"), "idx_records_ending"),
        (Filters(min_plies=100), "idx_records_plies"),
        (Filters(max_plies=10), "idx_records_plies"),
        (Filters(board="11x11"), "idx_records_board"),
        (Filters(game="tablut"), "idx_records_game_variant"),
        (Filters(valid=False), "idx_records_valid"),
        (Filters(event="Club"), "idx_records_event_nocase"),
        (Filters(date_from="2025"), "idx_records_date_to"),
        (Filters(date_to="2025"), "idx_records_date_order"),  # (version 9: no index of date_from alone)
        (Filters(date_to="2025", include_unknown=True), "idx_records_date_order"),
        (Filters(date_from="2025", include_unknown=True), "idx_records_date_order"),
    ],
)
def test_a_search_uses_its_index(tmp_path, filters, index):
    """No timing: the query plan names the index (a search never scans a whole table): the index
    of positions (`v`) is read between the bounds of each token (6: >= and <; `w`, the positions
    sought, read from their JSON once), once, into the list of the records that reached it
    (`reached`), which are read."""
    db = open_archive(str(tmp_path / "a.db"))
    sql, params = build(filters)
    plan = [row[-1] for row in db.execute("EXPLAIN QUERY PLAN " + sql, params).fetchall()]
    assert any(
        f"USING INDEX {index} " in step
        or f"USING COVERING INDEX {index} " in step
        or step.endswith(f"USING COVERING INDEX {index}")
        or f"USING {index}" in step
        or step == f"SCAN {index}"
        for step in plan
    ), plan  # other_tags: its own key
    # (a tag a column keeps is matched in that column's index, read whole: GLOB tells capitals
    # apart, the index does not; never the table)
    scans = [
        step
        for step in plan
        if step.startswith("SCAN ")
        and step != "SCAN CONSTANT ROW"
        and not (filters.tags and step.startswith("SCAN records USING COVERING INDEX"))
    ]
    assert scans == (
        ["SCAN json_each VIRTUAL TABLE INDEX 1:", "SCAN w", "SCAN v VIRTUAL TABLE INDEX 6:", "SCAN reached"]
        if filters.position
        else []
    ), plan


def test_the_default_archive_is_lusoria_db_or_the_environments(monkeypatch):
    monkeypatch.delenv("LUSORIA_DB", raising=False)
    assert Archive().path == "lusoria.db"
    monkeypatch.setenv("LUSORIA_DB", "/tmp/elsewhere.db")
    assert Archive().path == "/tmp/elsewhere.db" and Archive("mine.db").path == "mine.db"


def test_rendering_one_row_names_its_columns():
    assert render([{"a": 1, "b": None}], "csv") == "a,b\n1,\n"
    assert render([], "csv") == "\n"


# -- archives that cannot be made, and imports with nothing to store ---------------------------


def lusoria(*args, input=None):
    return CliRunner().invoke(main, [str(a) for a in args], input=input)


def test_an_archive_in_a_missing_folder_is_refused_in_one_line(tmp_path):
    result = lusoria("import", "--db", tmp_path / "missing" / "a.db", "-", input=records(1))
    assert result.exit_code == 2
    assert result.output.splitlines()[-1] == (
        f"lusoria: cannot create the archive {tmp_path / 'missing' / 'a.db'}: no such file or directory"
    )
    assert list(tmp_path.iterdir()) == []


def test_an_archive_named_as_a_path_is_refused_before_anything_is_stored(tmp_path, monkeypatch):
    # `lusoria import real.db games.lgn`, as sqlite-utils is called: games.lgn went into lusoria.db
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("LUSORIA_DB", raising=False)
    (tmp_path / "games.lgn").write_text(records(1), encoding="utf-8")
    for archive in ("real.db", "real.SQLite", "sub/real.sqlite3"):
        result = lusoria("import", "games.lgn", archive)
        assert result.exit_code == 2
        assert result.output.splitlines()[-1] == (
            f"Error: {archive} does not exist: PATH is what to import; the archive to import into is --db {archive}"
        )
    assert [path.name for path in tmp_path.iterdir()] == ["games.lgn"]
    # a missing file of records is said as before, the others imported; an archive that exists is a path read
    assert lusoria("import", "games.lgn", "gone.lgn").output.splitlines() == [
        "lusoria: gone.lgn: no such file or directory",
        "lusoria.db: added 1 record (0 invalid, 0 of them unparsable), skipped 0 duplicates; could not read 1 source "
        "(each said with why)",
    ]
    assert lusoria("import", "--db", "b.db", "lusoria.db").output.splitlines()[0] == (
        "lusoria: lusoria.db: an SQLite database, not text (an archive: lusoria query, sql and export read it with --db; "
        "lusoria query --db FILE --id N --format lgn writes its record N)"
    )


def test_an_import_with_no_record_makes_no_archive_and_leaves_one_as_it_was(tmp_path):
    path = tmp_path / "a.db"
    result = lusoria("import", "--db", path, "-", input="\n")
    assert result.exit_code == 2 and "lusoria: no record found in -" in result.output
    assert list(tmp_path.iterdir()) == []
    assert Archive(str(path)).import_paths([records(2)]).added == 2
    before = path.read_bytes()
    assert lusoria("import", "--db", path, "-", input="\n").exit_code == 2
    assert path.read_bytes() == before


def test_an_import_of_as_many_duplicates_as_new_records_found_them(tmp_path):
    """A record skipped as a duplicate is found as much as one added (ImportSummary.found)."""
    path = tmp_path / "a.db"
    result = lusoria("import", "--db", path, "-", input=records(1) + "\n" + records(1))
    assert (result.exit_code, result.stdout, result.stderr) == (
        0,
        f"{path}: added 1 record (0 invalid, 0 of them unparsable), skipped 1 duplicate\n"
        "<stdin>:7: skipped, the same game as record 1\n",
        "",
    )


def test_an_import_names_each_duplicate_it_skips_and_the_record_it_duplicates(tmp_path):
    """`ImportSummary.skipped`: where each duplicate is and the id of the archive's record of its
    game, one held before the import or one before it in its file, in another batch or the same."""
    archive = Archive(str(tmp_path / "a.db"))
    held, again = tmp_path / "held.lgn", tmp_path / "again.lgn"
    held.write_text(records(2))
    archive.import_paths([str(held)])
    again.write_text(records(3) + "\n" + RECORD.format(name="player 2") + "\n" + RECORD.format(name="player 1"))
    summary = archive.import_paths([str(again)], batch_size=4)
    assert [str(skipped) for skipped in summary.skipped] == [
        f"{again}:1: skipped, the same game as record 1",
        f"{again}:7: skipped, the same game as record 2",
        f"{again}:19: skipped, the same game as record 3",  # in its batch: the one before it
        f"{again}:25: skipped, the same game as record 2",  # in the next batch
    ]
    assert (summary.added, summary.duplicates) == (1, 4)


def test_import_names_the_first_duplicates_and_counts_the_others_unless_asked_for_all(tmp_path):
    path = tmp_path / "a.db"
    assert lusoria("import", "--db", path, "-", input=records(7)).exit_code == 0
    again = lusoria("import", "--db", path, "-", input=records(7))
    assert again.stdout == (
        f"{path}: added 0 records (0 invalid, 0 of them unparsable), skipped 7 duplicates\n"
        + "".join(f"<stdin>:{1 + 6 * n}: skipped, the same game as record {n + 1}\n" for n in range(5))
        + "and 2 more duplicates: --all-duplicates names every one\n"
    )
    every = lusoria("import", "--db", path, "-", "--all-duplicates", input=records(7))
    assert every.stdout.splitlines()[1:] == [
        f"<stdin>:{1 + 6 * n}: skipped, the same game as record {n + 1}" for n in range(7)
    ]


def test_a_library_import_gets_every_problem_and_note_lusoria_import_says(tmp_path):
    """Files skipped in a folder and the notes (an option not applied) were the CLI's alone: the
    summary's `problems` and the archive's `notes` have them, in order, and the CLI says those. A
    note named the CLI's option (`--game tablut`) to a library call given `tags`: the library's
    names the tag, the CLI's the option."""
    folder = tmp_path / "records"
    folder.mkdir()
    (folder / "a.lgn").write_text(records(1))
    (folder / "b.lgn").write_text("")
    (folder / "c.txt").write_text("hi\n")
    told: list = []
    summary = Archive(str(tmp_path / "a.db"), notes=told.append).import_paths([folder], tags={"Game": "tablut"})
    said = [
        f"{folder / 'b.lgn'}: skipped, an empty file, no record",
        f"{folder / 'c.txt'}: skipped, a .txt file that is neither tafl move lists nor a Tablut Challenge game log",
        f"note: Game tablut is not applied to the records of 1 lgn file ({folder / 'a.lgn'}): lgn records say",
    ]
    assert summary.added == 1 and told == summary.problems and len(told) == 3
    assert [str(problem)[: len(start)] for problem, start in zip(told, said)] == said
    assert str(told[2]).endswith(
        "; Variant and Rules alone, to move lists that do not name their game (by their file names or a header), and "
        "with Game, to all of those)"
    )
    shown = lusoria("import", "--db", tmp_path / "b.db", "--game", "tablut", folder)
    *skipped, note = shown.stderr.splitlines()
    assert shown.exit_code == 0 and skipped == [f"lusoria: {problem}" for problem in told[:2]]
    assert str(summary) == (  # the files skipped counted, the note not
        "added 1 record (0 invalid, 0 of them unparsable), skipped 0 duplicates; "
        "2 files or folders skipped (each said with why)"
    )
    assert shown.stdout == f"{tmp_path / 'b.db'}: {summary}\n"
    assert note.startswith(
        f"lusoria: note: --game tablut is not applied to the records of 1 lgn file ({folder / 'a.lgn'})"
    )
    assert note.endswith(
        "; --variant and --rules alone, to move lists that do not name their game (by their file names or a header), "
        "and with --game, to all of those)"
    )


@pytest.mark.parametrize("umask, mode", [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_a_new_archive_has_the_permissions_of_any_new_file(tmp_path, umask, mode):
    old = os.umask(umask)
    try:
        Archive(str(tmp_path / "a.db")).import_paths([records(1)])
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "a.db").stat().st_mode) == mode


def test_an_export_into_a_file_is_refused_in_one_line(tmp_path):
    path = tmp_path / "a.db"
    Archive(str(path)).import_paths([records(1)])
    (tmp_path / "taken").write_text("a file\n")
    for directory in (tmp_path / "taken", tmp_path / "taken" / "below"):
        result = lusoria("export", "--db", path, "--format", "csv", directory)
        assert result.exit_code == 2 and result.output == f"lusoria: cannot write {directory}: not a directory\n"
    assert (tmp_path / "taken").read_text() == "a file\n"
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "records.csv").mkdir()  # a file that cannot be opened for writing
    result = lusoria("export", "--db", path, "--format", "csv", tmp_path / "out")
    assert (
        result.exit_code == 2
        and result.output == f"lusoria: cannot write {tmp_path / 'out' / 'records.csv'}: is a directory\n"
    )


@pytest.mark.parametrize("to", ["stdout", "stderr"])
def test_an_import_whose_output_is_closed_stores_its_records(tmp_path, to):
    """Newcomer-59: `lusoria import … 2>&1 | head -1` died at its first message (a file skipped), exit 1,
    the records of the batch it came in not stored. Its messages are dropped once their pipe is closed
    (here before it starts), and the import goes on: every record stored, its exit status its own."""
    (tmp_path / "a-notes.md").write_text("not a record\n")  # (said first, as read first)
    (tmp_path / "games.lgn").write_text(records(3))
    closed, writer = os.pipe()
    os.close(closed)
    command = [sys.executable, "-m", "lusoria.cli", "import", "--db", str(tmp_path / "a.db"), str(tmp_path)]
    ends = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL, to: writer}
    status = subprocess.run(command, **ends, timeout=120, check=False).returncode
    os.close(writer)
    assert (status, Archive(str(tmp_path / "a.db")).sql("SELECT count(*) AS n FROM records")) == (0, [{"n": 3}])


def test_output_into_a_closed_pipe_ends_quietly(tmp_path):
    path = tmp_path / "a.db"
    Archive(str(path)).import_paths([records(300)])
    command = subprocess.Popen(
        [sys.executable, "-m", "lusoria.cli", "query", "--db", str(path), "--format", "lgn"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        pipesize=4096,
    )
    command.stdout.read(10)
    command.stdout.close()  # as `| head -c 10` does; what is left (over 4 KiB) cannot all be in the pipe by then
    assert command.wait(timeout=60) == 1 and command.stderr.read() == b""


def in_any_case(text: str, glob: str) -> bool:
    """Whether `text` matches `glob` in any case of ASCII letters, as `--tag` matches (SQLite's lower())."""
    ascii_lower = str.maketrans(string.ascii_uppercase, string.ascii_lowercase)
    return fnmatchcase(text.translate(ascii_lower), glob.translate(ascii_lower))


def test_tags_hold_every_tag_of_every_record_once_and_each_is_searched_where_it_is_kept(tmp_path):
    # version 10: the six tags the records' columns keep are read from them (the view `tags`),
    # the others from `other_tags`; --tag finds a record by any of them (but an unknown one's, NULL)
    archive = Archive(str(tmp_path / "a.db"))
    archive.import_paths([str(ROOT / "samples"), str(ROOT / "tests" / "fixtures" / "resubmitted.lgn")])
    written = {
        (row["id"], name, value)
        for row in archive.sql("SELECT id, text FROM record_texts")
        for name, value in check(row["text"]).tags.items()
        if not (name in COLUMN_TAGS and unknown(name, value))  # (`?`: stored NULL, as a tag left out)
    }
    kept = {(row["record_id"], row["name"], row["value"]) for row in archive.sql("SELECT * FROM tags")}
    assert kept == written and len(kept) == len(archive.sql("SELECT * FROM tags"))  # once each
    assert {row["name"] for row in archive.sql("SELECT DISTINCT name FROM other_tags")}.isdisjoint(COLUMN_TAGS)
    assert COLUMN_TAGS.keys() <= {name for _, name, _ in kept}
    for name in {name for _, name, _ in kept}:
        for value in ("*", "[A-Z]*"):
            found = {row["id"] for row in archive.query(Filters(tags=[(name, value)]))}
            assert found == {record for record, tag, text in kept if tag == name and in_any_case(text, value)}, name


def test_a_comment_is_kept_and_searched_wherever_it_stands(tmp_path):
    """A record whose only comment stands before its first ply, after a ply, or in a variation."""
    records = [
        '[Game "tablut"]\n[White "before"]\n\n{played at the club} 1. e3-c3 d1-d3 *\n',
        '[Game "tablut"]\n[White "after"]\n\n1. e3-c3 {a quiet opening} d1-d3 *\n',
        '[Game "tablut"]\n[White "inside"]\n\n1. e3-c3 (1. e3-d3 {the sharper line}) d1-d3 *\n',
    ]
    archive = Archive(str(tmp_path / "a.db"))
    assert archive.import_paths(["\n".join(records)]).added == 3
    assert archive.sql("SELECT white, comments FROM records ORDER BY id") == [
        {"white": "before", "comments": "played at the club"},
        {"white": "after", "comments": "a quiet opening"},
        {"white": "inside", "comments": "the sharper line"},
    ]
    assert [row["white"] for row in archive.query(Filters(text="club"))] == ["before"]


def test_no_percent_line_is_lost_from_import_to_lgn(tmp_path):
    """The `%` lines above a file's first record are that record's, as `fmt` keeps them: `query
    --format lgn` writes them above it, and those after a record (its text) where they stood."""
    first, second = (RECORD.format(name=name) for name in ("first", "second"))
    (tmp_path / "notes.lgn").write_text(f"% the file note\n\n% another\n{first}% after the first\n\n{second}")
    assert lusoria("import", "--db", tmp_path / "a.db", tmp_path / "notes.lgn").exit_code == 0
    written = lusoria("query", "--db", tmp_path / "a.db", "--format", "lgn")
    assert written.exit_code == 0
    assert [line for line in written.output.splitlines() if line.startswith("%")] == [
        "% the file note",
        "% another",
        "% after the first",
    ]
    assert written.output.startswith('% the file note\n% another\n[Game "tablut"]\n')


def test_the_percent_lines_above_a_duplicate_are_skipped_with_it_as_documented(tmp_path):
    """docs/archive.md (Identity): a first record that is a duplicate is skipped whole, the `%` lines
    above it and its comments with it; the file's next record keeps its own text as written."""
    first, second = (RECORD.format(name=name) for name in ("first", "second"))
    (tmp_path / "a.lgn").write_text(first)
    commented = first.replace("e3-c3", "e3-c3 {a comment}")
    (tmp_path / "b.lgn").write_text(f"% the file note\n{commented}\n{second}")
    summary = Archive(str(tmp_path / "a.db")).import_paths([str(tmp_path / "a.lgn"), str(tmp_path / "b.lgn")])
    assert (summary.added, summary.duplicates) == (2, 1)
    written = lusoria("query", "--db", tmp_path / "a.db", "--format", "lgn").output
    assert written == f"{first}\n{second}" and "%" not in written and "a comment" not in written


def test_a_records_errors_warnings_and_sources_are_its_columns(tmp_path):
    source = tmp_path / "two.lgn"
    source.write_text(
        '[Game "tablut"]\n[White " Ann"]\n[Result "*"]\n\n1. e3-c3 d1-d3 2. e5-e6 *\n\n'
        '[Game "tablut"]\n[Source "Forum"]\n[Annotator "Bo"]\n[Result "*"]\n\n1. e3-c3 *\n'
    )
    db = open_archive(str(tmp_path / "a.db"))
    import_rows(db, checked_rows(read([str(source)])))
    found = db.execute("SELECT errors, warnings, first_rule, first_ply, sources FROM records ORDER BY line")
    # the first: one error (T2 at ply 3) and one warning (the name's white space); no source tag: NULL
    assert found.fetchall() == [(1, 1, "T2", 3, None), (0, 0, None, None, "Forum Bo")]


@pytest.mark.parametrize("stop", [sqlite3.OperationalError("disk I/O error"), KeyboardInterrupt()], ids=repr)
@pytest.mark.parametrize("archive", ["new", "existing"])
def test_an_import_that_stops_while_storing_stops_its_checking(tmp_path, monkeypatch, stop, archive):
    """The records checked (their worker processes) are closed when storing them fails or is
    interrupted, in an archive made by the import or one there before (only the first were)."""
    from lusoria.archive import commands

    path = str(tmp_path / "a.db")
    if archive == "existing":
        Archive(path).import_paths([str(ROOT / "samples/tablut/escape.lgn")])
    closed = []

    def checking():
        try:
            yield from checked_rows(read(str(ROOT / "samples/tablut")))
        finally:
            closed.append(True)

    def failing(db, source, *args):  # (after a record is read)
        next(iter(source))
        raise stop

    monkeypatch.setattr(commands, "import_rows", failing)
    with pytest.raises((commands.ImportStopped, KeyboardInterrupt)):
        Archive(path).import_rows(checking())
    assert closed == [True]


def test_the_dictionary_of_plies_is_read_again_after_another_process_wrote_it(tmp_path):
    """A batch rolled back took out the plies this process had added to `moves`, and another import
    added as many (other plies, under the same codes) before the next batch began: the count of
    plies was the same, and the codes kept meant other plies."""
    path = str(tmp_path / "a.db")
    Archive(path).import_paths([str(ROOT / "samples/tablut/escape.lgn")])
    db, other = open_archive(path), connect(path)
    codes = MoveCodes(db.conn)
    db.conn.execute("BEGIN IMMEDIATE")
    codes.refresh()
    codes.document(["a", "b", "c"], ["x1-x2", "x2-x3"])
    db.conn.execute("ROLLBACK")
    codes.forget()
    stored = other.execute("SELECT count(*) FROM moves").fetchone()[0]
    with other:
        other.executemany(
            "INSERT INTO moves (code, text) VALUES (?, ?)",
            [(move_code(stored), "y1-y2"), (move_code(stored + 1), "y2-y3")],
        )
    codes.refresh()
    assert codes.codes == dict(other.execute("SELECT text, code FROM moves"))
    other.close()
    db.close()


def test_an_import_says_how_many_records_a_byte_of_another_encoding_kept_from_being_read(tmp_path):
    """A Latin-1 name in a file read as UTF-8: `validate` says where and which --encoding to try, and
    the import, which stores the record unparsable, says so too rather than only counting it."""
    (tmp_path / "maria.lgn").write_bytes(b'[Game "tablut"]\n[White "Mar\xeda"]\n[Result "*"]\n\n1. e3-c3 *\n')
    (tmp_path / "ok.lgn").write_text('[Game "tablut"]\n[Result "*"]\n\n1. e3-c3 *\n')
    summary = Archive(str(tmp_path / "club.db")).import_paths([str(tmp_path)])
    assert (summary.added, summary.unparsable, summary.undecoded) == (2, 1, 1)
    assert str(summary) == (
        "added 2 records (1 invalid, 1 of them unparsable), skipped 0 duplicates; 1 record not read for a byte "
        "the encoding does not decode (validate() says where, and which encoding to try)"
    )  # a library call has no --encoding: the command's summary names it (`said(COMMAND)`)
    assert summary.said(to=COMMAND).endswith("(lusoria validate says where, and which --encoding to try)")
    assert summary.said(to="command") == summary.said(to=COMMAND)  # (the Reader's value names it too)
    with pytest.raises(ValueError, match=r"^to=True names no reader: Reader.CALLER, Reader.COMMAND or Reader.PAGE$"):
        summary.said(to=True)  # (it was told as a library's caller is)
    latin = CliRunner().invoke(
        main, ["import", "--db", str(tmp_path / "latin.db"), "--encoding", "latin-1", str(tmp_path)]
    )
    assert latin.output.endswith(  # (club.db, the archive imported into before, is skipped in the folder)
        ": added 2 records (0 invalid, 0 of them unparsable), skipped 0 duplicates; "
        "1 file or folder skipped (each said with why)\n"
    )


def test_a_name_holding_a_byte_that_did_not_decode_is_no_player_of_the_archive(tmp_path):
    """A record not read for a Latin-1 name: stored, found by its other player, but `Mar\ufffda`, a
    name no one wrote, is in no column or tag (it was a player of the score table, beside `María` once
    the file was imported again with --encoding latin-1)."""
    (tmp_path / "maria.lgn").write_bytes(b'[Game "tablut"]\n[White "Mar\xeda"]\n[Black "Olof"]\n[Event "R\xe5"]\n\n*\n')
    archive = Archive(str(tmp_path / "club.db"))
    archive.import_paths([str(tmp_path)])
    assert archive.sql("SELECT white, black, event FROM records") == [{"white": None, "black": "Olof", "event": None}]
    assert archive.sql("SELECT name FROM other_tags") == [{"name": "Game"}]
    assert [row["player"] for row in archive.players()] == ["Olof"]


def test_a_library_import_says_the_keyword_that_may_read_a_source_it_could_not(tmp_path):
    """The summary's unreadable source, as `str()` of the problem says it: the `encoding=` values
    to try (`lusoria import` says them as its option, in their place, and counts them in its summary)."""
    path = tmp_path / "u.lgn"
    path.write_bytes('[Game "tablut"]\n1. e3-c3 *\n'.encode("utf-16-le"))
    summary = Archive(tmp_path / "a.db").import_paths([str(path)], encoding="utf-16")
    assert str(summary).endswith(
        f"; could not read 1 source: {path}: byte 0 (line 1): a utf-16 file starts with a byte-order mark, "
        'and this one has none; try encoding="utf-16-le" or encoding="utf-16-be"'
    )
