"""What the commands print stays proportionate and harmless: a long line is shown as a
window, diagnostics per record are capped, control characters from records are escaped on
a terminal, worker processes are capped, and odd filter values are usage errors."""

import io
import json
import os
import pty
import re
import subprocess
import sys
import unicodedata

import pytest
from click.testing import CliRunner
from conftest import ROOT
from hypothesis import given
from hypothesis import strategies as st

from lusoria import output
from lusoria.cli import MAX_SHOWN, cores, main
from lusoria.output import WINDOW, diagnostic_text, render, table_row
from lusoria.validator.replay import Diagnostic, check
from lusoria.workers import mapped


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def test_a_long_line_is_shown_as_a_window_around_the_column(tmp_path):
    path = tmp_path / "long.lgn"
    path.write_text('[Game "tablut"]\n' + "1. e3-c3 d1-d3 2. c3-e3 d3-d1 " * 2000 + "3. x9-x9 *\n")
    lines = run("validate", str(path)).output.splitlines()
    at = lines.index(f"{path}:2:60004: error[syntax]: found 'x9-x9': x9 is not a square of any tablut board (a1–i9)")
    line = path.read_text().splitlines()[1]
    assert lines[at + 1] == " 2 | …" + line[60003 - WINDOW :] and line[60003:] == "x9-x9 *"
    assert lines[at + 2] == "   | " + " " * (WINDOW + 1) + "^^^^^"


def test_a_long_line_is_shown_from_its_start_when_the_column_is_near_it():
    report = check('[Game "tablut"]\n' + "1. e3-c3 d1-d3 2. c3-e3 d3-d1 " * 10 + "*\n")
    line = report.source.text.splitlines()[1]
    near_start = Diagnostic("error", "T1", "a note on the first ply", text="e3-c3", line=2, column=4)
    assert diagnostic_text(report, near_start).splitlines()[1:] == [
        " 2 | " + line[: 3 + 5 + WINDOW] + "…",  # the column's 3 characters before it, its 5, WINDOW after them
        "   |    ^^^^^",
    ]


@pytest.mark.parametrize("length", [2 * WINDOW, 2 * WINDOW + 1])
def test_a_line_is_cut_once_it_is_longer_than_two_windows(length):
    """A line of two windows' characters is shown whole, one a character longer as a window (session 48's run: a
    line up to three windows long shown whole went unseen)."""
    plies = "1. e3-c3 d1-d3 2. c3-e3 d3-d1 " * 3
    comment = "{" + "c" * (length - len(plies) - 4) + "} *"
    report = check(f'[Game "tablut"]\n{plies}{comment}\n')
    line = report.source.text.splitlines()[1]
    near_start = Diagnostic("error", "T1", "a note on the first ply", text="e3-c3", line=2, column=4)
    shown = line if length == 2 * WINDOW else line[: 3 + 5 + WINDOW] + "…"
    assert len(line) == length
    assert diagnostic_text(report, near_start).splitlines()[1:] == [" 2 | " + shown, "   |    ^^^^^"]


def test_messages_to_a_file_or_a_pipe_keep_their_control_characters(tmp_path):
    """Standard error as standard output: escaped on a terminal only (CliRunner's streams are none)."""
    missing = str(tmp_path / "a\x1b[2Jb.lgn")
    result = run("validate", missing)
    assert (result.exit_code, result.stderr) == (2, f"lusoria: {missing}: no such file or directory\n")


def test_a_diagnostic_without_a_column_is_its_head_alone():
    """Column 0 (of a line as a whole, as the replay says a record's unknown game): no line shown, and
    no caret put before the line's start."""
    report = check('[Game "tablut"]\n1. e3-c3 *\n')
    whole_line = Diagnostic("warning", "tag", "a note on the whole record", line=1)
    assert diagnostic_text(report, whole_line) == "<text>:1:0: warning[tag]: a note on the whole record"
    at_column = Diagnostic("warning", "tag", "a note on the tag", text="Game", line=1, column=2)
    assert diagnostic_text(report, at_column).splitlines()[1:] == [' 1 | [Game "tablut"]', "   |  ^^^^"]


def test_a_record_of_no_file_is_named_alike_everywhere():
    """It was named five ways: `-:1` (a record failed on), `<text>:1`, `<stdin>` (a converted record)."""
    from lusoria import api
    from lusoria.notation.reader import RecordText
    from lusoria.output import located, where
    from lusoria.workers import place

    record = RecordText('[Game "tablut"]\n1. e3-c3 *\n')
    assert place(record) == where(record) == "<text>:1"
    assert located("", Diagnostic("error", "T1", "", line=2, column=4)) == "<text>:2:4"
    [duplicate] = api.duplicates([record.text, record.text])
    assert (duplicate.record, duplicate.of) == ("<text>:1", "<text>:1")
    assert (duplicate.record_place, duplicate.of_place) == (("", 1, None), ("", 1, None))  # (text: no path, no id)


