"""Writing files whole or not at all: `fmt --write` and every `-o` write into a temporary
file beside the target, flush it to disk, then rename it over the target in one step. A full
disk or a kill mid-write leaves the old file as it was."""

from __future__ import annotations

import os
import stat
import tempfile


class AtomicFile:
    """A text file that takes the place of `path` on `commit()` (keeping the permissions of
    the file it replaces; a symbolic link is followed, so the link stays); OSError when it
    cannot be written. Leaving the `with` block without a commit removes it."""

    def __init__(self, path: str, encoding: str = "utf-8"):
        self.target = os.path.realpath(path)
        handle, self.temporary = tempfile.mkstemp(prefix=f".{os.path.basename(self.target)}.", suffix=".tmp",
                                                  dir=os.path.dirname(self.target))
        self.file = os.fdopen(handle, "w", encoding=encoding)
        self.committed = False

    def __enter__(self) -> "AtomicFile":
        return self

    def __exit__(self, *_) -> None:
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


def write_file(path: str, text: str, encoding: str = "utf-8") -> None:
    """Write `text` to `path` atomically (AtomicFile)."""
    with AtomicFile(path, encoding) as output:
        output.write(text)
        output.commit()


def same_file(first: str, second: str) -> bool:
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
