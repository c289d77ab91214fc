"""One pipeline from paths to reports (lusoria/pipeline.py): problems as typed items in their
place, progress in bytes on disk, the archive fed reports; the CLI over the library's façade;
commands whose worker processes are killed or meet a bug (the pool's own tests: test_workers.py)."""

import ast
import inspect
import io
import os
import pickle
import re
import signal
from contextlib import closing
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import built_in_formats, connect

from lusoria import accelerator, api, pipeline, rulebook, workers
from lusoria.archive import Archive, Filters
from lusoria.cli import main
from lusoria.notation.reader import RecordText
from lusoria.notation.sources import Note, Skipped, Unreadable
from lusoria.validator.replay import Report

ROOT = Path(__file__).resolve().parent.parent
RECORD = '[Game "tablut"]\n[Date "2026.03.??"]\n\n1. e3-c3 {a comment} d1-d3 *\n'
pytestmark = pytest.mark.usefixtures("deadline")
TESTS = os.getpid()  # the process of the tests, which a worker that dies on purpose must not be
MANY = workers.CHUNK // 50  # records of RECORD's length and more: more than one chunk, so workers take them


def folder_of_inputs(tmp_path: Path) -> Path:
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "a.lgn").write_text(RECORD + "\n" + RECORD.replace("e3-c3", "e3-d3"))
    (folder / "b.txt").write_text("not a record file")
    (folder / "c.lgn").write_bytes(b"%\xff\n")  # a byte that does not decode in no record: the file unread
    return folder


def test_problems_come_as_typed_items_in_their_place(tmp_path):
    folder = folder_of_inputs(tmp_path)
    items = list(pipeline.records([str(folder), str(tmp_path / "missing.lgn")]))
    assert [type(item) for item in items] == [RecordText, RecordText, Skipped, Unreadable, Unreadable]
    assert [item.path for item in items[2:]] == [
        str(folder / "b.txt"),
        str(folder / "c.lgn"),
        str(tmp_path / "missing.lgn"),
    ]
    undecodable, missing = items[3:]
    assert (undecodable.parameter, missing.parameter) == ("encoding", None)
    assert undecodable.message == f"{folder / 'c.lgn'}:1:2: byte 0xFF is not valid utf-8, in no record"
    assert str(undecodable) == f'{undecodable.message}; try encoding="latin-1" or encoding="cp1252"'  # no option
    assert str(missing).endswith("missing.lgn: no such file or directory")


def test_reports_are_checked_records_and_the_problems_pass_through(tmp_path):
    items = list(pipeline.reports([str(folder_of_inputs(tmp_path))], keep=False))
    assert [type(item) for item in items] == [Report, Report, Skipped, Unreadable]
    assert items[0].valid and items[0].dates == ("2026-03-01", "2026-03-31")
    assert [len(item.positions) for item in items[:2]] == [1, 1]  # keep=False: the start alone (kept: 3 each)


def test_reports_go_on_past_an_illegal_ply_as_validate_keep_going_does():
    """`reports` takes `validate`'s --keep-going: past the illegal ply, replayed as if it had been
    written, its positions going on (it stopped at the ply before)."""
    text = '[Game "tablut"]\n1. e3-c3 e4-b4 2. d1-d3 d9-d7 *\n'
    [stopped] = api.reports([text])
    [kept] = api.reports([text], keep_going=True)
    [verdict] = api.validate([text], keep_going=True)
    assert [(d.rule, d.ply) for d in stopped.diagnostics] == [("T1", 2)] and len(stopped.positions) == 2
    assert [(d.rule, d.ply) for d in kept.diagnostics] == [(d.rule, d.ply) for d in verdict.diagnostics]
    assert kept.diagnostics[0].ply == 2 and len(kept.positions) == 5 and not kept.valid


def test_reports_are_checked_by_worker_processes_in_order(monkeypatch):
    """`reports(jobs=2)`, as `validate --jobs 2`: the records past the first chunk are checked in
    workers, each report in its record's place."""
    monkeypatch.setattr(pipeline, "check", lambda record, keep, keep_going: (record.index, os.getpid()))
    checked = list(pipeline.reports([RECORD * MANY], jobs=2))
    assert [index for index, _ in checked] == list(range(MANY))
    assert checked[0][1] == TESTS and {pid for _, pid in checked} - {TESTS}
    assert {pid for _, pid in pipeline.reports([RECORD * MANY])} == {TESTS}  # jobs=1: this process alone


def test_progress_counts_the_bytes_on_disk_that_size_measures(tmp_path):
    folder = folder_of_inputs(tmp_path)
    (folder / "d.lgn").write_bytes("\ufeff".encode() + RECORD.replace("\n", "\r\n").encode())  # BOM, CRLF
    found = pipeline.found([str(folder), str(ROOT / "tests/fixtures/formats/otn")])
    told: list[int] = []
    list(pipeline.records(found, progress=told.append))
    files = [
        folder / "a.lgn",
        folder / "c.lgn",
        folder / "d.lgn",
        *sorted((ROOT / "tests/fixtures/formats/otn").iterdir()),
    ]
    assert sum(told) == pipeline.size(found) == sum(path.stat().st_size for path in files)
    assert all(step >= 0 for step in told)


