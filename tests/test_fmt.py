"""`lusoria fmt` over several files, --check and --write: line ends, BOM, encodings."""

import codecs
import errno
import os
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import ROOT

from lusoria import api
from lusoria.cli import main

CANONICAL = (
    '[Game "tablut"]\n[Event "?"]\n[Site "?"]\n[Date "????.??.??"]\n[Round "?"]\n[White "?"]\n'
    '[Black "?"]\n[Result "*"]\n\n1. e3-c3 *\n'
)
SLOPPY = '[Game "Tablut"]\n1. e3-c3 *\n'


def run(*arguments, input=None):
    return CliRunner().invoke(main, list(arguments), input=input)


def test_the_records_of_consecutive_files_are_a_blank_line_apart_and_pass_check(tmp_path):
    first, second = tmp_path / "a.lgn", tmp_path / "b.lgn"
    first.write_text(SLOPPY)
    second.write_text(SLOPPY)
    result = run("fmt", str(first), str(second))
    assert result.exit_code == 0 and result.output == CANONICAL + "\n" + CANONICAL
    joined = tmp_path / "joined.lgn"
    joined.write_text(result.output)
    assert run("fmt", "--check", str(joined)).exit_code == 0


def test_check_and_write_exclude_each_other(tmp_path):
    path = tmp_path / "a.lgn"
    path.write_text(SLOPPY)
    result = run("fmt", "--check", "--write", str(path))
    assert result.exit_code == 2 and "--check and --write exclude each other" in result.output
    assert path.read_text() == SLOPPY


def test_write_lists_the_files_it_changed_and_only_those(tmp_path):
    sloppy, canonical = tmp_path / "sloppy.lgn", tmp_path / "canonical.lgn"
    sloppy.write_text(SLOPPY)
    canonical.write_text(CANONICAL)
    result = run("fmt", "--write", str(sloppy), str(canonical))
    assert result.exit_code == 0 and result.output == f"{sloppy}: rewritten\n"
    assert sloppy.read_text() == CANONICAL


def test_check_and_write_show_file_names_as_every_message_does(tmp_path):
    """A byte that is not UTF-8 as \\xNN, a backslash doubled (`shown_path`): they were printed raw."""
    odd = os.fsdecode(bytes(tmp_path) + b"/a\xff\\b.lgn")
    Path(odd).write_text(SLOPPY)
    shown = f"{api.shown_path(str(tmp_path))}/a\\xff\\\\b.lgn"
    assert run("fmt", "--check", odd).stdout == f"{shown}: not in canonical form\n"
    assert run("fmt", "--write", odd).stdout == f"{shown}: rewritten\n"
    moves = os.fsdecode(bytes(tmp_path) + b"/m\xff.txt")
    Path(moves).write_text("e3-c3 d1-d3\n")
    assert run("fmt", "--check", moves).stderr.startswith(f"lusoria: {api.shown_path(moves)}: --check and --write")


def test_check_keeps_the_files_line_ends_and_byte_order_mark(tmp_path):
    crlf, bom, both = tmp_path / "crlf.lgn", tmp_path / "bom.lgn", tmp_path / "both.lgn"
    crlf.write_bytes(CANONICAL.replace("\n", "\r\n").encode())
    bom.write_bytes(codecs.BOM_UTF8 + CANONICAL.encode())
    both.write_bytes(codecs.BOM_UTF8 + CANONICAL.replace("\n", "\r\n").encode())
    cr = tmp_path / "cr.lgn"
    cr.write_bytes(CANONICAL.replace("\n", "\r").encode())  # (an old Mac's)
    result = run("fmt", "--check", str(crlf), str(bom), str(both), str(cr))
    assert result.exit_code == 0 and result.output == ""


def test_a_file_with_mixed_line_ends_is_not_canonical(tmp_path):
    mixed = tmp_path / "mixed.lgn"
    mixed.write_bytes(CANONICAL.replace("\n", "\r\n", 3).encode())
    result = run("fmt", "--check", str(mixed))
    assert (result.stdout, result.stderr) == (
        f"{mixed}: not in canonical form\n",
        "lusoria: 1 file not in canonical form: lusoria fmt --write rewrites it\n",
    )


