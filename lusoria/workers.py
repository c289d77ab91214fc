"""The worker processes that check records (`validate --jobs`, `import --jobs`): `in_workers`
maps a function over a stream of records and problems in worker processes, in the stream's
order, each chunk of records (`chunks`) to the worker with the fewest left; `mapped` is the
same in this process. A worker killed ends the stream with WorkerLost; an exception in a worker
is raised here in place of its chunk's results (docs/design.md, "The way a record flows")."""

from __future__ import annotations

import gc
import os
import pickle
import select
import selectors
import signal
import sys
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from contextlib import suppress
from itertools import chain
from typing import TypeVar, overload

from lusoria.bounds import MAX_JOBS, bounded
from lusoria.errors import LusoriaError, raised_checking
from lusoria.notation.model import Record
from lusoria.notation.reader import RecordText
from lusoria.notation.sources import Problem, shown_place

T = TypeVar("T")
U = TypeVar("U")
__all__ = ["WorkerLost", "mapped", "in_workers", "chunks", "place"]

CHUNK = 64_000  # characters of records a worker takes at a time (`chunks`): few, so that the workers end
# together, not so few as to cost much (each chunk costs this process a quarter of a millisecond)
PIPE = 1 << 20  # the bytes a pipe to or from a worker holds (Linux's 64 KiB would take a chunk in two writes)
ITEM = CHUNK // 32  # what an item without a text (a problem) counts as
AHEAD = 4  # chunks sent ahead per worker: enough to keep them busy, few enough to keep memory flat
KEPT = 1 << 20  # characters of a record that a reader of another format parsed, over which it is checked in
# this process (`kept_here`): sent, its model (about 90 bytes a character) would be pickled and copied into
# a worker, which took more time and memory than the check (a 10 MB move list: 36 s and 2 GB, 11 s and 850 MB here)
YOUNG_OBJECTS = 10_000  # a worker's objects between collections of reference cycles (Python's 700: a
# chunk's results are young objects that all survive, and each collection walked them again, 8% of an import worker)


class WorkerLost(LusoriaError, RuntimeError):
    """A worker process of `in_workers` ended abruptly (killed: out of memory, or by a signal):
    what it had taken is lost, so the stream stops after the last item it gave in order."""

    def __init__(self) -> None:
        super().__init__(
            "a worker process ended abruptly (killed, perhaps for want of memory); the records "
            "after the last one reported were not checked: run again, perhaps with fewer --jobs"
        )


def mapped(function: Callable[[T], U], items: Iterable[T | Problem]) -> Iterator[U | Problem]:
    """`function` of each item of a stream that is not a problem; the problems as they are, in their
    place. An exception `function` raises on a record is noted with the record's place (`raised_checking`)."""
    for item in items:
        if isinstance(item, Problem):
            yield item
            continue
        try:
            result = function(item)
        except Exception as error:
            if isinstance(item, RecordText):
                raised_checking(error, place(item))
            raise
        yield result


def place(record: RecordText) -> str:
    """Where a record is: `path:line` (`shown_place`)."""
    return shown_place(record.path, record.line)


@overload
def in_workers(
    function: Callable[[T], U], items: Iterable[T], jobs: int, ahead: int = 0, chunk: int = CHUNK
) -> Iterator[U]: ...
@overload
def in_workers(
    function: Callable[[T], U], items: Iterable[T | Problem], jobs: int, ahead: int = 0, chunk: int = CHUNK
) -> Iterator[U | Problem]: ...
def in_workers(
    function: Callable[[T], U], items: Iterable[T | Problem], jobs: int, ahead: int = 0, chunk: int = CHUNK
) -> Iterator[U | Problem]:
    """`mapped` by `jobs` worker processes, in the order of `items`: the first item in this process
    (the workers, forked after it, inherit what it loaded: the parser, the rules, and `function`
    itself), then `chunks`, each to the worker with the fewest chunks left, while this process
    reads on, AHEAD chunks a worker or `ahead` items beyond what the caller has taken, whichever
    is more (a caller that stops to write a batch asks for a batch ahead: the workers go on
    meanwhile). A `function` that costs far more than its record's text (`lusoria rules`) asks for
    a smaller `chunk` (characters; 1: one record a chunk). One process when `jobs` is 1, where
    processes cannot be forked, or when there is one chunk in all. The items and what `function`
    returns are sent between the processes (pickled); an exception raised by `function` is raised
    here in place of its chunk's results. ValueError, when called, for `jobs` under 1 or over
    MAX_JOBS (as `--jobs` says it)."""
    return _spread(function, items, bounded(jobs, "jobs", 1, MAX_JOBS), ahead, chunk)


