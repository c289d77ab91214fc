"""Files as people download them (../shared/real: aagenielsen.dk JSON games, Tablut Challenge
logs and the tafl family's games, written by others), read as a user reads them: whole directories, under the default
options (the worker pool), each with its expected verdict. They live beside the project, never
in it: these tests skip, saying why, where they are absent (a clone), and fail on CI."""

import asyncio
import csv
import fcntl
import html
import os
import re
import sqlite3
from collections import Counter
from contextlib import closing
from datetime import UTC, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from click.testing import CliRunner
from conftest import ROOT, connect
from test_formats import saved_by_a_european_spreadsheet

from lusoria import api
from lusoria.archive import Archive, Filters
from lusoria.cli import cores, main
from lusoria.notation import split_records
from lusoria.validator.games import GAMES

REAL = ROOT.parent / "shared" / "real"
AAGE, LOGS = REAL / "aagenielsen", REAL / "tablut-challenge"
TAFL = REAL / "tafl"  # the tafl family: aagenielsen.dk's Copenhagen and Brandubh games, the Rust engines' CSVs
DEFAULT_JOBS = cores()  # what `--jobs` is when not given


@pytest.fixture(autouse=True)
def require_real_files():
    if not REAL.is_dir():
        if os.environ.get("CI") == "true":
            pytest.fail(f"{REAL} is absent, and CI=true needs the real files")
        pytest.skip(
            f"{REAL} is absent: the real files (aagenielsen.dk games, Tablut Challenge logs, with their "
            "expected verdicts) live beside the project in the development workspace (../shared/real), "
            "not in the repository"
        )


def expected(folder: Path) -> dict[str, dict[str, str]]:
    with open(folder / "expected.tsv", newline="") as table:
        return {row["file"]: row for row in csv.DictReader(table, delimiter="\t")}


def verdicts(folder: Path) -> dict[str, api.Verdict]:
    """The verdict of each record file of `folder`, read as `lusoria validate DIR` reads it."""
    found = [item for item in api.validate([str(folder)], jobs=max(DEFAULT_JOBS, 2)) if isinstance(item, api.Verdict)]
    return {Path(verdict.source.path).name: verdict for verdict in found}


def first_error(verdict: api.Verdict) -> str:
    errors = [d for d in verdict.diagnostics if d.severity == api.ERROR]
    return str(errors[0].ply) if errors else "-"


def test_every_aagenielsen_game_has_its_expected_verdict():
    """The site's full game-type names, its `xc5xd4` captures and its conventions (the captured
    king never listed, a square listed twice) read; what is left is the records' own mistakes."""
    found, wanted = verdicts(AAGE), expected(AAGE)
    assert sorted(found) == sorted(wanted)
    assert {name: first_error(found[name]) for name in wanted} == {
        name: row["first_error_ply"] for name, row in wanted.items()
    }
    swedes_first = [v for name, v in found.items() if name.startswith("game-166-")]
    assert swedes_first and all(v.valid and v.variant == "aage" for v in swedes_first)


def test_every_tablut_challenge_log_reads_as_the_server_accepted_it():
    """All three versions of the server's logs: valid, with the server's plies, result and ending."""
    wanted = expected(LOGS)
    found = verdicts(LOGS)
    assert {name: (v.valid, v.plies, v.result) for name, v in found.items()} == {
        name: (row["valid"] == "1", int(row["plies"]), row["result"]) for name, row in wanted.items()
    }
    endings = {"king-captured": "T7", "king-escaped": "T6", "draw-repetition": "T13", "log-ends": None}
    for name, row in wanted.items():
        report = api.check(api.record_at(str(LOGS / name)))
        assert (report.outcome.rule if report.outcome else None) == endings[row["end"]], name
        assert (report.record.tags["Date"], report.record.tags["Time"]) in started(name), name


