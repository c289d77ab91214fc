"""`lusoria lsp`: a Language Server Protocol server for `.lgn` files, on pygls.

Diagnostics are those of `lusoria validate`; an edit reads the document and re-checks only the
records whose text changed, in worker threads, and a newer edit makes an unfinished check stop (its
finished records are kept; the edits made during a read are read once it ends, the newest alone).
The features themselves live in `lusoria/document.py`; this module turns them into the protocol.

What the server reads is bounded (`handle_messages`: headers, each message's length, JSON's
nesting and numbers), it answers only about documents the editor opened (it reads no file),
a request it cannot answer gets an error without a traceback, and what it keeps does not
grow with the edits (docs/robustness.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import inspect
import logging
import re
import sys
import threading
from collections.abc import Callable, Generator, Iterator, Sequence
from concurrent.futures import Future
from dataclasses import replace
from typing import Any, BinaryIO, TypeVar
from urllib.parse import unquote

import cattrs
from lsprotocol import types as lsp
from pygls.exceptions import (
    JsonRpcException,
    JsonRpcInternalError,
    JsonRpcInvalidParams,
    JsonRpcInvalidRequest,
    JsonRpcParseError,
)
from pygls.io_ import StdoutWriter
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.language_server import lsp_method
from pygls.workspace import Workspace
from pygls.workspace.position_codec import ServerTextPosition
from pygls.workspace.text_document import TextDocument

from lusoria import __version__
from lusoria.api import failed_plug_in, line_ends_like
from lusoria.document import (
    TOKEN_TYPES,
    Document,
    Edit,
    Entry,
    Fix,
    KeptTokens,
    canonical_fixes,
    check_missing,
    cited_at,
    completions,
    diagnostic_range,
    diagnostic_span,
    document_tokens,
    fixes,
    format_fix,
    formatted_document,
    lines_of,
    normalized,
    ply_hover,
    rule_hover,
    rules_at,
    symbol_detail,
    symbol_name,
    tag_at,
    tag_hover,
)
from lusoria.notation.json_input import MAX_INTEGER, loads
from lusoria.notation.numbers import whole_number
from lusoria.notation.reader import RecordText
from lusoria.notation.sources import BOM
from lusoria.plugins import FAILS
from lusoria.terminal import unescaped
from lusoria.validator.replay import ERROR
from lusoria.words import PAGE

SEVERITY = {ERROR: lsp.DiagnosticSeverity.Error}
COMPLETION_KINDS = {
    "ply": lsp.CompletionItemKind.Function,
    "number": lsp.CompletionItemKind.Constant,
    "result": lsp.CompletionItemKind.EnumMember,
    "tag": lsp.CompletionItemKind.Property,
    "value": lsp.CompletionItemKind.Value,
}
LEGEND = lsp.SemanticTokensLegend(token_types=list(TOKEN_TYPES), token_modifiers=[])


class LgnTextDocument(TextDocument):
    """pygls's document, whose lines end where the protocol's do: at `\\n`, `\\r\\n` or `\\r` (pygls
    ended them at a form feed, U+2028… too, and put an edit after one on the wrong line)."""

    @property
    def lines(self) -> Sequence[str]:
        return _PROTOCOL_LINE.findall(self.source)


_PROTOCOL_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")


class LgnWorkspace(Workspace):
    """pygls's workspace, whose documents are LgnTextDocuments."""

    def _create_text_document(
        self, doc_uri: str, source: str | None = None, version: int | None = None, language_id: str | None = None
    ) -> TextDocument:
        return LgnTextDocument(
            doc_uri, source, version, language_id, sync_kind=self._sync_kind, position_codec=self.position_codec
        )


