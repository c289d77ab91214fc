"""The fuzz harness's targets (fuzz/harness.py: every reader, the validators, `convert`, the
language server's messages, lusoria's SQL functions, the loading of plug-ins) on every run, bounded and deterministic: each over its seeds,
mutations of them (a fixed random seed) and arbitrary bytes (hypothesis, derandomized), and
the inputs that once broke one, as regressions. A target fails on any exception, and the
language server's on an answer that carries a traceback."""

import importlib.util
import json
import random

import pytest
import zstandard
from conftest import ROOT
from hypothesis import given
from hypothesis import strategies as st

from lusoria.archive.positions import pack_boards

_spec = importlib.util.spec_from_file_location("harness", ROOT / "fuzz" / "harness.py")
harness = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(harness)
TARGETS = sorted(harness.TARGETS)
SPICE = [
    b"[",
    b"]",
    b"{",
    b"}",
    b"(",
    b")",
    b'"',
    b"\\",
    b"\n",
    b"\r",
    b"\x00",
    b"\xff",
    b"\xed\xb0\x80",
    b"9" * 5000,
    b"[" * 200,
    b"\\udc00",
    b"Content-Length: ",
    b"\r\n\r\n",
    b"-1",
    b"---",
    b"1a.1.1a.",
]


def mutations(data: bytes, rng: random.Random, count: int) -> list[bytes]:
    """`count` variants of `data`: a piece deleted, repeated, or replaced by something hostile."""
    variants = []
    for _ in range(count):
        start = rng.randrange(len(data) + 1)
        end = min(len(data), start + rng.randrange(1, 64))
        kind = rng.randrange(3)
        if kind == 0:
            variants.append(data[:start] + data[end:])
        elif kind == 1:
            variants.append(data[:end] + data[start:end] * rng.randrange(2, 50) + data[end:])
        else:
            variants.append(data[:start] + rng.choice(SPICE) + data[end:])
    return variants


@pytest.mark.parametrize("target", TARGETS)
def test_every_target_holds_on_its_seeds_and_their_mutations(target):
    run, rng = harness.TARGETS[target], random.Random(target)
    seeds = list(harness.seeds(target))[:12]
    assert seeds, f"{target} has no seed"
    for data in seeds:
        run(data)
        for variant in mutations(data, rng, 6):
            run(variant)


@pytest.mark.parametrize("target", TARGETS)
@given(data=st.binary(max_size=1024))
def test_every_target_holds_on_arbitrary_bytes(target, data):
    harness.TARGETS[target](data)


SAAMI = b'"AageGameTypeName": "Historical Hnefatafl 9x9 (Saami Tablut)"'
OTN_RULES = b"[rules:dim:9 esc:e cor: atkf:y tfr:i]\n\n"
BOMB = zstandard.ZstdCompressor().compress(bytes(1 << 28))  # 256 MiB said in 8 KB
BOARDS = pack_boards([b"." * 81 + b" w"] * 200)
REGRESSIONS = {  # inputs that once ended in a traceback or never ended: issues 32 and 41, and what the harness found
    "aage, Moves nested 50,000 deep": ("aage", b"{" + SAAMI + b', "Moves": ' + b"[" * 50_000 + b"]" * 50_000 + b"}"),
    "aage, WhoWon of 100,000 digits": (
        "aage",
        b"{" + SAAMI + b', "Moves": "f1-f3", "WhoWon": ' + b"9" * 100_000 + b"}",
    ),
    "aage, a lone surrogate": ("aage", b"{" + SAAMI + b', "Moves": "f1-f3", "WhiteSidePlayerName": "\\udc00"}'),
    "tablut-challenge, a first board with two kings (found by atheris)": (
        "tablut-challenge",
        b"".join(
            (ROOT / "tests/fixtures/formats/tablut-challenge/Rossi_vs_Verdi_1763722800000_gameLog.txt")
            .read_bytes()
            .splitlines(keepends=True)[:19]
        ).replace(b"BBWWKWWBB", b"BBWKKWWBB"),
    ),  # the log's first board, and nothing after it
    "tablut-challenge, the king taken on d0 (found by atheris)": (
        "tablut-challenge",
        (ROOT / "tests/fixtures/formats/tablut-challenge/Stefani_vs_Russo_1558626002000_gameLog.txt")
        .read_bytes()
        .replace(b"catturato in: d2", b"catturato in: d0"),
    ),
    "hnefatafl, a move number alone on its line, another on the next (found by atheris)": (
        "hnefatafl",
        b"\x02" + b"1. \n15. b5-b11 g8-g9 16. b2-b3 d5-d2 17. h3-h6 f4-e4xe5 18. f11-e11 d2-e21 #1\n",
    ),
    "otn, a turn of 5,000 digits": ("otn", OTN_RULES + b"9" * 5000 + b". e4-g4 a6-a9\n"),
    "otn, a variation address of 5,000 digits": (
        "otn",
        OTN_RULES + b"1. d1-d3 e3-f3\n1a." + b"9" * 5000 + b".1a. d1-d2\n",
    ),
    "sql-functions, lusoria_board_at of a compressed-value bomb": ("sql-functions", b"\x02\x00" + BOMB + b"\x00\x02"),
    "sql-functions, lusoria_text of a compressed-value bomb": ("sql-functions", b"\x00\x00" + BOMB),
    "sql-functions, lusoria_board_at of a ply of text": ("sql-functions", b"\x02\x00" + BOARDS + b"\x00\x01x"),
    "sql-functions, a GLOB that backtracked": (
        "sql-functions",
        b"\x03\x00"
        + BOARDS
        + b"\x00\x01tablut\x00\x01"
        + json.dumps([["tablut", "*.*.*.*.*.*.*.*.*.*.*.*.Z"]]).encode(),
    ),
    "plugins, an entry point named with a line break (found by the harness)": ("plugins", b"\n"),
    "lsp, a Content-Length of 20 digits": ("lsp", b"\x01Content-Length: 99999999999999999999\r\n\r\n{}"),
    "lsp, a hover at line -1": (
        "lsp",
        b'\x00{"jsonrpc": "2.0", "id": 1, "method": "textDocument/hover", "params": '
        b'{"textDocument": {"uri": "untitled:1"}, "position": {"line": -1, '
        b'"character": 0}}}',
    ),
    "lsp, symbols of a file never opened": (
        "lsp",
        b'\x00{"jsonrpc": "2.0", "id": 1, "method": '
        b'"textDocument/documentSymbol", "params": {"textDocument": '
        b'{"uri": "file:///dev/zero"}}}',
    ),
}


@pytest.mark.parametrize("name", REGRESSIONS)
def test_the_inputs_that_broke_a_target_hold(name):
    target, data = REGRESSIONS[name]
    harness.TARGETS[target](data)
