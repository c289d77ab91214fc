"""A record of another format whose text in lusoria's notation would not be checked again as its
import checked it is kept as written (`written_in`), and read in its format by every reader of the
archive's texts (archive/stored.py): an aagenielsen.dk move that captures a piece its list leaves
out (G5) was stored as lgn, which reads on, valid."""

import io
import json
from collections import Counter
from contextlib import closing

import pytest
from click.testing import CliRunner
from conftest import connect

from lusoria.archive import Archive, Filters, schema
from lusoria.archive.stored import STORED_TEXT, stored_report
from lusoria.archive.texts import TextPacker
from lusoria.cli import main
from lusoria.formats.lgn import lgn_text

# Old Copenhagen Hnefatafl: c11-c4 (ply 15) captures b4 and, written with its hyphen, lists nothing
MOVES = "a8-d8 g5-g3 f10-j10 h6-h4 d11-c11 f8-j8 d1-d5 j8-j7 a7-a9 g6-h6 f2-h2 f4-b4 k4-i4 h6-h5 c11-c4 g7-h7"
GAME = {
    "WhiteSidePlayerName": "Lena Ek",
    "BlackSidePlayerName": "Nils Falk",
    "AageGameTypeName": "Old Copenhagen Hnefatafl 11x11",
    "WhoMovedFirst": "black",
    "Moves": MOVES.split(),
    "WhoWon": "Ongoing",
}
G5 = ("error", "G5", "the move captures b4, which the record does not list", 15, 21, 4)
DIAGNOSTICS = "SELECT severity, rule, message, ply, line, column FROM diagnostics WHERE record_id = ? ORDER BY number"


def imported(tmp_path) -> str:
    """An archive of the G5 game (record 1) and of its first 15 plies with the capture listed (record 2)."""
    (tmp_path / "game-13-1-100.json").write_text(json.dumps(GAME, indent=1))
    listed = [*GAME["Moves"][:14], "c11-c4xb4"]
    (tmp_path / "game-13-2-101.json").write_text(json.dumps({**GAME, "Moves": listed}, indent=1))
    db = str(tmp_path / "a.db")
    Archive(db).import_paths([str(tmp_path / "game-13-1-100.json"), str(tmp_path / "game-13-2-101.json")])
    return db


def test_a_capture_its_list_leaves_out_keeps_the_record_as_written_and_replays_to_its_diagnostics(tmp_path):
    db = imported(tmp_path)
    with closing(connect(db)) as conn:
        stored = conn.execute(f"SELECT id, valid, {STORED_TEXT} FROM records ORDER BY id").fetchall()
        diagnostics = [conn.execute(DIAGNOSTICS, [record]).fetchall() for record, *_ in stored]
    (_, g5_valid, g5_text, g5_format, g5_tags), (_, listed_valid, listed_text, listed_format, _) = stored
    assert (g5_valid, g5_format, listed_valid, listed_format) == (0, "aage", 1, None)
    assert g5_text == (tmp_path / "game-13-1-100.json").read_text() + "\n"
    assert listed_text.startswith('[Game "hnefatafl"]')  # a valid game: in lusoria's notation
    assert diagnostics == [[G5], []]
    replayed = stored_report(g5_text, g5_format, g5_tags)
    assert [(d.severity, d.rule, d.message, d.ply, d.line, d.column) for d in replayed.diagnostics] == [G5]
    assert not replayed.valid
    assert stored_report(lgn_text(replayed), None, None).valid  # what the archive held: the error lost


