"""`lusoria lsp` through a real client: pytest-lsp starts the server as a subprocess and
talks to it over stdio, as an editor does."""

import asyncio
import itertools
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types as lsp
from pytest_lsp import ClientServerConfig, LanguageClient

from lusoria import api

from conftest import ROOT

pytestmark = pytest.mark.asyncio(loop_scope="module")
SAMPLES = sorted((ROOT / "samples").rglob("*.lgn"))
NUMBERS = itertools.count()


@pytest_lsp.fixture(scope="module", config=ClientServerConfig(server_command=[sys.executable, "-m", "lusoria.cli",
                                                                                  "lsp"]))
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(lsp.InitializeParams(capabilities=lsp.ClientCapabilities()))
    yield
    await lsp_client.shutdown_session()


async def published(client: LanguageClient, uri: str) -> list[lsp.Diagnostic]:
    """The diagnostics the server publishes next for `uri`."""
    async with asyncio.timeout(60):
        while uri not in client.diagnostics:
            await client.wait_for_notification(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    return list(client.diagnostics.pop(uri))


async def open_text(client: LanguageClient, text: str, name: str = "record") -> tuple[str, list[lsp.Diagnostic]]:
    uri = f"file:///work/{name}-{next(NUMBERS)}.lgn"
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(uri, "lgn", 1, text)))
    return uri, await published(client, uri)


async def change(client: LanguageClient, uri: str, version: int, start: tuple[int, int], end: tuple[int, int],
                 text: str) -> None:
    client.text_document_did_change(lsp.DidChangeTextDocumentParams(
        lsp.VersionedTextDocumentIdentifier(version, uri),
        [lsp.TextDocumentContentChangePartial(lsp.Range(lsp.Position(*start), lsp.Position(*end)), text)]))


def as_validate_says(path: Path) -> list[tuple]:
    return [(d.line - 1, max(d.column - 1, 0), d.severity, d.rule, d.message, d.suggestions)
            for verdict in api.validate([str(path)]) for d in verdict.diagnostics]


def as_server_says(diagnostics: list[lsp.Diagnostic]) -> list[tuple]:
    severity = {lsp.DiagnosticSeverity.Error: "error", lsp.DiagnosticSeverity.Warning: "warning"}
    return [(d.range.start.line, d.range.start.character, severity[d.severity], d.code,
             d.message.split("\n")[0], tuple(d.data["suggestions"])) for d in diagnostics]


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: str(p.relative_to(ROOT / "samples")))
async def test_diagnostics_are_those_of_validate(client: LanguageClient, path: Path):
    _, diagnostics = await open_text(client, path.read_text("utf-8"))
    assert as_server_says(diagnostics) == as_validate_says(path)


async def test_a_diagnostic_spans_the_ply_and_says_did_you_mean(client: LanguageClient):
    _, diagnostics = await open_text(client, '[Game "tablut"]\n\n1. e3-c3 e4-b4 *\n')
    (found,) = diagnostics
    assert (found.code, found.source, found.severity) == ("T1", "lusoria", lsp.DiagnosticSeverity.Error)
    assert found.range == lsp.Range(lsp.Position(2, 9), lsp.Position(2, 14))
    assert found.message == ("the piece on e4 is White's, and Black is to move; the rest of this line is not checked"
                             "\ndid you mean a4-b4?")


async def test_an_edit_rechecks_and_moves_the_diagnostics(client: LanguageClient):
    text = '[Game "tablut"]\n1. e3-c3 d1-d3 *\n\n[Game "tablut"]\n1. e3-c3 e4-b4 *\n'
    uri, diagnostics = await open_text(client, text)
    assert [(d.code, d.range.start.line) for d in diagnostics] == [("T1", 4)]
    await change(client, uri, 2, (0, 0), (0, 0), "% a new first line\n")
    assert [(d.code, d.range.start.line) for d in await published(client, uri)] == [("T1", 5)]
    await change(client, uri, 3, (5, 9), (5, 10), "a")  # e4-b4 -> a4-b4: legal
    assert await published(client, uri) == []
    await change(client, uri, 4, (2, 9), (2, 14), "d9-d2")
    assert [(d.code, d.range.start.line, d.range.start.character) for d in await published(client, uri)] \
        == [("T2", 2, 9)]


async def test_position_units_are_utf16(client: LanguageClient):
    uri, diagnostics = await open_text(client, '[Game "tablut"]\n{ 𝔊 } 1. e3-c3 e4-b4 *\n')
    assert [(d.code, d.range.start.character) for d in diagnostics] == [("T1", 16)]  # 𝔊: two UTF-16 units
