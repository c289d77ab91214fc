"""Duplicate reports (`lusoria duplicates`), as pgn-extract makes them: records that are the
same game, and records whose main line is a prefix of another's (docs/archive.md)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import NamedTuple

from lusoria.archive.endings import UNKNOWN
from lusoria.archive.identity import Identity
from lusoria.words import plural

SAME, PREFIX = "same", "prefix"


class Place(NamedTuple):
    """Where a record of a duplicate report is: its file and line, and its id in the archive (None: a
    record read from its file, `api.duplicates`)."""

    path: str
    line: int
    id: int | None = None


@dataclass(frozen=True, slots=True)
class Entry:
    """A record to compare: how reports name it, where it is, its identity, its result and how its
    game ended (a prefix's result is `*`, or the longer record's with an `unknown` ending:
    archive/endings.py)."""

    where: str
    place: Place
    identity: Identity
    result: str | None = None
    ending: str | None = None


@dataclass(frozen=True, slots=True)
class Duplicate:
    """A record that is the same game as an earlier one, or a prefix of a longer one: `kind` (`same`
    or `prefix`); `record` and `of`, the two as reports name them (`record 43 (games/a.lgn:8)`), and
    `record_place` and `of_place`, where each is (a Place: its path, its line, its id in the archive), which
    a script removes or queries by (h72c: only the names were given); for a prefix, `plies`: its plies
    and the longer record's."""

    kind: str  # SAME or PREFIX
    record: str
    of: str
    record_place: Place
    of_place: Place
    plies: tuple[int, int] = (0, 0)

    def __str__(self) -> str:
        if self.kind == SAME:
            return f"{self.record}: the same game as {self.of}"
        return f"{self.record}: a prefix of {self.of} ({self.plies[0]} of {plural(self.plies[1], 'ply', 'plies')})"


def find_duplicates(
    entries: Iterable[Entry], load: Callable[[list[Entry]], list[Entry]] | None = None
) -> Iterator[Duplicate]:
    """Same games in the order of `entries` (each against the first of its kind), then prefixes:
    each record whose main line begins the main line of a longer record of the same setting,
    against the next such record in the order of the plies that ends as it does (`_prefixes`).
    `load` gives entries their plies when they come without (the archive's), and is asked only for
    settings shared by several records."""
    first: dict[str, Entry] = {}
    for entry in entries:
        if entry.identity.key in first:
            earlier = first[entry.identity.key]
            yield Duplicate(SAME, entry.where, earlier.where, entry.place, earlier.place)
        else:
            first[entry.identity.key] = entry
    settings: dict[str, list[Entry]] = {}
    for entry in first.values():
        if entry.identity.setting is not None:
            settings.setdefault(entry.identity.setting, []).append(entry)
    found: list[Duplicate] = []
    for group in settings.values():
        if len(group) > 1:
            found += _prefixes(load(group) if load else group)
    order = {entry.where: index for index, entry in enumerate(first.values())}
    yield from sorted(found, key=lambda duplicate: order[duplicate.record])


def _prefixes(group: list[Entry]) -> Iterator[Duplicate]:
    """Each record against the first longer line, in lexicographic order of the plies, that it
    begins and that ends as it does, or the first it begins when it is unfinished (`*`). A record
    that ends in another result than the longer one (`0-1` after 7 plies, where it goes on to `1-0`),
    or in its result but by an ending of its own (resigned, where it goes on), is another game."""
    ordered = sorted(group, key=lambda e: e.identity.plies)
    for index, entry in enumerate(ordered):
        if longer := _continuation(ordered, index):
            plies = (len(entry.identity.plies), len(longer.identity.plies))
            yield Duplicate(PREFIX, entry.where, longer.where, entry.place, longer.place, plies)


def _continuation(ordered: list[Entry], index: int) -> Entry | None:
    """The record `ordered[index]` is a prefix of: the lines it begins come right after it."""
    shorter = ordered[index].identity.plies
    for after in range(index + 1, len(ordered)):
        other = ordered[after]
        if other.identity.plies[: len(shorter)] != shorter:
            return None
        if len(other.identity.plies) > len(shorter) and _ends_as(ordered[index], other):
            return other
    return None


def _ends_as(shorter: Entry, longer: Entry) -> bool:
    """Whether `shorter` may be a transcription of `longer` cut short: unfinished, or in its result
    with no ending of its own (`unknown`: a timeout or a resignation after fewer plies is another game)."""
    if shorter.result in (None, "*"):
        return True
    return shorter.result == longer.result and shorter.ending in (None, UNKNOWN)
