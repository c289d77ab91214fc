"""A stored record read again, as its import read it: every reader of the archive's texts (the
explorer's page, the records removed, an upgrade's replay, `export`, `duplicates`, `tree --record`,
`query --format lgn`) reads them here. A text is lusoria's notation, or, for a record kept as written
in another format (`written_in`: archive/query.py, KEPT_AS_WRITTEN), that format's."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from lusoria.archive.texts import TEXT_OF

if TYPE_CHECKING:
    from lusoria.notation.reader import RecordText
    from lusoria.validator.replay import Report

STORED_TEXT = f"{TEXT_OF} AS text, records.written_in AS written_in"  # in SQL over `records`


def stored_record(text: str, written_in: str | None, index: int = 0) -> RecordText:
    """A stored record's text (`index`: its id, for a caller that keeps it), read in the format it
    is kept in; InputError for one that format cannot read alone (a CSV row of a game its file's name said)."""
    from lusoria.formats.sources import record_at
    from lusoria.notation.reader import RecordText

    return replace(RecordText(text) if written_in is None else record_at(text, format=written_in), index=index)


def stored_report(text: str, written_in: str | None, index: int = 0) -> Report | None:
    """A stored record checked as its import checked it (`stored_record`); None for one its format
    cannot read alone."""
    from lusoria.notation.sources import InputError
    from lusoria.validator.replay import check

    try:
        return check(stored_record(text, written_in, index))
    except InputError:
        return None
