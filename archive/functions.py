"""The SQL functions lusoria gives a connection (`sql_function`), each made safe to call from any
SQL: its arguments checked, what it inflates bounded (`inflated`), and the statement's watch
(its timeout, Ctrl-C: archive/reading.py) looked at on each call and inside its loops (`go_on`).
A function that cannot answer raises, and SQLite says only "user-defined function raised
exception": `failure` gives the one line its function said instead, which names it."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable
from typing import Any

import zstandard

from lusoria.errors import LusoriaError

MAX_VALUE = 1 << 24  # bytes of one string or BLOB a statement may make or read (SQLite's length limit), inflated too
UNKNOWN_SIZE = zstandard.CONTENTSIZE_UNKNOWN
KINDS = {bytes: "a BLOB", str: "a text", int: "an integer", float: "a real number"}
STOPPED = "interrupted"  # what a function stopped by the watch says, as SQLite says it of a statement
CTRL_C = "Ctrl-C"  # what a function a KeyboardInterrupt stopped says (`failure` raises it again)


class FunctionError(LusoriaError):
    """An SQL function of lusoria's that cannot answer: one line that names it and says why."""


class _State(threading.local):
    watch: Callable[[], Any] | None = None  # the watch of the statement whose function runs: true when it must stop
    failure: str | None = None  # what the last function that raised said


_STATE = _State()
_WATCHES: dict[int, Callable[[], Any]] = {}  # a connection's id -> the watch of its running statement


def watching(conn: sqlite3.Connection, watch: Callable[[], Any] | None) -> None:
    """Make `watch` the one the functions of `conn` look at while its statement runs (None: none)."""
    if watch is None:
        _WATCHES.pop(id(conn), None)
    else:
        _WATCHES[id(conn)] = watch


def go_on() -> None:
    """Raise FunctionError(STOPPED) when the running statement must stop (its time is up, Ctrl-C)."""
    if _STATE.watch is not None and _STATE.watch():
        raise FunctionError(STOPPED)


def failure(error: sqlite3.Error) -> str | None:
    """What the function that made `error` said (None when no function of lusoria's made it);
    KeyboardInterrupt when Ctrl-C stopped it, in a statement no watch handles Ctrl-C of (`lusoria export`'s):
    SQLite says only that the function raised, and Python's sqlite3 drops the KeyboardInterrupt."""
    said, _STATE.failure = _STATE.failure, None
    if "user-defined function raised exception" not in str(error):
        return None
    if said == CTRL_C:
        raise KeyboardInterrupt
    return said


def _kind(value: object) -> str:
    return "NULL" if value is None else KINDS.get(type(value), type(value).__name__)


def sql_function(conn: sqlite3.Connection, name: str, function: Callable[..., Any], *kinds: type) -> None:
    """Give `conn` the SQL function `name`: `function`, called with arguments of `kinds`, an
    argument of another kind refused in one line, NULL for a NULL argument; any exception it
    raises (a value too large or damaged, memory) turned into one line that names it."""
    key = id(conn)  # (not the connection: its functions would keep it alive)

    def call(*args: Any) -> Any:
        outer, _STATE.watch = _STATE.watch, _WATCHES.get(key)
        _STATE.failure = None  # (one no caller read, a Ctrl-C's too, is no failure of this statement's)
        try:
            for number, (value, kind) in enumerate(zip(args, kinds), 1):
                if value is not None and type(value) is not kind:
                    raise FunctionError(f"argument {number} must be {KINDS[kind]}, not {_kind(value)}")
            if None in args:
                return None
            go_on()
            return function(*args)
        except KeyboardInterrupt:
            _STATE.failure = CTRL_C
            raise
        except Exception as error:
            _STATE.failure = STOPPED if str(error) == STOPPED else f"{name}: {_reason(error)}"
            raise
        finally:
            _STATE.watch = outer

    conn.create_function(name, len(kinds), call, deterministic=True)


def _reason(error: BaseException) -> str:
    if isinstance(error, FunctionError):
        return str(error)
    if isinstance(error, MemoryError):
        return "not enough memory for its value"
    return f"its argument is not a value it reads ({type(error).__name__}: {str(error)[:200]})"


def inflated(decompressor: zstandard.ZstdDecompressor, packed: bytes) -> bytes:
    """A Zstandard frame decompressed, at most MAX_VALUE bytes: FunctionError for a larger one
    (a 64 KB frame may say a gibibyte), before it is allocated."""
    size = zstandard.get_frame_parameters(packed).content_size
    if size != UNKNOWN_SIZE and size > MAX_VALUE:
        raise FunctionError(f"its value inflates to {size:,} bytes, more than the {MAX_VALUE:,} allowed")
    try:
        return decompressor.decompress(packed, max_output_size=MAX_VALUE)
    except zstandard.ZstdError as error:
        if size == UNKNOWN_SIZE and "did not decompress full frame" in str(error):
            raise FunctionError(f"its value inflates to more than the {MAX_VALUE:,} bytes allowed") from None
        raise