def test_carets_count_the_columns_a_terminal_shows_not_the_characters():
    """'Björn' in NFD is 6 characters and 5 columns: its caret was 6 wide, and text after it was 1 too
    far right; a combining mark takes no column, an East Asian wide character two."""
    nfd = unicodedata.normalize("NFD", "Björn")
    report = check(f'[Game "tablut"]\n[White " {nfd}"]\n1. e3-c3 {{ {nfd} 王国 }} x1-x1 *\n')
    [syntax] = [d for d in report.diagnostics if d.rule == "syntax"]
    assert diagnostic_text(report, syntax).splitlines()[1:] == [
        f" 3 | 1. e3-c3 {{ {nfd} 王国 }} x1-x1 *",
        "   | "
        + " " * (11 + 5 + 1 + 4 + 3)
        + "^^^^^ did you mean f1-i1 or i4-i1?",  # `1. e3-c3 { `, Björn, a blank, 王国, ` } `
    ]
    [name] = [d for d in report.diagnostics if d.rule == "tag"]
    assert diagnostic_text(report, name).splitlines()[2] == f"   |         ^^^^^^ did you mean {nfd}?"  # (` Björn`)


def test_a_line_with_tabs_is_shown_with_each_tab_as_blanks_to_its_stop_and_the_caret_under_its_word():
    """A transcriber's tabs (`1.⇥e3c3`): the line is shown with each tab as the blanks to the next stop of
    8 columns, counted from the line's start, and the caret stands under the word a terminal shows (historian-48:
    it counted a tab as one column, and stood under the tab); a tab in the caret's span widens it."""
    report = check('[Game "tablut"]\n1. e3-c3\td1-d3\t2.\tc3c4 *\n')
    [syntax] = report.diagnostics
    assert diagnostic_text(report, syntax).splitlines()[1:] == [
        " 2 | 1. e3-c3        d1-d3   2.      c3c4 *",
        "   |                                 ^^^^ did you mean c3-c4?",
    ]
    wide = check('[Game "laquet"]\n1.\t31:\n\t4-7\t4-5 *\n')
    assert diagnostic_text(wide, wide.diagnostics[0]).splitlines()[1:] == [
        " 2 | 1.      31:",
        "   |         ^^^",
        " 3 |         4-7     4-5 *",
        "   |         ^^^^^^^^^^^ did you mean 31: 4/7\t4/5?",  # (its blanks kept as written)
    ]


def test_a_tab_stop_counts_the_columns_of_wide_characters_before_it_and_a_caret_past_the_line_moves_with_its_tabs():
    """The tabs' stops are counted in columns a terminal shows, a wide character two (`{王王王}`: 5 characters, 8
    columns), and a caret at or past a line's end (a record that ends without its result) stands after the line as
    shown, its tabs written as blanks (review-48h: neither was tested)."""
    report = check('[Game "tablut"]\n1. e3-c3 {王王王}\td1d3 *\n')
    assert diagnostic_text(report, report.diagnostics[0]).splitlines()[1:] == [
        " 2 | 1. e3-c3 {王王王}" + " " * 7 + "d1d3 *",  # 17 columns, then blanks to the stop at 24
        "   | " + " " * 24 + "^^^^ did you mean d1-d3?",
    ]
    unended = check('[Game "tablut"]\n1.\te3-c3\td1-d3\n')
    [diagnostic] = unended.diagnostics
    assert (diagnostic.rule, diagnostic.column) == ("syntax", 15)  # (a tab one column, as an editor counts it)
    assert diagnostic_text(unended, diagnostic).splitlines()[1:] == [
        " 2 | 1.      e3-c3   d1-d3",
        "   |                      ^",
    ]
    beyond = Diagnostic("error", "T1", "three columns past the line", text="x", line=2, column=18)
    assert diagnostic_text(unended, beyond).splitlines()[2] == "   | " + " " * 21 + "^"  # (past the line shown)


def test_a_caret_is_a_window_wide_at_most_and_an_assumption_and_the_empty_last_line_are_shown():
    """h82a: a diagnostic wider than WINDOW is underlined WINDOW columns wide; what its check assumed is said
    under it (`(assuming …)`); one placed on the empty line after a record's last line break shows that line.
    A format character (a zero width joiner) takes no column, a fullwidth letter two, as on a terminal."""
    from lusoria.output import columns

    movetext = "1. e3-c3 d1-d3 e4-e5 d9-d8 e5-e6 d8-d7 e6-e7 d7-d6 e7-e8 d6-d5 e8-e9 d5-d4 *"
    report = check(f'[Game "tablut"]\n{movetext}\n')
    wide = Diagnostic("error", "T1", "wide", text="x", line=2, column=1, width=len(movetext))
    assert diagnostic_text(report, wide).splitlines()[1:] == [f" 2 | {movetext}", "   | " + "^" * WINDOW]
    assumed = Diagnostic("error", "result", "assumed", text="x", line=2, column=1, assumed=("a result of *",))
    assert diagnostic_text(report, assumed).splitlines()[2:] == ["   | ^", "   | (assuming a result of *)"]
    last = Diagnostic("error", "T1", "at the end", text="x", line=3, column=1)
    assert diagnostic_text(report, last) == "<text>:3:1: error[T1]: at the end\n 3 | \n   | ^"
    assert (columns("a\u200db"), columns("\uff21\uff22"), columns("e\u0301")) == (2, 4, 1)


