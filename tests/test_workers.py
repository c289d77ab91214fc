"""The worker processes (lusoria/workers.py): the stream's order and its problems kept, the first
item in this process, chunks by the characters of their records, an exception raised here in
its chunk's place (one that cannot be pickled said), a worker killed (WorkerLost), refused by
the system, or left behind by a caller that stops, or by one killed; pipes of any size; two pools at once."""

import gc
import itertools
import os
import signal
import subprocess
import sys
import time
import weakref

import pytest

from lusoria import workers
from lusoria.notation.model import Line, Record
from lusoria.notation.reader import RecordText
from lusoria.notation.sources import Skipped

pytestmark = pytest.mark.usefixtures("deadline")
TESTS = os.getpid()  # the process of the tests, which a worker that dies on purpose must not be


def checked_where(item: int) -> tuple[int, int, bool]:
    """An item, the process that took it, and whether that process leaves Ctrl-C to its parent."""
    return item, os.getpid(), signal.getsignal(signal.SIGINT) == signal.SIG_IGN


@pytest.fixture
def interruptible():
    """Ctrl-C as a terminal's foreground process has it: a shell's background job (`pytest &`)
    starts with SIGINT ignored, which this process, taking the first chunk, would then show."""
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, before)


@pytest.mark.usefixtures("interruptible")
def test_workers_keep_the_order_and_the_problems_in_their_place():
    skipped = Skipped("notes.txt", "not a record file")
    items = [*range(40), skipped, *range(40, 100)]
    results = list(workers.in_workers(checked_where, items, 2))
    assert results[40] == skipped
    taken = [result for result in results if result != skipped]
    assert [item for item, _, _ in taken] == list(range(100))
    assert taken[0][1:] == (os.getpid(), False)  # the first item here: the workers inherit what it loaded
    assert os.getpid() not in {pid for _, pid, _ in taken[1:]} and all(ignores for _, _, ignores in taken[1:])


@pytest.mark.parametrize("ahead", [0, 20])
def test_the_pool_reads_ahead_items_beyond_those_taken_or_ahead_chunks_a_worker_whichever_is_more(ahead):
    """One item a chunk (`chunk=1`): when the caller takes its second result, the pool has read
    AHEAD chunks a worker past it, or `ahead` items past what the caller took, whichever is more."""
    read = []

    def items():
        for item in range(100):
            read.append(item)
            yield item

    results = workers.in_workers(checked_where, items(), 2, ahead, chunk=1)
    try:
        assert [next(results)[0], next(results)[0]] == [0, 1]
        assert len(read) == 2 + max(workers.AHEAD * 2, ahead)
    finally:
        results.close()


def test_a_worker_whose_parent_is_gone_leaves_the_chunks_it_holds():
    """A worker (`_serve`, run here) whose parent closed its end of the results pipe stops at the
    first results it cannot send, not after working on the chunks already read."""
    taken: list[int] = []
    tasks, to_tasks = os.pipe()
    from_results, results = os.pipe()
    for chunk in ([1, 2], [3], [4]):
        os.write(to_tasks, workers._message(chunk))
    os.close(to_tasks)
    os.close(from_results)
    try:
        workers._serve(taken.append, tasks, results)
    finally:
        os.close(tasks)
        os.close(results)
    assert taken == [1, 2]


def collecting(item: int) -> tuple[bool, int]:
    """Whether the process that took an item collects reference cycles, and how often."""
    return gc.isenabled(), gc.get_threshold()[0]


def test_workers_collect_cycles_even_where_their_parent_paused_it():
    gc.disable()
    try:
        collected = list(workers.in_workers(collecting, range(100), 2))
    finally:
        gc.enable()
    assert collected[0] == (False, gc.get_threshold()[0])  # the first item here, the others in workers
    assert set(collected[1:]) == {(True, workers.YOUNG_OBJECTS)}


