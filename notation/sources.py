"""What a source of records is (a file, a directory of record files, standard input, a text
stream, or the text of records itself), what a stream of records holds beside them (`Skipped`,
`Unreadable`), and the decoding of a file's bytes. lusoria.formats.sources reads the records
of a source, each file in its format."""

from __future__ import annotations

import codecs
import io
import os
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import AnyStr, BinaryIO, NamedTuple, TextIO, TypeGuard, Union

from lusoria.errors import LusoriaError
from lusoria.notation.reader import RecordText
from lusoria.words import CALLER, COMMAND, PAGE, Reader, escaped_name, plural, reason, told

STDIN = "-"
TEXT_NAME = "<text>"  # the place of records given as their text, from no file
Source = Union[str, os.PathLike, TextIO, BinaryIO, RecordText]  # see lusoria.formats.sources.read_sources


def names_a_file(path: str | None) -> TypeGuard[str]:
    """Whether a record's `path` names a file: not text (no path), nor `<stdin>` or a stream's `<name>`."""
    return bool(path and not path.startswith("<"))


def shown_place(path: str, line: int | None = None) -> str:
    """Where a record is, as every message says it: `path:line`, or `path` alone without a line;
    `<text>` for the path of a record given as its text (none)."""
    name = path or TEXT_NAME
    return name if line is None else f"{name}:{line}"


class InputError(LusoriaError):
    """A source that cannot be read at all (missing, unreadable, wrongly encoded); `parameter`
    names the argument of `read_sources` that may help (`encoding`), if one may, and `tries` the
    values of it that may read the source (never the one that failed), which `str()` says as a library
    call's keyword (`try encoding="latin-1"`) and each other surface in its own words (`advised`)."""

    def __init__(self, message: str, parameter: str | None = None, tries: tuple[str, ...] = (), trace: str = ""):
        super().__init__(message)
        self.parameter, self.tries = parameter, tries
        self.trace = trace  # the traceback of a plug-in's reader that failed (`--debug` shows it)

    def __str__(self) -> str:
        return self.advised()

    def advised(self, *, to: Reader = CALLER) -> str:
        """The message, and the values to try (`tries`) as `to` is told them (`advised`)."""
        return advised(self.args[0], self.parameter, self.tries, to=to)


def advised(message: str, parameter: str | None, tries: tuple[str, ...], *, to: Reader = CALLER) -> str:
    """`message`, and what to try, where there are `tries` of `parameter` (the encoding), as `to` can
    act on it: a library call's keyword argument (`try encoding="latin-1"`), a command's option (`try
    --encoding latin-1`), or, on a page or in an editor, what to do with the file (`open it as latin-1 and save it as UTF-8`);
    ValueError for a `to` that names no Reader (`told`)."""
    to = told(to)
    if not (parameter and tries):
        return message
    if to == COMMAND:
        return f"{message}; try --{parameter} {' or '.join(tries)}"
    if to == PAGE:
        return f"{message}; open the file as {' or '.join(tries)} and save it as UTF-8"
    return f"{message}; try " + " or ".join(f'{parameter}="{value}"' for value in tries)


def unreadable(name: str, error: OSError) -> InputError:
    """The InputError of a source `name` that the system could not read: what it says, in lower case."""
    return InputError(f"{name}: {reason(error)}")


@dataclass(frozen=True)
class Skipped:
    """A file in a directory that holds no records lusoria reads, and why; or (`met_again`) a note of a
    file or folder met again by a walk (named twice, or inside a folder named too), which was read, or
    said skipped, once: the summary's count of files skipped leaves it out, whatever the order met."""

    path: str
    reason: str
    met_again: bool = False

    def __str__(self) -> str:
        return f"{escaped_name(shown_path(self.path))}: skipped, {self.reason}"


def skipped_said(problems: Iterable[object]) -> str:
    """What a summary says of the files and folders skipped among `problems` (a stream's problems;
    `validate`'s and `import`'s last line alike): "" for none."""
    skipped = sum(isinstance(problem, Skipped) and not problem.met_again for problem in problems)
    if not skipped:
        return ""
    return f"; {plural(skipped, 'file or folder', 'files or folders')} skipped (each said with why)"


