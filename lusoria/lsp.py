"""`lusoria lsp`: a Language Server Protocol server for `.lgn` files, on pygls.

Diagnostics are those of `lusoria validate`; an edit re-checks only the records whose
text changed, in a worker thread, and a newer edit makes an unfinished check stop (its
finished records are kept). The features themselves live in `lusoria/document.py`;
this module turns them into the protocol.
"""

from __future__ import annotations

import asyncio
import logging
import re

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer
from pygls.workspace.position_codec import ServerTextPosition

from lusoria import __version__
from lusoria.document import (TOKEN_TYPES, Document, Edit, Entry, Fix, canonical_fixes, check_missing, completions,
                              diagnostic_message, diagnostic_span, fixes, format_fix, formatted_document,
                              lines_of, normalized, ply_hover, symbol_detail, symbol_name, tag_at, tag_hover,
                              tokens)
from lusoria.validator.replay import ERROR

SEVERITY = {ERROR: lsp.DiagnosticSeverity.Error}
COMPLETION_KINDS = {"ply": lsp.CompletionItemKind.Function, "number": lsp.CompletionItemKind.Constant,
                    "result": lsp.CompletionItemKind.EnumMember, "tag": lsp.CompletionItemKind.Property,
                    "value": lsp.CompletionItemKind.Value}
LEGEND = lsp.SemanticTokensLegend(token_types=list(TOKEN_TYPES), token_modifiers=[])


class LgnServer(LanguageServer):
    """The server: one Document per open file, and the version each check is for."""

    def __init__(self) -> None:
        super().__init__("lusoria", __version__)
        self.documents: dict[str, Document] = {}
        self.versions: dict[str, int] = {}  # uri -> the number of the latest edit

    def text(self, uri: str) -> str:
        return normalized(self.workspace.get_text_document(uri).source)

    def document(self, uri: str) -> Document:
        """The document with every record checked (a request during a check checks the
        records still missing itself)."""
        document = self.documents.setdefault(uri, Document())
        document.refresh(self.text(uri))
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


_ASTRAL = re.compile("[\U00010000-\U0010FFFF]")


server = LgnServer()


# -- diagnostics ----------------------------------------------------------------

def diagnostic(columns: Columns, entry: Entry, found) -> lsp.Diagnostic:
    line, start, end = diagnostic_span(entry, found)
    return lsp.Diagnostic(columns.range(line, start, line, end), diagnostic_message(found),
                          SEVERITY.get(found.severity, lsp.DiagnosticSeverity.Warning), found.rule,
                          source="lusoria", data={"suggestions": list(found.suggestions), "ply": found.ply})


async def check_document(server: LgnServer, uri: str, version: int) -> None:
    """Check the records that changed in a worker thread, then publish, unless a newer
    edit came meanwhile (then stop: the newer check publishes)."""
    document = server.documents.setdefault(uri, Document())
    text = server.text(uri)
    sources = document.split(text)

    def stale() -> bool:
        return server.versions.get(uri) != version

    missing = document.missing(sources)
    checked = await asyncio.get_running_loop().run_in_executor(server.thread_pool, check_missing, missing, stale)
    document.reports.update(checked)
    server.window_log_message(lsp.LogMessageParams(lsp.MessageType.Log, (
        f"{uri} version {version}: checked {len(checked)} of {len(missing)} changed records"
        + (", stopped by a newer edit" if stale() else ""))))
    if stale():
        return
    document.update(sources, checked)
    columns = Columns(server, lines_of(text))
    server.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(
        uri, [diagnostic(columns, entry, found) for entry, found in document.diagnostics()], version))


def schedule(server: LgnServer, uri: str, version: int | None) -> None:
    server.versions[uri] = number = (version if version is not None else server.versions.get(uri, 0) + 1)
    task = asyncio.get_running_loop().create_task(check_document(server, uri, number))
    task.add_done_callback(_log_failure)


def _log_failure(task: asyncio.Task) -> None:
    if not task.cancelled() and task.exception():
        logging.getLogger(__name__).error("checking failed", exc_info=task.exception())


@server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
def did_open(server: LgnServer, params: lsp.DidOpenTextDocumentParams) -> None:
    schedule(server, params.text_document.uri, params.text_document.version)


@server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
def did_change(server: LgnServer, params: lsp.DidChangeTextDocumentParams) -> None:
    schedule(server, params.text_document.uri, params.text_document.version)


@server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
def did_save(server: LgnServer, params: lsp.DidSaveTextDocumentParams) -> None:
    schedule(server, params.text_document.uri, None)


@server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
def did_close(server: LgnServer, params: lsp.DidCloseTextDocumentParams) -> None:
    uri = params.text_document.uri
    server.documents.pop(uri, None)
    server.versions.pop(uri, None)
    server.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri, []))


# -- requests -------------------------------------------------------------------