def _spread(
    function: Callable[[T], U], items: Iterable[T | Problem], jobs: int, ahead: int, chunk: int
) -> Iterator[U | Problem]:
    """`in_workers`, its `jobs` checked."""
    if jobs <= 1 or not hasattr(os, "fork"):
        yield from mapped(function, items)
        return
    parts = chunks(items, chunk)
    first, second = next(parts, []), next(parts, None)
    if second is None:
        yield from mapped(function, first)
        return
    yield from mapped(function, first[:1])
    rest = filter(None, _let_go([first[1:], second], parts))  # first[1:]: empty when `chunk` is small
    del first, second
    workers = _Workers()
    try:
        workers.start(function, jobs)
        if not workers.all:  # not one could be made (no memory or no file descriptors left): here, then
            yield from mapped(function, chain.from_iterable(rest))
            return
        pending: deque[tuple[_Worker, int, str | None]] = deque()  # the worker of each chunk sent, its items, its start
        waiting = 0  # the items of `pending`
        for part in rest:
            if kept_here(part[0]):  # checked while the workers go on, given after the chunks before it
                here = list(mapped(function, part))
                while pending:
                    worker, _, start = pending.popleft()
                    yield from workers.receive(worker, start)
                waiting = 0
                yield from here
                continue
            workers.exchange(0)
            worker = min(workers.all, key=lambda candidate: candidate.load)
            workers.send(worker, part)
            pending.append((worker, len(part), _start(part)))
            waiting += len(part)
            if len(pending) > AHEAD * jobs and waiting - pending[0][1] >= ahead:
                worker, taken, start = pending.popleft()
                waiting -= taken
                yield from workers.receive(worker, start)
        while pending:
            worker, _, start = pending.popleft()
            yield from workers.receive(worker, start)
    finally:
        workers.stop()


class _Worker:
    """A worker process, forked (it never returns into its parent's code), and the ends of its
    two pipes this process keeps: `tasks` (chunks to it) and `results` (what it sends back). It
    joins `pool` as soon as it is forked; Ctrl-C waits until then (a worker no one would stop), and SIGTERM
    until the worker ends on it (`_start_worker`: a handler of its parent's, `html --output-dir`'s, would run its
    parent's code in it)."""

    def __init__(self, function: Callable, pool: list[_Worker]) -> None:
        self.outgoing, self.incoming = bytearray(), bytearray()  # what waits to be written, what is read of a result
        self.done: deque[bytearray] = deque()  # results read whole, not yet taken
        self.load = 0  # chunks sent whose results have not come
        self.lost = False  # it ended before its last result came: what it had not sent is lost
        ends: list[int] = []
        parent = os.getpid()
        unblocked = signal.pthread_sigmask(signal.SIG_BLOCK, [])  # the mask as it is
        try:
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})  # (till a worker has its own)
            ends += os.pipe()
            ends += os.pipe()
            self.pid = os.fork()
        except BaseException:  # the system gives no more (or a signal came): nothing of this one is left open
            if os.getpid() != parent:  # a signal's handler raised in the worker, just forked
                os._exit(1)
            for fd in ends:
                os.close(fd)
            signal.pthread_sigmask(signal.SIG_SETMASK, unblocked)
            raise
        tasks, self.tasks, self.results, results = ends
        if self.pid == 0:
            status = 1
            try:
                _start_worker(parent)  # Ctrl-C ignored first
                signal.pthread_sigmask(signal.SIG_SETMASK, unblocked)
                for fd in [self.tasks, self.results, *(fd for other in pool for fd in (other.tasks, other.results))]:
                    os.close(fd)
                _serve(function, tasks, results)
                status = 0
            finally:
                os._exit(status)
        pool.append(self)
        os.close(tasks)
        os.close(results)
        signal.pthread_sigmask(signal.SIG_SETMASK, unblocked)
        for fd in (self.tasks, self.results):
            os.set_blocking(fd, False)
            if sys.platform == "linux":  # a pipe that holds a chunk whole: it goes in one write
                import fcntl

                try:
                    fcntl.fcntl(fd, 1031, PIPE)  # F_SETPIPE_SZ
                except OSError:
                    pass