def test_the_archive_imports_reports_and_takes_the_dates_from_them(tmp_path):
    archive = Archive(str(tmp_path / "a.db"))
    summary = archive.import_reports(pipeline.reports([RECORD]))
    assert (summary.added, summary.unreadable) == (1, [])
    assert archive.sql("SELECT date_from, date_to, comments FROM records") == [
        {"date_from": "2026-03-01", "date_to": "2026-03-31", "comments": "a comment"}
    ]
    summary = archive.import_paths([str(folder_of_inputs(tmp_path))])  # the pipeline, then import_reports
    assert (summary.added, summary.duplicates) == (1, 1)
    assert summary.unreadable == [
        f"{tmp_path / 'in' / 'c.lgn'}:1:2: byte 0xFF is not valid utf-8, in no record;"
        ' try encoding="latin-1" or encoding="cp1252"'
    ]


def test_the_archive_imports_the_reports_of_a_folder_with_its_problems_as_import_paths_has_them(tmp_path):
    """Newcomer-55b: `import_reports(api.reports(folder))` failed with AttributeError ('Skipped' object has no
    attribute 'source') when the folder held a file that is not a record file; given Verdicts, it listed
    each as a record lusoria failed on (a bug). Now the problems are the summary's, and a Verdict a TypeError."""
    folder = folder_of_inputs(tmp_path)
    told: list[object] = []
    archive = Archive(str(tmp_path / "a.db"), notes=told.append)
    summary = archive.import_reports(api.reports([str(folder)]))
    assert (summary.added, summary.failed) == (2, [])
    assert [type(problem) for problem in summary.problems] == [Skipped, Unreadable] and told == summary.problems
    assert summary.unreadable == [str(summary.problems[1])] and summary.stray == []
    made = Archive(str(tmp_path / "b.db"))
    with pytest.raises(TypeError, match=r"not Verdict \(lusoria.api.validate's: give api.reports the same paths\)"):
        made.import_reports(api.validate([str(folder)]))
    assert not (tmp_path / "b.db").exists()  # nothing stored, no archive left


def test_a_note_names_the_tags_given_by_tag_and_a_caller_names_them_its_way(tmp_path):
    """The note of a tag given that files do not follow named the CLI's option (`--game`) to a
    library call; a file name's braces are its own, not a setting's place."""
    (tmp_path / "{Game}.lgn").write_text(RECORD)
    [note] = [item for item in pipeline.records([str(tmp_path)], tags={"Game": "tablut"}) if isinstance(item, Note)]
    start = f"note: Game tablut is not applied to the records of 1 lgn file ({tmp_path / '{Game}.lgn'}): "
    assert str(note).startswith(start) and str(note).endswith(
        "; Variant and Rules alone, to move lists that do not name their game (by their file names or a header), and "
        "with Game, to all of those)"
    )
    named = note.said({"Game": "the game", "Variant": "the variant"})
    assert named.startswith(start.replace("Game tablut", "the game tablut"))
    assert named.endswith(
        "; the variant and Rules alone, to move lists that do not name their game (by their file names or a header), "
        "and with the game, to all of those)"
    )


def test_a_unicode_error_of_an_import_is_an_internal_error_not_a_usage_error(tmp_path, monkeypatch):
    """h81b: any ValueError of an archive's call was said as the user's (`Usage: …`, status 2), a UnicodeError of a
    bug too (under an ASCII locale, a file name beyond ASCII), its traceback not even under --debug."""

    def failing(*args, **kwargs):
        raise UnicodeEncodeError("ascii", "ö", 0, 1, "ordinal not in range(128)")

    monkeypatch.setattr(Archive, "import_paths", failing)
    result = CliRunner().invoke(main, ["import", "--db", str(tmp_path / "a.db"), RECORD])
    assert result.exit_code == 3 and "Usage" not in result.output and "internal error" in result.stderr
    debugged = CliRunner().invoke(main, ["--debug", "import", "--db", str(tmp_path / "a.db"), RECORD])
    assert isinstance(debugged.exception, UnicodeEncodeError)


@pytest.mark.parametrize(
    "encoding, named", [("ascii", "str\udcc3\udcb6m.lgn"), ("latin-1", "ström.lgn"), ("utf-8", "ström.lgn")]
)
def test_a_file_name_beyond_ascii_is_found_again_under_a_file_system_of_any_encoding(monkeypatch, encoding, named):
    """h81b: under `LC_ALL=C PYTHONUTF8=0` (a cron job's bare environment) the file system's names are ASCII, each byte
    beyond it escaped (`str\\udcc3\\udcb6m.lgn`); the name lusoria shows, `ström.lgn`, turned back into one to find
    the file's real path, could not be encoded: the import stopped. Under Latin-1, whose names hold `ö` as it is,
    the first fix read `ström.lgn` as `strÃ¶m.lgn` (review81)."""
    from lusoria.notation import sources

    monkeypatch.setattr(os, "fsdecode", lambda name: name.decode(encoding, "surrogateescape"))
    monkeypatch.setattr(os, "fsencode", lambda name: name.encode(encoding, "surrogateescape"))
    assert sources.fs_path("ström.lgn") == named
    assert sources.fs_path("caf\\xe9.lgn") == "caf\udce9.lgn"  # (a byte that is not UTF-8, shown \xNN)
    assert sources.shown_path(sources.fs_path("ström.lgn")) == "ström.lgn"