def test_every_tablut_challenge_log_saved_as_a_log_file_reads_in_a_folder_as_under_its_own_name(tmp_path):
    """Copied here as `NAME.log` (never into the project): each read by its content, as the
    original is; the folder's other .log files said in one line."""
    for log in LOGS.glob("*_gameLog.txt"):
        (tmp_path / log.name.replace("_gameLog.txt", ".log")).write_bytes(log.read_bytes())
    (tmp_path / "server.log").write_text("INFO: server started\n")
    (tmp_path / "nested").mkdir()
    (tmp_path / "nested" / "client.log").write_text("")
    renamed = {Path(name).name.replace(".log", "_gameLog.txt"): v for name, v in verdicts(tmp_path).items()}
    assert {name: (v.valid, v.plies, v.result) for name, v in renamed.items()} == {
        name: (v.valid, v.plies, v.result) for name, v in verdicts(LOGS).items()
    }
    result = CliRunner().invoke(main, ["validate", str(tmp_path)])
    assert result.exit_code == 0 and f"{len(expected(LOGS))} records: " in result.stdout
    assert result.stderr == f"lusoria: {tmp_path}: skipped, 2 .log files, none of them a Tablut Challenge game log\n"


def started(name: str) -> list[tuple[str, str]]:
    """When a log's game started by its file name (milliseconds since 1970), as Date and Time tags
    on the server's clock: in Italy's time, or (the logs of December 2019) in UTC."""
    when = datetime.fromtimestamp(int(name.split("_")[-2]) / 1000, UTC)
    return [
        (at.strftime("%Y.%m.%d"), at.strftime("%H:%M:%S")) for at in (when, when.astimezone(ZoneInfo("Europe/Rome")))
    ]


@pytest.mark.parametrize("folder, status", [(AAGE, 1), (LOGS, 0)], ids=["aagenielsen", "tablut-challenge"])
def test_validate_and_import_a_downloaded_directory_under_the_defaults(folder, status, tmp_path):
    result = CliRunner().invoke(main, ["validate", str(folder)])
    assert result.exit_code == status and "Traceback" not in result.output, result.output[-2000:]
    records = len(expected(folder))
    assert f"{records} records: " in result.stdout
    imported = CliRunner().invoke(main, ["import", "--db", str(tmp_path / "a.db"), str(folder)])
    assert imported.exit_code == 0, imported.output[-2000:]
    stored = Archive(str(tmp_path / "a.db")).sql("SELECT count(*) AS records, sum(valid) AS valid FROM records")
    invalid = sum(
        row.get("first_error_ply", "-") != "-" or row.get("valid") == "0" for row in expected(folder).values()
    )
    assert stored == [{"records": records, "valid": records - invalid}]


def test_the_site_s_saami_tablut_types_are_found_by_their_catalogue_names(real_archive):
    """Its type 166 (the Swedes first, Rules first=white) is saami-tablut-w, the others saami-tablut:
    `--variant saami-tablut` counted all 385 aage games, the 17 of saami-tablut-w among them."""
    archive = Archive(real_archive)
    found = {
        name: {Path(row["path"]).name for row in archive.query(Filters(variant=name, path=f"{AAGE}/*"))}
        for name in ("saami-tablut", "saami-tablut-w", "aage")
    }
    swedes_first = {name for name in expected(AAGE) if name.startswith("game-166-")}
    assert (len(found["aage"]), len(swedes_first)) == (385, 17)
    assert found["saami-tablut-w"] == swedes_first
    assert found["saami-tablut"] == found["aage"] - swedes_first


@pytest.mark.slow
@pytest.mark.parametrize("folder, every", [(AAGE, 8), (LOGS, 1)], ids=["aagenielsen", "tablut-challenge"])
def test_every_record_that_validates_shows_and_replays(real_archive, folder, every):
    """Every valid log, and every eighth valid aagenielsen.dk game by name (all of them took 14 s
    of CPU in pure Python; the tests above read every one), to its last ply as the real archive's import
    counted them (validated again here, they took 3 s of the suite)."""
    with closing(connect(real_archive)) as conn:
        plies = dict(conn.execute("SELECT path, plies FROM records WHERE valid AND path GLOB ?", [f"{folder}/*"]))
    valid = [row.get("first_error_ply", "-") == "-" and row.get("valid") != "0" for row in expected(folder).values()]
    assert len(plies) == sum(valid)
    for path in sorted(plies, key=lambda path: Path(path).name)[::every]:
        board = api.board(path)
        assert board.ply == plies[path] and "<svg" in board.svg(), path
        assert "<svg" in api.replay_page(path), path