def test_write_keeps_crlf_and_the_bom(tmp_path):
    path = tmp_path / "a.lgn"
    path.write_bytes(codecs.BOM_UTF8 + SLOPPY.replace("\n", "\r\n").encode())
    assert run("fmt", "--write", str(path)).exit_code == 0
    assert path.read_bytes() == codecs.BOM_UTF8 + CANONICAL.replace("\n", "\r\n").encode()
    assert run("fmt", "--check", str(path)).exit_code == 0
    assert run("fmt", str(path)).stdout == CANONICAL  # on standard output: LF, no BOM (README says so; newcomer-55a)


@pytest.mark.parametrize(
    "encoding, end, white",
    [
        ("utf-8", "\r", "?"),
        ("utf-16", "\r", "?"),
        ("utf-16", "\r\n", "?"),  # (it was written with LF ends: its bytes were read as Latin-1)
        ("utf-16-le", "\r", "Његош"),  # Њ, U+040A: a byte 0A in UTF-16 (it was taken for an LF)
        ("utf-16-be", "\r\n", "Његош"),
    ],
)
def test_write_keeps_cr_line_ends(tmp_path, encoding, end, white):
    """A file of CR line ends was written with LF ends: each of its lines ended twice over, for a diff;
    and a UTF-16 file of CRLF ends too."""
    path = tmp_path / "a.lgn"
    path.write_bytes(SLOPPY.replace("\n", f'\n[White "{white}"]\n', 1).replace("\n", end).encode(encoding))
    assert run("fmt", "--write", "--encoding", encoding, str(path)).exit_code == 0
    assert path.read_bytes() == CANONICAL.replace('"?"]\n[Black', f'"{white}"]\n[Black').replace("\n", end).encode()
    assert run("fmt", "--check", str(path)).exit_code == 0


def test_write_turns_a_latin_1_file_into_utf_8(tmp_path):
    path = tmp_path / "koeln.lgn"
    text = CANONICAL.replace('[Site "?"]', '[Site "Köln"]')
    path.write_bytes(text.encode("latin-1"))
    assert run("fmt", "--check", "--encoding", "latin-1", str(path)).stdout == f"{path}: not in canonical form\n"
    assert run("fmt", "--write", "--encoding", "latin-1", str(path)).output == f"{path}: rewritten\n"
    assert path.read_bytes() == text.encode("utf-8")
    assert run("fmt", "--check", str(path)).exit_code == 0


@pytest.mark.parametrize("encoding", ["cp1252", "windows-1252", "latin1"])  # (review80b: by any of its names)
def test_write_in_a_single_byte_encoding_leaves_a_utf_8_file_of_the_folder_as_it_is(tmp_path, encoding):
    """h80c: `fmt --write --encoding cp1252 FOLDER` of a folder that mixes old files and UTF-8 ones rewrote the UTF-8
    ones garbled (`José` as `JosÃ©`) for good, exit 0, unsaid: such a file is not formatted, said so (exit 2), and
    the others are rewritten in UTF-8."""
    old, new = tmp_path / "old.lgn", tmp_path / "new.lgn"
    old.write_bytes(CANONICAL.replace('[Site "?"]', '[Site "Köln"]').encode("cp1252"))
    utf8 = SLOPPY.replace('[Game "Tablut"]', '[Game "Tablut"]\n[Site "Köln"]').encode()
    new.write_bytes(utf8)
    result = run("fmt", "--write", "--encoding", encoding, str(tmp_path))
    assert (result.exit_code, result.stdout) == (2, f"{old}: rewritten\n")
    assert result.stderr == (
        f"lusoria: {new}: not formatted: it is UTF-8, which the encoding {encoding} would read wrong (ø as Ã¸), and fmt "
        "would write it so; format it without that encoding\n"
    )
    assert new.read_bytes() == utf8 and old.read_bytes() == CANONICAL.replace('[Site "?"]', '[Site "Köln"]').encode()


def test_check_reads_standard_input_once(tmp_path):
    assert run("fmt", "--check", "-", input=CANONICAL.replace("\n", "\r\n")).exit_code == 0
    result = run("fmt", "--check", "-", input=SLOPPY)
    assert result.exit_code == 1 and result.stdout == "-: not in canonical form\n"
    (tmp_path / "a.lgn").write_text(SLOPPY)
    (tmp_path / "b.lgn").write_text(SLOPPY)
    two = run("fmt", "--check", str(tmp_path / "a.lgn"), str(tmp_path / "b.lgn"))
    assert two.stderr == "lusoria: 2 files not in canonical form: lusoria fmt --write rewrites them\n"


