"""Writing files whole or not at all: every file lusoria writes for its user (`fmt --write`,
every `-o`, `convert --output-dir`, `export`) is written into a temporary file beside the
target, flushed to disk, then renamed over the target in one step. A full disk or a kill
mid-write leaves the old file as it was (tests/test_files.py checks that nothing else writes).
The files of an output folder, a record's each, are written by one policy (`OutputDir`)."""

from __future__ import annotations

import errno
import os
import re
import stat
import tempfile
import time
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from lusoria.words import CALLER, COMMAND, Reader, reason, told


def case_blind(path: str) -> str:
    """`path` as one key for the names Windows or macOS take for one (neither tells case apart, macOS no form of
    an accent): composed (NFC: macOS takes `é` and `e` with a combining accent for one name) and each letter in
    its upper case where that is one letter, as Windows folds names (`Round1` is `ROUND1`; a final `ς` and
    `σ` are both `Σ`, which `str.lower` keeps apart; `Straße` is not `Strasse`, as `str.casefold` would have
    it: `ß` has no upper case of one letter)."""
    return "".join(map(_upper, unicodedata.normalize("NFC", path)))


def _upper(letter: str) -> str:
    upper = letter.upper()
    return upper if len(upper) == 1 else letter


class AtomicFile:
    """A file that takes the place of `path` on `commit()` (keeping the permissions of the file
    it replaces); OSError when it cannot be written. A symbolic link at `path` is followed (the
    link stays) unless `follow` is False: then it is replaced, never written through. Text in
    `encoding` (with `newline` as `open` takes it), or bytes when `binary`. Leaving the `with`
    block without a commit removes it."""

    def __init__(
        self, path: str, encoding: str = "utf-8", newline: str | None = None, binary: bool = False, follow: bool = True
    ):
        self.target = os.path.realpath(path) if follow else os.path.abspath(path)
        _swept(os.path.dirname(self.target))
        handle, self.temporary = tempfile.mkstemp(
            prefix=f".{_cut(os.path.basename(self.target))}.lusoria-{os.getpid()}.",
            suffix=".tmp",
            dir=os.path.dirname(self.target),
        )
        self.file: IO[Any] = (
            os.fdopen(handle, "wb") if binary else os.fdopen(handle, "w", encoding=encoding, newline=newline)
        )
        self.committed = False

    def __enter__(self) -> AtomicFile:
        return self

    def __exit__(self, kind: object, error: BaseException | None, trace: object) -> None:
        if isinstance(error, OSError) and error.filename in (None, self.temporary):
            error.filename = self.target  # the file that could not be written, for the message
        if not self.committed:
            self.discard()

    def write(self, text: str) -> None:
        self.file.write(text)

    def commit(self) -> None:
        self.file.flush()
        os.fsync(self.file.fileno())
        self.file.close()
        os.chmod(self.temporary, mode_for(self.target))
        os.replace(self.temporary, self.target)
        self.committed = True
        directory = os.open(os.path.dirname(self.target), os.O_RDONLY)
        try:
            os.fsync(directory)
        finally:
            os.close(directory)

    def discard(self) -> None:
        try:
            self.file.close()
        except OSError:
            pass  # the disk is full: what could not be written is dropped with the file
        if os.path.exists(self.temporary):
            os.remove(self.temporary)


def _cut(name: str, most: int = 200) -> str:
    """`name` cut to `most` bytes as the file system writes it, at a character's end: what a temporary file's name
    holds of its target's, with room for its own parts within the 255 bytes a name holds (h80c: a target of a long
    name, a page of a round's long file name, was not written, its temporary file's name too long)."""
    while len(os.fsencode(name)) > most:
        name = name[:-1]
    return name


_LEFT = re.compile(r"\.(?:.+)\.lusoria-([0-9]{1,10})\.[^.]+\.tmp")  # an AtomicFile's temporary file: its writer's
# process id
LEFT_FOR = 3600  # seconds a temporary file is left unchanged before `_swept` takes it for a killed writer's
_SWEPT: set[str] = set()  # the folders `_swept` in this process


