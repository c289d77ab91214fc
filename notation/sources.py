"""Where records come from: files, directories of record files, standard input, text
streams, or the text of records itself (as python-chess's readers take any text stream);
each file read in its format (lusoria.formats)."""

from __future__ import annotations

import codecs
import io
import os
import sys
from dataclasses import dataclass
from itertools import islice
from pathlib import Path
from typing import BinaryIO, Callable, Iterable, Iterator, TextIO, Union

from lusoria.errors import LusoriaError
from lusoria.notation.reader import RecordText, split_records

STDIN = "-"
Source = Union[str, os.PathLike, TextIO, RecordText]  # see read_sources


class InputError(LusoriaError):
    """A source that cannot be read at all (missing, unreadable, wrongly encoded); `parameter`
    names the argument of `read_sources` that may help (`encoding`), if one may."""

    def __init__(self, message: str, parameter: str | None = None):
        super().__init__(message)
        self.parameter = parameter


@dataclass(frozen=True)
class Skipped:
    """A file in a directory that holds no records lusoria reads, and why."""

    path: str
    reason: str

    def __str__(self) -> str:
        return f"{self.path}: skipped, {self.reason}"


@dataclass(frozen=True)
class Unreadable:
    """A source that could not be read (its InputError), as an item of a stream of records."""

    path: str
    message: str  # names the path
    parameter: str | None = None  # as InputError's

    def __str__(self) -> str:
        return self.message


Problem = Union[Skipped, Unreadable]  # what a stream of records holds beside them, each with its `.path`
PROBLEMS = (Skipped, Unreadable)  # for isinstance


def shown_path(path: str) -> str:
    """A file name as text: bytes that are not UTF-8 (kept by the file system's decoding) as \\xNN."""
    return path.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def is_text(source: Source) -> bool:
    """Whether a source is records' text rather than a path: a RecordText, or a str that holds
    a line break or starts with `[` (as every record with tags does)."""
    return isinstance(source, RecordText) or isinstance(source, str) and ("\n" in source or source.startswith("["))


def walk(paths: Iterable[Source | Skipped], format: str | None = None) -> Iterator[Source | Skipped]:
    """Files as given; directories searched recursively, in sorted order, for files in one of
    lusoria's formats (`*.lgn`, `*.otg`, aagenielsen.dk `*.json`, Tablut Challenge
    `*_gameLog.txt`; extensions in any case), or with a forced `format`, for every file with
    that format's extension (`*.txt` for tafl move lists, whatever they start with); the other
    files there come as Skipped. Streams, text and Skipped items (of an earlier walk) come as they are."""
    from lusoria.formats import SUFFIXES, format_of, why_not

    for path in paths:
        if not isinstance(path, (str, os.PathLike)) or is_text(path) or path == STDIN or not Path(path).is_dir():
            yield path
            continue
        for found in sorted(p for p in Path(path).rglob("*") if p.is_file() or _broken_link(p)):
            if format is not None and found.suffix.lower() != SUFFIXES[format]:
                yield Skipped(str(found), why_not(str(found), format))
            elif format is None and format_of(str(found), _head(found)) is None:
                yield Skipped(str(found), why_not(str(found)))
            else:
                yield str(found)


def _records_in(pieces: Iterable[str], format: str | None, name: str,
                tags: dict[str, str] | None) -> Iterator[RecordText]:
    """The records of a source's text, given in pieces, in `format` (lgn when None): lgn is
    split as it streams, another format read whole (lusoria.formats)."""
    if format in (None, "lgn"):
        return split_records(pieces, name)
    from lusoria.formats import read_text
    return read_text("".join(pieces), format, name, tags)


def _broken_link(path: Path) -> bool:
    """A link that leads nowhere, which a walk gives as a file (read, it says so); not a
    hidden one, such as the lock an editor leaves beside a file it edits (`.#game.lgn`)."""
    return path.is_symlink() and not path.exists() and not path.name.startswith(".")