@pytest.mark.parametrize(
    "movetext, shown",
    [
        (  # a roll, and its plays written with hyphens on the next line, indented: each line underlined
            "1. 31:\n  4-7 4-5 *",
            ["  9 | 1. 31:", "    |    ^^^", " 10 |   4-7 4-5 *", "    |   ^^^^^^^ did you mean 31: 4/7 4/5?"],
        ),
        (  # a point off the board, the plays over two lines (historian-47)
            "1. 66: 7/13\n10/26 *",
            ["  9 | 1. 66: 7/13", "    |    ^^^^^^^^", " 10 | 10/26 *", "    | ^^^^^ did you mean 66: 7/13 10/16?"],
        ),
    ],
)
def test_a_slip_over_two_lines_is_underlined_on_both_as_its_fix_replaces_them(movetext, shown):
    """The caret marked the first line alone, and what the slip meant, which the editor's quick fix writes
    over both lines, followed it there; the line numbers of both are aligned (9, 10)."""
    report = check('[Game "laquet"]\n' + "\n" * 7 + f"{movetext}\n")
    [slip] = report.diagnostics
    assert diagnostic_text(report, slip).splitlines()[1:] == shown


def test_the_last_line_of_a_text_without_a_line_break_after_it_is_shown_whole():
    report = check('[Game "tablut"]\n1. e3-d2 *')
    assert diagnostic_text(report, report.diagnostics[0]).splitlines()[1] == " 2 | 1. e3-d2 *"


def test_output_grows_linearly_with_the_input(tmp_path):
    """Once, each diagnostic reprinted its whole line: a 55 KB line printed 400 MB."""
    path = tmp_path / "variations.lgn"
    path.write_text('[Game "tablut"]\n1. e3-c3 ' + "(1. e3-e9) " * 300 + "*\n")
    result = run("validate", str(path))
    assert len(result.output) < 25_000  # 50 diagnostics of about 270 characters; once 2 MB
    assert f"and {300 - MAX_SHOWN} more diagnostics in this record (--json lists all)" in result.output
    verdict = json.loads(run("validate", "--json", str(path)).output)
    assert len(verdict["diagnostics"]) == 300


HOSTILE = '[Game "tablut"]\n[White "\x1b]0;PWNED\x07"]\n[Black "\x9b31m\u202eevil"]\n1. e3-c3 e3-e4\x1b[2J *\n'


def test_control_characters_are_escaped_on_a_terminal(tmp_path):
    path = tmp_path / "escapes.lgn"
    path.write_text(HOSTILE)
    db = str(tmp_path / "a.db")
    assert run("import", "--db", db, str(path)).exit_code == 0
    commands = [
        ["validate", str(path)],
        ["query", "--db", db],
        ["stats", "--db", db],
        ["sql", "--db", db, "SELECT white, black FROM records"],
    ]
    sections = on_a_terminal(commands)
    for args, shown in zip(commands, sections):
        assert "\x1b" not in shown and "\x9b" not in shown and "\x07" not in shown and "\u202e" not in shown, args
    _, query, stats, _ = sections
    assert "\\x1b]0;PWNED\\x07" in query and "\\x9b31m\\u202eevil" in stats
    assert run("query", "--db", db, "--format", "lgn").output == HOSTILE  # a pipe gets the records as they are


def test_each_control_character_is_escaped_to_the_ends_of_its_ranges_and_no_further():
    """h82a: `escape_controls` escapes C0 but tab and newline (vertical tab and the unit separator too),
    DEL and C1 to its last (\\x9f), both of the line and paragraph separators, the bidirectional embeddings
    and overrides and the isolates to their last (U+2069, which ends an isolate); the characters beside
    those ranges are text, as a no-break space is."""
    from lusoria.words import escape_controls

    controls = "\x00\x08\x0b\x1f\x7f\x80\x9f\u2028\u2029\u202a\u202e\u2066\u2069"
    assert escape_controls(controls) == (
        "\\x00\\x08\\x0b\\x1f\\x7f\\x80\\x9f\\u2028\\u2029\\u202a\\u202e\\u2066\\u2069"
    )
    text = "\t\n \x7e\xa0\u2027\u202f\u2065\u206a\u0100"
    assert escape_controls(text) == text


