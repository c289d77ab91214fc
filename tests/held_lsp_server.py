"""`lusoria lsp` whose checks pause after their first record until a newer edit comes: a
check still running when the test edits, however fast the machine (tests/test_lsp.py)."""

import time
from collections.abc import Callable, Iterable

from lusoria import lsp
from lusoria.document import check_missing


def held(texts: Iterable[str], stale: Callable[[], bool]) -> dict:
    asked = 0

    def stale_after_the_first() -> bool:
        nonlocal asked
        asked += 1
        while asked > 1 and not stale():
            time.sleep(0.01)  # waiting for the edit, not for a time: the loop ends when it comes
        return stale()

    return check_missing(texts, stale_after_the_first)


lsp.check_missing = held
lsp.serve()
