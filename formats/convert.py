"""`lusoria convert`: records of any format read, written in a format that has a writer (lgn's
is formats.lgn's `write_lgn`: the canonical text)."""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path, PurePath

from lusoria.errors import LusoriaError, Refused
from lusoria.files import case_blind
from lusoria.formats import FORMATS, Format, HookFailed
from lusoria.formats.lgn import with_source_tags
from lusoria.formats.sources import given
from lusoria.notation.reader import RecordText
from lusoria.notation.sources import STDIN, Problem, Skipped, Source, fs_path, is_text, names_a_file, shown_path
from lusoria.pipeline import reports
from lusoria.validator.replay import ERROR, Diagnostic, Report
from lusoria.words import CALLER, Reader, problem_said, quoted


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

    def __post_init__(self) -> None:
        """One stopped by an error says it as `problem` (`said`)."""
        if self.diagnostic and self.problem is None:
            self.problem = self.said()

    def said(self, *, to: Reader = CALLER) -> str | None:
        """The `problem`: its `diagnostic`'s, with the encodings to try as `to` can act on them (`Diagnostic.said`)."""
        return problem_said(self.problem, self.diagnostic, Diagnostic.said, to)


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
    Each has the name of its own file below a directory (`file_name`); `output_dir`, that directory, which the
    caller writes each to, as `lusoria convert --output-dir` does, with an `OutputDir` (lusoria.files: each whole, never
    over a file it wrote; this call writes nothing), is not read, though below a directory of `paths` (`walk`), so that a run never reads an earlier one's files:
    OutputAmongInputs, before any record is read, when it is a directory of `paths` or holds one;
    InputsOfOneName when two inputs' files cannot be named apart below it (`inputs_folders`)."""
    entry = FORMATS.get(to)
    if entry is None or entry.write is None:
        raise Refused(f"cannot write {quoted(to)} (known: {', '.join(targets())})")
    sources = list(given(paths))
    inputs = inputs_folders(sources, output_dir)
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
            yield Converted(source, None, report, diagnostic=first, file_name=name)
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


class OutputAmongInputs(LusoriaError, ValueError):
    """The folder the files of the records go to (`--output-dir`) is a folder read as input, or holds
    one: the files written there would be read back as inputs at the next run."""


def inputs_folders(sources: Iterable[Source | Skipped], output_dir: str | None = None) -> dict[PurePath, PurePath]:
    """Each folder of the files and folders of `sources` given (texts and standard input aside), with
    the folder below which `file_name` names the files it holds: the current directory for one in it,
    so that a file has one name whichever inputs come with it (a round published after round, `round1`
    then `round1 round2`: `round1/game-000000.html` each time); else the folder above the outermost
    one given that holds it, so that its name keeps that folder's own (`/data/round2`:
    `round2/game-000000.html`; a file's, `~/Downloads/game.otg`: `Downloads/game-000000.lgn`), and
    further up while its name begins another's from elsewhere (`/2025/round1 /2026/round1`:
    `2025/round1/…`, `2026/round1/…`; `_named_apart`, which refuses those it cannot name apart).
    OutputAmongInputs when `output_dir` is a folder
    given or holds one, where a run would read an earlier one's files back (one below a folder given
    is left out of its reading, `walk`)."""
    given = [
        source
        for source in sources
        if isinstance(source, (str, os.PathLike)) and not is_text(source) and source != STDIN
    ]
    if output_dir is not None:
        _apart(given, output_dir)
    here = PurePath(os.getcwd())
    folders = {  # named as the records' paths are (`shown_path`), which `file_name` looks up
        PurePath(os.path.abspath(shown_path(os.fspath(path if os.path.isdir(path) else os.path.dirname(path)))))
        for path in given
    }
    if here in {PurePath(os.path.abspath(path)) for path in given}:
        folders |= _folders_held(here)  # `.`: its files' names begin with its folders' (a file here: its own)
    outside = {folder for folder in folders if not folder.is_relative_to(here)}
    bases = {folder: here for folder in folders}
    for folder in outside:
        bases[folder] = min((held for held in folder.parents if held in outside), key=_depth, default=folder).parent
    return _named_apart(bases, outside, output_dir)


def _depth(folder: PurePath) -> int:
    """How many folders lead to `folder` from its root."""
    return len(folder.parts)


def _named_apart(
    bases: dict[PurePath, PurePath], outside: set[PurePath], output_dir: str | None
) -> dict[PurePath, PurePath]:
    """`bases` (`inputs_folders`), those of folders `outside` the current directory raised until no two
    names begin alike (`_clashing`); InputsOfOneName, when files are written in `output_dir`, if two still
    do with nothing above to raise them to: folders of one path on two drives (Windows:
    `C:\\2025\\round1`, `D:\\2025\\round1`), or one a folder here holds (`round1` in `.`, given) and one
    below the root (`/round1`)."""
    while raised := _clashing(bases, outside):
        if not (raisable := {base for base in raised if base.parent != base}):
            if output_dir is None:  # the names are not written: any will do
                return bases
            raise InputsOfOneName(_said_alike(bases, raised))
        bases = {folder: base.parent if base in raisable else base for folder, base in bases.items()}
    return bases