def test_what_the_system_says_of_an_error_is_said_in_lower_case_and_an_error_of_no_system_by_its_message():
    """h82a: `reason`: an OSError's strerror, lowered; one raised with a message alone (no errno, as a
    library's stream raises it) by that message, not None."""
    from lusoria.words import reason

    assert reason(FileNotFoundError(2, "No such file or directory")) == "no such file or directory"
    assert reason(OSError("Stream Closed By Its Reader")) == "stream closed by its reader"


def test_a_terminal_gone_is_written_to_no_more_and_a_stream_made_utf_8_keeps_its_error_handler(monkeypatch):
    """h82a: `WhileItTakes`: once a write fails (the terminal gone: EIO), nothing more is tried on it, a flush
    neither; `written_in_utf8`: a stream of another encoding is made UTF-8 with its own error handler."""
    from lusoria.terminal import WhileItTakes, written_in_utf8

    tried = []

    class Gone(io.StringIO):
        def write(self, text):
            tried.append(text)
            raise OSError(5, "Input/output error")

        def flush(self):
            tried.append("flush")

    bar = WhileItTakes(Gone())
    assert (bar.write("10%"), bar.write("20%")) == (3, 3)
    bar.flush()
    assert bar.gone and tried == ["10%"]
    stream = io.TextIOWrapper(io.BytesIO(), encoding="cp1252", errors="backslashreplace")
    monkeypatch.setattr(sys, "stdout", stream)
    written_in_utf8()
    assert (stream.encoding, stream.errors) == ("utf-8", "backslashreplace")


def test_fmt_writes_a_byte_it_does_not_decode_to_a_pipe_as_it_was_but_not_to_a_terminal(tmp_path):
    """fmt writes a record of a byte its encoding does not decode as its bytes (`api.bytes_as_read`); a
    byte 0x9B is a terminal's C1 escape (CSI): a terminal is shown the record's text, U+FFFD there."""
    path = tmp_path / "csi.lgn"
    path.write_bytes(b'[Game "tablut"]\n[White "\x9b31mevil"]\n\n1. e3-c3 *\n')
    (shown,) = on_a_terminal([["fmt", str(path)]])
    assert re.search('^\\[White "\ufffd31mevil"\\]\r$', shown, re.M)  # (the record, not only its error's line shown)
    assert "internal error" not in shown  # (review82: click 8.5 writes bytes to the escaping stream, a TypeError)
    assert CliRunner().invoke(main, ["fmt", str(path)]).stdout_bytes == path.read_bytes()


EVIL = "\x1b]0;PWNED\x07\x9b31m\u202e"  # a window title, a bell, a C1 escape, a right-to-left override
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
BAR = re.compile(r"\r|\x1b\[\?25[lh]")  # what import's progress bar writes to move the cursor
MARK = "@@@ lusoria "  # before each command's output
ALL_COMMANDS = """
import json, sys
MARK = sys.argv[2]
from lusoria.cli import main
for number, args in enumerate(json.loads(sys.argv[1])):
    print(f"{MARK}{number}", flush=True)
    try:
        main(args, prog_name="lusoria")
    except SystemExit:
        pass
"""


def on_a_terminal(commands: list[list[str]], cwd=ROOT, term: str | None = None) -> list[str]:
    """What each command prints when its standard input, output and error are a terminal (the
    commands run in turn in one process; `term`: its TERM, else this process's), from the mark that starts it to
    the next one."""
    leader, follower = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "-c", ALL_COMMANDS, json.dumps(commands), MARK],
        stdin=follower,
        stdout=follower,
        stderr=follower,
        cwd=cwd,
        env={**os.environ, **({"TERM": term} if term else {})},
    )
    os.close(follower)
    output = b""
    while chunk := _read(leader):
        output += chunk
    process.wait()
    os.close(leader)
    sections = output.decode().split(MARK)[1:]
    assert len(sections) == len(commands)
    return sections


def test_imports_progress_bar_moves_the_terminals_cursor_unescaped(tmp_path):
    """The bar writes to the terminal behind the escaping stream (`terminal.unescaped`): its own
    control characters move the cursor, none is shown as text."""
    [section] = on_a_terminal([["import", "--db", str(tmp_path / "a.db"), str(ROOT / "samples/tablut")]])
    assert "\r\x1b[?25limporting  [####################################]  100%\x1b[?25h\r\n" in section
    assert "\\x" not in section
    [dumb] = on_a_terminal([["import", "--db", str(tmp_path / "b.db"), str(ROOT / "samples/tablut")]], term="dumb")
    assert "\x1b" not in dumb and "importing" not in dumb  # (h81b: a terminal that moves no cursor shows none)
    assert dumb.endswith("skipped 0 duplicates\r\n")


GONE = """
import errno, sys
from lusoria.cli import main
class Gone:  # a terminal that goes away after the progress bar's first line (EIO, as a closed ssh session)
    encoding, errors, written = "utf-8", "strict", 0
    def isatty(self): return True
    def write(self, text):
        Gone.written += 1
        if Gone.written > 1: raise OSError(errno.EIO, "Input/output error")
        return len(text)
    def flush(self): pass
sys.stderr = Gone()
main(sys.argv[1:])
"""