def inputs_said(problems: Iterable[object]) -> str:
    """What a command's last line (`validate`, `rules`, `duplicates`, `import`) says of the inputs among
    `problems` (each said as met): the files and folders skipped (`skipped_said`) and the sources that
    could not be read (those read but for a byte outside their records were read: their records are
    counted); "" for none."""
    problems = list(problems)
    unread = sum(isinstance(problem, Unreadable) and not problem.records_read for problem in problems)
    return skipped_said(problems) + (
        f"; could not read {plural(unread, 'source')} (each said with why)" if unread else ""
    )


@dataclass(frozen=True)
class Unreadable:
    """A source that could not be read (its InputError), as an item of a stream of records."""

    path: str
    message: str  # names the path
    parameter: str | None = None  # as InputError's
    tries: tuple[str, ...] = ()  # as InputError's
    trace: str = ""  # as InputError's
    records_read: bool = False  # its records were read, before a byte in a line none of them holds
    some_read: bool = False  # records of it were read before it stopped (at a line too long): summed up, it unread

    @classmethod
    def of(cls, path: str, error: InputError, records_read: bool = False, some_read: bool = False) -> Unreadable:
        """The source `path` that `error` says cannot be read (after its records, `records_read`; after some of
        them, `some_read`)."""
        return cls(path, error.args[0], error.parameter, error.tries, error.trace, records_read, some_read)

    def __str__(self) -> str:
        return self.advised()

    def advised(self, *, to: Reader = CALLER) -> str:
        """As InputError's."""
        return advised(self.message, self.parameter, self.tries, to=to)


@dataclass(frozen=True)
class Note:
    """What reading sources found to say that is no fault of theirs (a setting not applied to
    them, the records of a game type refused), as an item of a stream of records. The reading
    settings it names (`settings`: the tags given, `Game`) are written `{Game}` in its `message`,
    named by their tags (`str()`: a library call's `tags`) or as a caller names them (`said`)."""

    path: str  # a source it concerns ("" for several)
    message: str  # with `settings`, a str.format template (its own braces doubled)
    settings: tuple[str, ...] = ()

    def said(self, names: Mapping[str, str]) -> str:
        """The note, each setting named as `names` names it (the CLI: `--game`), by its tag else."""
        if not self.settings:
            return f"note: {self.message}"
        return "note: " + self.message.format_map({tag: names.get(tag, tag) for tag in self.settings})

    def __str__(self) -> str:
        return self.said({})


def literal(text: str) -> str:
    """`text` as a Note's template (`Note.settings`) holds it, to be said as it is: its braces doubled."""
    return text.replace("{", "{{").replace("}", "}}")


# What a stream of records holds beside them, each with its `.path`: a union of classes, which
# isinstance(item, Problem) tests, and narrows to in a user's type checker (a typing.Union it refused).
Problem = Skipped | Unreadable | Note


def shown_path(path: str) -> str:
    """A file name as text, one text a name: bytes that are not UTF-8 (kept by the file system's
    decoding) as \\xNN, and so a backslash (where it is no separator: POSIX) as \\\\."""
    if BACKSLASH_IN_NAMES:
        path = path.replace("\\", "\\\\")
    return path.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


BACKSLASH_IN_NAMES = os.sep != "\\"  # whether a file name may hold a backslash (shown doubled)
# what `shown_path` writes a byte that is not UTF-8 as, and a backslash
_ESCAPED = re.compile(r"\\(\\|x[89a-f][0-9a-f])" if BACKSLASH_IN_NAMES else r"\\(x[89a-f][0-9a-f])")