def test_exit_status_says_whether_every_record_parses_and_every_file_is_canonical(tmp_path):
    """As `lusoria fmt --help` says: a record that does not parse is 1 even in a canonical file
    (it is written as it was, and said on standard error)."""
    canonical, broken = tmp_path / "canonical.lgn", tmp_path / "broken.lgn"
    canonical.write_text(CANONICAL)
    broken.write_text(CANONICAL.replace("e3-c3", "e3-j3"))
    assert run("fmt", "--check", str(canonical)).exit_code == 0
    result = run("fmt", "--check", str(broken))
    assert result.exit_code == 1 and "not in canonical form" not in result.output
    assert "broken.lgn:10:4: error[syntax]: found 'e3-j3'" in result.output
    assert run("fmt", "--write", str(broken)).exit_code == 1
    assert broken.read_text() == CANONICAL.replace("e3-c3", "e3-j3")
    assert run("fmt", str(canonical), str(broken)).exit_code == 1
    assert run("fmt", "--check", str(tmp_path / "missing.lgn")).exit_code == 2
    (tmp_path / "games.txt").write_text("e3-c3 d1-d3\n")
    assert run("fmt", "--check", str(tmp_path / "games.txt")).exit_code == 2
    help_text = " ".join(run("fmt", "--help").output.split())
    assert "Exit status: 0 when every record parses (and, with --check, every file is canonical); 1 when" in help_text


def test_a_record_fmt_keeps_as_written_keeps_the_lines_between_it_and_the_next_as_written(tmp_path):
    """Newcomer-53a: `fmt --write` put a blank line between two records it keeps as written where its file has
    none (a word processor's quotes, `[White “Alfonso”]`, end the tags of a record, and the next tag line begins
    another): it changed a file its help says it writes as it was, and `--check` found the file not canonical."""
    kept = '[Game "laquet"]\n[White “Alfonso”]\n[Black "Pedro"]\n\n1. 53: 5/10 10/13 *\n\n\n'
    path = tmp_path / "quoted.lgn"
    path.write_text(kept + SLOPPY)
    shown = run("fmt", str(path))
    assert (shown.exit_code, shown.stdout) == (1, kept + CANONICAL)  # the slip said on standard error
    assert "not in canonical form" in run("fmt", "--check", str(path)).output  # the sloppy record
    assert run("fmt", "--write", str(path)).exit_code == 1 and path.read_text() == kept + CANONICAL
    assert "not in canonical form" not in run("fmt", "--check", str(path)).output


def test_the_refused_records_of_another_format_are_written_as_read_a_blank_line_apart():
    """Their texts are each game as its format writes it (an aagenielsen.dk scrape's objects, of a type lusoria
    does not know), not an lgn file's lines: fmt writes each as lgn records are, a blank line apart."""
    shown = run("fmt", str(Path(__file__).parent / "fixtures/formats/errors/unknown-types.json"))
    assert shown.exit_code == 1 and shown.stdout.startswith('  {\n    "WhiteSidePlayerName": "Ingrid Vik",\n')
    assert shown.stdout.count('    "WhoWon": "White"\n  },\n\n  {\n') == 1 and shown.stdout.count("},\n\n  {") == 2


def test_a_record_that_writes_a_tag_twice_is_written_as_it_was_and_its_error_said(tmp_path):
    """It is replayed without the repeat (its plies checked, the archive stores them), but its canonical form
    would lose the repeat: fmt writes it as it was and says why, exit status 1, as of a record that does not parse."""
    twice = SLOPPY.replace("\n1.", '\n[White "Ann"]\n[White "Bob"]\n1.')
    path = tmp_path / "twice.lgn"
    path.write_text(twice)
    shown = run("fmt", str(path))
    assert (shown.exit_code, shown.stdout) == (1, twice)
    assert "error[tag]: the tag White appears twice" in shown.stderr
    assert run("fmt", "--write", str(path)).exit_code == 1 and path.read_text() == twice


