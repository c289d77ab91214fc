"""Where records come from: files, directories of `*.lgn` files, standard input."""

from __future__ import annotations

import codecs
import io
import sys
from pathlib import Path
from typing import BinaryIO, Iterable, Iterator

from lusoria.notation.reader import RecordText, split_records

STDIN = "-"


class InputError(Exception):
    """A source that cannot be read at all (missing, unreadable, wrongly encoded)."""


def expand(paths: Iterable[str]) -> Iterator[str]:
    """Files as given; directories searched recursively for `*.lgn`, in sorted order."""
    for path in paths:
        if path != STDIN and Path(path).is_dir():
            yield from (str(p) for p in sorted(Path(path).rglob("*.lgn")) if p.is_file())
        else:
            yield path


CHUNK = 1 << 20  # characters decoded at a time


def decoded_text(stream: BinaryIO, path: str, encoding: str = "utf-8") -> Iterator[str]:
    """The stream as pieces of text with `\\n` line ends (CRLF and CR too); a leading
    BOM is dropped. Bytes that do not decode are an InputError naming their offset."""
    try:
        codec = "utf-8-sig" if codecs.lookup(encoding).name == "utf-8" else encoding
        counted = _Counting(stream)
        text = io.TextIOWrapper(counted, codec, newline=None)
    except LookupError as error:
        raise InputError(f"{path}: {error}") from None
    try:
        yield from iter(lambda: text.read(CHUNK), "")
    except OSError as error:
        raise InputError(f"{path}: {error.strerror.lower() if error.strerror else error}") from None
    except UnicodeDecodeError as error:
        before = counted.last[:counted.last.find(error.object[:16]) + error.start] \
            if error.object[:16] in counted.last else b""
        offset = counted.consumed - len(counted.last) + len(before)
        line = counted.lines + before.count(b"\n") + 1
        raise InputError(f"{path}: byte {offset} (line {line}) is not valid {encoding}; "
                         "try --encoding latin-1 or cp1252") from None
    except UnicodeError as error:  # e.g. utf-16 without a byte-order mark
        raise InputError(f"{path}: not valid {encoding}: {error}") from None


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


def read_sources(path: str, encoding: str = "utf-8") -> Iterator[RecordText]:
    """The records of one file (or `-`, standard input), streamed."""
    if path == STDIN:
        yield from split_records(decoded_text(sys.stdin.buffer, "<stdin>", encoding), "<stdin>")
        return
    try:
        stream = open(path, "rb")
    except OSError as error:
        raise InputError(f"{path}: {error.strerror.lower() if error.strerror else error}") from None
    with stream:
        yield from split_records(decoded_text(stream, path, encoding), path)