@pytest.mark.parametrize("game", ["copenhagen", "brandubh"])
def test_every_aagenielsen_game_of_the_tafl_family_has_its_expected_verdict(game):
    """Hyphenless moves, squares listed many times and the king never listed read; a record's own
    mistake (a capture it lists that the rules do not make, a move after the end) is found at its ply."""
    found, wanted = verdicts(TAFL / game), expected(TAFL / game)
    assert sorted(found) == sorted(wanted) and {v.game for v in found.values()} == {game}
    ids = GAMES[game]().settings.ids
    capture_list = dict.fromkeys(
        (ids.capture, ids.king, ids.shieldwall), "capture-list"
    )  # a list the rules do not make

    def said(verdict: api.Verdict) -> tuple[str, str]:
        errors = [d for d in verdict.diagnostics if d.severity == api.ERROR]
        return (str(errors[0].ply), capture_list.get(errors[0].rule, errors[0].rule)) if errors else ("-", "-")

    assert {name: said(found[name]) for name in wanted} == {
        name: (row["first_error_ply"], row["rule"]) for name, row in wanted.items()
    }


@pytest.mark.parametrize("game, games", [("copenhagen", 1752), ("brandubh", 511)])
def test_every_csv_game_of_the_rust_engines_reads_to_its_end_with_its_capture_counts(real_archive, game, games):
    """Every row of both CSV files as the real files' archive imported it (the pool, the default options;
    validated again here, they took 11 s of the suite): each one game, read to its last move, valid, with no
    diagnostic (its capture counts agree); a row that repeats another's game (14 Brandubh rows) stored once."""
    with closing(connect(real_archive)) as conn:
        stored = conn.execute(
            "SELECT line, game, plies, valid, (SELECT count(*) FROM diagnostics WHERE record_id = id) FROM records"
            " WHERE path LIKE ? ORDER BY line",
            [f"%/csv/{game}.csv"],
        ).fetchall()
    rows = (TAFL / "csv" / f"{game}.csv").read_text().splitlines()
    moves = [
        len([word for word in row.rsplit(",", 3)[0].split() if word not in ("resigned", "timeout")]) for row in rows
    ]
    assert len(stored) == games == len({row for row in rows if row.strip()})
    assert len({rows[line - 1] for line, *_ in stored}) == games  # each stored row another game
    assert stored == [(line, game, moves[line - 1], 1, 0) for line, *_ in stored]  # every game read to its end


@pytest.mark.slow
def test_the_engines_csv_games_resaved_by_a_european_spreadsheet_get_the_same_verdicts(tmp_path):
    """Every third row of both CSV files, as written and as LibreOffice saves it where the decimal mark is a
    comma (`;`, quotes, CRLF, a byte-order mark): every game read alike, to its end: the same record, claims
    of the site, problems, hint and notes at the same line, what a verdict is made of but the row's text
    (validated twice, they took 14 s of the suite; read whole, 8 s; the test above reads every row)."""
    (tmp_path / "written").mkdir()
    (tmp_path / "resaved").mkdir()
    for name in ("copenhagen.csv", "brandubh.csv"):
        rows = "".join((TAFL / "csv" / name).read_text().splitlines(keepends=True)[::3])
        (tmp_path / "written" / name).write_text(rows)
        (tmp_path / "resaved" / name).write_bytes(saved_by_a_european_spreadsheet(rows, quoted=True))

    def read(folder):
        return [
            (
                os.path.basename(r.path),
                r.index,
                r.line,
                r.format,
                r.given,
                r.parsed,
                r.claims,
                r.problems,
                r.hint,
                r.notes,
            )
            for r in api.records([str(folder)])
        ]

    original = read(tmp_path / "written")
    assert read(tmp_path / "resaved") == original
    assert len(original) == 584 + 175 and sum(len(game[5].main.plies) for game in original) == 32_381