def _swept(folder: str) -> None:
    """Remove, once a process, the temporary files an AtomicFile left in `folder`, its writer killed mid-write (h81b:
    a killed `html --output-dir` left `.game-000000.html.….tmp` among the pages published, for good): lusoria's, by
    their name, unchanged for LEFT_FOR, of a process that does not run. A writer of another machine or container (a
    process id not of this one's) changes its file as it writes it (review81: one was removed mid-write), and a name
    not lusoria's is left (`.thesis.2024.draft.tmp`). Not on Windows, where no signal asks whether a process runs."""
    if folder in _SWEPT or os.name == "nt":
        return
    _SWEPT.add(folder)
    try:
        names = os.listdir(folder)
    except OSError:
        return  # (writing there says why)
    for name in names:
        if (left := _LEFT.fullmatch(name)) and not _running(int(left[1])):
            path = os.path.join(folder, name)
            try:
                if time.time() - os.lstat(path).st_mtime > LEFT_FOR:
                    os.remove(path)
            except OSError:
                pass  # (removed by another run meanwhile, or not ours to remove)


def _running(pid: int) -> bool:
    """Whether process `pid` runs (or may: one of another user's)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, ValueError):
        return True
    return True


def write_file(path: str, text: str, follow: bool = True) -> None:
    """Write `text` to `path` atomically (AtomicFile), its UTF-8 bytes as they are: its own line ends on
    every platform, as `holds` compares them (text mode wrote `\r\n` for `\n` on Windows, where `holds`
    found no earlier run's file as it would be written, and `fmt --write` kept `\r\n` as `\r\r\n`)."""
    with AtomicFile(path, binary=True, follow=follow) as output:
        output.file.write(text.encode("utf-8"))
        output.commit()


def holds(path: str, text: str) -> bool:
    """Whether the file at `path`, not a symbolic link, holds `text` as `write_file` writes it."""
    encoded = text.encode("utf-8")
    try:
        if os.path.islink(path) or os.path.getsize(path) != len(encoded):
            return False
        with open(path, "rb") as file:
            return file.read() == encoded
    except OSError:
        return False


def output_in(directory: str, name: str) -> str:
    """The path of file `name` (in folders of its own below `directory`, when it names some) that a
    command writes among its outputs in `directory`; the folders are made if missing. OSError when
    one cannot be made, or when that file, or a folder on its way below `directory`, is a symbolic
    link, which such a command replaces (follow=False) but never writes through."""
    if os.path.exists(directory) and not os.path.isdir(directory):
        raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), directory)
    path = directory
    for part in Path(name).parts:
        path = os.path.join(path, part)
        if os.path.islink(path):
            raise OSError(errno.ELOOP, "it is a symbolic link, which lusoria does not write through", path)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    return path


def same_file(first: str, second: str | os.PathLike[str]) -> bool:
    """Whether two paths name one file (through links too)."""
    try:
        return os.path.samefile(first, second)
    except OSError:
        return os.path.realpath(first) == os.path.realpath(second)


def mode_for(path: str) -> int:
    """The permissions a file written to `path` through a temporary file gets: those of the
    file there, or else those of any new file (the umask applied)."""
    try:
        return stat.S_IMODE(os.stat(path).st_mode)
    except FileNotFoundError:
        return 0o666 & ~_umask()


