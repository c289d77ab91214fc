"""Which rule sets fit a record: every preset and every combination of the options
RULES.md lists, the record replayed under each; the legal ones reported as the
smallest changes from the record's own rules (`lusoria rules`). Over many records, how many
a rule set makes legal (`legal_under`: what `lusoria rules DIR` proposes by)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import product

from lusoria.notation.model import Ply, Record
from lusoria.notation.reader import RecordText
from lusoria.notation.visitor import PlyKey, Visitor, walk
from lusoria.validator.base import Game, OptionError, changed_options, rules_tag, written_options
from lusoria.validator.games import GAMES, game_class
from lusoria.validator.replay import ERROR, Report, replay

MAX_WORK = 500_000  # plies the search replays at most, over all rule sets, with the positions searched
# for moves a record leaves out (`Game.searched`; docs/robustness.md)
MAX_SEARCHED = 25_000  # of that work, the positions searched past which no set more is tried: some 50 µs
# each (pure Python), where a ply charged costs little, each replay stopping at its first error (a berserk
# record that fits no set searched 440,000: 20 s); enough for every set of one change of most of
# aagenielsen.dk's records (all but two of the 24 it stops)
PAST_PLIES = 1 << 62  # the first error of a rule set under which every ply is legal (beyond any ply)


@dataclass
class Fit:
    """What the search found for one record."""

    declared: str  # the record's own rules, e.g. "seed" or "seneca with removal=before-move"
    legal: bool  # under its own rules
    changes: list[str] = field(default_factory=list)  # the smallest changes that make it legal
    more: int = 0  # ... as small, past the `most` that `changes` lists
    tried: int = 0  # rule sets replayed
    furthest: int | None = None  # when no set fits: the latest first error, over all sets
    furthest_move: str = ""  # ... its move and side, as validate says them ("": past the plies, or sets disagree)
    furthest_at: tuple[int, int] | None = None  # ... its line and column in the file (None: past the plies)
    everywhere: bool = False  # ... and every set fails at that same ply
    past_plies: bool = False  # ... past every ply (`furthest`, the last): at a tag or the result marker
    bounded: bool = False  # the search stopped at MAX_WORK or MAX_SEARCHED before trying every set
    sets: list[dict[str, str]] = field(default_factory=list, repr=False)  # the sets found legal (`rule_tags`)

    def __str__(self) -> str:
        if self.legal:
            return f"legal under its declared rules ({self.declared})"
        if self.changes:
            return "legal " + "; or ".join(self.changes) + (f"; or {self.more} more" if self.more else "")
        if self.past_plies:
            said = "(lusoria validate says which)"
            where = (
                f"every ply is legal under every set, but a tag or the result marker is not {said}"
                if self.everywhere
                else f"every set fails, the latest past its last ply ({self.furthest}): at a tag or the result marker {said}"
            )
        else:
            at = f"{self.furthest_move} (ply {self.furthest})" if self.furthest_move else f"ply {self.furthest}"
            where = (
                f"first conflict at {at} under every set" if self.everywhere else f"every set fails, the latest at {at}"
            )
        tried = f"{self.tried} tried, then the search stopped at its bound" if self.bounded else f"{self.tried} tried"
        return f"legal under no rule set ({tried}): {where}"


RuleSet = tuple[int, int, str, dict[str, str], dict[str, str]]
# (changes from the record's own tags, options off its own rules, variant, options, changed)


def _sets(cls: type[Game], own: Game, tags: dict[str, str]) -> list[RuleSet]:
    """Every distinct rule set, as (changes from `own`, options off `own`'s, variant, options, changed),
    fewest changes first. Presets that only bundle options
    (`presets_are_options`) are searched as options and named when a set equals one; the keys varied
    only by preset (`searched_as_presets`) are also changed one at a time (h72a: a record that needs
    `cenp=adk` alone was offered other variants); `pieces` keeps the record's own value."""
    declared = cls.options_from_tags(tags)
    keys = list(cls.options)
    kept = cls.searched_as_presets
    choices = [
        (own.option[key],)
        if key in kept
        else cls.options[key]
        if len(cls.options[key]) > 1
        else (declared.get(key, cls.options[key][0]),)
        for key in keys
    ]
    variants = [own.variant] if cls.presets_are_options else list(cls.presets)
    named = {tuple(cls.preset_options(v)[k] for k in keys): v for v in cls.presets} if cls.presets_are_options else {}
    sets: list[RuleSet] = []

    def add(cost: int, variant: str, options: dict[str, str], changed: dict[str, str]) -> None:
        off = sum(value != own.option[key] for key, value in options.items())
        sets.append((cost, off, variant, options, changed))

    def add_own(variant: str, options: dict[str, str]) -> None:
        base = own.option if variant == own.variant else _as_tagged(cls, variant, declared)
        changed = changed_options(options, base)
        preset = named.get(tuple(options.values()))
        if preset and preset != own.variant and changed:
            overridden = changed_options(options, _as_tagged(cls, preset, declared))  # (the Rules tag's)
            add(1 + len(overridden), preset, options, overridden)
        else:
            add(len(changed) + (variant != own.variant), variant, options, changed)

    for variant in variants:
        for values in product(*choices):
            add_own(variant, dict(zip(keys, values)))
    for key in kept:
        for value in cls.options[key]:
            if value != own.option[key]:
                add_own(own.variant, {**own.option, key: value})
    for preset in cls.presets if cls.presets_are_options and kept else ():
        options = cls.preset_options(preset)
        if any(options[key] != own.option[key] for key in kept):
            overridden = changed_options(options, _as_tagged(cls, preset, declared))
            add(1 + len(overridden), preset, options, overridden)
    return sorted(sets, key=lambda item: item[0])


def _as_tagged(cls: type[Game], variant: str, declared: dict[str, str]) -> dict[str, str]:
    """The options of a record whose Variant is changed to `variant` alone, its Rules tag (`declared`) kept:
    what another variant's rule set is changed from (`under variant seneca` keeps the tag's corner-capture=no;
    `under variant seneca with corner-capture=yes` changes it)."""
    return {**cls.preset_options(variant), **declared}


class _Plies(Visitor):
    """Counts the plies of a record, variations included."""

    def __init__(self) -> None:
        self.count = 0

    def visit_ply(self, ply: Ply, number: int, key: PlyKey) -> None:
        self.count += 1


def _count_plies(record: Record) -> int:
    """The plies of a record, variations included."""
    plies = _Plies()
    walk(record, plies)
    return plies.count


def _describe(variant: str, changed: dict[str, str], declared_variant: str) -> str:
    words = written_options(changed)
    if variant != declared_variant:
        return f"under variant {variant}" + (f" with {words}" if words else "")
    return f"if {words}"


def _mechanics(rules: Game) -> int:
    """How many options of a rule set differ from its game's defaults: of sets that fit alike, the
    one with fewer is the plainer (no berserk moves, no shieldwall, … where no record needs them)."""
    return sum(value != rules.options[key][0] for key, value in rules.option.items())


def rule_tags(cls: type[Game], variant: str, options: dict[str, str]) -> dict[str, str]:
    """A rule set of a game as the tags that choose it: Game, Variant and Rules (the options
    that differ from the variant's), the same however the set was found."""
    return {"Game": cls.name, "Variant": variant, **rules_tag(options, cls.preset_options(variant))}


def _under(record: Record, tags: dict[str, str]) -> dict[str, str]:
    """A record's tags with the rule set `tags` (`rule_tags`) in place of its own Variant and Rules."""
    return {**{k: v for k, v in record.tags.items() if k not in ("Variant", "Rules")}, **tags}


def _makes_legal(record: Record, report: Report) -> bool:
    """Whether a replay makes a record legal: valid, or but for its result marker `*` (unknown,
    as in a move list that writes none) where the rules end the game (a result error the record's
    moves do not make: what rule set they follow is the question)."""
    errors = [d.rule for d in report.diagnostics if d.severity == ERROR]
    return report.valid or (record.result == "*" and set(errors) == {"result"})


def _legal(record: Record, rules: Game, source: RecordText | None) -> bool:
    """Whether `record` is legal under `rules` (`_makes_legal`), its `source`'s claims asked (`_replayed`)."""
    return _makes_legal(record, _replayed(record, rules, source))


def _replayed(record: Record, rules: Game, source: RecordText | None) -> Report:
    """`record` replayed under `rules` to its first error, with the claims of its `source` (a site's
    conventions undone, as `check` undoes them: RecordText.claims), when given."""
    return replay(record, source, keep=False, rules=rules, first_error=True)


def legal_under(records: list[Record], tags: dict[str, str], sources: Sequence[RecordText | None] = ()) -> int:
    """How many of `records` are legal under the rule set `tags` chooses (`rule_tags`), each on
    its own board and from its own start (its other tags kept); those of another game are not.
    `sources`: the records' texts, in the same order, whose claims their replays ask (`_replayed`)."""
    pairs = zip(records, sources or [None] * len(records), strict=True)
    ours = [(record, source) for record, source in pairs if record.game == tags["Game"]]
    return _replayed_under([record for record, _ in ours], tags, [source for _, source in ours])[0]


def _replayed_under(
    records: list[Record], tags: dict[str, str], sources: Sequence[RecordText | None] = ()
) -> tuple[int, int]:
    """How many of `records`, whatever their own game, are legal under the rule set `tags` (as
    `legal_under`, their `sources`' claims asked), and the positions their replays searched (`Game.searched`)."""
    cls = game_class(tags["Game"])
    legal = searched = 0
    for record, source in zip(records, sources or [None] * len(records), strict=True):
        try:
            rules = cls.from_tags(_under(record, tags))
        except OptionError:
            continue  # its board or position does not suit the set
        legal += _legal(record, rules, source)
        searched += rules.searched
    return legal, searched


def fitting_rules(record: Record, most: int = 5, valid: bool = False, source: RecordText | None = None) -> Fit:
    """The rule sets under which `record` is legal, nearest to its own first (fewest tags changed, then
    fewest options off its own rules: h72a, a club variant's `if tfr=i` came after twelve variants that
    change five of its rules; of sets as near, the plainest: fewest options off the game's defaults). Sets are
    tried in order of their number of changes, and the search stops at the first number
    that makes the record legal. `valid`: its check found it valid, so legal under its own
    rules without a replay more. A record of a game whose boards are its variants that names
    none (`Game.described`) has no rules of its own: each variant is tried. `source`: the record's
    text, whose claims each replay asks (`_replayed`: a site's conventions undone, as `check` does)."""
    cls = game_class(record.game)
    if names_no_variant(record):
        variants: list[RuleSet] = [(1, 0, variant, cls.preset_options(variant), {}) for variant in cls.presets]
        return _search(record, source, cls, Fit("no variant", False), variants, "", most)
    own = cls.from_tags(record.tags)
    own_changes = changed_options(own.option, cls.preset_options(own.variant))
    declared = own.variant + (" with " + written_options(own_changes) if own_changes else "")
    fit = Fit(declared, valid or _legal(record, own, source))
    if fit.legal:
        fit.sets.append(rule_tags(cls, own.variant, own.option))
        return fit
    return _search(record, source, cls, fit, _sets(cls, own, record.tags), own.variant, most)


def names_no_variant(record: Record) -> bool:
    """Whether `record` is of a game whose boards are its variants (`Game.described`) and names none
    (no Variant tag, or an empty one): it has no rules of its own, and `fitting_rules` tries each variant."""
    return record.game in GAMES and GAMES[record.game].described and not record.tags.get("Variant", "").strip()


def _search(
    record: Record,
    source: RecordText | None,
    cls: type[Game],
    fit: Fit,
    sets: list[RuleSet],
    declared_variant: str,
    most: int,
) -> Fit:
    """`fit` with the nearest of `sets` (fewest changes first) under which `record` is legal, or
    how far the sets got; `declared_variant`: the record's own ("": none)."""
    found: list[tuple[int, int, str]] = []  # (options off the record's, mechanics, the change described) of each
    # set found legal
    firsts: list[tuple[int, str, tuple[int, int] | None]] = []  # each set's first error: its ply, move and place
    plies, work, searched, least = _count_plies(record), 0, 0, 0  # least: the changes of the sets found
    for cost, off, variant, options, changed in sets:
        if found and cost > least:
            break
        if work + plies > MAX_WORK or searched > MAX_SEARCHED:
            fit.bounded = True
            break
        work += plies
        tags = rule_tags(cls, variant, options)
        try:
            rules = cls.from_tags(_under(record, tags))
        except OptionError:
            continue  # this board or position does not suit the variant
        fit.tried += 1
        report = _replayed(record, rules, source)
        work, searched = work + rules.searched, searched + rules.searched
        if _makes_legal(record, report):
            fit.sets.append(tags)
            found.append((off, _mechanics(rules), _describe(variant, changed, declared_variant)))
            least = cost
        else:
            errors = [
                (d.ply, d.move, (d.line, d.column))
                for d in report.diagnostics
                if d.severity == ERROR and d.ply is not None
            ]
            replayed = bool(report.positions)  # (none: its start could not be read under this set)
            firsts.append(errors[0] if errors else (PAST_PLIES if replayed else 0, "", None))  # (past: a tag's)
    if found:
        changes = list(dict.fromkeys(text for *_, text in sorted(found)))  # the nearest, then the plainest, first
        fit.changes, fit.more = changes[:most], max(len(changes) - most, 0)
    elif firsts:
        fit.furthest, fit.everywhere = max(ply for ply, *_ in firsts), len({ply for ply, *_ in firsts}) == 1
        said = {move for ply, move, _ in firsts if ply == fit.furthest}  # (sets of other first movers say others)
        fit.furthest_move = said.pop() if len(said) == 1 else ""
        if fit.furthest == PAST_PLIES:
            fit.furthest, fit.past_plies = len(record.main.plies), True
        elif fit.furthest:  # (where its error is: a variation's ply too, review78)
            fit.furthest_at = next(place for ply, _, place in firsts if ply == fit.furthest)
    return fit


@dataclass(frozen=True)
class Proposal:
    """The one rule set (`rule_tags`) under which the most records of a game are legal; of a
    game whose boards are its variants (`Game.described`), of the records of one variant (`of`);
    of another game's (`across`: the records' own game), a variant of its catalogue that makes more legal."""

    tags: dict[str, str]
    legal: int  # records legal under it
    records: int  # records of its game (of its variant)
    of: str | None = None  # the variant the records name, when they are grouped by it
    across: str | None = None  # the records' game, when the set is another game's
    own: int | None = None  # records legal under the rules each names (None: they name none, or `across`)

    def __str__(self) -> str:
        rules = f" with {self.tags['Rules']}" if "Rules" in self.tags else ""
        group = f" (records of variant {self.of})" if self.of else f" (records of {self.across})" if self.across else ""
        said = {0: "none is", 1: "1 is"}.get(self.own or 0, f"{self.own} are")
        own = f" ({said} legal under their own rules)" if self.own not in (None, self.legal) else ""
        return (
            f"{self.tags['Game']}{group}: variant {self.tags['Variant']}{rules} makes {self.legal} of the "
            f"{self.records} records legal{own}"
        )


def _group(record: Record) -> tuple[str, str | None]:
    """The records a proposal serves, as (game, variant): those of a game (None), or of a variant
    when the game's boards are its variants (no one set fits a folder of 7×7 and 19×19 games);
    those that name none (`names_no_variant`: no Variant tag, an empty or a blank one) together
    (None)."""
    game = game_class(record.game)
    return game.name, record.tags["Variant"].lower() if game.described and not names_no_variant(record) else None


def proposals(
    records: list[Record], fits: list[Fit], candidates: int = 3, sources: Sequence[RecordText | None] = ()
) -> list[Proposal]:
    """For each game of `records` (their `fits`, in the same order) — each variant of a game whose
    boards are its variants — the rule set under which the most are legal: of the sets found legal
    record by record (each record's nearest), the `candidates` found most often, each tried on
    every record of the group (`legal_under`); the one found most often of those that make as
    many legal, then the plainest (fewest options off the game's defaults); beside it, how many are
    legal under the rules each names, when that differs (a set that makes one record more legal
    than their own rules do is still proposed: the line says both). `sources`: the
    records' texts, in the same order, whose claims the replays ask (`legal_under`)."""
    found: dict[tuple[str, str | None], Counter[tuple[tuple[str, str], ...]]] = {}
    members: dict[tuple[str, str | None], list[tuple[Record, RecordText | None]]] = {}
    own: Counter[tuple[str, str | None]] = Counter()  # of each group, the records legal under their own rules
    named: set[tuple[str, str | None]] = set()  # the groups whose records name rules of their own
    for record, fit, source in zip(records, fits, sources or [None] * len(records), strict=True):
        key = _group(record)
        members.setdefault(key, []).append((record, source))
        own[key] += fit.legal
        if not names_no_variant(record):
            named.add(key)
        for tags in fit.sets:
            found.setdefault(key, Counter())[tuple(tags.items())] += 1
    chosen = []
    for key, counts in found.items():
        group, texts = [record for record, _ in members[key]], [source for _, source in members[key]]
        game = game_class(key[0])
        ranked = sorted(counts, key=lambda tags: (-counts[tags], _mechanics(game.from_tags(dict(tags)))))
        tried = [(dict(tags), legal_under(group, dict(tags), texts)) for tags in ranked[:candidates]]
        tags, legal = max(tried, key=lambda pair: pair[1])  # the first of those that make the most legal
        tags, legal = _combined(group, texts, tags, legal, counts)
        chosen.append(Proposal(tags, legal, len(group), key[1], own=own[key] if key in named else None))
        if legal < len(group) and (other := _across(group, game, texts)) and other[1] > legal:
            chosen.append(Proposal(other[0], other[1], len(group), across=game.name))
    return chosen


MAX_COMBINED = 8  # of the options the sets found change, how many `_combined` tries on a group at most


def _combined(
    group: list[Record],
    texts: Sequence[RecordText | None],
    tags: dict[str, str],
    legal: int,
    counts: Counter[tuple[tuple[str, str], ...]],
) -> tuple[dict[str, str], int]:
    """The rule set `tags`, which makes `legal` of `group` legal, with each option that a set found
    of its variant (`counts`, the sets found record by record) changes from it, the most often found
    first, tried one at a time and kept where it makes more legal, and how many it then makes (h72a:
    a club's records, one legal if tfr=i and another if ks=c, were proposed their rules unchanged,
    which made 8 of 11 legal, where both changes make 10). Each try replays the group: tried while the plies
    replayed stay within MAX_WORK, as the search's sets are (review72)."""
    game = game_class(tags["Game"])
    options = game.from_tags(tags).option
    changes: Counter[tuple[str, str]] = Counter()
    for found, count in counts.items():
        if dict(found)["Variant"] == tags["Variant"]:
            for key, value in game.from_tags(dict(found)).option.items():
                changes[key, value] += count * (value != options[key])
    plies = sum(map(_count_plies, group))
    for tried, (key, value) in enumerate(change for change, count in changes.most_common(MAX_COMBINED) if count):
        if legal == len(group) or (tried + 1) * plies > MAX_WORK:
            break  # (every record legal: no change makes more, review72)
        changed = {**options, key: value}
        more = legal_under(group, candidate := rule_tags(game, tags["Variant"], changed), texts)
        if more > legal:
            tags, legal, options = candidate, more, changed
    return tags, legal


def _across(
    group: list[Record], game: type[Game], texts: Sequence[RecordText | None] = ()
) -> tuple[dict[str, str], int] | None:
    """Of the variants of the other games whose boards are their variants (`_other_games`), the
    one under which the most of `group` (records of `game`, their `texts`' claims asked) are legal (of those, the plainest:
    `_mechanics`), and how many: the variant
    a club's records of one game were played under may be another's (a 9×9 Tablut of aagenielsen.dk's
    catalogue). Variants are tried while the plies replayed stay within MAX_WORK and the positions
    searched within MAX_SEARCHED, as a record's search; None when none is tried."""
    plies, work, searched, best = sum(map(_count_plies, group)), 0, 0, None
    for tags in _other_games(group, game):
        if work + plies > MAX_WORK or searched > MAX_SEARCHED:
            break
        legal, more = _replayed_under(group, tags, texts)
        work, searched = work + plies + more, searched + more
        plainest = (legal, -_mechanics(game_class(tags["Game"]).from_tags(tags)))
        if best is None or plainest > best[2]:
            best = (tags, legal, plainest)
    return best[:2] if best else None


def _other_games(group: list[Record], game: type[Game]) -> list[dict[str, str]]:
    """The rule sets (`rule_tags`) of the variants of the other games whose boards are their
    variants (`Game.described`) played on the one board of `group`'s records (none for records of
    several boards, or whose board their tags do not choose)."""
    try:
        boards = {game.from_tags(record.tags).board_size() for record in group}
    except OptionError:
        return []
    if len(boards) != 1:
        return []
    board = boards.pop()
    others = [GAMES[name] for name in GAMES if GAMES[name].described and GAMES[name] is not game]
    return [
        rule_tags(other, variant, other.preset_options(variant))
        for other in others
        for variant in other.variants_of_board(board)
    ]