@pytest.mark.parametrize(
    "folder", [AAGE, TAFL / "copenhagen", TAFL / "brandubh"], ids=["saami", "copenhagen", "brandubh"]
)
def test_the_openings_fold_up_to_the_boards_symmetries(folder, tmp_path):
    """The move tree from the start of the real games, folded (`--symmetric`), sums the first plies
    whose positions are one up to a symmetry, on a board of 9, 11 or 7 squares a side (on the
    whole Saami scrape, 58 first plies fold into 10)."""
    from explorer import folded_by_hand

    from lusoria.archive import Filters

    archive = Archive(str(tmp_path / "games.db"))
    archive.import_paths([str(folder)])
    (first,) = archive.sql("SELECT min(id) AS id FROM records WHERE valid AND rule_tags IS NULL")
    plain = archive.tree(from_id=first["id"], ply=0)
    folded = archive.tree(from_id=first["id"], ply=0, filters=Filters(symmetric=True))
    assert Counter((n.games, n.white, n.draws, n.black) for n in folded) == folded_by_hand(archive, first["id"])
    assert sum(n.games for n in folded) == sum(n.games for n in plain) and len(folded) < len(plain) / 2


def test_the_explorer_shows_an_archive_of_real_games(tmp_path):
    """The explorer page (as `lusoria serve` and Datasette serve it) on an archive of aagenielsen.dk's
    Brandubh games: the start of their game, the next plies as `lusoria tree` counts them (folded by
    the board's symmetries too), and the games that reach it, each opening at its ply."""
    from lusoria.archive import Filters

    datasette_app = pytest.importorskip("datasette.app", reason="Datasette is a test extra: pip install -e '.[test]'")
    path = str(tmp_path / "brandubh.db")
    archive = Archive(path)
    archive.import_paths([str(TAFL / "brandubh")])
    site = datasette_app.Datasette([path])
    for query, filters in (("", Filters()), ("?symmetric=1", Filters(symmetric=True))):
        page = asyncio.run(site.client.get("/-/explorer/brandubh" + query))
        assert page.status_code == 200, page.text
        position = html.unescape(re.search(r'id="board"[^>]* data-position="([^"]+)"', page.text)[1])
        assert position == GAMES["brandubh"]().format_position(GAMES["brandubh"]().initial())
        plies = re.findall(r'<tr data-ply="([^"]+)"', page.text)
        assert plies == [node.ply for node in archive.tree(position, filters=filters)] and len(plies) >= 4
        assert page.text.count("replay at the start</a>") == 50  # the games listed at first, each at the start


