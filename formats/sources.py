"""The records of any source, each file read in its format (lusoria.formats): files, directories
walked for files in lusoria's formats, standard input, text streams, or the text of records
itself (as python-chess's readers take any text stream). What a source is, and the decoding of
its bytes, are notation.sources'."""

from __future__ import annotations

import codecs
import io
import os
import re
import sys
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import replace
from itertools import chain, compress
from pathlib import Path
from typing import BinaryIO, TextIO, TypeGuard, cast

from lusoria.errors import LusoriaError
from lusoria.formats import FORMATS, Format, HookFailed, format_named, format_of, read_text
from lusoria.notation.escapes import as_lines
from lusoria.notation.json_input import starts_as_json
from lusoria.notation.reader import STDIN_NAME, STREAM_NAME, RecordText, split_records, whole_lines
from lusoria.notation.slips import RESULTS
from lusoria.notation.sources import (
    BOM,
    CHUNK,
    ESCAPED_BYTE,
    EXPORTED,
    HEAD,
    REPLACEMENT,
    STDIN,
    InputError,
    LineTooLong,
    Skipped,
    Source,
    codec_for,
    decoded_text,
    encoding_refused,
    encodings_to_try,
    file_named,
    head_text,
    is_text,
    names_a_file,
    shown_path,
    undecodable_byte,
    undecodable_unit,
    unreadable,
)
from lusoria.notation.syntax import Undecodable
from lusoria.words import first_few, plural, reason


def walk(
    paths: Iterable[Source | Skipped] | Source,
    format: str | None = None,
    encoding: str = "utf-8",
    leave_out: str | os.PathLike[str] | None = None,
) -> Iterator[Source | Skipped]:
    """Files as given; directories searched recursively, in sorted order, for files in one of
    lusoria's formats (lusoria.formats: by name, then by content, decoded from `encoding`; names in any case), or with a
    forced `format`, for every file with that format's extension (`*.txt` for tafl move lists,
    whatever they start with); the other files there come as Skipped, but hidden ones (`_below`),
    those of a suffix a format sums up (`.log`) in one Skipped of the directory given, and a
    directory of no file to read is one Skipped (`NO_FILE`), and a folder that cannot be listed (no
    permission: the one given or one below it) one Skipped that says why.
    Streams, text and Skipped items (of an earlier walk) come as they are. One source given alone is one source
    (`validate("games")`: the folder, not the letters of its name, one of which is `/`). A file
    met again (given twice, or inside a directory given too) comes as Skipped, standard input (`-`)
    given twice too: it is read, or said skipped, once (the files of a directory met again, as one
    Skipped of the directory); but a file that a directory would skip and that is given by its own path too is not said skipped there: it is
    read where given, by what it holds (read once: met again after, it comes as Skipped), when `paths` is a
    list or tuple (an iterator is walked as it comes, its later items unknown). The folder `leave_out` (the one
    `--output-dir` writes to) is not searched, though below a directory given: a run never reads an
    earlier run's files as its inputs. An `encoding` that is none
    (`encoding_refused`) is one InputError, and a `format` that is none a ValueError (`format_named`),
    before any source is read."""
    if refused := encoding_refused(encoding):
        raise InputError(refused, "encoding")
    forced = format_named(format) if format is not None else None
    met: dict[str, str] = {}
    unread: set[str] = set()  # the real paths of the files met and said skipped (`_once`)
    told = False  # whether a skipped file of a suffix no format reads was told how to read one (`UNREAD_HINT`)
    kin_told = False  # whether the skipped files of a suffix a format's files are saved as were (`Formats.kin_of`)
    sources = given(paths)
    named = (  # (the files of a list; an iterator's items are read as they come, none looked ahead at)
        {os.path.realpath(path) for path in sources if _is_path(path) and not _is_dir(path)}
        if isinstance(sources, Sequence)
        else set()
    )
    for path in sources:
        if path == STDIN and STDIN in met:  # (read once: what is left of it is nothing)
            yield Skipped(STDIN, "named again: read once", met_again=True)
        elif not _is_path(path):
            if path == STDIN:
                met[STDIN] = STDIN
            yield path  # (an empty path, not the current folder: `read_sources` refuses it)
        elif not _is_dir(path):
            yield _once(path, met, unread)  # (one a folder left unread before is read now)
        else:
            again: list[Skipped] = []
            skipped_again = 0  # of them, those said skipped when first met
            summed: dict[str, list[Skipped]] = {}  # by suffix, files that no format takes, said in one note
            unlisted: list[OSError] = []  # (a folder that cannot be listed: no permission)
            inside = sorted(p for p in _below(path, leave_out, unlisted.append) if p.is_file() or _broken_link(p))
            for error in unlisted:  # (the folder given, or one below it)
                yield Skipped(os.fspath(error.filename or path), f"it cannot be read: {reason(error)}")
            if not inside and not unlisted:
                yield Skipped(os.fspath(path), NO_FILE)
            for found in inside:
                if isinstance(once := _once(str(found), met, unread, named=False), Skipped):
                    again.append(once)  # (read or skipped already, said once)
                    skipped_again += os.path.realpath(found) in unread
                    continue
                if forced is not None:
                    why = "" if found.name.lower().endswith(forced.suffixes) else FORMATS.why_not(str(found), format)
                elif (head := _head(found, encoding)) is not None and FORMATS.of(str(found), head) is None:
                    why = FORMATS.why_not(str(found), head=head)
                else:
                    why = ""  # (read: a file of one of the formats, or one that cannot be read, to say why)
                if not why:
                    yield once
                    continue
                unread.add(os.path.realpath(found))
                if os.path.realpath(found) in named:  # (given by its own path too: read there, not said skipped)
                    yield Skipped(str(found), NAMED_TOO, met_again=True)
                    continue
                if forced is None and FORMATS.summed(str(found)):
                    summed.setdefault(found.suffix.lower(), []).append(Skipped(str(found), why))
                elif forced is None and FORMATS.sniffed(str(found)) and empty_file(found, encoding):
                    yield Skipped(str(found), EMPTY)  # one of a format's suffixes
                elif not told and (hinted := _hinted(found, encoding, format)):
                    told = True
                    yield Skipped(str(found), hinted)
                elif forced is None and FORMATS.kin_of(str(found)):  # (`game.pgn`: said with the others)
                    summed.setdefault(found.suffix.lower(), []).append(Skipped(str(found), why))
                else:
                    yield Skipped(str(found), why)
            # one note for the files of a folder met again (named twice, or inside a folder named too)
            yield from _one_note(
                path, again, f"{len(again)} of its files met already: {_met_again(again, skipped_again)}"
            )
            for files in summed.values():
                kin = "" if kin_told else FORMATS.kin_of(files[0].path)  # (how to read one: said once a run)
                kin_told = kin_told or bool(kin)
                yield from _one_note(path, files, FORMATS.why_not(files[0].path, count=len(files)), kin)