class _Workers:
    """The worker processes of `in_workers`. Each chunk and each chunk's results go through a
    pipe as their length (8 bytes) and their pickle. No pipe blocks this process: what cannot be
    written yet waits, and results are read as they come, from every worker, so that no two
    processes ever wait for each other, and each new chunk goes to the worker with the fewest
    left to do. No threads: they would contend with this process for its lock (a pool of
    `concurrent.futures` cost a third more of this process's time, BENCHMARKS.md, session 10)."""

    def __init__(self) -> None:
        self.all: list[_Worker] = []
        self.selector = selectors.DefaultSelector()  # the workers inherit it and never use it (nothing is
        # registered before they are forked); the pipes are registered once they are

    def start(self, function: Callable, jobs: int) -> None:
        """Fork `jobs` workers, or as many as the system gives."""
        for _ in range(jobs):
            try:
                _Worker(function, self.all)
            except OSError:
                break
        for worker in self.all:
            self.selector.register(worker.results, selectors.EVENT_READ, worker)

    def send(self, worker: _Worker, chunk: list) -> None:
        waited = bool(worker.outgoing)
        worker.outgoing += _message(chunk)
        worker.load += 1
        if not waited:  # write now, or once the pipe can take it
            self._write(worker)
            if worker.outgoing:
                self.selector.register(worker.tasks, selectors.EVENT_WRITE, worker)

    def receive(self, worker: _Worker, start: str | None) -> list:
        """The results of `worker`'s oldest chunk, which starts at the record `start` (exchanging
        with every worker meanwhile): WorkerLost if it ended before sending them, once the results
        before them are taken; the exception the chunk raised, noted with its record or `start`."""
        while not worker.done:
            if worker.lost:
                raise WorkerLost()
            self.exchange(None)
        done, found = pickle.loads(worker.done.popleft())
        if not done:
            raise found if start is None else raised_checking(found, f"{start} or a record after it")
        return found

    def exchange(self, timeout: float | None) -> None:
        """Write what waits to go to the workers and read what they sent, as far as the pipes
        take it now (`timeout` 0), or once at least one can (None). A worker is lost when its
        results end (what it sent before it ended is read first)."""
        selector = self.selector
        for key, _ in selector.select(timeout):
            worker = key.data
            if key.fd not in selector.get_map():  # a key of this round that an earlier one let go
                continue
            if key.fd == worker.tasks:
                self._write(worker)
                continue
            data = os.read(worker.results, PIPE)
            if not data:
                worker.lost = True
                selector.unregister(worker.results)
                continue
            worker.incoming += data
            for message in _messages(worker.incoming):
                worker.done.append(message)
                worker.load -= 1

    def _write(self, worker: _Worker) -> None:
        """What waits to go to `worker`, as far as its pipe takes it; all of it dropped if
        nothing reads that pipe any more (the worker ended: its results tell)."""
        if _write(worker.tasks, worker.outgoing) is None:
            worker.outgoing.clear()
        if not worker.outgoing and worker.tasks in self.selector.get_map():
            self.selector.unregister(worker.tasks)

    def stop(self) -> None:
        """End every worker and wait for it: killed, since what it could still send would not be
        read (another stream's workers, forked meanwhile, may hold its pipes open: it would
        never see their end), with its pipes closed."""
        self.selector.close()
        for worker in self.all:
            with suppress(OSError):  # one already gone (another part of the program waited for it)
                os.kill(worker.pid, signal.SIGKILL)
            os.close(worker.tasks)
            os.close(worker.results)
        for worker in self.all:
            with suppress(OSError):
                os.waitpid(worker.pid, 0)