def test_an_import_whose_terminal_goes_away_stores_every_record(tmp_path):
    """The progress bar's terminal gone (review73) stops the bar, not the import: it went on to store
    every record and say so, where it stored none and ended with exit 2."""
    db = tmp_path / "a.db"
    done = subprocess.run(
        [sys.executable, "-c", GONE, "import", "--db", str(db), str(ROOT / "samples")], capture_output=True, text=True
    )
    assert (done.returncode, done.stdout) == (
        0,
        f"{db}: added 81 records (67 invalid, 5 of them unparsable), skipped 0 duplicates\n",
    )


def hostile_folder(folder):
    """Records carrying EVIL wherever a command may show them: tags, comments, illegal plies and
    syntax errors (a diagnostic shows its line), rules that cannot be replayed, an OTN file, a
    file name."""
    folder.mkdir()
    (folder / "hostile.lgn").write_text(
        f'[Game "tablut"]\n[Event "{EVIL}"]\n[White "{EVIL}"]\n[Black "b{EVIL}"]\n[Date "2026.{EVIL}"]\n'
        f"1. e3-c3 {{{EVIL}}} d1-d3 2. e4-e3{EVIL} *\n\n"
        f'[Game "tablut"]\n[White "{EVIL}"]\n1. e3-c3 d1-d3 2. {EVIL} *\n\n'
        f'[Game "tablut"]\n[Rules "{EVIL}=1"]\n1. e3-c3 *\n\n'
        f'[Game "tablut"]\n[White "{EVIL}"]\n[Black "{EVIL}x"]\n1. e3-c3 d1-d3 *\n'
    )
    (folder / "hostile.otg").write_text(
        (ROOT / "tests/fixtures/formats/otn/resigned-from-a-position.otg")
        .read_text()
        .replace("Olof Berg", EVIL)
        .replace("2. Kc5-c8 ---", f"2. Kc5-c8 {EVIL}")
    )
    (folder / f"named{EVIL}.lgn").write_text(
        f'[Game "tablut"]\n[White "{EVIL}"]\n[Black "{EVIL}x"]\n1. e3-c3 d1-d3 *\n'
    )
    (folder / f"skipped{EVIL}.txt").write_text("not records\n")


def test_every_command_escapes_control_characters_on_a_terminal(tmp_path):
    """Every command, its messages and click's, run under a pseudo-terminal over records
    full of control characters: none reaches the terminal raw (lusoria.terminal.escaped)."""
    folder = tmp_path / "in"
    hostile_folder(folder)
    lgn, db = str(folder / "hostile.lgn"), str(tmp_path / "a.db")
    commands = [
        ["validate", str(folder)],
        ["validate", "--json", str(folder)],
        ["fmt", str(folder)],
        ["fmt", "--check", str(folder)],
        ["show", lgn],
        ["show", lgn, "--record", "2"],
        ["show", lgn, "--record", "3"],
        ["show", lgn, "--record", "3", "--format", "svg"],
        ["show", lgn, "--record", "3", "-o", str(folder / "x.lgn"), "--ply", "2"],
        ["html", lgn],
        ["rules", str(folder)],
        ["convert", "--to", "lgn", str(folder)],
        ["convert", "--to", "otn", "--output-dir", str(tmp_path / "otn"), str(folder)],
        ["import", "--db", db, str(folder)],
        ["query", "--db", db],
        ["query", "--db", db, "--format", "json"],
        ["query", "--db", db, "--format", "csv"],
        ["query", "--db", db, "--format", "lgn"],
        ["query", "--db", db, "--white", EVIL],
        ["sql", "--db", db, "SELECT white, black, text FROM records JOIN record_texts USING (id)"],
        ["sql", "--db", db, f"SELECT '{EVIL}' AS a, x'1b07' AS b"],
        ["duplicates", str(folder)],
        ["duplicates", "--db", db],
        ["stats", "--db", db],
        ["stats", "--db", db, "--json"],
        ["tree", "--db", db, "--from-id", "4", "--depth", "2"],
        ["players", "list", "--db", db],
        ["players", "list", "--db", db, "--format", "csv"],
        ["players", "crosstable", "--db", db],
        ["players", "crosstable", "--db", db, "--format", "csv"],
        ["players", "merge", "--db", db, EVIL, f"b{EVIL}"],
        ["export", "--db", db, "--format", "csv", str(tmp_path / "out")],
        ["explain", EVIL],
        ["random", "--game", EVIL],
        ["validate", str(tmp_path / f"missing{EVIL}")],
    ]
    sections = on_a_terminal(commands, cwd=tmp_path)
    for section in sections:
        raw = RAW.findall(BAR.sub("", section).replace("\r\n", "\n"))
        assert raw == [], (commands[int(section.split()[0])], section[:2000])
    escaped = EVIL.encode("unicode_escape").decode().replace("\\u202e", "\\u202e")
    assert escaped == "\\x1b]0;PWNED\\x07\\x9b31m\\u202e"
    assert sum(escaped in section for section in sections) >= 20  # the records were shown, escaped


