"""The reader's plain path (tags, move numbers, plies, a result: no LALR parser) reads a
record exactly as the Lark grammar does, places included, or leaves it to the grammar;
and the terminals it uses are kept between runs with the grammar they come from."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT
from hypothesis import given
from hypothesis import strategies as st

from lusoria.notation import reader
from lusoria.notation.lalr import parse_lalr, terminal_patterns
from lusoria.notation.reader import SyntaxProblem, split_records

HEADER = '[Game "tablut"]\n[Event "x"]  [Site "y"]\n\n'
PIECES = [
    "1.",
    "12...",
    "3.",
    "e3-c3",
    "Ke5-c5+",
    "d1-d3xd4/d5",
    "--",
    "!",
    "?!",
    " ",
    "  ",
    "\n",
    "\t",
    "\r\n",
    "{c}",
    "$1",
    "(",
    ")",
    "*",
    "1-0",
    "%x\n",
    "\f",
    '[Round "1"]',
    "a1-a2b3-b4",
    "x",
    "K",
]


def placed(record) -> tuple:
    """A record with every place and move number, which equality leaves out."""

    def line(plies) -> list:
        return [
            (p.text, p.line, p.column, p.number, p.nags, p.comments, [line(v.plies) for v in p.variations])
            for p in plies
        ]

    return (
        record.tags,
        record.tag_places,
        record.result,
        record.result_line,
        record.result_column,
        record.main.comments,
        line(record.main.plies),
    )


def lalr(text: str, offset: int):
    try:
        return placed(parse_lalr(text, "tablut", offset))
    except SyntaxProblem as problem:
        return problem.message, problem.line, problem.column


@given(
    st.lists(st.sampled_from(PIECES), max_size=30),
    st.sampled_from(["*", " 1-0", "\n0-1\n", "", "1/2-1/2 %"]),
    st.integers(0, 3),
)
def test_the_plain_path_reads_as_the_grammar_or_leaves_the_record_to_it(pieces, result, offset):
    text = HEADER + "".join(pieces) + result
    plain = reader._read_plain(text, offset, reader._terminals("tablut"))
    if plain is not None:
        assert placed(plain) == lalr(text, offset)


@pytest.mark.parametrize(
    "path",
    sorted(ROOT.glob("samples/**/*.lgn")) + sorted(ROOT.glob("tests/**/*.lgn")),
    ids=lambda path: str(path.relative_to(ROOT)),
)
def test_every_record_of_the_samples_and_fixtures_reads_as_the_grammar_reads_it(path):
    for source in split_records(path.read_text(encoding="utf-8", errors="replace").splitlines(keepends=True)):
        game = reader._GAME_TAG.search(source.text)
        if game is None or game[1].lower() not in reader.known_games():
            continue
        plain = reader._read_plain(source.text, source.line - 1, reader._terminals(game[1].lower()))
        if plain is not None:
            assert placed(plain) == placed(parse_lalr(source.text, game[1].lower(), source.line - 1))


def test_a_plain_record_takes_the_plain_path_with_its_places():
    text = HEADER + "1. e3-c3 d1-d3!?\n2.e4-e3\td3-d2 *\n"
    record = reader._read_plain(text, 10, reader._terminals("tablut"))
    assert record is not None
    assert record.tag_places == {"Game": (11, 2), "Event": (12, 2), "Site": (12, 15)}
    assert [(p.text, p.line, p.column, p.number, p.nags) for p in record.main.plies] == [
        ("e3-c3", 14, 4, "1.", []),
        ("d1-d3", 14, 10, None, [5]),
        ("e4-e3", 15, 3, "2.", []),
        ("d3-d2", 15, 9, None, []),
    ]
    assert (record.result, record.result_line, record.result_column) == ("*", 15, 15)


@pytest.mark.parametrize(
    "movetext",
    [
        "1. e3-c3 { a comment } *",
        "1. e3-c3 $1 *",
        "1. e3-c3 (1. d1-d3) *",
        "1. e3-c3 2. *",
        "e3-c3 d1-d3 1-0 *",
        "1. e3-c3\f*",
        "1. e3-c3 *\n% end",
    ],
)
def test_anything_more_goes_to_the_grammar(movetext):
    assert reader._read_plain(HEADER + movetext, 0, reader._terminals("tablut")) is None


def test_a_duplicate_tag_goes_to_the_grammar_which_says_so():
    assert reader._read_plain(HEADER + '[Game "tablut"]\n*', 0, reader._terminals("tablut")) is None
    with pytest.raises(SyntaxProblem, match="the tag Game appears twice"):
        reader.parse_record(HEADER + '[Game "tablut"]\n*')


def kept_terminals(tmp_path: Path, game: str) -> dict:
    return json.loads((tmp_path / "lusoria" / f"{game}.terminals.json").read_text(encoding="utf-8"))


def test_the_terminals_are_kept_with_their_grammar_and_made_again_for_another(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    reader._terminal_patterns.cache_clear()
    assert reader._terminal_patterns("laquet") == terminal_patterns("laquet")
    kept = kept_terminals(tmp_path, "laquet")
    assert kept["terminals"] == terminal_patterns("laquet") and "PLY:" in kept["grammar"]
    stale = {"grammar": "another grammar", "terminals": {**kept["terminals"], "PLY": "stale"}}
    (tmp_path / "lusoria" / "laquet.terminals.json").write_text(json.dumps(stale), encoding="utf-8")
    reader._terminal_patterns.cache_clear()
    assert reader._terminal_patterns("laquet")["PLY"] == terminal_patterns("laquet")["PLY"]
    for broken in ("{not json", json.dumps({**kept, "terminals": {"PLY": "1"}}), json.dumps([kept])):
        (tmp_path / "lusoria" / "laquet.terminals.json").write_text(broken, encoding="utf-8")
        reader._terminal_patterns.cache_clear()
        assert reader._terminal_patterns("laquet") == terminal_patterns("laquet")
    assert kept_terminals(tmp_path, "laquet") == kept
    reader._terminal_patterns.cache_clear()


def test_validating_plain_records_does_not_load_lark(tmp_path):
    record = tmp_path / "plain.lgn"
    record.write_text(HEADER + "1. e3-c3 d1-d3 *\n", encoding="utf-8")
    for run in range(2):  # the terminals made, then read back
        result = subprocess.run(
            [sys.executable, "-X", "importtime", "-m", "lusoria.cli", "validate", "--jobs", "1", str(record)],
            capture_output=True,
            text=True,
            env={**os.environ, "XDG_CACHE_HOME": str(tmp_path)},
        )
        assert result.returncode == 0, result.stderr
    loaded = {line.rsplit("|", 1)[1].strip() for line in result.stderr.splitlines() if line.startswith("import time:")}
    assert "lusoria.notation.reader" in loaded and "lark" not in loaded
