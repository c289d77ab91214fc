"""Words of output: counts ("1 record", "3 times"), a number out of bounds, what the system says of an error,
control characters made visible (`escape_controls`), a user's value quoted (`quoted`) or not UTF-8 (`undecoded`),
and who is told what to try (`Reader`)."""

import re
from collections.abc import Callable, Iterable, Sequence
from enum import StrEnum
from itertools import islice
from typing import TypeVar

from lusoria.errors import Refused

Cause = TypeVar("Cause")


class Reader(StrEnum):
    """Who is told what to try (an encoding: notation.sources.advised), each in words they can act on: a
    library's caller (`try encoding="latin-1"`), a command's user (`try --encoding latin-1`), or one who reads
    a replay page or an editor's panel, who has no call or option to give it to (`open the file as latin-1
    and save it as UTF-8`). Given as `to=Reader.PAGE` (or `to="page"`)."""

    CALLER = "caller"
    COMMAND = "command"
    PAGE = "page"


CALLER, COMMAND, PAGE = Reader.CALLER, Reader.COMMAND, Reader.PAGE


def told(to: str) -> Reader:
    """The reader `to` names (a Reader, or its value: "page"); ValueError for anything else, which would
    have been told as a library's caller is (`advised(True)`)."""
    try:
        return Reader(to)
    except ValueError:
        raise Refused(f"to={to!r} names no reader: Reader.CALLER, Reader.COMMAND or Reader.PAGE") from None


def problem_said(problem: str | None, cause: Cause | None, say: Callable[..., str], to: str) -> str | None:
    """Why a record was stopped, told to `to`: its `cause` (a diagnostic) as `say` words it for that reader
    (`say(cause, to=to)`) when it has one, else the `problem` as it is; ValueError for a `to` that names
    no Reader (`told`), with a cause or not."""
    return say(cause, to=to) if cause is not None else told(to) and problem


def plural(count: int, word: str, many: str | None = None) -> str:
    """`count` and `word`, in the plural (`many`, or `word` + s) unless `count` is 1."""
    return f"{count} {word if count == 1 else many or word + 's'}"


def listed(words: Sequence[str], most: int = 3) -> str:
    """`a`, `a and b`, `a, b and c`; beyond `most` words, the first ones and how many more (`a, b, c and 2 more`)."""
    shown = [*words[:most], *([f"{len(words) - most} more"] if len(words) > most else [])]
    return " and ".join([", ".join(shown[:-1]), shown[-1]]) if len(shown) > 1 else "".join(shown)


def first_few(words: Iterable[str], most: int = 3) -> str:
    """The first `most` of `words` and `…` for any more: `a, b, c, …`."""
    shown = list(islice(words, most + 1))
    return ", ".join(shown[:most]) + (", …" if len(shown) > most else "")


def times(count: int) -> str:
    """How often a thing is written: `once`, `twice`, `3 times`."""
    return {1: "once", 2: "twice"}.get(count, f"{count} times")


def out_of_bounds(value: object, low: int, high: int) -> str:
    """What is said of a `value` given for a whole number from `low` to `high` that is none
    (lusoria.bounds, notation.numbers)."""
    return f"{quoted(str(value))} is not a whole number from {low} to {high}"


def reason(error: OSError) -> str:
    """What the system says of `error`, in lower case ("no such file or directory")."""
    return (error.strerror or str(error)).lower()


# C0 but tab and newline, DEL, C1, the line and paragraph separators, and the bidirectional
# overrides and isolates (which reorder what is shown).
CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def escape_controls(text: str) -> str:
    """The one escaping function: each control character as `\\xNN` (or `\\uNNNN`), as a terminal
    shows them (lusoria/terminal.py) and a syntax error quotes what it found (a NUL byte in a ply)."""
    return CONTROLS.sub(lambda m: f"\\x{ord(m[0]):02x}" if ord(m[0]) < 0x100 else f"\\u{ord(m[0]):04x}", text)


def escaped_name(name: str) -> str:
    """A name (a file's) as a note shows it, on its line: `escape_controls`, and a tab or a newline
    as `\\x09`, `\\x0a`."""
    return escape_controls(name).replace("\t", "\\x09").replace("\n", "\\x0a")


QUOTED = 40  # characters of a value a message quotes; a longer one is cut, its length said
NAME_QUOTED = 100  # characters of a name a message quotes whole (a file's game type's: some are 60)
SURROGATES = re.compile("[\ud800-\udfff]")  # a byte that was not UTF-8, as Python decodes it (surrogateescape)


def quoted(text: str, longest: int = QUOTED) -> str:
    """A value a user gave, as a message quotes it: in quotes, a quote or a backslash in it escaped
    (`'it\\'s'`), on its line (`escaped_name`), a byte that was not UTF-8 as `\\xNN`; one longer than
    `longest` characters cut, with its length (`'xxxx…' (60,000 characters)`)."""
    shown = text[:longest].replace("\\", "\\\\").replace("'", "\\'")
    shown = escaped_name(SURROGATES.sub(_byte_escaped, shown))
    return f"'{shown}'" if len(text) <= longest else f"'{shown}…' ({len(text):,} characters)"


def _byte_escaped(match: re.Match[str]) -> str:
    code = ord(match[0])
    return f"\\x{code - 0xDC00:02x}" if code >= 0xDC80 else f"\\u{code:04x}"


def undecoded(text: str) -> str | None:
    """What is said of a text holding bytes that were not UTF-8 (a name the shell passed in another
    encoding), which no text of the archive can match; None for a text without."""
    if (found := SURROGATES.search(text)) is None:
        return None
    shown = _byte_escaped(found)
    what = "the byte" if shown.startswith("\\x") else "the lone surrogate"  # (no byte: a library's caller gave it)
    return f"is not UTF-8 text: {quoted(text)} holds {what} {shown} (from another encoding?); the archive's text is UTF-8: give it so"