def test_commands_write_only_through_the_terminal_module():
    """click.echo strips escape sequences from records written to a file or a pipe unless told
    not to: lusoria.terminal.echo is the one writer of the commands."""
    for path in (ROOT / "lusoria").glob("*.py"):
        if path.name != "terminal.py":
            assert "click.echo(" not in path.read_text("utf-8") and "click.secho(" not in path.read_text("utf-8"), path


def _read(descriptor: int) -> bytes:
    """What a pseudo-terminal has written next; b"" once its last writer is gone."""
    try:
        return os.read(descriptor, 65536)
    except OSError:
        return b""


@pytest.fixture
def started(monkeypatch) -> list[int]:
    """The jobs each run of the worker pool is given, its work done in this process."""
    given: list[int] = []

    def in_one_process(function, items, jobs, ahead=0):
        given.append(jobs)
        return mapped(function, items)

    monkeypatch.setattr("lusoria.api.in_workers", in_one_process)
    monkeypatch.setattr("lusoria.archive.records_as_rows.in_workers", in_one_process)
    return given


def test_jobs_are_capped_at_the_cores_unless_forced(started, tmp_path):
    run("validate", "-j", "400", str(ROOT / "samples/tablut"))
    run("validate", "-j", "400", "--force-jobs", str(ROOT / "samples/tablut"))
    run("import", "--db", str(tmp_path / "a.db"), "--force-jobs", "-j", "3", str(ROOT / "samples/tablut"))
    run("import", "--db", str(tmp_path / "a.db"), str(ROOT / "samples/tablut"))
    assert started == [cores(), 400, 3, cores()]
    assert run("validate", "-j", "1025", "--force-jobs", str(ROOT / "samples/tablut")).exit_code == 2


def test_jobs_are_one_worker_where_the_cores_are_unknown(started, monkeypatch):
    """os.cpu_count() is None where the platform cannot tell: --jobs is capped at one, not an error."""
    monkeypatch.setattr(os, "cpu_count", lambda: None)
    monkeypatch.delattr(os, "sched_getaffinity", raising=False)  # (macOS, Windows: no affinity to ask)
    result = run("validate", "-j", "4", str(ROOT / "samples/tablut/escape.lgn"))
    assert (result.exit_code, started) == (0, [1])


def test_jobs_are_capped_at_the_cores_the_process_is_bound_to(started, monkeypatch):
    """h81b: under `taskset -c 0`, or a container's cpuset, --jobs took the machine's cores (eight workers on one)."""
    monkeypatch.setattr(os, "cpu_count", lambda: 8)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {3}, raising=False)
    assert run("validate", str(ROOT / "samples/tablut/escape.lgn")).exit_code == 0
    assert run("validate", "-j", "4", str(ROOT / "samples/tablut/escape.lgn")).exit_code == 0
    assert started == [1, 1]


@pytest.mark.parametrize(
    "option, value, message",
    [
        ("--text", "   ", "--text needs at least one word"),
        (
            "--date-from",
            "-",
            "a date filter is YYYY, YYYY.MM or YYYY.MM.DD (a PGN date: ?? for an unknown part), or "
            "YYYY-MM or YYYY-MM-DD; not '-'",
        ),
        ("--date-to", "2026-02-30", "'2026-02-30' names no real day"),
        ("--result", "draw", "Invalid value for '--result': 'draw' is not one of '1-0', '0-1', '1/2-1/2', '*'."),
    ],
)
def test_odd_filter_values_are_usage_errors(option, value, message, tmp_path):
    db = str(tmp_path / "a.db")
    run("import", "--db", db, str(ROOT / "samples/tablut"))
    result = run("query", "--db", db, option, value)
    assert result.exit_code == 2 and message in result.output


def test_an_iso_date_filter_still_works(tmp_path):
    db = str(tmp_path / "a.db")
    run("import", "--db", db, str(ROOT / "samples/tablut"))
    assert run("query", "--db", db, "--date-from", "2026-01-01", "--format", "csv").output.count("\n") > 1


def test_rows_keep_their_numbers_and_say_an_infinity_in_words(tmp_path):
    """JSON has no infinity: SQLite's is written as JSON's word for it, and a finite float stays a number."""
    db = str(tmp_path / "a.db")
    run("import", "--db", db, str(ROOT / "samples/tablut/escape.lgn"))
    shown = run("sql", "--db", db, "--format", "json", "SELECT 1.5 AS half, 9e999 AS big, -9e999 AS small")
    assert json.loads(shown.output) == [{"half": 1.5, "big": "Infinity", "small": "-Infinity"}]
    assert (
        run("sql", "--db", db, "--format", "csv", "SELECT 1.5 AS half, 9e999 AS big").output
        == "half,big\n1.5,Infinity\n"
    )


