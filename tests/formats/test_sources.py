"""Every library call reads the same kinds of source: paths (str or Path), streams, and text."""

import bz2
import gzip
import io
import json
import lzma
import os
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import ROOT, no_game_tag
from hypothesis import given
from hypothesis import strategies as st

from lusoria import api
from lusoria.archive import Archive
from lusoria.cli import main
from lusoria.formats import FORMATS, format_of, read_text
from lusoria.formats.sources import EMPTY_PATH, empty_file, read_sources, record_at, walk
from lusoria.notation.reader import STREAM_ADVICE, RecordText
from lusoria.notation.sources import InputError, Skipped, Unreadable, fs_path, inputs_said, is_text, shown_path
from lusoria.words import plural

ESCAPE = ROOT / "samples/tablut/escape.lgn"
SKIPPED_ONE = "; 1 file or folder skipped (each said with why)"  # validate's summary, as import's
UNREAD_ONE = "; could not read 1 source (each said with why)\n"  # validate's summary of a source not read
TWO = '[Game "tablut"]\n1. e3-c3 *\n\n[Game "tablut"]\n1. e3-c3 d1-d3 *\n'


@pytest.mark.parametrize(
    "source",
    [str(ESCAPE), ESCAPE, ESCAPE.read_text(), RecordText(ESCAPE.read_text())],
    ids=["str path", "Path", "text", "RecordText"],
)
def test_board_takes_a_path_or_text(source):
    assert api.board(source).ply == 9
    assert api.board(source, 3).text().startswith("tablut (seed) after ply 3 of 9")


def test_board_takes_a_stream_and_a_record_index():
    assert api.board(io.StringIO(TWO), index=1).ply == 2
    with open(ESCAPE) as stream:
        assert api.board(stream).ply == 9
    with pytest.raises(ValueError, match="has no record 2"):
        api.board(TWO, index=2)


def test_a_record_a_source_lacks_is_said_naming_the_source_as_messages_do():
    """New user 24: record_at named a stream by its Python repr (`<_io.StringIO object at 0x…>`) and
    standard input `-`, and said a file of one record had 0 records when asked for record -1."""
    with pytest.raises(api.NoSuchRecord, match=r"^<stream> has no record 2: it has 2 records \(0 to 1\)$"):
        record_at(io.StringIO(TWO), 2)
    with open(ESCAPE) as stream, pytest.raises(api.NoSuchRecord, match=f"^{ESCAPE} has no record 1: it has 1 record$"):
        record_at(stream, 1)
    with pytest.raises(api.NoSuchRecord, match=f"^{ESCAPE} has no record -1: records count from 0$"):
        api.board(ESCAPE, index=-1)
    odd = Path(os.fsdecode(b"/no/such/dir/\xff.lgn"))
    with pytest.raises(api.NoSuchRecord, match=r"^/no/such/dir/\\xff.lgn has no record -1: records count from 0$"):
        record_at(odd, -1)


def test_a_binary_stream_is_decoded_as_a_file_is():
    """`open(path, "rb")` or an upload's bytes: read as text, `piece.removeprefix(BOM)` raised a
    TypeError (a traceback); decoded from `encoding`, a byte that is not is said as a file's is."""
    with open(ESCAPE, "rb") as stream:
        [verdict] = api.validate([stream])
    assert (verdict.source.path, verdict.valid, verdict.plies) == (str(ESCAPE), True, 9)
    latin = '[Game "tablut"]\r\n[Event "Café"]\r\n1. e3-c3 *\r\n'.encode("latin-1")
    [record] = read_sources(io.BytesIO(latin), encoding="latin-1")
    assert (record.path, record.text) == ("<stream>", '[Game "tablut"]\n[Event "Café"]\n1. e3-c3 *\n')
    assert api.board(io.BytesIO(ESCAPE.read_bytes()), 3).position == api.board(ESCAPE, 3).position
    [unread] = api.validate([io.BytesIO(latin)])  # its record: the file was Unreadable
    said = 'byte 0xE9 is not valid utf-8: the file\'s one game is not read; try encoding="latin-1" or encoding="cp1252"'
    assert [(d.line, d.column, d.advised()) for d in unread.diagnostics] == [(2, 12, said)]


class _Piped(io.BytesIO):
    """Bytes that cannot be read again from their start (a pipe, a socket)."""

    def seekable(self) -> bool:
        return False


def test_a_text_stream_on_a_file_is_read_as_the_file_is_and_one_that_does_not_decode_is_unreadable(tmp_path):
    """h81a: `open(path)` of a Latin-1 file raised Python's UnicodeDecodeError out of `validate` and `import_paths`,
    the sources after it never read and the import storing nothing; a closed file raised a ValueError. A text stream
    on a file is read from its bytes, in the stream's encoding, as the file is (each record before the byte read);
    one that cannot be read again from its start is a source unreadable, in its place."""
    latin = tmp_path / "latin.lgn"
    latin.write_bytes(f'{TWO}\n[Game "tablut"]\n[White "Jöns"]\n\n1. e3-c3 *\n'.encode("latin-1"))
    with open(latin, encoding="utf-8") as stream:
        read = list(api.validate([ESCAPE, stream, TWO]))
    assert [(each.source.path, each.plies, each.valid) for each in read] == [
        (str(ESCAPE), 9, True),
        *[(str(latin), 1, True), (str(latin), 2, True), (str(latin), 0, False)],
        *[("", 1, True), ("", 2, True)],
    ]
    assert read[3].diagnostics[0].message == "byte 0xF6 is not valid utf-8: the record is not read, the others are"
    with open(latin, encoding="latin-1") as stream:  # (its own encoding, as the stream was opened)
        assert [verdict.white for verdict in api.validate([stream])] == [None, None, "Jöns"]
    with open(latin, encoding="utf-8") as stream:
        summary = Archive(str(tmp_path / "a.db")).import_paths([ESCAPE, stream, TWO])
    assert (summary.added, summary.undecoded, summary.unreadable) == (4, 1, [])
    piped = io.TextIOWrapper(_Piped(latin.read_bytes()), encoding="utf-8")
    said = (
        "<stream>: the stream does not decode as utf-8 (invalid start byte): give the file's path, or the file opened "
        "in binary (open(path, 'rb')), which lusoria decodes as a file's bytes, saying each one that is not valid in "
        "the record that holds it; or open it in its own encoding"
    )
    assert [str(each) for each in api.validate([piped])] == [said]
    piped = io.TextIOWrapper(_Piped(TWO.encode() * 400 + latin.read_bytes()), encoding="utf-8")  # (past its first read)
    assert [str(each) for each in api.validate([piped]) if isinstance(each, Unreadable)] == [said]
    stream = open(latin, encoding="utf-8")
    stream.close()
    assert [str(each) for each in api.validate([stream])] == [f"{latin}: cannot be read: I/O operation on closed file."]
    with open(latin, encoding="utf-8", errors="replace") as stream:  # (its bytes decoded as the stream was asked to)
        assert [(verdict.valid, verdict.white) for verdict in api.validate([stream])][2] == (True, "J\ufffdns")
    with open(latin, encoding="latin-1") as stream:
        stream.read(len(TWO.split("\n\n")[0]) + 2)  # (its first record read: read on from there, as a stream is)
        assert [verdict.plies for verdict in api.validate([stream])] == [2, 1]
    with open(latin, encoding="latin-1") as stream:
        stream.read(5)
        stream.seek(0)  # (its first bytes read ahead beneath it: read again from its start)
        assert [verdict.plies for verdict in api.validate([stream])] == [1, 2, 1]


def test_text_given_is_no_file_s_name_to_open():
    """Text read with a single-byte encoding was opened as a file's name, to see whether the encoding garbles
    its UTF-8 (`garbled_by`): one that holds a NUL raised Python's ValueError (embedded null byte)."""
    text = '[Game "tablut"]\n[White "a\0b"]\n\n1. e3-c3 *\n'
    assert [(verdict.valid, verdict.white) for verdict in api.validate([text], encoding="latin-1")] == [(True, "a\0b")]


@pytest.mark.parametrize(
    "white, column, said",
    [
        ("J\udcf6ns", 10, "byte 0xF6 is not valid utf-8: the file's one game is not read"),
        (
            "\ud800x",
            9,
            "byte 0xED is not valid utf-8 (2 more bytes that do not decode, on line 2): the file's one game",
        ),
    ],
)
def test_text_that_holds_a_surrogate_alone_is_said_as_a_file_s_byte_that_does_not_decode(tmp_path, white, column, said):
    """h81a: text read with `errors="surrogateescape"` (a Latin-1 file), or JSON's `"\\ud800"`, was valid to `validate`
    and failed the archive's import ("1 record failed", or Python's UnicodeEncodeError, the whole import stopped)."""
    text = f'[Game "tablut"]\n[White "{white}"]\n\n1. e3-c3 *\n'
    for number, source in enumerate([text, io.StringIO(text)]):
        [verdict] = api.validate([source])
        as_given = said if number else said.replace("the file's", "the text's")  # (text given is no file: note81)
        assert [(d.line, d.column, d.message.startswith(as_given)) for d in verdict.diagnostics] == [(2, column, True)]
        summary = Archive(str(tmp_path / f"{number}.db")).import_paths([source if number == 0 else io.StringIO(text)])
        assert (summary.added, summary.undecoded, summary.failed) == (1, 1, [])


def test_a_stream_is_read_in_the_format_given_not_the_one_its_text_looks_like():
    """h74b: a stream given `format` was read as its name or its text told (a tafl move list, taken for lgn)."""
    [record] = read_sources(io.StringIO("e7-b7 a6-c6 b7-e7\n"), format="tafl", tags={"Game": "tablut"})
    assert (record.format, record.parsed.main.plies[2].text) == ("tafl", "b7-e7")


def test_a_source_that_cannot_be_read_is_named_by_its_path():
    """A Path was named by its last part (`file.lgn`, its `name`), a stream by its repr."""
    [unread] = api.validate([Path("no/such/file.lgn")])
    assert unread == Unreadable("no/such/file.lgn", "no/such/file.lgn: no such file or directory", None)


def test_validate_and_format_take_the_same_sources():
    sources = [ESCAPE.read_text(), str(ESCAPE), io.StringIO(TWO)]
    verdicts = list(api.validate(sources))
    assert [(v.source.path, v.plies) for v in verdicts] == [("", 9), (str(ESCAPE), 9), ("<stream>", 1), ("<stream>", 2)]
    assert [(v.source.path, v.plies) for v in api.validate([ESCAPE])] == [(str(ESCAPE), 9)]  # a Path
    assert api.format_record(ESCAPE)[0] == api.format_record(ESCAPE.read_text())[0]
    assert api.format_record(TWO, 1)[0].endswith("1. e3-c3 d1-d3 *\n")


def test_format_record_writes_what_fmt_writes_source_tags_and_all():
    """It dropped the tags that trace a record of another format to its file (SourceFormat, SourceFile)."""
    path = str(ROOT / "tests/fixtures/formats/otn/brandubh.otg")
    formatted = api.format_record(path)[0]
    assert formatted == CliRunner().invoke(main, ["fmt", path]).stdout
    assert f'[SourceFile "{path}"]\n[SourceFormat "otn"]\n' in formatted


def test_one_source_given_alone_is_one_source(monkeypatch, tmp_path):
    """`validate("tablut")` is the folder, not the letters of its name (`validate("games/")` walked
    the whole file system from the `/`): a path, a Path, a stream or a record's text alone."""
    monkeypatch.chdir(ROOT / "samples")
    listed = [verdict.source.path for verdict in api.validate(["tablut"])]
    assert len(listed) == 4
    assert [verdict.source.path for verdict in api.validate("tablut")] == listed
    assert [verdict.source.path for verdict in api.validate(Path("tablut"))] == listed
    [streamed] = api.validate(io.StringIO('[Game "tablut"]\n1. e3-c3 *\n'))
    assert streamed.valid and streamed.plies == 1
    assert Archive(str(tmp_path / "a.db")).import_paths("tablut").added == 4


def test_what_counts_as_text():
    assert is_text('[Game "tablut"]') and is_text("1. e3-c3 *\n") and is_text(RecordText("x"))
    assert not is_text("samples/tablut") and not is_text(Path("[odd]")) and not is_text("-")
    assert [r.line for r in read_sources(TWO)] == [1, 4]
    with pytest.raises(ValueError, match="the text has no record 5"):
        record_at(TWO, 5)