HEAD = 4096  # the bytes of a file that say its format (lusoria.formats.format_of)
BOMS = ((codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"), (codecs.BOM_UTF8, "utf-8-sig"),
        (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"))  # UTF-32's before UTF-16's, its prefix


def codec_for(start: bytes, encoding: str) -> str:
    """The codec that decodes a file whose first bytes are `start`, read in `encoding`: in
    UTF-8 (the default), a byte-order mark says the file's Unicode encoding, and is dropped."""
    if codecs.lookup(encoding).name != "utf-8":
        return encoding
    return next((codec for bom, codec in BOMS if start.startswith(bom)), "utf-8")


def head_text(head: bytes, encoding: str = "utf-8") -> str:
    """The first bytes of a file as text, to tell its format: decoded as the file is (its
    byte-order mark dropped), what does not decode replaced."""
    try:
        return head.decode(codec_for(head, encoding), "replace")
    except LookupError:
        return ""  # the encoding is unknown: reading the file says so


def _head(path: Path) -> str:
    """The first characters of a file whose extension does not say its format alone."""
    if path.suffix.lower() not in (".json", ".txt", ".csv"):
        return ""
    try:
        with open(path, "rb") as stream:
            return head_text(stream.read(HEAD))
    except OSError:
        return ""


CHUNK = 1 << 20  # characters decoded at a time


def decoded_text(stream: BinaryIO, path: str, encoding: str = "utf-8") -> Iterator[str]:
    """The stream as pieces of text with `\\n` line ends (CRLF and CR too); a leading
    byte-order mark is dropped, and in UTF-8 (the default) one of UTF-16 or UTF-32 says the
    encoding (`codec_for`). Bytes that do not decode are an InputError naming their offset."""
    try:
        start = stream.read(4)
        counted = _Counting(stream, start)
        text = io.TextIOWrapper(counted, codec_for(start, encoding), newline=None)  # type: ignore[type-var]
    except LookupError as error:
        raise InputError(f"{path}: {error}") from None
    except OSError as error:
        raise InputError(f"{path}: {error.strerror.lower() if error.strerror else error}") from None
    try:
        yield from iter(lambda: text.read(CHUNK), "")
    except OSError as error:
        raise InputError(f"{path}: {error.strerror.lower() if error.strerror else error}") from None
    except UnicodeDecodeError as error:
        before = counted.last[:counted.last.find(error.object[:16]) + error.start] \
            if error.object[:16] in counted.last else b""
        offset = counted.consumed - len(counted.last) + len(before)
        line = counted.lines + before.count(b"\n") + 1
        raise InputError(f"{path}: byte {offset} (line {line}) is not valid {encoding}", "encoding") from None
    except UnicodeError as error:  # e.g. utf-16 without a byte-order mark
        raise InputError(f"{path}: not valid {encoding}: {error}") from None


class _Counting(io.RawIOBase):
    """A binary stream that keeps count of the bytes and lines read before its last
    chunk, and that chunk (to locate a decoding error); `start`: bytes already read from
    `stream`, given first."""

    def __init__(self, stream: BinaryIO, start: bytes = b""):
        self.stream, self.start, self.consumed, self.lines, self.last = stream, start, 0, 0, b""

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        data, self.start = (self.start[:len(buffer)], self.start[len(buffer):]) if self.start \
            else (self.stream.read(len(buffer)), b"")
        self.lines += self.last.count(b"\n")
        self.last = data
        buffer[:len(data)] = data
        self.consumed += len(data)
        return len(data)


def read_sources(path: Source, encoding: str = "utf-8", format: str | None = None,
                 tags: dict[str, str] | None = None, progress: Callable[[int], None] | None = None
                 ) -> Iterator[RecordText]:
    """The records of one source, streamed: a file (its path, as a str or a Path), `-` (standard
    input), a text stream, or text (`is_text`: the records themselves). A file is read in
    `format` (by default: what its name, then its content, says; lgn when neither does), and
    so is text, a stream or standard input (by default lgn); `tags` (Variant, Rules) choose the
    rules of plain tafl move lists; `progress` is told the bytes of a file read, as they are
    (their sum is the file's size)."""
    from lusoria.formats import format_of

    if isinstance(path, RecordText):
        yield path
        return
    if is_text(path):
        yield from _records_in([path], format, "", tags)  # type: ignore[list-item]  # is_text: a str
        return
    if not isinstance(path, (str, os.PathLike)):
        stream = path
        yield from _records_in(iter(lambda: stream.read(CHUNK), ""), format, getattr(path, "name", "<stream>"), tags)
        return
    path = os.fspath(path)
    if path == STDIN:
        yield from _records_in(decoded_text(sys.stdin.buffer, "<stdin>", encoding), format, "<stdin>", tags)
        return
    name = shown_path(path)
    try:
        file = open(path, "rb")
    except OSError as error:
        raise InputError(f"{name}: {error.strerror.lower() if error.strerror else error}") from None
    with file:
        if format is None:
            try:
                head = file.peek(HEAD)[:HEAD]
            except OSError as error:
                raise InputError(f"{name}: {error.strerror.lower() if error.strerror else error}") from None
            format = format_of(path, head_text(head, encoding)) or "lgn"
        records = _records_in(decoded_text(file, name, encoding), format, name, tags)
        done = 0
        try:
            for record in records:
                yield record
                if progress:
                    progress(file.tell() - done)
                    done = file.tell()
        finally:  # the file's bytes are done with, read or not (a decoding error)
            if progress:
                progress(os.fstat(file.fileno()).st_size - done)


def record_at(source: Source, index: int = 0, encoding: str = "utf-8", format: str | None = None,
              tags: dict[str, str] | None = None) -> RecordText:
    """Record `index` (from 0) of a source, as `read_sources` reads it; ValueError when there is
    no such record, InputError when the source cannot be read."""
    found = next(islice(read_sources(source, encoding, format, tags), index, None), None) if index >= 0 else None
    if found is None:
        raise ValueError(f"{'the text' if is_text(source) else source} has no record {index}")
    return found