def _one_note(folder: str | os.PathLike[str], skipped: list[Skipped], reason: str, more: str = "") -> list[Skipped]:
    """The files of a folder skipped for one reason: a note of its own for one, one note of the folder for
    more (met again, when they were: `Skipped.met_again`); `more` said after the one note's reason."""
    if len(skipped) < 2:
        return [replace(file, reason=file.reason + more) for file in skipped]
    return [Skipped(os.fspath(folder), reason + more, skipped[0].met_again)]


def _met_again(again: list[Skipped], skipped: int) -> str:
    """What became of the files of a folder met already (`again`), `skipped` of them said skipped when first met."""
    if not skipped:
        return "read once"
    if skipped == len(again):
        return SAID_SKIPPED
    return f"{len(again) - skipped} read once, {skipped} {SAID_SKIPPED}"


SAID_SKIPPED = "said skipped once"  # what became of a file met again, said skipped when first met
NAMED_TOO = "named by its own path too: read there, once"  # a file its folder would skip, named after it


def _once(
    path: str | os.PathLike[str], met: dict[str, str], unread: set[str], named: bool = True
) -> str | os.PathLike[str] | Skipped:
    """The file, the first time the walk meets it (`met`: the real paths met so far, each with the
    path it was met by; `unread`: those said skipped, or left unread in a folder for their own paths),
    or given by its own path (`named`, not found in a folder) when it was only left unread (it is read
    now, and is no more in `unread`); else a
    Skipped that says it was met again (named again, met already in a folder, or the same file as
    another path) and that it was read, said skipped or said unreadable, once. Two links to a file
    that is not there are no same file: each is read, and said unreadable."""
    real, written = os.path.realpath(path), os.fspath(path)
    if named and real in unread:
        unread.discard(real)
    elif real in met and (met[real] == written or os.path.exists(real)):
        again = "named again" if named else "met already"
        said = again if met[real] == written else f"the same file as {shown_path(met[real])}"
        return Skipped(written, f"{said}: {_what_became(real, unread)}", met_again=True)
    met[real] = written
    return path


def _what_became(real: str, unread: set[str]) -> str:
    """What became of the file at `real`, met again: said skipped, said unreadable (not there), or read once."""
    if real in unread:
        return SAID_SKIPPED
    return "read once" if os.path.exists(real) else "said unreadable once"


def _is_path(source: Source | Skipped) -> TypeGuard[str | os.PathLike[str]]:
    """Whether a source given is a path to read or walk: not a stream, a record's text, a Skipped, `-` or ''."""
    return isinstance(source, (str, os.PathLike)) and not is_text(source) and source not in (STDIN, "")


def given(paths: Iterable[Source | Skipped] | Source) -> Iterable[Source | Skipped]:
    """The sources given: one given alone (a path, a stream, a record's text) in a list of its own."""
    if isinstance(paths, (str, os.PathLike, RecordText)) or hasattr(paths, "read"):
        return [cast(Source, paths)]
    return paths