def test_a_file_name_that_begins_with_a_bracket_is_a_file_and_one_with_a_line_break_is_said_so(tmp_path, monkeypatch):
    """Newcomer-57b: `[Uppsala] 2026.lgn`, as os.listdir gives it, was read as a record's text (the library's
    `reports` and `import_paths` stored one record that did not parse, where `lusoria validate` read the file);
    a name read with readlines(), a line break after it, was stored so too. The first is the file now; the
    second is a source not read, that says why, and nothing is stored of it."""
    monkeypatch.chdir(tmp_path)
    Path("[Uppsala] 2026.lgn").write_text(TWO)
    assert is_text("[Uppsala] 2027.lgn") and not is_text("[Uppsala] 2026.lgn")
    assert [report.plies for report in api.reports(["[Uppsala] 2026.lgn"])] == [1, 2]
    said = (
        "the text '[Uppsala] 2026.lgn\\n' is the name of a file and a line break: give the name without it "
        "(str.strip(); a list of names read with splitlines())"
    )
    assert list(api.validate(["[Uppsala] 2026.lgn\n"])) == [
        Unreadable("<text>", said)
    ]  # (h81a: named by the text whole)
    summary = Archive("a.db").import_paths(["[Uppsala] 2026.lgn\n", "[Uppsala] 2026.lgn"])
    assert (summary.added, summary.unparsable, summary.unreadable) == (2, 0, [said])
    assert [report.plies for report in api.reports(["missing.lgn\n"])] == [0]  # (no file: a text, as before)


def test_a_missing_path_is_reported_by_the_import(tmp_path):
    summary = Archive(str(tmp_path / "a.db")).import_paths(["missing.lgn", TWO])
    assert summary.unreadable == ["missing.lgn: no such file or directory"]
    assert str(summary) == (
        "added 2 records (0 invalid, 0 of them unparsable), skipped 0 duplicates; "
        "could not read 1 source: missing.lgn: no such file or directory"
    )


def test_a_link_to_nowhere_in_a_folder_is_reported_in_its_place(tmp_path):
    (tmp_path / "a.lgn").write_text(TWO)
    (tmp_path / "b.lgn").symlink_to(tmp_path / "gone.lgn")
    (tmp_path / "c.png").symlink_to(tmp_path / "gone.png")
    (tmp_path / ".#a.lgn").symlink_to("user@host.1234")  # an editor's lock, hidden
    summary = Archive(str(tmp_path / "a.db")).import_paths([str(tmp_path)])
    assert summary.added == 2 and summary.unreadable == [f"{tmp_path / 'b.lgn'}: no such file or directory"]


@pytest.mark.parametrize("name", ["b.lgn", "b.txt", "b.log", "b.json", "b.csv", "b_gameLog.txt", "b.gz", "b.zip"])
def test_a_link_to_nowhere_in_a_folder_is_unreadable_whatever_its_name_says_it_holds(tmp_path, name):
    """A link named `*.txt`, `*.log`, `*.json` or `*.csv` was skipped as not in the format its first
    characters were looked for (it has none), one named `*.gz` as a compressed file, while one
    named `*.lgn` was unreadable: every file whose name a note would say what it holds by is read,
    and the read says why it cannot be (exit status 2). (A name of no format, `c.png`, is skipped
    by its name: the previous test.)"""
    (tmp_path / "a.lgn").write_text(TWO)
    (tmp_path / name).symlink_to(tmp_path / f"gone-{name}")
    result = CliRunner().invoke(main, ["validate", str(tmp_path)])
    assert (result.exit_code, result.stdout) == (2, "2 records: 2 valid, 0 invalid (0 errors, 0 warnings)" + UNREAD_ONE)
    assert result.stderr == f"lusoria: {tmp_path / name}: no such file or directory\n"


def test_two_links_to_one_missing_file_are_each_unreadable_not_the_same_file(tmp_path):
    """Two dangling links to one target in a folder: the second was skipped as "the same file as"
    the first, "read once", though neither can be read; a path named twice is still met again."""
    for name in ("b.lgn", "c.lgn"):
        (tmp_path / name).symlink_to(tmp_path / "gone.lgn")
    result = CliRunner().invoke(main, ["validate", str(tmp_path)])
    assert (result.exit_code, result.stdout) == (
        2,
        "0 records: 0 valid, 0 invalid (0 errors, 0 warnings); could not read 2 sources (each said with why)\n",
    )
    b, c = (tmp_path / "b.lgn", tmp_path / "c.lgn")
    assert result.stderr == f"lusoria: {b}: no such file or directory\nlusoria: {c}: no such file or directory\n"
    assert list(walk([str(b), str(b)]))[1] == Skipped(str(b), "named again: said unreadable once", met_again=True)


def test_a_dos_end_of_file_mark_ends_a_file_of_any_format(tmp_path):
    """h80c: a file that a DOS editor ended with Ctrl-Z (0x1A) was read with it in every format but lgn: an OpenTafl
    game's one record invalid, a move list's or a CSV's an extra broken record."""
    otg = (ROOT / "tests/fixtures/formats/otn/brandubh.otg").read_bytes()
    (tmp_path / "brandubh.otg").write_bytes(otg + b"\x1a")
    (tmp_path / "brandubh.txt").write_bytes(b"d7-b7 e4-e5 resigned\r\n\x1a")
    result = CliRunner().invoke(main, ["validate", str(tmp_path)])
    assert (result.exit_code, result.stdout) == (0, "2 records: 2 valid, 0 invalid (0 errors, 0 warnings)\n")


def test_hidden_files_and_folders_in_a_folder_are_not_searched(tmp_path):
    """`lusoria validate .` in a club's git checkout: nothing of `.git` (nor `.venv`, `.DS_Store`,
    an editor's swap file, Word's owner file `~$a.lgn`) is read or said to be skipped; a hidden folder named is read."""
    (tmp_path / "a.lgn").write_text(TWO)
    (tmp_path / ".git" / "objects").mkdir(parents=True)
    (tmp_path / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    (tmp_path / ".git" / "objects" / "ab12").write_bytes(b"x\x9c\x00")
    (tmp_path / ".drafts").mkdir()
    (tmp_path / ".drafts" / "b.lgn").write_text(TWO)
    (tmp_path / ".DS_Store").write_bytes(b"\x00\x00\x00\x01Bud1")
    (tmp_path / ".a.lgn.swp").write_bytes(b"b0VIM 9.0")
    (tmp_path / "~$a.lgn").write_bytes(
        b"\x04Anna" + b" " * 49 + "Anna".encode("utf-16-le")
    )  # (Word's owner file: h80c)
    result = CliRunner().invoke(main, ["validate", str(tmp_path)])
    assert (result.exit_code, result.stdout, result.stderr) == (
        0,
        "2 records: 2 valid, 0 invalid (0 errors, 0 warnings)\n",
        "",
    )
    named = CliRunner().invoke(main, ["validate", str(tmp_path / ".drafts")])
    assert named.stdout == "2 records: 2 valid, 0 invalid (0 errors, 0 warnings)\n"


@pytest.mark.parametrize(
    "inside", [[], [".drafts/b.lgn", ".DS_Store"], ["sub/deeper/"]], ids=["empty", "hidden", "folders"]
)
@pytest.mark.parametrize("command", [["validate"], ["import", "--db", "club.db"]], ids=["validate", "import"])
def test_a_folder_of_no_file_to_read_is_said_as_a_skipped_file_is(tmp_path, monkeypatch, command, inside):
    """`validate empty/ games.lgn` passed over the folder without a word, where a folder of files
    no format takes says each; alone, the note comes before "no record found" (exit status 2)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "empty").mkdir()
    for name in inside:
        (tmp_path / "empty" / name).parent.mkdir(parents=True, exist_ok=True)
        if not name.endswith("/"):
            (tmp_path / "empty" / name).write_text(TWO)
    (tmp_path / "games.lgn").write_text(TWO)
    said = "lusoria: empty/: skipped, no file in it to read (hidden ones are not read)\n"
    beside = CliRunner().invoke(main, [*command, "empty/", "games.lgn"])
    assert (beside.exit_code, beside.stderr) == (0, said)
    assert "2 records: 2 valid" in beside.stdout or "added 2 records (0 invalid" in beside.stdout
    alone = CliRunner().invoke(main, [*command, "empty/"])
    assert (alone.exit_code, alone.stderr) == (2, said + "lusoria: no record found in empty/\n")
    (tmp_path / "empty" / "notes.md").write_text("")
    assert "no file in it" not in CliRunner().invoke(main, [*command, "empty/", "games.lgn"]).stderr


@pytest.mark.parametrize("alone", [True, False], ids=["alone", "beside-a-game"])
def test_a_folder_below_one_given_that_cannot_be_listed_is_said_by_its_own_name(tmp_path, monkeypatch, alone):
    """`round1/private` that cannot be listed (no permission): the folder given, which can, was said not to be
    readable when it held nothing else, and `private` passed over without a word beside a game."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "round1/private").mkdir(parents=True)
    if not alone:
        (tmp_path / "round1/games.lgn").write_text(TWO)
    listed = os.scandir

    def refused(path="."):
        if os.path.basename(os.fspath(path)) == "private":
            raise PermissionError(13, "Permission denied", os.fspath(path))
        return listed(path)

    monkeypatch.setattr("os.scandir", refused)
    result = CliRunner().invoke(main, ["validate", "round1"])
    said = f"lusoria: {os.path.join('round1', 'private')}: skipped, it cannot be read: permission denied\n"
    assert (result.exit_code, result.stderr) == (
        (2, said + "lusoria: no record found in round1\n") if alone else (0, said)
    )


def test_a_folders_compressed_files_are_skipped_with_how_to_read_them(tmp_path):
    """Each told by its name (any case), with the command that decompresses it."""
    for name in ("a.lgn.gz", "b.bz2", "c.txt.xz", "d.ZST", "e.zip"):
        (tmp_path / name).write_bytes(b"\x00compressed")
    assert [(Path(item.path).name, item.reason) for item in walk(str(tmp_path))] == [
        ("a.lgn.gz", "a gzip-compressed file, not text: decompress it first (gunzip)"),
        ("b.bz2", "a bzip2-compressed file, not text: decompress it first (bunzip2)"),
        ("c.txt.xz", "a xz-compressed file, not text: decompress it first (unxz)"),
        ("d.ZST", "a zstd-compressed file, not text: decompress it first (unzstd)"),
        ("e.zip", "a zip-compressed file, not text: decompress it first (unzip)"),
    ]


@pytest.mark.parametrize(
    "packer, kind, command", [(gzip, "gzip", "gunzip"), (bz2, "bzip2", "bunzip2"), (lzma, "xz", "unxz")]
)
def test_a_compressed_file_whose_name_does_not_say_so_is_told_by_its_first_bytes(tmp_path, packer, kind, command):
    """Named `games.lgn`, read: its first bytes say what it is (the mutant read it as text)."""
    path = tmp_path / "games.lgn"
    path.write_bytes(packer.compress(b'[Game "tablut"]\n\n1. e3-c3 *\n'))
    with pytest.raises(InputError) as raised:
        list(read_sources(str(path)))
    assert str(raised.value) == f"{path}: a {kind}-compressed file, not text: decompress it first ({command})"


def test_a_file_met_again_is_read_once(tmp_path):
    """A record given beside its folder (`lusoria rules game.lgn games/`) counts once: the rule set
    proposed for the most records, and every count, no longer weigh it twice."""
    (tmp_path / "a.lgn").write_text(TWO)
    (tmp_path / "link.lgn").symlink_to(tmp_path / "a.lgn")
    given, link = str(tmp_path / "a.lgn"), str(tmp_path / "link.lgn")
    assert list(walk([given, link, given])) == [
        given,
        Skipped(link, f"the same file as {given}: read once", met_again=True),
        Skipped(given, "named again: read once", met_again=True),
    ]
    result = CliRunner().invoke(main, ["validate", given, str(tmp_path)])  # (a note, no file skipped)
    assert result.stdout == "2 records: 2 valid, 0 invalid (0 errors, 0 warnings)\n"
    assert result.stderr == f"lusoria: {tmp_path}: skipped, 2 of its files met already: read once\n"
    assert result.exit_code == 0


def test_a_link_to_a_folder_is_followed_once(tmp_path):
    """Newcomer-53b: a folder holding only a link to another (`b/adir -> ../a`) was said to hold no file to read,
    and beside a file the link was left out unsaid. A link to a folder is walked, and a folder met again
    through a link (a link back up, or two links to one folder) is not walked again."""
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "a" / "g.lgn").write_text(TWO)
    (tmp_path / "b" / "adir").symlink_to(tmp_path / "a")
    (tmp_path / "b" / "again").symlink_to(tmp_path / "a")
    (tmp_path / "a" / "up").symlink_to(tmp_path)  # a loop
    (tmp_path / "top.lgn").write_text(TWO)
    linked = tmp_path / "b" / "adir"  # (and up again from it, to what b is not: the folder above it)
    assert list(walk([str(tmp_path / "b")])) == [str(linked / "g.lgn"), str(linked / "up" / "top.lgn")]
    assert list(walk([str(tmp_path)])) == [str(tmp_path / "a" / "g.lgn"), str(tmp_path / "top.lgn")]


