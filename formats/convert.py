"""`lusoria convert`: records of any format read, written in a format that has a writer (lgn's
is formats.lgn's `write_lgn`: the canonical text)."""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path, PurePath

from lusoria.files import common_folder
from lusoria.formats import FORMATS, Format, HookFailed
from lusoria.formats.lgn import with_source_tags
from lusoria.formats.sources import given
from lusoria.notation.reader import RecordText
from lusoria.notation.sources import STDIN, Problem, Skipped, Source, is_text, names_a_file
from lusoria.pipeline import reports
from lusoria.validator.replay import ERROR, Diagnostic, Report


def targets() -> list[str]:
    """The formats lusoria writes (`convert --to`): those with a writer."""
    return [name for name, entry in FORMATS.items() if entry.write is not None]


@dataclass
class Converted:
    """One record written in the target format, or why it could not be."""

    source: RecordText
    text: str | None
    report: Report
    problem: str | None = None
    diagnostic: Diagnostic | None = None  # the error that stopped it, with its place
    file_name: str = ""  # the name of its own file below a directory (`convert --output-dir`; `file_name`)
    note: str | None = None  # what the record written loses where another program reads it (`Format.loses`)


def convert(
    paths: Iterable[Source],
    to: str,
    encoding: str = "utf-8",
    format: str | None = None,
    tags: dict[str, str] | None = None,
    output_dir: str | None = None,
) -> Iterator[Converted | Problem]:
    """Every record of `paths` in format `to` (one of `targets()`, lusoria.api's `target_formats`;
    `lusoria convert`). A record that does not parse or breaks a rule is not converted (a reader
    of another format must not make an illegal record):
    its first error is the `problem`, and its `diagnostic`; nor is one that the format cannot hold
    (the problem: why, from the format's `cannot_write` before any error of the record, as OTN refuses a
    Latrunculi record, or from its writer's ValueError). One written has the `note` of what it loses
    where another program reads it (the format's `loses`: an Ashton game's camps in OTN). A record read
    from another format is written with the tags of its source (its format, file and place: formats.lgn), so that it can be traced back.
    Each has the name of its own file below a directory (`file_name`); `output_dir`, that directory, is not
    read, though below a directory of `paths` (`walk`), so that a run never reads an earlier one's files."""
    entry = FORMATS.get(to)
    if entry is None or entry.write is None:
        raise ValueError(f"cannot write '{to}' (known: {', '.join(targets())})")
    sources = list(given(paths))
    inputs = inputs_folder(sources)
    for report in reports(sources, encoding, format, tags, leave_out=output_dir):
        if isinstance(report, Problem):
            yield report
            continue
        source = report.source
        name = file_name(source, entry.suffixes[0], inputs)
        if why := FORMATS.said(entry, "cannot_write", (report,)):
            yield Converted(source, None, report, why, file_name=name)
        elif report.record is None or report.rules is None or not report.valid:
            first = next(d for d in report.diagnostics if d.severity == ERROR)
            yield Converted(source, None, report, first.said(), first, name)
        else:
            yield _written(entry, report, name)


def _written(entry: Format, report: Report, name: str) -> Converted:
    """A valid record in a format, with what it loses there (`Format.loses`), or why the format cannot
    hold it (its writer's ValueError); or, for a plug-in's writer or `loses` that raises another
    exception (but a MemoryError) or hands back no text, what went wrong, naming it (its bug, not
    lusoria's internal error): the record is then not written (what it loses is not known)."""
    try:
        text = FORMATS.answer(entry, "write", (with_source_tags(report),), text_or_none=False)
        note = FORMATS.answer(entry, "loses", (report,))
    except (ValueError, HookFailed) as problem:
        return Converted(report.source, None, report, str(problem), file_name=name)
    return Converted(report.source, text, report, file_name=name, note=note)


NUMBER_WIDTH = 6
"""The digits of a record's number in its file's name (`file_name`): records are written as they are
read, before their count is known, so the width is fixed, wide enough that name order is record order
up to a million records of one file (more files than one folder is fit to hold)."""


def inputs_folder(sources: Iterable[Source | Skipped]) -> str:
    """The folder below which `file_name` names the files of the records of `sources` (texts and
    standard input aside): the current directory when it holds every file and folder of them, so that a
    file has one name whichever inputs come with it (a round published after round, `round1` then
    `round1 round2`: `round1/game-000000.html` each time); else the folder above the one that holds
    them all, so that a name keeps that folder's own (`/data/round2`: `round2/game-000000.html`)."""
    held = common_folder(
        source
        for source in sources
        if isinstance(source, (str, os.PathLike)) and not is_text(source) and source != STDIN
    )
    here = os.getcwd()
    return here if _is_within(held, here) else os.path.dirname(held)


def _is_within(path: str, folder: str) -> bool:
    """Whether absolute `path` is `folder` or below it (on Windows, in any case, and never on another drive)."""
    return PurePath(path).is_relative_to(folder)


def file_name(source: RecordText, suffix: str, inputs: str) -> str:
    """The name of a record's own file below a directory (`convert --output-dir`, `html --output-dir`): `<file>-<n><suffix>`,
    `n` the record's number in its file, from 0, as every message and `--record` number it, in
    `NUMBER_WIDTH` digits so that name order is record order (`stdin-<n>` of one not read from a file),
    in the folders that lead to its file from `inputs` (`inputs_folder`: `a/game.otg` and
    `b/game.otg`: `a/game-000000.lgn` and `b/game-000000.lgn`)."""
    path = source.path
    number = f"{source.index:0{NUMBER_WIDTH}d}"
    if not names_a_file(path):
        return f"stdin-{number}{suffix}"
    folder = os.path.relpath(os.path.dirname(os.path.abspath(path)), inputs)
    folder = "" if Path(folder).parts[:1] == (os.pardir,) else folder  # never above the directory (a name escaped)
    return os.path.normpath(os.path.join(folder, f"{Path(path).stem}-{number}{suffix}"))
