"""A record's identity: what makes two records the same game (docs/archive.md, "Duplicates").

Two records are the same game when they agree on the game, the rule set (the variant and
every option, as the tags choose them), the start position, the plies of the main line in
canonical form, the result, and the Seven Tag Roster (a missing tag counts as `?`, dates as
`????.??.??`, white space in values folded, letters composed: a name written with combining marks, as
some Mac files write it, is the name typed). Move numbers, white space, tag order, comments,
NAGs, variations, what a ply adds that says nothing of it (Tablut's announcements, `+` and `++`:
`Game.ply_identity`) and the other tags take no part but the site's number of the game (`SiteGameId`): a record
and its `lusoria fmt` form are the same game. A record that does not parse as written (a tag written twice, read
without the repeat: `Report.rewritable`) is identified by its text with white space folded. One read with a syntax
error is identified by the words its errors stand at too (an aagenielsen.dk game's `WhoWon` of no side, which its
record does not keep: a record its error mended is another game, h79a).
"""

from __future__ import annotations

import hashlib
import sys
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass

from lusoria.notation.reader import RecordText
from lusoria.notation.writer import ROSTER, UNKNOWN
from lusoria.validator.games import GAMES
from lusoria.validator.replay import Report, check

SETTING_TAGS = tuple(tag for tag in ROSTER if tag != "Result")
RULE_TAGS = ("Variant", "Rules", "Board")
PLAYER_TAGS = ("White", "Black")
SITE_GAME_ID = "SiteGameId"  # the number of a game on the site it was played on (an aagenielsen.dk scrape's)


def key64(*parts: str) -> str:
    """A 64-bit key of some strings, as 16 hex digits."""
    return hashlib.blake2b("\x1f".join(parts).encode("utf-8"), digest_size=8).hexdigest()


@dataclass(frozen=True, slots=True)
class Identity:
    """The keys that find duplicates: `key` is the record's identity; records with the same
    `setting` (all of the identity but the plies and the result) may be prefixes of each other."""

    key: str
    setting: str | None  # None for a record that does not parse
    plies: tuple[str, ...]  # the main line in canonical form (interned: a file's records share them)


def _folded(value: str) -> str:
    """A value with its white space folded and its letters composed (NFC)."""
    return " ".join(unicodedata.normalize("NFC", value).split())


def identity(report: Report, players: Mapping[str, str] | None = None) -> Identity:
    """The identity of a checked record (`check` with `keep=True`, so that plies are canonical), keyed
    by the site's number of its game too when it has one (`of_site_game`); `players` spells its White
    and Black as the players they are (an archive's aliases: `Archive.duplicates`)."""
    found = _identity(report, players)
    site_game = report.tags.get(SITE_GAME_ID)
    if site_game is None:
        return found
    return Identity(
        of_site_game(found.key, site_game), found.setting and of_site_game(found.setting, site_game), found.plies
    )


def of_site_game(key: str, site_game: str) -> str:
    """A key of `identity` made the key of the site's game numbered `site_game` (SiteGameId): records of
    two of a site's games are never the same game, nor a prefix of one another."""
    return key64(key, SITE_GAME_ID, site_game)


def _identity(report: Report, players: Mapping[str, str] | None = None) -> Identity:
    record = report.record
    if record is None or not report.rewritable:  # (a refused record has no plies, one read mended lost a tag's
        # repeat: its text tells it apart)
        return Identity(key64("text", _folded(report.source.text)), None, ())
    rules = report.rules
    if rules is not None:  # the rules as they are, however the tags chose them
        chosen = {**rules.option, **rules.extra_tags()}
        rule_set = [rules.variant, *(f"{key}={value}" for key, value in sorted(chosen.items()))]
    else:  # tags that choose no rules: as written
        rule_set = [f"{tag}={record.tags.get(tag, '')}" for tag in RULE_TAGS]
    start = (
        rules.format_position(report.positions[0]) if rules and report.positions else record.tags.get("Position", "")
    )
    roster = [_folded(_player(tag, record.tags.get(tag, UNKNOWN.get(tag, "?")), players or {})) for tag in SETTING_TAGS]
    written = [ply.text for ply in record.main.plies]
    played = report.main_line  # the plies played, whose canonical text is known
    written[: len(played)] = played
    game = type(rules) if rules else GAMES[record.game]
    plies = tuple(map(sys.intern, map(game.ply_identity, written)))
    setting = ("record", record.game, *rule_set, start, *roster)
    result = _folded(record.tags.get("Result", record.result))
    misread = [d.text for d in report.diagnostics if d.rule == "syntax"]  # (what its record does not keep: the words
    # its errors stand at, which no later wording of a message changes, review79b)
    return Identity(key64(*setting, result, record.result, *plies, *misread), key64(*setting), plies)


def _player(tag: str, value: str, players: Mapping[str, str]) -> str:
    """A roster tag's value, a player's name (White, Black) spelled as `players` spells it."""
    return players.get(unicodedata.normalize("NFC", value), value) if tag in PLAYER_TAGS else value


def label(tags: dict[str, str]) -> str:
    """How Datasette names a record: `White – Black, Date` (`?` for a missing player; no date
    when its year is unknown: when it does not begin with a digit 0–9, or has another character
    among its first four). Versions 2–8 kept it in `records.label`, which version 9 generates
    from the record's columns (tables.LABEL)."""
    players = f"{tags.get('White') or '?'} – {tags.get('Black') or '?'}"
    date = tags.get("Date", "")
    year = date[:4]
    return f"{players}, {date}" if year and year.isascii() and year.isdigit() else players


def recompute(db) -> None:
    """Version 2 of the archive: the identity, setting and label of every record, from its text."""
    rows = db.execute("SELECT id, text, path, line FROM records").fetchall()  # (version 2: the text as it was)
    for record_id, text, path, line in rows:
        report = check(RecordText(text, line or 1, 0, path or ""))
        found = _identity(report)  # (version 19 keys a site's game by its number)
        db.execute(
            "UPDATE records SET hash = ?, setting = ?, label = ? WHERE id = ?",
            [found.key, found.setting, label(report.tags), record_id],
        )
