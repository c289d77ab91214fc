"""What `lusoria explain NAME` says of a game or of a variant (a rule: lusoria/rulebook.py): a game's
variants and rules; a variant's title, tags, board and start as `lusoria show` draws them, its settings
in the words of its game's options (each naming the rules it governs), the names other programs give
it, and where its settings come from. It asks the games (`Game.variant_notes`), naming none."""

from __future__ import annotations

import textwrap
from collections.abc import Mapping

from lusoria import rulebook
from lusoria.errors import UnknownName
from lusoria.formats import FORMATS
from lusoria.validator.base import SIDE_NAMES, Game, OptionError, VariantNotes, known_names
from lusoria.validator.games import (
    GAME_OPTION,
    GAMES,
    NUMBERED,
    game_named,
    looked_up,
    made_once,
    named_by_several,
    named_elsewhere,
    names_elsewhere,
    owners_of,
    rules_from_tags,
    tags_line,
    with_variant,
)
from lusoria.validator.suggest import alike, meant
from lusoria.words import quoted

WIDTH = 88  # as rulebook.explain wraps a rule's text


def explain(name: str) -> str:
    """What `lusoria explain NAME` prints: the rule with that ID, else the game, else the variant
    of that name (any case; `game/variant` where several games have one of that name), else the variant
    that other programs' files call so (`Copenhagen Hnefatafl 11x11`), else the option of the Rules tag
    of that name (`leftover`), else the rules whose texts use the word (`konakis`). KeyError says why none is, and what may have been meant."""
    written = name.strip()
    try:
        return rulebook.explain(written)
    except KeyError:
        pass
    game, slash, variant = looked_up(written).rpartition("/")
    if not slash and variant in GAMES:
        return game_text(variant)
    every = variants()
    if slash and _variants_named(written, every):  # other programs' name of another layout: `Sea battle tafl 13x13/2`
        return _explain_name_elsewhere(written, every)
    if slash:
        if game not in every:
            raise UnknownName(f"no game is named {quoted(game)} ({known_names(game, every)})")
        if variant not in every[game]:
            raise UnknownName(f"{game} has no variant {quoted(variant)} ({known_names(variant, every[game])})")
        return variant_text(variant, every[game][variant]) + _rules_using(game, variant)
    owners = _holders(variant, every)
    if len(owners) > 1:
        raise UnknownName(held_by_several(variant, owners))
    if not owners:
        return _explain_name_elsewhere(written, every)
    return (
        variant_text(variant, every[owners[0]][variant])
        + _rules_using(owners[0], variant)
        + _named_alike(variant, every)
    )


def held_by_several(variant: str, owners: list[str]) -> str:
    """What is said of a variant's name that several games have (`owners`, said in alphabetical
    order whatever order they come in): name one."""
    owners = sorted(owners)
    return f"{' and '.join(owners)} have a variant {quoted(variant)}: name one ({' or '.join(f'{owner}/{variant}' for owner in owners)})"


def _rules_using(game: str, variant: str) -> str:
    """The rules of `game` whose texts use the name of its `variant` as a word (`dux`, a piece too),
    on a paragraph of their own; "" for none."""
    found = [rule for rule in rulebook.mentioning(variant) if rule.game == game]
    if not found:
        return ""
    rules = ", ".join(rule.id for rule in found)
    use = "the text of this rule uses" if len(found) == 1 else "the texts of these rules use"
    return "\n\n" + _wrapped(f"{use} the word {variant}: {rules} (lusoria explain ID says more)")


def _named_alike(variant: str, every: dict[str, dict[str, VariantNotes]]) -> str:
    """The other variants whose names hold `variant` as a word, by game (`explain fetlar`, Copenhagen's:
    hnefatafl's fetlar-hnefatafl-11x11, opentafl-fetlar-11x11…), on a paragraph of their own; "" for none."""
    alike = {
        game: [other for other in named if other != variant and variant in other.split("-")]
        for game, named in every.items()
    }
    said = [f"{game}'s {', '.join(names)}" for game, names in alike.items() if names]
    if not said:
        return ""
    return "\n\n" + _wrapped(f"other variants named {variant}: {'; '.join(said)} (lusoria explain VARIANT says more)")