def test_check_and_write_skip_the_files_of_other_formats_found_in_a_directory_with_a_note(tmp_path):
    """`fmt --check DIR` exited 2 on a folder holding a move list: only a file of another format given
    by name is refused; one found in a directory is skipped, as other commands skip files, and the lgn
    files are checked."""
    (tmp_path / "club.lgn").write_text(CANONICAL)
    (tmp_path / "lists").mkdir()
    (tmp_path / "lists" / "games.txt").write_text("e3-c3 d1-d3\n")
    skipped = (
        f"lusoria: {tmp_path / 'lists' / 'games.txt'}: skipped, read as tafl: --check and --write apply to lgn files\n"
    )
    for option in ("--check", "--write"):
        result = run("fmt", option, str(tmp_path))
        assert (result.exit_code, result.stdout, result.stderr) == (0, "", skipped)
    (tmp_path / "club.lgn").write_text(SLOPPY)
    result = run("fmt", "--check", str(tmp_path))
    assert (result.exit_code, result.stdout) == (1, f"{tmp_path / 'club.lgn'}: not in canonical form\n")
    assert result.stderr.startswith(skipped)
    assert "(in a directory, they skip the files of other formats, one note per format)" in " ".join(
        run("fmt", "--help").output.split()
    )


def test_the_files_of_one_other_format_skipped_in_a_directory_are_said_in_one_note(tmp_path):
    """`fmt --check` of a season's folder said one line per aagenielsen.dk game (~150 lines): the
    files of one format are one note, with their count and the first three, after the lgn files."""
    (tmp_path / "club.lgn").write_text(CANONICAL)
    for name in ("a", "b", "c", "d"):
        (tmp_path / f"{name}.txt").write_text("e3-c3 d1-d3\n")
    said = (
        f"lusoria: skipped 4 tafl files ({tmp_path / 'a.txt'}, {tmp_path / 'b.txt'}, {tmp_path / 'c.txt'}, …): "
        "--check and --write apply to lgn files\n"
    )
    for option in ("--check", "--write"):
        result = run("fmt", option, str(tmp_path))
        assert (result.exit_code, result.stdout, result.stderr) == (0, "", said)


def test_check_and_write_refuse_a_file_of_another_format_and_say_how_to_convert_it(tmp_path):
    moves = tmp_path / "games.txt"
    moves.write_text("e3-c3 d1-d3\n")
    said = f"lusoria: {moves}: --check and --write apply to lgn files, and this one is tafl; lusoria convert writes it as lgn\n"
    for option in ("--check", "--write"):
        result = run("fmt", option, str(moves))
        assert (result.exit_code, result.stdout, result.stderr) == (2, "", said)
    assert moves.read_text() == "e3-c3 d1-d3\n"


def test_a_file_of_another_format_whose_name_starts_with_a_bracket_is_refused_as_given_by_name(tmp_path, monkeypatch):
    """`fmt --check '[club].txt'` took the move list, given by name, for one found in a directory
    (its name became a Path on the command line, which no str of the files read equals): skipped
    with a note and exit status 0, where `club.txt` is refused with status 2."""
    monkeypatch.chdir(tmp_path)
    Path("[club].txt").write_text("e3-c3 d1-d3\n")
    said = "lusoria: [club].txt: --check and --write apply to lgn files, and this one is tafl; lusoria convert writes it as lgn\n"
    for option in ("--check", "--write"):
        result = run("fmt", option, "[club].txt")
        assert (result.exit_code, result.stdout, result.stderr) == (2, "", said)


class _UnreadableInput:
    """Standard input whose bytes the system cannot read."""

    class buffer:
        @staticmethod
        def read(*size):
            raise OSError(errno.EIO, "Input/output error")


def test_standard_input_that_cannot_be_read_is_unreadable_as_other_commands_say_it(monkeypatch):
    """`fmt --check -` read standard input itself and let its OSError through (a traceback), while
    every other command says `<stdin>: input/output error`: it reads its bytes as they do."""
    monkeypatch.setattr(sys, "stdin", _UnreadableInput)
    said = [str(problem) for problem in api.validate(["-"])]
    assert said == ["<stdin>: input/output error"]
    assert [str(problem) for problem in api.canonical_files(["-"])] == said