def test_rows_as_json_write_their_letters_as_they_are(tmp_path):
    db = str(tmp_path / "a.db")
    run("import", "--db", db, str(ROOT / "samples/tablut/escape.lgn"))
    shown = run("sql", "--db", db, "--format", "json", "SELECT 'Åsa Öberg' AS white")
    assert shown.output == '[\n  {\n    "white": "Åsa Öberg"\n  }\n]\n'  # (not "\\u00c5sa \\u00d6berg")


def test_validate_json_writes_names_as_they_are_and_the_tree_is_laid_out_as_the_rows_are(tmp_path):
    """h82a: `validate --json` writes a record's letters as they are (`"Jöns"`, not `"J\\u00f6ns"`), as the
    rows do; `tree --format json` is laid out as every JSON output, two spaces a level."""
    path = tmp_path / "names.lgn"
    path.write_text('[Game "tablut"]\n[White "Jöns"]\n[Black "Åsa"]\n\n1. e3-c3 d1-d3 *\n', encoding="utf-8")
    assert '"white": "Jöns", "black": "Åsa"' in run("validate", "--json", str(path)).stdout
    db = str(tmp_path / "a.db")
    assert run("import", "--db", db, str(path)).exit_code == 0
    tree = run("tree", "--db", db, "--format", "json", "--depth", "1").stdout
    assert tree.startswith('[\n  {\n    "ply": "e3-c3",\n') and tree == json.dumps(json.loads(tree), indent=2) + "\n"


SCALARS = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text()


ROWS = st.lists(st.text(), max_size=4, unique=True).flatmap(
    lambda columns: st.lists(st.tuples(*[SCALARS] * len(columns)).map(lambda row: dict(zip(columns, row))), max_size=3)
)


@given(ROWS)
def test_rows_as_json_are_laid_out_as_json_indents_them(rows):
    """Each row is written by json's C encoder, with separators that lay it out as `indent=2` does."""
    assert render(rows, "json") == json.dumps(rows, indent=2, ensure_ascii=False) + "\n"


def test_stats_as_json_holds_the_figures(tmp_path):
    db = str(tmp_path / "a.db")
    run("import", "--db", db, str(ROOT / "samples/tablut/escape.lgn"))
    figures = json.loads(run("stats", "--db", db, "--json").output)
    assert (figures["records"], figures["valid"], figures["plies"]) == (1, 1, {"mean": 9.0, "median": 9.0, "max": 9})
    assert figures["endings"] == [{"value": "king escaped", "records": 1}] and figures["first_error_rules"] == []


def test_a_file_name_that_is_not_utf8_is_imported_with_the_others(tmp_path):
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "plain.lgn").write_bytes((ROOT / "samples/tablut/escape.lgn").read_bytes())
    with open(os.path.join(os.fsencode(folder), b"caf\xe9.lgn"), "wb") as handle:
        handle.write((ROOT / "samples/tablut/linnaeus.lgn").read_bytes())
    db = str(tmp_path / "a.db")
    result = run("import", "--db", db, str(folder))
    assert result.exit_code == 0 and "added 2 records" in result.output
    paths = run("sql", "--db", db, "--format", "csv", "SELECT path FROM records ORDER BY path").output
    assert paths.splitlines()[1:] == [f"{folder}/caf\\xe9.lgn", f"{folder}/plain.lgn"]


PEAK = """
import sys
from lusoria.cli import main
try:
    main(sys.argv[1:])
finally:
    print(next(line.split()[1] for line in open("/proc/self/status") if line.startswith("VmHWM:")), file=sys.stderr)
"""


@pytest.fixture(scope="module")
def own_cache(tmp_path_factory) -> dict[str, str]:
    """The environment of the measured commands: a cache of the grammars' tables of their own,
    built before any is measured (a cold cache, or one another test rebuilds meanwhile, weighs
    some 500 KB in the peak of the command that builds it)."""
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path_factory.mktemp("cache"))}
    peak_kib(env, "fmt", str(ROOT / "samples/tablut/linnaeus.lgn"))
    return env