def _umask() -> int:
    """The process's umask: read where Linux shows it, else set and set back (which other
    threads creating files at that moment would see)."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except OSError:
        pass
    mask = os.umask(0)
    os.umask(mask)
    return mask


def cannot_write(path: object, error: OSError) -> str:
    """What is said of a file that could not be written."""
    return f"cannot write {path}: {reason(error)}"


_REFUSED = {  # why a file of an OutputDir was not written (`Written.refused`), in the words of `Written.said`
    "there": "{path} is already there ({overwrite} writes over it)",
    "twice": "{path} holds {cause}, written by this {run} (two inputs of one name, or of names that Windows or macOS "
    "hold as one, differing in case or in an accent written composed or combining{escaped})",
    "failed": "{cause}",
    "foreign": "{path} is not an index lusoria wrote, or its list of games cannot be read ({overwrite} writes over "
    "it, listing this run's pages alone)",
}
_ESCAPED = (  # (`convert._held`: a Latin-1 `café.lgn` and a `caf%E9.lgn`)
    ", or a name not in UTF-8, each byte of it written %NN in an output's name (a Latin-1 café: caf%E9), and a name "
    "that holds it so (caf%E9): write them into different folders, or rename the one not in UTF-8"
)


@dataclass(frozen=True)
class Written:
    """A file an OutputDir was given: its `path` and `what` it holds (`FILE, record N`, the index); whether it was
    written now (`wrote`; not when it held that already), or why it was not (`refused`: a key of `_REFUSED`, which
    `said` words; `cause`: the record the file holds, or the system's reason)."""

    path: str
    what: str
    wrote: bool = False
    refused: str | None = None
    cause: str = ""
    escaped: bool = False  # its name holds a byte not UTF-8 written %NN (`convert._held`): said of two names alike

    def said(self, *, to: Reader = CALLER) -> str | None:
        """Why it was not written, with the option that writes over it as `to` gives it (`--overwrite`,
        `overwrite=True`); None when it was, or held it already. ValueError for a `to` that names no Reader."""
        command = told(to) == COMMAND
        if self.refused is None:
            return None
        escaped = _ESCAPED if self.escaped else ": write them into different folders"
        why = _REFUSED[self.refused].format(
            path=self.path,
            cause=self.cause,
            overwrite="--overwrite" if command else "overwrite=True",
            run="command" if command else "OutputDir",
            escaped=escaped,
        )
        return f"{self.what} not written: {why}"


class OutputDir:
    """The files one run writes in `directory` (convert's, html's and show's --output-dir; a library's caller of
    `convert`, `diagrams` and `replay_pages` given an `output_dir`): each whole or not at all, never over a file it
    wrote before (its name alike as Windows or macOS compare names: `case_blind`) nor through a symbolic link, nor,
    unless `overwrite`, over a file there before; a file that holds the text already is left as it is."""

    def __init__(self, directory: str, overwrite: bool = False) -> None:
        self.directory = directory
        self.overwrite = overwrite
        self._held: dict[str, str] = {}  # the files written (`case_blind`), and what each holds

    def __repr__(self) -> str:
        return f"OutputDir({self.directory!r}, overwrite={self.overwrite})"

    def write(self, name: str, text: str, what: str, overwrite: bool | None = None) -> Written:
        """Write `text`, of `what` (a record, the index), to its own file `name` (in folders below `directory`, made
        as needed: `output_in`); `overwrite`, this file's, else the folder's."""
        path = os.path.join(self.directory, name)
        if (key := case_blind(path)) in self._held:
            escaped = re.search("%[89A-F][0-9A-F]", name) is not None  # (a byte not UTF-8 is 80 to FF: `50%.lgn` holds
            # none; of the name alone, not of DIR's: review82)
            return Written(path, what, refused="twice", cause=self._held[key], escaped=escaped)
        if holds(path, text):
            self._held[key] = what
            return Written(path, what)
        if not (self.overwrite if overwrite is None else overwrite) and os.path.lexists(path):
            return Written(path, what, refused="there")
        try:
            write_file(output_in(self.directory, name), text, follow=False)
        except OSError as error:
            return Written(path, what, refused="failed", cause=cannot_write(error.filename or path, error))
        self._held[key] = what
        return Written(path, what, wrote=True)

    def holds(self, name: str, what: str) -> bool:
        """Whether file `name` holds `what`, written by this run (or held so already)."""
        return self._held.get(case_blind(os.path.join(self.directory, name))) == what