ESCAPED = (  # a `%` line before the file's first record, among its tags, in its movetext, between records
    "% notes of the file\n"
    '[Game "Tablut"]\n% among the tags\n[Event "club"]\n'
    "% before the moves\n1. e3-c3 d1-d3\n% before white's second\n2. c3-c4 *\n% after the record\n\n"
    '[Game "tablut"]\n1. e3-c3 *\n'
)
ESCAPED_FORMATTED = (
    "% notes of the file\n"
    + CANONICAL.replace('"?"]\n[Site', '"club"]\n[Site')
    .replace('"]\n[Event', '"]\n% among the tags\n[Event')
    .replace("1. e3-c3 *\n", "% before the moves\n")
    + "1. e3-c3 d1-d3\n% before white's second\n2. c3-c4 *\n\n% after the record\n\n"
    + CANONICAL
)


def test_fmt_keeps_a_tag_value_as_written_white_space_inside_it_too():
    """A value is any Unicode but `"` and `\\` unescaped (NOTATION.md §2), and the archive matches a
    player's name whole: a tab or two spaces in it are the name's, which fmt does not rewrite."""
    padded = CANONICAL.replace('[White "?"]\n[Black "?"]', '[White "Jens\tHolm"]\n[Black " Olof  Berg "]')
    assert run("fmt", "-", input=padded).stdout == padded
    assert run("fmt", "--check", "-", input=padded).exit_code == 0


def test_fmt_keeps_a_result_tag_that_the_result_marker_contradicts_for_validate_to_say():
    """`[Result "1-0"]` over a game whose movetext ends `*`: fmt wrote `[Result "*"]`, rewriting the
    tag the player wrote, and the record it wrote hid the contradiction that validate reports."""
    contradicted = CANONICAL.replace('[Result "*"]', '[Result "1-0"]')
    shown = run("fmt", "-", input=contradicted)
    assert (shown.exit_code, shown.stdout) == (0, contradicted)
    said = run("validate", "-", input=shown.stdout)
    assert said.exit_code == 1 and "error[result]: the result marker * differs from the Result tag (1-0)" in said.output


@pytest.mark.parametrize(
    "written, variant, rules",
    [
        ('[Variant "Seed"]\n[Rules "King-Capture=4"]', '[Variant "seed"]', '[Rules "king-capture=4"]'),
        ('[Variant "LINNAEUS"]', '[Variant "linnaeus"]', None),
    ],
)
def test_fmt_writes_the_names_of_the_variant_and_the_rules_in_lower_case(written, variant, rules):
    """`[Variant "Seed"]`, the name as a user typed it, stayed as typed: the canonical form writes the
    variant's and the rules' names in lower case (as `explain` and the archive name them), and a file
    fmt wrote is canonical."""
    sloppy = SLOPPY.replace('"]\n', f'"]\n{written}\n', 1)
    shown = run("fmt", "-", input=sloppy)
    assert shown.exit_code == 0
    lines = shown.stdout.split("\n")
    assert lines[:2] == ['[Game "tablut"]', variant] and (rules is None or rules in lines)
    assert run("fmt", "--check", "-", input=shown.stdout).exit_code == 0


def test_fmt_keeps_every_escape_line_where_it_stands():
    """fmt dropped `%` lines, which the reader ignores (NOTATION.md §1): a file's notes were lost."""
    assert run("fmt", "-", input='% notes\n[Game "tablut"]\n\n1. e3-c3 *\n').stdout == "% notes\n" + CANONICAL
    assert run("fmt", "-", input=ESCAPED).stdout == ESCAPED_FORMATTED
    assert run("fmt", "-", input=ESCAPED_FORMATTED).stdout == ESCAPED_FORMATTED  # (idempotent)


def test_an_escape_line_among_a_second_record_s_tags_stays_that_record_s():
    """Written above the record's tags, it was the first record's when read again: fmt moved it and
    its blank line again, so `fmt --write` left a file that `fmt --check` found not canonical."""
    second = '[Game "tablut"]\n% the second game\n[Event "?"]\n\n1. e3-c3 *\n'
    formatted = run("fmt", "-", input=CANONICAL + "\n" + second).stdout
    assert formatted == CANONICAL + "\n" + CANONICAL.replace('"]\n[Event', '"]\n% the second game\n[Event')
    assert run("fmt", "-", input=formatted).stdout == formatted


