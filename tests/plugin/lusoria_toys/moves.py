"""A toy format of move lists: `*.moves`, one game a line — its game's name, its plies and its
result, as `toytafl d2-d1 c4-c5 *` —, read and written."""

import re
from typing import Iterator

from lusoria.formats import Format
from lusoria.formats.common import Draft, Locator
from lusoria.notation.reader import RecordText
from lusoria.validator.replay import Report


def read(text: str, path: str, tags: dict[str, str] | None = None) -> Iterator[RecordText]:
    locator = Locator(text)
    for index, line in enumerate(re.finditer(r"[^\n]*\S[^\n]*", text)):
        draft = Draft("moves", locator, line.start(), line.end())
        game, *plies, result = re.finditer(r"\S+", line[0])
        draft.tag("Game", game[0], line.start() + game.start())
        for ply in plies:
            draft.ply(ply[0], line.start() + ply.start())
        draft.result, draft.result_at = result[0], line.start() + result.start()
        yield draft.source(path, index)


def write(report: Report) -> str:
    """A record's main line in canonical form; ValueError for one with variations."""
    assert report.record is not None
    plies = report.record.main.plies
    if any(ply.variations for ply in plies):
        raise ValueError("a moves file holds no variations")
    return " ".join([report.game or "", *(report.canonical.get((0, i), ply.text) for i, ply in enumerate(plies)),
                     report.record.result]) + "\n"


FORMAT = Format("moves", ".moves", (".moves",), read, write=write)
