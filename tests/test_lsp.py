"""`lusoria lsp` through a real client: pytest-lsp starts the server as a subprocess and
talks to it over stdio, as an editor does."""

import asyncio
import itertools
import random
import re
import sys
from pathlib import Path

import pytest
import pytest_lsp
from conftest import ROOT, no_game_tag
from lsprotocol import types as lsp
from pytest_lsp import ClientServerConfig, LanguageClient

from lusoria import api
from lusoria.output import diagnostic_text

pytestmark = pytest.mark.asyncio(loop_scope="module")
SAMPLES = sorted((ROOT / "samples").rglob("*.lgn"))
NUMBERS = itertools.count()


async def initialized(client: LanguageClient, capabilities: lsp.ClientCapabilities | None = None) -> None:
    """The session begun; a failure, not a hang, when the server answers nothing within a minute (one that
    writes nothing: a mutant of its writer)."""
    async with asyncio.timeout(60):
        await client.initialize_session(lsp.InitializeParams(capabilities=capabilities or lsp.ClientCapabilities()))


@pytest_lsp.fixture(
    scope="module", config=ClientServerConfig(server_command=[sys.executable, "-m", "lusoria.cli", "lsp"])
)
async def client(lsp_client: LanguageClient):
    await initialized(lsp_client)
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


async def change(
    client: LanguageClient, uri: str, version: int, start: tuple[int, int], end: tuple[int, int], text: str
) -> None:
    client.text_document_did_change(
        lsp.DidChangeTextDocumentParams(
            lsp.VersionedTextDocumentIdentifier(version, uri),
            [lsp.TextDocumentContentChangePartial(lsp.Range(lsp.Position(*start), lsp.Position(*end)), text)],
        )
    )


def known_elided(message: str) -> str:
    """A message without the list of known games: the server's process knows only lusoria's own and
    the entry points' (a game this one registered is not in it: tests/system/test_registry.py)."""
    return re.sub(r"\(known: [^)]*\)", "(known: …)", message)


def as_validate_says(path: Path) -> list[tuple]:
    return [
        (d.line - 1, max(d.column - 1, 0), d.severity, d.rule, known_elided(d.with_move(meant=False)), d.suggestions)
        for verdict in api.validate([str(path)])
        for d in verdict.diagnostics
    ]


def as_server_says(diagnostics: list[lsp.Diagnostic]) -> list[tuple]:
    severity = {lsp.DiagnosticSeverity.Error: "error", lsp.DiagnosticSeverity.Warning: "warning"}
    return [
        (
            d.range.start.line,
            d.range.start.character,
            severity[d.severity],
            d.code,
            known_elided(d.message.split("\n")[0]),
            tuple(d.data["suggestions"]),
        )
        for d in diagnostics
    ]


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: str(p.relative_to(ROOT / "samples")))
async def test_diagnostics_are_those_of_validate(client: LanguageClient, path: Path):
    _, diagnostics = await open_text(client, path.read_text("utf-8"))
    assert as_server_says(diagnostics) == as_validate_says(path)


async def test_a_diagnostic_spans_the_ply_and_says_did_you_mean(client: LanguageClient):
    _, diagnostics = await open_text(client, '[Game "tablut"]\n\n1. e3-c3 e4-b4 *\n')
    (found,) = diagnostics
    assert (found.code, found.source, found.severity) == ("T1", "lusoria", lsp.DiagnosticSeverity.Error)
    assert found.range == lsp.Range(lsp.Position(2, 9), lsp.Position(2, 14))
    assert found.message == (
        "move 1, Black: the piece on e4 is White's, and Black is to move; the rest of this line is not checked\n"
        "did you mean a4-b4?"
    )


async def test_a_slip_over_two_lines_is_underlined_on_both(client: LanguageClient):
    """`31:`⏎`4-7 4-5` was underlined on its first line alone, while its quick fix replaces both."""
    _, diagnostics = await open_text(client, '[Game "laquet"]\n\n1. 31:\n  4-7 4-5 *\n')
    (found,) = diagnostics
    assert (found.code, found.range) == ("syntax", lsp.Range(lsp.Position(2, 3), lsp.Position(3, 9)))


async def test_a_comment_between_tags_is_read_as_validate_reads_it(client: LanguageClient, tmp_path: Path):
    """It ends the tags (NOTATION.md §1): the tag after it begins another record, in both."""
    text = '[Game "tablut"]\n{ a note }\n[White "Ada"]\n\n1. e3-c3 *\n'
    (tmp_path / "noted.lgn").write_text(text, "utf-8")
    _, diagnostics = await open_text(client, text)
    assert as_server_says(diagnostics) == as_validate_says(tmp_path / "noted.lgn")
    assert [(d.code, d.range) for d in diagnostics] == [
        ("syntax", lsp.Range(lsp.Position(1, 10), lsp.Position(1, 10))),  # where the line ends
        ("tag", lsp.Range(lsp.Position(2, 0), lsp.Position(2, 1))),
    ]
    assert diagnostics[0].message.endswith(
        "; the comment on line 2 ends the record's tags, and a tag after it begins another record"
        " (a comment goes below the tags)"
    )


async def test_tags_and_a_comment_ending_the_document_lack_the_result_marker_until_a_tag_follows(
    client: LanguageClient,
):
    """Nothing follows them: the record lacks its result marker alone; a tag typed below makes the
    comment end the tags, and the record checked again says so."""
    uri, diagnostics = await open_text(client, '[Game "tablut"]\n{ a note }\n')
    assert [(d.code, d.range.start.line, d.message) for d in diagnostics] == [
        ("syntax", 1, "the record ends without a result marker (1-0, 0-1, 1/2-1/2, *)")
    ]
    await change(client, uri, 2, (2, 0), (2, 0), '[White "Ada"]\n')
    assert [(d.code, d.range.start.line, d.message) for d in await published(client, uri)] == [
        (
            "syntax",
            1,
            "the record ends without a result marker (1-0, 0-1, 1/2-1/2, *); the comment on line 2 ends the"
            " record's tags, and a tag after it begins another record (a comment goes below the tags)",
        ),
        ("tag", 2, no_game_tag()),
    ]


async def test_an_edit_rechecks_and_moves_the_diagnostics(client: LanguageClient):
    text = '[Game "tablut"]\n1. e3-c3 d1-d3 *\n\n[Game "tablut"]\n1. e3-c3 e4-b4 *\n'
    uri, diagnostics = await open_text(client, text)
    assert [(d.code, d.range.start.line) for d in diagnostics] == [("T1", 4)]
    await change(client, uri, 2, (0, 0), (0, 0), "% a new first line\n")
    assert [(d.code, d.range.start.line) for d in await published(client, uri)] == [("T1", 5)]
    await change(client, uri, 3, (5, 9), (5, 10), "a")  # e4-b4 -> a4-b4: legal
    assert await published(client, uri) == []
    await change(client, uri, 4, (2, 9), (2, 14), "d9-d2")
    assert [(d.code, d.range.start.line, d.range.start.character) for d in await published(client, uri)] == [
        ("T2", 2, 9)
    ]


async def test_position_units_are_utf16(client: LanguageClient):
    uri, diagnostics = await open_text(client, '[Game "tablut"]\n{ 𝔊 } 1. e3-c3 e4-b4 *\n')
    assert [(d.code, d.range.start.character) for d in diagnostics] == [("T1", 16)]  # 𝔊: two UTF-16 units


@pytest_lsp.fixture(
    scope="module", config=ClientServerConfig(server_command=[sys.executable, "-m", "lusoria.cli", "lsp"])
)
async def utf8_client(lsp_client: LanguageClient):
    utf8 = lsp.GeneralClientCapabilities(position_encodings=[lsp.PositionEncodingKind.Utf8])
    await initialized(lsp_client, lsp.ClientCapabilities(general=utf8))
    yield
    await lsp_client.shutdown_session()