def test_a_later_record_s_escape_lines_stand_before_its_ply_and_its_result_marker():
    """Placed by their lines in the file, as its plies are (a record's lines counted from 1, they fell
    before its first ply); the one before the result marker was written after the record."""
    second = '[Game "tablut"]\n\n1. e3-c3\n% before black\'s\nd1-d3\n% before the result\n*\n'
    formatted = run("fmt", "-", input=CANONICAL + "\n" + second).stdout
    assert formatted.endswith("\n1. e3-c3\n% before black's\n1... d1-d3\n% before the result\n*\n")


def test_fmt_write_keeps_every_escape_line_and_then_finds_the_file_canonical(tmp_path):
    path = tmp_path / "notes.lgn"
    path.write_text(ESCAPED)
    assert run("fmt", "--write", str(path)).exit_code == 0
    assert path.read_text() == ESCAPED_FORMATTED
    assert run("fmt", "--check", str(path)).exit_code == 0
    only = tmp_path / "only.lgn"  # (no record: the file was emptied)
    only.write_text("% nothing yet\n\n% but notes\n")
    assert run("fmt", "--write", str(only)).exit_code == 0
    assert only.read_text() == "% nothing yet\n% but notes\n"


def test_a_percent_sign_inside_a_comment_starts_no_line_of_fmt_s_output():
    """A comment's word that begins with `%`, wrapped to the start of a line, became an escape line
    (and the rest of the comment unclosed)."""
    comment = "{" + "word " * 14 + "%5 more}"
    formatted = run("fmt", "-", input=f'[Game "tablut"]\n1. e3-c3 {comment} *\n').stdout
    assert comment in " ".join(formatted.split()) and not any(line.startswith("%") for line in formatted.split("\n"))
    assert run("fmt", "-", input=formatted).stdout == formatted


def test_a_percent_sign_starting_a_line_of_a_comment_is_no_escape_line():
    """h83a: a comment's line that begins with `%` is the comment's (its words, run on), not an escape line."""
    formatted = run("fmt", "-", input='[Game "tablut"]\n\n1. e3-c3 {a comment\n% inside it} d1-d3 *\n').stdout
    assert formatted.endswith("\n1. e3-c3 {a comment % inside it} 1... d1-d3 *\n")
    assert not any(line.startswith("%") for line in formatted.split("\n"))


@pytest.mark.parametrize(
    "written",
    ['[Event "a {"]\n\n1. e3-c3', "\n1. e3-c3 ; a brace {"],
    ids=["a tag's value", "a line's comment"],
)
def test_a_brace_in_a_tags_value_or_a_lines_comment_hides_no_escape_line_after_it(written):
    """h83a: the `{` of a tag's value or of a `;` comment opens no comment: the `%` line after it is one."""
    formatted = run("fmt", "-", input=f'[Game "tablut"]\n{written}\n% a note\nd1-d3 *\n').stdout
    assert formatted.endswith("\n% a note\n1... d1-d3 *\n")


def test_escape_lines_are_numbered_from_the_texts_first_line_a_line_end_at_its_start_too():
    """h83a: the `%` lines of a text are counted from its first line (`first_line`), a line end at its very
    start included (counted from offset 1, the first `%` line was said a line up)."""
    from lusoria.notation.escapes import EscapeLines, escape_line_numbers, escape_lines

    text = '\n% a note\n[Game "tablut"]\n\n1. e3-c3\n% b\n*\n'
    assert escape_line_numbers(text, 5) == {6, 10}
    assert escape_lines(text, 5) == EscapeLines(("% a note",), ((10, "% b"),))


def test_convert_writes_the_records_without_their_escape_lines():
    """As docs/notation.md §8 decides: convert writes records, not the file (fmt keeps the `%` lines)."""
    result = run("convert", "--to", "lgn", "-", input=ESCAPED)
    records = "\n".join(line for line in ESCAPED_FORMATTED.split("\n") if not line.startswith("%"))
    assert (result.exit_code, result.stdout.split()) == (0, records.split())


