"""Text for a person at a terminal: control characters (escape sequences that could retitle
a window, move the cursor, hide text; records carry them, and so may file names) are shown
escaped, as `\\x1b`, whoever writes them (lusoria, click's messages, a table); output that goes
to a file or a pipe is written as it is (records intact)."""

from __future__ import annotations

import codecs
import io
import sys
import traceback
from collections.abc import Iterator
from contextlib import contextmanager
from typing import AnyStr, TextIO

import click

from lusoria.errors import LusoriaError
from lusoria.words import escape_controls, reason


class Escaping(io.TextIOBase):
    """A terminal's text stream through which every write is `escape_controls`d."""

    def __init__(self, stream: TextIO):
        self.stream = stream

    def write(self, text: str | bytes) -> int:
        """`text` escaped; bytes (a record's as its file holds them: `echo`) decoded first, U+FFFD for a byte that does
        not decode (review82: click 8.5 writes them here as they are, and `fmt` of such a record ended in a TypeError)."""
        shown = bytes(text).decode(self.encoding, "replace") if isinstance(text, (bytes, bytearray)) else text
        self.stream.write(escape_controls(shown))
        return len(text)

    def flush(self) -> None:
        self.stream.flush()

    def isatty(self) -> bool:
        return True

    def fileno(self) -> int:
        return self.stream.fileno()

    @property
    def encoding(self) -> str:  # type: ignore[override]  # TextIOBase declares it a plain attribute
        return self.stream.encoding

    @property
    def errors(self) -> str | None:  # type: ignore[override]
        return self.stream.errors


def written_in_utf8() -> None:
    """Standard output and error written in UTF-8 where Python chose another encoding (on Windows a redirected
    stream takes the ANSI code page: h80c, `fmt a.lgn > b.lgn` wrote cp1252, which lusoria then refused, and a
    name beyond it, `Łukasz`, stopped `validate` with an internal error): lusoria's records, JSON and pages are
    UTF-8 (docs/notation.md)."""
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper) and codecs.lookup(stream.encoding).name != "utf-8":
            stream.reconfigure(encoding="utf-8", errors=stream.errors)  # (its errors kept: review80b)


@contextmanager
def escaped() -> Iterator[None]:
    """Standard output and error, where they are terminals, escape control characters while
    the block runs (a command: lusoria.cli's group)."""
    saved = sys.stdout, sys.stderr
    if sys.stdout is not None and sys.stdout.isatty():
        sys.stdout = Escaping(sys.stdout)
    if sys.stderr is not None and sys.stderr.isatty():
        sys.stderr = Escaping(sys.stderr)
    try:
        yield
    finally:
        sys.stdout, sys.stderr = saved


def unescaped(stream: TextIO) -> TextIO:
    """The terminal behind an escaping stream, for what writes its own control characters
    (a progress bar's cursor movements)."""
    return stream.stream if isinstance(stream, Escaping) else stream


class WhileItTakes(io.TextIOBase):
    """A terminal written to while it takes what is written: a write that fails (the terminal gone:
    EIO) ends the writing, not the command (review73: the import's progress bar stopped the import)."""

    def __init__(self, stream: TextIO):
        self.stream = stream
        self.gone = False

    def write(self, text: str) -> int:
        self._while_it_takes(self.stream.write, text)
        return len(text)

    def flush(self) -> None:
        self._while_it_takes(self.stream.flush)

    def isatty(self) -> bool:
        return self.stream.isatty()

    def _while_it_takes(self, writing, *text: str) -> None:
        if not self.gone:
            try:
                writing(*text)
            except OSError:
                self.gone = True


_OUTPUT_CLOSED_TAKEN = [False]  # `output_closed_taken` is running


@contextmanager
def output_closed_taken() -> Iterator[None]:
    """While the block runs (a command whose work is what it stores: `import`), standard output or
    error closed by what reads it (`lusoria import … 2>&1 | head -1`) takes no more output, and the
    work goes on: it died at its first message, the records of its batch not stored, where the messages
    were only looked at."""
    _OUTPUT_CLOSED_TAKEN[0] = True
    try:
        yield
    finally:
        _OUTPUT_CLOSED_TAKEN[0] = False


_PIECE = 1 << 16  # the most of a message written at once: a pipe whose reader closes in a write takes what it took,
# and Python says nothing of the rest, where the next write fails (h81b: `lusoria query | head -1`, its table one
# write, ended 0, as done, where its other formats end 1); a pipe holds 64 KiB


def echo(message: str | bytes = "", nl: bool = True, err: bool = False) -> None:
    """click.echo of text that may hold records' data, which every command writes with: to a
    file or a pipe as it is (click would strip escape sequences); to a terminal escaped
    (`escaped`). Bytes (a record's as its file holds them: `api.bytes_as_read`) go to a file or a
    pipe as they are; to a terminal, where a byte may be a control character, the escaping stream decodes them,
    U+FFFD for a byte no character stands for, and they are escaped as text is (`Escaping.write`)."""
    pieces = _pieces(message) if isinstance(message, str) else _pieces(message)  # (one type each: AnyStr)
    try:
        for number, piece in enumerate(pieces, 1):
            click.echo(piece, nl=nl and number == len(pieces), err=err, color=True)
    except OSError as error:  # (a pipe closed, a full disk: each later write fails as fast, nothing is written)
        if _OUTPUT_CLOSED_TAKEN[0] and (err or isinstance(error, BrokenPipeError)):
            return  # (h72b: an import whose standard error was on a full disk stopped at its first note; its
            # summary on standard output that cannot be written is said, the records stored: review72)
        if isinstance(error, BrokenPipeError):
            raise  # (click ends the command quietly: `| head`)
        raise OutputFailed("standard error" if err else "standard output", reason(error)) from None


def _pieces(message: AnyStr) -> list[AnyStr]:
    """`message` in pieces of `_PIECE` at most, each cut after a line's end where one holds one (where it does, a
    character's bytes kept whole, which a terminal decodes piece by piece; a piece of bytes of no line's end may cut
    one: review82)."""
    end_of_line = message[:0] + (b"\n" if isinstance(message, bytes) else "\n")
    pieces: list[AnyStr] = []
    at = 0
    while len(message) - at > _PIECE:
        end = message.rfind(end_of_line, at, at + _PIECE) + 1 or at + _PIECE
        pieces.append(message[at:end])
        at = end
    pieces.append(message[at:])
    return pieces


class OutputFailed(LusoriaError):
    """Standard output or error that cannot be written (a full disk, /dev/full): no bug in lusoria, a
    usage error said on the other stream (h72b: "internal error", exit 3)."""

    def __init__(self, stream: str, said: str):
        super().__init__(stream, said)
        self.stream = stream

    def __str__(self) -> str:
        return f"cannot write {self.stream}: {self.args[1]}"


def clicks_output_failed(error: BaseException) -> OutputFailed | None:
    """An OSError raised while click wrote (`--help`, a usage error: not through `echo`) as the OutputFailed
    `echo` makes of lusoria's own, naming the stream click wrote to (review73: standard error, named standard
    output, where "Aborted!" or a usage error failed); None for any other error."""
    if not isinstance(error, OSError):
        return None
    tb = traceback.walk_tb(error.__traceback__)
    echoing = next((frame for frame, _ in tb if frame.f_code is click.utils.echo.__code__), None)
    if echoing is None:
        return None
    to = "standard error" if echoing.f_locals.get("file") is sys.stderr else "standard output"  # (as echo chose it)
    return OutputFailed(to, reason(error))
