"""One pipeline from paths to reports (lusoria/pipeline.py): problems as typed items in their
place, progress in bytes on disk, the archive fed reports; the CLI over the library's façade."""

import ast
import gc
import itertools
import os
import signal
import sqlite3
import time
from contextlib import closing
from pathlib import Path

import pytest
from click.testing import CliRunner

from lusoria.formats import FORMATS
from lusoria import pipeline
from lusoria.archive import Archive
from lusoria.cli import main
from lusoria.notation.reader import RecordText
from lusoria.notation.sources import Skipped, Unreadable
from lusoria.validator.replay import Report

ROOT = Path(__file__).resolve().parent.parent
RECORD = '[Game "tablut"]\n[Date "2026.03.??"]\n\n1. e3-c3 {a comment} d1-d3 *\n'
@pytest.fixture(autouse=True)
def deadline():
    """A test of worker processes that hangs fails after a minute, instead of stopping the suite."""
    def expired(signum, frame):
        raise TimeoutError("the test took more than a minute: a hang?")

    before = signal.signal(signal.SIGALRM, expired)
    signal.alarm(60)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, before)


TESTS = os.getpid()  # the process of the tests, which a worker that dies on purpose must not be
MANY = pipeline.CHUNK // 50  # records of RECORD's length and more: more than one chunk, so workers take them


def folder_of_inputs(tmp_path: Path) -> Path:
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "a.lgn").write_text(RECORD + "\n" + RECORD.replace("e3-c3", "e3-d3"))
    (folder / "b.txt").write_text("not a record file")
    (folder / "c.lgn").write_bytes(b'[Game "tablut"]\n[Event "\xff"]\n*\n')
    return folder


def test_problems_come_as_typed_items_in_their_place(tmp_path):
    folder = folder_of_inputs(tmp_path)
    items = list(pipeline.records([str(folder), str(tmp_path / "missing.lgn")]))
    assert [type(item) for item in items] == [RecordText, RecordText, Skipped, Unreadable, Unreadable]
    assert [item.path for item in items[2:]] == [str(folder / "b.txt"), str(folder / "c.lgn"),
                                                  str(tmp_path / "missing.lgn")]
    undecodable, missing = items[3:]
    assert (undecodable.parameter, missing.parameter) == ("encoding", None)
    assert str(undecodable) == f"{folder / 'c.lgn'}: byte 24 (line 2) is not valid utf-8"  # names no option
    assert str(missing).endswith("missing.lgn: no such file or directory")


def test_reports_are_checked_records_and_the_problems_pass_through(tmp_path):
    items = list(pipeline.reports([str(folder_of_inputs(tmp_path))], keep=False))
    assert [type(item) for item in items] == [Report, Report, Skipped, Unreadable]
    assert items[0].valid and items[0].dates == ("2026-03-01", "2026-03-31")


def test_progress_counts_the_bytes_on_disk_that_size_measures(tmp_path):
    folder = folder_of_inputs(tmp_path)
    (folder / "d.lgn").write_bytes("\ufeff".encode() + RECORD.replace("\n", "\r\n").encode())  # BOM, CRLF
    found = pipeline.found([str(folder), str(ROOT / "tests/fixtures/formats/otn")])
    told: list[int] = []
    list(pipeline.records(found, progress=told.append))
    files = [folder / "a.lgn", folder / "c.lgn", folder / "d.lgn", *sorted((ROOT / "tests/fixtures/formats/otn").iterdir())]
    assert sum(told) == pipeline.size(found) == sum(path.stat().st_size for path in files)
    assert all(step >= 0 for step in told)


def test_the_archive_imports_reports_and_takes_the_dates_from_them(tmp_path):
    archive = Archive(str(tmp_path / "a.db"))
    summary = archive.import_reports(pipeline.reports([RECORD]))
    assert (summary.added, summary.unreadable) == (1, [])
    assert archive.sql("SELECT date_from, date_to, comments FROM records") == [
        {"date_from": "2026-03-01", "date_to": "2026-03-31", "comments": "a comment"}]
    summary = archive.import_paths([str(folder_of_inputs(tmp_path))])  # the pipeline, then import_reports
    assert (summary.added, summary.duplicates) == (1, 1)
    assert summary.unreadable == [f"{tmp_path / 'in' / 'c.lgn'}: byte 24 (line 2) is not valid utf-8"]