async def test_position_units_are_utf8_bytes_when_the_client_asks_for_them(utf8_client: LanguageClient):
    uri, diagnostics = await open_text(utf8_client, '[Game "tablut"]\n{ é } 1. e3-c3 e4-b4 *\n')
    assert [(d.code, d.range.start.character) for d in diagnostics] == [("T1", 16)]  # é: two bytes


def uri_of(name: str = "record") -> str:
    return f"file:///work/{name}-{next(NUMBERS)}.lgn"


def applied(text: str, edits: list[lsp.TextEdit]) -> str:
    """The text with the edits applied (ASCII texts: code points are UTF-16 units)."""
    lines = text.split("\n")

    def offset(position: lsp.Position) -> int:
        return sum(len(line) + 1 for line in lines[: position.line]) + position.character

    for edit in sorted(edits, key=lambda e: offset(e.range.start), reverse=True):
        text = text[: offset(edit.range.start)] + edit.new_text + text[offset(edit.range.end) :]
    return text


async def actions_at(client: LanguageClient, uri: str, line: int, diagnostics=()) -> list[lsp.CodeAction]:
    whole_line = lsp.Range(lsp.Position(line, 0), lsp.Position(line, 200))
    return await client.text_document_code_action_async(
        lsp.CodeActionParams(lsp.TextDocumentIdentifier(uri), whole_line, lsp.CodeActionContext(list(diagnostics)))
    )


async def fixed(client: LanguageClient, text: str, line: int, title: str) -> str:
    """The text after the code action `title` offered on `line`."""
    uri, diagnostics = await open_text(client, text)
    actions = {action.title: action for action in await actions_at(client, uri, line, diagnostics)}
    assert title in actions, list(actions)
    return applied(text, actions[title].edit.changes[uri])


async def test_a_suggestion_is_a_quick_fix(client: LanguageClient):
    text = '[Game "tablut"]\n1. e3-c3 e4-b4 *\n'
    uri, diagnostics = await open_text(client, text)
    (action,) = [a for a in await actions_at(client, uri, 1, diagnostics) if a.kind == lsp.CodeActionKind.QuickFix]
    assert (action.title, action.is_preferred, action.diagnostics[0].code) == ("Replace with a4-b4", True, "T1")
    fixed_text = applied(text, action.edit.changes[uri])
    assert fixed_text == '[Game "tablut"]\n1. e3-c3 a4-b4 *\n'
    assert (await open_text(client, fixed_text))[1] == []


@pytest.mark.parametrize("line", [0, 1])
async def test_a_tag_without_its_bracket_is_closed_by_a_quick_fix(client: LanguageClient, line):
    """It had a diagnostic and no fix: "Close the tag" writes the `]` after the value (of the Game tag too)."""
    tags = ['[Game "tablut"]', '[White "Jens Holm"]']

    def written(tag: str) -> str:
        return "\n".join(tags[:line] + [tag + "  "] + tags[line + 1 :]) + "\n\n1. e3-c3 *\n"

    text = written(tags[line][:-1])
    uri, diagnostics = await open_text(client, text)
    (action,) = await actions_at(client, uri, line, diagnostics)
    assert (action.title, action.kind, action.is_preferred) == ("Close the tag", lsp.CodeActionKind.QuickFix, True)
    assert list(action.diagnostics) == diagnostics and diagnostics[0].code == "syntax"
    (edit,) = action.edit.changes[uri]
    end = lsp.Position(line, len(tags[line]) - 1)
    assert (edit.range, edit.new_text) == (lsp.Range(end, end), "]")
    fixed_text = applied(text, [edit])
    assert fixed_text == written(tags[line])
    assert (await open_text(client, fixed_text))[1] == []


@pytest.mark.parametrize(
    "text, title, expected",
    [
        ('[Game "tablut"]\n1. e3-c3 !? d1-d3 *\n', "Replace with e3-c3!?", '[Game "tablut"]\n1. e3-c3!? d1-d3 *\n'),
        (
            '[Game "laquet"]\n1. 63: 5-11 1-4 *\n',
            "Replace with 63: 5/11 1/4",
            '[Game "laquet"]\n1. 63: 5/11 1/4 *\n',
        ),
        (
            '[Game "laquet"]\n1. 64: { rolled } 5/11 5/9 *\n',
            "Replace with 64: 5/11 5/9 { rolled }",
            '[Game "laquet"]\n1. 64: 5/11 5/9 { rolled } *\n',
        ),
    ],
)
async def test_a_slip_of_more_than_the_word_at_the_error_is_fixed_whole(client: LanguageClient, text, title, expected):
    """The quick fix of a detached suffix once gave `e3-c3 e3-c3!?`, and of Laquet plays written with
    hyphens `63: 5/11 1/4 5-11 1-4`: it replaces what the suggestion does, which the diagnostic spans."""
    fixed_text = await fixed(client, text, 1, title)
    assert fixed_text == expected and (await open_text(client, fixed_text))[1] == []


async def test_a_wrong_capture_list_is_fixed_from_the_suggestion(client: LanguageClient):
    record = next(
        s.text for s in api.read_sources(str(ROOT / "samples/errors/tablut-moves.lgn")) if "13. g4-e4xd4 *" in s.text
    )  # it should capture d4/e3
    line = record.split("\n").index(next(l for l in record.split("\n") if "13. g4-e4xd4 *" in l))
    text = await fixed(client, record, line, "Replace with g4-e4xd4/e3")
    assert "13. g4-e4xd4/e3 *" in text and (await open_text(client, text))[1] == []


async def test_a_missing_capture_list_is_written_out(client: LanguageClient):
    text = await fixed(client, '[Game "tablut"]\n1. e3-c3 d1-d3 2. e4-e3 *\n', 1, "Write e4-e3 as e4-e3xd3")
    assert text == '[Game "tablut"]\n1. e3-c3 d1-d3 2. e4-e3xd3 *\n'


async def test_a_wrong_move_number_is_underlined_itself_as_validates_caret_points(client: LanguageClient):
    _, diagnostics = await open_text(client, '[Game "tablut"]\n1. e3-c3 d1-d3 3. e4-e3xd3 *\n')
    [found] = diagnostics
    assert (found.code, found.message.partition(" (")[0]) == ("number", "the move number should be 2., not 3.")
    assert found.range == lsp.Range(lsp.Position(1, 15), lsp.Position(1, 17))  # `3.`, not e4-e3xd3


async def test_a_wrong_move_number_is_fixed(client: LanguageClient):
    text = await fixed(client, '[Game "tablut"]\n1. e3-c3 d1-d3 3. e4-e3xd3 *\n', 1, "Number the move 2.")
    assert text == '[Game "tablut"]\n1. e3-c3 d1-d3 2. e4-e3xd3 *\n'


@pytest.mark.parametrize(
    "record, title, expected",
    [
        (
            '[Game "tablut"]\n[Result "1-0"]\n\n1. e3-c3 d1-d3 0-1\n',
            "Set the result to 1-0",
            '[Game "tablut"]\n[Result "1-0"]\n\n1. e3-c3 d1-d3 1-0\n',
        ),
        (
            '[Game "tablut"]\n[Result "1-0"]\n\n1. e3-c3 d1-d3 0-1\n',
            "Set the result to 0-1",
            '[Game "tablut"]\n[Result "0-1"]\n\n1. e3-c3 d1-d3 0-1\n',
        ),
        (
            '[Game "tablut"]\n[Result "*"]\n\n1. c5-c3 i6-f6 2. d5-d3 i4-h4 3. c3-c7 a6-a9 4. Ke5-c5 b5-b9 5. Kc5-c1 *\n',
            "Set the result to 1-0",
            '[Game "tablut"]\n[Result "1-0"]\n\n1. c5-c3 i6-f6 2. d5-d3 i4-h4 3. c3-c7 a6-a9 4. Ke5-c5 b5-b9 5. Kc5-c1 1-0\n',
        ),
    ],
)
async def test_a_result_is_fixed_in_one_action(client: LanguageClient, record, title, expected):
    text = await fixed(client, record, 3, title)
    assert text == expected and (await open_text(client, text))[1] == []


