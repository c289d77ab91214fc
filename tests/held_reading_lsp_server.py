"""`lusoria lsp` with a plug-in format, `*.slow` (tafl move lists), whose reader counts its calls
and, until the client sends `held/release` (again after `held/hold`), blocks: a read still running when the test edits and
asks, however fast the machine (tests/test_lsp.py). `held/calls` answers how many reads began."""

import asyncio
import threading

from lusoria import lsp
from lusoria.formats import FORMATS, Format

HOLD_AT_MOST = 60.0  # seconds: reached only by a failing test, which never releases the reader
began, released = threading.Event(), threading.Event()
calls = 0


def read(text: str, path: str, tags: dict[str, str] | None = None):
    global calls
    calls += 1
    began.set()
    released.wait(HOLD_AT_MOST)
    return FORMATS["tafl"].read(text, path, tags)


@lsp.server.feature("held/release")
def release(server: lsp.LgnServer, params: object) -> None:
    released.set()


@lsp.server.feature("held/hold")
def hold(server: lsp.LgnServer, params: object) -> None:
    """Block the reads that begin from now on, until `held/release` (a test after the one that released them)."""
    began.clear()
    released.clear()


@lsp.server.feature("held/calls")
async def read_calls(server: lsp.LgnServer, params: object) -> int:
    await asyncio.get_running_loop().run_in_executor(None, began.wait, HOLD_AT_MOST)  # the first read began
    return calls


FORMATS.register(Format("slow", (".slow",), read=read))
lsp.serve()