def test_one_job_or_one_chunk_stays_in_this_process():
    for items, jobs in ((range(100), 1), (range(workers.CHUNK // workers.ITEM), 2)):
        assert {pid for _, pid, _ in workers.in_workers(checked_where, items, jobs)} == {os.getpid()}
    assert (
        len({pid for _, pid, _ in workers.in_workers(checked_where, range(workers.CHUNK // workers.ITEM + 1), 2)}) > 1
    )


@pytest.mark.usefixtures("interruptible")
def test_workers_the_system_refuses_leave_the_chunks_to_those_it_gave(monkeypatch):
    # out of processes or file descriptors: the workers made take every chunk; with none, this process does
    made = []

    def second_refused(function, others):
        if len(made) == 1:
            raise OSError(24, "Too many open files")
        made.append(worker := real(function, others))
        return worker

    real = workers._Worker
    monkeypatch.setattr(workers, "_Worker", second_refused)
    taken = list(workers.in_workers(checked_where, range(200), 3))
    assert [item for item, _, _ in taken] == list(range(200))
    assert len({pid for _, pid, _ in taken[1:]}) == 1 and taken[1][1] != os.getpid()
    monkeypatch.setattr(workers, "_Worker", real)
    monkeypatch.setattr(os, "fork", lambda: (_ for _ in ()).throw(OSError(11, "Resource temporarily unavailable")))
    open_before = len(os.listdir("/dev/fd"))
    assert list(workers.in_workers(checked_where, range(200), 2)) == [(item, os.getpid(), False) for item in range(200)]
    assert len(os.listdir("/dev/fd")) == open_before  # the pipes of the workers refused are closed


def test_sigint_and_sigterm_wait_while_a_worker_is_forked(monkeypatch):
    """SIGTERM as a worker was forked, before it set its own way to end on it: the parent's handler
    (`html --output-dir`'s, which lists the pages written) ran the parent's code in the worker."""
    masks = []

    def fork():
        masks.append(signal.pthread_sigmask(signal.SIG_BLOCK, []))
        return real()

    real = os.fork
    monkeypatch.setattr(os, "fork", fork)
    assert [item for item, _, _ in workers.in_workers(checked_where, range(200), 2)] == list(range(200))
    assert masks and all({signal.SIGINT, signal.SIGTERM} <= mask for mask in masks)
    assert signal.SIGTERM not in signal.pthread_sigmask(signal.SIG_BLOCK, [])


def failing(item: int) -> int:
    """An item; item 50 raises ValueError."""
    if item == 50:
        raise ValueError("item 50")
    return item


def test_an_exception_in_a_worker_is_raised_here_in_its_place():
    # in place of its chunk's results: the items before that chunk come, in order; the worker's
    # traceback comes as a note
    taken: list[int] = []
    with pytest.raises(ValueError, match="item 50") as raised:
        for item in workers.in_workers(failing, range(200), 2):
            taken.append(item)
    assert taken == list(range(32))
    assert "in a worker process" in raised.value.__notes__[0] and "in failing" in raised.value.__notes__[0]


class Unpicklable(Exception):
    """An exception that cannot be pickled (it holds a lambda)."""

    def __init__(self) -> None:
        super().__init__("cannot travel")
        self.callback = lambda: None


def failing_unpicklably(item: int) -> object:
    """An item; item 50 raises an exception that cannot be pickled, item 120 returns a lambda."""
    if item == 50:
        raise Unpicklable()
    return (lambda: None) if item == 120 else item


def test_what_cannot_be_pickled_back_is_said_not_taken_for_a_lost_worker():
    for items, said in ((range(100), "Unpicklable: cannot travel"), (range(100, 200), "Can't pickle")):
        with pytest.raises(Exception, match=said) as raised:
            list(workers.in_workers(failing_unpicklably, items, 2))
        assert not isinstance(raised.value, workers.WorkerLost)


class NotReadBack(Exception):
    """An exception that pickles but does not unpickle: pickle calls its class with its `args`
    (one message), and its `__init__` takes two arguments."""

    def __init__(self, code: int, where: str) -> None:
        super().__init__(f"code {code} at {where}")


def failing_unreadably(item: int) -> int:
    if item == 50:
        raise NotReadBack(7, "item 50")
    return item


def test_an_exception_that_pickles_but_is_not_read_back_is_said():
    # (issue 41) the worker reads its failure back before it sends it: else the parent failed on it
    taken: list[int] = []
    with pytest.raises(RuntimeError, match="NotReadBack: code 7 at item 50") as raised:
        for item in workers.in_workers(failing_unreadably, range(100), 2):
            taken.append(item)
    assert not isinstance(raised.value, workers.WorkerLost) and taken == list(range(32))


def big(item: int) -> bytes:
    """An item's length (a record's text), or 300,000 bytes for an int."""
    return bytes(len(item.text)) if isinstance(item, RecordText) else bytes([item % 256]) * 300_000


def test_chunks_and_results_larger_than_a_pipe_go_through_it_in_parts():
    # a chunk of a 3 MB record, and a chunk's results of 9.6 MB, while this process takes its time
    records = [RecordText("x" * 3_000_000), *[RecordText("y" * 100)] * 700, RecordText("z" * 3_000_000)]
    assert [len(result) for result in workers.in_workers(big, records, 2)] == [3_000_000, *[100] * 700, 3_000_000]
    stream = workers.in_workers(big, range(200), 2)
    first = next(stream)
    time.sleep(0.5)  # the workers fill their pipes, and keep the rest
    assert [first, *stream] == [bytes([item % 256]) * 300_000 for item in range(200)]


def test_two_streams_of_workers_at_once_end_both():
    # each stream's workers inherit the other's pipes: a stream that ends does not wait for them
    both = list(zip(workers.in_workers(checked_where, range(300), 2), workers.in_workers(collecting, range(300), 2)))
    assert [item for (item, _, _), _ in both] == list(range(300))


def test_a_caller_that_stops_early_leaves_no_worker_behind():
    stream = workers.in_workers(checked_where, range(1000), 2)
    pids = {pid for _, pid, _ in itertools.islice(stream, 100)} - {os.getpid()}
    stream.close()
    assert pids
    for pid in pids:
        with pytest.raises(ChildProcessError):  # ended, and waited for: no zombie
            os.waitpid(pid, os.WNOHANG)


def test_a_stream_that_ends_closes_both_pipes_of_each_worker():
    """h82a: a stream read to its end, or closed early, leaves no pipe of its workers open here (each
    pool's two pipes a worker, kept open, ran a long import out of file descriptors)."""
    open_before = len(os.listdir("/dev/fd"))
    assert [item for item, _, _ in workers.in_workers(checked_where, range(200), 2)] == list(range(200))
    assert len(os.listdir("/dev/fd")) == open_before
    stream = workers.in_workers(checked_where, range(1000), 2)
    assert len(list(itertools.islice(stream, 100))) == 100
    stream.close()
    assert len(os.listdir("/dev/fd")) == open_before


def test_no_pipe_to_a_worker_blocks_this_process(monkeypatch):
    """h82a: each chunk goes to its worker as far as the pipe takes it now, the rest waiting its turn:
    the pipes this process writes to are non-blocking (a blocking one held this process on one busy
    worker while the others' results waited)."""
    blocking = []
    write = workers._write

    def watched(fd, buffer):
        blocking.append((os.getpid(), os.get_blocking(fd)))
        return write(fd, buffer)

    monkeypatch.setattr(workers, "_write", watched)
    records = [RecordText("x" * 100_000) for _ in range(40)]
    assert [len(result) for result in workers.in_workers(big, records, 2)] == [100_000] * 40
    assert {mode for pid, mode in blocking if pid == os.getpid()} == {False}


def test_a_chunk_is_about_chunk_characters_of_records():
    # a worker takes records by their length, so that a chunk of short records costs about what one
    # of long records does; anything else counts as ITEM characters
    short, long = RecordText("x" * 1000), RecordText("x" * (workers.CHUNK // 2))
    skipped = Skipped("notes.txt", "not a record file")
    sizes = [len(chunk) for chunk in workers.chunks([short] * 130 + [long] * 4 + [skipped] * 40)]
    assert sizes == [64, 64, 2 + 2, 2, 32, 8]
    assert [len(chunk) for chunk in workers.chunks([])] == []
    assert [len(chunk) for chunk in workers.chunks([short, long, skipped], 1)] == [1, 1, 1]  # one item a chunk
    assert [len(chunk) for chunk in workers.chunks([RecordText("x")] * 6, 3)] == [3, 3]  # each counted from 0


def test_a_stream_of_chunks_of_one_item_goes_to_the_workers_in_order():
    # a function that costs far more than its items' text (`lusoria rules`) asks for one item a
    # chunk: a few short records, one chunk of CHUNK characters, would all be taken by one process
    items = [RecordText(f"record {n}") for n in range(6)]
    taken = list(workers.in_workers(lambda item: (item.text, os.getpid()), items, 2, chunk=1))
    assert [text for text, _ in taken] == [item.text for item in items]
    assert taken[0][1] == os.getpid() and os.getpid() not in {pid for _, pid in taken[1:]}
    assert {pid for _, pid in workers.in_workers(lambda item: (item.text, os.getpid()), items, 2)} == {os.getpid()}


def dying(item: int) -> int:
    """An item; the worker process that takes item 50 is killed (as by the kernel, out of memory),
    before the one that takes item 1 is done (it waits a little)."""
    if item == 1:
        time.sleep(0.3)
    if item == 50 and os.getpid() != TESTS:
        os.kill(os.getpid(), signal.SIGKILL)
    return item


def test_a_killed_worker_stops_the_stream_after_what_came_in_order():
    taken: list[int] = []
    try:
        for item in workers.in_workers(dying, range(200), 2):
            taken.append(item)
    except workers.WorkerLost as lost:
        assert "a worker process ended abruptly" in str(lost) and "--jobs" in str(lost)
    else:
        raise AssertionError("no WorkerLost")
    assert taken == list(range(32))  # what came before the chunk of the killed worker


def dying_record(record: RecordText) -> int:
    """A record's length; the worker process that takes a record that begins "die" is killed, after a while."""
    if record.text.startswith("die") and os.getpid() != TESTS:
        time.sleep(0.3)
        os.kill(os.getpid(), signal.SIGKILL)
    return len(record.text)


def test_a_worker_killed_while_a_chunk_waits_to_go_to_it_is_lost_as_any():
    # while it waits, a chunk of 3 MB is sent to it, more than its pipe takes; then it is killed
    big = RecordText("x" * 3_000_000)
    records = [RecordText("a"), RecordText("die" + "." * workers.CHUNK), big, big, *[RecordText("y" * 100)] * 2000]
    with pytest.raises(workers.WorkerLost):
        list(workers.in_workers(dying_record, records, 2))


KILLED_PARENT = """
import os, time
from lusoria import workers
PARENT = os.getpid()

def waiting(item):
    if item == 1 and os.getpid() != PARENT:
        print(os.getpid(), flush=True)
        time.sleep(60)
    return item

for _ in workers.in_workers(waiting, range(100), 2):
    pass
"""


def ended(pid: int) -> bool:
    """Whether a process is gone or a zombie (ended, its new parent has not reaped it yet)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rpartition(")")[2].split()[0] == "Z"
    except FileNotFoundError:
        return True


@pytest.mark.skipif(sys.platform != "linux", reason="a worker ends with its parent on Linux (PR_SET_PDEATHSIG)")
def test_a_worker_ends_when_its_parent_is_killed():
    parent = subprocess.Popen([sys.executable, "-c", KILLED_PARENT], stdout=subprocess.PIPE, text=True)
    worker = int(parent.stdout.readline())
    parent.kill()
    parent.wait()
    parent.stdout.close()
    for _ in range(100):
        if ended(worker):
            break
        time.sleep(0.1)
    assert ended(worker)


@pytest.mark.skipif(sys.platform != "linux", reason="a worker ends with its parent on Linux (PR_SET_PDEATHSIG)")
def test_a_worker_whose_parent_ended_before_it_was_set_to_end_with_it_ends_at_once():
    """Its parent is not the one it was forked by (-1: no process's): that one is gone, status 1."""
    pid = os.fork()
    if pid == 0:
        try:
            workers._start_worker(-1)
        finally:
            os._exit(0)
    assert os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) == 1


def test_workers_not_started_exchange_nothing_and_stop():
    """Their selector was made by `start`, and asked for through an assert: one not started failed it."""
    pool = workers._Workers()
    pool.exchange(0)
    pool.stop()
    assert pool.all == [] and pool.selector.get_map() is None  # closed


def parsed_record(characters: int) -> RecordText:
    """A record of `characters` characters with the model a reader of another format made of it."""
    return RecordText("x" * characters, format="tafl", parsed=Record({}, Line(), "*"))


@pytest.mark.usefixtures("interruptible")
def test_a_record_a_reader_parsed_over_kept_characters_is_checked_here_in_its_place():
    # sent, its model would be pickled and copied into a worker: a 10 MB move list among other games
    # took 36 s and 2 GB where alone it took 11 s and 850 MB
    small = [RecordText(f"record {n}") for n in range(8)]
    items = [*small[:4], parsed_record(workers.KEPT + 1), parsed_record(workers.KEPT), *small[4:]]
    taken = list(workers.in_workers(lambda item: (len(item.text), os.getpid()), items, 2, chunk=1))
    assert [length for length, _ in taken] == [len(item.text) for item in items]
    assert [pid == os.getpid() for _, pid in taken] == [
        True,
        False,
        False,
        False,
        True,
        False,
        False,
        False,
        False,
        False,
    ]
    assert [len(chunk) for chunk in workers.chunks([*small, parsed_record(workers.KEPT + 1), *small])] == [8, 1, 8]
    assert not workers.kept_here(RecordText("x" * (workers.KEPT + 1)))  # lgn: its text is sent, parsed there


class Item:
    """An item a weak reference can watch."""

    def __init__(self, number: int) -> None:
        self.number = number


@pytest.mark.usefixtures("interruptible")
def test_a_chunk_sent_to_a_worker_is_not_kept_here():
    # the first two chunks stayed alive as long as the stream: a huge record among them, all along
    sent: list[weakref.ref[Item]] = []

    def items():
        for n in range(40):
            item = Item(n)
            sent.append(weakref.ref(item))
            yield item

    results = workers.in_workers(lambda item: item.number, items(), 2, chunk=1)
    try:
        assert [next(results) for _ in range(20)] == list(range(20))
        gc.collect()
        assert [n for n, record in enumerate(sent[:20]) if record() is not None] == []
    finally:
        results.close()


def test_every_caller_of_the_pool_is_named_in_the_design():
    """docs/design.md's list of `in_workers`'s callers: each function of the library that calls it
    (`module.function`), found in the code, is named there, so that a new one is not left out."""
    import ast

    from conftest import ROOT

    said = (ROOT / "docs/design.md").read_text(encoding="utf-8").split("is the one pool of every", 1)[1][:800]
    callers = set()
    for folder in ("lusoria", "archive", "formats", "validator", "notation"):
        for path in (ROOT / folder).glob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.FunctionDef) and any(
                    isinstance(call, ast.Call) and getattr(call.func, "id", "") == "in_workers"
                    for call in ast.walk(node)
                ):
                    callers.add(f"{path.stem}.{node.name}")
    assert {"api.validate", "records_as_rows.checked_rows", "export._main_lines"} <= callers
    assert [caller for caller in sorted(callers) if f"`{caller}`" not in said] == []