@pytest.mark.parametrize(
    "tag, result_tag",
    [('[Result "*"]\n', '[Result "1-0"]\n'), ("", "")],
    ids=["with a Result tag", "without"],
)
async def test_a_finished_game_without_its_marker_is_ended_in_one_action(client: LanguageClient, tag, result_tag):
    """The game ended (the king reached the edge) and the record says so nowhere: the error says
    `write 1-0`, and its quick fix writes it after the last ply (and in the Result tag)."""
    moves = "1. c5-c3 i6-f6 2. d5-d3 i4-h4 3. c3-c7 a6-a9 4. Ke5-c5 b5-b9 5. Kc5-c1"
    record = f'[Game "tablut"]\n{tag}\n{moves}\n'
    uri, diagnostics = await open_text(client, record)
    assert [(d.code, d.range.start.line, d.range.start.character) for d in diagnostics] == [
        ("syntax", 3 if tag else 2, 70)
    ]
    assert diagnostics[0].message.endswith("the game ended 1-0 (the king reached the edge, T6): write 1-0")
    (action,) = [a for a in await actions_at(client, uri, 3 if tag else 2, diagnostics)]
    assert (action.title, action.is_preferred, action.diagnostics[0].code) == ("Set the result to 1-0", True, "syntax")
    text = applied(record, action.edit.changes[uri])
    assert text == f'[Game "tablut"]\n{result_tag}\n{moves} 1-0\n'
    assert (await open_text(client, text))[1] == []


async def test_format_one_record(client: LanguageClient):
    first = '[Game "tablut"]\n1. e3-c3 d1-d3 *\n'
    text = await fixed(client, first + '\n[Game "laquet"]\n1. 64: 5/11 4/8 *\n', 3, "Format this record (lusoria fmt)")
    formatted, _ = api.format_record('[Game "laquet"]\n1. 64: 5/11 4/8 *\n')
    assert text == first + "\n" + formatted


async def test_format_one_record_keeps_crlf_line_ends(client: LanguageClient):
    """ "Format this record" in a CRLF file once wrote its lines with LF ends: the file had both."""
    record = '[Game "tablut"]\r\n[Result "*"]\r\n\r\n1. c5-c3   i6-f6 *\r\n'
    text = await fixed(client, record, 3, "Format this record (lusoria fmt)")
    formatted, _ = api.format_record(record.replace("\r\n", "\n"))
    assert text == formatted.replace("\n", "\r\n") and "\r\n1. c5-c3 i6-f6 *\r\n" in text


@pytest.mark.parametrize(
    "path", SAMPLES[:6] + [ROOT / "samples/errors/syntax.lgn"], ids=lambda p: str(p.relative_to(ROOT / "samples"))
)
async def test_formatting_is_fmt(client: LanguageClient, path: Path):
    from click.testing import CliRunner

    from lusoria.cli import main

    text = path.read_text("utf-8")
    uri, _ = await open_text(client, text)
    edits = await client.text_document_formatting_async(
        lsp.DocumentFormattingParams(lsp.TextDocumentIdentifier(uri), lsp.FormattingOptions(4, True))
    )
    assert applied(text, edits) == CliRunner().invoke(main, ["fmt", str(path)]).stdout


async def test_hover_on_a_ply_shows_the_board_of_show(client: LanguageClient):
    path = ROOT / "samples/tablut/escape.lgn"
    uri, _ = await open_text(client, path.read_text())
    hover = await client.text_document_hover_async(
        lsp.HoverParams(lsp.TextDocumentIdentifier(uri), lsp.Position(12, 5))
    )  # 4. Ke5-c5+
    board = api.board(next(api.read_sources(str(path))), 7).text()
    assert hover.contents.kind == lsp.MarkupKind.Markdown
    assert hover.contents.value == f"**move 4, White**: `Ke5-c5+`\n\ncaptured nothing\n\n```text\n{board}\n```"
    assert "Black to move" in board


async def test_hover_on_a_ply_of_a_game_with_knights_and_commanders_names_them(client: LanguageClient):
    text = '[Game "hnefatafl"]\n[Variant "opentafl-berserk-11x11"]\n\n1. e5-e4 b6-b9 *\n'
    uri, diagnostics = await open_text(client, text)
    assert diagnostics == []
    hover = await client.text_document_hover_async(
        lsp.HoverParams(lsp.TextDocumentIdentifier(uri), lsp.Position(3, 4))
    )  # 1. e5-e4: the defenders' knight
    board = api.board(next(api.read_sources(text)), 1).text()
    assert hover.contents.value == f"**move 1, White**: `e5-e4`\n\ncaptured nothing\n\n```text\n{board}\n```"
    assert " 4 p . . . N P . . . . p" in board and "N n knights, C c commanders; uppercase: White" in board


TANGLED = "1. e3-c3 d1-d3 2. e4-e3xd3 (2. c3-c4 i4-i3 (2... a4-a3) 3. c4-c8) *"


@pytest.mark.parametrize(
    "tags, movetext, ply, line",
    [
        ('[Game "tablut"]', TANGLED, "i4-i3", "1. e3-c3 d1-d3 2. c3-c4 i4-i3"),
        ('[Game "tablut"]', TANGLED, "a4-a3", "1. e3-c3 d1-d3 2. c3-c4 a4-a3"),  # nested
        ('[Game "latrunculi"]\n[Variant "seneca"]', "1. @d4 @e5 (1... @e4 2. @d5", "@d5", "1. @d4 @e4 2. @d5"),  # open
        (
            '[Game "laquet"]',
            "1. 64: 5/11 4/8 (1. 64: 5/11 5/9 61: 6/12 6/7) *",
            "61: 6/12 6/7",
            "1. 64: 5/11 5/9 61: 6/12 6/7",
        ),
    ],
)
async def test_hover_on_a_ply_of_a_variation_shows_the_board_of_its_line(client, tags, movetext, ply, line):
    """It showed only the ply's text: now, as on the main line, the board after the plies of its line."""
    uri, _ = await open_text(client, f"{tags}\n{movetext}\n")
    place = lsp.Position(1 + tags.count("\n"), movetext.index(ply) + 1)
    hover = await client.text_document_hover_async(lsp.HoverParams(lsp.TextDocumentIdentifier(uri), place))
    written = f"{tags}\n{line} *\n"
    plies = len(api.board(written).report.positions) - 1
    side = "White" if plies % 2 else "Black"
    said = f"**move {(plies + 1) // 2}, {side}**, in a variation: `{ply}`\n\n"  # numbered from White's first
    assert hover.contents.value.startswith(said)
    assert hover.contents.value.endswith(f"```text\n{api.board(written, plies).text()}\n```")


async def test_hover_tells_what_a_ply_captured_and_laquet_rolls(client: LanguageClient):
    uri, _ = await open_text(client, '[Game "tablut"]\n1. e3-c3 d1-d3 2. e4-e3xd3 *\n')
    hover = await client.text_document_hover_async(
        lsp.HoverParams(lsp.TextDocumentIdentifier(uri), lsp.Position(1, 20))
    )
    assert hover.contents.value.startswith("**move 2, White**: `e4-e3xd3`\n\ncaptured: d3\n")
    uri, _ = await open_text(client, '[Game "laquet"]\n1. 64: 5/11 4/8 61: 6/12 6/7 *\n')
    hover = await client.text_document_hover_async(
        lsp.HoverParams(lsp.TextDocumentIdentifier(uri), lsp.Position(1, 17))
    )
    assert hover.contents.value.startswith(
        "**move 1, Black**: `61: 6/12 6/7`\n\nroll 6-1, plays: 6/12 6/7; borne off: White 0, Black 0\n"
    )
    assert "White to move" in hover.contents.value


