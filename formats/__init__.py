"""Records in other formats: each reader turns a file into lusoria records (RecordText with
the record already read, `parsed`), keeping every ply's line and column in the original file.

| format | files | reader |
| --- | --- | --- |
| `lgn` | `*.lgn` | lusoria's own (`notation.reader`) |
| `otn` | `*.otg` | OpenTafl Notation (`otn`) |
| `tafl` | `*.txt` that starts with a move list | tafl move lists (`tafl`) |
| `aage` | `*.json` | the aagenielsen.dk scrape (`tafl`) |
| `tablut-challenge` | `*_gameLog.txt` | Tablut Challenge server logs (`tablut_challenge`) |
| `csv` | `*.csv` that starts with a move list, two counts and a status | the Rust tafl engines' games (`tafl`) |
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

from lusoria.notation.reader import RecordText

FORMATS = ("lgn", "otn", "tafl", "aage", "tablut-challenge", "csv")
SUFFIXES = {"lgn": ".lgn", "otn": ".otg", "tafl": ".txt", "aage": ".json", "tablut-challenge": ".txt", "csv": ".csv"}


def format_of(path: str, head: str = "") -> str | None:
    """The format of a file from its name, then (for `.json`, `.txt`) its first characters;
    None when it is none of lusoria's formats."""
    from lusoria.formats.tablut_challenge import looks_like_log
    from lusoria.formats.tafl import looks_like_aage, looks_like_csv, looks_like_move_lists

    name = Path(path).name.lower()
    if name.endswith(".lgn"):
        return "lgn"
    if name.endswith(".otg"):
        return "otn"
    if name.endswith(".json"):
        return "aage" if looks_like_aage(head) else None
    if name.endswith(".txt"):
        if name.endswith("_gamelog.txt") or looks_like_log(head):
            return "tablut-challenge"
        return "tafl" if looks_like_move_lists(head) else None
    if name.endswith(".csv"):
        return "csv" if looks_like_csv(head) else None
    return None


def why_not(path: str, format: str | None = None) -> str:
    """Why a file that `format_of` (or, with a forced `format`, its extension) does not take is skipped."""
    suffix = Path(path).suffix.lower()
    if format is not None:
        return f"not a {SUFFIXES[format]} file, as {format} files are"
    if suffix == ".json":
        return "a .json file that is not an aagenielsen.dk scrape (no AageGameTypeName and Moves fields)"
    if suffix == ".txt":
        return "a .txt file that is neither a Tablut Challenge game log nor tafl move lists"
    if suffix == ".csv":
        return "a .csv file that is not a tafl move list (moves,defenders lost,attackers lost,status)"
    return "not a record file (.lgn, .otg, .json of aagenielsen.dk, *_gameLog.txt, .txt of move lists, .csv of games)"


def read_text(text: str, format: str, path: str, tags: dict[str, str] | None = None) -> Iterator[RecordText]:
    """The records of a whole text in a format other than lgn. `tags` (Variant, Rules) choose
    the rules of plain move lists, and of aagenielsen.dk games of a type lusoria does not know."""
    if format == "otn":
        from lusoria.formats.otn import read_otn
        yield from read_otn(text, path)
    elif format == "tafl":
        from lusoria.formats.tafl import read_move_lists
        yield from read_move_lists(text, path, tags)
    elif format == "aage":
        from lusoria.formats.tafl import read_aage
        yield from read_aage(text, path, tags)
    elif format == "tablut-challenge":
        from lusoria.formats.tablut_challenge import read_log
        yield from read_log(text, path)
    elif format == "csv":
        from lusoria.formats.tafl import read_csv
        yield from read_csv(text, path, tags)
    else:
        raise ValueError(f"unknown format '{format}' (known: {', '.join(FORMATS)})")