@pytest.mark.parametrize(
    "tags, said",
    [
        ({"game": "brandubh"}, "tags: 'game' is no tag lusoria reads: did you mean Game?"),
        ({"Game": "brandubh", "Varient": "x"}, "tags: 'Varient' is no tag lusoria reads: did you mean Variant?"),
        ({"White Elo": "1900"}, "tags: 'White Elo' is no tag name (ASCII letters, digits and _, from a letter)"),
    ],
)
def test_a_tag_given_that_is_no_tag_or_a_slip_of_one_is_refused(tags, said):
    """h81a: `tags={"game": "brandubh"}` was taken as a tag of its own, the game of a CSV file not chosen, unsaid (and
    the refusal of its file told the library's caller to give --game)."""
    with pytest.raises(ValueError, match=f"^{re.escape(said)}$"):
        list(api.validate([RECORD], tags=tags))
    checked = api.validate(['[Date "2026.03.??"]\n\n1. e3-c3 *\n'], tags={"Game": "tablut", "Event": "Cup"})
    assert [(v.game, v.valid) for v in checked if not isinstance(v, Note)] == [("tablut", True)]  # (any name: Event)


def test_a_batch_of_no_record_is_refused(tmp_path):
    """h81a: `import_paths(batch_size=0)` stored nothing, and said nothing."""
    archive = Archive(str(tmp_path / "a.db"))
    with pytest.raises(ValueError, match="^batch_size: '0' is not a whole number from 1 to 1000000000$"):
        archive.import_paths([RECORD], batch_size=0)
    assert archive.import_paths([RECORD], batch_size=1).added == 1


@pytest.mark.parametrize("count, listed", [(3, "a.lgn, b.lgn, c.lgn"), (4, "a.lgn, b.lgn, c.lgn, …")])
def test_a_note_names_three_files_and_elides_the_others(tmp_path, monkeypatch, count, listed):
    monkeypatch.chdir(tmp_path)
    for name in "abcd"[:count]:
        Path(f"{name}.lgn").write_text(RECORD)
    [note] = [item for item in pipeline.records(["."], tags={"Game": "tablut"}) if isinstance(item, Note)]
    assert str(note).startswith(f"note: Game tablut is not applied to the records of {count} lgn files ({listed}): ")


def test_a_note_of_any_tag_given_is_said_with_its_value_as_written(tmp_path):
    """`tags` may hold any tag (move lists' records take an `Event` too): the note of one that files
    do not follow raised KeyError when said (its template named it, its settings did not), and a
    value's braces are its own. A note of no setting is said as it is, braces and all."""
    (tmp_path / "a.lgn").write_text(RECORD)
    tags = {"Game": "tablut", "Event": "{Club} night"}
    [note] = [item for item in pipeline.records([str(tmp_path)], tags=tags) if isinstance(item, Note)]
    assert str(note).startswith("note: Game tablut and Event {Club} night are not applied to the records of 1 lgn")
    assert note.said({"Game": "--game"}).startswith("note: --game tablut and Event {Club} night are not applied")
    assert str(Note("", "1 record of type '{x}' refused")) == "note: 1 record of type '{x}' refused"


def test_the_cli_says_each_problem_once_with_its_hint(tmp_path):
    folder = folder_of_inputs(tmp_path)
    for command in (["validate"], ["rules"], ["duplicates"], ["import", "--db", str(tmp_path / "a.db")]):
        result = CliRunner().invoke(main, [*command, str(folder)])
        assert result.exit_code == 2, (command, result.output)
        assert result.output.count(f"lusoria: {folder / 'b.txt'}: skipped") == 1, command
        assert (
            result.output.count(
                f"lusoria: {folder / 'c.lgn'}:1:2: byte 0xFF is not valid utf-8, in no record; try --encoding latin-1 or cp1252"
            )
            == 1
        ), command


def test_a_missing_archive_gets_the_cli_hint_and_the_library_names_no_command(tmp_path):
    result = CliRunner().invoke(main, ["stats", "--db", str(tmp_path / "none.db")])
    assert result.exit_code == 2
    assert result.output == f"lusoria: {tmp_path / 'none.db'} does not exist; create it with lusoria import\n"


def test_every_filter_has_one_option_made_from_its_field():
    from dataclasses import fields

    help_text = CliRunner().invoke(main, ["query", "--help"], terminal_width=200).output
    for field in fields(Filters):
        option = field.metadata.get("option") or field.name.replace("_", "-")
        assert f"  --{option} " in help_text or f"  --{option}\n" in help_text, field.name
    assert "--valid / --invalid" in help_text
    tree_help = CliRunner().invoke(main, ["tree", "--help"]).output
    assert "--player" in tree_help and "--limit" not in tree_help and "--order" not in tree_help


def test_the_cli_imports_only_the_library_facade():
    tree = ast.parse((ROOT / "lusoria/cli.py").read_text())
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    imported |= {
        f"lusoria.{alias.name}"
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module == "lusoria"
        for alias in node.names
    }
    lusoria = {name for name in imported if name and name.startswith("lusoria")}
    assert lusoria <= {
        "lusoria",
        "lusoria.__version__",
        "lusoria.build",
        "lusoria.api",
        "lusoria.output",
        "lusoria.archive",
        "lusoria.files",
        "lusoria.terminal",
        "lusoria.options",
        "lusoria.words",
        "lusoria.lsp",
    }