def test_query_as_lgn_leaves_out_a_record_kept_as_written_and_says_how_to_carry_it(tmp_path):
    """lgn would not say what its import found (here the G5 game would read valid), as `convert --to
    lgn` refuses it: `query --format lgn` leaves it out, and says how to have it. Its lgn and its file
    carry both records to another archive, each with its verdict and diagnostics."""
    from click.testing import CliRunner

    from lusoria.cli import main

    db, other = imported(tmp_path), str(tmp_path / "other.db")
    result = CliRunner().invoke(main, ["query", "--db", db, "--format", "lgn"])
    assert (result.exit_code, result.stdout.count('[Game "hnefatafl"]')) == (1, 1)
    path = tmp_path / "game-13-1-100.json"
    assert result.stderr == (
        f"lusoria: {path}:1: the archive's record 1 left out: it is kept as written in aage, as lgn would not say "
        f"what its import found; lusoria import {path} reads it from its file, into another archive too (--db); "
        "lusoria sql 'SELECT text FROM record_texts WHERE id = 1' shows it\n"
    )
    (tmp_path / "carried.lgn").write_text(result.stdout)
    Archive(other).import_paths([str(tmp_path / "carried.lgn"), str(path)])
    carried = "SELECT valid, first_rule, first_ply, written_in FROM records ORDER BY plies"
    with closing(connect(db)) as conn, closing(connect(other)) as copy:
        assert (
            copy.execute(carried).fetchall()
            == conn.execute(carried).fetchall()
            == [
                (1, None, None, None),
                (0, "G5", 15, "aage"),
            ]
        )


def test_query_as_lgn_says_only_the_text_of_a_record_kept_as_written_from_no_file(tmp_path):
    import io

    from click.testing import CliRunner

    from lusoria.cli import main

    db = str(tmp_path / "a.db")
    Archive(db).import_paths([io.StringIO(json.dumps(GAME))])
    result = CliRunner().invoke(main, ["query", "--db", db, "--format", "lgn"])
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == (
        "lusoria: <stream>:1: the archive's record 1 left out: it is kept as written in aage, as lgn would not say "
        "what its import found; lusoria sql 'SELECT text FROM record_texts WHERE id = 1' shows it\n"
    )


def test_query_as_lgn_leaves_out_a_record_whose_text_would_not_read_back_as_imported(tmp_path):
    """h80a: a note of no tags, stored as a record that does not parse, was written below the record before it,
    which it broke on the way to another archive (`found 'folio' after the result marker`); and a record stored
    with a byte its file's encoding did not decode was written with U+FFFD, and read valid there. Both are left
    out, named with why (exit 1); an invalid record that reads back as imported is written (a ply illegal, its `%`
    line above it, which joins the record before it, ignored; a comment never closed)."""
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "a.lgn").write_text('[Game "laquet"]\n[Date "1642.??.??"]\n\n1. 64: 5/11 5/9 *\n')
    (folder / "b.lgn").write_text("folio 12 verso: illegible\n")
    (folder / "c.lgn").write_bytes(b'[Game "laquet"]\n[White "Mar\xeda"]\n\n1. 52: 5/10 2/4 *\n')
    (folder / "d.lgn").write_text('% checked by hand\n[Game "tablut"]\n\n1. e3-c4 *\n')  # (its % line read apart)
    (folder / "e.lgn").write_text('[Game "tablut"]\n\n1. e3-c3 {unclosed\n')
    (folder / "f.lgn").write_text('[Game "tablut"]\n[White "Tagsonly"]\n')  # (review80: it took in the next record)
    db = str(tmp_path / "a.db")
    Archive(db).import_paths([str(folder)])
    result = CliRunner().invoke(main, ["query", "--db", db, "--format", "lgn"])
    shown = "lusoria sql 'SELECT text FROM record_texts WHERE id = {}' shows it"
    assert result.exit_code == 1 and result.stderr.splitlines() == [
        f"lusoria: {folder / 'b.lgn'}:1: the archive's record 2 left out: its text, which does not parse, would not "
        f"read back in lgn as a record of its own (it would join the record before it, or take in the one after it); {shown.format(2)}",
        f"lusoria: {folder / 'c.lgn'}:1: the archive's record 3 left out: its text would read back valid in lgn, "
        "where its import found: byte 0xED is not valid utf-8: the file's one game is not read; " + shown.format(3),
        f"lusoria: {folder / 'f.lgn'}:1: the archive's record 6 left out: its text, which does not parse, would not "
        f"read back in lgn as a record of its own (it would join the record before it, or take in the one after it); "
        + shown.format(6),
    ]
    again = Archive(str(tmp_path / "b.db"))
    again.import_paths([io.StringIO(result.stdout)])
    assert sorted((row["game"], row["valid"], row["first_rule"] or "") for row in again.query(Filters())) == [
        ("laquet", 1, ""),
        ("tablut", 0, "T2"),
        ("tablut", 0, "syntax"),
    ]