def _explain_name_elsewhere(written: str, every: dict[str, dict[str, VariantNotes]]) -> str:
    """The variant that other programs' files call `written` (`Copenhagen Hnefatafl 11x11`: copenhagen-11x11),
    explained; for a name no variant has, the option or the word of the rules so named; KeyError for a
    name that is several variants' (`Tyr 13x13`) or nothing's."""
    named = _variants_named(written, every)
    if len(named) > 1:
        raise UnknownName(named_by_several(written, named))
    if not named and (option := rulebook.option_text(written)):
        return option
    if not named and (used := rulebook.family(written) or rulebook.mentions(written)):
        return used
    if not named:
        raise UnknownName(f"no rule, game or variant is named {quoted(written)}{_meant(written, every)}")
    return explain(named[0])


def _plug_ins_names() -> list[Mapping[str, Mapping[str, str]]]:
    """What the plug-in formats' files call a game (`Format.games`; a built-in format's names are its
    game's own, `Game.names_elsewhere`) -> its tags, for `named_elsewhere` to look up beside the games'."""
    return [
        {name: tags for name, tags in FORMATS.games_of(entry).items() if name}
        for entry in FORMATS.values()
        if not FORMATS.is_built_in(entry.name)
    ]


def _variants_named(written: str, every: dict[str, dict[str, VariantNotes]]) -> list[str]:
    """The variants, as `explain` names them, that other programs' files mean by `written` (`named_elsewhere`:
    the games' names, and the plug-in formats'), each once."""
    meant = named_elsewhere(written, _plug_ins_names())
    return list(dict.fromkeys(name for tags in meant if (name := _variant_of(tags, every))))


def _variant_of(tags: Mapping[str, str], every: dict[str, dict[str, VariantNotes]]) -> str | None:
    """The variant whose tags are `tags`, of several the first that gives other programs' names of it
    (saami-tablut, not tablut's aage, its rules); `game/variant` where several games have its name; None for none."""
    found = [
        (game, variant, notes)
        for game, named in every.items()
        for variant, notes in named.items()
        if notes.tags == tags
    ]
    if not found:
        return None
    game, variant, _ = next((one for one in found if one[2].known_as), found[0])
    return variant if sum(variant in others for others in every.values()) == 1 else f"{game}/{variant}"


def _meant(written: str, every: dict[str, dict[str, VariantNotes]]) -> str:
    """The names of rules, games and variants like `written`, then other programs' names like it
    (`_alike`: `Copenhagen Hnefatafl 11x12`, 'Copenhagen Hnefatafl 11x11'), or where the names are listed."""
    like = _alike(written, [rule.id for rule in rulebook.rules()] + list(every) + variant_names(every), every)
    return meant(like) or " (lusoria explain lists the rules, lusoria explain GAME a game's variants)"


def _alike(written: str, names: list[str], every: dict[str, dict[str, VariantNotes]]) -> list[str]:
    """The `names` like `written`, its spaces taken for a name's hyphens (`Ard Ri 7×7`: `ard-ri-7x7`), then
    other programs' names like it of the variants not named yet (`_meant_elsewhere`)."""
    like = alike("-".join(written.replace("×", "x").split()), names)
    return like + _meant_elsewhere(written, like, every)


def _meant_elsewhere(written: str, like: list[str], every: dict[str, dict[str, VariantNotes]]) -> list[str]:
    """Other programs' names like `written` (without a number: `Tablut`, not `Tablut#15`), quoted, each of
    variants none of the names `like` and no name before it means."""
    meant = set(like)
    said = []
    for name in alike(written, dict.fromkeys(NUMBERED.sub("", name) for name, _ in names_elsewhere(_plug_ins_names()))):
        them = set(_variants_named(name, every))
        if name.lower() not in {*map(str.lower, meant)} and not them <= meant:
            said.append(f"'{name}'")
            meant |= them
    return said


@made_once
def variants() -> dict[str, dict[str, VariantNotes]]:
    """Every game's variants by name, each game's own first (a catalogue's entry that another game
    plays is that game's), by game in the order docs/rules.md presents them; made once (`made_once`:
    `--game NAME` looks up every variant its archive holds), not to be changed."""
    found: dict[str, dict[str, VariantNotes]] = {game: {} for game in GAMES.in_page_order}
    for game in GAMES.in_page_order:
        for name, notes in GAMES[game].variant_notes().items():
            found.setdefault(notes.tags["Game"], {})[name] = notes
    return found