def test_import_with_jobs_stores_the_same_archive(tmp_path, monkeypatch):
    """The workers check and make the rows; this process writes them in the order of the
    records: the same archive, row for row, whatever the number of jobs."""
    from lusoria.api import random_records

    monkeypatch.setattr(workers, "CHUNK", 2_000)  # a few records a chunk: the three workers take some each

    samples = [
        (ROOT / "samples" / name).read_text()
        for name in ("errors/syntax.lgn", "errors/tablut-moves.lgn", "latrunculi/seneca.lgn")
    ]
    texts = [
        *random_records("tablut", 30, seed=2, max_plies=20),
        RECORD,
        *samples[:2],
        *random_records("laquet", 20, seed=2, max_plies=20),
        RECORD,
        samples[2],
    ]
    path = tmp_path / "many.lgn"
    path.write_text("\n".join(texts))
    dumps = []
    for jobs in ("1", "3"):
        db = tmp_path / f"jobs{jobs}.db"
        result = CliRunner().invoke(main, ["import", "--db", str(db), "--jobs", jobs, "--force-jobs", str(path)])
        assert result.exit_code == 0, result.output
        with closing(connect(db)) as connection:  # every table's rows (FTS5's tables: their shadow
            tables = [
                name
                for (name,) in connection.execute(  # tables' and the view `plies`)
                    "SELECT name FROM sqlite_master WHERE type IN ('table', 'view') AND sql NOT LIKE 'CREATE VIRTUAL%' "
                    "ORDER BY name"
                )
            ]
            dumps.append({table: sorted(connection.execute(f"SELECT * FROM [{table}]"), key=repr) for table in tables})
    assert dumps[0] == dumps[1] and len(dumps[0]["plies"]) > 1000
    assert result.output == (
        f"{db}: added 70 records (17 invalid, 3 of them unparsable), skipped 1 duplicate\n"
        f"{path}:778: skipped, the same game as record 31\n"  # RECORD again, after the 30 records before it
        f"lusoria: note: 3 records stored as written, not parsed ({path}:375, {path}:380, {path}:390): lusoria "
        "validate says why\n"  # (samples/errors/syntax.lgn's, in order whatever the jobs)
    )


def test_a_killed_worker_is_said_in_one_line_with_status_2(tmp_path, monkeypatch):
    monkeypatch.setattr("lusoria.api._verdict", dying_verdict)
    records = tmp_path / "many.lgn"
    records.write_text("\n".join([RECORD] * MANY))
    result = CliRunner().invoke(main, ["validate", "--jobs", "2", str(records)])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert result.output.splitlines()[-1].startswith("lusoria: a worker process ended abruptly")


def dying_verdict(source: RecordText, keep_going: bool = False):
    """`_verdict`, in a worker process that is killed at the record of index 40."""
    from lusoria.api import check

    if source.index == 40 and os.getpid() != TESTS:
        os.kill(os.getpid(), signal.SIGKILL)
    return check(source, keep=False).verdict()


def dying_rows(source: RecordText):
    """`record_rows`, in a worker process that is killed at the record of index 40."""
    from lusoria.archive.records_as_rows import rows
    from lusoria.validator.replay import check

    if source.index == 40 and os.getpid() != TESTS:
        os.kill(os.getpid(), signal.SIGKILL)
    return rows(check(source))


def test_an_import_whose_worker_is_killed_stops_and_a_rerun_completes_it(tmp_path, monkeypatch):
    records = tmp_path / "many.lgn"
    records.write_text("\n".join(RECORD.replace("[Date", f'[Round "{n}"]\n[Date') for n in range(MANY)))
    db = str(tmp_path / "a.db")
    with monkeypatch.context() as patched:
        patched.setattr("lusoria.archive.records_as_rows.record_rows", dying_rows)
        killed = CliRunner().invoke(main, ["import", "--db", db, "--jobs", "2", str(records)])
    assert killed.exit_code == 2 and killed.output.startswith("lusoria: a worker process ended abruptly")
    assert not os.path.exists(db)  # the first batch was not whole, and a new archive comes with its first batch
    again = CliRunner().invoke(main, ["import", "--db", db, "--jobs", "2", str(records)])
    assert again.exit_code == 0 and f"added {MANY} records" in again.output


def buggy_verdict(source: RecordText, keep_going: bool = False):
    """`_verdict` with a bug that shows at the record of index 40."""
    from lusoria.api import check

    if source.index == 40:
        raise ZeroDivisionError("a bug")
    return check(source, keep=False).verdict()


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_an_internal_error_names_its_record_in_one_line_with_status_3(tmp_path, monkeypatch, jobs):
    """A bug is never taken for an invalid record (status 1): status 3, the record being checked
    and a request for a report, in one line; the traceback only when asked for."""
    monkeypatch.setattr("lusoria.api._verdict", buggy_verdict)
    records = tmp_path / "many.lgn"
    records.write_text("\n".join([RECORD] * MANY))
    line = 1 + 40 * (RECORD.count("\n") + 1)  # of the record of index 40
    result = CliRunner().invoke(main, ["validate", "--jobs", jobs, str(records)])
    assert result.exit_code == 3 and "Traceback" not in result.output
    said = result.stderr.splitlines()
    assert len(said) == 1 and said[0].startswith(f"lusoria: internal error while checking {records}:{line}")
    assert "ZeroDivisionError: a bug" in said[0]
    assert "please report it at the project's issue tracker" in said[0]  # lusoria has no home yet (pyproject.toml)
    assert "--debug" in said[0] and "LUSORIA_DEBUG=1" in said[0]
    debugged = CliRunner().invoke(main, ["--debug", "validate", "--jobs", jobs, str(records)])
    assert isinstance(debugged.exception, ZeroDivisionError) and debugged.exit_code == 1
    monkeypatch.setenv("LUSORIA_DEBUG", "1")
    assert isinstance(CliRunner().invoke(main, ["validate", "--jobs", jobs, str(records)]).exception, ZeroDivisionError)