def test_an_upgrade_replays_a_record_kept_as_written_in_its_format(tmp_path):
    """An upgrade makes the tables of the replayed records anew from each stored text: the G5 game's
    positions are its replay's as its import found them, and its marker stays."""
    db = imported(tmp_path)
    columns = "SELECT id, ending, board, rule_tags, valid, written_in FROM records ORDER BY id"
    boards = "SELECT record_id, boards FROM record_boards ORDER BY record_id"
    with closing(connect(db)) as conn:
        before = conn.execute(columns).fetchall(), conn.execute(boards).fetchall()
        conn.execute("PRAGMA user_version = 17")
    assert Archive(db).query(Filters(valid=False))[0]["id"] == 1  # opening it upgrades it
    with closing(connect(db)) as conn:
        assert (conn.execute(columns).fetchall(), conn.execute(boards).fetchall()) == before
        assert conn.execute(DIAGNOSTICS, [1]).fetchall() == [G5]


def as_version_17(tmp_path, g5_ending: str = "unfinished") -> str:
    """The G5 game, the same game listing the capture and a refused game, as version 17 stored them:
    the G5 game as lgn (its import found it ended `g5_ending`)."""
    db = imported(tmp_path)
    (tmp_path / "refused.json").write_text(json.dumps({**GAME, "AageGameTypeName": "Martian Hnefatafl 23x23"}))
    Archive(db).import_paths([str(tmp_path / "refused.json")])
    with closing(connect(db)) as conn:
        g5_lgn = lgn_text(stored_report(*conn.execute(f"SELECT {STORED_TEXT} FROM records WHERE id = 1").fetchone()))
        conn.execute(
            "UPDATE records SET packed_text = ?, ending = ? WHERE id = 1", [TextPacker(conn).pack(g5_lgn), g5_ending]
        )
        conn.execute("ALTER TABLE records DROP COLUMN written_in")
        conn.execute("PRAGMA user_version = 17")
        conn.commit()
    return db


def test_an_archive_of_version_17_keeps_its_refused_records_read_in_their_format(tmp_path):
    """Version 17 kept as written only the records their reader refused or could not parse (no
    `setting`), the G5 game as lgn: the upgrade marks those it kept so, and leaves the lgn as lgn."""
    db = as_version_17(tmp_path)
    Archive(db).query(Filters())
    with closing(connect(db)) as conn:
        assert conn.execute("SELECT id, ending, written_in FROM records ORDER BY id").fetchall() == [
            (1, "unfinished", None),
            (2, "unfinished", None),
            (3, "unfinished", "aage"),
        ]
        assert conn.execute(DIAGNOSTICS, [1]).fetchall() == [G5]  # its import's, as before


