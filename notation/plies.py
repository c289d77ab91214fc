"""Splitting runs of plies and move numbers into the model's plies: the reader's innermost
loop, compiled by mypyc with the rules modules (lusoria/accelerator.py)."""
# lusoria: compiled with mypyc

from __future__ import annotations

import re

from lusoria.notation.model import Ply

SUFFIX_NAGS = {"!": 1, "?": 2, "!!": 3, "??": 4, "!?": 5, "?!": 6}


def split_run(
    plies: list[Ply],
    pattern: re.Pattern[str],
    text: str,
    start: int,
    end: int,
    row: int,
    row_start: int,
    number: str | None,
) -> tuple[int, str | None]:
    """Append to `plies` the plies of `text[start:end]`, a run of blanks, move numbers and
    plies; `row` is the line of `start`, `row_start` the offset where that line starts (both
    as the plies' places count them); `number` is a move number written before the run.
    `pattern` matches blanks then a move number (group `number`) or a ply (`ply`) and its
    `suffix` (the reader builds it from the grammar). Stops where it no longer matches;
    returns that offset and the move number written after the last ply, if any."""
    newline = text.find("\n", start, end)
    position = start
    while (match := pattern.match(text, position, end)) is not None:
        position = match.end()
        kind = match.lastgroup
        if kind == "number":
            number = match.group("number")
            continue
        ply = match.group("ply")
        suffix = match.group("suffix") if kind == "suffix" else ""
        at = position - len(suffix) - len(ply)
        while 0 <= newline < at:
            row, row_start = row + 1, newline + 1
            newline = text.find("\n", row_start, end)
        plies.append(Ply(ply, row, at - row_start + 1, number, [SUFFIX_NAGS[suffix]] if suffix else []))
        number = None
    return position, number
