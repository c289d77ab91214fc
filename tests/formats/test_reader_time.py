"""Every reader is bounded in time by its input (issue 41): each is fed an input and one eight
times larger, and the larger takes less than 20 times as long (linear: 8; quadratic: 64). What
is compared is CPU time, the least of a few runs, as a ratio: no figure depends on the machine's
speed. Also the inputs that took quadratic time or never ended: a 30 MB line with no tag, an aage
`Moves` list written with `\\u` escapes, a CSV game longer than the characters looked at, and
/dev/zero."""

import os
import time
from pathlib import Path

import pytest
from conftest import ROOT

from lusoria.api import validate
from lusoria.formats import FORMATS
from lusoria.notation.sources import HEAD, MAX_LINE

FIXTURES = ROOT / "tests" / "fixtures" / "formats"
BRANDUBH_CSV = (FIXTURES / "csv" / "brandubh.csv").read_text().splitlines()[0]
AAGE = (
    '[{{"AageGameTypeName": "Historical Hnefatafl 9x9 (Saami Tablut)", "WhoMovedFirst": "black", '
    '"Moves": [{}], "WhoWon": "Draw"}}]'
)
LOG = (FIXTURES / "tablut-challenge" / "Bianchi_vs_Neri_1763719200000_gameLog.txt").read_text()
LOG_LINES = (
    "nov 21, 2026 10:01:00 AM it.unibo.ai.didattica.competition.tablut.domain.GameAshtonTablut movePawn\n"
    "FINE: Movimento pedina\n"
)
OTN = (FIXTURES / "otn" / "brandubh.otg").read_text().split("\n\n")[0]


def escaped(word: str) -> str:
    return '"' + "".join(f"\\u{ord(char):04x}" for char in word) + '"'