EMPTY = "an empty file, no record"  # what is said of a file of blanks at most, in any format
EMPTY_INPUT = "standard input held no record, nothing or blanks only"  # (newcomer-58b: `query … | lusoria html -`
# said an empty file)
EMPTY_PATH = (
    "'' (an empty path) names no file: give a file's or a folder's path, '-' for standard input, or the records' text"
)
NO_FILE = "no file in it to read (hidden ones are not read)"  # what is said of a folder that holds none


def empty_file(path: Source | Skipped, encoding: str = "utf-8") -> TypeGuard[str | os.PathLike[str]]:
    """Whether `path` is a regular file (or a link to one) that holds nothing but blanks (spaces, tabs,
    line breaks), as `encoding` decodes it; False for anything else (a pipe, read once already: opened
    again, a named pipe waits for a writer that never comes), and for a file that cannot be read."""
    if not isinstance(path, (str, os.PathLike)) or is_text(path) or not os.path.isfile(path):
        return False
    try:
        with open(path, "rb") as file:
            return all(not piece.strip() for piece in decoded_text(file, shown_path(os.fspath(path)), encoding))
    except (OSError, InputError):
        return False


def _records_in(
    pieces: Iterable[str],
    format: str | None,
    name: str,
    tags: dict[str, str] | None,
    blank: Callable[[], None] | None = None,
    encoding: str | None = None,
) -> Iterator[RecordText]:
    """The records of a source's text, given in pieces, in `format` (lgn when None): lgn is
    split as it streams, each record given `tags` (`RecordText.given`: they stand in for the Game,
    Variant and Rules tags of one with no Game tag), another format read whole (lusoria.formats)
    with them; `blank` is told when the pieces, read to their end, were blanks at most (`_watched`). Pieces decoded from `encoding`,
    their bytes that did not decode escaped (`decoded_text`), make a record that holds one an
    Undecodable problem (`readable_records`)."""
    if blank:
        pieces = _watched(pieces, blank)
    too_long: list[LineTooLong] = []
    pieces = _to_long_line(pieces, too_long)

    def read(pieces: Iterable[str]) -> Iterator[RecordText]:
        if format is None or FORMATS[format].read is None:
            return _before_long_line(split_records(pieces, name, tuple((tags or {}).items()), too_long), too_long)
        text = "".join(pieces).rstrip("\x1a")  # (a DOS end-of-file mark, Ctrl-Z, ends no format's text: h80c)
        if too_long and one_game:  # (the file's one game goes on past the line: none is read, review72)
            return iter(())
        text = whole_lines(text) if too_long else text  # (without the start of the line too long)
        return read_text(text, format, name, tags) if text.strip() else iter(())  # blank: no record, as lgn's

    one_game = format is not None and FORMATS[format].one_game
    try:
        yield from read(pieces) if encoding is None else readable_records(pieces, read, name, encoding, one_game)
    except InputError:
        if too_long:  # (a byte that does not decode in the line's start, said as one outside the records: review72)
            raise too_long[0] from None
        raise
    if too_long:
        raise too_long[0]


def _to_long_line(pieces: Iterable[str], too_long: list[LineTooLong]) -> Iterator[str]:
    """`pieces` to their end, or to a line too long (`decoded_text`), kept in `too_long` to be said once the
    records that end before it are read: they are read as a file that ends there would be, without the
    start of that line (h72b: the last record before such a line was lost, and a CSV file's rows all)."""
    try:
        yield from pieces
    except LineTooLong as error:
        too_long.append(error)


def _before_long_line(records: Iterable[RecordText], too_long: list[LineTooLong]) -> Iterator[RecordText]:
    """`records`, the last one (its text to the line too long: `split_records`' `stopped`) left out when it
    did not end before that line at its result marker (review72: a record cut there was read, its tags alone,
    or its plies before the line)."""
    for record in records:
        if too_long and not _ENDED.search(record.text):
            continue
        yield record


# a record's text that ends at its result marker, but for comments, `%` lines and blanks after it
_ENDED = re.compile(rf"(?:{'|'.join(map(re.escape, RESULTS))})(?:\s|\{{[^}}]*\}}|;[^\n]*|%[^\n]*)*\Z")