class Protocol(LanguageServerProtocol):
    """pygls's protocol, mended: its documents end their lines as the protocol does (LgnWorkspace),
    a change of a document never opened is dropped, and the future of a notification handled by a
    generator (pygls's own handlers of didOpen, didChange, didClose…), which pygls kept for ever
    (about 5 KB an edit), is let go once it is done (a request's has been answered by then)."""

    @lsp_method(lsp.INITIALIZE)
    def lsp_initialize(self, params: lsp.InitializeParams) -> Generator[Any, Any, lsp.InitializeResult]:
        """pygls's, with an LgnWorkspace (no document is open yet)."""
        answer = yield from super().lsp_initialize(params)
        made = self.workspace
        self._workspace = LgnWorkspace(
            made.root_uri, self._server._text_document_sync_kind, list(made.folders.values()), made.position_encoding
        )
        return answer

    def _execute_handler(
        self,
        msg_id: str | int,
        handler: Callable[[Any], Any],
        callback: Callable[[Future[Any]], None],
        args: tuple[Any, ...] | None = None,
        kwargs: dict[str, Any] | None = None,
    ) -> Any:
        super()._execute_handler(msg_id, handler, callback, args, kwargs)
        future = self._request_futures.get(msg_id)
        if future is not None:
            future.add_done_callback(functools.partial(self._let_go, msg_id))

    def _let_go(self, msg_id: Any, future: Future) -> None:
        if self._request_futures.get(msg_id) is future:
            del self._request_futures[msg_id]

    @lsp_method(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: lsp.DidChangeTextDocumentParams) -> Iterator[Any]:
        """pygls's, for an open document only: the change of any other, a client's slip, is dropped
        (pygls failed on it, and the editor showed "Error in server: KeyError: 'file:///…'")."""
        if unquote(params.text_document.uri) in self.workspace.text_documents:
            yield from super().lsp_text_document__did_change(params)


class Untraced(logging.Filter):
    """pygls's log of a message lusoria answered with an error that says why (a document not open,
    parameters the protocol's types refuse, a command it does not have): one line, where pygls wrote
    a traceback with it. A failure of lusoria itself keeps its traceback (`answered` logs it)."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if isinstance(error, JsonRpcException):
            record.msg, record.args, record.exc_info = f"{record.getMessage()}: {error.message}", (), None
        elif record.msg.startswith("Unable to deserialize message"):  # the traceback written into the message
            record.msg, record.args = "Unable to deserialize message", ()
        return True


logging.getLogger("pygls.protocol.json_rpc").addFilter(Untraced())


class LgnServer(LanguageServer):
    """The server: one Document per open file, the version each check is for, and the lock each
    read of a document holds."""

    def __init__(self) -> None:
        super().__init__("lusoria", __version__, protocol_cls=Protocol)
        self.documents: dict[str, Document] = {}
        self.versions: dict[str, int | None] = {}  # uri -> the version of the latest check asked for
        self.reading: dict[str, asyncio.Lock] = {}  # uri -> held while its text is read

    def opened(self, uri: str) -> TextDocument | None:
        """The document the editor opened at `uri`; None for any other, which the server never
        reads (a file it would read whole, /dev/zero; an untitled: or http: document)."""
        return self.workspace.text_documents.get(unquote(uri))

    def text(self, uri: str) -> str:
        """The text of an open document; JsonRpcInvalidParams (an answer) for any other."""
        document = self.opened(uri)
        if document is None:
            raise JsonRpcInvalidParams(
                f"{uri[:200]} is not open: lusoria answers about the documents the editor has opened"
            )
        return normalized(document.source)

    def held(self, uri: str) -> Document:
        """The Document kept for an open document, read in the format its file's name (and its first
        characters) say, as `validate` reads the file."""
        opened = self.opened(uri)
        return self.documents.setdefault(uri, Document(opened.path if opened else ""))

    def stop_checks(self) -> None:
        """Make every check under way stale (the editor quits): each stops at its next record."""
        self.versions.clear()

    def lock(self, uri: str) -> asyncio.Lock:
        """What a read of a document holds (`read`): one read of it at a time, so that the edits made
        during one are read once it ends, the newest alone (`check_document`)."""
        return self.reading.setdefault(uri, asyncio.Lock())

    async def read(self, uri: str) -> tuple[str, Document, list[RecordText]]:
        """The text of an open document, the Document kept for it and its records, read in a worker
        thread (a CSV of thousands of games takes a while); the caller holds its `lock`. The Document is
        the one read, not the one kept once the read ends (the editor may close the document meanwhile,
        and open it again)."""
        text, document = self.text(uri), self.held(uri)
        return text, document, await asyncio.get_running_loop().run_in_executor(self.thread_pool, document.split, text)

    async def document(self, uri: str) -> Document:
        """The document as it is now, once the reads of it asked for before have ended (a request
        during a check checks the records still missing itself); only an open document is kept."""
        async with self.lock(uri):
            _, document, sources = await self.read(uri)
        document.update(sources)
        return document

    def place(self, uri: str, position: lsp.Position) -> tuple[int, int, list[str]]:
        """A client position as a line and a column in code points, and the lines."""
        lines = lines_of(self.text(uri))
        if not 0 <= position.line < len(lines):
            return position.line, position.character, lines
        server = self.workspace.position_codec.position_from_client_units(lines, position)
        return server.line, server.character, lines


class Columns:
    """Places in code points (0-based) as the client counts them (UTF-16 by default): on
    the usual line, where the two agree, without counting."""

    def __init__(self, server: LgnServer, lines: list[str]):
        self.lines, self.codec = lines, server.workspace.position_codec
        self.utf8 = server.workspace.position_encoding == lsp.PositionEncodingKind.Utf8
        self.utf32 = server.workspace.position_encoding == lsp.PositionEncodingKind.Utf32
        self.plain: dict[int, bool] = {}  # row -> code points are the client's units there

    def position(self, row: int, column: int) -> lsp.Position:
        row = min(max(row, 0), len(self.lines) - 1)
        line = self.lines[row]
        column = min(max(column, 0), len(line))
        plain = self.plain.get(row)
        if plain is None:
            plain = self.plain[row] = self.utf32 or line.isascii() or (not self.utf8 and not _ASTRAL.search(line))
        if plain:
            return lsp.Position(row, column)
        return self.codec.position_to_client_units(self.lines, ServerTextPosition(row, column))

    def range(self, line: int, start: int, end_line: int, end: int) -> lsp.Range:
        return lsp.Range(self.position(line, start), self.position(end_line, end))

    def edit(self, edit: Edit) -> lsp.TextEdit:
        return lsp.TextEdit(self.range(edit.line, edit.column, edit.end_line, edit.end_column), edit.text)


_ASTRAL = re.compile("[\U00010000-\U0010ffff]")


server = LgnServer()
Handler = TypeVar("Handler", bound=Callable[..., Any])


def feature(name: str, options: Any = None) -> Callable[[Handler], Handler]:
    """`server.feature`, with the handler's failures answered in one line (`answered`)."""

    def register(handler: Handler) -> Handler:
        server.feature(name, options)(answered(handler))
        return handler

    return register