def test_the_cli_says_each_problem_once_with_its_hint(tmp_path):
    folder = folder_of_inputs(tmp_path)
    for command in (["validate"], ["rules"], ["duplicates"], ["import", "--db", str(tmp_path / "a.db")]):
        result = CliRunner().invoke(main, [*command, str(folder)])
        assert result.exit_code == 2, (command, result.output)
        assert result.output.count(f"lusoria: {folder / 'b.txt'}: skipped") == 1, command
        assert result.output.count(f"lusoria: {folder / 'c.lgn'}: byte 24 (line 2) is not valid utf-8; "
                                   "try --encoding latin-1 or cp1252") == 1, command


def test_a_missing_archive_gets_the_cli_hint_and_the_library_names_no_command(tmp_path):
    result = CliRunner().invoke(main, ["stats", "--db", str(tmp_path / "none.db")])
    assert result.exit_code == 2
    assert result.output == f"lusoria: {tmp_path / 'none.db'} does not exist; create it with lusoria import\n"


def test_every_filter_has_one_option_made_from_its_field():
    from dataclasses import fields

    from lusoria.archive import Filters

    help_text = CliRunner().invoke(main, ["query", "--help"], terminal_width=200).output
    for field in fields(Filters):
        option = field.metadata.get("option") or field.name.replace("_", "-")
        assert f"  --{option} " in help_text or f"  --{option}\n" in help_text, field.name
    assert "--valid / --invalid" in help_text
    tree_help = CliRunner().invoke(main, ["tree", "--help"]).output
    assert "--player" in tree_help and "--limit" not in tree_help


def test_the_cli_imports_only_the_library_facade():
    tree = ast.parse((ROOT / "lusoria/cli.py").read_text())
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    imported |= {f"lusoria.{alias.name}" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
                 and node.module == "lusoria" for alias in node.names}
    lusoria = {name for name in imported if name and name.startswith("lusoria")}
    assert lusoria <= {"lusoria", "lusoria.__version__", "lusoria.build", "lusoria.api", "lusoria.output", "lusoria.archive",
                       "lusoria.files", "lusoria.terminal", "lusoria.options", "lusoria.words", "lusoria.lsp"}


def checked_where(item: int) -> tuple[int, int, bool]:
    """An item, the process that took it, and whether that process leaves Ctrl-C to its parent."""
    return item, os.getpid(), signal.getsignal(signal.SIGINT) == signal.SIG_IGN


def test_workers_keep_the_order_and_the_problems_in_their_place():
    skipped = Skipped("notes.txt", "not a record file")
    items = [*range(40), skipped, *range(40, 100)]
    results = list(pipeline.in_workers(checked_where, items, 2))
    assert results[40] == skipped
    taken = [result for result in results if result != skipped]
    assert [item for item, _, _ in taken] == list(range(100))
    assert taken[0][1:] == (os.getpid(), False)  # the first item here: the workers inherit what it loaded
    assert os.getpid() not in {pid for _, pid, _ in taken[1:]} and all(ignores for _, _, ignores in taken[1:])


def collecting(item: int) -> tuple[bool, int]:
    """Whether the process that took an item collects reference cycles, and how often."""
    return gc.isenabled(), gc.get_threshold()[0]


def test_workers_collect_cycles_even_where_their_parent_paused_it():
    gc.disable()
    try:
        collected = list(pipeline.in_workers(collecting, range(100), 2))
    finally:
        gc.enable()
    assert collected[0] == (False, gc.get_threshold()[0])  # the first item here, the others in workers
    assert set(collected[1:]) == {(True, pipeline.YOUNG_OBJECTS)}


