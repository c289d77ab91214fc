"""Round four's hostile inputs to the commands (issue 41): out of memory is "too large" (exit 2),
never a bug; messages shorten long values; each command's exit status says what happened."""

import errno
import io
import os
import sqlite3
import subprocess
import sys

import click
import pytest
from click.testing import CliRunner
from conftest import ROOT

from lusoria import api, terminal
from lusoria.cli import main
from lusoria.errors import raised_checking

ESCAPE = str(ROOT / "samples" / "tablut" / "escape.lgn")
OTN = (ROOT / "tests" / "fixtures" / "formats" / "otn" / "brandubh.otg").read_text()


def run(*args: str, input: str | None = None):
    return CliRunner().invoke(main, list(args), input=input)


def test_out_of_memory_is_too_large_not_a_bug(monkeypatch):
    # a 3 GB JSON file under a 2 GB cap: "internal error: MemoryError … a bug" (exit 3)
    def exhausted(*args, **kwargs):
        raise raised_checking(MemoryError(), "big.json:1")

    monkeypatch.setattr(api, "validate", exhausted)
    result = run("validate", ESCAPE)
    assert (result.exit_code, result.output) == (
        2,
        "lusoria: the input is too large for the memory available (while checking big.json:1)\n",
    )
    assert "internal error" not in result.output


def test_a_positions_file_is_bounded(tmp_path, monkeypatch):
    # query --positions /dev/zero read one endless line (MemoryError)
    from lusoria import cli

    monkeypatch.setattr(cli, "MAX_POSITIONS", 1000)
    result = run("query", "--db", str(tmp_path / "a.db"), "--positions", "/dev/zero")
    assert result.exit_code == 2 and "/dev/zero is longer than 1,000 characters" in result.output


@pytest.mark.parametrize("command", ["query", "tree", "stats", "players"])
def test_a_positions_file_not_in_utf_8_is_a_usage_error_saying_where(tmp_path, command):
    # it ended as an internal error (UnicodeDecodeError, exit 3)
    (tmp_path / "p.txt").write_bytes(b"# positions\ncaf\xe9\n")
    given = ["--game", "tablut"] if command == "tree" else []  # (a tree needs a position to start from)
    result = run(command, "--db", str(tmp_path / "a.db"), *given, "--positions", str(tmp_path / "p.txt"))
    assert result.exit_code == 2, result.output
    said = f"Invalid value for --positions: {tmp_path / 'p.txt'}: byte 15 (line 2) is not valid utf-8\n"
    assert said in result.output  # (no `try encoding="latin-1"`: the library's keyword, no option of the command)


def test_an_otn_start_is_shortened_in_its_message(tmp_path):
    # the whole 1 MB value was repeated in the message
    path = tmp_path / "big.otg"
    start = OTN.index("start:") + len("start:")
    path.write_text(OTN[:start] + "t" * 100_000 + OTN[OTN.index("]", start) :])
    result = run("validate", str(path))
    said = "rules entry start: the rank '" + "t" * 40 + "…' covers 100000 squares, not 7"  # (the rank as written)
    assert result.exit_code == 1 and said in result.output
    assert "t" * 100 not in result.output.splitlines()[0]  # the message; the line shown is cut at its window
    assert len(result.output) < 2000


def test_show_of_a_ply_past_the_end_is_a_usage_error():
    result = run("show", ESCAPE, "--ply", "999")
    assert (result.exit_code, result.output) == (
        2,
        f"lusoria: {ESCAPE}, record 0: no ply 999: it has 9 (the last, move 5, White: Kc5-c1++)\n",
    )


def test_a_record_past_the_last_says_how_many_there_are():
    for command in ("html", "show"):
        result = run(command, ESCAPE, "--record", "99999")
        assert result.exit_code == 2 and f"{ESCAPE} has no record 99999: it has 1 record\n" in result.output
    result = run("html", "-", "--record", "7", input='[Game "tablut"]\n\n*\n\n[Game "tablut"]\n\n*\n')
    assert result.exit_code == 2 and "<stdin> has no record 7: it has 2 records (0 to 1)\n" in result.output


@pytest.mark.parametrize("command", [["html"], ["rules"]])
def test_a_record_that_cannot_be_replayed_exits_1(tmp_path, command):
    # html of a refused record, and rules of one it cannot replay, exited 0
    path = tmp_path / "refused.lgn"
    path.write_text('[Game "nope"]\n\n*\n')
    result = run(*command, str(path))
    assert result.exit_code == 1
    assert f"{path}:1:8: record 0: cannot be replayed: error[tag]: unknown game 'nope'" in result.output