def readable_records(
    pieces: Iterable[str],
    read: Callable[[Iterable[str]], Iterable[RecordText]],
    name: str,
    encoding: str,
    one_game: bool = False,
) -> Iterator[RecordText]:
    """The records `read` makes of `pieces` (of the source `name`, decoded from `encoding`, each byte that did
    not decode an ESCAPED_BYTE: `decoded_text`); one whose lines hold such a byte is not read: its problem
    is an Undecodable at the first, its text holds each as U+FFFD (said as the file's only record when it
    is, or `one_game`: of a format of one game a file), given once the next record is read or the reader
    ends or fails (an InputError, raised after it). A byte in no record's lines (a CSV file's `#` line), in lines its
    reader ignores (`Format.ignored_lines`) or after the last record is an InputError once the
    records are read (each such byte U+FFFD in a record's text); one byte does not stop the records of
    the file, as one that stopped its decoding did."""
    places: deque[Place] = deque()
    stray: list[Place] = []  # in no record's lines, or in lines that no record's reading needs
    last, all_read = None, True
    unread: tuple[RecordText, list[Place]] | None = None  # a record not read, said once it is known whether it is alone
    try:
        for last in read(_bytes_found(pieces, places)):
            if unread:
                yield _not_read(*unread, encoding, one_game)
                unread = None
            held, end = [], last.line + last.text.count("\n", 0, len(last.text) - 1)  # its last line's (line end's)
            while places and places[0][0] <= end:
                held.append(places.popleft())
            ignored = _ignored_lines(last, name) if held else set()
            read_lines = [place[0] >= last.line and place[0] not in ignored for place in held]
            inside = list(compress(held, read_lines))
            stray += [place for place, read_line in zip(held, read_lines) if not read_line]
            all_read = all_read and not inside
            if inside:
                unread = (last, inside)
            else:
                yield _replaced(last) if held else last
    except InputError:  # the reader failed past it (`read_by_plug_in`): said before the source ends
        if unread:
            yield _not_read(*unread, encoding, one_game)
        raise
    if unread:  # the source's last record: its only one when its first
        yield _not_read(*unread, encoding, one_game or unread[0].index == 0)
    if stray or places:
        raise _stray_bytes(name, encoding, stray, list(places), last, all_read)


Place = tuple[int, int, str]  # a byte that did not decode: its line, its column and its ESCAPED_BYTE


def _ignored_lines(record: RecordText, name: str) -> set[int]:
    """The lines of `record` (of the source `name`) that its reading ignores (`Format.ignored_lines`: an lgn
    record's `%` lines); a plug-in's hook that fails ends the source with an InputError naming it."""
    entry = FORMATS.get(record.format)
    try:
        lines = (
            FORMATS.answer(entry, "ignored_lines", (record.text, record.line), kind=IGNORED_LINES) if entry else None
        )
    except HookFailed as failed:
        raise InputError(f"{name}: {failed}") from failed
    return set(lines or ())


IGNORED_LINES = (AbstractSet, "a set of line numbers")  # what a format's `ignored_lines` hands back


def _stray_bytes(
    name: str, encoding: str, stray: list[Place], after: list[Place], last: RecordText | None, all_read: bool
) -> InputError:
    """The InputError of the bytes that did not decode outside every record (`readable_records`): `stray`,
    those before `after`, in no record's lines or in lines the reader ignores (said of a file's one game too);
    `after`, those after the `last` record (`all_read`: whether every record was read, no byte in its lines)."""
    line, column, byte = (stray or after)[0]
    if stray:
        entry = FORMATS.get(last.format) if last else None
        place = _ignored_place(entry, last, line, column) if entry and last else None
        where = f"in {entry.ignored}, which the reader ignores" if entry and entry.ignored else "in a line of no record"
        where = f"in {place}" if place else where
        if not (entry and entry.one_game or last and last.index == 0):  # (else the file's one game)
            where += ": the records are read"
        elif all_read:
            where += ": the game is read"
    else:
        where = "after its last record" if last else "in no record"
    said = f"{name}:{line}:{column}: {undecodable_byte(byte, encoding)}{_more([*stray, *after])}, {where}"
    return InputError(said, "encoding", encodings_to_try("".join(found[2] for found in [*stray, *after]), encoding))


def _ignored_place(entry: Format, record: RecordText, line: int, column: int) -> str | None:
    """What a byte that did not decode at `line`, `column`, which the reader of `record` ignores, is in,
    when its format says it otherwise than `Format.ignored` (`Format.ignored_place`: a log's date)."""
    try:
        return FORMATS.answer(entry, "ignored_place", (record.text, record.line, line, column))
    except HookFailed as failed:
        raise InputError(f"{record.path}: {failed}") from failed


def _more(places: list[Place]) -> str:
    """What the first of `places` is said with: how many more bytes (or code units) there are, and on which lines."""
    if len(places) < 2:
        return ""
    lines = list(dict.fromkeys(str(line) for line, _, _ in places[1:]))
    shown = first_few(lines)
    said = f"{plural(len(places) - 1, 'more ' + undecodable_unit(places[0][2]))} that do{'es' * (len(places) == 2)} not decode"
    return f" ({said}, on line{'s' * (len(lines) > 1)} {shown})"


def _bytes_found(pieces: Iterable[str], places: deque[Place]) -> Iterator[str]:
    """`pieces` as they come, the line, column and ESCAPED_BYTE of each byte that did not decode
    put in `places` before its piece is given."""
    line, column = 1, 1  # of the next piece's first character
    for piece in pieces:
        seen = 0  # the piece's characters counted into line and column
        for found in ESCAPED_BYTE.finditer(piece):
            breaks = piece.count("\n", seen, found.start())
            line += breaks
            column = found.start() - piece.rfind("\n", seen, found.start()) if breaks else column + found.start() - seen
            places.append((line, column, found[0]))
            seen = found.start()
        yield piece
        breaks = piece.count("\n", seen)
        line += breaks
        column = len(piece) - piece.rfind("\n", seen) if breaks else column + len(piece) - seen


