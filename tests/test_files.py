"""Files are written whole or not at all (`fmt --write`, every `-o`), never over an input of
the same command; what cannot be read or written is a clear error with exit status 2."""

import codecs
import io
import json
import os
import sqlite3
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import ROOT

from lusoria import files
from lusoria.api import convert, diagrams, random_records, records, validate
from lusoria.archive import Archive
from lusoria.cli import main
from lusoria.files import AtomicFile
from lusoria.notation.sources import CHUNK, Unreadable, advised, shown_path
from lusoria.notation.syntax import Undecodable
from lusoria.validator.replay import check
from lusoria.words import COMMAND, PAGE

# A file size limit makes every write past it fail as on a full disk (EFBIG instead of ENOSPC).
FULL_DISK = """
import resource, signal, sys
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
resource.setrlimit(resource.RLIMIT_FSIZE, (int(sys.argv[1]), int(sys.argv[1])))
from lusoria.cli import main
main(sys.argv[2:])
"""


def on_a_full_disk(limit: int, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", FULL_DISK, str(limit), *args], capture_output=True, text=True)


def run(*args: str):
    return CliRunner().invoke(main, list(args))


@pytest.fixture
def untidy(tmp_path):
    """300 records, not in canonical form (one ply a line), read-write for the owner only."""
    records = [
        text.replace("\n\n", "\n\n\n").replace(". ", ".\n")
        for text in random_records("tablut", 300, seed=4, max_plies=20)
    ]
    path = tmp_path / "untidy.lgn"
    path.write_text("\n".join(records))
    path.chmod(0o640)
    return path


@pytest.mark.skipif(os.name == "nt", reason="Windows has no signal that asks whether a process runs")
def test_a_temporary_file_of_a_writer_killed_is_removed_when_its_folder_is_written_again(tmp_path):
    """h81b: a killed `html --output-dir` left its temporary page (`.game-000000.html.….tmp`) among the pages
    published, for good; a run that writes in that folder again removes, once, lusoria's of writers that no longer
    run, left unchanged for an hour, and leaves those of one that runs, a file changed within the hour (a writer of
    another machine or container, whose process id says nothing here: review81) and any other file
    (`.thesis.2024.draft.tmp`, a name not lusoria's)."""
    ended = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    dead = ended.stdout.strip()
    killed, fresh = f".game-000000.html.lusoria-{dead}.q1vetvi8.tmp", f".game-000001.html.lusoria-{dead}.q1vetvi9.tmp"
    running = f".index.html.lusoria-{os.getpid()}.k2c4x9ab.tmp"
    others = [".thesis.2024.draft.tmp", f".notes.{dead}.a1b2c3d4.tmp", "game-000000.html"]
    for name in (killed, fresh, running, *others):
        (tmp_path / name).write_text("")
    an_hour_ago = time.time() - files.LEFT_FOR - 60
    for name in (killed, running, *others):
        os.utime(tmp_path / name, (an_hour_ago, an_hour_ago))
    with AtomicFile(str(tmp_path / "index.html")) as written:
        assert written.temporary.startswith(str(tmp_path / f".index.html.lusoria-{os.getpid()}."))
        written.commit()
    assert sorted(os.listdir(tmp_path)) == sorted([fresh, running, *others, "index.html"])
    (tmp_path / killed).write_text("")  # (swept once a process: 4,000 pages written in one folder list it once)
    os.utime(tmp_path / killed, (an_hour_ago, an_hour_ago))
    with AtomicFile(str(tmp_path / "index.html")) as written:
        written.commit()
    assert killed in os.listdir(tmp_path)


@pytest.mark.parametrize("name", ["a" * 250, "é" * 127])
def test_a_file_of_a_long_name_is_written_through_a_temporary_file_of_a_name_cut_short(tmp_path, name):
    """h80c: a page of a long name (a round's file of a long name, published) was not written: its temporary
    file's name, the page's and more, held over the 255 bytes a name may hold (`File name too long`)."""
    with AtomicFile(str(tmp_path / name)) as written:
        assert len(os.fsencode(os.path.basename(written.temporary))) <= 255
        written.write("x")
        written.commit()
    assert os.listdir(tmp_path) == [name] and (tmp_path / name).read_text() == "x"


def test_fmt_write_on_a_full_disk_leaves_the_file_as_it_was(untidy):
    before = untidy.read_bytes()
    done = on_a_full_disk(len(before) // 2, "fmt", "--write", str(untidy))
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert f"lusoria: cannot write {untidy}: file too large" in done.stderr
    assert untidy.read_bytes() == before
    assert os.listdir(untidy.parent) == ["untidy.lgn"]  # no temporary file left behind


def test_fmt_write_replaces_the_file_whole_and_keeps_its_permissions(untidy):
    assert run("fmt", "--write", str(untidy)).exit_code == 0
    assert stat.S_IMODE(untidy.stat().st_mode) == 0o640
    assert run("fmt", "--check", str(untidy)).exit_code == 0
    assert untidy.read_text().count('[Game "tablut"]') == 300
    assert os.listdir(untidy.parent) == ["untidy.lgn"]


def test_fmt_write_rewrites_nothing_in_canonical_form(untidy):
    run("fmt", "--write", str(untidy))
    written = untidy.stat().st_mtime_ns, untidy.stat().st_ino
    assert run("fmt", "--write", str(untidy)).exit_code == 0
    assert (untidy.stat().st_mtime_ns, untidy.stat().st_ino) == written


def test_the_temporary_files_descriptor_goes_at_once_committed_or_not(tmp_path):
    """A commit closes the temporary file before renaming it, and leaving the block without one
    closes it before removing it: its descriptor is not held until the writer is collected."""
    target = tmp_path / "out.txt"
    with AtomicFile(str(target)) as output:
        output.write("text")
        output.commit()
        assert output.file.closed
    with AtomicFile(str(target)) as dropped:
        dropped.write("half")
    assert dropped.file.closed
    assert target.read_text() == "text" and os.listdir(tmp_path) == ["out.txt"]


@pytest.mark.parametrize("command", ["show", "html"])
def test_output_never_overwrites_the_input(command, tmp_path):
    path = tmp_path / "game.lgn"
    path.write_bytes((ROOT / "samples/tablut/escape.lgn").read_bytes())
    link = tmp_path / "link.lgn"
    link.symlink_to(path)
    for output in (path, link):
        result = run(command, str(path), "-o", str(output))
        assert result.exit_code == 2 and "is an input of this command" in result.output
    assert path.read_bytes() == (ROOT / "samples/tablut/escape.lgn").read_bytes()


@pytest.mark.parametrize("command", ["show", "html"])
def test_output_on_a_full_disk_leaves_the_old_output(command, tmp_path):
    output = tmp_path / "out"
    output.write_text("old")
    done = on_a_full_disk(100, command, str(ROOT / "samples/tablut/escape.lgn"), "-o", str(output))
    assert done.returncode == 2 and f"lusoria: cannot write {output}: file too large" in done.stderr
    assert "Traceback" not in done.stderr and output.read_text() == "old"


def test_output_through_a_dangling_symlink(tmp_path):
    link = tmp_path / "drawing.svg"
    link.symlink_to(tmp_path / "target.svg")
    assert run("show", str(ROOT / "samples/tablut/escape.lgn"), "--format", "svg", "-o", str(link)).exit_code == 0
    assert link.is_symlink() and (tmp_path / "target.svg").read_text().startswith("<svg")
    nowhere = tmp_path / "nowhere.svg"
    nowhere.symlink_to(tmp_path / "missing" / "target.svg")
    result = run("show", str(ROOT / "samples/tablut/escape.lgn"), "-o", str(nowhere))
    assert result.exit_code == 2 and f"lusoria: cannot write {nowhere}: no such file or directory" in result.output


@pytest.mark.parametrize("command", ["show", "html"])
def test_a_missing_file_exits_2(command, tmp_path):
    result = run(command, str(tmp_path / "missing.lgn"))
    assert result.exit_code == 2 and "missing.lgn: no such file or directory" in result.output


@pytest.mark.skipif(not os.path.exists("/proc/self/mem"), reason="Linux only")
def test_a_file_that_fails_to_read_is_an_input_error():
    for args in (["validate", "/proc/self/mem"], ["fmt", "/proc/self/mem"], ["show", "/proc/self/mem"]):
        result = run(*args)
        assert result.exit_code == 2 and "lusoria: /proc/self/mem: input/output error" in result.output, args


@pytest.mark.parametrize(
    "encoding, message",
    [
        ("bogus", "unknown encoding 'bogus' (e.g. utf-8, latin-1, cp1252)"),
        ("rot13", "'rot13' is not a text encoding"),
        ("hex", "'hex' is not a text encoding"),
    ],
)
def test_encodings_are_checked(encoding, message):
    """As the option's value, before a file is read (Python's own error names `codecs.open()`)."""
    for command in ("validate", "fmt", "rules", "show"):
        result = run(command, "--encoding", encoding, str(ROOT / "samples/tablut/escape.lgn"))
        assert result.exit_code == 2, command
        assert result.output.endswith(f"\nError: Invalid value for '--encoding': {message}\n"), command


READING_COMMANDS = (
    ["validate"],
    ["show"],
    ["html"],
    ["convert", "--to", "otn"],
    ["fmt"],
    ["fmt", "--check"],
    ["rules"],
    ["duplicates"],
    ["import", "--db", "a.db"],
)
RECORD = '[Game "tablut"]\n[Event "Ã"]\n1. e3-c3 *\n'  # line 2 holds a character of two bytes in UTF-8


UNDECODABLE_SAID = {  # what a command says before the error of a record it could not read
    "validate": "error[syntax]: ",
    "fmt": "error[syntax]: ",
    "show": "record 0: cannot be replayed: error[syntax]: ",
    "html": "record 0: cannot be replayed: error[syntax]: ",
    "rules": "record 0: cannot be replayed: error[syntax]: ",
    "convert": "record 0 not converted: error[syntax]: ",
}


def test_a_cp1252_file_is_told_to_try_cp1252_first_and_warned_of_control_characters_read_as_latin_1(tmp_path):
    """Newcomer-56a: `Œdipe – “Le Roi”` saved as cp1252 was told `try --encoding latin-1 or cp1252`, and read
    as latin-1, whose controls 0x80-0x9F it is, validated with no word, the name stored without its letters.
    cp1252 is tried first now when its bytes are its letters (and it reads them all: 0x81 is none), and a tag
    of control characters is warned of, with what cp1252 reads."""
    path = tmp_path / "cp.lgn"
    path.write_bytes('[Game "tablut"]\n[White "Œdipe – “Le Roi”"]\n\n1. e3-c3 *\n'.encode("cp1252"))
    first = run("validate", str(path)).output
    assert "byte 0x8C is not valid utf-8 (3 more bytes that do not decode, on line 2)" in first
    assert first.splitlines()[0].endswith("the file's one game is not read; try --encoding cp1252 or latin-1")
    latin = run("validate", "--strict", "--encoding", "latin-1", str(path))  # (a warning, made an error)
    assert latin.exit_code == 1 and latin.output.startswith(
        f"{path}:2:9: error[tag]: White holds the control character U+008C, which no text writes: cp1252 read as "
        "latin-1, by this reading (--encoding cp1252) or before the file was written; as cp1252, 'Œdipe – “Le Roi”'\n"
    )
    assert run("validate", "--strict", "--encoding", "cp1252", str(path)).exit_code == 0
    for value, control in (("\x81\x8d", "0081"), ("Ō\x8cdipe", "008C")):  # (reviewer-57) what cp1252 does not read
        (warning,) = check(f'[Game "tablut"]\n[White "{value}"]\n\n1. e3-c3 *\n').diagnostics
        said = (warning.severity, warning.rule, warning.message, warning.column, warning.suggestions)
        assert said == ("warning", "tag", f"White holds the control character U+{control}, which no text writes", 9, ())
    accents = tmp_path / "latin.lgn"
    accents.write_bytes('[Game "tablut"]\n[White "François"]\n\n1. e3-c3 *\n'.encode("latin-1"))
    assert run("validate", str(accents)).output.splitlines()[0].endswith("try --encoding latin-1 or cp1252")


@pytest.mark.parametrize("command", READING_COMMANDS, ids=" ".join)
@pytest.mark.parametrize(
    "encoding, tries", [("cp1252", "latin-1"), ("ascii", "latin-1 or cp1252"), ("utf-8", "latin-1 or cp1252")]
)
def test_an_undecodable_byte_is_its_records_error_and_suggests_other_encodings_than_the_one_tried(
    tmp_path, monkeypatch, command, encoding, tries
):
    """0x81 is no character in cp1252: read so, the hint said `try --encoding latin-1 or cp1252`. The
    byte stopped its whole file (exit 2, `byte 24 (line 2) is not valid cp1252`): it is the error of
    its record, at its line and column (exit 1); duplicates and import keep such records as other
    records that do not parse, and import's summary counts those it could not read so."""
    monkeypatch.chdir(tmp_path)
    Path("a.lgn").write_bytes(RECORD.encode("latin-1").replace(b"\xc3", b"\x81"))
    result = run(*command, "--encoding", encoding, "a.lgn")
    said = f"byte 0x81 is not valid {encoding}: the file's one game is not read; try --encoding {tries}"
    if command[0] == "duplicates":
        assert result.exit_code == 0 and "byte" not in result.output
    elif command[0] == "import":
        assert result.exit_code == 0 and result.output.endswith(
            "; 1 record not read for a byte the encoding does not decode (lusoria validate says where, and which "
            "--encoding to try)\n"
        )
    else:
        assert result.exit_code == 1
        assert f"a.lgn:2:9: {UNDECODABLE_SAID[command[0]]}{said}" in result.output
    assert "byte 24" not in result.output  # (not a file that could not be read)


FORMATS = ROOT / "tests/fixtures/formats"
SAAMI_GAME = (
    '{"AageGameTypeName": "Historical Hnefatafl 9x9 (Saami Tablut)", "WhiteSidePlayerName": "%s", "Moves": "%s"}'
)
ANN = (SAAMI_GAME % ("Ann", "f1-f3")).encode()
TRIED = 'try encoding="latin-1" or encoding="cp1252"'  # as a library call's keyword (Diagnostic.advised)
ONE_BAD = f"the record is not read, the others are; {TRIED}"
ONE_GAME = f"the file's one game is not read; {TRIED}"


def three(lines: list[bytes]) -> bytes:
    """Three records, one a line, the second with Latin-1's é (0xE9) before its fifth character."""
    return b"\n".join([lines[0], lines[1][:4] + b"\xe9" + lines[1][4:], lines[2]]) + b"\n"


@pytest.mark.parametrize(
    "name, data, place, unread",  # place: line, column and byte
    [
        ("a.lgn", RECORD.encode() + b"\n" + RECORD.encode("latin-1") + b"\n" + RECORD.encode(), (6, 9, 0xC3), ONE_BAD),
        ("saami.txt", three((FORMATS / "tafl/saami.txt").read_bytes().split(b"\n")), (2, 5, 0xE9), ONE_BAD),
        ("brandubh.csv", three((FORMATS / "csv/brandubh.csv").read_bytes().split(b"\n")), (2, 5, 0xE9), ONE_BAD),
        (
            "in-a-string.json",
            b"[\n"
            + b",\n".join((SAAMI_GAME % (name, "f1-f3")).encode("latin-1") for name in "Ann Jörgen Bo".split())
            + b"\n]",
            (3, 90, 0xF6),
            ONE_BAD,
        ),
        (
            "between-values.json",  # breaks the JSON of its game, whose record ends at the next game's line
            b"[\n" + b",\n".join([ANN, ANN[:-1] + b" \xe9}", ANN]) + b"\n]",
            (3, len(ANN) + 1, 0xE9),
            ONE_BAD,
        ),
        ("one-game.json", (SAAMI_GAME % ("J\xf6rgen", "f1-f3")).encode("latin-1"), (1, 90, 0xF6), ONE_GAME),
        (
            "brandubh.otg",
            (FORMATS / "otn/brandubh.otg").read_bytes().replace(b"\n", b"\n\xe9", 1),
            (2, 1, 0xE9),
            ONE_GAME,
        ),
    ],
)
def test_a_byte_that_does_not_decode_stops_its_record_alone_in_every_format(tmp_path, name, data, place, unread):
    """Latin-1's é in a UTF-8 file stopped the whole file (`byte N (line L) is not valid utf-8`): the
    records before it and after it were lost. It is the error of the record that holds it, at its
    line and column; the others are read (an OTN file holds one game: it is that game's)."""
    (tmp_path / name).write_bytes(data)
    verdicts = list(validate([str(tmp_path / name)]))
    line, column, byte = place
    bad = [verdict for verdict in verdicts if verdict.diagnostics and verdict.diagnostics[0].line == line]
    assert [(d.rule, d.line, d.column, d.advised()) for d in bad[0].diagnostics] == [
        ("syntax", line, column, f"byte 0x{byte:02X} is not valid utf-8: {unread}")
    ]
    others = [verdict for verdict in verdicts if verdict is not bad[0]]
    assert len(others) == (0 if unread == ONE_GAME else 2) and all(verdict.valid for verdict in others)


def test_a_byte_that_does_not_decode_in_the_last_of_two_records_stops_it_as_one_of_the_files(tmp_path):
    """The last record is held until the file ends (is it the file's one game?): the second of two is not."""
    (tmp_path / "a.lgn").write_bytes(RECORD.encode() + b"\n" + RECORD.encode("latin-1"))
    first, second = validate([str(tmp_path / "a.lgn")])
    assert first.valid and [(d.line, d.column, d.advised()) for d in second.diagnostics] == [
        (6, 9, f"byte 0xC3 is not valid utf-8: {ONE_BAD}")
    ]


def test_a_tag_quoted_with_bytes_that_do_not_decode_stays_in_its_record(tmp_path):
    """h80c: Word's curly quotes in a cp1252 file (0x93, 0x94), read as UTF-8, made no tag line of their tag: the
    tags after it and the movetext were a second record "with no Game tag", the first said to be one of others."""
    path = tmp_path / "q.lgn"
    path.write_bytes(b'[Game "brandubh"]\r\n[White \x93Jens Holm\x94]\r\n[Black "Ole"]\r\n\r\n1. b4-b6 c4-c3 *\r\n')
    result = run("validate", str(path))
    assert (
        result.exit_code == 1
        and (
            f"{path}:2:8: error[syntax]: byte 0x93 is not valid utf-8 (1 more byte that does not decode, on line 2): "
            "the file's one game is not read; try --encoding cp1252 or latin-1\n"
        )
        in result.stdout
    )
    assert "1 record: 0 valid, 1 invalid" in result.stdout and "did you mean" not in result.stdout  # (review80b:
    # no tag offered with the bytes not decoded in its value, `[White "\ufffdJens Holm\ufffd"]`)


def test_a_byte_past_the_first_mebibyte_is_placed_exactly(tmp_path):
    """The text is decoded a mebibyte at a time: a byte's line and column count across pieces."""
    long_comment = "{" + "a" * (CHUNK + 10)  # its line goes on into the second piece
    plain = '[Game "tablut"]\n1. e3-c3 *\n'
    text = plain + "\n" * 3 + plain.replace("1. e3-c3", f"{long_comment}é}} 1. e3-c3")
    (tmp_path / "a.lgn").write_bytes(text.encode("latin-1"))
    first, second = validate([str(tmp_path / "a.lgn")])
    assert first.valid and [(d.line, d.column) for d in second.diagnostics] == [(7, len(long_comment) + 1)]


def test_import_keeps_the_other_records_and_the_one_not_read_as_a_record_that_does_not_parse(tmp_path):
    (tmp_path / "a.lgn").write_bytes(RECORD.encode() + b"\n" + RECORD.encode("latin-1") + b"\n" + RECORD.encode())
    result = run("import", "--db", str(tmp_path / "a.db"), str(tmp_path / "a.lgn"))
    assert (result.exit_code, result.output) == (
        0,
        f"{tmp_path / 'a.db'}: added 2 records (1 invalid, 1 of them unparsable), skipped 1 duplicate; 1 record not "
        "read for a byte the encoding does not decode (lusoria validate says where, and which --encoding to try)\n"
        f"{tmp_path / 'a.lgn'}:9: skipped, the same game as record 1\n",
    )
    rows = Archive(str(tmp_path / "a.db")).sql("SELECT line, valid, first_rule FROM records ORDER BY line")
    assert [tuple(row.values()) for row in rows] == [(1, 1, None), (5, 0, "syntax")]
    again = run("import", "--db", str(tmp_path / "a.db"), "--replace", str(tmp_path / "a.lgn"))  # (read as then)
    assert again.exit_code == 0 and "kept 2 unchanged, skipped 1 duplicate" in again.stdout


@pytest.mark.parametrize("name", [b"latin.lgn", b"caf\xe9.lgn"], ids=["latin.lgn", "a name not UTF-8"])
def test_a_file_imported_in_another_encoding_is_read_so_again_and_keeps_its_records_where_another_is_given(
    tmp_path, monkeypatch, name
):
    """A club imported its Latin-1 file with --encoding latin-1, then ran `import --replace` without it: each record
    was replaced by one not read, its names lost (U+FFFD). The archive keeps the encoding each record was read with:
    without --encoding, the file, which does not decode as UTF-8, is read as latin-1 again, said in a note. With
    another --encoding, the file is not read past the record it does not decode, said with the encodings to try (exit 2),
    and the archive keeps what it held; a file whose record was stored unread at its first import is read again as
    then (the test above)."""
    monkeypatch.chdir(tmp_path)
    latin = Path(os.fsdecode(name))  # (the archive holds it by its real path; its first record is plain ASCII)
    try:
        latin.write_bytes(b"")
    except (OSError, UnicodeEncodeError):
        pytest.skip("this file system takes no name that is not UTF-8")
    latin.write_bytes(b'[Game "tablut"]\n1. e3-c3 *\n\n' + RECORD.encode("latin-1") + b"\n" + RECORD.encode("latin-1"))
    db = "a.db"
    assert run("import", "--db", db, "--encoding", "latin-1", str(latin)).exit_code == 0
    columns = "SELECT id, event, valid, encoding FROM records"
    held = Archive(db).sql(columns)
    assert [tuple(row.values())[1:] for row in held] == [(None, 1, "latin-1"), ("Ã", 1, "latin-1")]
    for replace, summary in (([], "skipped 3 duplicates"), (["--replace"], "kept 2 unchanged, skipped 1 duplicate")):
        again = run("import", "--db", db, *replace, str(latin))
        assert (again.exit_code, again.stderr) == (
            0,
            f"lusoria: note: 1 file read as latin-1, as imported before, since it does not decode as UTF-8 "
            f"({shown_path(str(latin))}; --encoding reads it otherwise)\n",
        )
        assert summary in again.stdout and Archive(db).sql(columns) == held
    for replace in ([], ["--replace"]):
        again = run("import", "--db", db, *replace, "--encoding", "utf-8", str(latin))
        assert (again.exit_code, again.stderr) == (
            2,
            f"lusoria: {shown_path(str(latin))}:4: its encoding does not decode this record, which the archive holds read before with "
            "another encoding: the file is read no further, and keeps its records held; try --encoding latin-1 or "
            "cp1252\n",
        )
        assert Archive(db).sql(columns) == held


@pytest.mark.parametrize(
    ("name", "damage", "said"),
    [
        (
            "copenhagen.json",
            lambda data: data[:400],
            "copenhagen.json:17:9: broken JSON: the text ends before its JSON does (cut short?): a string not closed (no '\"' "
            "at its end); "
            "this record, which the archive holds read before, does not read as aage now (cut short or overwritten since, "
            "or read with another game or format than then)",
        ),
        (
            "brandubh.csv",
            lambda data: data[: data.index(b" e1-d1 e2-d2") + 8],
            "brandubh.csv:3:1: a line of a CSV move list is moves,defenders lost,attackers lost,status; the file ends "
            "inside this line, with no line break (cut short?); this record, which the archive holds read before, "
            "does not read as csv now (cut short or overwritten since, or read with another game or format than then)",
        ),
    ],
    ids=["a JSON cut short", "a CSV row overwritten"],
)
def test_a_file_of_another_format_damaged_since_its_import_keeps_its_records(tmp_path, monkeypatch, name, damage, said):
    """newcomer-58b: a download cut short replaced the archive's good record of it by its broken text under --replace
    (exit 0, said only in a note). A record of another format than lgn (written by a program, not by hand) that does
    not read now where the archive holds the record read there before: the file is read no further, said where and
    why (exit 2), and keeps its records held, with or without --replace (a CSV's rows before the one cut short are
    read, the same games as before)."""
    monkeypatch.chdir(tmp_path)
    Path(name).write_bytes(
        (ROOT / "tests/fixtures/formats" / Path(name).suffix[1:].replace("json", "aage") / name).read_bytes()
    )
    assert run("import", "--db", "a.db", "--game", "brandubh", name).exit_code == 0
    held = Archive("a.db").sql("SELECT * FROM records")
    Path(name).write_bytes(damage(Path(name).read_bytes()))
    for replace in ([], ["--replace"]):
        again = run("import", "--db", "a.db", *replace, "--game", "brandubh", name)
        assert again.exit_code == 2 and again.stderr.startswith(f"lusoria: {said}")
        assert again.stderr.endswith(": the file is read no further, and keeps its records held\n")
        assert Archive("a.db").sql("SELECT * FROM records") == held


def test_a_log_cut_within_a_board_since_its_import_keeps_its_record(tmp_path, monkeypatch):
    """Newcomer-59: a Tablut Challenge log cut within a board reads as its plies before, with a syntax error (it is no
    SyntaxProblem in place of the record), and replaced the archive's whole game by them under --replace (exit 0). A
    record that reads with a syntax error where the one held was read whole is misread: the file is read no further
    (exit 2) and keeps its record. A log imported cut keeps reading as it is (its record held is no whole one)."""
    monkeypatch.chdir(tmp_path)
    name = "Bianchi_vs_Neri_1763719200000_gameLog.txt"
    lines = (ROOT / "tests/fixtures/formats/tablut-challenge" / name).read_text().splitlines(keepends=True)
    third = [number for number, line in enumerate(lines, 1) if line.startswith("FINE: Stato:")][2]
    Path(name).write_text("".join(lines))
    assert run("import", "--db", "a.db", name).exit_code == 0
    held = Archive("a.db").sql("SELECT * FROM records")
    Path(name).write_text("".join(lines[: third + 3]))  # (3 of its 9 rows)
    again = run("import", "--db", "a.db", "--replace", name)
    assert (again.exit_code, again.stderr) == (
        2,
        f"lusoria: {name}:{third}:7: a board of 9 rows was expected after 'Stato:', found 3 (truncated log?); this "
        "record, which the archive holds read whole before, does not read whole as tablut-challenge now (cut short or "
        "overwritten since, or read with another game or format than then): the file is read no further, and keeps "
        "its records held\n",
    )
    assert Archive("a.db").sql("SELECT * FROM records") == held
    assert run("import", "--db", "cut.db", name).exit_code == 0
    again = run("import", "--db", "cut.db", "--replace", name)
    assert (again.exit_code, again.stdout) == (
        0,
        "cut.db: added 0 records (0 invalid, 0 of them unparsable), kept 1 unchanged, skipped 0 duplicates\n",
    )


def test_a_one_line_json_array_that_holds_a_game_read_with_an_error_is_imported_again_as_it_was(tmp_path):
    """review79b: the games of a one-line JSON array share a line, and one read whole there made the archive take the
    file's game read with a syntax error (a WhoWon of no side) for a game cut short since: importing the unchanged
    file again was refused (exit 2). A place is read whole when all its records held were."""
    game = {"AageGameTypeName": "Historical Hnefatafl 7x7 (Irish Brandubh 1)", "WhoMovedFirst": "black"}
    games = [game | {"Moves": ["d1-c1", "e4-e1"], "WhoWon": who} for who in ("Purple", "")]
    (tmp_path / "mini.json").write_text(json.dumps(games))
    path = str(tmp_path / "a.db")
    assert run("import", "--db", path, str(tmp_path / "mini.json")).exit_code == 0
    again = run("import", "--db", path, str(tmp_path / "mini.json"))
    assert again.exit_code == 0
    assert again.stdout.startswith(f"{path}: added 0 records (0 invalid, 0 of them unparsable), skipped 2 duplicates")


def test_a_file_of_another_format_emptied_since_its_import_keeps_its_records(tmp_path, monkeypatch):
    """Newcomer-59: a download that failed (0 bytes) was a file now empty, whose records `import --replace` removed
    (exit 0). A file now empty whose records held were read from another format than lgn (written by a program, not
    by hand) keeps them, said as a source not read (exit 2), named in a folder or alone; an lgn file emptied is an
    edit, its records removed (an export's too, whose records' SourceFormat tags name the format they came from)."""
    monkeypatch.chdir(tmp_path)
    fixtures = ROOT / "tests/fixtures/formats"
    os.mkdir("club")
    Path("club/game.json").write_bytes((fixtures / "aage/copenhagen.json").read_bytes())
    Path("club/log.txt").write_bytes(
        (fixtures / "tablut-challenge/Bianchi_vs_Neri_1763719200000_gameLog.txt").read_bytes()
    )
    Path("club/notes.lgn").write_text('[Game "tablut"]\n[SourceFormat "aage"]\n\n1. e3-c3 *\n')  # (as exported)
    assert run("import", "--db", "a.db", "club").exit_code == 0
    twice = run("import", "--db", "a.db", "club", "club/game.json")  # (met again: skipped, not empty)
    assert (twice.exit_code, "empty" in twice.stderr) == (0, False)
    for name in ("game.json", "log.txt", "notes.lgn"):
        Path("club", name).write_text("" if name == "game.json" else "\n \n")
    again = run("import", "--db", "a.db", "--replace", "club")
    assert (again.exit_code, again.stderr) == (
        2,
        "lusoria: club/game.json: an empty file now, where the archive holds records read from it as aage before (a "
        "download that failed?): it keeps its records held; removing the records of its path takes them out\n"
        "lusoria: club/log.txt: an empty file now, where the archive holds records read from it as tablut-challenge "
        "before (a download that failed?): it keeps its records held; removing the records of its path takes them "
        "out\n"
        "lusoria: club/notes.lgn: skipped, an empty file, no record\n",
    )
    assert again.stdout.startswith("a.db: removed 1 record of 1 file, added 0 records")
    held = Archive("a.db").sql("SELECT path FROM records ORDER BY path")
    assert [row["path"] for row in held] == ["club/game.json", "club/log.txt"]
    alone = run("import", "--db", "a.db", "--replace", "club/game.json")
    assert (alone.exit_code, alone.stderr.startswith("lusoria: club/game.json: an empty file now")) == (2, True)
    assert Archive("a.db").sql("SELECT count(*) AS n FROM records") == [{"n": 2}]
    removed = run("remove", "--db", "a.db", "--path", "club/game.json")
    assert (removed.exit_code, Archive("a.db").sql("SELECT path FROM records")) == (0, [{"path": "club/log.txt"}])


def test_a_file_mended_into_utf8_since_its_import_in_another_encoding_is_read_as_utf8(tmp_path, monkeypatch):
    """A file converted to UTF-8 since (iconv; `fmt --write` writes UTF-8 too): imported again, it is read so (no
    note) and its record kept as it was, with the encoding of the import that stored it. Beside it, a file of the same folder still in cp1252 is read as
    cp1252, and one never imported, which does not decode as UTF-8, is read as UTF-8 (its record not read)."""
    monkeypatch.chdir(tmp_path)
    os.mkdir("club")
    text = '[Game "tablut"]\n[White "Åke Ström"]\n[Black "{}"]\n\n1. e3-c3 *\n'
    for name in ("mended.lgn", "windows.lgn"):
        Path("club", name).write_bytes(text.format(name).encode("cp1252"))
    assert run("import", "--db", "a.db", "--encoding", "cp1252", "club").exit_code == 0
    Path("club", "mended.lgn").write_text(text.format("mended.lgn"), encoding="utf-8")
    Path("club", "new.lgn").write_bytes(text.format("new.lgn").encode("cp1252"))
    again = run("import", "--db", "a.db", "--replace", "club")
    assert again.stderr == (
        "lusoria: note: 1 file read as cp1252, as imported before, since it does not decode as UTF-8 "
        "(club/windows.lgn; --encoding reads it otherwise)\n"
    )
    assert "added 1 record (1 invalid, 1 of them unparsable), kept 2 unchanged" in again.stdout
    stored = Archive("a.db").sql("SELECT id, path, white, encoding FROM records ORDER BY id")
    assert [tuple(row.values()) for row in stored] == [
        (1, "club/mended.lgn", "Åke Ström", "cp1252"),
        (2, "club/windows.lgn", "Åke Ström", "cp1252"),
        (3, "club/new.lgn", None, None),
    ]


def test_a_record_kept_by_replace_takes_the_encoding_it_is_read_with_now(tmp_path, monkeypatch):
    """reviewer-58: a record kept by `import --replace` kept the encoding of the import that stored it, so an archive
    upgraded to version 21 (which knows no encoding of its records: NULL) never learnt that its Latin-1 file is
    Latin-1, and an import without --encoding read it as UTF-8. A record kept takes the encoding it is read with when
    another than UTF-8; one read as UTF-8 (plain ASCII) keeps the one it holds, which reads it the same."""
    monkeypatch.chdir(tmp_path)
    Path("cup.lgn").write_bytes('[Game "tablut"]\n[Event "Coupe d\'été"]\n\n1. e3-f3 *\n'.encode("latin-1"))
    assert run("import", "--db", "a.db", "--encoding", "latin-1", "cup.lgn").exit_code == 0
    with sqlite3.connect("a.db") as conn:
        conn.execute("UPDATE records SET encoding = NULL")  # (as an upgraded archive holds it)
    encoding = "SELECT id, event, encoding FROM records"
    again = run("import", "--db", "a.db", "--replace", "--encoding", "latin-1", "cup.lgn")
    assert "kept 1 unchanged" in again.stdout
    assert Archive("a.db").sql(encoding) == [{"id": 1, "event": "Coupe d'été", "encoding": "latin-1"}]
    assert "1 file read as latin-1, as imported before" in run("import", "--db", "a.db", "--replace", "cup.lgn").stderr
    assert "kept 1 unchanged" in run("import", "--db", "a.db", "--replace", "--encoding", "cp1252", "cup.lgn").stdout
    assert Archive("a.db").sql(encoding) == [{"id": 1, "event": "Coupe d'été", "encoding": "cp1252"}]
    Path("plain.lgn").write_text('[Game "tablut"]\n\n1. e3-c3 *\n', encoding="ascii")
    assert run("import", "--db", "a.db", "--encoding", "latin-1", "plain.lgn").exit_code == 0
    assert "kept 1 unchanged" in run("import", "--db", "a.db", "--replace", "plain.lgn").stdout  # (read as UTF-8)
    assert Archive("a.db").sql(encoding + " WHERE id = 2") == [{"id": 2, "event": None, "encoding": "latin-1"}]


def test_a_file_held_in_another_encoding_that_is_gone_is_said_unread_not_read_with_its_encoding(tmp_path, monkeypatch):
    """h79b: a Latin-1 file imported, then deleted, and named again: its import says it cannot read it, and no note
    that it was "read as latin-1, as imported before, since it does not decode as UTF-8" (a file that cannot be
    opened is none in another encoding)."""
    monkeypatch.chdir(tmp_path)
    Path("cup.lgn").write_bytes('[Game "tablut"]\n[Event "Coupe d\'été"]\n\n1. e3-f3 *\n'.encode("latin-1"))
    assert run("import", "--db", "a.db", "--encoding", "latin-1", "cup.lgn").exit_code == 0
    os.remove("cup.lgn")
    for replace in ([], ["--replace"]):
        again = run("import", "--db", "a.db", *replace, "cup.lgn")
        assert (again.exit_code, again.stderr) == (2, "lusoria: cup.lgn: no such file or directory\n"), replace
    assert Archive("a.db").sql("SELECT event, encoding FROM records") == [
        {"event": "Coupe d'été", "encoding": "latin-1"}
    ]


def test_a_file_moved_is_read_with_the_encoding_of_the_file_gone_by_its_name(tmp_path, monkeypatch):
    """reviewer-58: a cp1252 file moved (`mv club/skane.lgn moved/`) was read as UTF-8, since the encoding held is
    its old path's: its record was stored not read, and the summary advised removing the old file's records, the only
    ones read. A file the archive holds no record of, wholly in another encoding, is read with the encoding of the files
    of its name it holds (moved or copied; not of another name: `test_a_file_mended_into_utf8_since_its_import_…`);
    its record keeps its id and takes the new place. Of two such files read with two encodings, neither is chosen."""
    monkeypatch.chdir(tmp_path)
    for folder in ("club", "moved", "other"):
        os.mkdir(folder)
    Path("club", "skane.lgn").write_bytes('[Game "tablut"]\n[White "Åke Ström"]\n\n1. e3-c3 *\n'.encode("cp1252"))
    assert run("import", "--db", "a.db", "--encoding", "cp1252", "club").exit_code == 0
    os.rename("club/skane.lgn", "moved/skane.lgn")
    again = run("import", "--db", "a.db", "--replace", "club", "moved")
    assert (
        "1 file read as cp1252, as imported before, since it does not decode as UTF-8 (moved/skane.lgn" in again.stderr
    )
    assert "kept 1 unchanged" in again.stdout and "lusoria remove" not in again.output
    stored = "SELECT id, path, white, encoding FROM records"
    assert Archive("a.db").sql(stored) == [
        {"id": 1, "path": "moved/skane.lgn", "white": "Åke Ström", "encoding": "cp1252"}
    ]
    Path("other", "skane.lgn").write_bytes('[Game "tablut"]\n[White "Åke"]\n\n1. e3-f3 *\n'.encode("latin-1"))
    assert run("import", "--db", "a.db", "--encoding", "latin-1", "other").exit_code == 0
    assert "kept 1 unchanged" in run("import", "--db", "a.db", "--replace", "other").stdout  # (its own: latin-1)
    os.rename("other/skane.lgn", "other/kept.lgn")  # (the latin-1 file of that name gone too)
    os.rename("moved/skane.lgn", "club/skane.lgn")
    again = run("import", "--db", "a.db", "club")  # (two files gone of its name: cp1252 and latin-1)
    assert "read as" not in again.stderr and "1 of them unparsable" in again.stdout


def test_a_file_held_in_utf8_resaved_in_another_encoding_is_not_read_with_a_file_of_its_name(tmp_path, monkeypatch):
    """reviewer-59: a file held read as UTF-8, re-saved in Latin-1 by an editor, was read with the encoding of another
    file of its name (iso-8859-7): its record replaced by a garbled one, exit 0, with a note "as imported before". A
    file held is read with its own encoding; only a file held by no record is read with that of a file of its name
    that no longer exists (moved); a new file of a name another file holds, which exists, is read as UTF-8."""
    monkeypatch.chdir(tmp_path)
    for folder in ("club", "athens", "paris"):
        os.mkdir(folder)
    Path("athens/games.lgn").write_bytes('[Game "tablut"]\n[White "Νίκος"]\n\n1. e3-c3 *\n'.encode("iso-8859-7"))
    assert run("import", "--db", "a.db", "--encoding", "iso-8859-7", "athens").exit_code == 0
    Path("paris/games.lgn").write_bytes('[Game "tablut"]\n[White "Hélène"]\n\n1. d1-d2 *\n'.encode("latin-1"))
    new = run("import", "--db", "a.db", "paris")  # (athens/games.lgn exists: paris's is another file)
    assert "read as" not in new.stderr and "1 of them unparsable" in new.stdout
    Path("club/games.lgn").write_text('[Game "tablut"]\n[White "Renée"]\n\n1. e3-f3 *\n', encoding="utf-8")
    assert run("import", "--db", "a.db", "club").exit_code == 0
    os.rename("athens/games.lgn", "athens/kept.lgn")  # (the iso-8859-7 file of that name gone)
    Path("club/games.lgn").write_bytes('[Game "tablut"]\n[White "Renée"]\n\n1. e3-f3 *\n'.encode("latin-1"))
    again = run("import", "--db", "a.db", "--replace", "club")
    assert "read as" not in again.stderr and again.exit_code == 2  # (club's record held, which it does not decode)
    names = Archive("a.db").sql("SELECT id, white FROM records WHERE white IS NOT NULL ORDER BY id")
    assert names == [{"id": 1, "white": "Νίκος"}, {"id": 3, "white": "Renée"}]


def test_a_file_is_read_again_with_the_encoding_of_its_newest_record(tmp_path, monkeypatch):
    """A file imported as latin-1, then, grown, with --encoding cp1252 (its new record added beside the old): an
    import without --encoding reads it as cp1252, the encoding of the import that stored its newest record."""
    monkeypatch.chdir(tmp_path)
    record = '[Game "tablut"]\n[Event "Cup {}"]\n\n1. e3-f3 *\n'
    Path("cup.lgn").write_bytes(record.format("\xe9").encode("latin-1"))
    assert run("import", "--db", "a.db", "--encoding", "latin-1", "cup.lgn").exit_code == 0
    Path("cup.lgn").write_bytes((record.format("\xe9") + "\n" + record.format("€")).encode("cp1252"))
    assert run("import", "--db", "a.db", "--encoding", "cp1252", "cup.lgn").exit_code == 0
    again = run("import", "--db", "a.db", "cup.lgn")
    assert "1 file read as cp1252, as imported before" in again.stderr and "skipped 2 duplicates" in again.stdout
    assert [row["encoding"] for row in Archive("a.db").sql("SELECT encoding FROM records")] == ["latin-1", "cp1252"]


@pytest.mark.parametrize("rewrite", ["mixed", "utf-16"])
def test_a_file_now_part_utf8_or_utf16_is_not_read_with_the_encoding_held(tmp_path, monkeypatch, rewrite):
    """reviewer-58: a Latin-1 file rewritten with its old record in UTF-8 and a new one still Latin-1 (or saved as
    UTF-16) was read as latin-1 whole: the record read in UTF-8 was replaced by a garbled one (`Ã\x85ke`), exit 0.
    Only a file wholly in another encoding is read with the encoding held; the record held is kept."""
    monkeypatch.chdir(tmp_path)
    old, new = '[Game "tablut"]\n[White "Åke Ström"]\n\n1. e3-f3 *\n', '[Game "tablut"]\n[White "José"]\n\n1. e3-c3 *\n'
    Path("club.lgn").write_bytes(old.encode("latin-1"))
    assert run("import", "--db", "a.db", "--encoding", "latin-1", "club.lgn").exit_code == 0
    data = old.encode() + b"\n" + new.encode("latin-1") if rewrite == "mixed" else (old + "\n" + new).encode("utf-16")
    Path("club.lgn").write_bytes(data)
    again = run("import", "--db", "a.db", "--replace", "club.lgn")
    assert "read as latin-1" not in again.stderr and "kept 1 unchanged" in again.stdout
    assert Archive("a.db").sql("SELECT id, white FROM records WHERE id = 1") == [{"id": 1, "white": "Åke Ström"}]


def test_fmt_write_leaves_a_file_it_could_not_read_whole_as_it_is(tmp_path):
    """Its other records are not rewritten either: a byte is never lost (nor made U+FFFD)."""
    data = b'[Game "tablut"]\n1.e3-c3 *\n\n' + RECORD.encode("latin-1")  # the first record not canonical
    (tmp_path / "a.lgn").write_bytes(data)
    for flag in ("--write", "--check"):
        result = run("fmt", flag, str(tmp_path / "a.lgn"))
        assert result.exit_code == 1 and "a.lgn:5:9: error[syntax]: byte 0xC3 is not valid utf-8" in result.output
        assert (tmp_path / "a.lgn").read_bytes() == data
    assert run("fmt", "--write", "--encoding", "latin-1", str(tmp_path / "a.lgn")).exit_code == 0
    assert (tmp_path / "a.lgn").read_bytes() != data


THREE = [f'[Game "tablut"]\n{plies} *\n' for plies in ("1. e3-c3", "1. e3-c3 d1-d2", "1. c5-c3")]
COMMENT = b"% caf\xe9\n"  # a `%` line, Latin-1's \xe9 at its sixth column


@pytest.mark.parametrize(
    "data, line",
    [
        (COMMENT + "\n".join(THREE).encode(), 1),  # above the first record
        ("\n".join(THREE[:2]).encode() + COMMENT + b"\n" + THREE[2].encode(), 6),  # between records
        ("\n".join(THREE).encode() + COMMENT[:-1], 9),  # after the last, without a line end
    ],
    ids=["above", "between", "after"],
)
def test_a_byte_in_a_percent_line_stops_no_record_and_is_said_of_the_file(tmp_path, monkeypatch, data, line):
    """It stopped the record whose text holds the `%` line (`the record is not read`), which the
    reader ignores: every record is read, validated and imported, and the byte said at its place,
    once they are (exit 2); fmt --write and --check leave the file as it is (U+FFFD never written)."""
    monkeypatch.chdir(tmp_path)
    Path("a.lgn").write_bytes(data)
    said = (
        f"lusoria: a.lgn:{line}:6: byte 0xE9 is not valid utf-8, in a % line, which the reader ignores: "
        "the records are read; try --encoding latin-1 or cp1252\n"
    )
    result = run("validate", "a.lgn")
    assert (result.exit_code, result.output) == (2, said + "3 records: 3 valid, 0 invalid (0 errors, 0 warnings)\n")
    result = run("import", "--db", "a.db", "a.lgn")
    assert result.exit_code == 2 and said in result.output
    assert [row["valid"] for row in Archive("a.db").sql("SELECT valid FROM records")] == [1, 1, 1]
    for flag in ("--write", "--check"):
        assert run("fmt", flag, "a.lgn").output == said
        assert Path("a.lgn").read_bytes() == data
    assert run("validate", "--encoding", "latin-1", "a.lgn").exit_code == 0


@pytest.mark.parametrize(
    "data, place",
    [
        (b'[Game "tablut"]\n1. e3-c3 %caf\xe9 *\n', "2:14"),  # a `%` within a line
        (b'[Game "tablut"]\n1. e3-c3 {a comment\n% caf\xe9} *\n', "3:6"),  # a `%` line's start in a comment
        (b'[Game "tablut"]\n1. e3-c3 {never closed\n% caf\xe9\n', "3:6"),  # in a comment never closed
    ],
    ids=["within a line", "in a comment", "in a comment never closed"],
)
def test_a_byte_after_a_percent_sign_that_starts_no_percent_line_stops_its_record(tmp_path, monkeypatch, data, place):
    """h83a: only a `%` that starts a line outside a comment starts a `%` line (notation/escapes.py), whose
    bytes the reader ignores; after any other `%` the byte is the record's, which is not read."""
    monkeypatch.chdir(tmp_path)
    Path("a.lgn").write_bytes(data)
    result = run("validate", "a.lgn")
    assert result.exit_code == 1 and result.output.startswith(
        f"a.lgn:{place}: error[syntax]: byte 0xE9 is not valid utf-8: the file's one game is not read; "
    )
    assert "% line" not in result.output


def test_an_import_summary_says_a_file_read_beside_a_byte_apart_from_one_not_read(tmp_path, monkeypatch):
    """`str(import_paths(...))` said "could not read 1 source: … the records are read" of a file whose
    records were read and stored beside a byte in a `%` line or after them: such a file is its `stray`,
    said as read, and `unreadable` keeps the sources not read at all."""
    monkeypatch.chdir(tmp_path)
    Path("a.lgn").write_bytes("\n".join(THREE).encode() + COMMENT)
    Path("b.lgn").write_bytes(THREE[0].encode() + b"\ncaf\xe9\n")
    summary = Archive("a.db").import_paths(["a.lgn", "b.lgn", "missing.lgn"])
    assert (summary.added, summary.unreadable) == (3, ["missing.lgn: no such file or directory"])
    tries = 'try encoding="latin-1" or encoding="cp1252"'
    assert str(summary).endswith(
        "; could not read 1 source: missing.lgn: no such file or directory; read 2 sources but for a byte "
        "outside the records: a.lgn:9:6: byte 0xE9 is not valid utf-8, in a % line, which the reader ignores: "
        f"the records are read; {tries}; b.lgn:4:4: byte 0xE9 is not valid utf-8, after its last record; {tries}"
    )


def test_fmt_says_the_records_errors_of_a_file_with_a_byte_in_a_percent_line(tmp_path, monkeypatch):
    """The byte is the file's error, said once the records are read: a record that does not parse is
    said too, as in any other file (not only the byte)."""
    monkeypatch.chdir(tmp_path)
    Path("a.lgn").write_bytes(b'[Game "tablut"]\n1. e3-c3 zz *\n\n' + COMMENT + THREE[2].encode())
    for flag in ("--write", "--check"):
        result = run("fmt", flag, "a.lgn")
        assert result.exit_code == 2
        assert result.output.startswith("a.lgn:2:10: error[syntax]: found 'zz', expected a ply"), flag
        assert result.output.endswith(
            "lusoria: a.lgn:4:6: byte 0xE9 is not valid utf-8, in a % line, which the "
            "reader ignores: the records are read; try --encoding latin-1 or cp1252\n"
        )


def test_a_byte_in_a_csv_files_header_line_stops_no_record(tmp_path):
    """It was its first game's error (a line of no record before it): `# brandubh café` cost a game."""
    (tmp_path / "a.csv").write_bytes(b"# brandubh caf\xe9\n" + (FORMATS / "csv/brandubh.csv").read_bytes())
    *verdicts, unread = validate([str(tmp_path / "a.csv")])
    assert [verdict.valid for verdict in verdicts] == [True] * 4
    said = "a.csv:1:15: byte 0xE9 is not valid utf-8, in a line of no record: the records are read"
    assert unread == Unreadable(
        str(tmp_path / "a.csv"), f"{tmp_path / said}", "encoding", ("latin-1", "cp1252"), records_read=True
    )


@pytest.mark.parametrize(
    "name, data, said",
    [
        (
            "a.lgn",
            b'% caf\xe9\n[Game "tablut"]\n1. e3-c3 *\n',
            "a.lgn:1:6: byte 0xE9 is not valid utf-8, in a % line, which",
        ),
        (
            "a.csv",
            b"# brandubh caf\xe9\nd2-b2 c4-c5,0,0,Ongoing\n",
            "a.csv:1:15: byte 0xE9 is not valid utf-8, in a line",
        ),
    ],
)
def test_a_byte_outside_a_files_one_record_says_its_game_is_read(tmp_path, name, data, said):
    """As a file of a format of one game says it (a Tablut Challenge log's noise): `the records are read`."""
    (tmp_path / name).write_bytes(data)
    [verdict, unread] = validate([str(tmp_path / name)])
    assert verdict.valid and isinstance(unread, Unreadable) and unread.records_read
    assert unread.message.startswith(f"{tmp_path / said}") and unread.message.endswith(": the game is read")


@pytest.mark.parametrize("name, games", [("a.csv", "d2-b2 c4c5,0,0,Ongoing\n"), ("a.txt", "d2-b2 c4c5\n")])
@pytest.mark.parametrize("players", [b"S\xf8ren vs Jon", b"S\xf8ren - Jon"])
def test_a_byte_in_a_header_s_players_names_no_player_and_import_stores_the_records(tmp_path, name, games, players):
    """`# brandubh, S\xf8ren vs Jon` saved in Latin-1: its undecoded byte went into every record's White tag
    (or the note of `S\xf8ren - Jon`), and import failed on each record, an internal error (exit status 3).
    Such a header names no player, said in a note; the records are read and stored, the byte said as in
    a line of no record."""
    (tmp_path / name).write_bytes(b"# brandubh, " + players + b"\n" + games.encode())
    result = run("import", "--db", str(tmp_path / "a.db"), str(tmp_path / name))
    assert (result.exit_code, result.stdout) == (
        2,
        f"{tmp_path / 'a.db'}: added 1 record (0 invalid, 0 of them unparsable), skipped 0 duplicates\n",
    )
    assert result.stderr == (
        f"lusoria: {tmp_path / name}:1:14: byte 0xF8 is not valid utf-8, in a line of no record: the game is "
        "read; try --encoding latin-1 or cp1252\n"  # (the file's one)
    )
    [row] = Archive(str(tmp_path / "a.db")).sql("SELECT white, black, text FROM records JOIN record_texts USING (id)")
    note = "line 1, the header holds a byte that does not decode: no player read"
    assert (row["white"], row["black"], note in " ".join(row["text"].split())) == (None, None, True)


@pytest.mark.parametrize(
    "name, games", [("brandubh.csv", "d2-b2 c4c5,0,0,Ongoing\n"), ("brandubh.txt", "d2-b2 c4c5\n")]
)
@pytest.mark.parametrize(
    "header, unread",
    [
        (b"# round \xff 2", "line 1, '# round \ufffd 2', a header that names no game: not read"),
        (b"# brandubh \xff", None),
        (b"# brandubh \xff, Berg, Anna vs Ruud, Jon", None),  # no player read: none said read
    ],
)
def test_a_header_of_a_byte_that_does_not_decode_and_no_game_keeps_both_notes(tmp_path, name, games, header, unread):
    """`# round \xff 2` above a move list: the note of its undecoded byte took the place of the one that
    says it names no game and is not read (said after a first syntax error too). Both notes are kept,
    the byte shown as U+FFFD; a header that names a game is read, its players not."""
    (tmp_path / name).write_bytes(header + b"\n" + games.encode())
    [source] = [found for found in records(str(tmp_path / name)) if not isinstance(found, Unreadable)]
    reader = "csv" if name == "brandubh.csv" else "tafl"
    said = [*([unread] if unread else []), "line 1, the header holds a byte that does not decode: no player read"]
    assert list(check(source).record.main.comments) == [f"{reader} reader: {note}" for note in said]
    assert list(source.notes) == [f"{reader} reader: {unread}"] * bool(unread)


def test_a_header_overruled_by_the_file_s_name_quotes_a_byte_it_holds_as_u_fffd(tmp_path):
    """`# tablut, S\xf8ren vs Jon` in Latin-1 above a move list in `brandubh.txt`: the first error says the
    header was not read, quoting it with the byte as Python escapes it, `S\\udcf8ren`; it is U+FFFD, as
    in the record's text."""
    (tmp_path / "brandubh.txt").write_bytes(b"# tablut, S\xf8ren vs Jon\ne2-e3\n")
    result = run("validate", str(tmp_path / "brandubh.txt"))
    assert result.stdout.splitlines()[0] == (
        f"{tmp_path / 'brandubh.txt'}:2:1: error[B3]: move 1, Black: there is no piece on e2; the rest of this line "
        "is not checked; the header on line 1, '# tablut, S\ufffdren vs Jon', names tablut: read as brandubh, as "
        "the file's name says (--game, then a file's name, win over a header)"
    )


def test_a_record_shown_alone_is_shown_when_a_percent_line_after_it_holds_a_byte_that_does_not_decode(tmp_path):
    """Said, on standard error, of the file; it was an internal error (reading on for a second record)."""
    (tmp_path / "a.lgn").write_bytes(THREE[0].encode() + COMMENT)
    for command in ("show", "html"):
        result = CliRunner().invoke(main, [command, str(tmp_path / "a.lgn")])
        assert result.exit_code == 0, command
        assert f"lusoria: {tmp_path / 'a.lgn'}:3:6: byte 0xE9 is not valid utf-8, in a % line" in result.stderr


def test_a_percent_that_starts_a_line_of_a_comment_is_no_percent_line_the_byte_there_is_the_records():
    data = b'[Game "tablut"]\n1. e3-c3 {\n' + COMMENT + b"} *\n"
    (verdict,) = validate([io.BytesIO(data)])
    assert [(d.line, d.column, d.message[:36]) for d in verdict.diagnostics] == [
        (3, 6, "byte 0xE9 is not valid utf-8: the fi")
    ]


def test_every_byte_that_does_not_decode_is_counted_with_its_line_after_the_first():
    """Only the first was said, at its place: the others now follow it, counted, with their lines."""
    data = b'[Game "tablut"]\n[White "J\xf6rgen"]\n[Black "S\xf6ren \xc5berg"]\n1. e3-c3 {caf\xe9} *\n'
    (verdict,) = validate([io.BytesIO(data)])
    assert [(d.line, d.column, d.message, d.tries) for d in verdict.diagnostics] == [
        (
            2,
            10,
            "byte 0xF6 is not valid utf-8 (3 more bytes that do not decode, on lines 3, 4): the file's one game is not "
            "read",
            ("latin-1", "cp1252"),
        )
    ]
    (unread,) = validate([io.BytesIO(b"% a\xe9\n%\xff\n")])
    said = "<stream>:1:4: byte 0xE9 is not valid utf-8 (1 more byte that does not decode, on line 2), in no record"
    assert unread == Unreadable("<stream>", said, "encoding", ("latin-1", "cp1252"))


@pytest.mark.parametrize("command", READING_COMMANDS, ids=" ".join)
@pytest.mark.parametrize("encoding", ["utf-16", "utf-32"])
def test_utf16_and_utf32_without_a_byte_order_mark_say_where_and_what_was_expected(
    tmp_path, monkeypatch, command, encoding
):
    """Was Python's words, of no place: `not valid utf-16: UTF-16 stream does not start with BOM`."""
    monkeypatch.chdir(tmp_path)
    Path("a.lgn").write_bytes(RECORD.encode(f"{encoding}-le"))
    result = run(*command, "--encoding", encoding.upper().replace("-", "_"), "a.lgn")  # as Python names it too
    assert result.exit_code == 2
    assert (
        f"lusoria: a.lgn: byte 0 (line 1): a {encoding} file starts with a byte-order mark, and this one has none; "
        f"try --encoding {encoding}-le or {encoding}-be\n"
    ) in result.output
    assert run(*command, "--encoding", f"{encoding}-le", "a.lgn").exit_code in (0, 1)  # read (fmt --check: 1)


def test_the_library_says_the_encodings_to_try_as_its_keyword_and_the_commands_as_their_option(tmp_path):
    """The library's record said `try --encoding latin-1`, an option no library call has (its
    unreadable file's summary said `try encoding="…"`): each now says them where it is shown."""
    (tmp_path / "a.lgn").write_bytes(RECORD.encode("utf-16-le"))
    (tmp_path / "b.lgn").write_bytes(RECORD.encode("latin-1").replace(b"\xc3", b"\x81"))
    [unmarked] = records([str(tmp_path / "a.lgn")], encoding="utf-16")
    assert (unmarked.message, unmarked.parameter, unmarked.tries) == (
        f"{tmp_path / 'a.lgn'}: byte 0 (line 1): a utf-16 file starts with a byte-order mark, and this one has none",
        "encoding",
        ("utf-16-le", "utf-16-be"),
    )
    [cp1252] = records([str(tmp_path / "b.lgn")], encoding="cp1252")
    problem = cp1252.parsed
    assert (type(problem), problem.line, problem.column, problem.message, problem.tries) == (
        Undecodable,
        2,
        9,
        "byte 0x81 is not valid cp1252: the file's one game is not read",
        ("latin-1",),
    )
    [verdict] = validate([str(tmp_path / "b.lgn")], encoding="cp1252")
    said = "error[syntax]: byte 0x81 is not valid cp1252: the file's one game is not read; try "
    assert verdict.diagnostics[0].said() == said + 'encoding="latin-1"'
    assert verdict.diagnostics[0].said(to=COMMAND) == said + "--encoding latin-1"
    assert (
        run("validate", "--json", "--encoding", "cp1252", str(tmp_path / "b.lgn")).output.count('"tries": ["latin-1"]')
        == 1
    )
    (tmp_path / "c.lgn").write_text('[Game "tablut"]\n1. e3-e9 *\n')  # an error no encoding mends: no "tries"
    [illegal] = json.loads(run("validate", "--json", str(tmp_path / "c.lgn")).output)["diagnostics"]
    assert (illegal["rule"], "tries" in illegal) == ("T2", False)


def test_a_record_not_converted_or_drawn_names_the_encodings_to_try_as_its_caller_gives_one(tmp_path):
    """`convert` and `show --output-dir` swapped the library's `encoding="…"` for `--encoding …` by a
    string replace inside the problem made for the library: `Converted.said` and `Diagram.said` now
    make either from the record's Diagnostic, the one source of both."""
    path = str(tmp_path / "b.lgn")
    Path(path).write_bytes(RECORD.encode("latin-1").replace(b"\xc3", b"\x81"))
    said = "error[syntax]: byte 0x81 is not valid cp1252: the file's one game is not read; try "
    [converted] = convert([path], "otn", encoding="cp1252")
    [drawn] = diagrams([path], encoding="cp1252")
    assert (converted.problem, drawn.problem) == (
        said + 'encoding="latin-1"',
        f'cannot be replayed: {said}encoding="latin-1"',
    )
    assert (converted.said(to=COMMAND), drawn.said(to=COMMAND)) == (
        said + "--encoding latin-1",
        f"cannot be replayed: {said}--encoding latin-1",
    )
    shown = run("show", "--format", "svg", "--output-dir", str(tmp_path / "boards"), "--encoding", "cp1252", path)
    assert shown.output == f"lusoria: {path}:2:9: record 0 not drawn: cannot be replayed: {said}--encoding latin-1\n"


def test_a_replay_page_its_index_and_the_editor_tell_their_reader_to_save_the_file_as_utf8(tmp_path):
    """The pages and the editor's panel said the library's `try encoding="latin-1"`, which their reader
    has no call to give to: each says what to do with the file, from the one wording (`advised`): open
    it as the encoding that reads it first (`save the file as UTF-8` lost its bytes, saved as an editor
    had decoded them)."""
    import re
    from html import escape
    from types import SimpleNamespace

    from lusoria import lsp

    path = str(tmp_path / "b.lgn")
    Path(path).write_bytes(RECORD.encode("latin-1").replace(b"\xc3", b"\x81"))
    said = (
        "byte 0x81 is not valid cp1252: the file's one game is not read; open the file as latin-1 and save it as UTF-8"
    )
    run("html", "--encoding", "cp1252", "-o", str(tmp_path / "page.html"), path)
    page = re.sub(
        r'<span class="whole">(.*?)</span>', r"\1", (tmp_path / "page.html").read_text()
    )  # (latin-1 kept whole)
    assert f'<div class="diagnostic error">error[syntax]: {escape(said)}</div>' in page
    run("html", "--encoding", "cp1252", "--output-dir", str(tmp_path / "site"), path)
    assert (
        f'<td class="verdict invalid">invalid: 2:9: error[syntax]: {escape(said)}</td>'
        in (tmp_path / "site/index.html").read_text()
    )
    [verdict] = validate([path], encoding="cp1252")
    columns = SimpleNamespace(range=lambda *place: place)
    assert lsp.diagnostic(columns, SimpleNamespace(offset=0), verdict.diagnostics[0]).message == said
    assert verdict.diagnostics[0].said(to=PAGE) == f"error[syntax]: {said}"
    assert (
        advised("m", "encoding", ("latin-1", "cp1252"), to=PAGE)
        == "m; open the file as latin-1 or cp1252 and save it as UTF-8"
    )


def test_the_reader_told_what_to_try_is_named_by_keyword_as_lusoria_api_exports_it_and_nothing_else_is_taken():
    """A positional `advised(True)` (an older `command` flag) was told as a library's caller is, and the
    readers were not exported from lusoria.api: each is given as `to=`, by the Reader or its value."""
    from lusoria import api

    diagnostic = api.Diagnostic("error", "syntax", "byte 0x81 is not valid UTF-8", tries=("latin-1",))
    said = {
        api.Reader.CALLER: 'byte 0x81 is not valid UTF-8; try encoding="latin-1"',
        api.Reader.COMMAND: "byte 0x81 is not valid UTF-8; try --encoding latin-1",
        api.Reader.PAGE: "byte 0x81 is not valid UTF-8; open the file as latin-1 and save it as UTF-8",
    }
    for reader, advice in said.items():
        assert diagnostic.advised(to=reader) == diagnostic.advised(to=reader.value) == advice
        assert advised(diagnostic.message, "encoding", ("latin-1",), to=reader) == advice
    assert diagnostic.advised() == said[api.Reader.CALLER]
    for positional in (lambda: advised("m", "encoding", ("latin-1",), True), lambda: diagnostic.advised(True)):
        with pytest.raises(TypeError, match="positional argument"):
            positional()
    for wrong in (True, "pager", None):
        with pytest.raises(
            ValueError, match=f"^to={wrong!r} names no reader: Reader.CALLER, Reader.COMMAND or Reader.PAGE$"
        ):
            diagnostic.said(to=wrong)
    record = '[Game "tablut"]\n1. e3-c3 *\n'  # (a record converted and drawn: no diagnostic to say)
    for made in (next(api.convert([api.RecordText(record)], "lgn")), next(api.diagrams([api.RecordText(record)]))):
        assert made.said(to="page") is None  # (its said(to="pager") was None too, a ValueError only with a diagnostic)
        with pytest.raises(ValueError, match="^to='pager' names no reader"):
            made.said(to="pager")


@pytest.mark.parametrize("command", READING_COMMANDS, ids=" ".join)
@pytest.mark.parametrize("encoding, nul", [("utf-16-le", 1), ("utf-16-be", 0), ("utf-32-le", 1), ("utf-32-be", 0)])
def test_utf16_and_utf32_without_a_byte_order_mark_read_as_utf8_name_their_encoding(
    tmp_path, monkeypatch, command, encoding, nul
):
    """Read as UTF-8, its NUL bytes were characters: `not a game record in any format`, or, with a
    character past ASCII, `try --encoding latin-1 or cp1252`, which reads it as nonsense."""
    monkeypatch.chdir(tmp_path)
    Path("a.lgn").write_bytes(RECORD.encode(encoding))
    result = run(*command, "a.lgn")
    assert result.exit_code == 2
    assert (
        f"lusoria: a.lgn: byte {nul} (line 1) is a NUL byte: the file starts as {encoding} text without a "
        f"byte-order mark does; try --encoding {encoding}\n"
    ) in result.output
    assert run(*command, "--encoding", "UTF8", "a.lgn").output == result.output  # (UTF-8 by another of its names)
    assert run(*command, "--encoding", encoding, "a.lgn").exit_code in (0, 1)  # read (fmt --check: 1)


@pytest.mark.parametrize("command", READING_COMMANDS, ids=" ".join)
def test_an_archive_given_as_records_is_said_to_be_one(tmp_path, monkeypatch, command):
    """`lusoria validate *` where `import` left lusoria.db: `byte 106 (line 1) is not valid utf-8;
    try --encoding latin-1 or cp1252`, which read it as a record of nonsense."""
    monkeypatch.chdir(tmp_path)
    Path("a.lgn").write_text(RECORD)
    assert run("import", "--db", "club.db", "a.lgn").exit_code == 0
    result = run(*command, "club.db")
    assert result.exit_code == 2
    assert (
        "lusoria: club.db: an SQLite database, not text (an archive: lusoria query, sql and export read it with --db; "
        "lusoria query --db FILE --id N --format lgn writes its record N)\n"
    ) in result.output
    assert "--encoding" not in result.output


EXPORT_SAID = (
    "a file of lusoria export, not records (an archive's tables, for DuckDB or pandas): "
    "lusoria query --format lgn writes an archive's records for another archive to import\n"
)


@pytest.fixture
def exported(tmp_path, monkeypatch):
    """An archive of RECORD (`club.db`) and its export as CSV (`csv/`) and as JSON lines (`lines/`)."""
    monkeypatch.chdir(tmp_path)
    Path("a.lgn").write_text(RECORD)
    assert run("import", "--db", "club.db", "a.lgn").exit_code == 0
    assert run("export", "--db", "club.db", "--format", "csv", "csv").exit_code == 0
    assert run("export", "--db", "club.db", "--format", "jsonl", "lines").exit_code == 0
    return sorted(str(path) for path in Path("csv").glob("*.csv")) + ["lines/records.jsonl"]


@pytest.mark.parametrize("command", READING_COMMANDS, ids=" ".join)
def test_a_file_of_an_export_given_as_records_is_said_to_be_one(exported, command):
    """`lusoria import export/records.csv` added each record's lines as records of no game
    (7,185 of 7,184 records exported: `the record has no Game tag`), and records.jsonl a record
    per line (`JSON, but not an aagenielsen.dk game`), with exit status 0."""
    for path in exported:
        result = run(*command, path)
        assert result.exit_code == 2, (path, result.output)
        assert f"lusoria: {path}: {EXPORT_SAID}" in result.output
    assert not Path("a.db").exists()  # (import: nothing added, no archive made)


def test_a_folder_of_an_export_says_each_file_is_one_and_sums_up_no_archive_it_did_not_make(exported):
    """Newcomer-54a: in a folder, each was `a .csv file that is not a tafl move list` (records.csv: `it starts
    as lgn files do: name it .lgn`), and `import` summed up `new.db: added 0 records` of an archive it did
    not make."""
    result = run("import", "--db", "new.db", "csv")
    assert result.exit_code == 2 and not Path("new.db").exists()
    assert result.stdout == ""
    tables = [path for path in exported if path.endswith(".csv")]
    assert result.stderr == "".join(f"lusoria: {path}: skipped, {EXPORT_SAID}" for path in tables) + (
        "lusoria: no record found in csv\n"
    )
    held = run("import", "--db", "club.db", "csv")  # an archive there is: what this import added to it
    assert held.stdout.startswith("club.db: added 0 records (0 invalid, 0 of them unparsable), skipped 0 duplicates")


def test_an_export_refused_leaves_the_archive_as_it_was(exported):
    """The records of the export are in the archive still, once each, and none of its lines."""
    result = run("import", "--db", "club.db", "csv/records.csv", "lines/records.jsonl")
    assert result.exit_code == 2
    assert Archive("club.db").sql("SELECT count(*) AS n, min(valid) AS valid FROM records") == [{"n": 1, "valid": 1}]


@pytest.mark.parametrize(
    "name, head",
    [
        ("positions.csv", "key,game,position,board,white,black\n1,tablut,x,y,16,9\n"),
        ("plies.csv", "record_id,ply,position,text\n1,0,3,\n"),
    ],
)
def test_a_file_of_an_older_lusorias_export_is_said_to_be_one(tmp_path, name, head):
    """lusoria of schema versions 3 and 4 exported the positions' table, and plies with their text."""
    (tmp_path / name).write_text(head)
    result = run("validate", str(tmp_path / name))
    assert result.exit_code == 2 and f"lusoria: {tmp_path / name}: {EXPORT_SAID}" in result.output


@pytest.mark.parametrize(
    "head, said",
    [
        (
            '{"id": 1, "game": "chess", "moves": "e4"}\n',
            "JSON, but not an aagenielsen.dk game: a game of the scrape is an object with the fields",
        ),
        ("record_id,moves,defenders,status\n", "the column names are moves, defenders lost, attackers lost and status"),
    ],
)
def test_a_file_that_starts_as_an_export_might_but_is_none_is_read(tmp_path, head, said):
    """JSON lines of one's own whose first fields are an id and a game, or a table whose first column
    is a record_id, were said to be a file of lusoria export, which they are not."""
    (tmp_path / "mine.txt").write_text(head)
    result = run("validate", str(tmp_path / "mine.txt"))
    assert result.exit_code == 1 and f"mine.txt:1:1: error[syntax]: {said}" in result.output


def test_a_parquet_file_given_as_records_is_said_to_be_one(tmp_path):
    """A Parquet file of `lusoria export --format parquet` was read as lgn, its bytes not UTF-8."""
    (tmp_path / "records.parquet").write_bytes(b"PAR1\x15\x04\x15\x10")
    result = run("validate", str(tmp_path / "records.parquet"))
    assert result.exit_code == 2
    assert (
        f"lusoria: {tmp_path / 'records.parquet'}: a Parquet file, not text "
        "(lusoria export writes them for DuckDB, pandas, polars or Spark)\n"
    ) in result.output


def test_an_encoding_named_by_another_of_its_names_was_chosen_by_no_byte_order_mark(tmp_path):
    """`--encoding windows-1252` (cp1252's other name) or `UTF_16` that failed said the file's
    byte-order mark had chosen it: the name was compared as written (a file whose mark says UTF-16 is
    said in the mark's name, whatever the encoding given)."""
    (tmp_path / "a.lgn").write_bytes(RECORD.encode("latin-1").replace(b"\xc3", b"\x81"))
    said = run("validate", "--encoding", "windows-1252", str(tmp_path / "a.lgn")).output
    assert "a.lgn:2:9: error[syntax]: byte 0x81 is not valid windows-1252: the file's one game is not read" in said
    assert "try --encoding latin-1\n" in said
    (tmp_path / "b.lgn").write_bytes(codecs.BOM_UTF16_LE + RECORD.encode("utf-16-le") + b"e")
    said = run("validate", "--encoding", "UTF_16", str(tmp_path / "b.lgn")).output
    assert f"lusoria: {tmp_path / 'b.lgn'}: byte 80 (line 4): the file ends inside a utf-16 character\n" in said


@pytest.mark.parametrize(
    "data, encoding, message",
    [
        (
            RECORD.encode("utf-16-le") + b"e",
            "utf-16-le",
            "byte 78 (line 4): the file ends inside a utf-16-le character",
        ),
        (
            codecs.BOM_UTF16_BE + RECORD.encode("utf-16-be") + b"\x00",
            "utf-8",
            "byte 80 (line 4): the file ends inside a utf-16 character (as its byte-order mark says)",
        ),
    ],
)
def test_a_wide_encoding_that_fails_says_what_and_suggests_no_single_byte_one(tmp_path, data, encoding, message):
    """A file cut inside a character: latin-1 would read its bytes as nonsense, so no `try --encoding
    latin-1`; a byte-order mark that chose the encoding says so."""
    (tmp_path / "a.lgn").write_bytes(data)
    result = run("validate", "--encoding", encoding, str(tmp_path / "a.lgn"))
    assert result.exit_code == 2
    assert f"lusoria: {tmp_path / 'a.lgn'}: {message}\n" in result.output


@pytest.mark.parametrize(
    "old, new, place",
    [
        (b"[site:Uppsala]", b"[site:Upps\xe4la]", (2, 11, 0xE4)),  # a tag, copied as Site
        (b"[The attackers open the west side.|]", b"[The attackers open the w\xe9st side.|]", (14, 26, 0xE9)),
    ],
    ids=["tag", "comment"],
)
def test_a_byte_in_an_otn_files_tag_or_comment_is_its_games_error(tmp_path, old, new, place):
    """An OTN file, as a log, is one game; but its reader ignores no line: it keeps every tag (one
    of no OTN name under its own, `time-control` as TimeControl) and every comment, on its ply."""
    data = (FORMATS / "otn/saami-king-captured.otg").read_bytes()
    (tmp_path / "a.otg").write_bytes(data.replace(old, new))
    (verdict,) = validate([str(tmp_path / "a.otg")])
    line, column, byte = place
    assert [(d.line, d.column, d.advised()) for d in verdict.diagnostics] == [
        (line, column, f"byte 0x{byte:02X} is not valid utf-8: {ONE_GAME}")
    ]


@pytest.mark.parametrize("width, unit", [(16, b"\x00\xdc"), (32, b"\x00\xd8\x00\x00"), (32, b"\x00\x00\x11\x00")])
def test_a_wide_encodings_unit_that_does_not_decode_is_its_records_error_and_the_others_are_read(width, unit):
    """A surrogate alone (or past U+10FFFF) stopped the file there, every record after it unread,
    where a byte UTF-8 does not decode is its record's error alone: it is so in UTF-16 and UTF-32 too,
    said at its line and column, with no single-byte encoding to try."""
    encoding = f"utf-{width}-le"
    bom = codecs.BOM_UTF16_LE if width == 16 else codecs.BOM_UTF32_LE
    second = THREE[1].encode(encoding).replace("d2".encode(encoding), unit + "2".encode(encoding))
    data = bom + THREE[0].encode(encoding) + b"\n".decode().encode(encoding) + second + THREE[2].encode(encoding)
    first, unread, third = validate([io.BytesIO(data)])
    assert first.valid and third.valid and third.result == "*"
    past = ", or past U+10FFFF" if width == 32 else ""
    assert [(d.line, d.column, d.rule, d.message) for d in unread.diagnostics] == [
        (
            5,
            13,
            "syntax",
            f"a code unit is not valid UTF-{width} (a surrogate alone{past}): the record is not read, the others are",
        )
    ]
    (last,) = validate([io.BytesIO(bom + THREE[0].encode(encoding) + unit)])  # after the last line, as UTF-8's byte
    assert [(d.line, d.column) for d in last.diagnostics] == [(3, 1)] and not last.valid


def test_more_units_of_a_wide_encoding_that_do_not_decode_are_counted_as_units_with_their_lines():
    """Three surrogates alone in one record of a UTF-16 file of CRLF line ends: the first said at its
    line and column, the others counted as code units (they were said `2 more bytes`), on their lines."""
    lines = ['[Game "tablut"]', '[White "A\ud800b"]', '[Black "C\udc00d\udc01"]', "", "*", "", THREE[0]]
    data = codecs.BOM_UTF16_LE + "\r\n".join(lines).encode("utf-16-le", "surrogatepass")
    unread, read = validate([io.BytesIO(data)])
    assert read.valid and [(d.line, d.column, d.message) for d in unread.diagnostics] == [
        (
            2,
            10,
            "a code unit is not valid UTF-16 (a surrogate alone) (2 more code units that do not decode, on line 3): "
            "the record is not read, the others are",
        )
    ]


# -- convert --output-dir and export: every file through the one atomic writer ------------------


def test_convert_output_dir_on_a_full_disk_leaves_no_file(tmp_path, in_root):
    out = tmp_path / "out"
    done = on_a_full_disk(
        100, "convert", "--to", "otn", "--output-dir", str(out), str(ROOT / "samples/tablut/escape.lgn")
    )
    assert done.returncode == 2 and "Traceback" not in done.stderr
    [written] = done.stderr.splitlines()  # (no note of what the file would lose: review77)
    assert written == (
        f"lusoria: {ROOT / 'samples/tablut/escape.lgn'}, record 0 not written: cannot write "
        f"{out / 'samples/tablut/escape-000000.otg'}: file too large"
    )
    assert os.listdir(out) == ["samples"]  # (the folders made:)
    assert os.listdir(out / "samples/tablut") == []  # no empty file, no temporary one


def test_convert_output_dir_named_through_a_link_is_said_as_named(tmp_path, in_root):
    """A folder given through a symbolic link to it is written into; a file that cannot be written
    there is named by the path given, not by where the link leads."""
    (tmp_path / "real").mkdir()
    out = tmp_path / "out"
    out.symlink_to(tmp_path / "real")
    done = on_a_full_disk(
        100, "convert", "--to", "lgn", "--output-dir", str(out), str(ROOT / "samples/tablut/escape.lgn")
    )
    assert (done.returncode, done.stderr) == (
        2,
        f"lusoria: {ROOT / 'samples/tablut/escape.lgn'}, record 0 not written: cannot write "
        f"{out / 'samples/tablut/escape-000000.lgn'}: file too large\n",
    )
    assert os.listdir(tmp_path / "real/samples/tablut") == []


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into a read-only folder")
def test_convert_output_dir_that_cannot_be_written_is_said_in_one_line(tmp_path, in_root):
    out = tmp_path / "out"
    out.mkdir(mode=0o500)
    result = run("convert", "--to", "lgn", "--output-dir", str(out), str(ROOT / "samples/tablut/escape.lgn"))
    assert result.exit_code == 2 and result.exception is None or isinstance(result.exception, SystemExit)
    assert f"record 0 not written: cannot write {out / 'samples'}: permission denied" in result.output


def test_convert_output_dir_never_writes_a_file_twice_nor_through_a_link(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # (the inputs below the current directory: named from there)
    (tmp_path / "ca").mkdir()
    (tmp_path / "ca/x.lgn").write_bytes((ROOT / "samples/tablut/escape.lgn").read_bytes())
    (tmp_path / "ca/x.otg").write_bytes((ROOT / "tests/fixtures/formats/otn/brandubh.otg").read_bytes())
    out = tmp_path / "out"
    out.mkdir()
    outside = tmp_path / "outside.txt"
    outside.write_text("mine\n")
    (out / "link-000000.lgn").symlink_to(outside)
    (tmp_path / "link.lgn").write_bytes((ROOT / "samples/tablut/escape.lgn").read_bytes())
    result = run(
        "convert",
        "--to",
        "lgn",
        "--output-dir",
        str(out),
        str(tmp_path / "ca/x.lgn"),
        str(tmp_path / "ca/x.otg"),
        str(tmp_path / "link.lgn"),
        "--overwrite",  # a link is refused all the same
    )
    assert result.exit_code == 2
    assert result.output.splitlines() == [
        f"wrote {out / 'ca/x-000000.lgn'}",
        f"lusoria: {tmp_path / 'ca/x.otg'}, record 0 not written: {out / 'ca/x-000000.lgn'} holds {tmp_path / 'ca/x.lgn'}, "
        "record 0, written by this command (two inputs of one name, or of names that Windows or macOS hold as one, "
        "differing in case or in an accent written composed or combining: write them into different folders)",
        f"lusoria: {tmp_path / 'link.lgn'}, record 0 not written: cannot write {out / 'link-000000.lgn'}: it is a symbolic "
        "link, which lusoria does not write through",
    ]
    assert (out / "ca/x-000000.lgn").read_text() == run("convert", "--to", "lgn", str(tmp_path / "ca/x.lgn")).output
    assert outside.read_text() == "mine\n" and (out / "link-000000.lgn").is_symlink()
    again = run("convert", "--to", "lgn", "--output-dir", str(out), str(tmp_path / "ca/x.otg"), "--overwrite")
    assert (
        again.exit_code == 0 and again.output == f"wrote {out / 'ca/x-000000.lgn'}\n"
    )  # a later run replaces its file


def test_convert_output_dir_keeps_a_file_of_an_earlier_run_unless_asked_as_html_does(tmp_path, in_root):
    """convert --output-dir wrote over the files of an earlier run without a word, while html refused
    them: both keep a file already in DIR, said on stderr (exit status 2) unless it holds what would
    be written, and write the others; --overwrite writes over it."""
    out = tmp_path / "out"
    first = run("convert", "--to", "lgn", "--output-dir", str(out), str(ROOT / "samples/tablut"))
    assert first.exit_code == 0 and len(first.output.splitlines()) == 4
    (out / "samples/tablut/escape-000000.lgn").write_text("corrected by hand\n")
    (out / "samples/tablut/tuichi-000000.lgn").unlink()
    again = run("convert", "--to", "lgn", "--output-dir", str(out), str(ROOT / "samples/tablut"))
    assert again.exit_code == 2
    assert again.stdout == f"wrote {out / 'samples/tablut/tuichi-000000.lgn'}\n"
    assert again.stderr == (  # king-captured's and linnaeus's files, as they would be written, are kept: said nothing
        f"lusoria: {ROOT / 'samples/tablut/escape.lgn'}, record 0 not written: {out / 'samples/tablut/escape-000000.lgn'} is already "
        "there (--overwrite writes over it)\n"
    )
    assert (out / "samples/tablut/escape-000000.lgn").read_text() == "corrected by hand\n"
    asked = run("convert", "--to", "lgn", "--output-dir", str(out), str(ROOT / "samples/tablut"), "--overwrite")
    assert (asked.exit_code, asked.stderr) == (0, "")
    assert (
        asked.stdout == f"wrote {out / 'samples/tablut/escape-000000.lgn'}\n"
    )  # the others, as it would write them, left be
    assert (out / "samples/tablut/escape-000000.lgn").read_text() == run(
        "convert", "--to", "lgn", str(ROOT / "samples/tablut/escape.lgn")
    ).output


def test_a_file_holds_what_is_written_whatever_the_platforms_newline(tmp_path, monkeypatch):
    """Text mode wrote `\r\n` for each `\n` on Windows, where `holds` compared `\n`: a page of an
    earlier run, as it would be written, was refused (exit status 2). Simulated: every file opened as
    text writes its line ends `\r\n`; a file is written as its text's bytes, `\r\n` kept as written."""
    from lusoria.files import holds, write_file

    fdopen = os.fdopen

    def as_on_windows(fd, mode="r", *args, **kwargs):
        if "b" not in mode and kwargs.get("newline") is None:
            kwargs["newline"] = "\r\n"
        return fdopen(fd, mode, *args, **kwargs)

    monkeypatch.setattr(os, "fdopen", as_on_windows)
    write_file(str(tmp_path / "a.txt"), "one\ntwo\n")
    assert (tmp_path / "a.txt").read_bytes() == b"one\ntwo\n" and holds(str(tmp_path / "a.txt"), "one\ntwo\n")
    write_file(str(tmp_path / "b.txt"), "one\r\ntwo\r\n")  # fmt --write keeps a file's own line ends
    assert (tmp_path / "b.txt").read_bytes() == b"one\r\ntwo\r\n" and not holds(str(tmp_path / "b.txt"), "one\ntwo\n")
    escape = str(ROOT / "samples/tablut/escape.lgn")
    assert run("html", escape, "--output-dir", str(tmp_path / "out")).exit_code == 0
    again = run("html", escape, "--output-dir", str(tmp_path / "out"))
    assert (again.exit_code, again.output) == (0, "")


@pytest.mark.parametrize("command", [["convert", "--to", "lgn"], ["html"], ["show", "--format", "svg"]])
def test_overwrite_without_output_dir_is_a_usage_error(command):
    """--overwrite, of the files of --output-dir, given without it: said, not ignored (the record was
    written to standard output)."""
    refused = run(*command, str(ROOT / "samples/tablut/escape.lgn"), "--overwrite")
    assert (refused.exit_code, refused.stdout) == (2, "")
    assert refused.stderr.endswith("Error: --overwrite writes over the files already in DIR: give --output-dir DIR\n")


def test_convert_output_dir_writes_through_no_link_to_a_folder(tmp_path, monkeypatch):
    """A record of `ca/x.lgn` goes to `out/ca/x-000000.lgn`: a link `out/ca` to a folder outside is not
    written through either."""
    monkeypatch.chdir(tmp_path)  # (the inputs below the current directory: named from there)
    for folder in ("ca", "cb", "elsewhere"):
        (tmp_path / folder).mkdir()
    for folder in ("ca", "cb"):
        (tmp_path / folder / "x.lgn").write_bytes((ROOT / "samples/tablut/escape.lgn").read_bytes())
    (tmp_path / "out").mkdir()
    (tmp_path / "out/ca").symlink_to(tmp_path / "elsewhere")
    result = run(
        "convert",
        "--to",
        "lgn",
        "--output-dir",
        str(tmp_path / "out"),
        *(str(tmp_path / f"{f}/x.lgn") for f in ("ca", "cb")),
    )
    assert result.exit_code == 2
    assert result.output.splitlines() == [
        f"lusoria: {tmp_path / 'ca/x.lgn'}, record 0 not written: cannot write {tmp_path / 'out/ca'}: it is a symbolic "
        "link, which lusoria does not write through",
        f"wrote {tmp_path / 'out/cb/x-000000.lgn'}",
    ]
    assert list((tmp_path / "elsewhere").iterdir()) == []


def test_convert_output_dir_writes_no_record_above_it_when_a_folder_name_is_not_utf8(tmp_path):
    """A folder whose name is not UTF-8, given: its records' paths are shown (`r\\xff/x.lgn`), not
    the folder's bytes, so they lead from the folder of the inputs through `..`; they go in out, not
    in a folder beside it."""
    folder = os.path.join(os.fsencode(tmp_path), b"r\xff")
    os.mkdir(folder)
    with open(os.path.join(folder, b"x.lgn"), "wb") as file:
        file.write((ROOT / "samples/tablut/escape.lgn").read_bytes())
    result = run("convert", "--to", "lgn", "--output-dir", str(tmp_path / "out"), os.fsdecode(folder))
    assert (result.exit_code, result.output) == (0, f"wrote {tmp_path / 'out/r%FF/x-000000.lgn'}\n")
    assert sorted(os.listdir(os.fsencode(tmp_path))) == [b"out", b"r\xff"]


def test_export_writes_each_table_whole_and_not_through_a_link(tmp_path):
    db = tmp_path / "a.db"
    assert run("import", "--db", str(db), str(ROOT / "samples")).exit_code == 0
    out = tmp_path / "out"
    out.mkdir()
    (out / "tags.csv").symlink_to(tmp_path / "elsewhere.csv")
    result = run("export", "--db", str(db), "--format", "csv", str(out))
    assert result.exit_code == 2 and result.output == (
        f"lusoria: cannot write {out / 'tags.csv'}: it is a symbolic link, which lusoria does not write through\n"
    )
    assert not (tmp_path / "elsewhere.csv").exists()
    done = on_a_full_disk(40_000, "export", "--db", str(db), "--format", "csv", str(tmp_path / "full"))
    assert done.returncode == 2  # records.csv takes 45 kB
    assert done.stderr == f"lusoria: cannot write {tmp_path / 'full' / 'records.csv'}: file too large\n"
    assert os.listdir(tmp_path / "full") == []  # neither a part of it nor a temporary file


@pytest.mark.parametrize(
    "format, replaying, files",
    [("csv", "_main_lines", 6), ("parquet", "_main_lines", 6), ("jsonl", "_record_lines", 1)],
)
def test_an_export_that_fails_leaves_the_one_before_it_whole(tmp_path, monkeypatch, format, replaying, files):
    """Its files take their names together at the end: one that fails while it replays the records
    (a bug, Ctrl-C) leaves no new records or tags file beside the plies of the export before it,
    and no temporary file."""
    from lusoria.archive import export

    db = tmp_path / "a.db"
    assert run("import", "--db", str(db), str(ROOT / "samples/tablut")).exit_code == 0
    assert run("export", "--db", str(db), "--format", format, str(tmp_path / "out")).exit_code == 0
    before = {name: (tmp_path / "out" / name).read_bytes() for name in os.listdir(tmp_path / "out")}
    assert len(before) == files
    assert run("import", "--db", str(db), str(ROOT / "samples/laquet")).exit_code == 0

    def failing(*args):
        yield from ()
        raise KeyboardInterrupt

    monkeypatch.setattr(export, replaying, failing)
    with pytest.raises(KeyboardInterrupt):
        export.export(str(db), str(tmp_path / "out"), format)
    assert {name: (tmp_path / "out" / name).read_bytes() for name in os.listdir(tmp_path / "out")} == before


@pytest.mark.parametrize("format", ["csv", "parquet", "jsonl"])
def test_an_export_writes_over_an_earlier_export_but_not_over_a_file_no_export_wrote(tmp_path, format):
    """Newcomer-55a and 55b: export wrote over any file of its names (a user's own records.csv among their
    records) without a word. An earlier export's files it writes over; another file it keeps, writing
    nothing, unless told to overwrite it."""
    if format == "parquet":
        pytest.importorskip("pyarrow")
    db, out = tmp_path / "a.db", tmp_path / "out"
    assert run("import", "--db", str(db), str(ROOT / "samples/tablut")).exit_code == 0
    assert run("export", "--db", str(db), "--format", format, str(out)).exit_code == 0
    assert run("export", "--db", str(db), "--format", format, str(out)).exit_code == 0  # over the export before
    if format == "jsonl":  # an export of no record (an older lusoria's, of filters that matched none): empty
        (out / "records.jsonl").write_bytes(b"")
        assert run("export", "--db", str(db), "--format", format, str(out)).exit_code == 0
    (out / f"records.{format}").write_text("my precious data\n")
    before = {name: (out / name).read_bytes() for name in os.listdir(out)}
    result = run("export", "--db", str(db), "--format", format, str(out))
    assert (result.exit_code, result.output) == (
        2,
        f"lusoria: {out / f'records.{format}'} is not a file lusoria export wrote: it is not written over unless "
        "told to overwrite it (--overwrite)\n",
    )
    assert {name: (out / name).read_bytes() for name in os.listdir(out)} == before  # not one file written
    assert run("export", "--db", str(db), "--format", format, "--overwrite", str(out)).exit_code == 0
    assert (out / f"records.{format}").read_bytes() != before[f"records.{format}"]


def test_an_export_knows_its_own_file_of_every_table_by_its_first_column(tmp_path):
    """Reviewer-56: a JSON line was taken for the export's when it held `id` anywhere (`"hid"`, a list);
    each table's first column is the archive's own, its files' told apart by it (tags: record_id)."""
    db, out = tmp_path / "a.db", tmp_path / "out"
    assert run("import", "--db", str(db), str(ROOT / "samples/tablut")).exit_code == 0
    assert run("export", "--db", str(db), "--format", "csv", str(out)).exit_code == 0
    for table in ("records", "tags", "player_aliases", "plies"):
        first = (out / f"{table}.csv").read_text().split(",")[0]
        assert first == {"records": "id", "player_aliases": "alias"}.get(table, "record_id")
        kept = (out / f"{table}.csv").read_bytes()
        (out / f"{table}.csv").write_text("id_of_mine,record_id\n")
        assert run("export", "--db", str(db), "--format", "csv", str(out)).exit_code == 2, table
        (out / f"{table}.csv").write_bytes(kept)
    for line in ('"hid"', '["id"]', '{"record": 1, "id": 2}', "{"):
        (out / "records.jsonl").write_text(line + "\n")
        assert run("export", "--db", str(db), "--format", "jsonl", str(out)).exit_code == 2, line
    (out / "records.jsonl").write_text('{"id": 7, "game": "tablut"}\n')
    assert run("export", "--db", str(db), "--format", "jsonl", str(out)).exit_code == 0


def test_an_export_whose_filters_match_no_record_writes_nothing(tmp_path):
    """Newcomer-55a: a misspelt player's name wrote every file of an earlier export over with empty ones, exit
    status 0: the files are left as they were, exit status 1, with the note of the name no record has."""
    from lusoria.archive import Archive, Filters, NothingSelected

    db, out = tmp_path / "a.db", tmp_path / "out"
    assert run("import", "--db", str(db), str(ROOT / "samples/tablut")).exit_code == 0
    assert run("export", "--db", str(db), "--format", "csv", str(out)).exit_code == 0
    before = {name: (out / name).read_bytes() for name in os.listdir(out)}
    result = run("export", "--db", str(db), "--format", "csv", "--player", "Karin Nilson", str(out))
    assert (result.exit_code, result.output) == (
        1,
        "lusoria: no record names the player 'Karin Nilson' (did you mean Karin Nilsson?)\n"
        f"lusoria: no record matches the filters: nothing written in {out}\n",
    )
    assert {name: (out / name).read_bytes() for name in os.listdir(out)} == before
    with pytest.raises(NothingSelected):
        Archive(str(db)).export(str(tmp_path / "none"), "csv", filters=Filters(player="Nobody"))
    assert not (tmp_path / "none").exists()


def test_files_are_written_only_through_the_atomic_writer():
    """No module but lusoria/files.py opens a file for writing (the archive, a SQLite database,
    is built beside its place and linked into it: archive/schema.py)."""
    import re

    writing = re.compile(
        r"""\bopen\([^)]*["'][wax]b?\+?["']|\.write_(?:text|bytes)\(|mkstemp\(|os\.replace\(|"""
        r"""ParquetWriter\((?!out\.file)"""
    )
    found = []
    for package in ("lusoria", "notation", "formats", "archive", "validator"):
        for path in sorted((ROOT / package).rglob("*.py")):
            name = str(path.relative_to(ROOT))
            for number, line in enumerate(path.read_text("utf-8").splitlines(), 1):
                if writing.search(line) and name not in ("lusoria/files.py", "archive/schema.py"):
                    found.append(f"{name}:{number}: {line.strip()}")
    assert found == []


LOG = (FORMATS / "tablut-challenge/Marino_vs_Greco_1576201955000_gameLog.txt").read_bytes()
NOISE = "in a line of the log's noise (no move, board, player or result), which the reader ignores"


def log_with(line: int, old: bytes, new: bytes) -> bytes:
    """The Tablut Challenge log, `old` replaced by `new` in its line `line`."""
    lines = LOG.split(b"\n")
    assert old in lines[line - 1]
    lines[line - 1] = lines[line - 1].replace(old, new, 1)
    return b"\n".join(lines)


@pytest.mark.parametrize(
    "data, place",
    [
        (log_with(23, b"pedina", b"pedin\xe0"), "23:22: byte 0xE0"),  # FINE: Movimento pedina
        (log_with(3, b"<init>", b"<init> \xe9"), "3:97: byte 0xE9"),  # a date line
        (log_with(1, b"<init>", b"<init> \xe9"), "1:97: byte 0xE9"),  # the first, whose date is read
        (LOG + b"\xe9 fine\n", "176:1: byte 0xE9"),  # a line after the last board
    ],
    ids=["message", "date line", "first line", "after the last board"],
)
def test_a_byte_in_a_line_of_a_logs_noise_costs_no_game(tmp_path, monkeypatch, data, place):
    """A Tablut Challenge log is one game: a byte in a line its reader ignores made the game `not read`.
    The game is read, validated and imported, and the byte said of the file, at its place (exit 2)."""
    monkeypatch.chdir(tmp_path)
    Path("a_gameLog.txt").write_bytes(data)
    said = f"lusoria: a_gameLog.txt:{place} is not valid utf-8, {NOISE}: the game is read; try --encoding latin-1 or cp1252\n"
    result = run("validate", "a_gameLog.txt")
    assert (result.exit_code, result.output) == (2, said + "1 record: 1 valid, 0 invalid (0 errors, 0 warnings)\n")
    result = run("import", "--db", "a.db", "a_gameLog.txt")
    assert result.exit_code == 2 and said in result.output
    kept = Archive("a.db").sql("SELECT valid, white, black FROM records")
    assert [(row["valid"], row["white"], row["black"]) for row in kept] == [(1, "Marino", "Greco")]
    assert run("validate", "--encoding", "latin-1", "a_gameLog.txt").exit_code == 0


DATE_SAID = "in the log's date (its first line), which is left unknown: the game is read"


@pytest.mark.parametrize(
    ("old", "new", "column", "date", "notes", "where"),
    [
        (b"<init>", b"<init> \xe9", 97, ("2019.12.13", "01:52:35"), [], NOISE),
        (
            b"Dec",
            b"D\xe9c",
            2,
            (None, None),
            ["the log's first line holds a byte that does not decode: its date is unknown"],
            DATE_SAID,  # it was said in the noise's words, a line the reader ignores
        ),
        (
            b"AM",
            b"A\xe9M",
            23,
            (None, None),
            ["the log's first line holds a byte that does not decode: its date is unknown"],
            DATE_SAID,
        ),
        (  # (h80b: the last character before ` AM`, said as noise when `column > end` was `>=`)
            b"1:52:35",
            b"1:52:3\xe9",
            20,
            (None, None),
            ["the log's first line holds a byte that does not decode: its date is unknown"],
            DATE_SAID,
        ),
    ],
    ids=["after the date", "in the date", "in its hour", "in its last digit"],
)
def test_a_byte_in_a_logs_first_line_leaves_its_date_read_or_unknown(tmp_path, old, new, column, date, notes, where):
    """The log's date is read from its first line, where a byte cost the whole game: the game is
    read, with the date when the byte leaves it whole, and the byte said of the file."""
    (tmp_path / "a_gameLog.txt").write_bytes(log_with(1, old, new))
    source, unread = records([str(tmp_path / "a_gameLog.txt")])
    assert unread.message.startswith(f"{tmp_path / 'a_gameLog.txt'}:1:{column}: byte 0xE9 is not valid utf-8, {where}")
    report = check(source)
    assert report.valid and report.record.result == "1-0" and len(report.record.main.plies) == 7  # the whole game
    assert (report.record.tags.get("Date"), report.record.tags.get("Time")) == date
    assert report.record.main.comments == [f"tablut-challenge reader: {note}" for note in notes]


def test_a_byte_after_a_logs_first_line_is_not_said_to_cost_its_date(tmp_path):
    """A server of a locale the reader does not know (German: `Dez 13, 2019`) leaves the date
    unknown, and a byte in a later line of noise has nothing to do with it: no note blames it."""
    data = log_with(3, b"<init>", b"<init> \xe9").replace(b"Dec 13, 2019", b"Dez 13, 2019", 1)
    (tmp_path / "a_gameLog.txt").write_bytes(data)
    source, unread = records([str(tmp_path / "a_gameLog.txt")])
    assert unread.message.startswith(f"{tmp_path / 'a_gameLog.txt'}:3:97: byte 0xE9 is not valid utf-8, {NOISE}")
    report = check(source)
    assert report.valid and "Date" not in report.record.tags and report.record.main.comments == []


@pytest.mark.parametrize(
    "data, place",
    [
        (log_with(2, b"Greco", b"Gr\xe9co"), (2, 28, 0xE9)),  # a player's name
        (log_with(70, b"Pawn", b"P\xe0wn"), (70, 19, 0xE0)),  # a move
        (log_with(43, b"BOOOWOOOB", b"BOOO\xe9OOOB"), (43, 5, 0xE9)),  # a row of a board
        (log_with(175, b"WW", b"W\xe9W"), (175, 2, 0xE9)),  # the result, under the last board
    ],
    ids=["name", "move", "row", "result"],
)
def test_a_byte_in_a_line_a_log_is_read_by_is_its_games_error(tmp_path, data, place):
    (tmp_path / "a_gameLog.txt").write_bytes(data)
    (verdict,) = validate([str(tmp_path / "a_gameLog.txt")])
    line, column, byte = place
    assert [(d.rule, d.line, d.column, d.advised()) for d in verdict.diagnostics] == [
        ("syntax", line, column, f"byte 0x{byte:02X} is not valid utf-8: {ONE_GAME}")
    ]


def test_a_byte_in_a_logs_noise_is_not_said_to_leave_its_game_read_when_another_stops_it(tmp_path):
    data = log_with(23, b"pedina", b"pedin\xe0").replace(b"Greco", b"Gr\xe9co", 1)
    (tmp_path / "a_gameLog.txt").write_bytes(data)
    verdict, unread = validate([str(tmp_path / "a_gameLog.txt")])
    assert [(d.line, d.column) for d in verdict.diagnostics] == [(2, 28)]
    said = f"{tmp_path / 'a_gameLog.txt'}:23:22: byte 0xE0 is not valid utf-8, {NOISE}"
    assert unread == Unreadable(
        str(tmp_path / "a_gameLog.txt"), said, "encoding", ("latin-1", "cp1252"), records_read=True
    )
