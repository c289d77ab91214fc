"""Coverage-guided fuzzing with atheris of every reader lusoria has and of the language
server's messages.

    pip install -e '.[fuzz]'
    python fuzz/harness.py --target tablut --seconds 600     # a target of TARGETS

Targets: `tablut`, `latrunculi`, `laquet`, `copenhagen`, `brandubh`, `hnefatafl` (lusoria's
notation: the reader and the validator of one game, header variants with options included; the
catalogue's berserk, Tyr, dux and mercenary types); `otn`, `tafl`, `aage`, `csv`,
`tablut-challenge` (each reader of another format, the validator, and `convert` to lgn and
OTN); `lsp` (the language server's message loop, fed raw bytes and framed messages after an
`initialize`); `sql-functions` (every SQL function lusoria registers, called with arguments of
any kind and value: it answers or fails in one line naming it); `plugins` (entry points of any
name and value loaded as lusoria loads games' and formats': each taken or left out with one
warning line, the built-in ones all there). Inputs are seeded from the samples, the conformance corpora, the fixtures of
each format and a session of messages. A crash (any exception out of the target; for `lsp`,
also an answer that carries a traceback) stops the run and leaves the input in
fuzz/crashes/; turn it into a regression test in tests/system/test_fuzz.py, which runs every target
over its seeds, mutations of them and random bytes on every `pytest` run.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import sys
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
HEADERS = {
    "tablut": [
        '[Game "tablut"]\n',
        '[Game "tablut"]\n[Variant "linnaeus"]\n',
        '[Game "tablut"]\n[Rules "no-move=passes throne-hostile=always king-capture=2"]\n',
    ],
    "latrunculi": [
        '[Game "latrunculi"]\n',
        '[Game "latrunculi"]\n[Variant "dux"]\n',
        '[Game "latrunculi"]\n[Variant "piso"]\n[Board "6x5"]\n[Rules "pieces=6"]\n',
    ],
    "laquet": ['[Game "laquet"]\n', '[Game "laquet"]\n[Rules "both-dice=may leftover=none"]\n'],
    "copenhagen": ['[Game "copenhagen"]\n', '[Game "copenhagen"]\n[Variant "fetlar"]\n'],
    "brandubh": ['[Game "brandubh"]\n', '[Game "brandubh"]\n[Rules "king-armed=no"]\n'],
    "hnefatafl": [  # berserk moves left out, Tyr's leaps, commanders' jumps, mercenaries
        '[Game "hnefatafl"]\n[Variant "berserk-hnefatafl-11x11"]\n',
        '[Game "hnefatafl"]\n[Variant "old-tyr-11x11"]\n',
        '[Game "hnefatafl"]\n[Variant "alea-evangelii-dux4-19x19"]\n',
        '[Game "hnefatafl"]\n[Variant "alea-berserk-17x17-martens"]\n',
    ],
}
CSV_HEADERS = ("# copenhagen\n", "# brandubh\n", "")  # a CSV file's game: its header (a stream has no name)
FORMATS = ("otn", "tafl", "aage", "tablut-challenge")  # also the folders of their fixtures
SUFFIXES = {"otn": ".otg", "tafl": ".txt", "aage": ".json", "tablut-challenge": "_gameLog.txt"}
FIXTURES = ROOT / "tests" / "fixtures" / "formats"


def lgn(game: str, data: bytes) -> None:
    """The reader and the validator of one game: `check` turns every problem into diagnostics."""
    from lusoria.notation.reader import split_records
    from lusoria.validator.replay import check

    headers = HEADERS[game]
    header = headers[data[0] % len(headers)] if data else headers[0]
    text = data[1:].decode("utf-8", "replace")
    check(header + text)
    for source in split_records(text.splitlines(keepends=True)):
        check(source)


def other_format(format: str, data: bytes) -> None:
    """A reader of another format, the validator, and `convert` to lgn and OTN, which must turn
    every problem into a diagnostic or a record not converted."""
    from lusoria.formats.convert import convert

    text = data.decode("utf-8", "replace")
    for to in ("lgn", "otn"):
        for _ in convert([io.StringIO(text)], to, format=format):
            pass


def csv(data: bytes) -> None:
    """The CSV reader as `other_format`, its game named by a header line the first byte picks."""
    header = CSV_HEADERS[data[0] % len(CSV_HEADERS)].encode() if data else b""
    other_format("csv", header + data[1:])


class _Answers:
    """The language server's writer: what it sends, checked for tracebacks."""

    def write(self, data: bytes) -> None:
        if b'"traceback"' in data:
            raise AssertionError(f"an answer with a traceback: {data[:2000]!r}")

    def close(self) -> None:
        pass