def _serve(function: Callable, tasks: int, results: int) -> None:
    """A worker's life: each chunk read from `tasks`, `mapped`, and its results (or the exception
    raised, or one that says what it was if it cannot be pickled) written to `results`, until its
    parent closes `tasks`. Results that the pipe cannot take yet wait here while the worker goes
    on with the chunks it has (its parent may be busy: an import writing a batch)."""
    os.set_blocking(results, False)
    incoming, outgoing = bytearray(), bytearray()
    reading = True
    while reading or outgoing:
        for message in _messages(incoming):
            try:
                outgoing += _message((True, list(mapped(function, pickle.loads(message)))))
            except Exception as error:
                outgoing += _failure(error)
            if _write(results, outgoing) is None:
                return  # its parent is gone
        watch = select.poll()
        if reading:
            watch.register(tasks, select.POLLIN)
        if outgoing:
            watch.register(results, select.POLLOUT)
        for fd, _ in watch.poll():
            if fd == results:
                if _write(results, outgoing) is None:
                    return
            else:
                data = os.read(tasks, PIPE)
                reading = bool(data)
                incoming += data


def _failure(error: Exception) -> bytes:
    """The message of a chunk whose function raised `error` (or whose results could not be
    pickled): `error` with the worker's traceback as a note, or, if it cannot be pickled and
    read back, a RuntimeError that says what it was."""
    import traceback

    trace = "".join(traceback.format_exception(error)).rstrip()
    try:
        error.add_note("in a worker process:\n" + trace)
        message = _message((False, error))
        pickle.loads(message[8:])
        return message
    except Exception:
        return _message((False, RuntimeError(trace)))


def _message(value: object) -> bytes:
    """`value` as it goes through a pipe: the length of its pickle (8 bytes), then the pickle."""
    data = pickle.dumps(value, pickle.HIGHEST_PROTOCOL)
    return len(data).to_bytes(8, "little") + data


def _messages(buffer: bytearray) -> Iterator[bytearray]:
    """The whole messages at the start of `buffer` (`_message`), taken out of it one by one."""
    while len(buffer) >= 8 and len(buffer) >= 8 + (size := int.from_bytes(buffer[:8], "little")):
        message = buffer[8 : 8 + size]
        del buffer[: 8 + size]
        yield message


def _write(fd: int, buffer: bytearray) -> int | None:
    """As much of `buffer` as the pipe `fd` takes now, taken out of it: how much (None if the
    other end is gone)."""
    try:
        written = os.write(fd, buffer)
    except BlockingIOError:
        return 0
    except BrokenPipeError:
        return None
    del buffer[:written]
    return written


def _start(chunk: list) -> str | None:
    """The place of a chunk's first record (`place`), if it holds one."""
    first = next((item for item in chunk if isinstance(item, RecordText)), None)
    return None if first is None else place(first)


def _let_go(taken: list[list[T]], parts: Iterator[list[T]]) -> Iterator[list[T]]:
    """The chunks `taken`, then `parts`, none kept here once given (the records of a chunk sent
    stayed alive as long as the stream did)."""
    while taken:
        yield taken.pop(0)
    yield from parts


def kept_here(item: object) -> bool:
    """Whether `item` is a record that `in_workers` checks in this process: one over KEPT characters
    that carries the model its reader made (an lgn record's text is sent and parsed in the worker)."""
    return isinstance(item, RecordText) and isinstance(item.parsed, Record) and len(item.text) > KEPT


def chunks(items: Iterable[T], size: int = CHUNK) -> Iterator[list[T]]:
    """`items` in runs of about `size` characters: a record counts its text, anything else ITEM; a
    record `kept_here` is a chunk alone."""
    chunk: list[T] = []
    taken = 0
    for item in items:
        if kept_here(item):
            if chunk:
                yield chunk
            yield [item]
            chunk, taken = [], 0
            continue
        chunk.append(item)
        taken += len(item.text) if isinstance(item, RecordText) else ITEM
        if taken >= size:
            yield chunk
            chunk, taken = [], 0
    if chunk:
        yield chunk


def _start_worker(parent: int) -> None:
    """A worker leaves Ctrl-C to its parent (which stops the pool), ends on SIGTERM (a handler of
    its parent's would run its parent's code), collects cyclic garbage, and ends when the parent
    does, even killed (on Linux)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    gc.enable()  # its parent may have paused it for itself (archive/importer.py)
    gc.set_threshold(YOUNG_OBJECTS, *gc.get_threshold()[1:])
    if sys.platform == "linux":
        import ctypes

        ctypes.CDLL(None).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
        if os.getppid() != parent:  # it died before that
            os._exit(1)