def variant_names(every: dict[str, dict[str, VariantNotes]] | None = None) -> list[str]:
    """The names of the variants `explain` knows (of `every`, default `variants()`), each once."""
    return list(dict.fromkeys(name for named in (every or variants()).values() for name in named))


def tags_of_name(name: str) -> dict[str, str] | None:
    """The tags that choose the rules of the variant `explain` knows as `name` (any case), where
    they say more than a Variant tag of `name` would: `game/variant`, a catalogue's entry that
    another variant plays (saami-tablut-w: Tablut's aage with Rules first=white), and the variant
    other programs' files call so (`Copenhagen Hnefatafl 11x11`); None for a game's Variant as
    written, for a game's name, and for a name that no variant has, or several (`Tyr 13x13`)."""
    game, slash, variant = looked_up(name).rpartition("/")
    every = variants()
    if slash and (notes := every.get(game, {}).get(variant)):
        return dict(notes.tags)
    if not slash and (owners_of(variant) or variant in GAMES):
        return None
    holders = [] if slash else _holders(variant, every)
    if holders:
        return dict(every[holders[0]][variant].tags) if len(holders) == 1 else None
    return _tags_elsewhere(name.strip(), every)


def _tags_elsewhere(written: str, every: dict[str, dict[str, VariantNotes]]) -> dict[str, str] | None:
    """The tags of the one variant that other programs' files call `written` (any case); None for none or several."""
    named = _variants_named(written, every)
    if len(named) != 1:
        return None
    game, _, variant = named[0].rpartition("/")
    return dict(every[game or _holders(variant, every)[0]][variant].tags)


def _holders(variant: str, every: dict[str, dict[str, VariantNotes]]) -> list[str]:
    """The games that `every` (`variants()`) gives a variant named `variant` (lower case)."""
    return [game for game, named in every.items() if variant in named]


def games_of_variant(variant: str) -> list[str]:
    """The games that have the variant `explain` knows as `variant` (any name: saami-tablut-w is
    tablut's), by name; none for a name lusoria knows not."""
    tags = tags_of_name(variant)
    return [tags["Game"]] if tags else owners_of(looked_up(variant))


def variant_of_other_games(variant: str, game: str) -> str | None:
    """Of a variant (any name `explain` knows it by) that other games have and the game `game` has
    not, which they are, as a message says it: `a variant of tablut, not of laquet`; None when
    `game` has it, or lusoria knows either name not."""
    owners = games_of_variant(variant)
    if game.lower() not in GAMES or not owners or game.lower() in owners:
        return None
    return f"a variant of {' and '.join(owners)}, not of {game}"


class VariantOfOtherGames(OptionError):
    """A variant named with a game that has it not, and other games have: `games` says which, as a
    message says it (`a variant of tablut, not of laquet`)."""

    def __init__(self, variant: str, games: str):
        super().__init__(f"{variant} is {games}", "Variant", variant)
        self.games = games


def game_tags(game: str, variant: str | None) -> dict[str, str]:
    """The tags that choose the rules of a game and variant named apart (`lusoria tree --game
    --variant`, the explorer's URL): those of a variant named as `explain` knows it
    (saami-tablut-w: Tablut's aage, Rules first=white), else Game and Variant as written;
    VariantOfOtherGames for a variant that other games have and `game` has not."""
    if variant and (other := variant_of_other_games(variant, game)):
        raise VariantOfOtherGames(variant, other)
    tags = tags_of_name(variant) if variant else None
    return tags or {"Game": game, **({"Variant": variant} if variant else {})}


def reading_tags(tags: Mapping[str, str]) -> dict[str, str]:
    """The tags that choose the rules of records whose files do not say them (Game, Variant, Rules:
    --game, --variant, --rules; the library's `tags`), their Variant by any name `explain` knows
    it (`tags_of_name`): a name of one variant is that variant's tags, with its Game when none is
    given (`Tyr 15x15`: hnefatafl's tyr-15x15), the Rules given after its own (saami-tablut-w:
    Rules first=white); any other, or a variant of another game than the Game given, as written."""
    variant, game = tags.get("Variant"), tags.get("Game")
    named = tags_of_name(variant) if variant else None
    if not variant or not named or game and variant_of_other_games(variant, game):  # (variant: for mypy)
        return dict(tags)
    return with_variant(tags, named)