async def test_hover_on_the_rules_tag_lists_the_options_in_force(client: LanguageClient):
    uri, _ = await open_text(client, '[Game "tablut"]\n[Rules "king-capture=2"]\n1. e3-c3 *\n')
    hover = await client.text_document_hover_async(lsp.HoverParams(lsp.TextDocumentIdentifier(uri), lsp.Position(1, 3)))
    assert "| `king-capture` | `2` | 4, 2 |" in hover.contents.value
    assert "| `throne-pass` | `all` | all, king, none |" in hover.contents.value


async def test_document_symbols_one_per_record(client: LanguageClient):
    text = (ROOT / "samples/tablut/escape.lgn").read_text() + "\n" + (ROOT / "samples/errors/results.lgn").read_text()
    uri, _ = await open_text(client, text)
    symbols = await client.text_document_document_symbol_async(
        lsp.DocumentSymbolParams(lsp.TextDocumentIdentifier(uri))
    )
    assert [(s.name, s.detail, s.range.start.line, s.range.end.line) for s in symbols] == [
        ("Karin Nilsson – Olof Berg, Club evening, 2026.11.21, 1-0", "tablut (seed), 9 plies, valid", 0, 14),
        ("? – ?, ?, 0-1", "tablut (seed), 2 plies, 1 error", 18, 21),  # no Date: no date
        ("? – ?, ?, *", "tablut (seed), 9 plies, 1 error", 23, 26),
    ]


async def complete(client: LanguageClient, text: str, line: int, character: int) -> list[lsp.CompletionItem]:
    uri, _ = await open_text(client, text)
    result = await client.text_document_completion_async(
        lsp.CompletionParams(lsp.TextDocumentIdentifier(uri), lsp.Position(line, character))
    )
    return result.items


def legal_after(record: str, plies: int) -> set[str]:
    board = api.board(record, plies)
    return set(board.report.rules.legal_plies(board.report.positions[plies]))


@pytest.mark.parametrize(
    "record, line, character, plies",
    [
        ('[Game "tablut"]\n1. e3-c3 d1-d3 2. e4-e3 *\n', 1, 9, 1),
        ('[Game "latrunculi"]\n[Variant "seneca"]\n1. @g2 @g8 2. @e5 *\n', 2, 7, 1),
        ('[Game "latrunculi"]\n[Variant "seneca"]\n1. @g2 @g8 2. @e5 *\n', 2, 14, 2),
    ],
)
async def test_completion_offers_the_legal_plies(client: LanguageClient, record, line, character, plies):
    items = await complete(client, record, line, character)
    offered = {i.label for i in items if i.kind == lsp.CompletionItemKind.Function}
    assert offered == legal_after(record, plies)
    written = record.split("\n")[line][character:].split(" ")[0]
    assert items[0].label == written  # the ply written there comes first, and replaces it
    assert items[0].text_edit.range == lsp.Range(
        lsp.Position(line, character), lsp.Position(line, character + len(written))
    )


async def test_completion_of_a_ply_being_typed_puts_the_nearest_first(client: LanguageClient):
    items = await complete(client, '[Game "tablut"]\n1. e3-c3 d1-d *\n', 1, 13)
    assert [i.label for i in items[:2]] == ["d1-d2", "d1-d3"]
    assert items[0].text_edit.range == lsp.Range(lsp.Position(1, 9), lsp.Position(1, 13))
    assert [i.label for i in items if i.kind == lsp.CompletionItemKind.EnumMember] == ["1-0", "0-1", "1/2-1/2", "*"]
    numbered = await complete(client, '[Game "tablut"]\n1. e3-c3 d1-d3  *\n', 1, 15)
    assert [i.label for i in numbered if i.kind == lsp.CompletionItemKind.Constant] == ["2."]


async def test_a_completion_without_a_detail_sends_none(client: LanguageClient):
    """A ply says which it is; a result marker before the game's end and a tag name have nothing to
    say, and send no detail (not an empty one, which an editor shows as a blank line)."""
    items = await complete(client, '[Game "tablut"]\n1. e3-c3 d1-d *\n', 1, 13)
    assert (items[0].label, items[0].detail) == ("d1-d2", "move 1, Black")
    assert [i.detail for i in items if i.kind == lsp.CompletionItemKind.EnumMember] == [None] * 4
    tags = await complete(client, '[Game "tablut"]\n[Va\n1. e3-c3 *\n', 1, 3)
    assert [(i.label, i.detail) for i in tags] == [("Variant", None)]


async def test_a_variant_named_as_other_programs_name_it_is_matched_by_that_name(client: LanguageClient):
    """An editor matches what is typed against an item's filter text, else its label: `aage` holds none of `Saami
    Tablut`, which the item says as its filter text (h71a); a variant offered by its own name sends none."""
    line = '[Variant "Saami Tablut'
    items = await complete(client, f'[Game "tablut"]\n{line}\n1. e3-c3 *\n', 1, len(line))
    assert [(i.label, i.filter_text) for i in items] == [
        ("aage", "Historical Hnefatafl 9x9 (Saami Tablut)"),
        ("aage", "Historical Hnefatafl 9x9 (Saami Tablut-w)"),
    ]
    own = await complete(client, '[Game "tablut"]\n[Variant "se\n1. e3-c3 *\n', 1, 12)
    assert [(i.label, i.filter_text) for i in own] == [("seed", None)]


@pytest.mark.parametrize(
    "game, moves, typed",
    [
        ("tablut", "1. c5-c3 i6-f6", "2"),
        ("copenhagen", "1. a4-a2 h6-h3", "2."),
        ("laquet", "1. 64: 5/11 4/8 61: 6/12 6/7", "2"),  # before the rolls `2` may begin (`21:`)
    ],
)
async def test_a_move_number_being_typed_is_offered_first(client: LanguageClient, game, moves, typed):
    """`2` typed where the second move begins: the number came after every legal ply (52nd in Tablut);
    in Laquet the `2` was read as more of the ply before it, whose plies of 61 were offered in its place."""
    line_text = f"{moves} {typed}"
    items = await complete(client, f'[Game "{game}"]\n\n{line_text}\n', 2, len(line_text))
    assert (items[0].label, items[0].kind) == ("2.", lsp.CompletionItemKind.Constant)
    assert items[0].text_edit.range == lsp.Range(lsp.Position(2, len(moves) + 1), lsp.Position(2, len(line_text)))
    assert items[1].kind == lsp.CompletionItemKind.Function


@pytest.mark.parametrize("line_text, character, start", [("1. e3-c3 d1-d*", 13, 9), ("1. e3-c3 d1-d3 *", 15, 15)])
async def test_a_ply_completed_before_the_result_marker_keeps_it(client: LanguageClient, line_text, character, start):
    """It was replaced with the ply: typing before the `*` written first lost the record's end."""
    items = await complete(client, f'[Game "tablut"]\n{line_text}\n', 1, character)
    kinds = {i.kind for i in items}
    assert {lsp.CompletionItemKind.Function, lsp.CompletionItemKind.EnumMember} <= kinds
    assert (lsp.CompletionItemKind.Constant in kinds) == (start == 15)  # the move number 2.
    for item in items:
        end = character + (item.kind == lsp.CompletionItemKind.EnumMember)  # a result replaces the marker
        assert item.text_edit.range == lsp.Range(lsp.Position(1, start), lsp.Position(1, end))