def _not_read(record: RecordText, held: list[Place], encoding: str, one_game: bool) -> RecordText:
    """`record`, whose lines (or those before it) hold the bytes `held` that did not decode: its
    problem the first (and how many more), its text (and `%` lines before it) each such byte U+FFFD."""
    line, column, byte = held[0]
    given = "file" if record.path else "text"  # (text given, a library's: note81, "the file's one game")
    unread = f"the {given}'s one game is not read" if one_game else "the record is not read, the others are"
    problem = Undecodable(f"{undecodable_byte(byte, encoding)}{_more(held)}: {unread}", line, column, REPLACEMENT)
    problem.tries = encodings_to_try("".join(found[2] for found in held), encoding)
    problem.as_read = as_lines(record.before) + record.greeting + record.text
    return replace(_replaced(record), parsed=problem, problems=(), hint="")


def _replaced(record: RecordText) -> RecordText:
    """`record`, each byte that did not decode in its text and the `%` lines before it U+FFFD."""
    text = ESCAPED_BYTE.sub(REPLACEMENT, record.text)
    return replace(record, text=text, before=tuple(ESCAPED_BYTE.sub(REPLACEMENT, escape) for escape in record.before))


def _watched(pieces: Iterable[str], blank: Callable[[], None]) -> Iterator[str]:
    """`pieces` as they come, `blank` told after the last when none held more than blanks."""
    written = False
    for piece in pieces:
        written = written or bool(piece) and not piece.isspace()
        yield piece
    if not written:
        blank()


def _unmarked(pieces: Iterable[str]) -> Iterator[str]:
    """Text given in pieces without the byte order mark it starts with when it was decoded as
    `utf-8`, not `utf-8-sig` (a web form's upload, a stream opened so): files and standard input
    are decoded without it (codec_for); each surrogate alone in it that escapes no byte (`"\\ud800"` of JSON) as
    the bytes that would write it, escaped (`_ESCAPED_FROM`: bytes no UTF-8 decodes, said as a file's)."""
    pieces = (_SURROGATE.sub(_as_bytes_escaped, piece) for piece in pieces)
    for piece in pieces:
        if piece:
            yield piece.removeprefix(BOM)
            break
    yield from pieces


_SURROGATE = re.compile("[\ud800-\udc7f\udd00-\udfff]")  # one that escapes no byte (U+DC80 to U+DCFF do)


def _as_bytes_escaped(surrogate: re.Match[str]) -> str:
    return surrogate[0].encode("utf-8", "surrogatepass").decode("utf-8", "surrogateescape")


def _stream_records(
    stream: TextIO | BinaryIO,
    encoding: str,
    format: str | None,
    tags: dict[str, str] | None,
    blank: Callable[[], None] | None,
) -> Iterator[RecordText]:
    """The records of a stream, read as a file is (`_format_of`: by its name, `open(path)`'s, then
    its first characters; without a name, by them alone, as standard input is): a text stream's as it
    reads (`_unmarked`), a binary one's (an upload's bytes) decoded from `encoding` (`decoded_text`)."""
    name = stream_name(stream)
    if (beneath := _bytes_beneath(stream)) is not None:
        stream, encoding = beneath
    try:
        first = stream.read(HEAD)
    except ValueError as error:  # (a file closed: `I/O operation on closed file.`; UnicodeDecodeError below)
        if isinstance(error, UnicodeDecodeError):
            raise _undecoded(name, error) from None
        raise InputError(f"{name}: cannot be read: {error}") from None
    try:
        if isinstance(first, bytes):
            pieces = decoded_text(cast(BinaryIO, stream), name, encoding, first, escaped=True)
            head, decoded_from = head_text(first, encoding), codec_for(first, encoding)
        else:
            text = cast(TextIO, stream)
            pieces, head = _unmarked(chain([first], iter(lambda: text.read(CHUNK), ""))), first.removeprefix(BOM)
            decoded_from = _ESCAPED_FROM
        yield from _records_in(pieces, format or _format_of(name, head), name, tags, blank, decoded_from)
    except UnicodeDecodeError as error:  # (h81a: `open(path)` of a Latin-1 file stopped an import, nothing stored)
        raise _undecoded(name, error) from None


def _bytes_beneath(stream: TextIO | BinaryIO) -> tuple[BinaryIO, str] | None:
    """The bytes of a text stream opened on a file at its start (`open(path)`), and the encoding it decodes them
    from, strictly: read so, as a file's bytes are, a byte that does not decode is said in the record that holds
    it (h81a: Python's UnicodeDecodeError stopped an import); None for another stream (`io.StringIO`, one read
    from already, one that replaces or escapes what does not decode, as asked)."""
    buffer, encoding = getattr(stream, "buffer", None), getattr(stream, "encoding", None)
    if buffer is None or not isinstance(encoding, str) or getattr(stream, "errors", None) != "strict":
        return None
    try:
        at_start = stream.seekable() and stream.tell() == 0  # (what is read ahead beneath it counted: at its start)
    except (OSError, ValueError):  # (closed: said as it is read)
        return None
    return (buffer, encoding) if at_start else None