def answered(handler: Handler) -> Handler:
    """A handler whose failure is an error without a traceback (pygls would send one, in the
    error's data): its type and message, or what a plug-in's game that raised it says, naming it
    (`failed_plug_in`); the traceback stays in the server's log. A coroutine's (a request that
    waits for a read: `LgnServer.read`) is one too."""

    @functools.wraps(handler)
    def answering(server: LgnServer, params: Any) -> Any:
        with failures_answered(handler):
            return handler(server, params)

    @functools.wraps(handler)
    async def answering_later(server: LgnServer, params: Any) -> Any:
        with failures_answered(handler):
            return await handler(server, params)

    return answering_later if inspect.iscoroutinefunction(handler) else answering  # type: ignore[return-value]


@contextlib.contextmanager
def failures_answered(handler: Callable[..., Any]) -> Iterator[None]:
    """`answered`'s: a failure of `handler` raised as the error that answers it."""
    try:
        yield
    except JsonRpcException:
        raise
    except FAILS as error:  # a plug-in game's sys.exit() too: it ended the server
        logging.getLogger(__name__).exception("%s failed", handler.__name__)
        said = failed_plug_in(error) or f"lusoria could not answer: {type(error).__name__}: {error}"
        raise JsonRpcInternalError(said[:1000]) from None


# -- diagnostics ----------------------------------------------------------------


def diagnostic(columns: Columns, entry: Entry, found) -> lsp.Diagnostic:
    return lsp.Diagnostic(
        columns.range(*diagnostic_range(entry, found)),
        found.with_move("\n", to=PAGE),  # as validate says it; an encoding to try, as a page
        SEVERITY.get(found.severity, lsp.DiagnosticSeverity.Warning),
        found.rule,
        source="lusoria",
        data={"suggestions": list(found.suggestions), "ply": found.ply},
    )