def test_an_upgrade_keeps_the_ending_of_a_record_stored_as_lgn_that_replays_otherwise_and_names_its_file(tmp_path):
    """The G5 game stored as lgn replays valid: the upgrade keeps what its import found (its verdict,
    diagnostics and ending; here `resigned`) and says at its place that `import --replace` mends it."""
    db, notes = as_version_17(tmp_path, g5_ending="resigned"), []
    Archive(db, notes=notes.append).query(Filters())
    with closing(connect(db)) as conn:
        assert conn.execute("SELECT id, valid, ending FROM records ORDER BY id").fetchall() == [
            (1, 0, "resigned"),
            (2, 1, "unfinished"),
            (3, 0, "unfinished"),
        ]
        assert conn.execute(DIAGNOSTICS, [1]).fetchall() == [G5]
    path = tmp_path / "game-13-1-100.json"
    assert [note.message for note in notes[2:]] == [
        f"{path}:1: the archive's record 1 keeps the verdict, diagnostics and ending its import found, but its "
        "stored text now replays otherwise (stored as lgn, it lost what its file wrote, as an aagenielsen.dk "
        f"capture left out of its list; or lusoria checks it otherwise now): import --replace {path} stores it anew"
    ]
    relative = schema._misread(1, "dl/game-13-1-100.json", 1)  # (a path as imported: h69b ran it from elsewhere)
    assert relative.endswith(
        ": import --replace dl/game-13-1-100.json stores it anew, run in the folder it was imported from"
    )
    assert schema._misread(1, "<stdin>", 1).endswith(  # (review69: "import --replace <stdin>", a file of no one)
        ": remove --id 1 and an import of its text again store it anew"
    )
    assert schema._misread(1, None, 1).startswith("the archive's record 1 keeps")  # (a text of no file: no --replace)
    assert schema._misread(1, None, 1).endswith("or lusoria checks it otherwise now)")
    Archive(db).import_paths([str(path)], replace=True)
    with closing(connect(db)) as conn:
        assert conn.execute("SELECT valid, ending, written_in FROM records WHERE path = ?", [str(path)]).fetchall() == [
            (0, "unfinished", "aage")
        ]


def test_a_record_kept_as_written_is_removed_by_its_replay_in_its_format(tmp_path, monkeypatch):
    """`import --replace` of the G5 game mended: its old record is replayed in its format to the
    boards its import stored, not looked up in the index of positions (as one that replays otherwise)."""
    from lusoria.archive import removal

    db = imported(tmp_path)
    astray = []
    terms = removal._terms
    monkeypatch.setattr(removal, "_terms", lambda conn, records: astray.append(records) or terms(conn, records))
    path = tmp_path / "game-13-1-100.json"
    path.write_text(json.dumps({**GAME, "WhiteSidePlayerName": "Lena Eklund"}, indent=1))
    Archive(db).import_paths([str(path)], replace=True)
    assert astray == [set()]
    with closing(connect(db)) as conn:
        assert conn.execute("SELECT id, white, written_in FROM records ORDER BY id").fetchall() == [
            (2, "Lena Ek", None),
            (3, "Lena Eklund", "aage"),
        ]


def test_export_replays_a_record_kept_as_written_in_its_format(tmp_path):
    """Its plies (CSV: the start and each ply; JSON lines: its main line) are those its import found:
    the G5 game's 16 plies, as the same game with the capture listed, cut after 15, has its 15."""
    import csv

    db = imported(tmp_path)
    Archive(db).export(str(tmp_path / "csv"), format="csv")
    Archive(db).export(str(tmp_path / "jsonl"), format="jsonl")
    with open(tmp_path / "csv" / "plies.csv", newline="") as plies:
        counted = Counter(row["record_id"] for row in csv.DictReader(plies))
    lines = [json.loads(line) for line in (tmp_path / "jsonl" / "records.jsonl").read_text().splitlines()]
    assert counted == {"1": 17, "2": 16}
    assert [len(line["moves"]) for line in lines] == [16, 15]


def test_duplicates_and_tree_record_read_a_record_kept_as_written_in_its_format(tmp_path):
    """The G5 game's plies, read from its JSON: the game listing the capture is its prefix, and
    `tree --from-id 1 --ply 15` starts from its position after the capture."""
    from lusoria.archive.duplicates import Duplicate, Place

    archive = Archive(imported(tmp_path))
    assert archive.duplicates() == [
        Duplicate(
            "prefix",
            f"record 2 ({tmp_path}/game-13-2-101.json:1)",
            f"record 1 ({tmp_path}/game-13-1-100.json:1)",
            Place(f"{tmp_path}/game-13-2-101.json", 1, 2),  # (h72c: what a script removes or queries by)
            Place(f"{tmp_path}/game-13-1-100.json", 1, 1),
            (15, 16),
        )
    ]
    assert [(node.ply, node.games) for node in archive.tree(from_id=1, ply=15)] == [("g7-h7", 1)]