def fs_path(shown: str) -> str:
    """The file name `shown_path` shows as `shown`, as the file system's decoding gives it
    (os.fsdecode): each `\\xNN` the byte NN, each `\\\\` a backslash (POSIX); a backslash before
    anything else is one (as a name shown before backslashes were doubled holds it); one the file system's encoding
    does not write, its UTF-8 as that encoding decodes it (h81b: under `LC_ALL=C PYTHONUTF8=0`, ASCII, `ström.lgn` is
    `str\\udcc3\\udcb6m.lgn`, and `ström.lgn` could not be encoded, an import stopped)."""
    unescaped = _ESCAPED.sub(_unescaped, shown)
    try:
        os.fsencode(unescaped)  # (a name the file system writes as it is: UTF-8, Latin-1's `ström`, review81)
    except UnicodeError:
        return os.fsdecode(unescaped.encode("utf-8", "surrogateescape"))
    return unescaped


def _unescaped(escape: re.Match[str]) -> str:
    return "\\" if escape[1] == "\\" else chr(0xDC00 + bytes.fromhex(escape[1][1:])[0])


def is_text(source: Source) -> bool:
    """Whether a source is records' text rather than a path: a RecordText, or a str that holds
    a line break or starts with `[` (as every record with tags does; after a byte order mark too)
    and names no file (newcomer-57b: `[Uppsala] 2026.lgn`, as os.listdir gives it, was read as text)."""
    return (
        isinstance(source, RecordText)
        or isinstance(source, str)
        and ("\n" in source or source.removeprefix(BOM).startswith("[") and not os.path.exists(source))
    )


def file_named(text: str) -> str | None:
    """What is said of a text that is a file's name and a line break (a list of names read with readlines()),
    which is read as no record; None for any other text."""
    name = text.rstrip("\r\n")
    if "\n" in name or not os.path.exists(name):
        return None
    return (
        f"the text {text!r} is the name of a file and a line break: give the name without it (str.strip(); "
        "a list of names read with splitlines())"
    )


BOM = "\ufeff"  # the byte order mark, decoded: what a text decoded as utf-8, not utf-8-sig, starts with
HEAD = 4096  # the bytes of a file that say its format (lusoria.formats.format_of)
BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)  # UTF-32's before UTF-16's, its prefix


class Packing(NamedTuple):
    """A compression lusoria does not read, so it says how to undo it."""

    kind: str  # what compressed the file
    suffix: str  # its files' suffix
    command: str  # what decompresses it


COMPRESSED = {  # a compressed file's first bytes -> its Packing
    b"\x1f\x8b": Packing("gzip", ".gz", "gunzip"),
    b"BZh": Packing("bzip2", ".bz2", "bunzip2"),
    b"\xfd7zXZ": Packing("xz", ".xz", "unxz"),
    b"\x28\xb5\x2f\xfd": Packing("zstd", ".zst", "unzstd"),
    b"PK\x03\x04": Packing("zip", ".zip", "unzip"),
}
NOT_TEXT = {  # the first bytes of a file that is no text at all -> what it is, and what reads it
    b"SQLite format 3\x00": (
        "an SQLite database, not text (an archive: lusoria query, sql and export read it with --db; "
        "lusoria query --db FILE --id N --format lgn writes its record N)"
    ),
    b"PAR1": "a Parquet file, not text (lusoria export writes them for DuckDB, pandas, polars or Spark)",
}
PICTURES = (  # a picture's or a document's first bytes (a pattern: some hold a size first) -> what it is
    (rb"\x89PNG\r\n\x1a\n", "a PNG image"),
    (rb"\xff\xd8\xff", "a JPEG image"),
    (rb"GIF8", "a GIF image"),
    (rb"II\*\x00|MM\x00\*", "a TIFF image"),
    (rb"RIFF....WEBP", "a WebP image"),
    (rb"....ftyp(?:hei[cxsm]|mif1|msf1|avif)", "a HEIC or AVIF image"),  # a phone's photo
    (rb"%PDF-", "a PDF document"),
)
# The first bytes of a text that `lusoria export` writes (docs/archive.md, Export), or wrote (the
# positions of schema versions 3 and 4): a table's header (CSV: records, then the tables of a record's
# rows: tags, diagnostics, plies, variation_plies) or a record's line (JSON lines), whose game's name
# is within _HEAD bytes
EXPORTED = re.compile(
    rb"id,hash,game,|record_id,(name|number|ply|line),|alias,name\r?\n|key,game,position,board,"
    rb'|\{"id": \d+, "game": (null|"[^"\n]*"), "variant": '
)
EXPORT = (
    "a file of lusoria export, not records (an archive's tables, for DuckDB or pandas): "
    "lusoria query --format lgn writes an archive's records for another archive to import"
)
_HEAD = max(100, *map(len, [*COMPRESSED, *NOT_TEXT]))  # the bytes that tell a file's encoding (UTF-32's mark) or kind
# the first 4 bytes of ASCII text in UTF-16 or UTF-32 without a byte-order mark, 0 a NUL byte and x
# another (as RFC 4627 tells JSON's) -> that encoding
UNMARKED = {"x0x0": "utf-16-le", "0x0x": "utf-16-be", "x000": "utf-32-le", "000x": "utf-32-be"}