async def check_document(server: LgnServer, uri: str, version: int | None) -> None:
    """Read the document and check the records that changed, each in a worker thread, then publish,
    unless a newer edit came meanwhile (then stop: the newer check publishes), or the document was
    closed (opened again at its URI, it is another Document, whose own check publishes). Edits made
    while a read runs are read once it ends, the newest alone."""
    if server.versions.get(uri) != version:  # closed, or edited again, before the check began
        return  # (no Document, no lock is kept for a closed document)
    document = server.held(uri)

    def stale() -> bool:
        return server.versions.get(uri) != version or server.documents.get(uri) is not document

    async with server.lock(uri):
        if stale():  # closed, or edited again, during an earlier read: the newer edit's check reads it
            return
        text, _, sources = await server.read(uri)  # (`document`'s: no other kept while not stale)
    if stale():
        why = "a newer edit" if server.documents.get(uri) is document else "the document's closing"
        server.window_log_message(
            lsp.LogMessageParams(lsp.MessageType.Log, f"{uri} version {version}: read, dropped for {why}")
        )
        return
    missing = document.missing(sources)
    checked = await asyncio.get_running_loop().run_in_executor(server.thread_pool, check_missing, missing, stale)
    document.reports.update(checked)
    server.window_log_message(
        lsp.LogMessageParams(
            lsp.MessageType.Log,
            (
                f"{uri} version {version}: checked {len(checked)} of {len(missing)} changed records"
                + (", stopped by a newer edit" if stale() else "")
            ),
        )
    )
    if stale():
        return
    document.update(sources, checked)
    columns = Columns(server, lines_of(text))
    server.text_document_publish_diagnostics(
        lsp.PublishDiagnosticsParams(
            uri, [diagnostic(columns, entry, found) for entry, found in document.diagnostics()], version
        )
    )


def schedule(server: LgnServer, uri: str) -> None:
    """Check the document at the version it has (a save changes neither its text nor its version)."""
    opened = server.opened(uri)
    if opened is None:  # a change or a save of a document never opened: nothing to check
        return
    server.versions[uri] = opened.version
    task = asyncio.get_running_loop().create_task(check_document(server, uri, opened.version))
    task.add_done_callback(_log_failure)


def _log_failure(task: asyncio.Task) -> None:
    if not task.cancelled() and task.exception():
        logging.getLogger(__name__).error("checking failed", exc_info=task.exception())


@feature(lsp.TEXT_DOCUMENT_DID_OPEN)
def did_open(server: LgnServer, params: lsp.DidOpenTextDocumentParams) -> None:
    schedule(server, params.text_document.uri)


@feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
def did_change(server: LgnServer, params: lsp.DidChangeTextDocumentParams) -> None:
    schedule(server, params.text_document.uri)


@feature(lsp.TEXT_DOCUMENT_DID_SAVE)
def did_save(server: LgnServer, params: lsp.DidSaveTextDocumentParams) -> None:
    schedule(server, params.text_document.uri)


@feature(lsp.EXIT)
def exited(server: LgnServer, params: None) -> None:
    """The editor quits: the checks still running stop (then pygls's own handler exits)."""
    server.stop_checks()


@feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
def did_close(server: LgnServer, params: lsp.DidCloseTextDocumentParams) -> None:
    uri = params.text_document.uri
    server.documents.pop(uri, None)
    server.versions.pop(uri, None)
    server.reading.pop(uri, None)
    server.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri, []))


# -- requests -------------------------------------------------------------------


@feature(lsp.TEXT_DOCUMENT_HOVER)
async def hover(server: LgnServer, params: lsp.HoverParams) -> lsp.Hover | None:
    uri = params.text_document.uri
    line, column, lines = server.place(uri, params.position)
    entries = (await server.document(uri)).entries_at(line)
    entry = next((each for each in entries if each.ply_at(line, column)), entries[-1] if entries else None)
    text: str | None = None
    if entry is None:  # above the first record: a `%` line there may cite a rule too
        headed = 0 <= line < len(lines) and lines[line].removeprefix(BOM).startswith("%")
        rule_ids = cited_at(lines[line], column) if headed else []
    else:
        at, name = entry.ply_at(line, column), tag_at(entry, line, column)
        text = ply_hover(entry, *at) if at else tag_hover(entry, name) if name else None
        rule_ids = rules_at(entry, line, column)
    text = "\n\n".join(filter(None, [text, *map(rule_hover, rule_ids)]))
    return lsp.Hover(lsp.MarkupContent(lsp.MarkupKind.Markdown, text)) if text else None