def test_sql_as_lgn_writes_the_text_as_kept_and_its_help_says_so_where_query_leaves_it_out(tmp_path):
    """`sql` does not know which of its rows are records: a text kept as written in aagenielsen.dk's
    JSON is written as it is (before, its help said that such a record is left out, as `query`'s does)."""
    from click.testing import CliRunner

    from lusoria.cli import main

    db = imported(tmp_path)
    result = CliRunner().invoke(
        main, ["sql", "--db", db, "SELECT text FROM record_texts WHERE id = 1", "--format", "lgn"]
    )
    assert (result.exit_code, result.stdout) == (0, (tmp_path / "game-13-1-100.json").read_text() + "\n")
    sql_help = " ".join(CliRunner().invoke(main, ["sql", "--help"]).stdout.split())
    query_help = " ".join(CliRunner().invoke(main, ["query", "--help"]).stdout.split())
    assert "lgn (the column text of each row as it is" in sql_help and "left out" not in sql_help
    assert "a record kept as written in another format is left out, with a note: exit status 1" in query_help


# A tablut CSV file (its name says its game): a valid row (record 1), a row with a count its moves
# do not list (record 2: kept as written, lgn has no place for the count), an unparsable row (record 3)
COUNTS = 'e3-c3 d1-d3,0,0,Ongoing\ne3-c3 d1-d2,5,0,Ongoing\n"d1-d3 zz9-q",0,0,x\n'
COUNTED = ("error", "T4", "the defenders lost are counted 5, and the moves list 0", None)


def counted(tmp_path, name: str = "tablut_counts.csv", rows: str = COUNTS, tags: dict | None = None) -> Archive:
    (tmp_path / name).write_text(rows)
    archive = Archive(str(tmp_path / "counts.db"))
    archive.import_paths([str(tmp_path / name)], tags=tags)
    return archive


RULED = {"Game": "tablut", "Rules": "first=black"}  # (Black moves first)


@pytest.mark.parametrize("tags", [{"Game": "tablut", "Variant": "linnaeus"}, RULED])
def test_a_csv_row_kept_as_written_replays_with_the_game_variant_and_rules_the_archive_holds(tmp_path, tags):
    """A CSV row does not name its game: read alone it could not be replayed. The game, variant and
    rules its import read it with (here `--game`, and `--variant` or `--rules`: Black moves first)
    are the archive's columns, and its replay reads it with them, to the plies and the problem its
    import found."""
    archive = counted(tmp_path, "club.csv", "d1-d2 e3-c3,5,0,Ongoing\n", tags)
    with closing(connect(archive.path)) as conn:
        text, written_in, read_with = conn.execute(f"SELECT {STORED_TEXT} FROM records").fetchone()
        assert conn.execute(DIAGNOSTICS, [1]).fetchall() == [(*COUNTED, 1, 13)]
    report = stored_report(text, written_in, read_with)
    assert (written_in, json.loads(read_with)) == ("csv", {"Variant": "seed", **tags})
    assert (report.main_line, [(d.severity, d.rule, d.message, d.ply) for d in report.diagnostics]) == (
        ["d1-d2", "e3-c3"],
        [COUNTED],
    )


def test_tree_record_starts_from_a_csv_row_kept_as_written(tmp_path):
    """`tree --from-id` of the row with a count its moves do not list starts where its plies lead (it
    said the row could not be replayed without its file); an unparsable row, whose game the archive
    does not hold, still says so."""
    archive = counted(tmp_path)
    assert [(n.ply, n.games) for n in archive.tree(from_id=2, ply=1)] == [("d1-d2", 1), ("d1-d3", 1)]
    assert [(n.ply, n.games) for n in archive.tree(from_id=2, ply=2)] == []
    with pytest.raises(ValueError) as raised:
        archive.tree(from_id=3, ply=1)
    assert str(raised.value) == "record 3 is kept as written in csv, which cannot be replayed without its file"