INITIALIZE = {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"capabilities": {}}}


def framed(message: bytes | dict) -> bytes:
    body = message if isinstance(message, bytes) else json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def lsp(data: bytes) -> None:
    """The language server's message loop after an initialize: the input as it is (an odd
    first byte) or as one framed message (an even one). Its documents are closed afterwards."""
    from lusoria import lsp as server_module

    server = server_module.server
    server.protocol.set_writer(_Answers())
    server.protocol._shutdown = False  # a shutdown request of an earlier input
    stream = framed(INITIALIZE) + (data[1:] if data[:1] and data[0] % 2 else framed(data[1:]))
    try:
        asyncio.run(server_module.read_messages(server, io.BytesIO(stream)))
    except SystemExit:
        pass  # an exit notification: the server ends, as it should
    finally:
        for uri in list(server.workspace.text_documents):
            server.workspace.remove_text_document(uri)
        server.documents.clear()
        server.versions.clear()


# -- lusoria's SQL functions ------------------------------------------------------------------------

SQL_FUNCTIONS = {
    "lusoria_text": 1,
    "lusoria_boards": 1,
    "lusoria_board_at": 2,
    "lusoria_matching_plies": 3,
    "lusoria_casefold": 1,
}


def _sql_value(data: bytes) -> object:
    """An SQL argument from its bytes: the first says its kind (BLOB, text, integer, real, NULL)."""
    kind, rest = (data[0] % 5, data[1:]) if data else (4, b"")
    if kind == 0:
        return rest
    if kind == 1:
        return rest.decode("utf-8", "replace")
    if kind == 2:
        return int.from_bytes(rest[:8], "big", signed=True)
    if kind == 3:
        return len(rest) / 3 - 1.5
    return None


def sql_functions(data: bytes) -> None:
    """Every SQL function lusoria gives a connection, called with arguments cut from the input (at
    NUL bytes, each typed by its first byte; the first byte of all picks the function): it answers,
    or fails in one line that names it (archive/functions.py); anything else is a crash. SQLite's
    callback tracebacks are off, as in lusoria's processes (`lusoria serve` too: a test session that
    imported Datasette has them on, and each refusal would be a traceback to standard error)."""
    import sqlite3

    from lusoria.archive import functions
    from lusoria.archive.reading import add_query_functions

    name = list(SQL_FUNCTIONS)[data[0] % len(SQL_FUNCTIONS)] if data else "lusoria_text"
    pieces = data[1:].split(b"\x00")
    arguments = [_sql_value(piece) for piece in (pieces + [b""] * 3)[: SQL_FUNCTIONS[name]]]
    sqlite3.enable_callback_tracebacks(False)
    conn = sqlite3.connect(":memory:")
    try:
        conn.execute('CREATE TABLE "text_dictionaries" ("id" INTEGER PRIMARY KEY, "dictionary" BLOB NOT NULL)')
        add_query_functions(conn)
        try:
            conn.execute(f"SELECT {name}({', '.join('?' * len(arguments))})", arguments).fetchone()
        except sqlite3.OperationalError as error:
            said = functions.failure(error)
            if said is None or not said.startswith(name + ": ") or "\n" in said:
                raise AssertionError(f"{name}{tuple(arguments)!r:.200}: {error} ({said!r})") from None
    finally:
        conn.close()


def sql_seeds() -> Iterator[bytes]:
    """Each function with what it reads: packed boards and texts, a ply, GLOBs of a game."""
    import zstandard

    from lusoria.archive.positions import pack_boards

    boards = pack_boards([b"...K... w", b"..K.... b"])
    text = zstandard.ZstdCompressor().compress(b'[Game "tablut"]\n\n*\n')
    globs = json.dumps([["tablut", "*K* ?"], ["tablut", "[^.]*.*.*.*.*.*Z"]]).encode()
    for number, arguments in enumerate(
        [
            [b"\x00" + text],
            [b"\x00" + boards],
            [b"\x00" + boards, b"\x02\x01"],
            [b"\x00" + boards, b"\x01tablut", b"\x01" + globs],
            [b"\x01\xc3\x85str"],
        ]
    ):
        yield bytes([number]) + b"\x00".join(arguments)