def variant_refused(variant: str, game: str | None = None) -> str | None:
    """Why `variant`, given to read records by (--variant; of `game`, --game, when given), chooses
    no variant, before a record is read: a name of several variants (`Tyr 13x13`), another game's
    name of a variant (`Tyr 15x15` of tablut), and, without `game`, a name of none (with the names
    like it that `explain` suggests); None for a name of one, for a game's Variant or a game's name
    as written (of that game, or of no game given: `Tablut` of hnefatafl names its several), and for a name
    that `game` refuses itself (its message names the variants it has)."""
    if owners_of(variant) or looked_up(variant) in GAMES and (game is None or looked_up(variant) == looked_up(game)):
        return None
    if game and (other := variant_of_other_games(variant, game)):
        return str(VariantOfOtherGames(variant, other))
    if tags_of_name(variant):
        return None
    return several_named(variant) or (None if game else unknown_variant(variant))


def several_named(variant: str) -> str | None:
    """What is said of `variant` when it names several variants and no game's own (`Tyr 13x13`,
    other programs' name of two): name one; None otherwise."""
    every = variants()
    if len(owners := _holders(looked_up(variant), every)) > 1:
        return held_by_several(looked_up(variant), owners)
    if len(named := _variants_named(variant, every)) > 1:
        return named_by_several(variant, named)
    return None


def unknown_variant(
    variant: str, every: dict[str, dict[str, VariantNotes]] | None = None, naming: str = GAME_OPTION
) -> str:
    """What is said of a name that no variant has (of `every`, default `variants()`): how many there
    are, and those like it that `explain` suggests (other programs' names too), or where they are listed;
    of a game's name, `naming` of it (`game_named`: the explorer's `?game=`)."""
    every = every or variants()
    names = variant_names(every)
    like = _alike(variant, names, every)
    listed_in = next((GAMES[game].presets_listed_in for game in every if GAMES[game].presets_listed_in), "")
    said = meant(like, inside=True) or (f": {listed_in} lists them" if listed_in else "")
    return f"unknown variant {quoted(variant)}: no game has it ({len(names)} known{said}){game_named(variant, naming)}"


def rules_of_name(name: str) -> Game | None:
    """The rules of the variant `explain` knows as `name`, where `tags_of_name` has its tags."""
    tags = tags_of_name(name)
    return rules_from_tags(GAMES[tags["Game"]], tags) if tags else None


def is_variant(name: str) -> bool:
    """Whether `name` (any case) is a variant that `explain` knows: a game's Variant, or another
    name of one (`tags_of_name`), as `looked_up`."""
    return bool(owners_of(looked_up(name))) or tags_of_name(name) is not None


def game_text(name: str) -> str:
    """A game as `lusoria explain GAME` prints it: its variants, a line each, and its rules and options."""
    game = GAMES[name]
    named = variants()[game.name]
    width = max(map(len, named), default=0)
    played = {variant: _played_as(variant, notes) for variant, notes in named.items()}
    lines = [
        f"{game.name}: {game.title or game.name}",
        "",
        f"Variants (the Variant tag, {'required' if game.described else 'the default first'}; "
        f"explain {game.name}/VARIANT says more):",
        *(
            _wrapped(f"  {variant:<{width}}  {notes.titled()}{played[variant]}", " " * (width + 4))
            for variant, notes in named.items()
        ),
        *(
            [_wrapped("  (an entry whose tags follow its title is written with those tags; --variant takes its name)")]
            * any(played.values())
        ),  # (h77b: `[Variant "saami-tablut-w"]`, listed so, was refused)
        *([_wrapped(read_from)] if (read_from := game.variants_read_from()) else []),
        "",
        _rule_line(game.name, ""),
        _wrapped(f"options (the Rules tag): {', '.join(game.rules_tag_keys()) or 'none'}"),
    ]
    return "\n".join(lines)


def _played_as(variant: str, notes: VariantNotes) -> str:
    """For an entry that is no Variant of its game (a catalogue's type a built-in game plays), the
    tags that choose its rules."""
    rules = rules_from_tags(GAMES[notes.tags["Game"]], dict(notes.tags))
    if rules.variant == variant:
        return ""
    return " " + tags_line({"Variant": rules.variant, **rules.extra_tags()})