def test_a_skipped_file_whose_name_holds_a_newline_or_control_character_is_said_on_one_line(tmp_path):
    """The notes of skipped files printed such a name raw: a newline broke the note in two lines."""
    (tmp_path / "club.lgn").write_text(CANONICAL)
    (tmp_path / "a\nb.txt").write_text("e3-c3 d1-d3\n")
    why = "--check and --write apply to lgn files"
    result = run("fmt", "--check", str(tmp_path))
    assert result.stderr == f"lusoria: {tmp_path}/a\\x0ab.txt: skipped, read as tafl: {why}\n"
    (tmp_path / "c\x1b[2Jd.txt").write_text("e3-c3 d1-d3\n")
    result = run("fmt", "--check", str(tmp_path))
    assert (
        result.stderr == f"lusoria: skipped 2 tafl files ({tmp_path}/a\\x0ab.txt, {tmp_path}/c\\x1b[2Jd.txt): {why}\n"
    )


def test_fmt_to_standard_output_writes_a_record_of_bytes_it_does_not_decode_as_its_file_holds_them(tmp_path):
    """Newcomer-56a: a Latin-1 record read as UTF-8 came out with U+FFFD for its accents (`Fran�ois`), a
    file that then validated, the names lost; its bytes are written as they were now, the others in
    canonical form, and a UTF-16 code unit (no byte) stays U+FFFD."""
    from lusoria.api import bytes_as_read, canonical_records

    accented = '% as played\n[Game "latrunculi"]\n[White "Fran\xe7ois Lef\xe8vre"]\n\n1. @d4 {\xe0 la Piso} @e5 *\n'
    latin = tmp_path / "latin.lgn"
    latin.write_bytes(accented.encode("latin-1"))
    alone = CliRunner().invoke(main, ["fmt", str(latin)])
    assert alone.exit_code == 1 and alone.stdout_bytes == latin.read_bytes()
    signed = tmp_path / "signed.lgn"  # (reviewer-57) an e-mail's signature after it, kept as the file holds it
    signed.write_bytes(latin.read_bytes() + b"\n-- \nKarin Nilsson\nSent from my phone\n")
    kept = CliRunner().invoke(main, ["fmt", str(signed)])
    assert kept.exit_code == 1 and kept.stdout_bytes == signed.read_bytes()
    mixed = tmp_path / "mixed.lgn"
    mixed.write_bytes(b'[Game "tablut"]\n\n1. e3-c3 *\n\n' + latin.read_bytes())
    both = CliRunner().invoke(main, ["fmt", str(mixed)])
    canonical = next(canonical_records([str(ROOT / "samples/tablut/escape.lgn")]))
    assert bytes_as_read(canonical[1]) is None
    first, _, rest = both.stdout_bytes.partition(b"\n\n% as played")
    assert first.startswith(b'[Game "tablut"]\n[Event "?"]') and first.endswith(b"1. e3-c3 *")
    assert rest.endswith(latin.read_bytes().removeprefix(b"% as played\n"))  # (its bytes as they were)
    wide = tmp_path / "wide.lgn"
    wide.write_bytes('[Game "tablut"]\n[White "\ud800"]\n\n1. e3-c3 *\n'.encode("utf-16", "surrogatepass"))
    said = CliRunner().invoke(main, ["fmt", "--encoding", "utf-16", str(wide)])
    assert said.exit_code == 1 and '[White "\ufffd"]' in said.stdout


def test_a_record_written_renumbered_over_a_move_numbers_warning_is_said_in_a_note(tmp_path):
    """The move numbers a source writes are evidence (a ply missing before `2.`?): fmt wrote the record renumbered,
    the warning gone, and said nothing (h78a). It says so, to standard output and with --write; --check, which
    writes nothing, does not; a record whose numbers are right gets no note."""
    gap = tmp_path / "gap.lgn"
    gap.write_text('[Game "latrunculi"]\n[Result "*"]\n\n1. @g4 2. @c6 @a6 3. @g8 @a3 *\n')
    note = (
        f"lusoria: note: {gap}:4:8: written renumbered (warning[number]: the move number should be 1..., not 2. "
        "(the move number after it is one ply ahead too: is a ply missing before it?)); where the numbers are the "
        "source's, keep them in a comment\n"
    )
    shown = run("fmt", str(gap))
    assert shown.exit_code == 0 and shown.stderr == note and shown.stdout.endswith("1. @g4 @c6 2. @a6 @g8 3. @a3 *\n")
    checked = run("fmt", "--check", str(gap))
    assert checked.exit_code == 1 and note not in checked.stderr
    written = run("fmt", "--write", str(gap))
    assert written.exit_code == 0 and written.stderr == note
    assert run("fmt", str(gap)).stderr == ""  # (renumbered: no warning left)