# -- plug-ins ---------------------------------------------------------------------------------------

PLUGIN_VALUES: list[Callable[[], object]] = [
    lambda: 42,
    lambda: "a format",
    lambda: None,
    lambda: object,
    lambda: type("NotAGame", (), {}),
    lambda: _raise(RuntimeError("the plug-in fails")),
    lambda: _raise(SystemExit(5)),
    lambda: _raise(ImportError("x")),
    lambda: _raise(RecursionError()),
    lambda: _raise(MemoryError()),
]


def _raise(error: BaseException) -> object:
    raise error


def plugins(data: bytes) -> None:
    """Entry points made from the input (names, and `module:attribute` values whose attribute
    loads to one of PLUGIN_VALUES, raises, or is missing) loaded as lusoria loads the games' and
    the formats' (lusoria/plugins.py): each is taken or left out with one warning line, never an
    exception, and the built-in games and formats are all there."""
    import contextlib
    import types
    from importlib.metadata import EntryPoint
    from unittest import mock

    from lusoria import plugins as loading
    from lusoria.formats import BUILT_IN, Formats
    from lusoria.validator.games import _BUILT_IN, Registry

    module = types.ModuleType("fuzz_plugin")
    module.__getattr__ = lambda attribute: PLUGIN_VALUES[len(attribute) % len(PLUGIN_VALUES)]()  # type: ignore
    points = []
    for number, piece in enumerate(data.split(b"\x00")[:16]):
        name = piece[:1].decode("latin-1") + str(number) if piece[:1] != b"t" else "tablut"  # a built-in's name too
        attribute = piece[1:].decode("utf-8", "replace").strip() or "value"
        module_name = "fuzz_plugin" if number % 3 else "fuzz_plugin_missing"
        for group in ("lusoria.games", "lusoria.formats"):
            points.append(EntryPoint(name, f"{module_name}:{attribute}", group))
    errors = io.StringIO()
    found = lambda group: [point for point in points if point.group == group]
    with (
        mock.patch.dict(sys.modules, {"fuzz_plugin": module}),
        mock.patch.object(loading, "entry_points", found),
        contextlib.redirect_stderr(errors),
    ):
        games, formats = Registry(_BUILT_IN), Formats(BUILT_IN)
        assert set(_BUILT_IN) <= set(games.names) and {entry.name for entry in BUILT_IN} <= set(formats)
        assert games["tablut"].name == "tablut"
    for line in errors.getvalue().splitlines():
        assert line.startswith("lusoria: warning: the plug-in '") and " is left out: " in line, line


def plugin_seeds() -> Iterator[bytes]:
    yield b"\x00".join(b"g" + b"x" * length for length in range(len(PLUGIN_VALUES)))
    yield b"tvalue\x00a:b\x00a.b.c\x00\x00\xff\xfe"


TARGETS: dict[str, Callable[[bytes], None]] = {
    **{game: partial(lgn, game) for game in HEADERS},
    **{format: partial(other_format, format) for format in FORMATS},
    "csv": csv,
    "lsp": lsp,
    "sql-functions": sql_functions,
    "plugins": plugins,
}


def _random_seeds(game: str) -> Iterator[bytes]:
    """Random legal games under each header of a game that has no samples (fixed seeds)."""
    from lusoria.api import random_records
    from lusoria.notation.reader import parse_record

    for number, header in enumerate(HEADERS[game]):
        tags = dict(parse_record(header + "*").tags)
        for text in random_records(game, 3, seed=number, tags=tags, max_plies=60):
            yield bytes([number]) + text.split("\n\n", 1)[-1].encode()