def _undecoded(name: str, error: UnicodeDecodeError) -> InputError:
    """The InputError of a text stream that does not decode (`open(path)` of a file in another encoding)."""
    return InputError(
        f"{name}: the stream does not decode as {error.encoding} ({error.reason}): give the file's path, or the file "
        "opened in binary (open(path, 'rb')), which lusoria decodes as a file's bytes, saying each one that is not "
        "valid in the record that holds it; or open it in its own encoding"
    )


_ESCAPED_FROM = "utf-8"  # what a text given (a str, a text stream) was decoded from, as far as it says: a byte that did
# not decode it holds escaped (`open(path, errors="surrogateescape")`), is said as a file's is (h81a: valid to `validate`,
# it failed the archive's import)


def stream_name(stream: object) -> str:
    """What a stream is named by: its `name` (`open(path)`'s), `<stream>` for one without (`io.StringIO`)."""
    return str(getattr(stream, "name", STREAM_NAME))


def _below(
    folder: str | os.PathLike[str],
    leave_out: str | os.PathLike[str] | None = None,
    unlisted: Callable[[OSError], None] | None = None,
) -> Iterator[Path]:
    """The files and links below `folder` but hidden ones (a name that starts with `.`: `.DS_Store`,
    an editor's swap file or lock, `.#game.lgn`; or with `~$`, an Office owner file), and none in a hidden folder (`.git`, `.venv`),
    unlisted: a club's git checkout validates without a note for each file of `.git`; nor any in the
    folder `leave_out`. A link to a folder is followed, once: a folder met again (through another link,
    or a link back up) is not walked again. `unlisted` is given the error of each folder that cannot be listed."""
    walked = {os.path.realpath(folder)}
    if leave_out is not None:
        walked.add(os.path.realpath(leave_out))
    for top, folders, files in os.walk(folder, onerror=unlisted, followlinks=True):
        shown = sorted(name for name in folders if not name.startswith("."))  # (the first link walked, by name)
        folders[:] = []
        for name in shown:  # (each real folder walked once: a link back up, or two links to one folder)
            if (real := os.path.realpath(os.path.join(top, name))) not in walked:
                walked.add(real)
                folders.append(name)
        yield from (Path(top, name) for name in shown + files if not name.startswith(_UNLISTED))


_UNLISTED = (".", "~$")  # a hidden file's name, or an Office owner file's (`~$game.lgn`, Word's while it holds the
# file open: h80c, read as a record of no tag and stored)


def _broken_link(path: Path) -> bool:
    """A link that leads nowhere, which a walk gives as a file (read, it says so)."""
    return path.is_symlink() and not path.exists()


UNREAD_HINT = (
    "; a file of a name no format has, given by its own path (not its folder's), is read by what it holds (said once)"
)


def _unread(path: Path) -> bool:
    """Whether a folder's file is skipped unread (`notes.md`): its name has a suffix, of no format's
    and none whose first characters are looked at (`Formats.said_by_content`)."""
    return bool(path.suffix) and not FORMATS.said_by_content(str(path))


def _hinted(path: Path, encoding: str, format: str | None = None) -> str:
    """What is said of a folder's file skipped unread (`_unread`; or not of the `format` forced) whose
    first characters are a format's (`round1.md`, a move list), the one forced if any: the name to give
    it, and that given by its own path it is read (`UNREAD_HINT`); "" for another (`README.md`,
    `expected.tsv`; under --from otn an lgn file, which no name would have read), which is said no more."""
    head = (_first_characters(path, encoding) if _unread(path) else None) or ""
    entry = FORMATS.starts_as(head, path.suffix.lower()) if head else None
    if entry is None or format not in (None, entry.name):
        return ""
    return FORMATS.why_not(str(path), format, head=head) + UNREAD_HINT


def _head(path: Path, encoding: str) -> str | None:
    """The first characters of a file whose name does not say what it is alone (`said_by_content`),
    as `encoding` decodes them; None when it cannot be read (a link that leads nowhere): read, it
    says why, as a file of lgn's name does, whatever it is named. Those of a file of no suffix too (a
    download that lost it), which no format takes, for the name its note says to give it; "" when it
    cannot be read (skipped unread, as a file of no format's name is)."""
    if _unread(path):
        return ""
    head = _first_characters(path, encoding)
    return None if head is None and FORMATS.said_by_content(str(path)) else head or ""


def _first_characters(path: Path, encoding: str) -> str | None:
    """A file's first characters as `encoding` decodes them (`head_text`); None when it cannot be read."""
    try:
        with open(path, "rb") as stream:
            return head_text(stream.read(HEAD), encoding)
    except OSError:
        return None