def _board(size: str, choice: str) -> str:
    """The board a variant's line names (its size as a Board tag writes it; none: the table of points
    that diagram.Points draws), and what else a Board tag may choose."""
    return f"board: {size or 'a table of 24 points'}{f' ({choice})' if choice else ''}; "


def variant_text(name: str, notes: VariantNotes) -> str:
    """A variant as `lusoria explain VARIANT` prints it."""
    rules = rules_from_tags(GAMES[notes.tags["Game"]], dict(notes.tags))
    start = rules.initial()
    size = rules.board_size()
    lines = [
        _wrapped(f"{name}: {notes.titled()}"),
        f"game: {rules.name}; its tags: {tags_line(notes.tags)}",
        f"{_board(size, rules.board_choice())}{SIDE_NAMES[rules.turn(start)]} moves first",
        "",
        rules.render(start),
        f"position: {rules.format_position(start)}",
        "",
        "Settings (a Rules tag's key=value; then the key: what it decides, and the rules it governs):",
        *(_settings(rules) or ["  none: the game has no options"]),
        "",
        _rule_line(rules.name, rules.variant),
    ]
    same = _same_rules(name, rules)
    if same or notes.known_as or notes.sources or notes.notes:
        lines.append("")
    lines += [_wrapped(line) for line in notes.known_as]
    lines += [
        _wrapped(f"the same rules as {other}" + (f" ({'; '.join(them.known_as)})" if them.known_as else ""))
        for other, them in same.items()
    ]
    sourced = (("sources", notes.sources), ("notes", notes.notes))
    lines += [_wrapped(f"{label}: {rulebook.plain(text)}") for label, text in sourced if text]
    return "\n".join(lines)


def _same_rules(name: str, rules: Game) -> dict[str, VariantNotes]:
    """The other variants of the game of `rules` that choose the same rules (a catalogue's type that
    a built-in game plays, and that game's variant), by name."""
    chosen, mine = _chosen_rules()[rules.name], _chosen(rules)
    return {other: notes for other, notes in variants()[rules.name].items() if other != name and chosen[other] == mine}


def _chosen(rules: Game) -> tuple[str, dict[str, str]]:
    """What makes two variants' rules the same: their options, and their variant where its presets are not options."""
    return ("" if rules.presets_are_options else rules.variant), rules.option


@made_once
def _chosen_rules() -> dict[str, dict[str, tuple[str, dict[str, str]]]]:
    """`_chosen` of every variant of every game, by game and name: made once, not for each variant
    explained (`lusoria explain` of each of a game's 170 variants read every one's rules each time)."""
    return {
        game: {name: _chosen(rules_from_tags(GAMES[game], dict(notes.tags))) for name, notes in named.items()}
        for game, named in variants().items()
    }


def _settings(rules: Game) -> list[str]:
    """Each option that `rules` play by (`Game.options_in_play`) and a Rules tag may set, with its
    value, in the words of its game's options (rulebook.tag_options)."""
    meanings = {option.key: option.meaning for option in rulebook.tag_options(rules.name)}
    return [
        _wrapped(
            f"  {key}={rules.option[key]}" + (f"; {key}: {rulebook.plain(meanings[key])}" if key in meanings else ""),
            "    ",
        )
        for key in rules.options_in_play()
        if key in rules.rules_tag_keys()
    ]


def _rule_line(game: str, variant: str) -> str:
    """The IDs of a game's rules (of `variant`: those of every variant, its own and those they cite,
    as piso's P1 cites seneca's S1 and S2; "": all)."""
    rules = [rule for rule in rulebook.rules() if rule.game == game]
    own = [rule for rule in rules if not variant or rule.variant in ("", variant)]
    cited = {cited for rule in own if rule.variant for cited in rule.cites}
    ids = [rule.id for rule in rules if rule in own or rule.id in cited]
    if not ids:
        return "rules: none written (lusoria explain knows none of its rules)"
    return _wrapped(f"rules: {', '.join(ids)} (lusoria explain {ids[0]} says what a rule means)")


def _wrapped(line: str, indent: str = "  ") -> str:
    """`line` filled to WIDTH, its leading spaces kept even where its first word alone is wider."""
    text = line.lstrip(" ")
    return textwrap.fill(
        text,
        WIDTH,
        initial_indent=line[: len(line) - len(text)],
        subsequent_indent=indent,
        break_long_words=False,
        break_on_hyphens=False,
    )