def compressed(packing: Packing) -> str:
    """What is said of a compressed file, which lusoria does not read: how to read it."""
    return f"a {packing.kind}-compressed file, not text: decompress it first ({packing.command})"


def encoding_refused(encoding: str) -> str | None:
    """What is wrong with `encoding` as the name of a text encoding (none Python knows; a byte
    codec: rot13, hex); None when it is one."""
    try:
        codec = codecs.lookup(encoding)
    except LookupError:
        return f"unknown encoding {encoding[:40]!r} (e.g. utf-8, latin-1, cp1252)"
    return None if getattr(codec, "_is_text_encoding", True) else f"{encoding!r} is not a text encoding"


def codec_for(start: bytes, encoding: str) -> str:
    """The codec that decodes a file whose first bytes are `start`, read in `encoding`: the Unicode
    encoding its byte-order mark says, whatever `encoding`, the mark dropped (a file saved in UTF-8 by
    Notepad, with its mark, in a folder read with `--encoding cp1252`, was not read: `ï»¿[Game`); else `encoding`,
    utf-8-sig as utf-8: a codec of `-sig` says the mark is there (`undecodable_byte`)."""
    if marked := next((codec for bom, codec in BOMS if start.startswith(bom)), None):
        return marked
    try:
        return "utf-8" if codecs.lookup(encoding).name == "utf-8-sig" else encoding
    except LookupError:
        return encoding  # (reading the file says it is unknown)


def head_text(head: bytes, encoding: str = "utf-8") -> str:
    """The first bytes of a file as text, to tell its format: decoded as the file is (`codec_for`),
    what does not decode replaced."""
    try:
        return head.decode(codec_for(head, encoding), "replace")
    except LookupError:
        return ""  # the encoding is unknown: reading the file says so


def not_read(start: bytes, encoding: str) -> InputError | None:
    """Why a file whose first bytes are `start` is not read as text in `encoding` (its place aside): a
    compressed file, an SQLite database, a file of `lusoria export`, a picture or a PDF, or, read as
    UTF-8, text in UTF-16 or UTF-32 without a byte-order mark (NUL bytes: the encoding to try); None
    for a file read."""
    packed = next((how for magic, how in COMPRESSED.items() if start.startswith(magic)), None)
    if packed:
        return InputError(compressed(packed))
    kind = next((kind for magic, kind in NOT_TEXT.items() if start.startswith(magic)), None)
    if kind or EXPORTED.match(start):
        return InputError(kind or EXPORT)
    picture = next((kind for magic, kind in PICTURES if re.match(magic, start, re.S)), None)
    if picture:
        return InputError(
            f"{picture}, not text: lusoria reads records written as text (an .lgn file: docs/notation.md)"
        )
    wide = UNMARKED.get("".join("x0"[byte == 0] for byte in start[:4]))
    if wide and codecs.lookup(codec_for(start, encoding)).name == "utf-8":
        said = f"byte {start.index(0)} (line 1) is a NUL byte: the file starts as {wide} text without a byte-order mark does"
        return InputError(said, "encoding", (wide,))
    return None


class LineTooLong(InputError):
    """A line longer than MAX_LINE (`decoded_text`): the records that end before it are read before it
    is said (`lusoria.formats.sources`; h72b: the record before such a line was lost)."""


