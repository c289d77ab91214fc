"""The one way from paths to reports: paths expanded (directories walked, formats found by
lusoria.formats), each source read and decoded (notation.sources), each record checked
(validator.replay). A source that cannot be read, and a file of a directory in none of
lusoria's formats, come as typed items of the stream (`Problem`: `Skipped` or `Unreadable`,
each with its `.path`), in their place, and the other sources go on. `in_workers` spreads the
checking over worker processes, the stream's order kept (WorkerLost if one is killed)."""

from __future__ import annotations

import gc
import os
import signal
import sys
from collections import deque
from itertools import chain
from typing import TYPE_CHECKING, Callable, Iterable, Iterator, TypeVar

from lusoria.notation.reader import RecordText
from lusoria.notation.sources import PROBLEMS, InputError, Problem, Skipped, Source, Unreadable, read_sources, walk
from lusoria.validator.replay import Report, check

if TYPE_CHECKING:
    from concurrent.futures import Future

T = TypeVar("T")
U = TypeVar("U")
__all__ = ["Problem", "Skipped", "Unreadable", "WorkerLost", "found", "size", "records", "reports", "mapped",
           "in_workers", "chunks", "without_problems"]

CHUNK = 64_000  # characters of records a worker takes at a time (`chunks`): few, so that the workers end
# together, not so few as to cost much (each chunk costs this process a quarter of a millisecond)
ITEM = CHUNK // 32  # what an item without a text (a problem) counts as
AHEAD = 4  # chunks sent ahead per worker: enough to keep them busy, few enough to keep memory flat
YOUNG_OBJECTS = 10_000  # a worker's objects between collections of reference cycles (Python's 700: a
# chunk's results are young objects that all survive, and each collection walked them again, 8% of an import worker)


class WorkerLost(RuntimeError):
    """A worker process of `in_workers` ended abruptly (killed: out of memory, or by a signal):
    what it had taken is lost, so the stream stops after the last item it gave in order."""

    def __init__(self) -> None:
        super().__init__("a worker process ended abruptly (killed, perhaps for want of memory); the records "
                         "after the last one reported were not checked: run again, perhaps with fewer --jobs")


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


def mapped(function: Callable[[T], U], items: Iterable[T | Problem]) -> Iterator[U | Problem]:
    """`function` of each item of a stream that is not a problem; the problems as they are, in their place."""
    for item in items:
        yield item if isinstance(item, PROBLEMS) else function(item)


def in_workers(function: Callable[[T], U], items: Iterable[T | Problem], jobs: int,
               ahead: int = 0) -> Iterator[U | Problem]:
    """`mapped` by `jobs` worker processes, in the order of `items`: the first item in this process
    (the workers, forked after it, inherit what it loaded: the parser, the rules), then `chunks`,
    each in a worker, while this process reads on, AHEAD chunks a worker or `ahead` items beyond
    what the caller has taken, whichever is more (a caller that stops to write a batch asks for a
    batch ahead: the workers go on meanwhile). One process when `jobs` is 1 or there is one chunk
    in all. `function` is sent to the workers: a module-level function, or a `functools.partial`
    of one; so are the items and what it returns."""
    if jobs <= 1:
        yield from mapped(function, items)
        return
    parts = chunks(items)
    first, second = next(parts, []), next(parts, None)
    if second is None:
        yield from mapped(function, first)
        return
    yield from mapped(function, first[:1])
    import multiprocessing  # here, not at start-up: only a pool needs them
    from concurrent.futures import ProcessPoolExecutor

    from concurrent.futures.process import BrokenProcessPool

    pool = ProcessPoolExecutor(jobs, multiprocessing.get_context("fork"), initializer=_start_worker,
                               initargs=(os.getpid(),))
    try:
        pending: deque[tuple[int, Future[list[U | Problem]]]] = deque()  # each with its number of items
        waiting = 0  # the items of `pending`
        for chunk in chain([first[1:], second], parts):
            pending.append((len(chunk), pool.submit(_mapped_chunk, function, chunk)))
            waiting += len(chunk)
            if len(pending) > AHEAD * jobs and waiting - pending[0][0] >= ahead:
                taken, future = pending.popleft()
                waiting -= taken
                yield from future.result()
        while pending:
            yield from pending.popleft()[1].result()
    except BrokenProcessPool:
        raise WorkerLost() from None
    finally:
        pool.shutdown(cancel_futures=True)


def chunks(items: Iterable[T]) -> Iterator[list[T]]:
    """`items` in runs of about CHUNK characters: a record counts its text, anything else ITEM."""
    chunk: list[T] = []
    size = 0
    for item in items:
        chunk.append(item)
        size += len(item.text) if isinstance(item, RecordText) else ITEM
        if size >= CHUNK:
            yield chunk
            chunk, size = [], 0
    if chunk:
        yield chunk


def _mapped_chunk(function: Callable[[T], U], chunk: list[T | Problem]) -> list[U | Problem]:
    return list(mapped(function, chunk))


def _start_worker(parent: int) -> None:
    """A worker leaves Ctrl-C to its parent (which stops the pool), collects cyclic garbage, and
    ends when the parent does, even killed (on Linux)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    gc.enable()  # its parent may have paused it for itself (archive/importer.py)
    gc.set_threshold(YOUNG_OBJECTS, *gc.get_threshold()[1:])
    if sys.platform == "linux":
        import ctypes

        ctypes.CDLL(None).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
        if os.getppid() != parent:  # it died before that
            os._exit(1)


def without_problems(items: Iterable[T | Problem], problems: list[Problem]) -> Iterator[T]:
    """The items of a stream that are not problems; those go to `problems`."""
    for item in items:
        if isinstance(item, PROBLEMS):
            problems.append(item)
        else:
            yield item