class Unwritable(io.RawIOBase):
    """A stream each write to which fails as `failure`: an errno (a full disk, a pipe its reader closed), or
    an exception of its own."""

    def __init__(self, failure: int | Exception):
        self.failure = failure

    def writable(self) -> bool:
        return True

    def write(self, data) -> int:
        raise self.failure if isinstance(self.failure, Exception) else OSError(self.failure, os.strerror(self.failure))


def ended(monkeypatch, args: list[str], stdout=None, stderr=None) -> tuple[object, str]:
    """The exit status of `lusoria ARGS` in this process, standard output or error failing as told (`Unwritable`),
    and what it said on the other."""
    said = io.StringIO()
    for name, failure in (("stdout", stdout), ("stderr", stderr)):
        stream = io.TextIOWrapper(io.BufferedWriter(Unwritable(failure)), encoding="utf-8") if failure else said
        monkeypatch.setattr(sys, name, stream)
    with pytest.raises(SystemExit) as stopped:
        main.main(args, prog_name="lusoria")
    return stopped.value.code, said.getvalue()


FULL = "lusoria: cannot write standard output: no space left on device\n"


def test_clicks_own_output_that_cannot_be_written_is_a_usage_error_said_on_the_other_stream(monkeypatch):
    """review72: `lusoria --help > /dev/full` was "internal error … a bug in lusoria" (exit 3), as was a usage error
    whose standard error was full; one whose standard error was a closed pipe, or a message `stop` could not
    write, ended with a traceback (exit 1)."""
    assert ended(monkeypatch, ["--help"], stdout=errno.ENOSPC) == (2, FULL)
    assert ended(monkeypatch, ["query", "--help"], stdout=errno.ENOSPC) == (2, FULL)
    assert ended(monkeypatch, ["query", "--bogus"], stderr=errno.ENOSPC) == (2, "")
    assert ended(monkeypatch, ["query", "--bogus"], stderr=errno.EPIPE) == (2, "")
    assert ended(monkeypatch, ["show", "missing.lgn"], stderr=errno.ENOSPC) == (2, "")
    assert ended(monkeypatch, ["validate", ESCAPE], stdout=errno.ENOSPC, stderr=errno.EPIPE) == (2, "")
    assert ended(monkeypatch, ["query", "--help"], stdout=errno.EPIPE) == (1, "")  # (click's quiet end of a pipe)


def test_an_error_of_a_commands_own_work_is_no_output_that_failed(monkeypatch):
    """An OSError the command's work raises, not click writing, is what it was (an internal error here,
    exit 3), said where standard output cannot be written, and ending so where standard error cannot;
    an error of another kind raised writing is no output that failed."""

    def failing(*args, **kwargs):
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(api, "validate", failing)
    status, said = ended(monkeypatch, ["validate", ESCAPE], stdout=errno.ENOSPC)
    assert status == 3 and said.startswith("lusoria: internal error: OSError: [Errno 5] Input/output error.")
    assert ended(monkeypatch, ["validate", ESCAPE], stderr=errno.ENOSPC) == (3, "")

    status, said = ended(monkeypatch, ["--help"], stdout=ValueError("not a write that failed"))
    assert status == 3 and "internal error: ValueError: not a write that failed." in said