CHUNK = 1 << 20  # characters decoded at a time
MAX_LINE = 1 << 26  # characters in one line (64 Mi: 1.2 million plies); /dev/zero is one endless line


def decoded_text(
    stream: BinaryIO, path: str, encoding: str = "utf-8", read: bytes = b"", escaped: bool = False
) -> Iterator[str]:
    """The stream as pieces of text with `\\n` line ends (CRLF and CR too), the bytes `read` from it
    already first; a leading byte-order mark says the file's Unicode encoding, and is dropped (`codec_for`).
    Bytes that do not decode are an InputError naming their offset,
    or, `escaped`, each a lone surrogate (U+DC80 to U+DCFF, as `surrogateescape` makes it: ESCAPED_BYTE) in a
    single-byte encoding or UTF-8, and in UTF-16 or UTF-32 each code unit that does not decode one
    (`_escaped_unit`); so
    is a line longer than MAX_LINE (the rest is not read), and a file whose first bytes say it is no
    text to read: compressed, an SQLite database, UTF-16 or UTF-32 without a byte-order mark read as UTF-8."""
    try:
        start = read + stream.read(max(0, _HEAD - len(read)))
        refused = not_read(start, encoding)
        if refused:
            raise InputError(f"{path}: {refused.args[0]}", refused.parameter, refused.tries)
        codec = codec_for(start, encoding)
        counted = _Counting(stream, start, codec)
        errors = ("lusoria-units" if _wide(codec) else "surrogateescape") if escaped else "strict"
        text = io.TextIOWrapper(counted, codec, errors, newline=None)  # type: ignore[type-var]
    except LookupError as error:  # an encoding that is none: said as `walk` says it before any file is read
        raise InputError(f"{path}: {encoding_refused(encoding) or error}", "encoding") from None
    except OSError as error:
        raise unreadable(path, error) from None
    try:
        line, length = 1, 0  # the line being read, and its characters so far
        size = min(CHUNK, MAX_LINE)  # (a line a piece holds whole is shorter than it: within MAX_LINE)
        for chunk in iter(lambda: text.read(size), ""):
            first = chunk.find("\n")  # (review72: a line over two pieces was measured from its last)
            if length + (len(chunk) if first < 0 else first) > MAX_LINE:
                raise LineTooLong(
                    f"{path}: line {line} is longer than {MAX_LINE:,} characters, the most lusoria "
                    "reads; the rest of the file is not read"
                )
            if first >= 0:
                line, length = line + chunk.count("\n"), len(chunk) - chunk.rfind("\n") - 1
            else:
                length += len(chunk)
            yield chunk
    except OSError as error:
        raise unreadable(path, error) from None
    except UnicodeDecodeError as error:
        offset = counted.consumed - len(error.object) + error.start  # what the decoder holds ends at the bytes read
        line = (
            counted.lines + counted.line_ends(counted.last[: max(0, offset - counted.consumed + len(counted.last))]) + 1
        )
        raise undecodable(f"{path}: byte {offset} (line {line})", error, codec_for(start, encoding), encoding) from None
    except UnicodeError as error:  # UTF-16 or UTF-32 without a byte-order mark
        raise unmarked(path, encoding) or InputError(f"{path}: not valid {encoding}: {error}") from None


SINGLE_BYTE = ("latin-1", "cp1252")  # the encodings of older transcriptions; latin-1 decodes every byte


def garbled_by(path: str | os.PathLike[str], encoding: str) -> bool:
    """Whether `encoding`, a single-byte one, misreads the file at `path`: its first MiB, with no byte-order
    mark, holds characters beyond ASCII and decodes as UTF-8 (h70a: a folder read with `--encoding cp1252`, as a
    file of it asked, read `Bjørn` of another as `BjÃ¸rn`); any single-byte one, by any of its names (review80b:
    `windows-1252`, `latin1`, `cp850` rewrote a UTF-8 file garbled under `fmt --write`)."""
    if not _single_byte(encoding):
        return False
    try:
        with open(path, "rb") as file:
            head = file.read(CHUNK)
    except OSError:
        return False  # (reading it says why)
    if head.isascii() or codec_for(head, encoding) != encoding:
        return False
    try:
        codecs.getincrementaldecoder("utf-8")().decode(head)  # (a character cut at the end is no fault)
    except UnicodeDecodeError:
        return False
    return True


