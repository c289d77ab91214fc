"""Hostile input, round two (issue 18): every number read from input is bounded before it is
used, one token is at most MAX_TOKEN characters, and every command runs each such input in a
process limited to 512 MiB of address space with a clear answer, never a traceback."""

import json
import os
import select
import subprocess
import sys

import pytest
from conftest import ROOT

from lusoria.notation.numbers import whole_number
from lusoria.notation.reader import MAX_TOKEN
from lusoria.validator.replay import check

LIMITED = """
import json, os, resource, sys, traceback
from click.testing import CliRunner
from lusoria.cli import main
for line in sys.stdin:
    child = os.fork()
    if child == 0:
        try:
            resource.setrlimit(resource.RLIMIT_AS, (1 << 29, 1 << 29))
            answers = []
            for args in json.loads(line):
                result = CliRunner().invoke(main, args)
                failure = None if result.exception is None or isinstance(result.exception, SystemExit) \\
                    else repr(result.exception)[:300]
                answers.append([args[0], result.exit_code, failure, result.output[:300]])
            print(json.dumps(answers), flush=True)
            os._exit(0)
        except BaseException:
            traceback.print_exc()
            os._exit(1)
    status = os.waitstatus_to_exitcode(os.waitpid(child, 0)[1])
    if status:
        print(json.dumps(f"the limited process ended with status {status}"), flush=True)
"""


@pytest.fixture(scope="module")
def limited():
    """A process that has imported lusoria and forks, for each list of commands sent it, a child
    whose address space is limited to 512 MiB and that runs them (a process of its own an input, as
    fresh as a new one, without the start-up of a new interpreter each time)."""
    server = subprocess.Popen(
        [sys.executable, "-c", LIMITED], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT
    )
    yield server
    server.stdin.close()
    server.wait(timeout=60)


def run_limited(server: subprocess.Popen, commands: list[list[str]]) -> list:
    """Run the commands in a child of `server` whose address space is limited to 512 MiB; for
    each, [command, exit status, exception (None when it exited cleanly), output head]."""
    server.stdin.write(json.dumps(commands) + "\n")
    server.stdin.flush()
    assert select.select([server.stdout], [], [], 600)[0], "no answer in 10 minutes: a hang?"
    answers = json.loads(server.stdout.readline())
    assert isinstance(answers, list), answers
    return answers


def every_command(path: str, folder: str) -> list[list[str]]:
    db = os.path.join(folder, "a.db")
    return [
        ["validate", path],
        ["validate", "--json", path],
        ["fmt", path],
        ["fmt", "--check", path],
        ["show", path],
        ["show", path, "--format", "svg"],
        ["html", path],
        ["rules", path],
        ["import", "--db", db, path],
        ["query", "--db", db],
        ["query", "--db", db, "--format", "json"],
        ["query", "--db", db, "--format", "lgn"],
        ["stats", "--db", db],
        ["sql", "--db", db, "SELECT * FROM tags"],
    ]


def assert_clean(answers: list) -> None:
    for command, status, failure, output in answers:
        assert failure is None and status in (0, 1, 2), (command, status, failure, output)
        assert "Traceback" not in output