def seeds(target: str) -> Iterator[bytes]:
    """The starting inputs of a target, as the target reads them."""
    if target in HEADERS:
        from lusoria.notation.reader import split_records

        sources = sorted((ROOT / "samples").rglob("*.lgn"))
        conformance = ROOT.parent / "shared" / "conformance"
        if conformance.is_dir():
            sources += sorted(conformance.glob(f"{target}*.lgn"))
        for path in sources:
            with open(path, encoding="utf-8") as handle:
                for number, record in enumerate(split_records(handle)):
                    if f'"{target}"' in record.text and number < 40:
                        yield b"\x00" + record.text.split("\n\n", 1)[-1].encode()
        if not (ROOT / "samples" / target).is_dir():
            yield from _random_seeds(target)
    elif target == "sql-functions":
        yield from sql_seeds()
    elif target == "plugins":
        yield from plugin_seeds()
    elif target == "csv":
        for number, path in enumerate([FIXTURES / "csv" / "copenhagen.csv", FIXTURES / "csv" / "brandubh.csv"]):
            yield bytes([number]) + path.read_bytes()
        yield b"\x01" + (FIXTURES / "errors" / "brandubh-lists.csv").read_bytes()
    elif target in FORMATS:
        for path in sorted((FIXTURES / target).iterdir()) + sorted((FIXTURES / "errors").iterdir()):
            if path.name.endswith(SUFFIXES[target]):
                yield path.read_bytes()
    else:
        record = (ROOT / "samples" / "tablut" / "escape.lgn").read_text("utf-8")
        document = {"uri": "file:///fuzz.lgn"}
        place = {"line": 2, "character": 5}
        session = [
            {
                "jsonrpc": "2.0",
                "method": "textDocument/didOpen",
                "params": {"textDocument": {**document, "languageId": "lgn", "version": 1, "text": record}},
            },
            {
                "jsonrpc": "2.0",
                "method": "textDocument/didChange",
                "params": {
                    "textDocument": {**document, "version": 2},
                    "contentChanges": [{"range": {"start": place, "end": place}, "text": " e3-c3 ("}],
                },
            },
            {
                "jsonrpc": "2.0",
                "id": 1,
                "method": "textDocument/hover",
                "params": {"textDocument": document, "position": place},
            },
            {
                "jsonrpc": "2.0",
                "id": 2,
                "method": "textDocument/completion",
                "params": {"textDocument": document, "position": place},
            },
            {
                "jsonrpc": "2.0",
                "id": 3,
                "method": "textDocument/codeAction",
                "params": {
                    "textDocument": document,
                    "range": {"start": place, "end": place},
                    "context": {"diagnostics": []},
                },
            },
            {"jsonrpc": "2.0", "id": 4, "method": "textDocument/documentSymbol", "params": {"textDocument": document}},
            {
                "jsonrpc": "2.0",
                "id": 5,
                "method": "textDocument/semanticTokens/full",
                "params": {"textDocument": document},
            },
            {
                "jsonrpc": "2.0",
                "id": 6,
                "method": "textDocument/formatting",
                "params": {"textDocument": document, "options": {"tabSize": 4, "insertSpaces": True}},
            },
            {"jsonrpc": "2.0", "method": "textDocument/didClose", "params": {"textDocument": document}},
        ]
        yield b"\x01" + b"".join(framed(message) for message in session)
        for message in session:
            yield b"\x00" + json.dumps(message).encode()


def main() -> None:
    import atheris

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--target", choices=sorted(TARGETS), required=True)
    parser.add_argument("--seconds", type=int, default=60)
    options, rest = parser.parse_known_args()
    with atheris.instrument_imports():  # lusoria's modules, loaded here for the first time, measured
        import lusoria.archive.reading
        import lusoria.formats.convert
        import lusoria.lsp
        import lusoria.notation.reader
        import lusoria.plugins
        import lusoria.validator.replay  # noqa: F401
    corpus = HERE / "corpus" / options.target
    corpus.mkdir(parents=True, exist_ok=True)
    for number, data in enumerate(seeds(options.target)):
        (corpus / f"seed-{number}").write_bytes(data)
    crashes = HERE / "crashes"
    crashes.mkdir(exist_ok=True)
    atheris.Setup(
        [
            sys.argv[0],
            f"-max_total_time={options.seconds}",
            f"-artifact_prefix={crashes}/",
            "-max_len=4096",
            "-rss_limit_mb=4096",
            *rest,
            str(corpus),
        ],
        TARGETS[options.target],
    )
    atheris.Fuzz()


if __name__ == "__main__":
    main()