def test_export_writes_the_plies_of_a_csv_row_kept_as_written(tmp_path):
    """Its rows of `plies` (the start and each ply; it had none) and its line of JSON's `moves`."""
    import csv

    archive = counted(tmp_path)
    archive.export(str(tmp_path / "csv"), format="csv")
    archive.export(str(tmp_path / "jsonl"), format="jsonl")
    with open(tmp_path / "csv" / "plies.csv", newline="") as plies:
        rows = [(row["ply"], row["move"], row["next"]) for row in csv.DictReader(plies) if row["record_id"] == "2"]
    lines = [json.loads(line) for line in (tmp_path / "jsonl" / "records.jsonl").read_text().splitlines()]
    after = "3ppp3/4p4/4P4/p3P3p/ppPPKPPpp/p3P3p/2P6/{} w"
    assert rows == [
        ("0", "e3-c3", "3ppp3/4p4/4P4/p3P3p/ppPPKPPpp/p3P3p/2P6/4p4/3ppp3 b"),
        ("1", "d1-d2", after.format("3pp4/4pp3")),
        ("2", "", ""),
    ]
    assert [(line["moves"], line["diagnostics"][0]["rule"]) for line in lines[1:]] == [
        (["e3-c3", "d1-d2"], "T4"),
        ([], "syntax"),
    ]


def test_an_upgrade_replays_a_csv_row_kept_as_written_with_the_game_the_archive_holds(tmp_path):
    """An upgrade makes the tables of the replayed records anew: the row with a count its moves do
    not list keeps its positions (they were dropped, the row not read without its file)."""
    archive = counted(tmp_path)
    boards = "SELECT record_id, boards FROM record_boards ORDER BY record_id"
    with closing(connect(archive.path)) as conn:
        before = conn.execute(boards).fetchall()
        conn.execute("PRAGMA user_version = 17")
    assert [record for record, _ in before] == [1, 2]
    Archive(archive.path).query(Filters())  # opening it upgrades it
    with closing(connect(archive.path)) as conn:
        assert conn.execute(boards).fetchall() == before
    assert [(n.ply, n.games) for n in archive.tree(from_id=1, ply=1)] == [("d1-d2", 1), ("d1-d3", 1)]


def test_a_record_of_another_format_with_diagnostics_is_written_in_lgn_once(tmp_path, monkeypatch):
    """A row that plays out of turn replays alike in lgn, and is stored so: its lgn, checked again to
    see that it does, is the text stored (it was written twice: to check it, then to store it)."""
    from lusoria.archive import records_as_rows

    written = []
    monkeypatch.setattr(records_as_rows, "lgn_text", lambda report: written.append(lgn_text(report)) or written[-1])
    archive = counted(tmp_path, rows="e3-c3 e3-e4,0,0,Ongoing\n")
    with closing(connect(archive.path)) as conn:
        stored = conn.execute(f"SELECT written_in, first_rule, first_ply, {STORED_TEXT} FROM records").fetchall()
    assert [(written_in, rule, ply, text) for written_in, rule, ply, text, *_ in stored] == [
        (None, "T2", 2, written[0])
    ]
    assert len(written) == 1


def test_a_record_kept_in_a_format_that_names_its_games_is_read_as_its_file_says():
    """Only a format that names no games (csv) is read with the game the archive holds: a move list
    (tafl) read as its format's game says so in its first error, as its import said (but for the name
    of its file, which the archive's text has not: a header names its game)."""
    tags = json.dumps({"Game": "tablut", "Variant": "aage"})
    report = stored_report("1. e3-c3 e3-e4\n", "tafl", tags)
    assert [(d.rule, d.ply, d.message) for d in report.diagnostics] == [
        (
            "T1",
            1,
            "the piece on e3 is White's, and Black is to move; if White moved first, its Rules tag says so: "
            "first=white; the rest of this line is not checked; a move list "
            "does not say its game: read as tablut (--variant aage) unless --game or a header such as '# brandubh' "
            "names it (or its variant of hnefatafl with --game hnefatafl --variant V)",
        )
    ]