@pytest.fixture(scope="module")
def real_archive(tmp_path_factory, worker_id) -> str:
    """An archive of every real file, imported once a run: the first of xdist's workers to ask for it
    imports it holding a lock, which the others wait on, then read it (each imported its own: 30 s of CPU)."""
    if worker_id == "master":  # (no workers)
        folder = tmp_path_factory.mktemp("real")
    else:
        folder = tmp_path_factory.getbasetemp().parent / "real"  # (the run's folder, its workers' parent)
        folder.mkdir(exist_ok=True)
    db, imported = folder / "real.db", folder / "imported"
    with open(folder / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not imported.exists():
            Archive(str(db)).import_paths([str(REAL)], jobs=DEFAULT_JOBS)
            imported.touch()
    return str(db)


def test_every_record_of_an_archive_of_the_real_files_replays_from_its_stored_text_as_its_import_found_it(real_archive):
    """Its verdict, ending and diagnostics (their places are the stored text's): session 36 found 6 of
    the 7,184 records stored as lgn that read otherwise (a G5 capture left out of its list: valid; a
    berserk continuation left out counted at another ply), now kept as written in their format."""
    from lusoria.archive.endings import ending
    from lusoria.archive.stored import STORED_TEXT, stored_report

    with closing(connect(real_archive)) as conn:
        said: dict[int, list[tuple]] = {}
        for record, *diagnostic in conn.execute(
            "SELECT record_id, severity, rule, message, ply FROM diagnostics ORDER BY record_id, number"
        ):
            said.setdefault(record, []).append(tuple(diagnostic))
        stored = conn.execute(f"SELECT id, valid, ending, {STORED_TEXT} FROM records").fetchall()
    differing, kept = [], Counter()
    for record, valid, end, text, written_in, read_with in stored:
        kept[written_in] += 1
        report = stored_report(text, written_in, read_with)
        found = [(d.severity, d.rule, d.message, d.ply) for d in report.diagnostics]
        if (report.valid, ending(report), found) != (valid, end, said.get(record, [])):
            differing.append(record)
    assert (len(stored), differing) == (7184, [])
    assert kept == {None: 7178, "aage": 6}
    said_in_lgn = sum(1 for record, *_, written_in, _ in stored if written_in is None and said.get(record))
    assert said_in_lgn == 441  # (docs/archive.md: "the 441 others with warnings or errors"; it said 439, h70b)


def test_the_real_records_go_out_as_lgn_each_as_stored_but_those_kept_as_written(real_archive):
    """`query --format lgn` writes each record the archive keeps in lusoria's notation, cut apart again as `import`
    cuts a file, as the archive holds it (whose verdicts, from that text, the test above checks: imported again,
    they took 11 s of the suite); the 6 kept as written (docs/archive.md) stay behind, named, exit status 1."""
    from lusoria.archive.stored import STORED_TEXT, lgn_text

    result = CliRunner().invoke(main, ["query", "--db", real_archive, "--format", "lgn"])
    written = Counter(record.text.strip() for record in split_records(result.stdout.splitlines(keepends=True)))
    with closing(connect(real_archive)) as conn:
        conn.row_factory = sqlite3.Row
        stored = conn.execute(f"SELECT id, path, {STORED_TEXT} FROM records").fetchall()
    assert written == Counter(lgn_text(row).strip() for row in stored if row["written_in"] is None)
    left_out = sorted(
        int(id) for id in re.findall(r"^lusoria: .*: the archive's record (\d+) left out", result.stderr, re.M)
    )
    assert (result.exit_code, len(result.stderr.splitlines())) == (1, 6)
    assert left_out == [row["id"] for row in stored if row["written_in"] is not None]


def test_the_note_of_what_brandubh_leaves_out_is_the_one_docs_archive_md_shows_of_the_real_files(real_archive):
    """docs/archive.md shows `--game brandubh`'s note of the real files, figures and all (424 records of
    Hnefatafl's 16 variants, written by hand): it is the one an archive of them says, word for word."""
    page = " ".join((ROOT / "docs" / "archive.md").read_text(encoding="utf-8").split())
    [shown] = re.findall(r"`lusoria: note: (--game brandubh leaves out [^`]*)` \(of the real files", page)
    assert Archive(real_archive).variants_elsewhere(Filters(game="brandubh")) == [shown]


def test_two_games_the_site_numbers_alike_are_both_kept_and_found_by_the_number(real_archive):
    """h73a: the scrape's number of a game (SiteGameId) is not one game's alone, as docs/formats.md says: two
    Saami Tablut games share 29258, and neither is taken for the other."""
    found = Archive(real_archive).query(Filters(tags=[("SiteGameId", "29258")], variant="aage"))
    assert sorted(Path(row["path"]).name for row in found) == ["game-7-106-29258.json", "game-7-4-29258.json"]
    assert len({(row["white"], row["black"]) for row in found}) == 2


def test_a_types_name_finds_its_games_of_every_layout(real_archive):
    """`--variant 'Sea battle tafl 13x13'`, the site's name of a type some of whose games start from a second
    layout, found the first layout's alone (27 of 40: h70b); the type's own folder holds them all. Its entry's
    name is the first layout's, and `/2` the second's, as the reader names them."""
    archive, types = Archive(real_archive), REAL / "aagenielsen-types"
    for name, folder in (
        ("Sea battle tafl 13x13", "t034-sea-battle-tafl-13x13"),
        ("Tablut sparse 15x15", "t043-tablut-sparse-15x15"),
        ("Berserk Hnefatafl 11x11", "t003-berserk-hnefatafl-11x11"),  # (4 read with berw=u: h70b, left out)
        ("Berserk Hnefatafl 9x9", "t009-berserk-hnefatafl-9x9"),  # (all 3: none found)
    ):
        found = {Path(row["path"]).name for row in archive.query(Filters(variant=name))}
        files = {path.name for path in types.glob(f"{folder}/*.json")}
        assert found == files and len(files) in (40, 5, 3), name
    counted = [
        len(archive.query(Filters(variant=name))) for name in ("sea-battle-tafl-13x13", "Sea battle tafl 13x13/2")
    ]
    assert counted == [27, 13]
