"""A toy format of move lists: `*.moves`, one game a line — its game's name, its plies and its
result, as `toytafl d2-d1 c4-c5 *` —, read and written. The reader keeps lusoria's readers'
contract (lusoria.formats.contract): a known game, and each ply one of its game (`is_ply`)."""

import re
from collections.abc import Iterator

from lusoria.api import is_ply, known_games
from lusoria.formats import Format
from lusoria.formats.common import drafts
from lusoria.notation.reader import RecordText
from lusoria.validator.replay import Report


def read(text: str, path: str, tags: dict[str, str] | None = None) -> Iterator[RecordText]:
    for index, line, draft in drafts("moves", text):
        words = list(re.finditer(r"\S+", line[0]))
        game, plies, result = words[0], words[1:-1], words[-1] if len(words) > 1 else None
        draft.tag("Game", game[0], line.start() + game.start())
        if game[0].lower() not in known_games():
            yield draft.source(path, index, draft.problem(f"unknown game '{game[0]}'", line.start(), game[0], "tag"))
            continue
        wrong = next((ply for ply in plies if not is_ply(game[0], ply[0])), None)
        if wrong is not None or result is None:
            at = line.start() + (wrong.start() if wrong else len(line[0]))
            yield draft.source(
                path,
                index,
                draft.problem(
                    f"found '{wrong[0]}', expected a ply of {game[0]}" if wrong else "the line ends without a result",
                    at,
                    wrong[0] if wrong else "",
                ),
            )
            continue
        for ply in plies:
            draft.ply(ply[0], line.start() + ply.start())
        draft.result, draft.result_at = result[0], line.start() + result.start()
        yield draft.source(path, index)


def write(report: Report) -> str:
    """A record's main line in canonical form; ValueError for one with variations, rules other
    than its game's own (a moves line names only the game), or plies of a game that writes them
    with spaces (the reader splits a line at its spaces)."""
    if report.record is None:
        raise ValueError("a record that does not parse has no moves line")
    if any(tag in report.record.tags for tag in ("Variant", "Rules", "Position")):
        raise ValueError("a moves file holds games under their game's own rules only")
    plies = report.record.main.plies
    if any(ply.variations for ply in plies):
        raise ValueError("a moves file holds no variations")
    texts = [report.canonical.get((0, i), ply.text) for i, ply in enumerate(plies)]
    if any(" " in text for text in texts):
        raise ValueError("a moves file holds plies without spaces")
    return " ".join([report.game or "", *texts, report.record.result]) + "\n"


FORMAT = Format("moves", (".moves",), read, write=write)