def _clashing(bases: dict[PurePath, PurePath], outside: set[PurePath]) -> set[PurePath]:
    """The bases (`inputs_folders`) of folders outside the current directory whose names begin with the
    folder another's begins with, from another base, so that a file of one could be named as one of the
    other is (`/a/round1`, `/b/round1`: `round1`; `/a/round1`, `round1/late` here, or a `round1` that `.`
    holds: `_folders_held`). (The name of a folder inside another given begins as that one's, from its base.)"""
    begun: dict[tuple[str, ...], set[PurePath]] = {}
    for folder, base in bases.items():
        begun.setdefault(_first_name(folder, base), set()).add(base)
    return {base for folder, base in bases.items() if folder in outside and len(begun[_first_name(folder, base)]) > 1}


def _first_name(folder: PurePath, base: PurePath) -> tuple[str, ...]:
    """The folder the names of the files of `folder` begin with below `base` (none for its base's own),
    `case_blind`: `Round1` and `round1` are one folder on Windows and macOS."""
    return tuple(case_blind(part) for part in folder.relative_to(base).parts[:1])


def _folders_held(folder: PurePath) -> set[PurePath]:
    """The folders `folder` holds that are read (`walk` leaves out hidden ones, `.git`), named as the
    records' paths are (`shown_path`); none when it cannot be read (its reading says so)."""
    try:
        with os.scandir(folder) as entries:
            return {
                folder / shown_path(entry.name)
                for entry in entries
                if entry.is_dir() and not entry.name.startswith(".")
            }
    except OSError:
        return set()


def _said_alike(bases: dict[PurePath, PurePath], raised: set[PurePath]) -> str:
    """Two folders of `bases` whose files would be named alike, with nothing above to raise them to."""
    one = next(folder for folder, base in bases.items() if base in raised)
    name = _first_name(one, bases[one])
    other = next(folder for folder, base in bases.items() if _first_name(folder, base) == name and base != bases[one])
    earlier, later = sorted([one, other])
    return (
        f"the files of {earlier} and of {later} would be written in one folder of the output, "
        f"{one.relative_to(bases[one]).parts[0]}, "
        "whose names cannot be told apart from further up (they differ by their drive, or one is in the "
        "current directory and one below the root): write them in two runs, each to its own output folder"
    )


class InputsOfOneName(LusoriaError, ValueError):
    """Two inputs whose files `file_name` would name alike below the output folder, named from as far up
    as their folders go (`inputs_folders`)."""


def _apart(given: list[str | os.PathLike[str]], output_dir: str) -> None:
    """OutputAmongInputs when `output_dir` is one of the folders `given` or holds one."""
    written = os.path.realpath(output_dir)
    for path in given:
        read = os.path.realpath(path)
        if os.path.isdir(path) and _is_within(read, written):
            raise OutputAmongInputs(
                f"the output folder {output_dir} {'is' if read == written else 'holds'} the folder "
                f"{os.fspath(path)} read as input: what is written there would be read back at the next run; "
                f"give another folder (one inside a folder read, such as {os.path.join(path, 'site')}, is left "
                "out of its reading)"
            )


def _is_within(path: str, folder: str) -> bool:
    """Whether absolute `path` is `folder` or below it (on Windows, in any case, and never on another drive)."""
    return PurePath(path).is_relative_to(folder)


def folders_below(folder: PurePath, inputs: dict[PurePath, PurePath]) -> PurePath:
    """The folders that lead to absolute `folder` from the base of the deepest folder of `inputs` that
    holds it (`inputs_folders`); none (`PurePath()`) when none does, as for a record's text that names a
    file not given. Never a path relative to one on another drive (Windows), which `os.path.relpath` refuses."""
    held = next((given for given in [folder, *folder.parents] if given in inputs), None)
    return type(folder)() if held is None else folder.relative_to(inputs[held])


def file_name(source: RecordText, suffix: str, inputs: dict[PurePath, PurePath]) -> str:
    """The name of a record's own file below a directory (`convert --output-dir`, `html --output-dir`): `<file>-<n><suffix>`,
    `n` the record's number in its file, from 0, as every message and `--record` number it, in
    `NUMBER_WIDTH` digits so that name order is record order (`stdin-<n>` of one not read from a file),
    in the folders that lead to its file from the base of the deepest of `inputs` that holds it (`inputs_folders`:
    `a/game.otg` and `b/game.otg`: `a/game-000000.lgn` and `b/game-000000.lgn`; none but its name when
    none does)."""
    path = source.path
    number = f"{source.index:0{NUMBER_WIDTH}d}"
    if not names_a_file(path):
        return f"stdin-{number}{suffix}"
    folder = folders_below(PurePath(os.path.abspath(path)).parent, inputs)
    return str(PurePath(*map(_held, folder.parts), f"{_held(Path(path).stem)}-{number}{suffix}"))


def _held(shown: str) -> str:
    """A folder's or a file's name that `shown_path` shows, as an output's name holds it: as the file system
    holds it (`fs_path`), each byte that is not UTF-8 written `%NN` (`caf%E9`, where a Latin-1 `café` was
    `caf\\xe9`: a backslash, a folder's end on Windows, of a name no two readers took alike)."""
    return _NOT_UTF8.sub(_byte_written, fs_path(shown))


def _byte_written(byte: re.Match[str]) -> str:
    return f"%{ord(byte[0]) - 0xDC00:02X}"


_NOT_UTF8 = re.compile("[\udc80-\udcff]")  # a byte that is not UTF-8, as the file system's decoding keeps it