INPUTS = {  # file name -> the text of size n
    "notag.lgn": lambda n: " ".join(["e3-c3", "d4-d6", "zz", "1."] * n),  # no tag: one line of 30 MB took 25 s
    "line.lgn": lambda n: '[Game "tablut"]\n\n' + " ".join(["e3-c3 c3-e3"] * n) + " *\n",
    "game.otg": lambda n: OTN + "\n\n" + "".join(f"{turn}. d7-b7 c4-c7\n" for turn in range(1, n + 1)),
    "moves.txt": lambda n: " ".join(["e2-c2", "c2-e2"] * n) + "\n",
    "moves.json": lambda n: AAGE.format(",".join([escaped("e2-c2"), escaped("c2-e2")] * n)),  # 35 s at n = 20,000
    "brandubh.csv": lambda n: "\n".join([BRANDUBH_CSV] * (n // 4)) + "\n",  # n // 4 games: each is a whole game
    "long-brandubh.csv": lambda n: " ".join(["d2-b2", "b2-d2"] * n) + ",0,0,ongoing\n",
    "X_vs_Y_1_gameLog.txt": lambda n: LOG + LOG_LINES * n,
}


def cpu_time(path: Path, runs: int) -> float:
    """The least CPU time of `runs` validations of `path`."""
    times = []
    for _ in range(runs):
        start = time.process_time()
        for _ in validate([str(path)], jobs=1):
            pass
        times.append(time.process_time() - start)
    return min(times)


@pytest.mark.slow
@pytest.mark.parametrize("name", INPUTS)
def test_a_reader_takes_time_linear_in_its_input(tmp_path, name):
    small, large = tmp_path / "small" / name, tmp_path / "large" / name
    for path, size in ((small, 250), (large, 2000)):
        path.parent.mkdir()
        path.write_text(INPUTS[name](size))
    assert FORMATS.of(str(small), small.read_text()[:HEAD]) is not None
    ratio = cpu_time(large, 2) / max(cpu_time(small, 3), 1e-3)
    assert ratio < 20, (name, ratio)


def verdicts(path) -> list[tuple]:
    return [
        (d.rule, d.line, d.column, d.message)
        for verdict in validate([str(path)], jobs=1)
        if not isinstance(verdict, Exception)
        for d in getattr(verdict, "diagnostics", [])
    ]


def test_a_csv_game_longer_than_the_head_is_read_as_csv(tmp_path, lusorias_own_tafl_games):
    # a legal 800-ply game was "no Game tag" when named, skipped in a folder (import left it out)
    line = " ".join(["d2-b2", "b2-d2"] * 500) + ",0,0,ongoing"
    assert len(line) > HEAD
    for ends in ("\n", "\r", "\r\n"):
        assert FORMATS.of("game.csv", (line + ends) * 2) is FORMATS["csv"], repr(ends)
        assert FORMATS.of("game.csv", (line + ends)[:HEAD]) is FORMATS["csv"], repr(ends)
        cut = BRANDUBH_CSV + ends + line
        assert FORMATS.of("game.csv", cut[:HEAD]) is FORMATS["csv"], repr(ends)
    assert FORMATS.of("game.csv", "d2-b2 b2-d2 c1-c2\nnot a game") is None
    path = tmp_path / "brandubh-game.csv"  # (its moves fit every board: its name names its game)
    path.write_bytes((line + "\r").encode() * 2)
    (forced,) = [verdict.source.parsed.tags["Game"] for verdict in validate([str(path)], format="csv")][:1]
    assert [verdict.source.parsed.tags["Game"] for verdict in validate([str(tmp_path)])] == [forced] * 2


def test_a_csv_game_of_one_move_is_read_as_csv(tmp_path):
    """A row's counts and status say it is CSV: a game of one move (`h1-h3,0,0,Ongoing`) was read
    as lgn ("the record has no Game tag"); a .txt line of one move is still no move list."""
    assert FORMATS.of("copenhagen.csv", "h1-h3,0,0,Ongoing\n") is FORMATS["csv"]
    assert FORMATS.of("copenhagen.csv", "h1-h3,0,0,Won\n") is FORMATS["csv"]  # a status mistyped: said at it
    assert FORMATS.of("copenhagen.csv", "h1-h3,w,b,Won\n") is None  # nor counts nor a status the engines write
    assert FORMATS.of("copenhagen.csv", ",0,0,Ongoing\n") is None  # no move at all
    assert FORMATS.of("club.txt", "h1-h3\n") is None
    (tmp_path / "copenhagen.csv").write_text("h1-h3,0,0,Ongoing\nh1-h3 d1-d3,0,0,Ongoing\n")
    verdicts = list(validate([str(tmp_path)]))
    assert [(v.valid, [(d.rule, d.ply) for d in v.diagnostics]) for v in verdicts] == [(True, []), (False, [("C2", 2)])]


def test_an_endless_line_is_refused_at_its_bound(tmp_path):
    # /dev/zero never ended: its one line is read to MAX_LINE characters, then refused
    from lusoria.notation.sources import InputError, decoded_text

    read = 0
    with open("/dev/zero", "rb") as zeros:
        with pytest.raises(InputError, match=f"^/dev/zero: line 1 is longer than {MAX_LINE:,} characters"):
            for chunk in decoded_text(zeros, "/dev/zero"):
                read += len(chunk)
                assert read <= MAX_LINE, "read on past the bound"
    with open(os.devnull, "rb") as empty:
        assert list(decoded_text(empty, "null")) == []


def test_a_line_with_no_tag_is_mended_only_at_its_start(tmp_path, monkeypatch):
    # a 30 MB one-line file with no tag was mended and parsed whole once for each game (25 s)
    # before its 1 MiB token was refused
    from lusoria.notation import reader

    given = []
    monkeypatch.setattr(reader, "slip_fixes", lambda text, *args: given.append(len(text)) or [])
    path = tmp_path / "one.lgn"
    path.write_text("e3c3" * 300_000)
    (said,) = verdicts(path)
    assert said[:3] == ("syntax", 1, 1) and said[3].startswith("not a game record in any format lusoria reads")
    assert given and max(given) <= reader.SLIP_WINDOW
