"""The one way from paths to reports: paths expanded (directories walked, formats found by
lusoria.formats), each source read in its format (formats.sources), each record checked
(validator.replay). A source that cannot be read, and a file of a directory in none of
lusoria's formats, come as typed items of the stream (`Problem`: `Skipped` or `Unreadable`,
each with its `.path`), in their place, and the other sources go on. lusoria.workers spreads
the checking over worker processes, the stream's order kept."""

from __future__ import annotations

import os
from typing import Callable, Iterable, Iterator, TypeVar

from lusoria.formats.sources import read_sources, walk
from lusoria.notation.reader import RecordText
from lusoria.notation.sources import PROBLEMS, InputError, Problem, Skipped, Source, Unreadable
from lusoria.validator.replay import Report, check
from lusoria.workers import mapped

T = TypeVar("T")
__all__ = ["Problem", "Skipped", "Unreadable", "found", "size", "records", "reports", "without_problems"]


def found(paths: Iterable[Source], format: str | None = None) -> list[Source | Skipped]:
    """The sources `paths` name, directories walked (`walk`; `format` forces a format), once:
    `records` takes them as they are."""
    return list(walk(paths, format))


def size(sources: Iterable[Source | Skipped]) -> int:
    """The bytes on disk of the files among `sources`: what `records` tells `progress` in all."""
    return sum(os.path.getsize(path) for path in sources
               if isinstance(path, (str, os.PathLike)) and os.path.isfile(path))


def records(paths: Iterable[Source | Skipped], encoding: str = "utf-8", format: str | None = None,
            tags: dict[str, str] | None = None,
            progress: Callable[[int], None] | None = None) -> Iterator[RecordText | Problem]:
    """Every record of `paths` (files, directories, `-`, streams or text), in order, with a
    Problem in its place for each source that cannot be read or is skipped. `format` forces
    a format (lusoria.formats); `tags` (Variant, Rules) choose the rules of tafl move lists;
    `progress` is told the bytes of each file as they are read (they add up to `size`)."""
    for path in walk(paths, format):
        if isinstance(path, Skipped):
            yield path
            continue
        try:
            yield from read_sources(path, encoding, format, tags, progress)
        except InputError as error:
            yield Unreadable(str(getattr(path, "name", path)), str(error), error.parameter)


def reports(paths: Iterable[Source | Skipped], encoding: str = "utf-8", format: str | None = None,
            tags: dict[str, str] | None = None, progress: Callable[[int], None] | None = None,
            keep: bool = True) -> Iterator[Report | Problem]:
    """`records`, each checked (`check`; `keep`: as there)."""
    return mapped(lambda record: check(record, keep=keep), records(paths, encoding, format, tags, progress))


def without_problems(items: Iterable[T | Problem], problems: list[Problem]) -> Iterator[T]:
    """The items of a stream that are not problems; those go to `problems`."""
    for item in items:
        if isinstance(item, PROBLEMS):
            problems.append(item)
        else:
            yield item