def test_a_file_met_again_in_a_folder_is_not_said_to_be_named_again(tmp_path):
    """`validate round1/game.otg round1`: the file was named once, and met again in the folder."""
    (tmp_path / "a.lgn").write_text(TWO)
    given = str(tmp_path / "a.lgn")
    result = CliRunner().invoke(main, ["validate", given, str(tmp_path)])
    assert result.stdout == "2 records: 2 valid, 0 invalid (0 errors, 0 warnings)\n"
    assert result.stderr == f"lusoria: {given}: skipped, met already: read once\n" and result.exit_code == 0


def test_the_files_of_a_folder_met_again_are_said_in_one_note(tmp_path):
    """A folder named beside the folder that holds it (`validate games/copenhagen games`): one
    line for its files, not one a file (300 for the real Copenhagen folder)."""
    (tmp_path / "sub").mkdir()
    for name in ("a", "b", "c"):
        (tmp_path / "sub" / f"{name}.lgn").write_text(TWO)
    result = CliRunner().invoke(main, ["validate", str(tmp_path / "sub"), str(tmp_path)])
    assert result.stdout.startswith("6 records: 6 valid") and result.exit_code == 0
    assert result.stderr == f"lusoria: {tmp_path}: skipped, 3 of its files met already: read once\n"


def test_a_skipped_file_of_a_folder_met_again_is_said_once(tmp_path):
    """`validate d d/sub`: the files of d/sub that no format reads were said skipped twice, once for
    each folder that holds them. Each is said once, the others of the folder met again in its one
    note, which says what became of them: a file skipped was said "read once", not having been read."""
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "a.lgn").write_text(TWO)
    (tmp_path / "sub" / "notes.md").write_text("Games of the club\n")
    notes = str(tmp_path / "sub" / "notes.md")
    for paths in ([tmp_path, tmp_path / "sub"], [tmp_path / "sub", tmp_path]):
        result = CliRunner().invoke(main, ["validate", *map(str, paths)])
        assert result.stdout.startswith("2 records: 2 valid") and result.exit_code == 0
        said = [line for line in result.stderr.splitlines() if "notes.md: skipped, not a record file" in line]
        assert said == [f"lusoria: {notes}: skipped, not a record file (.lgn, .otg, .otn, .txt, .json, .log, .csv)"]
    [*_, folder] = walk([str(tmp_path), str(tmp_path / "sub")])
    assert folder == Skipped(
        str(tmp_path / "sub"), "2 of its files met already: 1 read once, 1 said skipped once", True
    )
    (tmp_path / "sub" / "a.lgn").unlink()
    (tmp_path / "sub" / "more.md").write_text("More games\n")
    [*_, folder] = walk([str(tmp_path), str(tmp_path / "sub")])
    assert folder == Skipped(str(tmp_path / "sub"), "2 of its files met already: said skipped once", True)


def test_the_one_skipped_file_of_a_folder_met_again_is_said_skipped_once_not_read(tmp_path):
    """`validate d/sub d`, sub holding one file no format reads: met again alone, it has a note of its
    own, which said "read once" of a file never read (session 52, a mutant that survived)."""
    (tmp_path / "sub").mkdir()
    (tmp_path / "a.lgn").write_text(TWO)
    notes = tmp_path / "sub" / "notes.md"
    notes.write_text("Games of the club\n")
    result = CliRunner().invoke(main, ["validate", str(tmp_path / "sub"), str(tmp_path)])
    assert result.stderr.splitlines()[1:] == [f"lusoria: {notes}: skipped, met already: said skipped once"]
    assert result.stdout.endswith("; 1 file or folder skipped (each said with why)\n") and result.exit_code == 0


@pytest.mark.parametrize("command", [["validate"], ["duplicates"], ["import", "--db", "a.db", "--replace"]])
def test_standard_input_named_twice_is_read_once_and_met_again(tmp_path, monkeypatch, command):
    """`validate - -`: standard input, read to its end, was read again and said "skipped, an empty file, no
    record", counted as a file skipped (session 52's review); it is met again, as a file named twice is."""
    monkeypatch.chdir(tmp_path)
    assert list(walk(["-", "-"])) == ["-", Skipped("-", "named again: read once", met_again=True)]
    result = CliRunner().invoke(main, [*command, "-", "-"], input='[Game "tablut"]\n\n1. e3-c3 *\n')
    assert "lusoria: -: skipped, named again: read once\n" in result.stderr and result.exit_code == 0
    assert "an empty file" not in result.stderr and "skipped (each said with why)" not in result.stdout


def test_rules_counts_the_files_it_skipped_as_validate_does(tmp_path):
    """Session 48: `lusoria rules .` in a club's folder said each file it skipped, its notes and
    spreadsheets among the records' lines, and nothing after them; its last line counts them now, as
    validate's does (each is still said with why, on standard error), and says nothing of none."""
    (tmp_path / "a.lgn").write_text(TWO)
    for name in ("notes.md", "season.tsv"):
        (tmp_path / name).write_text("Games of the club\n")
    result = CliRunner().invoke(main, ["rules", str(tmp_path)])
    assert result.exit_code == 0
    assert result.stdout.endswith("\n2 records searched; 2 files or folders skipped (each said with why)\n")
    assert result.stderr.count(": skipped, not a record file") == 2
    validated = CliRunner().invoke(main, ["validate", str(tmp_path)])
    assert validated.stdout.endswith("; 2 files or folders skipped (each said with why)\n")
    alone = CliRunner().invoke(main, ["rules", str(tmp_path / "a.lgn")])
    assert "searched" not in alone.stdout and alone.exit_code == 0
    as_json = CliRunner().invoke(main, ["rules", "--json", str(tmp_path)])
    assert [line[:1] for line in as_json.stdout.splitlines()] == ["{", "{"]


def test_validate_and_rules_count_the_sources_they_could_not_read_as_import_does(tmp_path):
    """Session 51: `validate club/ missing.lgn` said the missing file among the verdicts and summed up the
    rest as if it had been all: the last line counts the sources not read (as import's names them), each
    still said with why on stderr; not one read but for a byte outside its records, whose records it counts.
    `duplicates`, which said neither, counts the files skipped and the sources not read alike."""
    (tmp_path / "a.lgn").write_text(TWO)
    (tmp_path / "b.lgn").write_bytes(TWO.encode() + b"\n% \xff\n")
    missing = str(tmp_path / "missing.lgn")
    validated = CliRunner().invoke(main, ["validate", str(tmp_path), missing])
    assert validated.stdout.endswith(
        "4 records: 4 valid, 0 invalid (0 errors, 0 warnings); could not read 1 source (each said with why)\n"
    )
    assert validated.exit_code == 2 and f"lusoria: {missing}: no such file or directory" in validated.stderr
    searched = CliRunner().invoke(main, ["rules", str(tmp_path / "a.lgn"), missing])
    assert searched.stdout.endswith("\n2 records searched; could not read 1 source (each said with why)\n")
    assert searched.exit_code == 2
    (tmp_path / "notes.md").write_text("Games of the club\n")  # `duplicates` counts both, as validate does
    found = CliRunner().invoke(main, ["duplicates", str(tmp_path), missing])
    assert found.stdout.endswith(f"2 duplicates, 1 prefix{SKIPPED_ONE}; could not read 1 source (each said with why)\n")
    assert found.exit_code == 2


def test_a_summary_counts_the_inputs_of_any_iterable():
    """What the last lines say of the files skipped and the sources not read, from an iterator of problems."""
    problems = [Skipped("notes.md", "not a record file"), Unreadable("gone.lgn", "gone.lgn: no such file or directory")]
    assert inputs_said(iter(problems)) == SKIPPED_ONE + UNREAD_ONE.removesuffix("\n")


def test_an_iterator_of_sources_is_walked_as_it_comes_not_read_whole_first(tmp_path):
    """A caller's generator (of records' texts, of paths) gives its first source before the walk takes the
    next (review-47g: the look-ahead for files named after their folder read a generator whole, and a
    report came only once every record was made)."""
    taken = []

    def sources():
        for number in range(1000):
            taken.append(number)
            yield RecordText('[Game "tablut"]\n\n1. e3-c3 *\n', 1, number)

    walked = walk(sources())
    assert isinstance(next(walked), RecordText)
    assert taken == [0]
    assert isinstance(next(api.reports(sources(), jobs=1)), api.Report) and len(taken) < 10


def test_a_file_its_folder_would_skip_and_named_by_its_own_path_is_read_once_and_said_so_in_either_order(tmp_path):
    """`validate real/aagenielsen real/aagenielsen/expected.tsv`: the folder's note says a file given by
    its own path is read by what it holds, and it was not (`named again: said skipped once`); read since
    session 46, it was still said skipped in its folder and counted among the skipped in the summary.
    It is read, in either order, and once. Session 48: `validate notes.md sub` said it "met already:
    read once" and counted it skipped, `validate sub notes.md` neither: in either order its second
    meeting is a note (`Skipped.met_again`), said, and not counted among the files skipped."""
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "a.lgn").write_text(TWO)
    (tmp_path / "sub" / "notes.md").write_text("Games of the club\n")
    folder, notes = str(tmp_path / "sub"), str(tmp_path / "sub" / "notes.md")
    assert list(walk([folder, notes, notes, str(tmp_path)])) == [
        str(tmp_path / "sub" / "a.lgn"),
        Skipped(notes, "named by its own path too: read there, once", met_again=True),
        notes,
        Skipped(notes, "named again: read once", met_again=True),
        Skipped(str(tmp_path), "2 of its files met already: read once", met_again=True),
    ]
    read = f"{notes}:1:1: error[syntax]: not a game record in any format lusoria reads: read as lgn, it has no tag"
    for paths, said in (
        ([folder, notes], f"lusoria: {notes}: skipped, named by its own path too: read there, once\n"),
        ([notes, folder], f"lusoria: {notes}: skipped, met already: read once\n"),
    ):
        result = CliRunner().invoke(main, ["validate", *paths])
        assert result.stdout.startswith(f"{read} and no movetext\n") and result.exit_code == 1
        assert "\n3 records: 2 valid, 1 invalid (1 error, 0 warnings)\n" in result.stdout
        assert result.stderr == said
    (tmp_path / "pgn").mkdir()
    for name in ("x", "y", "z"):
        (tmp_path / "pgn" / f"{name}.pgn").write_text(TWO)
    result = CliRunner().invoke(main, ["validate", str(tmp_path / "pgn"), str(tmp_path / "pgn" / "x.pgn")])
    assert result.stdout.startswith("2 records: 2 valid, 0 invalid (0 errors, 0 warnings); 2 files or folders skipped")
    x, *others = result.stderr.splitlines()  # (x.pgn named: a note, not counted; not among the .pgn files skipped)
    assert x == f"lusoria: {tmp_path / 'pgn' / 'x.pgn'}: skipped, named by its own path too: read there, once"
    assert [line.split(": skipped")[0] for line in others] == [
        f"lusoria: {tmp_path / 'pgn' / name}.pgn" for name in ("y", "z")
    ]


def test_a_path_too_long_to_name_a_file_is_said_unreadable_and_the_others_are_read(tmp_path):
    """`validate xxx…(5000) games.lgn`: asking whether the long path was a folder raised, before any file
    was read (lusoria: internal error: OSError: [Errno 36] File name too long)."""
    (tmp_path / "games.lgn").write_text(TWO)
    long = str(tmp_path / ("x" * 5000))
    result = CliRunner().invoke(main, ["validate", long, str(tmp_path / "games.lgn")])
    assert result.stderr == f"lusoria: {long}: file name too long\n"
    assert (
        result.stdout == "2 records: 2 valid, 0 invalid (0 errors, 0 warnings)" + UNREAD_ONE and result.exit_code == 2
    )