@pytest.mark.parametrize("jobs", [1, 2])
def test_an_internal_error_names_a_record_given_as_text_or_on_standard_input(monkeypatch, jobs):
    # (issue 41) a record given as text is `<text>:LINE` (as every message names it; it was `-:LINE`),
    # one read from standard input `<stdin>:LINE`, in this process and in a worker
    from lusoria import api
    from lusoria.errors import place_of

    monkeypatch.setattr("lusoria.api._verdict", buggy_verdict)
    records = "\n".join([RECORD] * MANY)
    line = 1 + 40 * (RECORD.count("\n") + 1)
    with pytest.raises(ZeroDivisionError) as raised:
        list(api.validate([records], jobs=jobs))
    assert place_of(raised.value) == f"<text>:{line}"
    result = CliRunner().invoke(main, ["validate", "--jobs", str(jobs), "-"], input=records)
    assert result.exit_code == 3 and result.stderr.startswith(
        f"lusoria: internal error while checking <stdin>:{line}: ZeroDivisionError: a bug."
    )


def said(item) -> tuple:
    """What `validate` says of an item of its stream."""
    if isinstance(item, (Skipped, Unreadable, Note)):
        return (str(item),)
    return (
        item.source.path,
        item.source.format,
        item.valid,
        item.plies,
        item.result,
        [(d.rule, d.ply, d.line, d.column, d.message) for d in item.diagnostics],
    )


def test_every_readers_fixtures_read_alike_in_workers_and_in_process(tmp_path):
    """Records of other formats reach the workers already read (their model and their problems
    pickled): each format's fixtures, valid and broken, copied until they fill several chunks."""
    from lusoria import api

    fixtures = sorted(path for path in (ROOT / "tests" / "fixtures" / "formats").rglob("*") if path.is_file())
    folder = tmp_path / "downloads"
    folder.mkdir()
    for copy in range(4):
        for path in fixtures:
            (folder / f"{copy}-{path.parent.name}-{path.name}").write_bytes(path.read_bytes())
    assert len(list(workers.chunks(pipeline.records([str(folder)])))) >= 3
    in_process = [said(item) for item in api.validate([str(folder)], jobs=1)]
    assert {said[1] for said in in_process if len(said) > 1} == built_in_formats() - {"lgn"}  # every other format
    assert [said(item) for item in api.validate([str(folder)], jobs=2)] == in_process
    result = CliRunner().invoke(main, ["validate", str(folder)])  # the default --jobs
    assert result.exit_code == 1 and "Traceback" not in result.output and "internal error" not in result.output
    assert result.stdout.splitlines()[-2].startswith(f"{sum(len(s) > 1 for s in in_process)} records: ")


@pytest.mark.parametrize(
    "game, tags",
    [
        ("tablut", {}),
        ("latrunculi", {"Variant": "dux"}),
        ("laquet", {}),
        ("brandubh", {}),
        ("copenhagen", {}),
        ("hnefatafl", {"Variant": "alea-evangelii-dux4-19x19"}),
    ],
)
def test_a_report_of_every_game_is_sent_from_a_worker_whole(game, tags):
    """Newcomer-54a: compiled, `lusoria duplicates` of a folder (the default --jobs) failed with `internal
    error: TypeError: __init__() missing required argument 'size'`: a report (`api.reports(jobs=2)`) holds its
    rules' board geometry, a native class that pickle could not make again. Each comes back as the one of its
    board, its positions the same (CI runs the suite compiled)."""
    [text] = api.random_records(game, seed=54, tags=tags, max_plies=40)
    report = api.check(text)
    again = pickle.loads(pickle.dumps(report))
    assert again.main_line == report.main_line and again.positions == report.positions and report.plies
    if hasattr(report.rules, "geo"):
        assert again.rules.geo is report.rules.geo


def test_rules_searches_a_few_records_in_the_workers(tmp_path, monkeypatch):
    """`lusoria rules --jobs 2` of a few records (far less than a chunk of `validate`'s size):
    each record but the first is searched by a worker, in order (one record costs up to
    fit.MAX_WORK plies: one process searched them all)."""
    from lusoria import api

    path = tmp_path / "few.lgn"
    path.write_text("\n".join(RECORD.replace("2026", str(2020 + n)) for n in range(4)))
    monkeypatch.setattr("lusoria.api.fitting_rules", lambda record, valid, source: (record.tags["Date"], os.getpid()))
    found = [fit for _, fit in api.fitting([str(path)], jobs=2)]
    assert [date for date, _ in found] == [f"{2020 + n}.03.??" for n in range(4)]
    assert found[0][1] == os.getpid() and os.getpid() not in {pid for _, pid in found[1:]}