def _single_byte(encoding: str) -> bool:
    """Whether `encoding` writes a letter beyond ASCII in one byte (latin-1, cp1252, cp850…, by any of its names)."""
    try:
        return len("ø".encode(encoding)) == 1
    except (LookupError, UnicodeEncodeError):
        return False


ESCAPED_BYTE = re.compile("[\udc10\udc20\udc80-\udcff]")  # a byte (a code unit) that did not decode, escaped
REPLACEMENT = "\ufffd"  # what a record's text, or a message quoting it, holds where a byte did not decode
_ESCAPES = {byte: 0xDC00 + byte for byte in range(0x80, 0x100)}  # a byte read as latin-1 -> its ESCAPED_BYTE
_UNIT_ESCAPES = {16: "\udc10", 32: "\udc20"}  # of a UTF-16 or UTF-32 code unit: no byte escapes to them


def _escaped_unit(error: UnicodeError) -> tuple[str, int]:
    """A UTF-16 or UTF-32 code unit that does not decode (a surrogate alone, or past U+10FFFF) as one
    character, which ESCAPED_BYTE finds and `undecodable_byte` says: its place counts one character
    as its character's would, and the decoder goes on at the next unit, as `surrogateescape` does. A
    file that ends inside a unit (cut short) stays an error (`undecodable`)."""
    if not isinstance(error, UnicodeDecodeError) or error.reason == "truncated data":
        raise error
    return _UNIT_ESCAPES[16 if "16" in error.encoding else 32], error.end


codecs.register_error("lusoria-units", _escaped_unit)


def _wide(codec: str) -> bool:
    """Whether `codec` is UTF-16's or UTF-32's, whose characters are no byte long."""
    return codecs.lookup(codec).name.startswith(("utf-16", "utf-32"))


def undecodable_byte(byte: str, encoding: str) -> str:
    """What is said of a byte that `encoding` does not decode (`byte`: its ESCAPED_BYTE), or of a code
    unit of UTF-16 or UTF-32 (as a byte-order mark says) that does not decode."""
    width = next((width for width, escape in _UNIT_ESCAPES.items() if escape == byte), None)
    if width is not None:
        past = ", or past U+10FFFF" if width == 32 else ""
        return f"a code unit is not valid UTF-{width} (a surrogate alone{past})"
    marked = " (as its byte-order mark says)" if encoding.endswith("-sig") else ""  # (`codec_for`)
    return f"byte 0x{ord(byte) - 0xDC00:02X} is not valid {encoding.removesuffix('-sig')}{marked}"


def undecodable_unit(byte: str) -> str:
    """What a thing that did not decode (`byte`: its ESCAPED_BYTE) is: a `byte`, or a `code unit` of UTF-16 or UTF-32."""
    return "code unit" if byte in _UNIT_ESCAPES.values() else "byte"


def encodings_to_try(escaped: str, encoding: str) -> tuple[str, ...]:
    """The encodings to try on bytes that `encoding` does not decode (`escaped`: their ESCAPED_BYTEs, the
    first first): the single-byte ones, none for a code unit of UTF-16 or UTF-32, whose files are no older
    transcriptions, nor for a file whose byte-order mark says UTF-8, whatever the encoding given (`codec_for`)."""
    if undecodable_unit(escaped[:1]) == "code unit" or encoding.endswith("-sig"):
        return ()
    return single_byte_tries(encoding, escaped)


def single_byte_tries(encoding: str, escaped: str = "") -> tuple[str, ...]:
    """The single-byte encodings to try on bytes that `encoding` does not decode (`escaped`, as
    ESCAPED_BYTE escapes them): not itself; cp1252 first when one is a byte 0x80-0x9F and cp1252 reads
    them all: its letters and quotes (`Œ`, `–`, `“`), which latin-1 reads as control characters
    (newcomer-56a)."""
    name = codecs.lookup(encoding).name
    order = SINGLE_BYTE[::-1] if _cp1252_letters(escaped) else SINGLE_BYTE
    return tuple(other for other in order if codecs.lookup(other).name != name)


