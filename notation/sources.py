"""Where records come from: files, directories of `*.lgn` files, standard input."""

from __future__ import annotations

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


def decoded_lines(stream: BinaryIO, path: str, encoding: str = "utf-8") -> Iterator[str]:
    """The stream's lines as text with `\\n` line ends (CRLF and CR too); a leading
    BOM is dropped. A byte that does not decode is an InputError naming its offset."""
    offset = 0
    for number, raw in enumerate(stream):
        if number == 0 and raw.startswith(b"\xef\xbb\xbf") and encoding.replace("-", "").lower() == "utf8":
            raw, offset = raw[3:], 3
        try:
            text = raw.decode(encoding)
        except UnicodeDecodeError as error:
            raise InputError(f"{path}: byte {offset + error.start} (line {number + 1}) is not valid "
                             f"{encoding}; try --encoding latin-1 or cp1252") from None
        offset += len(raw)
        if "\r" in text:
            yield from text.replace("\r\n", "\n").replace("\r", "\n").splitlines(keepends=True)
        else:
            yield text


def read_sources(path: str, encoding: str = "utf-8") -> Iterator[RecordText]:
    """The records of one file (or `-`, standard input), streamed."""
    if path == STDIN:
        yield from split_records(decoded_lines(sys.stdin.buffer, "<stdin>", encoding), "<stdin>")
        return
    try:
        stream = open(path, "rb")
    except OSError as error:
        raise InputError(f"{path}: {error.strerror.lower() if error.strerror else error}") from None
    with stream:
        yield from split_records(decoded_lines(stream, path, encoding), path)