def test_a_csv_row_kept_as_written_under_a_header_that_orders_its_columns_otherwise_replays(tmp_path):
    """The header is kept with the row (its `heading`): read alone, in the engines' order, the row
    was no CSV game (a syntax error, no plies), where its import found its plies and its count."""
    rows = "status;moves;attackers lost;defenders lost\nOngoing;e3-c3 d1-d2;0;5\n"
    archive = counted(tmp_path, rows=rows)
    with closing(connect(archive.path)) as conn:
        text, written_in, read_with = conn.execute(f"SELECT {STORED_TEXT} FROM records").fetchone()
        assert conn.execute(DIAGNOSTICS, [1]).fetchall() == [(*COUNTED, 2, 23)]
    report = stored_report(text, written_in, read_with)
    assert (text, written_in) == (rows, "csv")
    said = [(d.severity, d.rule, d.message, d.ply, d.line, d.column) for d in report.diagnostics]
    assert (report.main_line, said) == (
        ["e3-c3", "d1-d2"],
        [(*COUNTED, 2, 23)],
    )
    assert [(n.ply, n.games) for n in archive.tree(from_id=1, ply=2)] == []
    assert [(n.ply, n.games) for n in archive.tree(from_id=1, ply=1)] == [("d1-d2", 1)]


def test_query_as_lgn_says_the_game_variant_and_rules_to_read_a_csv_row_kept_as_written_with(tmp_path):
    """Its file does not name its game (here `--game` and `--rules` did): the command the note gives
    reads it with those the archive holds, to the verdict and first error its import found (without
    them its file's moves fit three games' boards: no record)."""
    import shlex

    from click.testing import CliRunner

    from lusoria.cli import main

    archive = counted(tmp_path, "club.csv", "e3-c3 d1-d3,0,0,Ongoing\nd1-d2 e3-c3,5,0,Ongoing\n", RULED)
    result = CliRunner().invoke(main, ["query", "--db", archive.path, "--format", "lgn"])
    path = tmp_path / "club.csv"
    again = f"lusoria import --game tablut --variant seed --rules first=black {path}"
    assert result.stderr == (
        f"lusoria: {path}:2: the archive's record 2 left out: it is kept as written in csv, as lgn would not say "
        f"what its import found; {again} reads it from its file, into another archive too (--db); "
        "lusoria sql 'SELECT text FROM record_texts WHERE id = 2' shows it\n"
    )
    other = str(tmp_path / "other.db")
    assert CliRunner().invoke(main, [*shlex.split(again)[1:], "--db", other]).exit_code == 0
    carried = "SELECT valid, first_rule, written_in FROM records WHERE line = 2"
    with closing(connect(archive.path)) as conn, closing(connect(other)) as copy:
        assert copy.execute(carried).fetchall() == conn.execute(carried).fetchall() == [(0, "T4", "csv")]


def test_a_csv_row_kept_as_written_is_removed_by_its_replay_with_the_game_the_archive_holds(tmp_path, monkeypatch):
    """`import --replace` of the file with the row's count mended: its old record is replayed to the
    boards its import stored (not looked up in the index of positions, as one not read without its
    file), and the move tree counts the new record's plies once."""
    from lusoria.archive import removal

    archive = counted(tmp_path, rows=COUNTS[:48])
    astray = []
    terms = removal._terms
    monkeypatch.setattr(removal, "_terms", lambda conn, records: astray.append(records) or terms(conn, records))
    (tmp_path / "tablut_counts.csv").write_text(COUNTS[:24] + "e3-c3 d1-d2,0,0,Ongoing\n")
    archive.import_paths([str(tmp_path / "tablut_counts.csv")], replace=True)
    assert astray == [set()]
    with closing(connect(archive.path)) as conn:
        assert conn.execute("SELECT id, valid, written_in FROM records ORDER BY id").fetchall() == [
            (1, 1, None),
            (3, 1, None),  # (the id of the record removed is given to no other)
        ]
    assert [(n.ply, n.games) for n in archive.tree(from_id=1, ply=1)] == [("d1-d2", 1), ("d1-d3", 1)]