@pytest.mark.parametrize(
    "tags, written, line",
    [
        ('[Game "tablut"]', "1. e3-c3 d1-d3 (1... d1-d2 |", "1. e3-c3 d1-d2 "),
        ('[Game "tablut"]', "1. e3-c3 (|", ""),  # nothing in it yet: the first ply's place
        ('[Game "tablut"]', "1. e3-c3 d1-d3 (1... d1-d2 |) *", "1. e3-c3 d1-d2 "),  # closed, the place inside
        (
            '[Game "tablut"]',
            "1. e3-c3 d1-d3 2. e4-e3xd3 (2. c3-c4 i4-i3 (2... a4-a3 |",
            "1. e3-c3 d1-d3 2. c3-c4 a4-a3 ",
        ),
        ('[Game "tablut"]', "1. e3-c3 (1. d1-d3 |", "1. d1-d3 "),  # Black's ply where White moves: none
        (  # in the last of two variations of one ply: its line
            '[Game "tablut"]',
            "1. e3-c3 d1-d3 (1... d1-d2 2. c3-c4) (1... f1-f2 2. c3-b3 (2. c3-c2 |",
            "1. e3-c3 f1-f2 2. c3-c2 ",
        ),
        ('[Game "hnefatafl"]\n[Variant "historical-hnefatafl-13x13"]', "1. e1-e2 (1. e1-d1 g4-g5 |", "1. e1-d1 g4-g5 "),
        ('[Game "hnefatafl"]\n[Variant "tablut-19x19"]', "1. c1-c2 (1. c1-d1 i5-i|", "1. c1-d1 i5-i"),
        ('[Game "latrunculi"]\n[Variant "seneca"]', "1. @g2 @g8 (1... @e5 2. @d|", "1. @g2 @e5 2. @d"),
        ('[Game "laquet"]', "1. 64: 5/11 4/8 (1. 64: 5/11 5/9 61: |", "1. 64: 5/11 5/9 61: "),
    ],
)
async def test_a_variation_is_completed_as_its_line_is_in_the_main_line(client: LanguageClient, tags, written, line):
    """Nothing was offered inside a variation: now what the same plies offer in the main line, each
    replacing as much before the place, the result markers aside (a result ends the main line only)."""
    row, character = 1 + tags.count("\n"), written.index("|")
    inside = await complete(client, f"{tags}\n{written.replace('|', '')}\n", row, character)
    outside = await complete(client, f"{tags}\n{line}\n", row, len(line))

    def offered(items: list[lsp.CompletionItem], place: int) -> list[tuple]:
        return [
            (i.label, i.kind, i.text_edit.range.start.character - place, i.text_edit.range.end.character - place)
            for i in items
            if i.kind != lsp.CompletionItemKind.EnumMember
        ]

    assert [i for i in inside if i.kind == lsp.CompletionItemKind.EnumMember] == []
    assert offered(inside, character) or line == "1. d1-d3 "  # (an illegal ply: nothing after it, in either)
    assert offered(inside, character) == offered(outside, len(line))
    assert all(i.text_edit.range.start.line == row for i in inside)


async def test_a_variation_is_completed_with_the_legal_plies_of_its_position(client: LanguageClient):
    record = '[Game "tablut"]\n1. e3-c3 d1-d3 2. e4-e3xd3 (2. c3-c4 i4-i3 (2... a4-a3 '
    items = await complete(client, record, 1, len(record.split("\n")[1]))
    assert (items[0].label, items[0].kind) == ("3.", lsp.CompletionItemKind.Constant)
    offered = {i.label for i in items if i.kind == lsp.CompletionItemKind.Function}
    assert offered == legal_after('[Game "tablut"]\n1. e3-c3 d1-d3 2. c3-c4 a4-a3 *\n', 4)
    assert lsp.CompletionItemKind.EnumMember not in {i.kind for i in items}


@pytest.mark.parametrize(
    "movetext",
    [
        "(1. e3-d3 ",  # a movetext begun with a variation: its line is no line
        "(1. e3-d3) 1. e3-c3 (1. e3-b3 ",
        "1. e3-c3 d1-d3) (1... d1-d2 ",  # a ')' that closes none, before
    ],
)
async def test_a_variation_whose_line_does_not_read_is_offered_nothing(client: LanguageClient, movetext):
    """Without its guards, the line of such a variation was read past its start: an error, not an answer."""
    assert list(await complete(client, f'[Game "tablut"]\n{movetext}\n', 1, len(movetext))) == []


async def test_laquet_completion_for_the_roll_written(client: LanguageClient):
    record = '[Game "laquet"]\n1. 64: 5/11 4/8 1-6: *\n'
    items = await complete(client, record, 1, 20)
    plies = [i.label for i in items if i.kind == lsp.CompletionItemKind.Function]
    assert plies and set(plies) == {
        p for p in legal_after('[Game "laquet"]\n1. 64: 5/11 4/8 *\n', 1) if p.startswith("61:")
    }
    assert items[0].text_edit.range == lsp.Range(lsp.Position(1, 16), lsp.Position(1, 20))


BLOCKED = '[Position "1:2,2:3,3:3,4:1,7:1,10:1,11:1,16:1,17:1,18:1 6:12,12:1,13:1,14:1 b"]'  # Black: no 5, no 4


@pytest.mark.parametrize(
    "tags, movetext",
    [
        ('[Rules "both-dice=may"]', "1. 63: -- "),  # White passes, as these rules let it
        (f'{BLOCKED}\n[Rules "leftover=none"]', "1... 54: -- "),  # Black can play neither die
    ],
)
async def test_the_next_ply_after_a_laquet_pass_is_completed_as_after_any_play(
    client: LanguageClient, tags: str, movetext: str
):
    record = f'[Game "laquet"]\n{tags}\n{movetext}'
    line = record.count("\n")
    items = await complete(client, record, line, len(movetext))
    plies = [i.label for i in items if i.kind == lsp.CompletionItemKind.Function]
    assert plies and set(plies) == legal_after(f"{record}*\n", 1)
    assert items[0].text_edit.range == lsp.Range(lsp.Position(line, len(movetext)), lsp.Position(line, len(movetext)))


async def test_no_completion_on_a_line_past_the_text(client: LanguageClient):
    """Not the plies where the text ends (`d1-d2`…), where the client's position would be clamped."""
    assert [i.label for i in await complete(client, '[Game "tablut"]\n1. e3-c3 ', 1, 9)][:2] == ["d1-d2", "d1-d3"]
    assert not await complete(client, '[Game "tablut"]\n1. e3-c3 ', 2, 0)


async def test_a_rule_cited_on_the_first_line_is_found_in_utf16_units(client: LanguageClient):
    """A `%` line above the record citing T4 after three 𝔊 (two UTF-16 units each): its T is at
    character 9 to the client, at code point 6 to the server."""
    uri, _ = await open_text(client, '% 𝔊𝔊𝔊 T4 x\n[Game "tablut"]\n1. e3-c3 *\n')
    hover = await client.text_document_hover_async(lsp.HoverParams(lsp.TextDocumentIdentifier(uri), lsp.Position(0, 9)))
    assert hover.contents.value == f"```text\n{api.explain('T4')}\n```"


async def test_completion_after_the_end_offers_the_result_first(client: LanguageClient):
    record = '[Game "tablut"]\n1. c5-c3 i6-f6 2. d5-d3 i4-h4 3. c3-c7 a6-a9 4. Ke5-c5 b5-b9 5. Kc5-c1 \n'
    items = await complete(client, record, 1, 71)
    assert [i.label for i in items] == ["1-0", "0-1", "1/2-1/2", "*"]


@pytest.mark.parametrize(
    "line_text, expected",
    [
        ("[Va", ["Variant"]),
        ('[Game "la', ["laquet", "latrunculi"]),
        ('[Variant "', ["seneca", "piso", "petteia", "dux"]),
        ('[Rules "capture=custodian ', None),
        ('[Rules "removal=after-move JUMP-OVER=any ', "written"),  # a key written already is not offered again
    ],
)
async def test_completion_of_tags_and_values(client: LanguageClient, line_text, expected):
    record = f'[Game "latrunculi"]\n{line_text}\n1. @g2 *\n'
    items = await complete(client, record, 1, len(line_text))
    from lusoria.validator.latrunculi import Latrunculi

    if expected in (None, "written"):
        written = line_text.lower().split('"')[1].split() if expected else []
        expected = [
            f"{key}={value}"
            for key, values in Latrunculi.options.items()
            for value in values
            if not any(entry.startswith(f"{key}=") for entry in written)
        ]
    assert [i.label for i in items] == expected


