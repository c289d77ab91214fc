"""lusoria's notation written for a record of any format: its canonical text, and for a record
read from another format the tags that trace it back to its source (`source_tags`), which
`convert` (to any format), `fmt` and the archive's text (`query --format lgn`) all write."""

from __future__ import annotations

from dataclasses import replace

from lusoria.errors import Refused
from lusoria.formats import FORMATS
from lusoria.notation.escapes import EscapeLines
from lusoria.notation.reader import LGN_TOKENS, RecordText, long_token, token_message
from lusoria.notation.sources import names_a_file
from lusoria.source_tags import SOURCE_FILE, SOURCE_FORMAT
from lusoria.validator.replay import Report, canonical_text

SOURCE_RECORD = "SourceRecord"


def source_tags(source: RecordText) -> dict[str, str]:
    """The tags that trace a record read from another format back to its file (none for lgn, nor
    for a record of no file): the format, the file as it was named (an aagenielsen.dk scrape's names the site's game), and the
    record's place in a file of several (0-based: the index that `show --record` takes and that
    `convert`'s messages say)."""
    if source.format == "lgn" or not names_a_file(source.path):
        return {}
    tags = {SOURCE_FORMAT: source.format, SOURCE_FILE: source.path}
    if not (source.format in FORMATS and FORMATS[source.format].one_game):
        tags[SOURCE_RECORD] = str(source.index)
    return tags


def place_tags(report: Report) -> tuple[str, ...]:
    """The names of the source tags `lgn_text` adds to `report` that say where its record was read
    (its file as named, its place in it), not what it is (those the record holds are its own)."""
    held = report.record.tags if report.record else {}
    return tuple(
        name for name in source_tags(report.source) if name in (SOURCE_FILE, SOURCE_RECORD) and name not in held
    )


def with_source_tags(report: Report) -> Report:
    """A replayed record with its source tags added (those it holds win): what a writer writes."""
    tags = source_tags(report.source)
    if not tags or report.record is None:
        return report
    return replace(
        report,
        record=replace(
            report.record,
            tags={
                **report.record.tags,
                **{name: value for name, value in tags.items() if name not in report.record.tags},
            },
        ),
    )


def lgn_text(report: Report, escapes: EscapeLines | None = None) -> str:
    """A replayed record in lusoria's notation (its canonical text), with its source tags (and the
    `%` lines `escapes`, which `fmt` keeps: `convert`, the archive and others write the record alone)."""
    return canonical_text(with_source_tags(report), escapes)


def write_lgn(report: Report) -> str:
    """The lgn writer of `convert`: `lgn_text`; ValueError when a token of it is longer than
    lusoria reads (escapes make a value longer)."""
    text = lgn_text(report)
    if (token := long_token(text, LGN_TOKENS)) is not None:
        raise Refused(f"written in lusoria's notation it would hold {token_message(token)}")
    return text