def test_a_log_file_in_a_folder_is_read_by_its_content_and_the_other_log_files_said_in_one_note(tmp_path):
    """A Tablut Challenge log saved as `game.log` was skipped in a folder ("not a record file")
    while read when named; a folder's other .log files (a server's own) are said in one line."""
    (tmp_path / "game.log").write_text(LOG)
    (tmp_path / "server.log").write_text("INFO: listening on port 5800\n")
    alone = CliRunner().invoke(main, ["validate", str(tmp_path)])
    named = CliRunner().invoke(main, ["validate", str(tmp_path / "game.log")])
    assert (alone.exit_code, alone.stdout) == (named.exit_code, named.stdout.replace("\n", SKIPPED_ONE + "\n", 1))
    assert alone.stdout.startswith("1 record: 1 valid")
    assert (
        alone.stderr
        == f"lusoria: {tmp_path / 'server.log'}: skipped, a .log file that is not a Tablut Challenge game log\n"
    )
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "client.LOG").write_text("")
    more = CliRunner().invoke(main, ["validate", str(tmp_path)])
    assert more.stderr == f"lusoria: {tmp_path}: skipped, 2 .log files, none of them a Tablut Challenge game log\n"
    forced = CliRunner().invoke(main, ["validate", "--from", "tablut-challenge", str(tmp_path)])
    assert f"{tmp_path / 'server.log'}:" in forced.stdout and "2 records: 1 valid, 1 invalid" in forced.stdout
    assert forced.stderr == f"lusoria: {tmp_path / 'sub' / 'client.LOG'}: skipped, an empty file, no record\n"


EMPTY_FILES = ["a.lgn", "a.otg", "a.json", "a.txt", "a.csv", "a_gameLog.txt", "a.log"]


@pytest.mark.parametrize("text", ["", "\n  \n\t\r\n"], ids=["empty", "blank lines"])
@pytest.mark.parametrize("name", EMPTY_FILES)
@pytest.mark.parametrize("command", [["validate"], ["import", "--db", "club.db"]], ids=["validate", "import"])
def test_an_empty_file_of_any_format_is_said_once_to_hold_no_record(tmp_path, monkeypatch, command, name, text):
    """An empty .otg or game log was an invalid record (error[tag], stored by import as unparsable),
    an empty .lgn or scrape nothing said of: now each is the same note, named or in a folder, and
    holds no record (exit status 2 when nothing else holds one); in a folder, a .log file that is
    no game log, empty or not, is one (said with the others)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / name).write_text(text)
    said = f"lusoria: {Path('games', name)}: skipped, an empty file, no record\n"
    for named in (str(Path("games", name)), "games"):
        alone = CliRunner().invoke(main, [*command, named])
        if named == "games" and name == "a.log":
            said = f"lusoria: {Path('games', name)}: skipped, a .log file that is not a Tablut Challenge game log\n"
        assert alone.exit_code == 2 and alone.stderr == said + f"lusoria: no record found in {named}\n"
    (tmp_path / "games" / "game.lgn").write_text(TWO)
    beside = CliRunner().invoke(main, [*command, "games"])
    assert beside.exit_code == 0 and beside.stderr == said
    assert "2 records: 2 valid" in beside.stdout or "added 2 records (0 invalid" in beside.stdout


@pytest.mark.parametrize("name", ["a.lgn", "a.otg", "a.txt"])
@pytest.mark.parametrize("command", ["show", "html"])
def test_show_and_html_say_an_empty_file_as_validate_does(tmp_path, command, name):
    """`show` and `html` of an empty file said "no record found" alone, without the note the other
    commands give first."""
    path = tmp_path / name
    path.write_text("\n")
    result = CliRunner().invoke(main, [command, str(path)])
    said = f"lusoria: {path}: skipped, an empty file, no record\nlusoria: no record found in {path}\n"
    assert (result.exit_code, result.stderr, result.stdout) == (2, said, "")


def test_an_empty_file_of_no_format_s_extension_in_a_folder_is_said_to_be_in_none(tmp_path):
    """An empty `notes.md` beside the games is no record file, as it would be with text in it: "an empty
    file" is said of the formats' extensions alone (docs/formats.md)."""
    (tmp_path / "notes.md").write_text("")
    result = CliRunner().invoke(main, ["validate", str(tmp_path)])
    assert result.stderr.startswith(f"lusoria: {tmp_path / 'notes.md'}: skipped, not a record file (.lgn, ")


def test_a_forced_formats_folder_says_each_file_of_another_suffix_skipped_for_its_suffix_alone(tmp_path):
    """With a format forced (`--from tafl`), a folder's files not of its suffix are each said not of it:
    its .log files not summed in one note of the server's logs, an empty .json not said empty, a .pgn
    file not told how a folder's .pgn files are read (all of which the unforced walk says)."""
    for name, text in [("a.log", "x\n"), ("b.log", "y\n"), ("empty.json", ""), ("game.pgn", '[Event "x"]\n')]:
        (tmp_path / name).write_text(text)
    (tmp_path / "game.txt").write_text("e3-c3\n")
    found = list(walk(str(tmp_path), format="tafl"))
    assert found[-1] == str(tmp_path / "game.txt")
    assert found[:-1] == [
        Skipped(str(tmp_path / name), "not a .txt file, as tafl files are")
        for name in ("a.log", "b.log", "empty.json", "game.pgn")
    ]


@pytest.fixture
def two_folders(tmp_path):
    """Two folders of a club's, `a` and `b`, given the same files (`names`, each holding `text`): their
    paths, as a run is given them (the first file a run skips of a kind says, once across them, how to read it)."""

    def filled(names: tuple[str, ...], text: str) -> list[str]:
        for folder in ("a", "b"):
            (tmp_path / folder).mkdir()
            for name in names:
                (tmp_path / folder / name).write_text(text)
        return [str(tmp_path / "a"), str(tmp_path / "b")]

    return filled


def test_a_folders_md_move_list_is_skipped_and_the_first_such_file_says_how_to_read_one(tmp_path, two_folders):
    """A move list kept as `round1.md` in a club's folder was skipped as 'not a record file' and no more,
    though given by its own path it is read by what it holds: the first file of a name no format has
    whose first characters are a format's says so, once in a run, across the folders given (`.txt`
    files, whose first characters are read, and compressed ones have their own notes; a README.md or
    an expected.tsv beside the games, which hold none, is not told to be given by its path)."""
    folders = two_folders(("round1.md", "round2.md"), "e7-e6 d1-d2\n")
    (tmp_path / "a" / "notes.txt").write_text("bring the boards\n")
    (tmp_path / "a" / "README.md").write_text("# Club games\n\nRound 1, 2 December.\n")
    (tmp_path / "a" / "expected.tsv").write_text("file\tvalid\nround1.md\t1\n")
    (tmp_path / "a" / "engine.txt").write_text("d6-c6 e4-e1,0,0,Ongoing\n")  # a format's name: told its own
    (tmp_path / "a" / "lost.md").symlink_to(tmp_path / "nowhere.md")  # (no first characters: said as the others)
    result = CliRunner().invoke(main, ["validate", *folders])
    skipped = ", not a record file (.lgn, .otg, .otn, .txt, .json, .log, .csv)"
    hint = (
        "; it starts as tafl files do: name it .txt; a file of a name no format has, given by its own path (not its "
        "folder's), is read by what it holds (said once)"
    )
    txt = ", a .txt file that is neither tafl move lists nor a Tablut Challenge game log"
    assert result.stderr.splitlines()[:9] == [
        f"lusoria: {tmp_path / 'a' / 'README.md'}: skipped{skipped}",
        f"lusoria: {tmp_path / 'a' / 'engine.txt'}: skipped{txt}; it starts as csv files do: name it .csv",
        f"lusoria: {tmp_path / 'a' / 'expected.tsv'}: skipped{skipped}",
        f"lusoria: {tmp_path / 'a' / 'lost.md'}: skipped{skipped}",
        f"lusoria: {tmp_path / 'a' / 'notes.txt'}: skipped{txt}",
        f"lusoria: {tmp_path / 'a' / 'round1.md'}: skipped{skipped}{hint}",
        f"lusoria: {tmp_path / 'a' / 'round2.md'}: skipped{skipped}",
        f"lusoria: {tmp_path / 'b' / 'round1.md'}: skipped{skipped}",
        f"lusoria: {tmp_path / 'b' / 'round2.md'}: skipped{skipped}",
    ]
    read = CliRunner().invoke(main, ["validate", str(tmp_path / "a" / "round1.md")])
    assert read.stdout.startswith(f"{tmp_path / 'a' / 'round1.md'}:1:1: error[T1]: move 1, Black: the piece on e7 ")
    forced = CliRunner().invoke(main, ["validate", "--from", "tafl", *folders])
    not_txt = ", not a .txt file, as tafl files are"
    assert forced.stderr.splitlines()[:5] == [  # (--from tafl: its .txt files read, the others not; the hint as well)
        f"lusoria: {tmp_path / 'a' / 'README.md'}: skipped{not_txt}",
        f"lusoria: {tmp_path / 'a' / 'expected.tsv'}: skipped{not_txt}",
        f"lusoria: {tmp_path / 'a' / 'lost.md'}: skipped{not_txt}",
        f"lusoria: {tmp_path / 'a' / 'round1.md'}: skipped{not_txt}{hint}",
        f"lusoria: {tmp_path / 'a' / 'round2.md'}: skipped{not_txt}",
    ]


