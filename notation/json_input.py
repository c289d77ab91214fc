"""JSON read from input (the aagenielsen.dk scrape, the language server's messages): its
nesting bounded, measured without recursion before Python's decoder (which recurses) meets
it, and its numbers read as text or through `notation.numbers` (docs/robustness.md, "Bounds")."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from lusoria.errors import Refused
from lusoria.notation.numbers import whole_number

MAX_DEPTH = 64  # arrays and objects one inside another
MAX_INTEGER = (1 << 63) - 1  # the largest whole number a message may hold (SQLite's, JSON-RPC ids in practice)
_PIECES = re.compile(r'"(?:[^"\\]++|\\.)*+"?|[\[\]{}]')  # strings (skipped whole), brackets


_WORD = r"(?:true|false|null)"
_STRING = r'"(?:[^"\\\n]|\\.)*+"'  # a JSON string, on one line
_JSON_START = re.compile(  # an object's first name, an array's first value (a word: then `,` or `]`), or a text
    # that is a string, a word or a number alone
    rf'\s*(?:\{{\s*["}}]|\[\s*(?:[\[\]{{"\d-]|{_WORD}\s*[,\]])|(?:{_STRING}|{_WORD}|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)\s*\Z)'
)


def starts_as_json(text: str) -> bool:
    """Whether a text starts as a JSON object or array does (`{"`, `[{`, `[1`, `[true]`), or is a
    JSON string, word or number alone (`"club"`, `true`, `12`), which no lgn record does (`[Game "`,
    `{a comment}`, `[true "`: a tag named so; `12. e3-c3`), nor a CSV line (`"name","rating"`)."""
    return _JSON_START.match(text) is not None


def too_deep(text: str, start: int = 0) -> int | None:
    """Where, in the JSON value that starts at `start`, an array or object opens deeper than
    MAX_DEPTH, if one does (None too for text that is not JSON: the decoder says so)."""
    depth = 0
    for piece in _PIECES.finditer(text, start):
        bracket = piece[0]
        if bracket in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return piece.start()
        elif bracket in "]}":
            depth -= 1
            if depth <= 0:
                return None  # the value has ended
    return None


def deep_error(text: str, at: int) -> json.JSONDecodeError:
    return json.JSONDecodeError(f"arrays and objects nested deeper than {MAX_DEPTH}", text, at)


def text_decoder(objects: Callable[[list[tuple[str, Any]]], Any] | None = None) -> json.JSONDecoder:
    """A decoder that keeps every number as the text it is written in (nothing converted);
    `objects` makes each object from its pairs, as written (a dict by default)."""
    return json.JSONDecoder(parse_int=str, parse_float=str, parse_constant=str, object_pairs_hook=objects)


def bounded_integer(text: str) -> int:
    """A JSON integer of at most MAX_INTEGER either side of 0; ValueError for a longer one."""
    value = whole_number(text.removeprefix("-"), 0, MAX_INTEGER)
    if value is None:
        raise Refused(f"a number of {len(text):,} characters; the largest allowed is {MAX_INTEGER:,}")
    return -value if text.startswith("-") else value


def loads(text: str) -> object:
    """A JSON document whose nesting and integers are bounded (floats as Python reads them);
    ValueError (json.JSONDecodeError for broken or deep JSON) otherwise."""
    start = len(text) - len(text.lstrip())
    if (deep := too_deep(text, start)) is not None:
        raise deep_error(text, deep)
    return json.loads(text, parse_int=bounded_integer)
