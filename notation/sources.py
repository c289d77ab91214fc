"""Where records come from: files, directories of `*.lgn` files, standard input, text streams,
or the text of records itself (as python-chess's readers take any text stream)."""

from __future__ import annotations

import codecs
import io
import os
import sys
from itertools import islice
from pathlib import Path
from typing import BinaryIO, Iterable, Iterator, TextIO, Union

from lusoria.notation.reader import RecordText, split_records

STDIN = "-"
Source = Union[str, os.PathLike, TextIO, RecordText]  # see read_sources


class InputError(Exception):
    """A source that cannot be read at all (missing, unreadable, wrongly encoded)."""


def is_text(source: Source) -> bool:
    """Whether a source is records' text rather than a path: a RecordText, or a str that holds
    a line break or starts with `[` (as every record with tags does)."""
    return isinstance(source, RecordText) or isinstance(source, str) and ("\n" in source or source.startswith("["))


def expand(paths: Iterable[Source]) -> Iterator[Source]:
    """Files as given; directories searched recursively for `*.lgn`, in sorted order; streams
    and text as they are."""
    for path in paths:
        if isinstance(path, (str, os.PathLike)) and not is_text(path) and path != STDIN and Path(path).is_dir():
            yield from (str(p) for p in sorted(Path(path).rglob("*.lgn")) if p.is_file())
        else:
            yield path


CHUNK = 1 << 20  # characters decoded at a time


def decoded_text(stream: BinaryIO, path: str, encoding: str = "utf-8") -> Iterator[str]:
    """The stream as pieces of text with `\\n` line ends (CRLF and CR too); a leading
    BOM is dropped. Bytes that do not decode are an InputError naming their offset."""
    codec = "utf-8-sig" if codecs.lookup(encoding).name == "utf-8" else encoding
    counted = _Counting(stream)
    text = io.TextIOWrapper(counted, codec, newline=None)
    try:
        yield from iter(lambda: text.read(CHUNK), "")
    except UnicodeDecodeError as error:
        before = counted.last[:counted.last.find(error.object[:16]) + error.start] \
            if error.object[:16] in counted.last else b""
        offset = counted.consumed - len(counted.last) + len(before)
        line = counted.lines + before.count(b"\n") + 1
        raise InputError(f"{path}: byte {offset} (line {line}) is not valid {encoding}; "
                         "try --encoding latin-1 or cp1252") from None


class _Counting(io.RawIOBase):
    """A binary stream that keeps count of the bytes and lines read before its last
    chunk, and that chunk (to locate a decoding error)."""

    def __init__(self, stream: BinaryIO):
        self.stream, self.consumed, self.lines, self.last = stream, 0, 0, b""

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        data = self.stream.read(len(buffer))
        self.lines += self.last.count(b"\n")
        self.last = data
        buffer[:len(data)] = data
        self.consumed += len(data)
        return len(data)


def read_sources(path: Source, encoding: str = "utf-8") -> Iterator[RecordText]:
    """The records of one source, streamed: a file (its path, as a str or a Path), `-` (standard
    input), a text stream, or text (`is_text`: the records themselves)."""
    if isinstance(path, RecordText):
        yield path
        return
    if is_text(path):
        yield from split_records([path])
        return
    if hasattr(path, "read"):
        yield from split_records(iter(lambda: path.read(CHUNK), ""), getattr(path, "name", "<stream>"))
        return
    path = os.fspath(path)
    if path == STDIN:
        yield from split_records(decoded_text(sys.stdin.buffer, "<stdin>", encoding), "<stdin>")
        return
    try:
        stream = open(path, "rb")
    except OSError as error:
        raise InputError(f"{path}: {error.strerror.lower() if error.strerror else error}") from None
    with stream:
        yield from split_records(decoded_text(stream, path, encoding), path)


def record_at(source: Source, index: int = 0, encoding: str = "utf-8") -> RecordText:
    """Record `index` (from 0) of a source, as `read_sources` reads it; ValueError when there is
    no such record, InputError when the source cannot be read."""
    found = next(islice(read_sources(source, encoding), index, None), None) if index >= 0 else None
    if found is None:
        raise ValueError(f"{'the text' if is_text(source) else source} has no record {index}")
    return found