HUGE = "9" * 5000  # more digits than int() converts (4,300)
SENECA = '[Game "latrunculi"]\n[Variant "seneca"]\n'
HOSTILE = {
    "a 60-byte Position tag that once allocated 3.9 GB": SENECA
    + '[Position "4000000000/8/8/8/8/8/8/8 w 16 16"]\n1. @a1 *\n',
    "a Latrunculi position with 5,000-digit numbers": SENECA
    + f'[Position "{HUGE}/8/8/8/8/8/8/8 w {HUGE} 16"]\n1. @a1 *\n',
    "Latrunculi pieces in hand in Unicode digits": SENECA + '[Position "8/8/8/8/8/8/8/8 w ² 16"]\n1. @a1 *\n',
    "a Laquet position with 5,000-digit numbers": f'[Game "laquet"]\n[Position "1:{HUGE},{HUGE}:2 - w"]\n1. 63: 1/7 *\n',
    "a 5,000-digit NAG": f'[Game "tablut"]\n1. e3-c3 ${HUGE} *\n',
    "a 5,000-digit Board": f'[Game "latrunculi"]\n[Variant "seneca"]\n[Board "{HUGE}x8"]\n1. @a1 *\n',
    "5,000-digit pieces in Rules": SENECA + f'[Rules "pieces={HUGE}"]\n1. @a1 *\n',
    "pieces in Rules in Unicode digits": SENECA + '[Rules "pieces=1²"]\n1. @a1 *\n',
    "a Tablut position with Unicode digits": '[Game "tablut"]\n[Position "²/9/9/9/9/9/9/9/9 w"]\n1. e3-c3 *\n',
    # 2 MB: 300 bytes a byte of input (16 MB once took 4.9 GB) is over 512 MiB; the commands peak at 230 MiB
    "a 2 MB Event value (16 MB once took 4.9 GB)": '[Game "tablut"]\n[Event "' + "x " * (1 << 20) + '"]\n1. e3-c3 *\n',
    "a 2 MB Event value of escapes": '[Game "tablut"]\n[Event "' + '\\"' * (1 << 20) + '"]\n1. e3-c3 *\n',
    "a 2 MB comment": '[Game "tablut"]\n1. e3-c3 {' + "x " * (1 << 20) + "} *\n",
    "1 KB of nested illegal variations (rules once took 46 s)": '[Game "tablut"]\n1. e3-c3 d1-d3 2. c3-e3 '
    + "(2. c3-c9 d3-d1 " * 60
    + ")" * 60
    + " d3-d1 *\n",
    "an 11 KB line of illegal variations (55 KB once made validate print 400 MB)": '[Game "tablut"]\n1. e3-c3 '
    + "(1. e3-e9) " * 1000
    + "*\n",
    "terminal escape sequences": '[Game "tablut"]\n[White "\x1b]0;PWNED\x07"]\n1. e3-c3 \x1b[2J *\n',
    "a 2 MB move number": '[Game "tablut"]\n' + "1" * (2 << 20) + ". e3-c3 *\n",
}


@pytest.mark.slow
@pytest.mark.parametrize("name", HOSTILE)
def test_hostile_numbers_and_tokens_through_every_command_in_512_mib(limited, name, tmp_path):
    path = tmp_path / "hostile.lgn"
    path.write_text(HOSTILE[name])
    assert_clean(run_limited(limited, every_command(str(path), str(tmp_path))))


@pytest.mark.slow  # beside the tests above: one limited process serves them all
def test_hostile_command_line_numbers_in_512_mib(limited, tmp_path):
    db = str(tmp_path / "a.db")
    commands = [
        ["import", "--db", db, "samples/latrunculi"],
        ["query", "--db", db, "--position", "3000000000/8/8/8/8/8/8/8 w"],
        ["query", "--db", db, "--position", f"{HUGE}/8/8/8/8/8/8/8 w"],
        ["query", "--db", db, "--position", "1:15,²:1 - w"],
        ["query", "--db", db, "--limit", "99999999999999999999"],
        ["query", "--db", db, "--limit", HUGE],
        ["validate", "--jobs", HUGE, "samples/tablut"],
        ["random", "--game", "latrunculi", "--board", f"{HUGE}x8"],
        ["random", "--game", "latrunculi", "--variant", "seneca", "--rules", "pieces=²"],
        ["random", "--game", "tablut", "-n", HUGE],
        ["show", "samples/tablut/escape.lgn", "--ply", HUGE],
        ["show", "samples/tablut/escape.lgn", "--record", HUGE],
    ]
    answers = run_limited(limited, commands)
    assert_clean(answers)
    assert [status for _, status, _, _ in answers] == [0] + [2] * 11


def test_whole_number_reads_ascii_digits_within_bounds():
    assert whole_number("0016", 2, 128) == 16
    assert whole_number("0", 0, 9) == 0
    assert whole_number("128", 2, 128) == 128  # (h83a) the highest bound is within too
    assert whole_number("129", 2, 128) is None
    assert whole_number("1", 2, 128) is None
    assert whole_number(HUGE, 0, 10**6) is None
    for text in ("²", "١٢", "1 2", "-1", "+1", "", "0x10"):
        assert whole_number(text, 0, 100) is None, text


