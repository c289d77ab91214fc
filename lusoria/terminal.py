"""Text for a person at a terminal: control characters from records (escape sequences that
could retitle a window, move the cursor, hide text) are shown escaped, as `\\x1b`; output
that goes to a file or a pipe is written as it is (records intact)."""

from __future__ import annotations

import re
import sys

import click

# C0 but tab and newline, DEL, C1, the line and paragraph separators, and the bidirectional
# overrides and isolates (which reorder what is shown).
CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def escape_controls(text: str) -> str:
    return CONTROLS.sub(lambda m: f"\\x{ord(m[0]):02x}" if ord(m[0]) < 0x100 else f"\\u{ord(m[0]):04x}", text)


def echo(message: str = "", nl: bool = True, err: bool = False) -> None:
    """click.echo, with control characters escaped when the stream is a terminal, and
    written as they are to a file or a pipe."""
    stream = sys.stderr if err else sys.stdout
    if stream.isatty():
        click.echo(escape_controls(message), nl=nl, err=err)
    else:
        click.echo(message, nl=nl, err=err, color=True)  # click would strip escape sequences: keep the data