async def test_a_variants_name_completed_sends_the_rules_it_sets_as_an_additional_edit(client: LanguageClient):
    """aagenielsen.dk's Saami Tablut-w completed wrote `aage` alone: the record played Black first."""
    line_text = '[Variant "Historical Hnefatafl 9x9 (Saami Tablut-w)'
    [item] = await complete(client, f'[Game "tablut"]\n{line_text}"]\n\n*\n', 1, len(line_text))
    assert (item.label, item.text_edit.new_text) == ("aage", "aage")
    assert list(item.additional_text_edits or []) == [
        lsp.TextEdit(lsp.Range(lsp.Position(1, 0), lsp.Position(1, 0)), '[Rules "first=white"]\n')
    ]
    [fetlar, *_] = await complete(client, '[Game "hnefatafl"]\n[Variant "Fetlar"]\n\n*\n', 1, 16)
    assert (fetlar.label, fetlar.additional_text_edits) == ("opentafl-fetlar-11x11", None)  # it sets no Rules


async def test_a_variants_name_completed_writes_its_rules_with_the_documents_line_ends_and_columns(
    client: LanguageClient,
):
    """In a CRLF file the Rules tag of its own was written with an LF end (the file had both, as
    "Format this record" once did); a Rules tag after a 𝔊 (two UTF-16 units) is replaced at its columns."""
    line_text = '[Variant "Historical Hnefatafl 9x9 (Saami Tablut-w)'
    [item] = await complete(client, f'[Game "tablut"]\r\n{line_text}"]\r\n\r\n*\r\n', 1, len(line_text))
    assert list(item.additional_text_edits or []) == [
        lsp.TextEdit(lsp.Range(lsp.Position(1, 0), lsp.Position(1, 0)), '[Rules "first=white"]\r\n')
    ]
    record = f'[Game "tablut"]\n{line_text}"]\n[Event "𝔊"] [Rules "king-armed=no"]\n\n*\n'
    [item] = await complete(client, record, 1, len(line_text))
    value = lsp.Range(lsp.Position(2, 20), lsp.Position(2, 35))  # 𝔊 counted twice: column 19 in code points
    assert list(item.additional_text_edits or []) == [lsp.TextEdit(value, '"first=white king-armed=no"')]


@pytest.mark.parametrize("typed", ["13x13", "Tablut"])
async def test_a_value_is_offered_by_any_part_of_it_those_that_start_with_it_first(client: LanguageClient, typed):
    """Of the tafl family's 181 variants, a 13×13 was found only by the start of its name."""
    from lusoria.validator.games import game_class

    line_text = f'[Variant "{typed}'
    items = await complete(client, f'[Game "hnefatafl"]\n{line_text}\n1. *\n', 1, len(line_text))
    presets = list(game_class("hnefatafl").presets)
    starting = [name for name in presets if name.startswith(typed.lower())]
    holding = [name for name in presets if typed.lower() in name and name not in starting]
    assert [i.label for i in items] == starting + holding and len(holding) > 5
    assert {i.text_edit.range.start.character for i in items} == {len('[Variant "')}


def decoded(data: list[int]) -> list[tuple[int, int, int, str]]:
    found, line, column = [], 0, 0
    for delta_line, delta_start, length, kind, _ in zip(*[iter(data)] * 5):
        line, column = line + delta_line, (column if delta_line == 0 else 0) + delta_start
        found.append((line, column, length, lsp_tokens[kind]))
    return found


lsp_tokens = ["property", "string", "comment", "number", "function", "operator", "keyword", "decorator"]


async def semantic_tokens(client: LanguageClient, uri: str) -> list[tuple[int, int, int, str]]:
    """The tokens the server colours a document with, decoded."""
    found = await client.text_document_semantic_tokens_full_async(
        lsp.SemanticTokensParams(lsp.TextDocumentIdentifier(uri))
    )
    return decoded(found.data)


async def test_semantic_tokens(client: LanguageClient):
    text = '% escape\n[Game "tablut"]\n{ a\ncomment } 1. e3-c3 d1-d3 2. e4-e3xd3! $5 (2. e4-e2) 1/2-1/2\n'
    uri, _ = await open_text(client, text)
    assert await semantic_tokens(client, uri) == [
        (1, 1, 4, "property"),
        (1, 6, 8, "string"),
        (2, 0, 3, "comment"),
        (3, 0, 9, "comment"),
        (3, 10, 2, "number"),
        (3, 13, 5, "function"),
        (3, 19, 5, "function"),
        (3, 25, 2, "number"),
        (3, 28, 5, "function"),
        (3, 33, 3, "operator"),
        (3, 36, 1, "decorator"),
        (3, 38, 2, "decorator"),
        (3, 42, 2, "number"),
        (3, 45, 5, "function"),
        (3, 52, 7, "keyword"),
    ]


def hostile_texts() -> list[str]:
    """The hostile files (tests/hostile.py), as an editor would decode them, and mutated records."""
    from hostile import FILES as files
    from hostile import VALID

    rng = random.Random(17)
    mutated = []
    for record in VALID:
        characters = list(record)
        for _ in range(5):
            characters[rng.randrange(len(characters))] = rng.choice('[]"{}();%$!?.-/x^@~>:*#+\n 0123456789')
        mutated.append("".join(characters))
    return [data.decode("utf-8", "replace") for data in files] + mutated + ["", "\n", "[", '[Game "tablut"]']


async def test_hostile_input_never_stops_the_server(client: LanguageClient):
    for text in hostile_texts():
        uri, diagnostics = await open_text(client, text, "hostile")
        assert all(d.code != "internal" for d in diagnostics)
        document = lsp.TextDocumentIdentifier(uri)
        lines = text.split("\n")
        for line in {0, 1, len(lines) - 1}:
            column = min(len(lines[min(line, len(lines) - 1)]), 12)
            await client.text_document_hover_async(lsp.HoverParams(document, lsp.Position(line, column)))
            await client.text_document_completion_async(lsp.CompletionParams(document, lsp.Position(line, column)))
            await actions_at(client, uri, line)
        await client.text_document_formatting_async(
            lsp.DocumentFormattingParams(document, lsp.FormattingOptions(4, True))
        )
        await client.text_document_document_symbol_async(lsp.DocumentSymbolParams(document))
        await client.text_document_semantic_tokens_full_async(lsp.SemanticTokensParams(document))
        client.text_document_did_close(lsp.DidCloseTextDocumentParams(document))
        await published(client, uri)
    assert client.error is None
    assert "e3-c3" in [i.label for i in await complete(client, '[Game "tablut"]\n1.  *\n', 1, 3)]  # still answering


@pytest_lsp.fixture(
    scope="module",
    config=ClientServerConfig(server_command=[sys.executable, str(Path(__file__).with_name("held_lsp_server.py"))]),
)
async def held_client(lsp_client: LanguageClient):
    """A server whose checks pause after one record until a newer edit comes."""
    await initialized(lsp_client)
    yield
    await lsp_client.shutdown_session()


async def test_a_newer_edit_stops_a_check_and_requests_are_answered_meanwhile(held_client: LanguageClient):
    client = held_client
    text = "\n".join(api.random_records("tablut", 20, seed=5, max_plies=60))
    uri = uri_of("long")
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(uri, "lgn", 1, text)))
    hover = await client.text_document_hover_async(lsp.HoverParams(lsp.TextDocumentIdentifier(uri), lsp.Position(0, 3)))
    assert "| `king-capture` | `4` |" in hover.contents.value
    assert uri not in client.diagnostics  # answered, and nothing published: the check cannot end before the edit
    await change(client, uri, 2, (0, 0), (len(text.split("\n")), 0), '[Game "tablut"]\n1. e3-c3 e4-b4 *\n')
    assert [d.code for d in await published(client, uri)] == ["T1"]
    async with asyncio.timeout(60):
        while not any(f"{uri} version 1:" in m.message for m in client.log_messages):
            await client.wait_for_notification(lsp.WINDOW_LOG_MESSAGE)
    messages = sorted(m.message for m in client.log_messages if uri in m.message)  # the two checks ran at once
    assert messages == [
        f"{uri} version 1: checked 1 of 20 changed records, stopped by a newer edit",
        f"{uri} version 2: checked 1 of 1 changed records",
    ]