@feature(
    lsp.TEXT_DOCUMENT_CODE_ACTION,
    lsp.CodeActionOptions(code_action_kinds=[lsp.CodeActionKind.QuickFix, lsp.CodeActionKind.RefactorRewrite]),
)
async def code_action(server: LgnServer, params: lsp.CodeActionParams) -> list[lsp.CodeAction]:
    uri = params.text_document.uri
    columns = Columns(server, lines_of(server.text(uri)))
    first, _, _ = server.place(uri, params.range.start)
    last, _, _ = server.place(uri, params.range.end)
    document = await server.document(uri)
    found: list[Fix] = []
    for entry in document.entries:
        if not entry.lgn or entry.last_line < first or entry.first_line > last:
            continue  # (a fix writes lgn)
        for item in entry.report.diagnostics:
            line, _, _ = diagnostic_span(entry, item)
            if first <= line <= last:
                found += fixes(entry, item)
        found += canonical_fixes(entry, first, last)
        record = format_fix(entry)
        found += [record] if record else []
    source = server.opened(uri).source  # type: ignore[union-attr]  # text(uri) found it
    actions, marked = [], source.startswith(BOM)
    for fix in found:
        owner = document.entry_at(fix.edits[0].line)
        actions.append(
            lsp.CodeAction(
                fix.title,
                kind=fix.kind,
                is_preferred=fix.preferred or None,
                diagnostics=[diagnostic(columns, owner, fix.diagnostic)] if fix.diagnostic and owner else None,
                edit=lsp.WorkspaceEdit(changes={uri: [columns.edit(written(e, marked, source)) for e in fix.edits]}),
            )
        )
    return actions


def written(edit: Edit, marked: bool, source: str) -> Edit:
    """`edit` as the document takes it: begun after its byte order mark, with its line ends (CRLF too)."""
    return replace(after_mark(edit, marked), text=line_ends_like(edit.text, source))


def after_mark(edit: Edit, marked: bool) -> Edit:
    """`edit`, in a document that begins with a byte order mark (`marked`), begun after it: the
    reader's space at (0, 0), that an edit of the first record from there replaced, dropping the mark."""
    if not marked or (edit.line, edit.column) != (0, 0):
        return edit
    return replace(edit, column=1, end_column=max(edit.end_column, 1) if edit.end_line == 0 else edit.end_column)


@feature(lsp.TEXT_DOCUMENT_FORMATTING)
async def formatting(server: LgnServer, params: lsp.DocumentFormattingParams) -> list[lsp.TextEdit]:
    uri = params.text_document.uri
    text = server.text(uri)
    document = await server.document(uri)
    if not document.lgn:  # fmt writes lgn: said, and nothing changed
        server.window_show_message(lsp.ShowMessageParams(lsp.MessageType.Info, formatting_refused(document)))
        return []
    source = server.opened(uri).source  # type: ignore[union-attr]  # text(uri) found it
    mark = BOM if source.startswith(BOM) else ""  # a CRLF document stays CRLF, and a BOM stays, as `fmt` keeps them
    canonical = await asyncio.get_running_loop().run_in_executor(
        server.thread_pool, formatted_document, source.removeprefix(BOM)
    )  # (in a worker thread, as the tokens: a request asked meanwhile is answered)
    formatted = mark + line_ends_like(canonical, source)
    if formatted == source:
        return []
    lines = lines_of(text)
    return [lsp.TextEdit(lsp.Range(lsp.Position(0, 0), lsp.Position(len(lines), 0)), formatted)]