def _format_of(path: str, head: str) -> str:
    """The format a source is read in when none is forced: what its name, then its first characters
    `head` (`head_text`), say (`Formats.of`), else what they say alone, as of standard input (a Tablut
    Challenge log saved as `game.log`), else JSON's (`_json_format`), else, for a file of a suffix whose
    first characters are looked at, what they say of a format of another suffix (a CSV file saved as
    `games.txt`); lgn when they say nothing."""
    return format_of(path, head) or format_of(STDIN, head) or _json_format(head) or _sniffed(path, head) or "lgn"


def text_format(path: str, text: str) -> str:
    """The format `read_sources` reads a file named `path` that holds `text` in (`_format_of`): an
    editor's document, which the language server reads as `validate` reads the file."""
    return _format_of(path, text[:HEAD])


def text_records(text: str, path: str, format: str) -> Iterator[RecordText]:
    """The records of `text`, the whole of a file named `path`, read in `format` (`text_format`)."""
    return _records_in(_unmarked([text]), format, path, None)


def _sniffed(path: str, head: str) -> str | None:
    """The format of another suffix whose first characters a file of a sniffed suffix (`.txt`), or one
    named of no format's suffix (`game`, `notes.md`: a folder's is skipped, one of no suffix with the
    name to give it; a stream's `<stream>` is none), has (`Formats.sniffing`)."""
    if path == STDIN or not (FORMATS.sniffed(path) or names_a_file(path)):
        return None
    found = FORMATS.sniffing(head, Path(path).suffix.lower())
    return found.name if found else None


_JSON_FILE = "-.json"  # the name of a file of JSON, whose format reads JSON


def _json_format(head: str) -> str | None:
    """The format a source whose first characters are JSON that no format's sniffing took (a scrape
    whose fields come late) is read in, whatever its name (`.json`, `.txt`, `.csv`, none) or none
    (standard input): the one of `.json` files, as no other format starts as JSON; its reader says
    what the JSON lacks, where lgn said it has no tag, and the CSV reader that its moves fit several
    boards. None for a source that does not start as JSON, or as a line of `lusoria export` does
    (no record: reading it says so)."""
    if not starts_as_json(head) or EXPORTED.match(head.encode()):
        return None
    claiming = [entry.name for entry in FORMATS.values() if _JSON_FILE.endswith(entry.suffixes)]
    return claiming[0] if len(claiming) == 1 else None


def whole_file(path: str, encoding: str = "utf-8", format: str | None = None) -> tuple[bytes, str]:
    """The bytes of a file (`-`: standard input), whole, and the format `read_sources` reads it in
    (`format`, or what its name, then its first bytes, say: `_format_of`); InputError when it
    cannot be read."""
    try:
        if path == STDIN:
            whole = sys.stdin.buffer.read()
        else:
            with open(path, "rb") as file:
                whole = file.read()
    except OSError as error:
        raise unreadable(STDIN_NAME if path == STDIN else shown_path(path), error) from None
    return whole, format or _format_of(path, head_text(whole[:HEAD], encoding))


def read_sources(
    path: Source,
    encoding: str = "utf-8",
    format: str | None = None,
    tags: dict[str, str] | None = None,
    progress: Callable[[int], None] | None = None,
    blank: Callable[[], None] | None = None,
    as_utf8: Callable[[], None] | None = None,
) -> Iterator[RecordText]:
    """The records of one source, streamed: a file (its path, as a str or a Path), `-` (standard
    input), a stream (of text, or of bytes decoded from `encoding` as a file's are: a text stream opened on a
    file, at its start, from its bytes in its own encoding, `_bytes_beneath`), or text
    (`is_text`: the records themselves), read in `format`. A byte that does not decode is said in the record
    that holds it, as are the surrogates alone of text given (`_unmarked`). By default a file is read in what its
    name, then its content, says (lgn when neither does), and so is a stream (`open(path)` has a
    name); standard input, and a stream without a name (`io.StringIO`), in what its content says,
    for the formats it tells alone (lgn else); text in lgn. `tags` (Game, Variant, Rules) choose the
    game and rules of records whose files do not say them; `progress` is told the bytes of a file
    read, as they are (their sum is the file's size); `blank` is told when a file, standard input or
    a stream, read to its end, held blanks at most (its note: `EMPTY`); `as_utf8`, when a file of JSON that decodes
    as UTF-8 is read so, not in `encoding` (JSON is written in UTF-8). A `format` that is none is a ValueError
    (`format_named`) before the source is read."""
    if format is not None:
        format_named(format)
    if isinstance(path, RecordText):
        yield path
    elif is_text(path):
        if said := file_named(path):  # type: ignore[arg-type]  # is_text: a str
            raise InputError(said)
        yield from _records_in(_unmarked([path]), format, "", tags, encoding=_ESCAPED_FROM)  # type: ignore[list-item]
    elif not isinstance(path, (str, os.PathLike)):
        yield from _stream_records(path, encoding, format, tags, blank)
    elif os.fspath(path) == STDIN:
        yield from _stdin_records(encoding, format, tags, blank)
    elif not os.fspath(path):
        raise InputError(EMPTY_PATH)
    else:
        yield from _file_records(os.fspath(path), encoding, format, tags, progress, blank, as_utf8)