SOURCE_TAKEN = "a path (str or os.PathLike), '-', a stream or a record's text"
RECORD_TAKEN = "a RecordText (a record as `records` reads it)"


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: api.check(None), "check takes a record's text (str or RecordText) as source, not None"),
        (lambda: api.check(5), "check takes a record's text (str or RecordText) as source, not int (5)"),
        (lambda: api.check(source=[RECORD]), "check takes a record's text (str or RecordText) as source, not list"),
        (
            lambda: api.check(io.StringIO(RECORD)),
            "check takes a record's text (str or RecordText) as source, not StringIO (",
        ),
        (lambda: api.notes_on(None), f"notes_on takes {RECORD_TAKEN} as record, not None"),
        (lambda: api.notes_on(RECORD), f"notes_on takes {RECORD_TAKEN} as record, not str"),
        (lambda: api.replay_page(None, 0), f"replay_page takes {SOURCE_TAKEN} as source, not None"),
        (lambda: api.replay(3.5), f"replay takes {SOURCE_TAKEN} as source, not float (3.5)"),
        (lambda: api.format_record([RECORD]), f"format_record takes {SOURCE_TAKEN} as source, not list (["),
        (lambda: api.validate(None), f"validate takes {SOURCE_TAKEN}, or an iterable of them as paths, not None"),
        (
            lambda: api.validate(b"games.lgn"),
            f"validate takes {SOURCE_TAKEN}, or an iterable of them as paths, not bytes",
        ),
        (lambda: api.validate([RECORD, 7]), f"validate takes {SOURCE_TAKEN} as paths[1], not int (7)"),
        (lambda: list(api.records(iter([None]))), f"records takes {SOURCE_TAKEN} as paths[0], not None"),
        (
            lambda: list(api.duplicates(paths=(RECORD, [RECORD]))),
            f"duplicates takes {SOURCE_TAKEN} as paths[1], not list",
        ),
        # newcomer-57b: a plain value of another type failed deep inside ('<' not supported…, 'NoneType' has no…)
        (lambda: api.board(RECORD, ply="4"), "board takes an int or None as ply, not str ('4')"),
        (lambda: api.board(RECORD, ply=True), "board takes an int or None as ply, not bool (True)"),
        (lambda: list(api.random_records(None)), "random_records takes a str as game, not None"),
        (lambda: list(api.random_records("tablut", "3")), "random_records takes an int as count, not str ('3')"),
        (lambda: api.check(RECORD, keep_going="yes"), "check takes True or False as keep_going, not str ('yes')"),
    ],
)
def test_a_library_call_given_what_is_no_record_s_source_refuses_it_saying_what_it_takes(call, message):
    """`api.check(None)` failed deep inside ('NoneType' object has no attribute 'problems'): every
    call of the library that takes records refuses, before it runs, a value of another type (a stream
    where a record's text is taken), naming itself, the parameter (the item of a list) and what it takes."""
    with pytest.raises(TypeError) as refused:
        call()
    assert str(refused.value).startswith(message)


def test_a_library_call_takes_a_path_as_a_path_and_an_integral_number_as_an_int(tmp_path):
    """Reviewer-57b: the plain types' check refused a Path where a str names a folder (`output_dir`, `directory`),
    and a number that is an int without being one (numpy's: a numbers.Integral), which were taken before."""
    import numbers

    class Whole(int):  # (an int of another kind, as numpy's int64 is an Integral)
        pass

    numbers.Integral.register(Whole)
    assert "<title>0 games</title>" in api.folder_index(tmp_path, [])
    assert api.gone_but_listed(tmp_path, []) == []
    assert [page.verdict for page in api.replay_pages([RECORD], output_dir=tmp_path)] == ["valid"]
    assert api.board(RECORD, ply=Whole(1)).ply == 1


def test_a_library_call_takes_every_kind_of_record_s_source_as_it_did(tmp_path):
    """The check lets through what the calls take: a path (str or Path), a stream, a record's text,
    a RecordText, and lists, tuples or iterators of them, positionally or by name."""
    path = tmp_path / "a.lgn"
    path.write_text(RECORD)
    assert api.check(RECORD).valid and api.check(source=RecordText(RECORD)).valid
    for given in (str(path), path, [path], (str(path),), iter([RECORD]), RecordText(RECORD)):
        assert [verdict.valid for verdict in api.validate(given)] == [True]
    with open(path) as stream:
        assert api.format_record(source=stream)[1].valid
    assert [report.valid for report in api.reports([Skipped("x", "why")]) if isinstance(report, Report)] == []


def test_every_call_the_seam_checks_is_checked_in_the_compiled_build_too():
    """mypyc compiles the modules that carry accelerator.MARK: there a function is no Python function
    (`inspect.isfunction` is False) and shows no annotations, so the seam let the compiled build's
    `api.check(None)` fail deep inside. Each call the seam checks is a function of a module left pure."""
    checked = [getattr(api, name).__wrapped__ for name in api.__all__ if hasattr(getattr(api, name), "__wrapped__")]
    compiled = [
        f"{call.__module__}.{call.__name__}"
        for call in checked
        if accelerator.MARK in inspect.getsource(inspect.getmodule(call)).splitlines()
    ]
    assert "validate" in [call.__name__ for call in checked] and compiled == []


def test_every_call_of_the_library_is_pickled_by_its_name():
    """A call the seam wraps kept the module of the function it wraps: `pickle.dumps(api.records)`
    failed ('not the same object as lusoria.pipeline.records'), as a worker pool of the user's sends it."""
    calls = [getattr(api, name) for name in api.__all__ if inspect.isfunction(getattr(api, name))]
    assert api.records in calls and all(pickle.loads(pickle.dumps(call)) is call for call in calls)


