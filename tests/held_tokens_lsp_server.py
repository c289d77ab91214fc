"""`lusoria lsp` whose semantic tokens and formatting, once laid out, block until the client sends
`held/release`: work still under way when the test hovers, however fast the machine (tests/test_lsp.py).
`held/began` answers, once both began, how many did."""

import asyncio
import threading

from lusoria import lsp

HOLD_AT_MOST = 60.0  # seconds: reached only by a failing test, which never releases them
released = threading.Event()
began = threading.Semaphore(0)
laid_out, formatted = lsp.token_data, lsp.formatted_document


def held(work):
    def holding(*args):
        began.release()
        released.wait(HOLD_AT_MOST)
        return work(*args)

    return holding


@lsp.server.feature("held/release")
def release(server: lsp.LgnServer, params: object) -> None:
    released.set()


@lsp.server.feature("held/began")
async def both_began(server: lsp.LgnServer, params: object) -> int:
    for _ in range(2):
        await asyncio.get_running_loop().run_in_executor(None, began.acquire, True, HOLD_AT_MOST)
    return 2


lsp.token_data, lsp.formatted_document = held(laid_out), held(formatted)
lsp.serve()