def test_one_job_or_one_chunk_stays_in_this_process():
    for items, jobs in ((range(100), 1), (range(pipeline.CHUNK // pipeline.ITEM), 2)):
        assert {pid for _, pid, _ in pipeline.in_workers(checked_where, items, jobs)} == {os.getpid()}
    assert len({pid for _, pid, _ in pipeline.in_workers(checked_where, range(pipeline.CHUNK // pipeline.ITEM + 1), 2)}) > 1


def test_workers_the_system_refuses_leave_the_chunks_to_those_it_gave(monkeypatch):
    # out of processes or file descriptors: the workers made take every chunk; with none, this process does
    made = []

    def second_refused(function, others):
        if len(made) == 1:
            raise OSError(24, "Too many open files")
        made.append(worker := real(function, others))
        return worker

    real = pipeline._Worker
    monkeypatch.setattr(pipeline, "_Worker", second_refused)
    taken = list(pipeline.in_workers(checked_where, range(200), 3))
    assert [item for item, _, _ in taken] == list(range(200))
    assert len({pid for _, pid, _ in taken[1:]}) == 1 and taken[1][1] != os.getpid()
    monkeypatch.setattr(pipeline, "_Worker", real)
    monkeypatch.setattr(os, "fork", lambda: (_ for _ in ()).throw(OSError(11, "Resource temporarily unavailable")))
    open_before = len(os.listdir("/dev/fd"))
    assert list(pipeline.in_workers(checked_where, range(200), 2)) == [(item, os.getpid(), False) for item in range(200)]
    assert len(os.listdir("/dev/fd")) == open_before  # the pipes of the workers refused are closed


def failing(item: int) -> int:
    """An item; item 50 raises ValueError."""
    if item == 50:
        raise ValueError("item 50")
    return item


def test_an_exception_in_a_worker_is_raised_here_in_its_place():
    # in place of its chunk's results: the items before that chunk come, in order; the worker's
    # traceback comes as a note
    taken: list[int] = []
    with pytest.raises(ValueError, match="item 50") as raised:
        for item in pipeline.in_workers(failing, range(200), 2):
            taken.append(item)
    assert taken == list(range(32))
    assert "in a worker process" in raised.value.__notes__[0] and "in failing" in raised.value.__notes__[0]


class Unpicklable(Exception):
    """An exception that cannot be pickled (it holds a lambda)."""

    def __init__(self) -> None:
        super().__init__("cannot travel")
        self.callback = lambda: None


def failing_unpicklably(item: int) -> object:
    """An item; item 50 raises an exception that cannot be pickled, item 120 returns a lambda."""
    if item == 50:
        raise Unpicklable()
    return (lambda: None) if item == 120 else item


def test_what_cannot_be_pickled_back_is_said_not_taken_for_a_lost_worker():
    for items, said in ((range(100), "Unpicklable: cannot travel"), (range(100, 200), "Can't pickle")):
        with pytest.raises(Exception, match=said) as raised:
            list(pipeline.in_workers(failing_unpicklably, items, 2))
        assert not isinstance(raised.value, pipeline.WorkerLost)


def big(item: int) -> bytes:
    """An item's length (a record's text), or 300,000 bytes for an int."""
    return bytes(len(item.text)) if isinstance(item, RecordText) else bytes([item % 256]) * 300_000


def test_chunks_and_results_larger_than_a_pipe_go_through_it_in_parts():
    # a chunk of a 3 MB record, and a chunk's results of 9.6 MB, while this process takes its time
    records = [RecordText("x" * 3_000_000), *[RecordText("y" * 100)] * 700, RecordText("z" * 3_000_000)]
    assert [len(result) for result in pipeline.in_workers(big, records, 2)] == [3_000_000, *[100] * 700, 3_000_000]
    stream = pipeline.in_workers(big, range(200), 2)
    first = next(stream)
    time.sleep(0.5)  # the workers fill their pipes, and keep the rest
    assert [first, *stream] == [bytes([item % 256]) * 300_000 for item in range(200)]


def test_two_streams_of_workers_at_once_end_both():
    # each stream's workers inherit the other's pipes: a stream that ends does not wait for them
    both = list(zip(pipeline.in_workers(checked_where, range(300), 2), pipeline.in_workers(collecting, range(300), 2)))
    assert [item for (item, _, _), _ in both] == list(range(300))


def test_a_caller_that_stops_early_leaves_no_worker_behind():
    stream = pipeline.in_workers(checked_where, range(1000), 2)
    pids = {pid for _, pid, _ in itertools.islice(stream, 100)} - {os.getpid()}
    stream.close()
    assert pids
    for pid in pids:
        with pytest.raises(ChildProcessError):  # ended, and waited for: no zombie
            os.waitpid(pid, os.WNOHANG)


def test_a_chunk_is_about_chunk_characters_of_records():
    # a worker takes records by their length, so that a chunk of short records costs about what one
    # of long records does; anything else counts as ITEM characters
    short, long = RecordText("x" * 1000), RecordText("x" * (pipeline.CHUNK // 2))
    skipped = Skipped("notes.txt", "not a record file")
    sizes = [len(chunk) for chunk in pipeline.chunks([short] * 130 + [long] * 4 + [skipped] * 40)]
    assert sizes == [64, 64, 2 + 2, 2, 32, 8]
    assert [len(chunk) for chunk in pipeline.chunks([])] == []


def test_import_with_jobs_stores_the_same_archive(tmp_path, monkeypatch):
    """The workers check and make the rows; this process writes them in the order of the
    records: the same archive, row for row, whatever the number of jobs."""
    from lusoria.api import random_records

    monkeypatch.setattr(pipeline, "CHUNK", 2_000)  # a few records a chunk: the three workers take some each

    samples = [(ROOT / "samples" / name).read_text()
               for name in ("errors/syntax.lgn", "errors/tablut-moves.lgn", "latrunculi/seneca.lgn")]
    texts = [*random_records("tablut", 30, seed=2, max_plies=20), RECORD, *samples[:2],
             *random_records("laquet", 20, seed=2, max_plies=20), RECORD, samples[2]]
    path = tmp_path / "many.lgn"
    path.write_text("\n".join(texts))
    dumps = []
    for jobs in ("1", "3"):
        db = tmp_path / f"jobs{jobs}.db"
        result = CliRunner().invoke(main, ["import", "--db", str(db), "--jobs", jobs, "--force-jobs", str(path)])
        assert result.exit_code == 0, result.output
        with closing(sqlite3.connect(db)) as connection:  # every table's rows (FTS5's tables: their shadow
            tables = [name for name, in connection.execute(  # tables' and the view `plies`)
                "SELECT name FROM sqlite_master WHERE type IN ('table', 'view') AND sql NOT LIKE 'CREATE VIRTUAL%' "
                "ORDER BY name")]
            dumps.append({table: connection.execute(f"SELECT * FROM [{table}] ORDER BY 1, 2").fetchall()
                          for table in tables})
    assert dumps[0] == dumps[1] and len(dumps[0]["plies"]) > 1000
    assert result.output == f"{db}: added 70 records (17 invalid, 4 of them unparsable), skipped 1 duplicate\n"


def dying(item: int) -> int:
    """An item; the worker process that takes item 50 is killed (as by the kernel, out of memory),
    before the one that takes item 1 is done (it waits a little)."""
    if item == 1:
        time.sleep(0.3)
    if item == 50 and os.getpid() != TESTS:
        os.kill(os.getpid(), signal.SIGKILL)
    return item


def test_a_killed_worker_stops_the_stream_after_what_came_in_order():
    taken: list[int] = []
    try:
        for item in pipeline.in_workers(dying, range(200), 2):
            taken.append(item)
    except pipeline.WorkerLost as lost:
        assert "a worker process ended abruptly" in str(lost) and "--jobs" in str(lost)
    else:
        raise AssertionError("no WorkerLost")
    assert taken == list(range(32))  # what came before the chunk of the killed worker


def dying_record(record: RecordText) -> int:
    """A record's length; the worker process that takes a record that begins "die" is killed, after a while."""
    if record.text.startswith("die") and os.getpid() != TESTS:
        time.sleep(0.3)
        os.kill(os.getpid(), signal.SIGKILL)
    return len(record.text)


def test_a_worker_killed_while_a_chunk_waits_to_go_to_it_is_lost_as_any():
    # while it waits, a chunk of 3 MB is sent to it, more than its pipe takes; then it is killed
    big = RecordText("x" * 3_000_000)
    records = [RecordText("a"), RecordText("die" + "." * pipeline.CHUNK), big, big, *[RecordText("y" * 100)] * 2000]
    with pytest.raises(pipeline.WorkerLost):
        list(pipeline.in_workers(dying_record, records, 2))


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
    from lusoria.archive.importer import check, rows

    if source.index == 40 and os.getpid() != TESTS:
        os.kill(os.getpid(), signal.SIGKILL)
    return rows(check(source))


def test_an_import_whose_worker_is_killed_stops_and_a_rerun_completes_it(tmp_path, monkeypatch):
    records = tmp_path / "many.lgn"
    records.write_text("\n".join(RECORD.replace("[Date", f'[Round "{n}"]\n[Date') for n in range(MANY)))
    db = str(tmp_path / "a.db")
    with monkeypatch.context() as patched:
        patched.setattr("lusoria.archive.importer.record_rows", dying_rows)
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
    assert isinstance(CliRunner().invoke(main, ["validate", "--jobs", jobs, str(records)]).exception,
                      ZeroDivisionError)


def said(item) -> tuple:
    """What `validate` says of an item of its stream."""
    if isinstance(item, (Skipped, Unreadable)):
        return (str(item),)
    return (item.source.path, item.source.format, item.valid, item.plies, item.result,
            [(d.rule, d.ply, d.line, d.column, d.message) for d in item.diagnostics])


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
    assert len(list(pipeline.chunks(pipeline.records([str(folder)])))) >= 3
    in_process = [said(item) for item in api.validate([str(folder)], jobs=1)]
    assert {said[1] for said in in_process if len(said) > 1} == set(FORMATS) - {"lgn"}  # every other format
    assert [said(item) for item in api.validate([str(folder)], jobs=2)] == in_process
    result = CliRunner().invoke(main, ["validate", str(folder)])  # the default --jobs
    assert result.exit_code == 1 and "Traceback" not in result.output and "internal error" not in result.output
    assert result.stdout.splitlines()[-2].startswith(f"{sum(len(s) > 1 for s in in_process)} records: ")