def test_every_parameter_of_a_library_call_annotated_as_a_source_is_one_the_seam_checks():
    """The seam reads annotations as written (`api.TAKES`): one written otherwise (`Source | None`,
    `list[Source]`, `RecordText` before the seam knew it: `notes_on(None)` failed deep inside) would
    leave its parameter unchecked, unsaid. `proposed_rules` takes `fitting`'s pairs, no record's source."""
    annotated = {
        f"{name}({parameter.name}: {parameter.annotation})"
        for name in api.__all__
        if inspect.isfunction(getattr(api, name))
        for parameter in inspect.signature(inspect.unwrap(getattr(api, name))).parameters.values()
        if "Source" in str(parameter.annotation) or "RecordText" in str(parameter.annotation)
    } - {"proposed_rules(fitted: list[tuple[RecordText, Fit | Diagnostic]])"}
    assert {"validate(paths: Iterable[Source])", "notes_on(record: RecordText)"} <= annotated
    assert [said for said in annotated if said.partition(": ")[2][:-1] not in api.TAKES] == []


def test_an_unreadable_source_says_whether_its_records_were_read(tmp_path):
    """A byte in a `%` line after a record leaves the record read (`records_read`: a command sums it
    up); one in a file of no record leaves nothing read, as `records` and `canonical_files` say it."""
    (tmp_path / "after.lgn").write_bytes(b'[Game "tablut"]\n1. e3-c3 *\n\n%\xff\n')
    (tmp_path / "none.lgn").write_bytes(b"%\xff\n")
    paths = [str(tmp_path / "after.lgn"), str(tmp_path / "none.lgn")]
    for stream in (pipeline.records(paths), api.canonical_files(paths)):
        said = [(Path(item.path).name, item.records_read) for item in stream if isinstance(item, Unreadable)]
        assert said == [("after.lgn", True), ("none.lgn", False)]


def test_a_source_cut_at_a_line_too_long_says_some_records_read_not_all(tmp_path, monkeypatch):
    """h82a: a line too long after a record stops the file there: its records before it read (`some_read`),
    not its records all read (`records_read`, a byte in a `%` line after them), which a command sums up as a
    file read; a file whose first line is too long has none read."""
    from lusoria.notation import sources

    monkeypatch.setattr(sources, "MAX_LINE", 2000)
    (tmp_path / "cut.lgn").write_text('[Game "tablut"]\n1. e3-c3 *\n\n[Game "tablut"]\n{' + "x" * 3000 + "}\n*\n")
    (tmp_path / "long.lgn").write_text("{" + "x" * 3000 + "}\n")
    read = list(pipeline.records([str(tmp_path / "cut.lgn"), str(tmp_path / "long.lgn")]))
    said = [(Path(item.path).name, item.records_read, item.some_read) for item in read if isinstance(item, Unreadable)]
    assert said == [("cut.lgn", False, True), ("long.lgn", False, False)]
    assert len([item for item in read if isinstance(item, RecordText)]) == 1


def test_a_game_given_in_capitals_is_applied_to_a_move_list_and_a_note_shows_a_files_tab_escaped(tmp_path):
    """h82a: `--game Tablut` chooses the game of a tafl move list, which its record writes `tablut`: the option
    is applied, and no note says otherwise; a note that names a file whose name holds a tab shows it as
    `\\x09`, on the note's one line."""
    (tmp_path / "game.txt").write_text("e3-c3 d1-d3\n")
    (tmp_path / "a\tb.lgn").write_text('[Game "tablut"]\n\n1. e3-c3 *\n')
    applied = CliRunner().invoke(main, ["validate", "--game", "Tablut", str(tmp_path / "game.txt")])
    assert (applied.exit_code, applied.stderr) == (0, "")
    noted = CliRunner().invoke(main, ["validate", "--game", "copenhagen", str(tmp_path / "a\tb.lgn")])
    assert noted.stderr.startswith(
        f"lusoria: note: --game copenhagen is not applied to the records of 1 lgn file ({tmp_path}/a\\x09b.lgn): "
    )


def test_the_bytes_to_read_are_those_of_the_files_not_of_standard_input_or_a_folder(tmp_path):
    """h82a: `size`, what a progress bar is told in all, counts the files' bytes; standard input (`-`) and a
    folder (a Skipped) have no size to count and are passed over, not asked for one."""
    (tmp_path / "a.lgn").write_text('[Game "tablut"]\n1. e3-c3 *\n')
    skipped = Skipped(str(tmp_path), "not a record file")
    assert pipeline.size(["-", str(tmp_path / "a.lgn"), skipped, str(tmp_path)]) == len('[Game "tablut"]\n1. e3-c3 *\n')


@pytest.mark.parametrize(
    "call, said",
    [
        (lambda: api.explain("zzz"), "no rule, game or variant is named 'zzz'"),
        (lambda: api.explain("tablut/zzz"), "tablut has no variant 'zzz'"),  # (review81: these were KeyErrors)
        (lambda: api.explain("zzz/linnaeus"), "no game is named 'zzz'"),
        (lambda: api.explain("seed"), "laquet and tablut have a variant 'seed': name one"),
        (lambda: api.explain("the"), "no rule, game or variant is named 'the', and it is too common"),
        (lambda: rulebook.rule("T99"), "unknown rule 'T99'"),
        (lambda: list(api.random_records("chess")), "unknown game 'chess' (known: brandubh, copenhagen, hnefatafl, "),
        (lambda: api.GAMES["chess"], "unknown game 'chess'"),
    ],
)
def test_a_name_lusoria_does_not_know_is_a_lusoria_error_and_a_key_error(call, said):
    """h81a: `except api.LusoriaError` missed `api.explain("zzz")` and `api.random_records("chess")`, bare KeyErrors
    whose `str()` quoted their message."""
    with pytest.raises(api.LusoriaError) as raised:
        call()
    assert isinstance(raised.value, KeyError) and str(raised.value).startswith(said)