@pytest_lsp.fixture(
    loop_scope="module",  # the loop of this module's tests (a fixture's own loop would never answer them)
    config=ClientServerConfig(
        server_command=[sys.executable, str(Path(__file__).with_name("held_reading_lsp_server.py"))]
    ),
)
async def held_reading_client(lsp_client: LanguageClient):
    """A server whose reader of `*.slow` files blocks until the client sends `held/release`: one for each
    test, which counts the reads from its start (a module's server failed a test run after another, whose
    document and released reader it kept)."""
    await initialized(lsp_client)
    yield
    await lsp_client.shutdown_session()


async def test_a_document_is_read_in_a_worker_and_the_edits_made_meanwhile_are_read_once(
    held_reading_client: LanguageClient,
):
    """A long document (a CSV of thousands of games) is read off the server's main thread: while its
    read runs, the server answers and checks other documents; the edits made meanwhile are read once,
    the newest alone, and the result of the read they made stale is never published."""
    client = held_reading_client
    uri = f"file:///work/{next(NUMBERS)}/games.slow"
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(uri, "slow", 1, "e8-b8 d5-d6\n")))
    assert await client.protocol.send_request_async("held/calls", {}) == 1  # answered while the read blocks
    _, diagnostics = await open_text(client, '[Game "tablut"]\n1. e3-c3 e4-b4 *\n')  # checked meanwhile
    assert [d.code for d in diagnostics] == ["T1"]
    await change(client, uri, 2, (0, 0), (1, 0), "e8-b8 e4-e3\n")  # two edits while the read blocks (a T2)
    await change(client, uri, 3, (0, 0), (1, 0), "e8-b8 d5-d6 e4-d9\n")
    client.protocol.notify("held/release", {})
    assert [(d.code, d.range.start.character) for d in await published(client, uri)] == [("T1", 12)]  # version 3
    assert await client.protocol.send_request_async("held/calls", {}) == 2  # versions 1 and 3: not 2
    assert sorted(m.message for m in client.log_messages if uri in m.message) == [
        f"{uri} version 1: read, dropped for a newer edit",
        f"{uri} version 3: checked 1 of 1 changed records",
    ]


async def test_a_request_during_a_read_waits_for_it_and_reads_the_document_no_more(
    held_reading_client: LanguageClient,
):
    """A request asked while its document is read is answered once the read ends, from it: the
    document is not read a second time alongside it (a 3,000-game CSV read twice at once)."""
    client = held_reading_client
    client.protocol.notify("held/hold", {})
    uri = f"file:///work/{next(NUMBERS)}/games.slow"
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(uri, "slow", 1, "e8-b8 d5-d6\n")))
    began = await client.protocol.send_request_async("held/calls", {})
    outline = asyncio.ensure_future(
        client.text_document_document_symbol_async(lsp.DocumentSymbolParams(lsp.TextDocumentIdentifier(uri)))
    )
    await asyncio.sleep(0)  # the outline asked: its coroutine sends the request as it first runs
    assert await client.protocol.send_request_async("held/calls", {}) == began  # the outline waits: no read of its own
    client.protocol.notify("held/release", {})
    assert [(s.name, s.detail) for s in await outline] == [("? – ?, ?, *", "tablut (aage), 2 plies, valid")]
    assert await client.protocol.send_request_async("held/calls", {}) == began


@pytest_lsp.fixture(
    loop_scope="module",
    config=ClientServerConfig(
        server_command=[sys.executable, str(Path(__file__).with_name("held_tokens_lsp_server.py"))]
    ),
)
async def held_tokens_client(lsp_client: LanguageClient):
    """A server whose semantic tokens and formatting block, once laid out, until the client sends `held/release`."""
    await initialized(lsp_client)
    yield
    await lsp_client.shutdown_session()


async def test_tokens_and_formatting_are_laid_out_in_a_worker_and_a_hover_is_answered_meanwhile(
    held_tokens_client: LanguageClient,
):
    """h79c: the server laid out a document's tokens and its formatting in its main loop, so that a hover or a
    completion waited for them (4.7 s in a 5.7 MB file): they are laid out in worker threads, and a hover asked
    meanwhile is answered."""
    client = held_tokens_client
    text = '[Game "tablut"]\n1.   e3-c3 *\n'
    uri, _ = await open_text(client, text)
    document = lsp.TextDocumentIdentifier(uri)
    tokens = asyncio.ensure_future(client.text_document_semantic_tokens_full_async(lsp.SemanticTokensParams(document)))
    formatting = asyncio.ensure_future(
        client.text_document_formatting_async(lsp.DocumentFormattingParams(document, lsp.FormattingOptions(2, True)))
    )
    async with asyncio.timeout(30):  # (held in the main loop, neither is answered for a minute)
        assert await client.protocol.send_request_async("held/began", {}) == 2
        hover = await client.text_document_hover_async(lsp.HoverParams(document, lsp.Position(1, 6)))
    assert "e3-c3" in hover.contents.value and not formatting.done()
    client.protocol.notify("held/release", {})
    assert decoded((await tokens).data) == [
        (0, 1, 4, "property"),
        (0, 6, 8, "string"),
        (1, 0, 2, "number"),
        (1, 5, 5, "function"),
        (1, 11, 1, "keyword"),
    ]
    assert applied(text, await formatting) == api.format_record(text)[0]


# -- documents of other formats: read as validate reads their files --------------

LOGGED = "nov 21, 2026 10:00:00 AM it.unibo.ai.didattica.competition.tablut.domain.GameAshtonTablut {}\n"
START = "OOOBBBOOO OOOOBOOOO OOOOWOOOO BOOOWOOOB BBWWKWWBB BOOOWOOOB OOOOWOOOO OOOOBOOOO OOOBBBOOO"
MOVED = "OOOBBBOOO OOOOWOOOO OOOOOOOOO BOOOWOOOB BBWWKWWBB BOOOWOOOB OOOOWOOOO OOOOBOOOO OOOBBBOOO"
OTHER_FORMATS = {  # a file name, its text (one illegal ply each), and the diagnostic's line, start and end
    "club.otg": (
        "[event:club night]\n[rules:dim:9 esc:e cor: atkf:y ks:c tfr:i cenhe:tTK cenh: "
        "start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/]\n\n1. e8-b8 d5-d6\n2. d1-d5xc5 e4-d9\n",
        (4, 12, 17),
    ),
    "scrape.json": (
        '[\n  {\n    "WhiteSidePlayerName": "Ada",\n    "BlackSidePlayerName": "Bo",\n'
        '    "AageGameTypeName": "Historical Hnefatafl 9x9 (Saami Tablut)",\n    "WhoMovedFirst": "black",\n'
        '    "Moves": "b5-b7 e6-c6 i6-e6xe7 e5-e1",\n    "WhoWon": "black"\n  }\n]\n',
        (6, 35, 40),
    ),
    "lists.txt": ("b5-b7 e6-c6 resigned\ne8-b8 d5-d6 d1-d5xc5 e4-d9\n", (1, 21, 26)),
    "brandubh.csv": ("d2-b2 c4-c5 d1-e1 a4-a9,0,0,Ongoing\n", (0, 18, 23)),
    "Ada_vs_Bo_1763730000000_gameLog.txt": (
        LOGGED.format("<init>")
        + "FINE: Players:\tAda\tvs\tBo\n"
        + LOGGED.format("<init>")
        + "FINE: Stato:\n"
        + START.replace(" ", "\n")
        + "\n-\nW\n"
        + LOGGED.format("checkMove")
        + "FINE: Turn: W Pawn from e3 to e2\n"
        + LOGGED.format("checkMove")
        + "FINE: Stato:\n"
        + MOVED.replace(" ", "\n")
        + "\n-\nB\n",
        (16, 24, 32),  # `e3 to e2`, the ply as the log writes it
    ),
}


