"""Splitting a run of plies and move numbers (one Lark token) into the model's plies:
the reader's innermost loop, compiled by mypyc with the rules modules (lusoria/accelerator.py)."""

from __future__ import annotations

import re

from lusoria.notation.model import Ply

SUFFIX_NAGS = {"!": 1, "?": 2, "!!": 3, "??": 4, "!?": 5, "?!": 6}


def split_run(plies: list[Ply], pattern: re.Pattern[str], text: str, row: int, base: int, column: int,
              number: str | None) -> None:
    """Append the plies of `text` to `plies`. The run starts at offset `base` of its record, on
    line `row` and `column` (1-based); `number` is a move number written just before it.
    `pattern` has the groups `number`, `ply` and `suffix` (the reader builds it from the grammar)."""
    row_start = base - column + 1
    newline = text.find("\n")
    for match in pattern.finditer(text):
        start = match.start()
        while 0 <= newline < start:
            row, row_start = row + 1, base + newline + 1
            newline = text.find("\n", newline + 1)
        if match.lastgroup == "number":
            number = match.group(0)
            continue
        suffix = match.group("suffix")
        plies.append(Ply(match.group("ply"), row, base + start - row_start + 1, number,
                         [SUFFIX_NAGS[suffix]] if suffix else []))
        number = None
