"""The rule set of a record as lusoria names it: the tags besides Variant that choose its rules
(`rule_tags_of`, the archive's `rule_tags` column), and the catalogue's entry those rules play
(`named_variant`: Tablut's aage with Rules first=white is saami-tablut-w), which `stats`, `--variant`,
the explorer, `export` and the move tree name it by."""

from __future__ import annotations

import json
from functools import cache

from lusoria.validator.base import Game
from lusoria.variants import rules_of_name, variants


def rule_tags_of(rules: Game | None) -> str | None:
    """The tags besides Variant that choose `rules`, as their game writes them (`Rules` with the
    options its variant does not set, Latrunculi's `Board`): JSON, or None when there are none
    (the move tree plays plies again under the records' rules; `--variant` finds a catalogue's
    entry by them)."""
    extra = rules.extra_tags() if rules else None
    return json.dumps(extra, sort_keys=True) if extra else None


@cache
def catalogue_entries(game: str) -> dict[tuple[str | None, str], str]:
    """The catalogue's entries of `game` that set tags besides Game and Variant, as `lusoria explain` names
    them, by the variant and other tags (`rule_tags_of`) of the rules they name (Tablut's aage with Rules
    first=white: saami-tablut-w); their records are counted apart from their variant's (`named_variant`)."""
    found: dict[tuple[str | None, str], str] = {}
    for name, notes in variants().get(game, {}).items():
        if set(notes.tags) - {"Game", "Variant"}:
            rules = rules_of_name(f"{game}/{name}")
            if rules is not None and (tags := rule_tags_of(rules)) is not None:
                found.setdefault((rules.variant, tags), name)
    return found


def catalogue_entry(game: str, variant: str | None, rule_tags: str) -> str | None:
    """The catalogue's entry whose rules records of `game` and `variant` with the other tags
    `rule_tags` play (`catalogue_entries`); None when none does: the explorer lists it, `stats` counts it apart."""
    return catalogue_entries(game).get((variant, rule_tags))


def entries_of_variant(game: str, variant: str) -> list[str]:
    """The other tags (`rule_tags_of`) of the records of `game` and `variant` that a catalogue's entry
    names (`catalogue_entries`): `--variant tablut/aage` leaves them out, as `stats` counts them apart."""
    return [tags for (of, tags) in catalogue_entries(game) if of == variant]


def named_variant(game: str | None, variant: str | None, rule_tags: str | None) -> str | None:
    """A record's variant as lusoria names it (`stats --by variant`, the explorer, `export`'s
    `named_variant`): the catalogue's entry its rules play (`catalogue_entry`: saami-tablut-w for
    Tablut's aage with Rules first=white), else its `variant` column."""
    if game is None or variant is None or rule_tags is None:
        return variant
    return catalogue_entry(game, variant, rule_tags) or variant
