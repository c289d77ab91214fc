"""The language server on a 1,000-record file: diagnostics after opening it, and after a
one-character edit, which re-checks one record (target: under 200 ms); and the code actions of
a record of 20,000 moves numbered `1.` and `2.` on one line (the fix numbers every one). Measured through a
real client over stdio; `python benchmarks/lsp.py` prints the figures (not a test)."""

from __future__ import annotations

import asyncio
import statistics
import sys
import time

from lsprotocol import types as lsp
from pygls.lsp.client import LanguageClient

from lusoria.api import random_records

RECORDS = 1000
EDITS = 20
MISNUMBERED = 20_000


async def main() -> None:
    text = "\n".join(random_records("tablut", RECORDS, seed=11, max_plies=60))
    lines = text.split("\n")
    client = LanguageClient("benchmark", "1")
    published: asyncio.Queue = asyncio.Queue()

    @client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def diagnostics(params: lsp.PublishDiagnosticsParams) -> None:
        published.put_nowait((time.perf_counter(), params))

    @client.feature(lsp.WINDOW_LOG_MESSAGE)
    def log(params: lsp.LogMessageParams) -> None:  # "checked N of M changed records"
        pass

    await client.start_io(sys.executable, "-m", "lusoria.cli", "lsp")
    await client.initialize_async(lsp.InitializeParams(capabilities=lsp.ClientCapabilities()))
    client.initialized(lsp.InitializedParams())
    uri = "file:///benchmark.lgn"
    start = time.perf_counter()
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(uri, "lgn", 1, text)))
    done, params = await published.get()
    print(
        f"open {RECORDS} records ({len(text):,} characters): diagnostics after {1000 * (done - start):.0f} ms "
        f"({len(params.diagnostics)} diagnostics)"
    )
    rows = [i for i, line in enumerate(lines) if line.startswith("1. ")]  # where each record's movetext starts
    times = []
    for version in range(2, EDITS + 2):
        row = rows[(version - 2) // 2 * 50 % len(rows)]
        insert = version % 2 == 0  # an "x" that breaks one record, then the same record whole again
        start = time.perf_counter()
        client.text_document_did_change(
            lsp.DidChangeTextDocumentParams(
                lsp.VersionedTextDocumentIdentifier(version, uri),
                [
                    lsp.TextDocumentContentChangePartial(
                        lsp.Range(lsp.Position(row, 2), lsp.Position(row, 2 + (not insert))), "x" if insert else ""
                    )
                ],
            )
        )
        done, params = await published.get()
        times.append(1000 * (done - start))
        assert len(params.diagnostics) == insert, params.diagnostics  # the syntax error, or none
    print(
        f"one-character edit: diagnostics after median {statistics.median(times):.0f} ms, "
        f"max {max(times):.0f} ms over {EDITS} edits (target: under 200 ms)"
    )
    misnumbered = '[Game "tablut"]\n' + "1. e3-c3 d1-d3 2. c3-e3 d3-d1 " * (MISNUMBERED // 2) + "*\n"
    client.text_document_did_open(
        lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(uri + ".numbers", "lgn", 1, misnumbered))
    )
    await published.get()
    start = time.perf_counter()
    actions = await client.text_document_code_action_async(
        lsp.CodeActionParams(
            lsp.TextDocumentIdentifier(uri + ".numbers"),
            lsp.Range(lsp.Position(1, 0), lsp.Position(1, 0)),
            lsp.CodeActionContext([]),
        )
    )
    numbered = next(action for action in actions if action.title.startswith("Number the"))
    print(
        f"code actions on one line of {MISNUMBERED:,} moves: {1000 * (time.perf_counter() - start):.0f} ms "
        f"({numbered.title})"
    )
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()


if __name__ == "__main__":
    asyncio.run(main())