def test_a_record_whose_game_was_given_is_read_again_with_it_and_queried_as_lgn_with_its_tags(tmp_path):
    """`import --game brandubh` of an lgn record with no Game tag keeps its text as written: every reader
    of the archive's texts read it again with its tags given (a replay found no game), and `query --format lgn`
    writes them above it (what it was read with: its variant too), which `validate` reads alone."""
    (tmp_path / "a.lgn").write_text('[Event "Club night"]\n\n1. d2-b2 *\n')  # (legal in brandubh, not tablut)
    db = str(tmp_path / "a.db")
    assert Archive(db).import_paths([str(tmp_path / "a.lgn")], tags={"Game": "brandubh"}).added == 1
    own = '[Variant "standard"]\n\n1. d2-c2 *\n'  # (a Variant of its own: not written twice)
    assert Archive(db).import_paths([own], tags={"Game": "brandubh"}).added == 1
    with closing(connect(db)) as conn:
        stored = conn.execute(f"SELECT {STORED_TEXT} FROM records WHERE id = 1").fetchone()
    assert stored[0] == '[Event "Club night"]\n\n1. d2-b2 *\n'
    replayed = stored_report(*stored)
    assert (replayed.valid, replayed.record.game, replayed.diagnostics) == (True, "brandubh", [])
    listed = CliRunner().invoke(main, ["query", "--db", db, "--format", "lgn", "--id", "2"])
    assert listed.output == f'[Game "brandubh"]\n{own}'
    listed = CliRunner().invoke(main, ["query", "--db", db, "--format", "lgn", "--id", "1"])
    assert listed.output == '[Game "brandubh"]\n[Variant "standard"]\n[Event "Club night"]\n\n1. d2-b2 *\n'
    again = CliRunner().invoke(main, ["validate", "-"], input=listed.output)
    assert again.output == "1 record: 1 valid, 0 invalid (0 errors, 0 warnings)\n"
    assert Archive(db).import_paths(["1. d2-b2 d4-d3 *\n"], tags={"Game": "brandubh"}).added == 1  # (movetext alone)
    listed = CliRunner().invoke(main, ["query", "--db", db, "--format", "lgn", "--id", "3"])
    assert listed.output == '[Game "brandubh"]\n[Variant "standard"]\n\n1. d2-b2 d4-d3 *\n'


def test_a_record_read_in_the_game_given_that_does_not_parse_is_stored_under_that_game(tmp_path):
    """`import --game tablut --variant linnaeus` of a record with no Game tag and a slip: it was stored with no game
    ("(no game)" in stats, found by no --game), though read in tablut; it keeps the tags it was read with, as a
    record that parses does, and `query --format lgn` writes them above it."""
    db = str(tmp_path / "a.db")
    summary = Archive(db).import_paths(["1. e3c3 *\n"], tags={"Game": "tablut", "Variant": "linnaeus"})
    assert (summary.added, summary.unparsable) == (1, 1)
    with closing(connect(db)) as conn:
        assert conn.execute("SELECT game, variant, valid, first_rule FROM records").fetchall() == [
            ("tablut", "linnaeus", 0, "syntax")
        ]
    assert [record["id"] for record in Archive(db).query(Filters(game="tablut", variant="linnaeus"))] == [1]
    listed = CliRunner().invoke(main, ["query", "--db", db, "--format", "lgn"])
    assert listed.output == '[Game "tablut"]\n[Variant "linnaeus"]\n\n1. e3c3 *\n'
