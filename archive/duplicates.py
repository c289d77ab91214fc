"""Duplicate reports (`lusoria duplicates`), as pgn-extract makes them: records that are the
same game, and records whose main line is a prefix of another's (docs/archive.md)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from itertools import groupby

from lusoria.archive.identity import Identity
from lusoria.words import plural

SAME, PREFIX = "same", "prefix"


@dataclass(frozen=True, slots=True)
class Entry:
    """A record to compare: how reports name it, its identity, what its source calls it, and its
    result (a prefix's is `*` or the longer record's)."""

    where: str
    identity: Identity
    ref: object = None
    result: str | None = None


@dataclass(frozen=True, slots=True)
class Duplicate:
    """`record` is the same game as `of` (which came first), or a prefix of it."""

    kind: str  # SAME or PREFIX
    record: str
    of: str
    plies: tuple[int, int] = (0, 0)  # a prefix's plies, and the longer record's

    def __str__(self) -> str:
        if self.kind == SAME:
            return f"{self.record}: the same game as {self.of}"
        return f"{self.record}: a prefix of {self.of} ({self.plies[0]} of {plural(self.plies[1], 'ply', 'plies')})"


def find_duplicates(
    entries: Iterable[Entry], load: Callable[[list[Entry]], list[Entry]] | None = None
) -> Iterator[Duplicate]:
    """Same games in the order of `entries` (each against the first of its kind), then prefixes:
    each record whose main line begins the main line of a longer record of the same setting,
    against the next such record in the order of the plies. `load` gives entries their plies
    when they come without (the archive's), and is asked only for settings shared by several
    records."""
    first: dict[str, Entry] = {}
    for entry in entries:
        if entry.identity.key in first:
            yield Duplicate(SAME, entry.where, first[entry.identity.key].where)
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
    """In lexicographic order of the plies, a line that begins any longer line begins the next
    different one: so each record is compared with one other. A record that ends in another result
    than the longer one (`0-1` after 7 plies, where it goes on to `1-0`) is another game: no prefix;
    an unfinished one (`*`) is."""
    runs = [
        list(run) for _, run in groupby(sorted(group, key=lambda e: e.identity.plies), key=lambda e: e.identity.plies)
    ]
    for run, following in zip(runs, runs[1:]):
        shorter, longer = run[0].identity.plies, following[0].identity.plies
        if longer[: len(shorter)] == shorter:
            for entry in run:
                if entry.result in (None, "*", following[0].result):
                    yield Duplicate(PREFIX, entry.where, following[0].where, (len(shorter), len(longer)))