def peak_kib(env: dict[str, str], *args: str) -> int:
    """The peak resident memory of a command run in `env`, its output thrown away: its VmHWM, the
    high-water mark of its own memory (getrusage's maxrss starts at what the process that started
    it held, a pytest worker's hundred MB, which hid every peak below it)."""
    done = subprocess.run(
        [sys.executable, "-c", PEAK, *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env=env,
    )
    return int(done.stderr.split()[-1])


def two_sizes(tmp_path) -> tuple[str, str]:
    """Files of 3 MB and 6 MB of records: a command's memory grows with its first 2 MB (buffers,
    bounded caches), 3.5 MB up to 2 MB and 200 KB from 2 MB to 5 MB, when it streams; both sizes
    lie past that growth, whose peak moves by a step of about 1 MiB as an unrelated edit shifts
    the memory's layout (2 MB against 4 MB gave 470 to 2,120 KiB, over the limit at times). Each
    record is a game of nine plies with a long comment, 10 KB, which a command reads quickly (30 s
    for the two sizes of a game of 430 bytes, 8 s of 2.5 KB, half that of these) but holds as long if it
    holds records (fmt 12 MB more for the 3 MB more, when it held them)."""
    game = (ROOT / "samples/tablut/linnaeus.lgn").read_text()
    tags, _, movetext = game.partition("\n\n")
    record = f"{tags}\n\n{{{'A note of the game, as long as a transcriber writes it. ' * 160}}}\n{movetext}"
    small, large = tmp_path / "small.lgn", tmp_path / "large.lgn"
    small.write_text("\n".join([record] * (3_000_000 // len(record))))
    large.write_text("\n".join([record] * (6_000_000 // len(record))))
    return str(small), str(large)


@pytest.mark.slow
def test_fmt_streams_its_records(tmp_path, own_cache):
    """fmt once held the whole input and output: 108 MB took 390 MB."""
    small, large = two_sizes(tmp_path)
    # KiB, for 3 MB more input (which, held, weighs 6 MB and more)
    assert peak_kib(own_cache, "fmt", large) - peak_kib(own_cache, "fmt", small) < 2_000


@pytest.mark.slow
def test_convert_streams_its_records(tmp_path, own_cache):
    """convert once held every record and its replay: 3.5 MB took 332 MB."""
    small, large = two_sizes(tmp_path)
    more, less = (peak_kib(own_cache, "convert", "--to", "lgn", path) for path in (large, small))
    assert more - less < 2_000


def test_sql_json_streams_its_rows(tmp_path, own_cache):
    """query --format json once held every row: 160k rows took 921 MB."""
    db = str(tmp_path / "a.db")
    run("import", "--db", db, str(ROOT / "samples/tablut"))
    rows = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n LIMIT {}) SELECT i, hex(i) AS t FROM n"
    few, many = (
        peak_kib(own_cache, "sql", "--db", db, "--format", "json", rows.format(count)) for count in (10, 100_000)
    )
    assert many - few < 10_000


def test_an_escaping_stream_counts_the_characters_it_was_given():
    """As a text stream's write does: what the caller wrote, not the longer escaped text."""
    from lusoria.terminal import Escaping

    terminal = io.StringIO()
    assert Escaping(terminal).write("a\x1b[2Jb") == 6 and terminal.getvalue() == "a\\x1b[2Jb"


def test_query_s_table_shows_a_path_relative_to_the_current_folder_unless_it_is_the_root():
    """Under the current folder: relative to it; elsewhere, already relative, or run from the root
    (`work/games/a.lgn` would read as a path under some folder): as stored."""
    row = {"id": 1, "path": "/work/games/a.lgn", "first_message": None}
    shown = {here: table_row(row, here)["path"] for here in ("/work/games", "/work", "/work/other", "/")}
    assert shown == {"/work/games": "a.lgn", "/work": "games/a.lgn", "/work/other": row["path"], "/": row["path"]}
    assert table_row({**row, "path": "games/a.lgn"}, "/work")["path"] == "games/a.lgn"


def test_a_table_past_its_bound_is_refused_naming_the_formats_that_stream(tmp_path, monkeypatch):
    """h82a: MAX_TABLE (64 Mi characters, each row's values counted) was untested: a table past it is refused as
    given, not sized in memory; CSV, which streams, writes every row; a table at the bound is written."""
    assert output.MAX_TABLE == 64 * 1024 * 1024  # (docs/robustness.md: 64 Mi characters)
    rows = [{"white": "A" * 1_000, "plies": 12}, {"white": None, "plies": 3}]  # (1,002, 4 + 1 characters: 1,007)
    monkeypatch.setattr(output, "MAX_TABLE", 1_007)
    assert render(rows, "table").splitlines()[-1].split() == ["3"]  # (None counted as "None", shown blank)
    monkeypatch.setattr(output, "MAX_TABLE", 1_006)
    with pytest.raises(ValueError, match="^a table of more than 1,006 characters of values; the formats json, csv"):
        render(rows, "table")
    assert render(rows, "csv") == f"white,plies\n{'A' * 1_000},12\n,3\n"
    db = str(tmp_path / "club.db")
    assert run("import", "--db", db, str(ROOT / "samples/tablut")).exit_code == 0
    monkeypatch.setattr(output, "MAX_TABLE", 100)
    refused = run("query", "--db", db)
    assert (refused.exit_code, refused.output.splitlines()[-1]) == (
        2,
        "Error: a table of more than 100 characters of values; the formats json, csv and lgn write rows as they "
        "come, and have no bound",
    )
    assert run("query", "--db", db, "--format", "csv").output.count("\n") == 5  # (its header and 4 records)
