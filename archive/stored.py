"""A stored record read again, as its import read it: every reader of the archive's texts (the
explorer's page, the records removed, an upgrade's replay, `export`, `duplicates`, `tree --from-id`,
`query --format lgn`) reads them here. A text is lusoria's notation, or, for a record kept as written
in another format (`records.written_in`: archive/tables.py), that format's, read with the game,
variant and rules the archive holds for it when that format names no games (a CSV row: its file's
name, or the reading options, said its game)."""

from __future__ import annotations

import json
import shlex
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from lusoria.archive.texts import TEXT_OF
from lusoria.notation.reader import RecordText, stood_in

if TYPE_CHECKING:
    from lusoria.validator.replay import Report

# The tags a record is read with (JSON): its Game and Variant, NULL ones left out (json_patch drops
# them), and the other tags of its rules (`rule_tags`); a record kept as written in a format that names
# no games is read with them, an lgn record with no Game tag (its game given: --game) too (`RecordText.given`);
# NULL where `rule_tags` is damaged (not JSON), which the readers of its rules say (`DamagedArchive`)
_READ_WITH = (
    "CASE WHEN json_valid(coalesce(records.rule_tags, '{}')) THEN json_patch(json_patch('{}', "
    "json_object('Game', records.game, 'Variant', records.variant)), coalesce(records.rule_tags, '{}')) END"
)
STORED_TEXT = f"{TEXT_OF} AS text, records.written_in AS written_in, {_READ_WITH} AS read_with"  # SQL over `records`


@dataclass(slots=True)
class Kept(RecordText):
    """A stored record as the archive keeps it (`kept_text`), in the format it is kept in, its id as
    its `index`: what a worker process reads (`read_kept`)."""

    tags: dict[str, str] = field(default_factory=dict)  # the game, variant and rules the archive holds for it


def kept_text(text: str, written_in: str | None, read_with: str | None, index: int = 0) -> Kept:
    """A stored record (the columns of STORED_TEXT), its id as its `index`."""
    return Kept(text, index=index, format=written_in or "lgn", tags=json.loads(read_with) if read_with else {})


def stored_record(text: str, written_in: str | None, read_with: str | None) -> RecordText:
    """A stored record's text (the columns of STORED_TEXT), read in the format it is kept in (`read_kept`)."""
    return read_kept(kept_text(text, written_in, read_with))


def read_kept(kept: Kept) -> RecordText:
    """A stored record read in its format; one of a format that names no games (`Format.games`: a CSV
    row), or an lgn record that names none (its game given: --game), with the game, variant and rules the
    archive holds for it. InputError for one that holds none (an unparsable CSV row: its file's name said its game)."""
    from lusoria.formats.sources import record_at

    if kept.format == "lgn":
        return replace(kept, given=tuple(kept.tags.items()))  # (they stand in only where it names no game)
    return replace(record_at(kept.text, format=kept.format, tags=_read_with(kept)), index=kept.index)


def _read_with(kept: Kept) -> dict[str, str] | None:
    """The tags a stored record of another format is read with: the archive's (its game, variant and
    rules) for one of a format that names no games (`Format.games`: a CSV row); None for one whose
    file names them."""
    from lusoria.formats import FORMATS

    return None if kept.format in FORMATS and FORMATS[kept.format].games else kept.tags


def stored_report(text: str, written_in: str | None, read_with: str | None) -> Report | None:
    """A stored record (the columns of STORED_TEXT) checked as its import checked it (`replayed`)."""
    return replayed(kept_text(text, written_in, read_with))


def replayed(kept: Kept) -> Report | None:
    """A stored record checked as its import checked it (`checked`); None for one that cannot be read without
    its file (`read_kept`)."""
    from lusoria.notation.sources import InputError

    try:
        return checked(read_kept(kept))
    except InputError:
        return None


def checked(source: RecordText) -> Report:
    """A record checked as `import` checks it: one that lacks only its result marker comes replayed
    (`check(assume_result=True)`), as `show` replays it, its plies, variant and comments kept."""
    from lusoria.validator.replay import check

    return check(source, assume_result=True)


def lgn_text(row: Mapping[str, str | None]) -> str:
    """A stored lgn record's text (the columns of STORED_TEXT) as `query --format lgn` writes it: one that
    names no game (its game given at its import: --game) with the tags it was read with written above it."""
    text = row["text"] or ""
    return stood_in(RecordText(text, given=tuple(json.loads(row["read_with"] or "{}").items()))) + text


def left_out_as_lgn(row: dict, options: Mapping[str, str]) -> str | None:
    """Why `query --format lgn` leaves out a record (`row`: its columns, LISTED's and STORED_TEXT's among them),
    and how to have it: kept as written in another format, its file read again, as its import read it (a CSV row
    with its game, variant and rules, each given by its option of `options`: by tag), or its text; or an invalid
    one whose text would not read back as it was imported (`_misread_as_lgn`). None for one written."""
    if not row["written_in"]:
        why = _misread_as_lgn(row) if not row["valid"] else None
        return f"the archive's record {row['id']} left out: {why}; {_SHOWN.format(id=row['id'])}" if why else None
    from lusoria.notation.sources import names_a_file

    path, tags = row["path"], _read_with(kept_text(row["text"], row["written_in"], row["read_with"])) or {}
    given = "".join(f"{options[tag]} {shlex.quote(value)} " for tag, value in tags.items() if tag in options)
    again = (
        f"lusoria import {given}{path} reads it from its file, into another archive too (--db); "
        if names_a_file(path)
        else ""
    )
    return (
        f"the archive's record {row['id']} left out: it is kept as written in {row['written_in']}, as lgn would "
        f"not say what its import found; {again}{_SHOWN.format(id=row['id'])}"
    )


_SHOWN = "lusoria sql 'SELECT text FROM record_texts WHERE id = {id}' shows it"
_BESIDE = '[Event "?"]\n\n*\n'  # a record written before and after the one `_misread_as_lgn` reads (of no game)


def _misread_as_lgn(row: Mapping) -> str | None:
    """Why an invalid record's lgn text (`lgn_text`), written among others, would not read back as its import read
    it (h80a): a text that begins no record (a note of no tags) joins the record before it, and one stored as read
    with a byte its file's encoding did not decode (written as U+FFFD) reads valid; None for one that reads back so.
    (One that opens a comment never closed reads back so, but before a stray `}` that would close it:
    `_quoted_in_comment`.)"""
    from lusoria.notation.reader import split_records
    from lusoria.notation.sources import REPLACEMENT

    read = list(split_records([_BESIDE, "\n", lgn_text(row), "\n\n", _BESIDE]))
    if len(read) != 3:  # (the record's text began no record of its own; its `%` lines above may join the one before)
        return (
            "its text, which does not parse, would not read back in lgn as a record of its own (it would join the "
            "record before it, or take in the one after it)"
        )
    if REPLACEMENT in read[1].text and checked(read[1]).valid:  # (review80: not one an older lusoria misjudged)
        return f"its text would read back valid in lgn, where its import found: {row['first_message']}"
    return None