@pytest.mark.parametrize(
    "stream, echoed, said",
    [
        ("stderr", {"file": "stderr"}, "standard error"),  # click's "Aborted!"
        ("stderr", {"err": True}, "standard error"),  # a usage error
        ("stdout", {}, "standard output"),  # --help
    ],
)
def test_output_click_could_not_write_is_named_by_the_stream_it_wrote_to(monkeypatch, stream, echoed, said):
    """review73: every write click's `echo` failed was named standard output, standard error's too."""
    monkeypatch.setattr(sys, stream, io.TextIOWrapper(io.BufferedWriter(Unwritable(errno.ENOSPC)), encoding="utf-8"))
    with pytest.raises(OSError) as raised:
        click.echo(
            "Aborted!", **{name: getattr(sys, value) if name == "file" else value for name, value in echoed.items()}
        )
    failed = terminal.clicks_output_failed(raised.value)
    assert failed is not None and str(failed) == f"cannot write {said}: no space left on device"


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full here (Linux has it)")
def test_output_on_a_full_disk_is_said_and_an_import_stores_every_record_all_the_same(tmp_path):
    """h72b: standard output on a full disk was "internal error … a bug in lusoria" (exit 3), and an
    import whose standard error was stopped at its first note, the records of its folder not stored.
    The commands run in processes of their own, their output on /dev/full (each write: no space)."""
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "a.lgn").write_text((ROOT / "samples" / "tablut" / "escape.lgn").read_text())
    (tmp_path / "games" / "b.lgn").write_text((ROOT / "samples" / "tablut" / "tuichi.lgn").read_text())
    (tmp_path / "games" / "empty.lgn").write_text("")  # (a note on standard error before any record)

    def lusoria(*args: str, full: str) -> subprocess.CompletedProcess:
        with open("/dev/full", "w") as disk:
            streams = (
                {"stdout": disk, "stderr": subprocess.PIPE}
                if full == "stdout"
                else {
                    "stdout": subprocess.PIPE,
                    "stderr": disk,
                }
            )
            command = [sys.executable, "-m", "lusoria.cli", *args]
            return subprocess.run(command, text=True, cwd=tmp_path, **streams)  # type: ignore[call-overload]

    validated = lusoria("validate", "games", full="stdout")
    assert (validated.returncode, validated.stderr.splitlines()[-1]) == (
        2,
        "lusoria: cannot write standard output: no space left on device",
    )
    imported = lusoria("import", "--db", "a.db", "games", full="stderr")
    assert imported.returncode == 0 and imported.stdout.startswith("a.db: added 2 records")
    with sqlite3.connect(tmp_path / "a.db") as conn:
        assert conn.execute("SELECT count(*) FROM records").fetchone() == (2,)
    summed = lusoria("import", "--db", "b.db", "games", full="stdout")  # (review72: exit 0, its summary lost)
    assert (summed.returncode, summed.stderr.splitlines()[-1]) == (
        2,
        "lusoria: cannot write standard output: no space left on device",
    )
    with sqlite3.connect(tmp_path / "b.db") as conn:
        assert conn.execute("SELECT count(*) FROM records").fetchone() == (2,)


def test_a_long_message_is_written_in_pieces_each_cut_after_a_line(monkeypatch):
    """h81b: `lusoria query | head -1` ended 0 where its other formats end 1: its table, one write, was taken in
    part by a pipe whose reader closed, and Python said nothing of the rest. Written in pieces, the next fails."""
    written: list[tuple[object, bool]] = []
    monkeypatch.setattr(click, "echo", lambda message, nl, **kwargs: written.append((message, nl)))
    table = "".join(f"{number:>9} a row of the table\n" for number in range(10_000))  # (290,000 characters)
    terminal.echo(table, nl=False)
    assert "".join(piece for piece, _ in written) == table and [nl for _, nl in written] == [False] * 5
    assert all(len(piece) <= 1 << 16 and piece.endswith("\n") for piece, _ in written)
    assert len(written[0][0]) == (1 << 16) // 29 * 29  # (the most whole lines a piece holds)
    written.clear()
    bytes_ = "é".encode() * (1 << 16)  # (no line's end: cut where it must be)
    terminal.echo(bytes_)
    assert [(len(piece), nl) for piece, nl in written] == [(1 << 16, False), (1 << 16, True)]  # type: ignore[arg-type]
    written.clear()
    terminal.echo("")
    assert written == [("", True)]


def test_a_piece_ends_after_the_last_line_end_it_holds_its_last_character_too(monkeypatch):
    """h82a: a line's end that is a piece's last character ends that piece: the piece holds the most whole lines,
    not those before an earlier line's end."""
    written: list[object] = []
    monkeypatch.setattr(click, "echo", lambda message, nl, **kwargs: written.append(message))
    terminal.echo("a\n" + "x" * ((1 << 16) - 3) + "\n" + "y\n", nl=False)
    assert [len(piece) for piece in written] == [1 << 16, 2]  # type: ignore[arg-type]


def test_a_table_into_a_pipe_closed_early_ends_as_the_other_formats_do(tmp_path):
    """h81b: `lusoria sql … | head -1` of a long table ended 0, its JSON 1. The reader here takes a line and closes
    the pipe while lusoria writes the first of several pieces (a pipe holds 64 KiB): the next write fails."""
    db = str(tmp_path / "a.db")
    assert CliRunner().invoke(main, ["import", "--db", db, ESCAPE]).exit_code == 0
    rows = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000) SELECT i, 'a row' FROM n"
    for format_ in ("table", "json"):
        command = [sys.executable, "-m", "lusoria.cli", "sql", "--db", db, rows, "--format", format_]
        with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as running:
            assert running.stdout is not None and running.stdout.readline()
            running.stdout.close()
            assert (running.wait(), running.communicate()[1]) == (1, b"")