def test_under_from_a_folders_file_of_another_format_is_not_told_a_name_that_would_be_skipped_too(tmp_path):
    """`validate --from tafl games/`, a transcription `ours.pgn` beside a move list `round1.md`: the .pgn
    was told to be named .lgn (skipped too under --from tafl) and that given by its path it is read by what
    it holds (as tafl, in errors), which took the one hint from round1.md, which renamed .txt is read."""
    (tmp_path / "ours.pgn").write_text('[Game "tablut"]\n1. e3-c3 *\n')
    (tmp_path / "round1.md").write_text("e7-e6 d1-d2\n")
    result = CliRunner().invoke(main, ["validate", "--from", "tafl", str(tmp_path)])
    not_txt = ": skipped, not a .txt file, as tafl files are"
    assert result.stderr.splitlines()[:2] == [
        f"lusoria: {tmp_path / 'ours.pgn'}{not_txt}",
        f"lusoria: {tmp_path / 'round1.md'}{not_txt}; it starts as tafl files do: name it .txt; a file of a name no "
        "format has, given by its own path (not its folder's), is read by what it holds (said once)",
    ]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_a_named_pipe_read_to_its_end_is_not_opened_again_to_ask_if_it_was_empty(tmp_path):
    """`lusoria validate fifo.lgn` (a named pipe that gave no record) hung: `empty_file` opened the
    pipe again, which waits for a writer. A writer that comes here would make it an empty file."""
    fifo = tmp_path / "fifo.lgn"
    os.mkfifo(fifo)
    writer = threading.Thread(target=lambda: open(fifo, "wb").close(), daemon=True)  # waits for a reader
    writer.start()
    said = empty_file(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # the writer's reader, when empty_file was not
    writer.join()
    os.close(reader)
    assert said is False


def test_an_empty_file_read_in_a_format_forced_is_said_so_too(tmp_path):
    (tmp_path / "blank.txt").write_text("\n\n")
    for format in ("tafl", "csv", "aage", "otn", "tablut-challenge", "lgn"):
        result = CliRunner().invoke(main, ["validate", "--from", format, str(tmp_path / "blank.txt")])
        assert result.exit_code == 2 and result.stderr.startswith(
            f"lusoria: {tmp_path / 'blank.txt'}: skipped, an empty file, no record\n"
        ), format


def test_plurals():
    assert [plural(n, "record") for n in (0, 1, 2)] == ["0 records", "1 record", "2 records"]
    assert plural(1, "prefix", "prefixes") == "1 prefix" and plural(3, "prefix", "prefixes") == "3 prefixes"


def test_one_record_counts_in_the_singular(tmp_path):
    db = str(tmp_path / "one.db")
    runner = CliRunner()
    assert runner.invoke(main, ["import", "--db", db, str(ESCAPE)]).output.endswith(
        "added 1 record (0 invalid, 0 of them unparsable), skipped 0 duplicates\n"
    )
    assert runner.invoke(main, ["import", "--db", db, str(ESCAPE)]).output.endswith(
        f"skipped 1 duplicate\n{ESCAPE}:1: skipped, the same game as record 1\n"
    )
    assert runner.invoke(main, ["stats", "--db", db]).output.startswith("1 record: 1 valid, 0 invalid")


def test_random_count_has_one_name():
    runner = CliRunner()
    short = runner.invoke(main, ["random", "--game", "tablut", "-n", "2", "--max-plies", "4"]).output
    long = runner.invoke(main, ["random", "--game", "tablut", "--count", "2", "--max-plies", "4"]).output
    assert short == long == "\n".join(api.random_records("tablut", count=2, max_plies=4))


# -- a file in none of lusoria's formats, named on the command line --------------------------------------

BACKGAMMON_MATCH = """; [Site "a backgammon server"]
; [Player 1 "Karin"]
 5 point match

 Game 1
 Karin : 0                         Olof : 0
  1) 52: 13/8 6/1                    31: 8/5 6/5
"""
NOT_A_RECORD = "not a game record in any format lusoria reads: read as lgn, it has no tag and no movetext"


@pytest.mark.parametrize(
    "name, text",
    [
        ("match.mat", BACKGAMMON_MATCH),  # Laquet's plays look like these, but no line starts as movetext
        ("notes.txt", "Club evening: bring boards.\n"),
        ("game.json", "Club evening: bring boards.\n"),  # no JSON
        ("steps.md", "1. Install lusoria\n2. Validate\n"),  # a move number, then no ply
        ("list.md", "1. \n2. x\n"),  # a move number alone on its line (an IndexError, found by atheris)
    ],
)
def test_a_file_in_no_known_format_is_said_to_be_no_game_record(tmp_path, name, text):
    (tmp_path / name).write_text(text)
    result = CliRunner().invoke(main, ["validate", str(tmp_path / name)])
    assert result.exit_code == 1
    assert result.output.startswith(f"{tmp_path / name}:1:1: error[syntax]: {NOT_A_RECORD}\n")


@pytest.mark.parametrize("quote", ["> ", ">", "> > "])
def test_a_record_quoted_in_a_reply_is_told_to_take_its_quote_marks_away(tmp_path, quote):
    """Newcomer-54b: an e-mail's quoted record (every line begins with `> `) was said to have no tag, which it has."""
    record = '[Game "latrunculi"]\n[Variant "petteia"]\n\n1. a2-a5 *\n'
    (tmp_path / "reply.lgn").write_text("".join(quote + line for line in record.splitlines(keepends=True)))
    result = CliRunner().invoke(main, ["validate", str(tmp_path / "reply.lgn")])
    assert result.exit_code == 1
    assert result.output.startswith(
        f"{tmp_path / 'reply.lgn'}:1:1: error[syntax]: {NOT_A_RECORD}; its lines begin with >, as an e-mail's quoted "
        "lines do: take the > away\n"
    )


SAAMI = '"AageGameTypeName": "Historical Hnefatafl 9x9 (Saami Tablut)", "Moves": "f1-f3"'
LATE_SCRAPE = '{"WhiteSidePlayerName": "%s", %s}' % (
    "x" * 5000,
    SAAMI,
)  # its fields past the 4,096 characters looked at
NO_GAME = "JSON, but not an aagenielsen.dk game: a game of the scrape is an object with the fields WhiteSidePlayerName"


@pytest.mark.parametrize(
    "text, said",
    [
        ('{"name": "club"}\n', f"package.json:1:1: error[syntax]: {NO_GAME}"),  # was read as lgn: "no tag"
        ('[\n  {"name": "club"}\n]\n', f"package.json:2:3: error[syntax]: {NO_GAME}"),  # as lgn: a tag line
        (LATE_SCRAPE, "1 record: 1 valid"),  # was read as lgn: "not a game record in any format lusoria reads"
        ("[true]\n", f"package.json:1:2: error[syntax]: {NO_GAME}"),  # JSON of no shape: was read as lgn, as
        ("[null, {}]\n", f"package.json:1:2: error[syntax]: {NO_GAME}"),  # for an array of no object first
        ('"club"\n', f"package.json:1:1: error[syntax]: {NO_GAME}"),
        ("12\n", f"package.json:1:1: error[syntax]: {NO_GAME}"),
        ('[Game "tablut"]\n1. e3-c3 *\n', "1 record: 1 valid"),  # lgn so named: no JSON, read as lgn
        ('[true "tablut"]\n[Game "tablut"]\n1. e3-c3 *\n', "1 record: 1 valid"),  # a tag named true: lgn
    ],
)
def test_a_named_json_file_that_is_json_is_read_as_the_scrape_that_says_what_it_lacks(
    tmp_path, monkeypatch, text, said
):
    monkeypatch.chdir(tmp_path)
    Path("package.json").write_text(text)
    result = CliRunner().invoke(main, ["validate", "package.json"])
    assert said in result.output and result.exit_code == (0 if "valid" in said else 1)


@pytest.mark.parametrize("name", ["late.csv", "late.log", "late.txt", "late"])
def test_a_named_file_that_starts_as_json_is_read_as_the_scrape_whatever_its_name(tmp_path, monkeypatch, name):
    """A scrape saved as `late.csv` or `late.log` was read by the CSV reader (`its moves fit the
    boards of 2 games`) or as a Tablut Challenge log (`no 'Players:' line`), one named `late.txt`
    or `late` as the scrape: JSON that no format's first characters took is the scrape's."""
    monkeypatch.chdir(tmp_path)
    Path(name).write_text(LATE_SCRAPE)
    Path("club.csv").write_text('{"name": "club"}\n')
    read = CliRunner().invoke(main, ["validate", name])
    assert (read.exit_code, read.output) == (0, "1 record: 1 valid, 0 invalid (0 errors, 0 warnings)\n")
    refused = CliRunner().invoke(main, ["validate", "club.csv"])
    assert refused.exit_code == 1 and refused.output.startswith(f"club.csv:1:1: error[syntax]: {NO_GAME}")


def test_a_quoted_csv_is_not_taken_for_json(tmp_path, monkeypatch):
    """A text that starts with a quote is JSON when it is a string alone (`"club"`): another
    program's CSV of quoted fields was said to be `JSON, but not an aagenielsen.dk game`, named
    or on standard input; it is no record, as the same CSV unquoted is."""
    monkeypatch.chdir(tmp_path)
    for name, text in (("ratings.csv", '"name","rating"\n"Ann","1500"\n'), ("plain.csv", "name,rating\nAnn,1500\n")):
        Path(name).write_text(text)
        named = CliRunner().invoke(main, ["validate", name])
        assert named.output.startswith(f"{name}:1:1: error[syntax]: {NOT_A_RECORD}\n")
        piped = CliRunner().invoke(main, ["validate", "-"], input=text)
        assert piped.exit_code == 1 and NO_GAME not in piped.output


def test_a_folders_json_file_not_told_a_scrape_by_its_first_characters_is_skipped_with_a_true_note(tmp_path):
    """Said that it held no AageGameTypeName and Moves fields, which it did (past the 4,096
    characters looked at). A skipped file leaves the exit status as it is (a club's folder holds
    other programs' JSON); --from aage reads it."""
    (tmp_path / "late.json").write_text(LATE_SCRAPE)
    (tmp_path / "game.json").write_text("{%s}" % SAAMI)
    result = CliRunner().invoke(main, ["validate", str(tmp_path)])
    assert result.exit_code == 0
    assert result.output == (
        f"lusoria: {tmp_path / 'late.json'}: skipped, a .json file that is not an aagenielsen.dk scrape "
        "(no AageGameTypeName in the first 4,096 characters)\n"
        f"1 record: 1 valid, 0 invalid (0 errors, 0 warnings){SKIPPED_ONE}\n"
    )
    forced = CliRunner().invoke(main, ["validate", "--from", "aage", str(tmp_path)])
    assert (forced.exit_code, forced.output) == (0, "2 records: 2 valid, 0 invalid (0 errors, 0 warnings)\n")


def test_a_folders_scrape_cut_short_before_its_moves_is_read_and_said_cut_short(tmp_path):
    """Newcomer-56b: a game file cut short before `Moves` was skipped from a folder as no scrape at all
    (exit 0, the game lost from the import), where named it was read and said cut short."""
    (tmp_path / "game.json").write_text("{%s}" % SAAMI)
    (tmp_path / "cut.json").write_text(("{%s}" % SAAMI)[: ("{%s}" % SAAMI).index('"Moves"')])
    result = CliRunner().invoke(main, ["validate", str(tmp_path)])
    assert result.exit_code == 1 and "skipped" not in result.output
    assert f"{tmp_path / 'cut.json'}:" in result.output and "cut short" in result.output
    assert "\n2 records: 1 valid, 1 invalid (1 error, 0 warnings)\n" in result.output
    import_ = CliRunner().invoke(main, ["import", "--db", str(tmp_path / "a.db"), str(tmp_path)])
    assert "added 2 records (1 invalid, 1 of them unparsable)" in import_.output


def test_a_folders_opentafl_game_saved_as_txt_is_skipped_with_the_name_to_give_it(tmp_path):
    """An OTN game named .txt was said to be neither tafl move lists nor a Tablut Challenge game log,
    and no more: its first characters, as standard input's, say OTN, so the note says to name it .otg."""
    otn = (ROOT / "tests" / "fixtures" / "formats" / "otn" / "brandubh.otg").read_text()
    (tmp_path / "brandubh.txt").write_text(otn)
    result = CliRunner().invoke(main, ["validate", str(tmp_path)])
    assert result.output.startswith(
        f"lusoria: {tmp_path / 'brandubh.txt'}: skipped, a .txt file that is neither tafl move lists nor a "
        "Tablut Challenge game log; it starts as otn files do: name it .otg\n"
    )
    (tmp_path / "brandubh.txt").rename(tmp_path / "brandubh.otg")
    renamed = CliRunner().invoke(main, ["validate", str(tmp_path)])
    assert renamed.output.endswith("1 record: 1 valid, 0 invalid (0 errors, 0 warnings)\n"), renamed.output


def test_a_folders_transcription_in_lgn_saved_as_txt_is_skipped_with_the_name_to_give_it(tmp_path):
    """A historian's Laquet games typed as `laquet.txt` were said to be neither tafl move lists nor a
    Tablut Challenge game log, and no more (found by new-user-25): a Game tag line among its first
    characters says lgn, so the note says to name it .lgn; named, the file is read as lgn."""
    (tmp_path / "laquet.txt").write_text(
        '% Libro de los juegos\n\n[Game "laquet"]\n[White "Alfonso"]\n1. 52: 3/8 3/5 *\n'
    )
    (tmp_path / "notes.txt").write_text('The games of [Game "laquet"] are below.\n')
    result = CliRunner().invoke(main, ["validate", str(tmp_path)])
    neither = "skipped, a .txt file that is neither tafl move lists nor a Tablut Challenge game log"
    assert result.stderr == (
        f"lusoria: {tmp_path / 'laquet.txt'}: {neither}; it starts as lgn files do: name it .lgn\n"
        f"lusoria: {tmp_path / 'notes.txt'}: {neither}\n"
        f"lusoria: no record found in {tmp_path}\n"
    )
    named = CliRunner().invoke(main, ["validate", str(tmp_path / "laquet.txt")])
    assert (named.exit_code, named.output) == (0, "1 record: 1 valid, 0 invalid (0 errors, 0 warnings)\n")


def test_a_csv_file_saved_as_txt_is_read_as_csv_named_and_skipped_with_the_name_to_give_it_in_a_folder(tmp_path):
    """The tafl engines' CSV lines saved as `brandubh-games.txt` were read as move lists: each line
    one syntax error (`found 'c1-a1,0,1,White', expected a move`), and `import` stored each as a
    record of no game. A line of moves, two counts and a status is no move list: named, the file is
    read as CSV; in a folder it is skipped with the name to give it, as an OTN game saved as .txt is."""
    games = (FIXTURES / "csv/brandubh.csv").read_text()
    (tmp_path / "brandubh-games.txt").write_text(games)
    named = CliRunner().invoke(main, ["validate", str(tmp_path / "brandubh-games.txt")])
    count = len(games.splitlines())
    assert (named.exit_code, named.output) == (0, f"{count} records: {count} valid, 0 invalid (0 errors, 0 warnings)\n")
    folder = CliRunner().invoke(main, ["validate", str(tmp_path)])
    assert folder.output.startswith(
        f"lusoria: {tmp_path / 'brandubh-games.txt'}: skipped, a .txt file that is neither tafl move lists nor a "
        "Tablut Challenge game log; it starts as csv files do: name it .csv\n"
    )
    assert format_of("games.txt", "e2-c2 f9-f5,0,0,white\n") is None  # not tafl move lists
    assert format_of("games.txt", "e2-c2 f9-f5 resigned\n") == "tafl"


@pytest.mark.parametrize("named", [True, False])
def test_a_csv_file_of_games_of_an_empty_or_mistyped_status_is_read_as_csv_not_as_move_lists(tmp_path, named):
    """Only a status White, Black, Ongoing or Draw made a line a CSV game, so the move lists' sniffer took
    a .csv file of games of an empty status (an unknown result: real files hold it) or one mistyped,
    since a file no format of its suffix takes is read as another suffix's: named, each game was a
    syntax error at its last move and counts ('found 'c1-a1,0,1,', expected a move … read as tablut
    unless --game or the file's name (brandubh.txt) names it'); in a folder, skipped with 'name it .txt'."""
    games = [line.rsplit(",", 1)[0] for line in (FIXTURES / "csv/brandubh.csv").read_text().splitlines()[:2]]
    (tmp_path / "brandubh.csv").write_text(f"{games[0]},\n{games[1]},Whte\n")
    done = CliRunner().invoke(main, ["validate", str(tmp_path / "brandubh.csv" if named else tmp_path)])
    assert (done.exit_code, done.stderr) == (1, "")
    assert done.stdout.startswith(
        f"{tmp_path / 'brandubh.csv'}:2:{len(games[1]) + 2}: error[syntax]: the status is White, Black, Ongoing, "
        "Draw or empty, not 'Whte' (did you mean White?)\n"
    )
    assert done.stdout.endswith(
        "2 records: 1 valid, 1 invalid (1 error, 0 warnings)\nrules cited: syntax (lusoria explain syntax says what a rule means)\n"
    )
    lines = [f"e2-c2 f9-f5 e3-e4,0,0,{status}\n" for status in ("", "Whte")]
    read_as = [format_of(name, line) for name in ("games.txt", "games.csv") for line in lines]
    assert read_as == [None, None, "csv", "csv"]


def test_a_folders_file_of_no_suffix_is_skipped_with_the_name_its_first_characters_say_to_give_it(tmp_path):
    """A scrape or an OTN game downloaded without its suffix was said to be 'not a record file' and no
    more: its first characters are read, as a .txt file's are, for the name to give it. A file of no
    suffix that is no record, or cannot be read (a link that leads nowhere), is skipped unread as before."""
    otn = (ROOT / "tests" / "fixtures" / "formats" / "otn" / "brandubh.otg").read_text()
    (tmp_path / "brandubh").write_text(otn)
    (tmp_path / "game").write_text("{%s}" % SAAMI)
    (tmp_path / "README").write_text("# the club's games\n")
    (tmp_path / "gone").symlink_to(tmp_path / "nowhere")
    result = CliRunner().invoke(main, ["validate", str(tmp_path)])
    not_a_record = f"skipped, {FORMATS.why_not('README')}"  # every format's endings (test_formats.py checks the list)
    assert result.exit_code == 2 and result.stderr == (
        f"lusoria: {tmp_path / 'README'}: {not_a_record}\n"
        f"lusoria: {tmp_path / 'brandubh'}: {not_a_record}; it starts as otn files do: name it .otg\n"
        f"lusoria: {tmp_path / 'game'}: {not_a_record}; it starts as aage files do: name it .json\n"
        f"lusoria: {tmp_path / 'gone'}: {not_a_record}\n"
        f"lusoria: no record found in {tmp_path}\n"
    )


def test_an_lgn_record_saved_as_txt_is_no_move_list_under_a_greeting(tmp_path):
    """An lgn record saved as .txt was read as a tafl move list, its tag lines passed over as an e-mail's
    greeting and its result marker an error: a tag line is no prose. Named, it is read as lgn; in a
    folder, skipped with the name to give it."""
    (tmp_path / "record.txt").write_text('[Game "tablut"]\n[Variant "aage"]\n\n1. e8-b8 d5-d6 *\n')
    [verdict] = api.validate([str(tmp_path / "record.txt")])
    assert (verdict.source.format, verdict.valid) == ("lgn", True)
    result = CliRunner().invoke(main, ["validate", str(tmp_path)])
    assert result.stderr.startswith(
        f"lusoria: {tmp_path / 'record.txt'}: skipped, a .txt file that is neither tafl move lists nor a Tablut "
        "Challenge game log; it starts as lgn files do: name it .lgn\n"
    )


def test_a_file_of_no_suffix_named_is_read_in_the_format_its_first_characters_say(tmp_path):
    """A move list or CSV rows saved without a suffix and named on the command line were read as lgn:
    'the record has no Game tag', where the folder's walk said 'it starts as tafl files do: name it
    .txt'. Named, such a file is read in that format, as a .txt file of CSV rows is, and so is one of a
    suffix no format has (`game.md`, which was read as lgn: 'the record has no Game tag', and `rows.md`);
    an lgn record of no suffix, or of such a suffix, stays lgn, and a stream without a name is read as
    standard input is (`<stream>`)."""
    record = '[Game "tablut"]\n[Variant "aage"]\n\n1. e8-b8 d5-d6 *\n'
    for suffix in ("", ".md"):
        (tmp_path / f"game{suffix}").write_text("e8-b8 d5-d6\n")
        (tmp_path / f"rows{suffix}").write_text("d2-b2 c4c5,0,0,Ongoing\n")
        (tmp_path / f"record{suffix}").write_text(record)
    named = [str(tmp_path / f"{name}{suffix}") for suffix in ("", ".md") for name in ("game", "rows", "record")]
    verdicts = api.validate(named, tags={"Game": "brandubh"})
    read = [(v.source.format, v.valid) for v in verdicts if isinstance(v, api.Verdict)]
    assert read == [("tafl", False), ("csv", True), ("lgn", True)] * 2
    [streamed] = api.validate([io.StringIO("e8-b8 d5-d6\n")])
    assert (streamed.source.format, streamed.diagnostics[0].message) == (
        "lgn",
        f"{no_game_tag('latrunculi')}; {STREAM_ADVICE}",  # (e8; h81a: how to name its format too)
    )


@pytest.mark.parametrize(
    "text, said",
    [
        (LATE_SCRAPE, "1 record: 1 valid"),  # its fields past the first 4,096 characters: was read as lgn
        ("[true]\n", f"<stdin>:1:2: error[syntax]: {NO_GAME}"),  # was "not a game record in lgn"
        ('{"name": "club"}\n', f"<stdin>:1:1: error[syntax]: {NO_GAME}"),
    ],
)
def test_standard_input_that_starts_as_json_is_read_as_a_json_files_format(text, said):
    """JSON on standard input, which no other format starts as, is read as a `.json` file is
    (`cat late.json | lusoria validate -`), however late the scrape's fields come; so is a stream without a name."""
    result = CliRunner().invoke(main, ["validate", "-"], input=text)
    assert said in result.output and result.exit_code == (0 if "valid" in said else 1)
    [record] = api.validate(io.StringIO(text))
    assert record.source.format == "aage"


def test_standard_input_in_no_format_it_tells_is_said_to_be_no_lgn_record():
    """`lusoria validate - < match.mat`: standard input whose first lines say no format is read as
    lgn (no name to tell its format by), so it is not said to be "in no format lusoria reads"."""
    result = CliRunner().invoke(main, ["validate", "-"], input=BACKGAMMON_MATCH)
    assert result.exit_code == 1
    assert result.output.startswith(
        "<stdin>:1:1: error[syntax]: not a game record in lgn, which standard input is read as unless its "
        "first lines or --from name another format: it has no tag and no movetext\n"
    )


@pytest.mark.parametrize(
    "text", ["e8-b8 d5-d6 d1-d5xc5 timeout\n", "h1-h3 f8-i8 f10-i10 d6-d3,0,0,Ongoing\n"], ids=["tafl", "csv"]
)
def test_a_move_list_piped_without_from_is_told_how_to_read_it(text):
    """`cat moves.txt | lusoria validate -`: a tafl move list or a CSV line reads as lgn movetext
    with no tag, and the error names --from tafl and --from csv, not only the missing Game tag."""
    result = CliRunner().invoke(main, ["validate", "-"], input=text)
    assert result.exit_code == 1
    assert result.output.startswith(
        "<stdin>:1:1: error[tag]: the record has no Game tag; standard input is read as lgn unless its first"
        " lines or --from name another format (--from tafl reads tafl move lists, --from csv the tafl"
        " engines' CSV lines)\n"
    )
    tagged = CliRunner().invoke(main, ["validate", "-"], input='[Event "club"]\n1. e3-c3 *\n')
    assert f"error[tag]: {no_game_tag('tablut')}\n" in tagged.output  # an lgn record, but for its Game tag
    [tagged_stream] = api.validate([io.StringIO('[Event "club"]\n1. e3-c3 *\n')])  # (lgn: its Game tag alone)
    assert tagged_stream.diagnostics[0].message == no_game_tag("tablut")
    [streamed] = api.validate([io.StringIO(text)])  # (a library's stream without a name: h81a, told to write a tag)
    assert streamed.diagnostics[0].message.startswith("the record has no Game tag: begin it with one, as [Game ")
    assert streamed.diagnostics[0].message.endswith(
        "; a stream without a name is read as lgn unless its first lines or format= name another format "
        '(format="tafl" reads tafl move lists, format="csv" the tafl engines\' CSV lines)'
    )


FIXTURES = ROOT / "tests/fixtures/formats"
TOLD_BY_CONTENT = [
    FIXTURES / "otn/brandubh.otg",
    FIXTURES / "otn/variations.otg",
    FIXTURES / "aage/copenhagen.json",
    FIXTURES / "tablut-challenge/Conti_vs_Gallo_1607609421000_gameLog.txt",
]


@pytest.mark.parametrize("path", TOLD_BY_CONTENT, ids=lambda path: path.name)
def test_standard_input_is_read_in_the_format_its_first_lines_say(path):
    """`cat game.otg | lusoria validate -`: an OTN game, an aagenielsen.dk scrape or a Tablut
    Challenge log on standard input is read as the file is, without --from."""
    by_name = CliRunner().invoke(main, ["validate", str(path)])
    piped = CliRunner().invoke(main, ["validate", "-"], input=path.read_bytes())
    assert (piped.exit_code, piped.output) == (by_name.exit_code, by_name.output.replace(str(path), "<stdin>"))
    assert by_name.exit_code in (0, 1) and "<stdin>:1:1: error[syntax]" not in piped.output


@pytest.mark.parametrize("path", TOLD_BY_CONTENT, ids=lambda path: path.name)
def test_a_file_whose_name_says_no_format_is_read_in_the_one_its_first_lines_say(path, tmp_path):
    """A Tablut Challenge log saved as `game.log` (an OTN game, a scrape so named) is read as it
    is on standard input, not as lgn ("not a game record in any format lusoria reads")."""
    renamed = tmp_path / "game.log"
    renamed.write_bytes(path.read_bytes())
    by_name = CliRunner().invoke(main, ["validate", str(path)])
    as_renamed = CliRunner().invoke(main, ["validate", str(renamed)])
    assert (as_renamed.exit_code, as_renamed.output) == (
        by_name.exit_code,
        by_name.output.replace(str(path), str(renamed)),
    )


@pytest.mark.parametrize(
    "command, said",
    [
        (["show"], "brandubh (standard) after ply 16 of 16"),
        (["convert", "--to", "lgn"], '[Game "brandubh"]'),
        (["fmt", "--check"], "lusoria: -: --check and --write apply to lgn files, and this one is otn"),
        (["import", "--db", "club.db"], "club.db: added 1 record (0 invalid"),
    ],
)
def test_every_command_reads_an_otn_game_on_standard_input_as_with_from_otn(command, said, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    otg = (FIXTURES / "otn/brandubh.otg").read_bytes()
    told = CliRunner().invoke(main, [*command, "--from", "otn", "-"], input=otg)
    (tmp_path / "club.db").unlink(missing_ok=True)
    piped = CliRunner().invoke(main, [*command, "-"], input=otg)
    assert (piped.exit_code, piped.output) == (told.exit_code, told.output)
    assert said in piped.output


def test_standard_input_is_told_by_its_first_lines_a_file_by_its_name():
    otn = (FIXTURES / "otn/brandubh.otg").read_text()
    assert format_of("-", otn) == "otn" and format_of("-", "\n\n  " + otn) == "otn"
    assert format_of("-", (FIXTURES / "aage/copenhagen.json").read_text()) == "aage"
    assert format_of("-", '[Game "tablut"]\n1. e3-c3 *\n') is None  # lgn
    assert format_of("-", "e3-c3 d1-d3\n") is None  # a move list may be lgn's movetext: --from tafl
    assert format_of("game.lgn", otn) == "lgn" and format_of("game.txt", otn) is None  # a name wins
    assert format_of("-", "[rules:dim:7 atkf:y]\n"[:10]) == "otn"  # a head cut inside the tag


LOG = (FIXTURES / "tablut-challenge/Conti_vs_Gallo_1607609421000_gameLog.txt").read_text()


def test_a_tablut_challenge_log_is_told_by_its_players_line_and_its_start_or_a_state():
    """Its Players line, and the game's start (`Inizio partita`) or a state (`Stato:`): a log cut
    before its first state is still one, a text with a state and no Players line is not."""
    before_the_first_state = LOG[: LOG.index("Stato:")]
    assert "Inizio partita" in before_the_first_state
    assert format_of("-", before_the_first_state) == "tablut-challenge"
    assert format_of("renamed.txt", LOG) == "tablut-challenge"  # a log saved under another name
    assert format_of("-", LOG.replace("Players:\t", "Players: ")) is None
    assert format_of("-", "FINE: Stato:\nOOOBBBOOO\n") is None and format_of("notes.txt", "Stato: ok\n") is None


def test_a_tablut_challenge_log_without_its_start_message_saved_as_a_txt_file_is_read_as_the_log(tmp_path):
    """A log whose `Inizio partita` message was left out (cut by hand, or by a server that does not
    write it), saved as `game.txt`: told by its Players line and its boards, it was read as lgn, "not a
    game record in any format lusoria reads"."""
    date, start = LOG.split("\n")[4:6]
    assert start == "FINE: Inizio partita"
    without = LOG.replace(f"{date}\n{start}\n", "", 1)
    assert "Inizio partita" not in without
    assert format_of("game.txt", without) == "tablut-challenge"
    (tmp_path / "game.txt").write_text(without)
    [record] = read_sources(str(tmp_path / "game.txt"))
    assert record.format == "tablut-challenge"
    result = CliRunner().invoke(main, ["validate", str(tmp_path / "game.txt")])
    assert (result.exit_code, result.output) == (0, "1 record: 1 valid, 0 invalid (0 errors, 0 warnings)\n")
    shown = CliRunner().invoke(main, ["convert", "--to", "lgn", str(tmp_path / "game.txt")])
    assert '[White "Conti"]' in shown.stdout and '[Black "Gallo"]' in shown.stdout and "e2-a2" in shown.stdout


def test_a_file_named_as_a_game_log_is_one_whatever_it_holds():
    """`*_gameLog.txt` names the format: a log whose first line reads as a tafl move list is not
    read as one."""
    assert format_of("Conti_vs_Gallo_1607609421000_gameLog.txt", "e3-c3 d1-d3\n") == "tablut-challenge"
    assert format_of("moves.txt", "e3-c3 d1-d3\n") == "tafl"


def test_an_otn_game_on_standard_input_with_from_lgn_is_read_as_lgn():
    otg = (FIXTURES / "otn/brandubh.otg").read_text()
    result = CliRunner().invoke(main, ["validate", "--from", "lgn", "-"], input=otg)
    assert result.exit_code == 1 and "which standard input is read as unless" in result.output


@pytest.mark.parametrize(
    "text, game",
    [
        ("1. e3-c3 e4-b4 *\n", "tablut"),  # no tag at all (a ply of every tafl game's, legal in Tablut's)
        ('[Event "club"]\n1. e3-c3 *\n', "tablut"),  # tags, but not Game
        ("{ from the club book } e3c3 d1-d3 *\n", None),  # a comment, and a slip in the first ply
        ("1. 63: 5/11 1/4\n", "laquet"),  # no result marker either (newcomer-53a: it was told `[Game "brandubh"]`)
        ("1.\ne3c3 d1-d3 *\n", None),  # the move number's ply, a slip, on the next line
        ("%note\n1. @d4 @e5 *\n", "latrunculi"),
        ("*\n", None),
        ('[Variant "dux"]\n*\n', "latrunculi"),  # its Variant tells (newcomer-54b: it was told `[Game "brandubh"]`)
        ('[Variant " Dux "]\n1. a1-a5 *\n', "latrunculi"),  # of the games that read its first ply as far
        ('[Variant "copenhagen"]\n*\n', "copenhagen"),  # a game's name
        ('[Variant "seed"]\n1. 53: 5/10 10/13 *\n', "laquet"),  # its first ply first (tablut has a seed too)
        ('[Variant "linnaeus"]\n1. a1-a5 *\n', "tablut"),  # a ply every tafl game reads: its Variant's game
        ('[Variant "dux"]\n1. 53: 5/10 10/13 *\n', "laquet"),  # a ply only laquet reads: laquet, whatever it says
        ("1. e3-c3 i6-f6 2. c5-c3 *\n", "tablut"),  # newcomer-55a: told brandubh, whose board has no i6
        ("1. a4-a2 k6-k4 *\n", "copenhagen"),  # a first ply legal under its rules
        ("1. d1-c1 f4-f3 *\n", "copenhagen"),  # its first ply legal in brandubh too, its second in copenhagen alone
        ("1. e5-e7 a1-a2 *\n", "brandubh"),  # legal under none: the smallest board that holds its squares
        # h78c: a rank past the boards of 7 and 8 ranks, on their files (was told latrunculi, whose board has no a9)
        ("1. a9-a1 *\n", "tablut"),
    ],
)
def test_a_record_that_lacks_only_its_game_tag_still_says_so(tmp_path, text, game):
    (tmp_path / "game.lgn").write_text(text)
    report = next(api.reports([str(tmp_path / "game.lgn")]))
    said = [(d.rule, d.message, d.line, d.column) for d in report.diagnostics][:1]
    assert said == [("tag", no_game_tag(game), 1 + text.startswith("%"), 1)]


@pytest.mark.parametrize(
    "first", ["d2-b2 c4c5,0,0", '"d2-b2 c4c5",0,0,"Ongoing', "d2-b2;c4c5;0;0;Ongoing", "moves,defenders lost"]
)
def test_a_csv_file_whose_first_game_is_mistyped_is_read_as_csv(tmp_path, monkeypatch, first):
    """A status left out, a quote not closed, another separator: the first line alone told the
    format, so a folder skipped the file (its games unchecked, the exit status unchanged) and, named,
    it was one lgn record with no Game tag. Its other lines are CSV games: the first is said at its place."""
    monkeypatch.chdir(tmp_path)
    Path("d").mkdir()
    Path("d/brandubh.csv").write_text(f"{first}\n" + (FIXTURES / "csv/brandubh.csv").read_text())
    for path in ("d/brandubh.csv", "d"):
        result = CliRunner().invoke(main, ["validate", path])
        assert (result.exit_code, result.stderr) == (1, ""), path
        said = (
            "the column names are moves, defenders lost, attackers lost and status, in any order, each once (a "
            "name holding move, defender, attacker, status or result): attackers lost and status are not named"
            if first == "moves,defenders lost"  # a header cut short
            else "a line of a CSV move list is moves,defenders lost,attackers lost,status"
        )
        assert result.stdout.startswith(f"d/brandubh.csv:1:1: error[syntax]: {said}\n")
        assert result.stdout.endswith(
            "5 records: 4 valid, 1 invalid (1 error, 0 warnings)\nrules cited: syntax (lusoria explain syntax says what a rule means)\n"
        )


def test_a_csv_head_cut_after_its_first_games_moves_judges_every_move():
    """A head that ends inside the first line's counts (a game longer than the bytes looked at) holds its moves
    whole: the last is no word cut short and is judged, as a line's moves are (`_is_move_list`: a slip counts
    where a move is well written); cut inside the moves, the last word is not (h80b: `len(fields) > 1` made `> 2`)."""
    from lusoria.formats.tafl import looks_like_csv

    assert looks_like_csv("e4-ee1 d1-c1x d3-d1,0")  # (slips of moves, the last written well)
    assert not looks_like_csv("e4-ee1 d1-c1x d3-d1")


@pytest.mark.parametrize("padding, format", [(6, "csv"), (0, "tafl")])
def test_a_files_format_is_told_by_its_first_4096_bytes(tmp_path, padding, format):
    """A first line of moves without the counts and status of a CSV game: one that goes on past
    the first 4,096 bytes may still be one (its moves so far say so), one that ends within them is
    not (a directory's walk skips the file, which starts as a tafl move list whose first word is a
    slip does; named alone, it is read as those move lists, the slip an error at its place)."""
    line = "e2-c2" + " " * padding + ("e2-c2 " * 681)[:-1]  # 4,090 bytes, and the padding
    path = tmp_path / "brandubh.csv"
    path.write_text(line + "\n")
    assert len(line) == 4090 + padding
    [found] = walk([tmp_path])
    assert found == (
        str(path)
        if format == "csv"
        else Skipped(
            str(path),  # (h79a: a tafl move list's first line may hold slips)
            "a .csv file that is not a tafl move list (moves,defenders lost,attackers lost,status); it starts as "
            "tafl files do: name it .txt",
        )
    )
    assert [record.format for record in read_sources(path)] == [format]


@pytest.mark.parametrize(
    "source",
    [lambda text: text, lambda text: text.replace("\n", " "), io.StringIO],
    ids=["text", "one line", "stream"],
)
def test_a_text_decoded_with_its_byte_order_mark_reads_as_without_it(source):
    """What a web form's upload gives when decoded as utf-8, not utf-8-sig (files and standard input
    are decoded without the mark)."""
    text = '\ufeff[Game "tablut"]\n1. e3-c3 d1-d3 *\n'
    [verdict] = api.validate([source(text)])
    assert (verdict.game, verdict.valid, verdict.plies, verdict.diagnostics) == ("tablut", True, 2, [])
    assert api.board(source(text)).ply == 2


@given(st.lists(st.sampled_from([b"\\", b"\\xe9", b"x", b"e9", b"\xe9", b"\xc3\xa9", b"/"]), max_size=8))
def test_a_file_name_is_shown_as_one_text_that_gives_it_back(parts):
    """`games/caf\\xe9.lgn` (a backslash, x, e, 9) and Latin-1 `games/café.lgn` were both shown
    `games/caf\\xe9.lgn`: a backslash is now shown doubled, so that each text shows one name."""
    name = os.fsdecode(b"".join(parts))
    shown = shown_path(name)
    assert (fs_path(shown), shown.encode().decode()) == (name, shown)  # (text: no byte left undecoded)


def test_a_backslash_and_a_byte_that_is_not_utf8_are_shown_escaped():
    assert shown_path(os.fsdecode(b"caf\xe9.lgn")) == "caf\\xe9.lgn"
    assert shown_path("caf\\xe9.lgn") == "caf\\\\xe9.lgn"
    assert fs_path("old\\name.lgn") == "old\\name.lgn"  # (a backslash shown single by an older lusoria)


def test_a_file_skipped_is_named_as_every_message_names_it(tmp_path):
    """A skipped file's name was written as the file system's decoding gives it (`caf\\udce9.lgn`
    for Latin-1 `café.lgn`, a backslash single), where a record's place shows it `caf\\xe9.lgn`."""
    try:
        (tmp_path / os.fsdecode(b"caf\xe9.lgn")).write_text(TWO)
    except (OSError, UnicodeEncodeError):
        pytest.skip("this file system takes no name that is not UTF-8")
    (tmp_path / "a\\b.lgn").write_text(TWO)
    os.symlink(tmp_path / os.fsdecode(b"caf\xe9.lgn"), tmp_path / "link.lgn")
    result = CliRunner().invoke(main, ["validate", "--from", "otn", str(tmp_path)])
    assert result.stderr.splitlines()[:2] == [
        f"lusoria: {tmp_path}/a\\\\b.lgn: skipped, not a .otg or .otn file, as otn files are",
        f"lusoria: {tmp_path}/caf\\xe9.lgn: skipped, not a .otg or .otn file, as otn files are",
    ]
    result = CliRunner().invoke(
        main, ["validate", os.fsdecode(b"%s/caf\xe9.lgn" % bytes(tmp_path)), str(tmp_path / "link.lgn")]
    )
    assert (
        result.stderr == f"lusoria: {tmp_path}/link.lgn: skipped, the same file as {tmp_path}/caf\\xe9.lgn: read once\n"
    )


@pytest.mark.parametrize("command", ["validate", "import", "fmt"])
def test_a_folder_walked_tells_a_file_by_its_content_in_the_encoding_given(tmp_path, monkeypatch, command):
    """A `.txt` file is a move list or a game log by its first lines: decoded as `--encoding`
    says, as when the file is named alone (they were decoded as UTF-8, and the file skipped)."""
    monkeypatch.chdir(tmp_path)
    os.mkdir("d")
    Path("d/game.txt").write_bytes("d1-d3 f5-f8\n".encode("utf-16-le"))
    options = {"validate": [], "import": ["--db", "a.db"], "fmt": ["--check"]}[command]
    said = {
        "validate": ["1 record: 1 valid, 0 invalid (0 errors, 0 warnings)\n"] * 2,
        "import": [
            f"a.db: added {added} (0 invalid, 0 of them unparsable), skipped {skipped}\n"
            for added, skipped in (
                ("1 record", "0 duplicates"),
                ("0 records", "1 duplicate\nd/game.txt:1: skipped, the same game as record 1"),
            )
        ],
        "fmt": [""] * 2,
    }[command]
    errors = {
        "fmt": [
            "lusoria: d/game.txt: --check and --write apply to lgn files, and this one is tafl; lusoria convert writes it as lgn\n",
            "lusoria: d/game.txt: skipped, read as tafl: --check and --write apply to lgn files\n",
        ]
    }.get(command, [""] * 2)
    for path, output, error in zip(("d/game.txt", "d"), said, errors):
        result = CliRunner().invoke(main, [command, *options, "--encoding", "utf-16-le", path])
        assert (result.stdout, result.stderr) == (output, error)


def test_an_archive_imports_a_folder_in_the_encoding_given(tmp_path):
    """`import_paths` walks a folder as the command does (above)."""
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "game.txt").write_bytes("d1-d3 f5-f8\n".encode("utf-16-le"))
    summary = Archive(str(tmp_path / "a.db")).import_paths([str(tmp_path / "d")], encoding="utf-16-le")
    assert (summary.added, summary.invalid) == (1, 0)


@pytest.mark.parametrize(
    "encoding, message",
    [
        ("nosuch", "unknown encoding 'nosuch' (e.g. utf-8, latin-1, cp1252)"),
        ("rot13", "'rot13' is not a text encoding"),
    ],
)
def test_a_file_whose_name_does_not_say_its_format_read_in_an_unknown_encoding_is_said_unreadable(
    tmp_path, encoding, message
):
    """`read_sources` takes any encoding's name (the CLI's --encoding and a walk refuse an unknown
    one): the first bytes of a .txt file, which tell its format, decode to nothing, and reading it
    says why (the mutant: an AttributeError), as a walk says it (`record_at` said Python's `unknown
    encoding: nosuch`, and of rot13 `use codecs.open() to handle arbitrary codecs`), naming the file."""
    path = tmp_path / "games.txt"
    path.write_text('[Game "tablut"]\n1. e3-c3 *\n')
    for reading in (lambda: list(read_sources(str(path), encoding=encoding)), lambda: record_at(path, 0, encoding)):
        with pytest.raises(InputError) as unreadable:
            reading()
        assert (str(unreadable.value), unreadable.value.parameter) == (f"{path}: {message}", "encoding")


@pytest.mark.parametrize(
    "encoding, message",
    [
        ("nosuch", "unknown encoding 'nosuch' (e.g. utf-8, latin-1, cp1252)"),
        ("rot13", "'rot13' is not a text encoding"),
    ],
)
def test_an_encoding_that_is_none_is_one_error_before_a_folder_is_read(tmp_path, encoding, message):
    """A folder read with an unknown encoding said "unknown encoding" of its .lgn files, but of a
    .txt file (whose first bytes decoded to nothing) "neither tafl move lists nor a Tablut Challenge
    game log": the encoding is refused once, as the CLI's --encoding refuses it, for every kind of file."""
    for name in ("a.lgn", "b.txt", "c.log"):
        (tmp_path / name).write_text('[Game "tablut"]\n1. e3-c3 *\n')
    for reading in (
        lambda: list(api.validate([str(tmp_path)], encoding=encoding)),
        lambda: list(api.records([str(tmp_path)], encoding=encoding)),
        lambda: Archive(str(tmp_path / "games.db")).import_paths([str(tmp_path)], encoding=encoding),
    ):
        with pytest.raises(InputError) as refused:
            reading()
        assert (str(refused.value), refused.value.parameter) == (message, "encoding")


def test_a_format_that_is_none_is_one_error_that_names_those_there_are(tmp_path):
    """A researcher's `api.validate(["games"], format="pgn")` raised a bare KeyError: 'pgn' from the
    folder's walk, and `record_at` said the formats known were otn, tafl… (not lgn): every call now says
    it as --from does, before a source is read, and an import stores nothing."""
    (tmp_path / "a.lgn").write_text('[Game "tablut"]\n1. e3-c3 *\n')
    (tmp_path / "empty").mkdir()  # a folder of no file: refused all the same, not skipped
    known = ", ".join(api.source_formats())
    assert known.startswith("lgn, otn, ")
    for reading in (
        lambda: list(api.validate([str(tmp_path)], format="pgn")),
        lambda: list(api.validate([str(tmp_path / "a.lgn")], format="pgn")),
        lambda: list(api.validate([str(tmp_path / "empty")], format="pgn")),
        lambda: api.record_at(str(tmp_path / "a.lgn"), format="pgn"),
        lambda: api.record_at(io.StringIO("e3-c3 *\n"), format="pgn"),
        lambda: Archive(str(tmp_path / "games.db")).import_paths([str(tmp_path)], format="pgn"),
    ):
        with pytest.raises(ValueError) as refused:
            reading()
        assert str(refused.value) == f"unknown format 'pgn' (known: {known})"
    assert not (tmp_path / "games.db").exists()
    with pytest.raises(ValueError) as whole:
        list(read_text("1. e3-c3 *\n", "lgn", "a.lgn"))
    assert str(whole.value) == "lgn records are split as they stream (notation.reader.split_records), not read whole"


def test_a_source_read_alone_in_a_format_that_is_none_is_refused_before_it_is_read(tmp_path):
    """`record_at` and `read_sources` read no folder's walk: a blank file read with `format="pgn"`
    was `has no record 0: it has 0 records`, and a missing one `no such file or directory`."""
    (tmp_path / "blank.lgn").write_text("\n\n")
    stream = io.StringIO('[Game "tablut"]\n1. e3-c3 *\n')
    for reading in (
        lambda: api.record_at(str(tmp_path / "blank.lgn"), format="pgn"),
        lambda: api.record_at(str(tmp_path / "missing.lgn"), format="pgn"),
        lambda: list(read_sources(str(tmp_path / "blank.lgn"), format="pgn")),
        lambda: list(read_sources(stream, format="pgn")),
        lambda: list(read_sources("\n", format="pgn")),
    ):
        with pytest.raises(ValueError, match=r"^unknown format 'pgn' \(known: lgn, otn, "):
            reading()
    assert stream.tell() == 0


@pytest.mark.parametrize("command", [["validate"], ["show"], ["html"], ["import", "--db", "club.db"]])
def test_blank_standard_input_is_said_as_an_empty_file_is(tmp_path, monkeypatch, command):
    """The reading that finds no record tells whether the source held blanks at most: standard input,
    which cannot be read again to ask, gets such a note too, as standard input (newcomer-58b: `query … | lusoria
    html -` said `-: skipped, an empty file`, where the command before the pipe wrote nothing)."""
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, [*command, "-"], input="\n \n")
    assert result.exit_code == 2
    assert result.stderr == (
        "lusoria: -: skipped, standard input held no record, nothing or blanks only\nlusoria: no record found in -\n"
    )