def _cp1252_letters(escaped: str) -> bool:
    """Whether bytes (as ESCAPED_BYTE escapes them) hold one of 0x80-0x9F and cp1252 reads them all."""
    found = bytes(ord(byte) - 0xDC00 for byte in escaped if "\udc80" <= byte <= "\udcff")
    try:
        found.decode("cp1252")
    except UnicodeDecodeError:
        return False
    return any(0x80 <= byte <= 0x9F for byte in found)


def undecodable(place: str, error: UnicodeDecodeError, codec: str, encoding: str) -> InputError:
    """The InputError of bytes at `place` that `codec` (read as `encoding`, or as a byte-order
    mark says) does not decode: what was expected of them, and the single-byte encodings to try
    instead (none for UTF-16 and UTF-32, whose files are no older transcriptions)."""
    name, codec = codecs.lookup(codec).name, codec.removesuffix("-sig")
    chosen = name.removesuffix("-sig") != codecs.lookup(encoding).name.removesuffix("-sig")  # (windows-1252 is cp1252)
    marked = " (as its byte-order mark says)" if chosen else ""
    if error.reason in ("truncated data", "unexpected end of data"):
        said = f"{place}: the file ends inside a {codec} character{marked}"
    else:
        said = f"{place} is not valid {codec}{marked}"
    escaped = error.object[error.start : error.end].decode("latin-1").translate(_ESCAPES)
    return InputError(said, "encoding", () if _wide(name) else single_byte_tries(name, escaped))


def unmarked(path: str, encoding: str) -> InputError | None:
    """The InputError of a file read as UTF-16 or UTF-32 (of either byte order) that does not
    start with a byte-order mark, which those two need: the encodings of one byte order to try."""
    name = codecs.lookup(encoding).name
    if name not in ("utf-16", "utf-32"):
        return None
    return InputError(
        f"{path}: byte 0 (line 1): a {name} file starts with a byte-order mark, and this one has none",
        "encoding",
        (f"{name}-le", f"{name}-be"),
    )


class _Counting(io.RawIOBase):
    """A binary stream that keeps count of the bytes and lines read before its last
    chunk, and that chunk (to locate a decoding error); `start`: bytes already read from
    `stream`, given first; `codec`: what decodes them, whose line ends (LF, CRLF, CR) are counted."""

    def __init__(self, stream: BinaryIO, start: bytes = b"", codec: str = "utf-8"):
        self.stream, self.start, self.consumed, self.lines, self.last = stream, start, 0, 0, b""
        # in UTF-16 and UTF-32, a line end is no byte of its own
        self.decoder = codecs.getincrementaldecoder(codec)("replace") if _wide(codec) else None
        self.after_cr = False  # the bytes counted so far end with a CR (whose LF next is the same line end)

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        # a whole buffer, the start's bytes first: the start alone would end a chunk inside a character
        data, self.start = self.start[: len(buffer)], self.start[len(buffer) :]
        data += self.stream.read(len(buffer) - len(data)) if len(data) < len(buffer) else b""
        self.lines += self.line_ends(self.last)
        self.last = data
        buffer[: len(data)] = data
        self.consumed += len(data)
        return len(data)

    def line_ends(self, data: bytes) -> int:
        """The line ends in `data`, the bytes after those counted so far."""
        if self.decoder is None:
            return self._ends(data, b"\n", b"\r")
        try:
            return self._ends(self.decoder.decode(data), "\n", "\r")
        except UnicodeError:  # no byte-order mark: the file's decoding fails at once and says so
            return 0

    def _ends(self, piece: AnyStr, lf: AnyStr, cr: AnyStr) -> int:
        ends = piece.count(lf) + piece.count(cr) - piece.count(cr + lf) - (self.after_cr and piece[:1] == lf)
        self.after_cr = piece.endswith(cr) if piece else self.after_cr
        return ends
