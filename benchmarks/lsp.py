"""The language server on a 1,000-record file: diagnostics after opening it, and after a
one-character edit, which re-checks one record (target: under 200 ms). Measured through a
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
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()


if __name__ == "__main__":
    asyncio.run(main())