@server.feature(lsp.TEXT_DOCUMENT_HOVER)
def hover(server: LgnServer, params: lsp.HoverParams) -> lsp.Hover | None:
    uri = params.text_document.uri
    line, column, _ = server.place(uri, params.position)
    entry = server.document(uri).entry_at(line)
    if entry is None:
        return None
    at = entry.ply_at(line, column)
    text: str | None
    if at is not None:
        text = ply_hover(entry, *at)
    else:
        name = tag_at(entry, line, column)
        text = tag_hover(entry, name) if name else None
    return lsp.Hover(lsp.MarkupContent(lsp.MarkupKind.Markdown, text)) if text else None


@server.feature(lsp.TEXT_DOCUMENT_CODE_ACTION,
                lsp.CodeActionOptions(code_action_kinds=[lsp.CodeActionKind.QuickFix,
                                                         lsp.CodeActionKind.RefactorRewrite]))
def code_action(server: LgnServer, params: lsp.CodeActionParams) -> list[lsp.CodeAction]:
    uri = params.text_document.uri
    columns = Columns(server, lines_of(server.text(uri)))
    first, _, _ = server.place(uri, params.range.start)
    last, _, _ = server.place(uri, params.range.end)
    document = server.document(uri)
    found: list[Fix] = []
    for entry in document.entries:
        if entry.last_line < first or entry.offset > last:
            continue
        for item in entry.report.diagnostics:
            line, _, _ = diagnostic_span(entry, item)
            if first <= line <= last:
                found += fixes(entry, item)
        found += canonical_fixes(entry, first, last)
        record = format_fix(entry)
        found += [record] if record else []
    actions = []
    for fix in found:
        owner = document.entry_at(fix.edits[0].line)
        actions.append(lsp.CodeAction(
            fix.title, kind=fix.kind, is_preferred=fix.preferred or None,
            diagnostics=[diagnostic(columns, owner, fix.diagnostic)] if fix.diagnostic and owner else None,
            edit=lsp.WorkspaceEdit(changes={uri: [columns.edit(e) for e in fix.edits]})))
    return actions


@server.feature(lsp.TEXT_DOCUMENT_FORMATTING)
def formatting(server: LgnServer, params: lsp.DocumentFormattingParams) -> list[lsp.TextEdit]:
    uri = params.text_document.uri
    text = server.text(uri)
    formatted = formatted_document(text)
    if formatted == server.workspace.get_text_document(uri).source:
        return []
    lines = lines_of(text)
    return [lsp.TextEdit(lsp.Range(lsp.Position(0, 0), lsp.Position(len(lines), 0)), formatted)]


@server.feature(lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
def symbols(server: LgnServer, params: lsp.DocumentSymbolParams) -> list[lsp.DocumentSymbol]:
    uri = params.text_document.uri
    lines = lines_of(server.text(uri))
    columns = Columns(server, lines)
    found = []
    for entry in server.document(uri).entries:
        whole = columns.range(entry.offset, 0, entry.last_line, len(lines[entry.last_line]))
        first = columns.range(entry.offset, 0, entry.offset, len(lines[entry.offset]))
        found.append(lsp.DocumentSymbol(symbol_name(entry), lsp.SymbolKind.Module, whole, first,
                                        detail=symbol_detail(entry)))
    return found


@server.feature(lsp.TEXT_DOCUMENT_COMPLETION, lsp.CompletionOptions(trigger_characters=[" ", "[", '"', "."]))
def completion(server: LgnServer, params: lsp.CompletionParams) -> lsp.CompletionList:
    uri = params.text_document.uri
    line, column, lines = server.place(uri, params.position)
    if not 0 <= line < len(lines):
        return lsp.CompletionList(False, [])
    entry = server.document(uri).entry_at(line)
    items, columns = [], Columns(server, lines)
    for rank, item in enumerate(completions(entry, lines[line], line, column)):
        edit = lsp.TextEdit(columns.range(line, item.start, line, item.end), item.label)
        items.append(lsp.CompletionItem(item.label, kind=COMPLETION_KINDS[item.kind], detail=item.detail or None,
                                        sort_text=f"{rank:05d}", text_edit=edit))
    return lsp.CompletionList(False, items)


@server.feature(lsp.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL, LEGEND)
def semantic_tokens(server: LgnServer, params: lsp.SemanticTokensParams) -> lsp.SemanticTokens:
    uri = params.text_document.uri
    columns = Columns(server, lines_of(server.text(uri)))
    data: list[int] = []
    previous_line = previous_start = 0
    for entry in server.document(uri).entries:
        for line, column, length, kind in tokens(entry):
            start, end = columns.position(line, column).character, columns.position(line, column + length).character
            delta = line - previous_line
            data += [delta, start - (previous_start if delta == 0 else 0), end - start, kind, 0]
            previous_line, previous_start = line, start
    return lsp.SemanticTokens(data)


def serve() -> None:
    """Serve one client over standard input and output."""
    server.start_io()