REFUSED = [  # (a call of an archive of the samples' Tablut games, what it says first)
    (lambda a: list(a.query(Filters(date_from="May 2020"))), "a date filter is YYYY, YYYY.MM or YYYY.MM.DD"),
    (lambda a: list(a.query(Filters(position="zzz"))), "'zzz' is not a position string of any game"),
    (lambda a: list(a.query(Filters(pattern="zzz"))), "'zzz' is not a pattern of any game"),
    (lambda a: list(a.query(Filters(path="a\0b"))), "the path filter value 'a\\x00b' holds a NUL character"),
    (lambda a: a.tree("zzz"), "'zzz' is not a position string of any game"),
    (lambda a: a.tree(filters=Filters(game="tablut", variant="seed"), depth=0), "depth: '0' is not a whole number"),
    (lambda a: a.tree(from_id=999), "no record of the archive has the id 999"),
    (lambda a: a.export("out.xml", "xml"), "the export format is parquet, csv or jsonl, not 'xml'"),
    (lambda a: a.stats(top=0), "top is a number of rows from 1 on, not 0"),
    (lambda a: a.remove(Filters()), "give filters (as in query) of the records to remove"),
    (lambda a: list(api.validate([str(ROOT / "samples/tablut")], jobs=0)), "jobs: '0' is not a whole number from 1"),
    (lambda a: list(api.convert([str(ROOT / "samples/tablut")], to="xml")), "cannot write 'xml' (known: lgn, otn)"),
    (lambda a: api.board(str(ROOT / "samples/tablut/escape.lgn"), ply=-1), "no ply -1: plies count from 0"),
    (lambda a: a.merge_players(["karin nilsson"], "Karin Nilsson"), "'karin nilsson' is 'Karin Nilsson', the canon"),
    (lambda a: a.merge_players(["Olof Berg"], "Olof Berg"), "'Olof Berg' is the canonical name itself: give another"),
    (lambda a: a.merge_players([" Olof Berg "], "Olof Berg"), "'Olof Berg' is the canonical name itself"),  # (review83)
]


@pytest.mark.parametrize("call, said", REFUSED)
def test_a_value_a_call_refuses_is_a_lusoria_error_and_a_value_error(tmp_path, monkeypatch, call, said):
    """h83b: these raised a bare ValueError, which `except api.LusoriaError` missed, where docs/api.md says that a
    value a call refuses is one: each is a Refused, a LusoriaError and a ValueError, and the archive is as it was."""
    monkeypatch.chdir(tmp_path)
    archive = Archive(str(tmp_path / "club.db"))
    archive.import_paths([str(ROOT / "samples/tablut")])
    with pytest.raises(api.LusoriaError) as raised:
        call(archive)
    assert isinstance(raised.value, ValueError) and str(raised.value).startswith(said)
    assert len(list(archive.query(Filters()))) == 4 and archive.aliases() == [] and os.listdir(tmp_path) == ["club.db"]


def test_a_game_given_in_capitals_is_applied_to_a_file_whose_reader_writes_it_in_small_letters(tmp_path):
    """h82a: a reader that writes the game given in its own letters (aage JSON: `copenhagen`) follows a Game tag given
    as `Copenhagen` (a library call's, which no option lowercases): no note says it is not applied; a game other than
    the file's is said."""
    fixture = str(ROOT / "tests/fixtures/formats/aage/copenhagen.json")
    for game in ("Copenhagen", "copenhagen"):
        assert [item for item in pipeline.records([fixture], tags={"Game": game}) if isinstance(item, Note)] == []
    [note] = [item for item in pipeline.records([fixture], tags={"Game": "Brandubh"}) if isinstance(item, Note)]
    assert str(note).startswith(f"note: Game Brandubh is not applied to the records of 1 aage file ({fixture}): ")


def test_an_unknown_name_without_a_message_says_nothing_as_a_key_error_does():
    """h83a: `UnknownName.__str__` reads its message from its args; one made without any (as pickle makes
    it, its args set after) says "" as KeyError() does, not a word of its own nor an IndexError."""
    from lusoria.errors import UnknownName

    assert str(UnknownName()) == str(KeyError()) == ""
    assert str(UnknownName("no game is named 'zzz'")) == "no game is named 'zzz'"


def test_the_record_an_error_was_raised_on_is_its_first_checking_note_among_others():
    """h83a: an error noted by the worker that raised it (its record) and again by the parent (the chunk
    it was in) keeps the nearer note alone, and `place_of` finds it among notes of other kinds."""
    from lusoria.errors import place_of, raised_checking

    error = ZeroDivisionError("a bug")
    error.add_note("a note of the code that raised it")
    assert place_of(error) is None
    assert raised_checking(error, "games/a.lgn:41") is error
    raised_checking(error, "games/a.lgn:1 or a record after it")
    assert place_of(error) == "games/a.lgn:41"
    assert error.__notes__ == ["a note of the code that raised it", "while checking games/a.lgn:41"]
