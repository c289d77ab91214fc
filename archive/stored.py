"""A stored record read again, as its import read it: every reader of the archive's texts (the
explorer's page, the records removed, an upgrade's replay, `export`, `duplicates`, `tree --record`,
`query --format lgn`) reads them here. A text is lusoria's notation, or, for a record kept as written
in another format (`records.written_in`: archive/tables.py), that format's."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from lusoria.archive.texts import TEXT_OF

if TYPE_CHECKING:
    from lusoria.notation.reader import RecordText
    from lusoria.validator.replay import Report

STORED_TEXT = f"{TEXT_OF} AS text, records.written_in AS written_in"  # in SQL over `records`


def stored_record(text: str, written_in: str | None) -> RecordText:
    """A stored record's text, read in the format it is kept in (`read_kept`)."""
    return read_kept(kept_text(text, written_in))


def kept_text(text: str, written_in: str | None, index: int = 0) -> RecordText:
    """A stored record's text as the archive keeps it, in the format it is kept in (lgn when
    `written_in` is NULL), its id as its `index`: what a worker process reads (`read_kept`)."""
    from lusoria.notation.reader import RecordText

    return RecordText(text, index=index, format=written_in or "lgn")


def read_kept(kept: RecordText) -> RecordText:
    """A stored record (`kept_text`) read in its format; InputError for one that format cannot read
    alone (a CSV row of a game its file's name said)."""
    from lusoria.formats.sources import record_at

    return kept if kept.format == "lgn" else replace(record_at(kept.text, format=kept.format), index=kept.index)


def stored_report(text: str, written_in: str | None) -> Report | None:
    """A stored record checked as its import checked it (`replayed`)."""
    return replayed(kept_text(text, written_in))


def replayed(kept: RecordText) -> Report | None:
    """A stored record (`kept_text`) checked as its import checked it; None for one its format
    cannot read alone."""
    from lusoria.notation.sources import InputError
    from lusoria.validator.replay import check

    try:
        return check(read_kept(kept))
    except InputError:
        return None