async def open_file(client: LanguageClient, name: str, text: str) -> tuple[str, list[lsp.Diagnostic]]:
    """A document of the file `name` (in a folder of its own: the name says its format) opened."""
    uri = f"file:///work/{next(NUMBERS)}/{name}"
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(uri, "plaintext", 1, text)))
    return uri, await published(client, uri)


@pytest.mark.parametrize("name", OTHER_FORMATS)
async def test_a_document_of_another_format_has_the_diagnostics_validate_gives_its_file(
    client: LanguageClient, name: str, tmp_path: Path
):
    text, (line, start, end) = OTHER_FORMATS[name]
    (tmp_path / name).write_text(text, "utf-8")
    _, diagnostics = await open_file(client, name, text)
    assert as_server_says(diagnostics) == as_validate_says(tmp_path / name)
    assert diagnostics[-1].range == lsp.Range(lsp.Position(line, start), lsp.Position(line, end))


async def test_validate_s_caret_marks_a_log_s_ply_as_the_log_writes_it(tmp_path: Path):
    """The log writes e3-e2 in words (`e3 to e2`): the caret, as the editor's underline, covered `e3 to`."""
    name = "Ada_vs_Bo_1763730000000_gameLog.txt"
    (tmp_path / name).write_text(OTHER_FORMATS[name][0], "utf-8")
    [verdict] = api.validate([str(tmp_path / name)])
    assert diagnostic_text(verdict, verdict.diagnostics[-1]).split("\n")[1:] == [
        " 17 | FINE: Turn: W Pawn from e3 to e2",
        "    |                         ^^^^^^^^ did you mean e3-d3 or e3-f3?",
    ]


async def hover_text(client: LanguageClient, uri: str, line: int, character: int) -> str | None:
    found = await client.text_document_hover_async(
        lsp.HoverParams(lsp.TextDocumentIdentifier(uri), lsp.Position(line, character))
    )
    return found.contents.value if found else None  # type: ignore[union-attr]


async def test_a_ply_of_another_format_shows_its_board_and_an_illegal_one_its_rule(
    client: LanguageClient, tmp_path: Path
):
    text, (line, start, _) = OTHER_FORMATS["club.otg"]
    (tmp_path / "club.otg").write_text(text, "utf-8")
    uri, _ = await open_file(client, "club.otg", text)
    first = await hover_text(client, uri, 3, 4)
    board = api.board(str(tmp_path / "club.otg"), 1).text()  # as `lusoria show --ply 1 club.otg` prints it
    assert first == f"**move 1, Black**: `e8-b8`\n\ncaptured nothing\n\n```text\n{board}\n```"
    illegal = await hover_text(client, uri, line, start + 1)
    assert illegal is not None and illegal.startswith(
        "**move 2, White**: `e4-d9` is illegal (T2): a piece moves along its rank or file, and d9 is on neither"
    )


async def test_lgn_features_are_offered_on_lgn_documents_alone(client: LanguageClient):
    text, _ = OTHER_FORMATS["club.otg"]
    uri, _ = await open_file(client, "club.otg", text)
    completion = await client.text_document_completion_async(
        lsp.CompletionParams(lsp.TextDocumentIdentifier(uri), lsp.Position(4, 21))
    )
    assert completion is not None and list(completion.items) == []  # no plies in lgn syntax in an OpenTafl game
    client.messages.clear()
    edits = await client.text_document_formatting_async(
        lsp.DocumentFormattingParams(lsp.TextDocumentIdentifier(uri), lsp.FormattingOptions(4, True))
    )
    assert edits is not None and list(edits) == []
    assert [(m.type, m.message) for m in client.messages] == [
        (
            lsp.MessageType.Info,
            "lusoria: formatting is for lgn documents; this one is read as otn, as validate reads it"
            " (lusoria convert --to lgn writes it in lgn)",
        )
    ]
    actions = await client.text_document_code_action_async(
        lsp.CodeActionParams(
            lsp.TextDocumentIdentifier(uri),
            lsp.Range(lsp.Position(0, 0), lsp.Position(5, 0)),
            lsp.CodeActionContext(diagnostics=[]),
        )
    )
    assert actions is not None and list(actions) == []  # a fix writes lgn: none in an OpenTafl game


COLOURED = {  # of each document of OTHER_FORMATS, the text of each token and its type
    "club.otg": ["e8-b8", "d5-d6", "d1-d5", "xc5", "e4-d9"],
    "scrape.json": ["b5-b7", "e6-c6", "i6-e6", "xe7", "e5-e1"],
    "lists.txt": ["b5-b7", "e6-c6", "e8-b8", "d5-d6", "d1-d5", "xc5", "e4-d9"],
    "brandubh.csv": ["d2-b2", "c4-c5", "d1-e1"],  # a9 is no square of the board: the reader refused the row, its
    # moves before it placed (they were not coloured)
    "Ada_vs_Bo_1763730000000_gameLog.txt": [],  # `from e3 to e2`: the ply written in words
}


@pytest.mark.parametrize("name", OTHER_FORMATS)
async def test_the_plies_of_another_format_are_coloured_where_its_reader_placed_them(client: LanguageClient, name: str):
    text, _ = OTHER_FORMATS[name]
    uri, _ = await open_file(client, name, text)
    lines = text.split("\n")
    tokens = await semantic_tokens(client, uri)
    coloured = [(lines[line][start : start + length], kind) for line, start, length, kind in tokens]
    assert coloured == [(ply, "operator" if ply.startswith("x") else "function") for ply in COLOURED[name]]


async def test_the_plies_of_a_csv_are_coloured_row_by_row(client: LanguageClient):
    uri, _ = await open_file(client, "games.csv", "# tablut\ne3-c3 d1-d3,0,0,Ongoing\ne3-c3 d1-d9,0,0,Ongoing\n")
    assert await semantic_tokens(client, uri) == [
        (1, 0, 5, "function"),
        (1, 6, 5, "function"),
        (2, 0, 5, "function"),
        (2, 6, 5, "function"),
    ]


async def test_the_outline_of_another_format_has_a_symbol_for_each_of_its_games(client: LanguageClient):
    uri, _ = await open_file(client, "lists.txt", OTHER_FORMATS["lists.txt"][0])
    found = await client.text_document_document_symbol_async(lsp.DocumentSymbolParams(lsp.TextDocumentIdentifier(uri)))
    assert [(s.name, s.detail, s.range.start.line) for s in found] == [
        ("? – ?, ?, 1-0", "tablut (aage), 2 plies, valid", 0),
        ("? – ?, ?, *", "tablut (aage), 4 plies, 1 error", 1),
    ]


async def test_a_ply_of_a_scrape_written_on_one_line_is_hovered_in_its_own_game(client: LanguageClient):
    game = (
        '{"AageGameTypeName": "Historical Hnefatafl 9x9 (Saami Tablut)", "WhoMovedFirst": "black", '
        '"Moves": "%s", "WhoWon": "black"}'
    )
    text = f"[{game % 'b5-b7 e6-c6 b7-b8 i6-e6xe7'}, {game % 'b5-b7 e6-c6 i6-e6xe7 e5-e1'}]\n"
    uri, diagnostics = await open_file(client, "scrape.json", text)
    assert [(d.code, d.range.start.character) for d in diagnostics] == [("T1", 119), ("T2", 271)]
    first = await hover_text(client, uri, 0, 120)
    assert first is not None and first.startswith("**move 2, White**: `i6-e6xe7` is illegal (T1): the piece on i6")
    second = await hover_text(client, uri, 0, 272)
    assert second is not None and second.startswith("**move 2, White**: `e5-e1` is illegal (T2): the way is blocked")