def test_progress_is_told_after_each_record_of_a_file_not_only_at_its_end(tmp_path):
    """An import's progress bar moves as a file's records are read (the bytes read so far, then
    none more), the rest of its size told when it is done."""
    path = tmp_path / "two.lgn"
    path.write_text(TWO)
    told: list[int] = []
    reading = read_sources(path, progress=told.append)
    next(reading)
    next(reading)
    assert told == [len(TWO)]  # (the file read whole into the buffer at the first record)
    assert len(list(reading)) == 0 and told == [len(TWO), 0, 0]


def test_an_empty_path_is_said_unreadable_by_every_call_that_takes_paths(tmp_path, monkeypatch):
    """`""` is no file, not the current folder (once walked, and said "no file in it" or read in
    full): each call says so in its place, and reads the path after it."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "games.lgn").write_text(TWO)
    said = Unreadable("", EMPTY_PATH)
    assert said.message.startswith("'' (an empty path) names no file: give a file's or a folder's path")
    for call in (api.records, api.reports, api.validate, api.fitting, api.canonical_records):
        items = list(call(["", "games.lgn"]))
        assert (items[0], len(items)) == (said, 3), call.__name__
    assert list(api.duplicates(["", "games.lgn"]))[0] == said
    with pytest.raises(InputError, match=r"^'' \(an empty path\) names no file"):
        list(read_sources(""))
    summary = Archive(tmp_path / "a.db").import_paths(["", "games.lgn"])
    assert "added 2 records" in str(summary) and f"could not read 1 source: {EMPTY_PATH}" in str(summary)
    done = CliRunner().invoke(main, ["validate", "", "games.lgn"])
    assert (done.exit_code, done.stderr) == (2, f"lusoria: {EMPTY_PATH}\n")


def test_a_folders_pgn_files_are_said_once_to_be_read_renamed_or_by_their_path(tmp_path, two_folders):
    """A club's `.pgn` files were skipped as 'not a record file' and no more: the first note says, once in a
    run across the folders given, that a folder's .pgn is not read, one in lgn is renamed .lgn, and a file
    named is read by what it holds; one that starts as lgn says the name to give it, as any file does. The
    others of a folder are one note with their count (a line each was 300 lines for a club's folder)."""
    folders = two_folders(("club.pgn", "more.pgn"), '[Event "Club night"]\n[White "a"]\n1. e4 e5 *\n')
    (tmp_path / "a" / "ours.pgn").write_text('[Game "tablut"]\n1. e3-c3 *\n')
    result = CliRunner().invoke(main, ["validate", *folders])
    skipped = ": skipped, not a record file (.lgn, .otg, .otn, .txt, .json, .log, .csv)"
    kin = (
        "; a folder's .pgn files are not read: one written in lgn is, renamed .lgn, and any file given by its "
        "own path is read by what it holds (said once)"
    )
    lgn = "; it starts as lgn files do: name it .lgn; a file of a name no format has, given by its own path"
    counted = ": skipped, 2 .pgn files, none of them a record file (.lgn, .otg, .otn, .txt, .json, .log, .csv)"
    assert [line.split(str(tmp_path))[1] for line in result.stderr.splitlines()[:3]] == [
        f"/a/ours.pgn{skipped}{lgn} (not its folder's), is read by what it holds (said once)",
        f"/a{counted}{kin}",
        f"/b{counted}",
    ]


def _aage_json(white: str) -> str:
    """An aagenielsen.dk game of the project's fixture with White named `white`, as JSON not escaped."""
    game = json.loads((ROOT / "tests/fixtures/formats/aage/copenhagen.json").read_text())
    return json.dumps({**game, "WhiteSidePlayerName": white}, ensure_ascii=False)


def test_a_file_of_json_in_utf8_is_read_as_utf8_whatever_encoding_is_given(tmp_path, monkeypatch):
    """newcomer-58b: `import --encoding cp1252` of a club's folder, its Windows lgn files beside aagenielsen.dk
    downloads, garbled the downloads' names (`Ã…sa`). JSON is written in UTF-8 (RFC 8259): a file of JSON that
    decodes as UTF-8 is read so, said in a note; one that does not is read with the encoding given, and one in ASCII
    alike in both, without a note; one that begins with UTF-8's byte-order mark, as it says, without a note (it was
    taken for lgn: `ï»¿{` in cp1252)."""
    monkeypatch.chdir(tmp_path)
    os.mkdir("club")
    Path("club/download.json").write_text(_aage_json("Åsa Ström"), encoding="utf-8")
    Path("club/marked.json").write_text(_aage_json("Märta"), encoding="utf-8-sig")
    Path("club/windows.json").write_text(_aage_json("Jörg"), encoding="cp1252")
    Path("club/ascii.json").write_text(_aage_json("Asa"), encoding="ascii")
    Path("club/windows.lgn").write_bytes('[Game "tablut"]\n[White "Björn"]\n\n1. e3-c3 *\n'.encode("cp1252"))
    result = CliRunner().invoke(main, ["import", "--db", "a.db", "--encoding", "cp1252", "club"])
    assert result.exit_code == 0 and result.stderr == (
        "lusoria: note: 1 file of JSON read as UTF-8, as JSON is written, not with --encoding cp1252 "
        "(club/download.json)\n"
    )
    names = Archive("a.db").sql("SELECT white FROM records ORDER BY path")
    assert [row["white"] for row in names] == ["Asa", "Åsa Ström", "Märta", "Jörg", "Björn"]
    Path("club/utf8.lgn").write_text('[Game "tablut"]\n[White "Åke"]\n\n1. e3-c3 *\n', encoding="utf-8")
    Path("club/utf8-marked.lgn").write_text('[Game "tablut"]\n[White "Åke"]\n\n1. e3-c3 *\n', encoding="utf-8-sig")
    notes = [str(item) for item in api.records(["club"], encoding="latin-1") if isinstance(item, api.Note)]
    assert notes == [  # (an lgn file is read as the encoding given says, and said to be UTF-8: h70a, its names were
        "note: 1 file read with encoding latin-1, as asked, is UTF-8 (club/utf8.lgn): its letters beyond ASCII read "
        "wrong (ø as Ã¸); read the files that need it alone with it",  # garbled without a word; not the marked one)
        "note: 1 file of JSON read as UTF-8, as JSON is written, not with encoding latin-1 (club/download.json)",
    ]
    assert not [item for item in api.records(["club/download.json"]) if isinstance(item, api.Note)]  # (UTF-8 asked)