PACKAGES = ("lusoria", "notation", "formats", "archive", "validator", "grammar")
INT_ALLOWED = {  # the calls of int() on text outside notation/numbers.py, and why each is bounded
    ("lusoria/files.py", "int(line.split()[1], 8)"): "the umask Linux shows: four octal digits",
    ("lusoria/files.py", "int(left[1])"): "a process id in a temporary file's name: ten digits at most (`_LEFT`)",
}


def test_int_is_called_on_text_only_by_the_bounded_number_reader():
    """No int() on unbounded digits anywhere: notation/numbers.py is the one place that converts
    digits (whole_number, checked_number); any other call of int() fails this test."""
    import ast

    calls = set()
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            name = str(path.relative_to(ROOT))
            if name == "notation/numbers.py":
                continue
            source = path.read_text("utf-8")
            for node in ast.walk(ast.parse(source)):
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "int":
                    calls.add((name, ast.get_source_segment(source, node)))
    assert calls == set(INT_ALLOWED)


def first(text: str):
    report = check(text)
    assert report.diagnostics, text
    return report.diagnostics[0]


def test_numbers_beyond_the_game_are_tag_errors_at_the_part_at_fault():
    position = first(SENECA + '[Position "4000000000/8/8/8/8/8/8/8 w 16 16"]\n1. @a1 *\n')
    assert (position.rule, position.line, position.column, position.text) == ("tag", 3, 12, "4000000000")
    assert "covers more than 8 squares" in position.message
    hand = first(SENECA + '[Position "8/8/8/8/8/8/8/8 w 17 16"]\n1. @a1 *\n')
    assert "pieces in hand are two numbers from 0 to 16" in hand.message
    board = first(SENECA + f'[Board "{HUGE}x8"]\n1. @a1 *\n')
    assert (board.rule, board.line) == ("tag", 3) and "from 4 to 16" in board.message
    pieces = first(SENECA + '[Rules "pieces=1²"]\n1. @a1 *\n')
    assert pieces.rule == "tag" and "unknown value '1²' for pieces" in pieces.message
    laquet = first('[Game "laquet"]\n[Position "1:99,2:1 - w"]\n1. 63: 1/7 *\n')
    assert laquet.rule == "tag" and "'1:99' is not POINT:COUNT" in laquet.message
    tablut = first('[Game "tablut"]\n[Position "²/9/9/9/9/9/9/9/9 w"]\n1. e3-c3 *\n')
    assert tablut.rule == "tag" and "'²' is not a Tablut piece" in tablut.message


def test_a_nag_beyond_255_is_a_syntax_error_at_the_nag():
    assert check('[Game "tablut"]\n1. e3-c3 $255 *\n').valid
    nag = first('[Game "tablut"]\n1. e3-c3 $256 *\n')
    assert (nag.rule, nag.line, nag.column, nag.message) == ("syntax", 2, 10, "a NAG is $0 to $255, not $256")


def test_a_token_longer_than_the_cap_is_a_syntax_error_at_its_start():
    longest = '[Game "tablut"]\n[Event "' + "x" * (MAX_TOKEN - 2) + '"]\n1. e3-c3 *\n'
    assert check(longest).valid
    for text, line, column in (
        ('[Game "tablut"]\n[Event "' + "x" * (MAX_TOKEN - 1) + '"]\n1. e3-c3 *\n', 2, 8),
        ('[Game "tablut"]\n[Event "' + '\\"' * (MAX_TOKEN // 2) + '"]\n1. e3-c3 *\n', 2, 8),  # escapes too
        ('[Game "tablut"]\n1. e3-c3\n {' + "x" * MAX_TOKEN + "} *\n", 3, 2),
        ('[Game "tablut"]\n1. e3-c3 $' + "1" * MAX_TOKEN + " *\n", 2, 10),
    ):
        problem = first(text)
        assert (problem.rule, problem.line, problem.column) == ("syntax", line, column)
        assert problem.message.endswith(f"characters; the longest allowed is {MAX_TOKEN:,}")
        assert len(problem.text) == 20