def _stdin_records(
    encoding: str, format: str | None, tags: dict[str, str] | None, blank: Callable[[], None] | None
) -> Iterator[RecordText]:
    """The records of standard input, read in `format` (by default: what its first bytes say
    alone, `_format_of`)."""
    try:
        head = sys.stdin.buffer.read(HEAD)
    except OSError as error:
        raise unreadable(STDIN_NAME, error) from None
    format = format or _format_of(STDIN, head_text(head, encoding))
    pieces = decoded_text(sys.stdin.buffer, STDIN_NAME, encoding, head, escaped=True)
    yield from _records_in(pieces, format, STDIN_NAME, tags, blank, codec_for(head, encoding))


def _file_records(
    path: str,
    encoding: str,
    format: str | None,
    tags: dict[str, str] | None,
    progress: Callable[[int], None] | None,
    blank: Callable[[], None] | None,
    as_utf8: Callable[[], None] | None,
) -> Iterator[RecordText]:
    """The records of the file `path`, read in `format` (by default: what its name, then its
    first bytes, say: `_format_of`), `progress` told the bytes read (`_told`); a file of JSON in UTF-8 read so
    whatever `encoding`, `as_utf8` told (`_json_in_utf8`)."""
    name = shown_path(path)
    try:
        file = io.BufferedReader(open(path, "rb", buffering=0), max(HEAD, io.DEFAULT_BUFFER_SIZE))  # (peek: HEAD bytes)
    except OSError as error:
        raise unreadable(name, error) from None
    with file:
        try:
            head = file.peek(HEAD)[:HEAD]
        except OSError as error:
            raise unreadable(name, error) from None
        format = format or _format_of(path, head_text(head, encoding))
        if _json_in_utf8(file, format, codec_for(head, encoding)):
            encoding = "utf-8"
            if as_utf8:
                as_utf8()
        pieces = decoded_text(file, name, encoding, escaped=True)
        records = _records_in(pieces, format, name, tags, blank, codec_for(head, encoding))
        yield from _told(records, file, progress)


def _json_in_utf8(file: BinaryIO, format: str, encoding: str) -> bool:
    """Whether `file`, read in `format`, is JSON that is not ASCII but decodes as UTF-8, as JSON is written (RFC 8259),
    where `encoding` is another: it is read as UTF-8 (newcomer-58b: `--encoding cp1252` given for a club's folder
    garbled the names of the aagenielsen.dk games in it). The file is read again from its start."""
    try:
        if not _JSON_FILE.endswith(FORMATS[format].suffixes) or codecs.lookup(encoding).name.startswith("utf-8"):
            return False
    except LookupError:
        return False  # (the file's reading says so)
    try:
        data = file.read()
        file.seek(0)
        data.decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return False
    return not data.isascii()


def _told(
    records: Iterable[RecordText], file: BinaryIO, progress: Callable[[int], None] | None
) -> Iterator[RecordText]:
    """`records`, read from `file`, with `progress` told the bytes read after each; when they are
    done with, read or not (a decoding error), the rest of the file's size."""
    done = 0
    try:
        for record in records:
            yield record
            if progress:
                progress(file.tell() - done)
                done = file.tell()
    finally:
        if progress:
            progress(os.fstat(file.fileno()).st_size - done)


class NoSuchRecord(LusoriaError, ValueError):
    """A record asked for by an index its source has none at (the message says how many it has)."""


def record_at(
    source: Source,
    index: int = 0,
    encoding: str = "utf-8",
    format: str | None = None,
    tags: dict[str, str] | None = None,
    blank: Callable[[], None] | None = None,
) -> RecordText:
    """Record `index` (from 0) of a source, as `read_sources` reads it (`blank` told when it held
    blanks at most); NoSuchRecord (a ValueError) when there is no such record, InputError when the
    source cannot be read."""
    if index < 0:
        raise NoSuchRecord(f"{source_name(source)} has no record {index}: records count from 0")
    count = 0
    for count, found in enumerate(read_sources(source, encoding, format, tags, blank=blank), 1):
        if count > index:
            return found
    numbers = f" (0 to {count - 1})" if count > 1 else ""
    raise NoSuchRecord(f"{source_name(source)} has no record {index}: it has {plural(count, 'record')}{numbers}")


def source_name(source: Source) -> str:
    """A source as messages name it: `the text`, `<stdin>`, a stream's name (`stream_name`), a file's
    shown path."""
    if is_text(source):
        return "the text"
    if not isinstance(source, (str, os.PathLike)):
        return stream_name(source)
    path = os.fspath(source)
    return STDIN_NAME if path == STDIN else shown_path(path)


def _is_dir(path: str | os.PathLike[str]) -> bool:
    """Whether `path` is a folder; False for a path that cannot name one (too long a name: reading it says why)."""
    try:
        return Path(path).is_dir()
    except OSError:
        return False