@feature(lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
async def symbols(server: LgnServer, params: lsp.DocumentSymbolParams) -> list[lsp.DocumentSymbol]:
    uri = params.text_document.uri
    lines = lines_of(server.text(uri))
    columns = Columns(server, lines)
    found = []
    for entry in (await server.document(uri)).entries:
        whole = columns.range(entry.first_line, 0, entry.last_line, len(lines[entry.last_line]))
        first = columns.range(entry.first_line, 0, entry.first_line, len(lines[entry.first_line]))
        found.append(
            lsp.DocumentSymbol(symbol_name(entry), lsp.SymbolKind.Module, whole, first, detail=symbol_detail(entry))
        )
    return found


@feature(lsp.TEXT_DOCUMENT_COMPLETION, lsp.CompletionOptions(trigger_characters=[" ", "[", '"', "."]))
async def completion(server: LgnServer, params: lsp.CompletionParams) -> lsp.CompletionList:
    uri = params.text_document.uri
    line, column, lines = server.place(uri, params.position)
    document = await server.document(uri)
    if not 0 <= line < len(lines) or not document.lgn:  # (the plies, tags and numbers offered are lgn's)
        return lsp.CompletionList(False, [])
    entry = document.entry_at(line)
    items, columns = [], Columns(server, lines)
    source = server.opened(uri).source  # type: ignore[union-attr]  # place(uri) found it
    for rank, item in enumerate(completions(entry, lines[line], line, column)):
        edit = lsp.TextEdit(columns.range(line, item.start, line, item.end), item.label)
        items.append(
            lsp.CompletionItem(
                item.label,
                kind=COMPLETION_KINDS[item.kind],
                detail=item.detail or None,
                sort_text=f"{rank:05d}",
                filter_text=item.filter or None,
                text_edit=edit,
                additional_text_edits=[
                    columns.edit(written(also, source.startswith(BOM), source)) for also in item.edits
                ]
                or None,
            )
        )
    return lsp.CompletionList(False, items)


@feature(lsp.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL, LEGEND)
async def semantic_tokens(server: LgnServer, params: lsp.SemanticTokensParams) -> lsp.SemanticTokens:
    """The document's tokens, laid out in a worker thread, so that a hover or a completion asked meanwhile is
    answered (h79c: a 5.7 MB file's hover waited 4.7 s for them)."""
    uri = params.text_document.uri
    columns = Columns(server, lines_of(server.text(uri)))
    document = await server.document(uri)
    data = await asyncio.get_running_loop().run_in_executor(
        server.thread_pool, token_data, columns, list(document.entries), document.tokens
    )
    return lsp.SemanticTokens(data)


def token_data(columns: Columns, entries: list[Entry], kept: KeptTokens) -> list[int]:
    """The tokens of `entries` as LSP lays them out: five numbers each, its place from the one before; an lgn
    record's `kept` from the document's last layout, when its text is the same."""
    data: list[int] = []
    previous_line = previous_start = 0
    for line, column, length, kind in document_tokens(entries, kept):
        start, end = columns.position(line, column).character, columns.position(line, column + length).character
        delta = line - previous_line
        data += [delta, start - (previous_start if delta == 0 else 0), end - start, kind, 0]
        previous_line, previous_start = line, start
    return data


def formatting_refused(document: Document) -> str:
    """What the server says when asked to format a document read in another format than lgn."""
    return (
        f"lusoria: formatting is for lgn documents; this one is read as {document.format}, as validate reads it"
        " (lusoria convert --to lgn writes it in lgn)"
    )


# -- reading messages ------------------------------------------------------------

MAX_MESSAGE = 1 << 26  # bytes of one message (64 MiB): a document far larger than lusoria checks as you type
MAX_HEADER = 1 << 10  # bytes of one header line
PIECE = 1 << 20  # bytes skipped at a time


class ClientWriter(StdoutWriter):
    """pygls's writer to the client, quiet once the client's end of the connection is closed: that
    said in one line on standard error, where pygls wrote a traceback for each message it could
    not send, and nothing more written."""

    closed = False

    def write(self, data: bytes) -> None:
        if self.closed:
            return
        try:
            super().write(data)
        except BrokenPipeError:
            self.closed = True
            logging.getLogger(__name__).error("the client's end of the connection is closed")

    def close(self) -> None:
        if not self.closed:
            super().close()


def serve(stdin: BinaryIO | None = None, stdout: BinaryIO | None = None) -> None:
    """Serve one client over standard input and output (or the streams given) until its input ends."""
    server.protocol.set_writer(ClientWriter(stdout or unescaped(sys.stdout).buffer))
    server._stop_event = threading.Event()  # pygls's: its exit handler and shutdown set it
    try:
        asyncio.run(read_messages(server, stdin or unescaped(sys.stdin).buffer))
    finally:
        server.shutdown()


async def read_messages(server: LgnServer, stream: BinaryIO) -> None:
    """Each message of `stream`, handled as it comes (`handle_messages`); once it ends, the requests
    still waiting for a document's read (`LgnServer.read`) are answered before the server stops, and
    the checks still running stop (no edit comes any more: the server does not wait for them)."""
    await handle_messages(server, stream)
    server.stop_checks()
    futures: list[Any] = list(server.protocol._request_futures.values())  # (pygls's, of every kind of handler)
    await asyncio.gather(*(future for future in futures if asyncio.isfuture(future)), return_exceptions=True)


async def handle_messages(server: LgnServer, stream: BinaryIO) -> None:
    """Each message of `stream` (LSP's framing: headers, a blank line, Content-Length bytes of
    JSON), handled as it comes, with nothing read beyond its bounds: a header line over
    MAX_HEADER, or a message without a length, is skipped and said in the client's log; so
    is a message over MAX_MESSAGE, whose bytes are read and dropped a piece at a time. A
    length that is not a number (or one larger than any input) leaves no way to find the next
    message: the server says so and stops."""
    loop = asyncio.get_running_loop()

    async def read(call: Callable[[int], bytes], size: int) -> bytes:
        return await loop.run_in_executor(server.thread_pool, call, size)

    while True:
        written: str | None = None  # the Content-Length as written
        while (line := await read(stream.readline, MAX_HEADER)) not in (b"\r\n", b"\n"):
            if not line:
                return  # the client's input ended
            if not line.endswith(b"\n"):
                while (rest := await read(stream.readline, MAX_HEADER)) and not rest.endswith(b"\n"):
                    pass
                log_problem(server, f"a header line of more than {MAX_HEADER:,} bytes, skipped")
            elif line.partition(b":")[0].strip().lower() == b"content-length":
                written = line.partition(b":")[2].strip().decode("ascii", "replace")
        if written is None:
            log_problem(server, "a message without a Content-Length header, skipped")
            continue
        length = whole_number(written, 0, MAX_INTEGER)
        if length is None:
            log_problem(
                server, f"a Content-Length of '{written[:40]}' is no length lusoria can read past: the server stops"
            )
            return
        if length > MAX_MESSAGE:
            log_problem(
                server, f"a message of {length:,} bytes (the longest lusoria reads is {MAX_MESSAGE:,}), skipped"
            )
            while length and (piece := await read(stream.read, min(PIECE, length))):
                length -= len(piece)
            continue
        body = await read(stream.read, length)
        if len(body) < length:
            return
        handle(server, body)


def log_problem(server: LgnServer, message: str) -> None:
    """A problem of the connection, in the client's log (no request to answer)."""
    server.window_log_message(lsp.LogMessageParams(lsp.MessageType.Error, f"lusoria: {message}"))


def handle(server: LgnServer, body: bytes) -> None:
    """One message: decoded (nesting and numbers bounded), made into the protocol's types, and
    handled; a request that cannot be is answered with an error that says why."""
    try:
        data = loads(body.decode("utf-8"))
    except UnicodeDecodeError as error:
        refuse(server, None, JsonRpcParseError(not_utf8(body, error.start)))
        return
    except ValueError as error:  # JSONDecodeError too
        refuse(server, None, JsonRpcParseError(f"not JSON lusoria reads: {error}"[:1000]))
        return
    if not isinstance(data, dict) or data.get("jsonrpc") != "2.0":
        refuse(
            server,
            data.get("id") if isinstance(data, dict) else None,
            JsonRpcInvalidRequest("not a JSON-RPC 2.0 message"),
        )
        return
    try:
        message = server.protocol.structure_message(data)
    except JsonRpcException as error:
        cause = error.__cause__
        why = (
            "; ".join(cattrs.transform_error(cause, format_exception=lambda problem, _: str(problem)))
            if isinstance(cause, cattrs.ClassValidationError)
            else ""
        )
        if "id" in data and "method" in data:  # a request: it is owed an answer
            refuse(server, data["id"], type(error)(f"{str(data['method'])[:100]}: {why or error.message}"[:1000]))
        else:
            log_problem(server, f"a message that is not what the protocol says, skipped: {why or error.message}"[:1000])
        return
    server.protocol.handle_message(message)


def not_utf8(body: bytes, start: int) -> str:
    """What is said of a message whose byte at `start` is not UTF-8 (a client that sent a file's own
    bytes, latin-1 say, where the protocol says UTF-8)."""
    return (
        f"a message that is not UTF-8, as the protocol's are: byte 0x{body[start]:02x} at {start:,}"
        " (an editor sends a file in latin-1 right when it opens it as latin-1)"
    )


def refuse(server: LgnServer, message_id: Any, error: JsonRpcException) -> None:
    """Answer a message with an error (`message_id` None when it could not be read)."""
    valid = message_id if isinstance(message_id, (int, str)) and not isinstance(message_id, bool) else None
    server.protocol._send_data({"jsonrpc": "2.0", "id": valid, "error": {"code": error.code, "message": error.message}})
