"""`lusoria lsp` whose checks pause after their first record until a newer edit comes: a
check still running when the test edits, however fast the machine (tests/test_lsp.py)."""

import time
from collections.abc import Callable, Iterable

from lusoria import lsp
from lusoria.document import check_missing
from lusoria.notation.reader import RecordText

HOLD_AT_MOST = 60.0  # seconds: reached only by a failing test, which never edits (the server can then stop)


def held(sources: Iterable[RecordText], stale: Callable[[], bool]) -> dict:
    asked = 0

    def stale_after_the_first() -> bool:
        nonlocal asked
        asked += 1
        if asked == 1:
            return False  # the first record is checked, whenever the edit comes
        until = time.monotonic() + HOLD_AT_MOST
        while not stale() and time.monotonic() < until:
            time.sleep(0.01)  # waiting for the edit: the loop ends when it comes
        return stale()

    return check_missing(sources, stale_after_the_first)


lsp.check_missing = held
lsp.serve()
