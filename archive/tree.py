"""The move tree (`lusoria tree`), an opening explorer: from a position, every next ply the
archive's records played, with how their games went. Positions are compared by key, so
transpositions count: a game that reached the position by another order of plies is counted
too. Each ply is played again from the position, under the rules of the records that played
it, for the position it leads to: plies that lead to one position are one row (when chance
chose the same for them: `Game.chance`), and with `symmetric` the positions that are one up
to the board's symmetries are one (`Game.symmetric`: the plies played in a position's images;
`Game.canonical`: the image it is folded to)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from functools import cache

from lusoria.archive.players import RESULTS
from lusoria.archive.positions import SEARCH_TERMS, all_search_terms, keys_of, move_of, position_key, reaches
from lusoria.archive.reading import DamagedArchive
from lusoria.archive.rule_sets import named_variant, rule_tags_of
from lusoria.validator.base import SIDE_NAMES, WHITE, Game, Illegal, Position, sides_named
from lusoria.validator.games import GAMES, rules_from_tags

WHITE_WON, BLACK_WON, DRAWN = RESULTS[:3]  # the result markers but `*`
# Per position asked for (`wanted`: what positions.search_terms gives), ply played from it (its code; a
# ply of a variation not in the dictionary: a space and its text) and rule set: the games, their
# plies and the sum of those plies' numbers, the games of each result (with a player, also those they won and lost) and
# the first and last date. A game that played a ply several times (back at the position, or in
# several lines) counts once.
FOUND = f"""
WITH wanted({", ".join(SEARCH_TERMS)}) AS MATERIALIZED (
  SELECT {", ".join(f"value ->> {n}" for n in range(len(SEARCH_TERMS)))} FROM json_each(?)),
found(key, token, move, doc, ply) AS (
  SELECT w.key, w.token, {move_of("v.term")}, v.doc, v.offset
  FROM wanted w CROSS JOIN position_plies v ON v.term >= w.low AND v.term < w.high
  WHERE {reaches("v", "w", bare=False)}{{variations}})"""
COUNTS = "count(DISTINCT f.doc), count(*), sum(f.ply), " + ", ".join(
    f"count(DISTINCT CASE r.result WHEN '{result}' THEN f.doc END)"
    for result in (WHITE_WON, DRAWN, BLACK_WON)  # the Node's white, draws, black
)
DATES = "min(r.date_from), max(r.date_to)"
LEVEL = (
    FOUND
    + f"""
SELECT f.token, f.move, r.game, r.variant, r.rule_tags, {COUNTS}, {{won}}, {{lost}}, {DATES}
FROM found f JOIN records r ON r.id = f.doc{{only}}
GROUP BY f.token, f.move, r.game, r.variant, r.rule_tags"""
)
VARIATIONS = """
  UNION ALL SELECT w.key, w.token, coalesce((SELECT code FROM moves WHERE text = x.text), ' ' || x.text), x.record_id, x.ply
  FROM wanted w CROSS JOIN variation_plies x ON x.position = w.key"""
# The same rows read from the sums the archive keeps per position (`next_plies`, archive/next_plies.py),
# for the positions it sums up, in the records the conditions `{where}` over `n` select
SUMMED = """
WITH wanted(key, token) AS MATERIALIZED (SELECT value ->> 0, value ->> 1 FROM json_each(?))
SELECT w.token, n.move, n.game, nullif(n.variant, ''), nullif(n.rule_tags, ''), sum(n.games), sum(n.plies),
       sum(n.ply_sum), sum(n.white), sum(n.draws), sum(n.black), NULL, NULL,
       date(min(n.first) * 86400, 'unixepoch'), date(max(n.last) * 86400, 'unixepoch')
FROM wanted w CROSS JOIN next_plies n ON n.position = w.key{where}
GROUP BY w.token, n.move, n.game, n.variant, n.rule_tags"""
SUMMED_UP = "SELECT value FROM json_each(?) WHERE EXISTS (SELECT 1 FROM next_plies WHERE position = value)"
SORTS = ("games", "score")


def _percent(part: float, whole: int) -> float | None:
    return round(100 * part / whole, 1) if whole else None


@dataclass
class Node:
    """A ply played from a position, how its games went, and what followed it."""

    ply: str  # in canonical form, as most of its games played it
    position: int  # the key of the position it led to
    games: int = 0
    white: int = 0  # games won by White
    draws: int = 0
    black: int = 0
    average_ply: float = 0.0  # the mean ply number of this ply in those games
    first: str | None = None  # the earliest date a game may have been played, as a Date tag writes it (2026.11.21)
    last: str | None = None
    won: int | None = None  # with a player: the games they won, and lost
    lost: int | None = None
    score: float | None = None  # of the side that played the ply (with a player: theirs), in percent
    # of the finished games' points (a win 1, a draw ½)
    children: list[Node] = field(default_factory=list)
    sides: tuple[str, str] = SIDE_NAMES  # the names its game gives White's side and Black's (`Game.sides`)
    game: str | None = None  # the name of its game (None: one lusoria does not know)
    variant: str | None = None  # its games' rule set, as `stats` and `--variant` name it (`named_variant`:
    # saami-tablut-w); a ply is a node per rule set, and its children are plies of that rule set

    @property
    def unfinished(self) -> int:
        """Games with no result (`*`)."""
        return self.games - self.white - self.draws - self.black

    def as_dict(self) -> dict:
        """The node as `tree --format json` writes it: counts, and their shares of the finished
        games in percent (with a player: won, drawn and lost, from their side)."""
        finished = self.white + self.draws + self.black
        counts = (
            {"white": self.white, "draws": self.draws, "black": self.black}
            if self.won is None
            else {"won": self.won, "drawn": self.draws, "lost": self.lost}
        )
        row: dict[str, object] = {
            "ply": self.ply,
            "games": self.games,
            **counts,
            **{f"{name}_percent": _percent(count or 0, finished) for name, count in counts.items()},
            "unfinished": self.unfinished,
            "score": self.score,
            "average_ply": self.average_ply,
            "first": self.first,
            "last": self.last,
            "sides": dict(zip(("white", "black"), self.sides)),
            "game": self.game,
            "variant": self.variant,
        }
        if self.children:
            row["children"] = [child.as_dict() for child in self.children]
        return row


def _every(nodes: list[Node]) -> Iterator[Node]:
    """`nodes` and their children, and theirs."""
    for node in nodes:
        yield node
        yield from _every(node.children)


def games_of(nodes: list[Node]) -> dict[str | None, tuple[str, str]]:
    """The games of `nodes` and their children (a position string several games read starts a tree
    in each: Tablut's start is also Hnefatafl's rachunek-tablut-9x9), each with the names it gives
    White's side and Black's, in the order of their names."""
    named = {node.game: node.sides for node in _every(nodes)}
    return {game: named[game] for game in sorted(named, key=str)}


def several_rule_sets(nodes: list[Node]) -> bool:
    """Whether `nodes` and their children hold plies of several rule sets of one game (the Tablut of
    Ashton's server and Saami Tablut-w start alike): the tree's table then says each row's."""
    rule_sets = {(node.game, node.variant) for node in _every(nodes)}
    return len(rule_sets) > len({game for game, _ in rule_sets})


def sides_of(nodes: list[Node]) -> tuple[str, str]:
    """The names the games of `nodes` (`games_of`) give White's side and Black's, joined as
    `stats --by` joins them (`sides_named`, in the order of the games' names) where they differ."""
    return sides_named(list(games_of(nodes).values()))


@cache
def _rules(game: str, variant: str | None, rule_tags: str | None) -> Game | None:
    """The rules of a record, from its columns (None for a game the registry lacks)."""
    if game not in GAMES:
        return None
    try:
        tags = json.loads(rule_tags or "{}")
    except ValueError:
        tags = None
    if not isinstance(tags, dict):
        raise DamagedArchive(f"a record's rule_tags is not a JSON object of tags: {rule_tags!r:.60}")
    return rules_from_tags(GAMES[game], {**({"Variant": variant} if variant else {}), **tags})


@cache
def _variant(rules: Game) -> str | None:
    """The rule set of records played under `rules` (one object per rule set: `_rules`), as `stats` and
    `--variant` name it: the catalogue's entry they play, else their variant (`named_variant`)."""
    return named_variant(rules.name, rules.variant, rule_tags_of(rules))


class _Growing:
    """A node being summed up from the rows of its rule sets and symmetries."""

    __slots__ = ("turn", "rules", "variant", "counts", "first", "last", "written")

    def __init__(self, turn: int, rules: Game, variant: str | None) -> None:
        self.turn = turn  # the side that plays the ply
        self.rules = rules  # of the position it is played from: its game's name and the names of its sides
        self.variant = variant  # the rule set of its games (`Node.variant`)
        self.counts = [0] * 8  # games, plies, ply sum, White's wins, draws, Black's, won, lost
        self.first: str | None = None
        self.last: str | None = None
        self.written: dict[str, list] = {}  # by ply as played: its games, its rules, the position it led to, its key

    def add(self, ply: str, rules: Game, position: Position | None, key: int, row: list) -> None:
        counts = self.counts
        for index in range(8):
            counts[index] += row[index] or 0
        first, last = row[8], row[9]
        if first is not None and (self.first is None or first < self.first):
            self.first = first
        if last is not None and (self.last is None or last > self.last):
            self.last = last
        if ply in self.written:
            self.written[ply][0] += row[0]
        else:
            self.written[ply] = [row[0], rules, position, key]

    def node(self, player: bool) -> tuple[Node, Game, Position | None]:
        games, plies, ply_sum, white, draws, black, won, lost = self.counts
        ply = min(self.written, key=lambda text: (-self.written[text][0], text))  # the most played, then the first
        _, rules, position, key = self.written[ply]
        points = (won if player else white if self.turn == WHITE else black) + draws / 2
        return (
            Node(
                ply,
                key,
                games,
                white,
                draws,
                black,
                round((ply_sum + plies) / plies, 1),
                _as_tagged(self.first),
                _as_tagged(self.last),
                won if player else None,
                lost if player else None,
                _percent(points, white + draws + black),
                sides=self.rules.sides,
                game=self.rules.name,
                variant=self.variant,
            ),
            rules,
            position,
        )


def _as_tagged(day: str | None) -> str | None:
    """An ISO day (as the archive keeps date ranges) as a Date tag writes it, as `query` shows dates."""
    return day and day.replace("-", ".")


def _next_plies(
    conn: sqlite3.Connection,
    parents: dict[int, tuple[Game, Position]],
    only: tuple[str, list] | None,
    variations: bool,
    symmetric: bool,
    player: tuple[str, list] | None,
    summed: tuple[str, list] | None,
) -> dict[int, list[tuple[Node, Game, Position | None]]]:
    """The next plies from each of `parents` (by key), with the rules and position each led to."""
    frames, wanted = _frames(parents, symmetric)
    rows = _counted(conn, wanted, only, variations, player, summed)
    played = _played(conn, rows, frames, parents)
    growing: dict[int, dict[tuple, _Growing]] = {parent: {} for parent in parents}
    for (parent, ply, played_by, after, counts), (key, folded) in zip(played, _keys(played, symmetric)):
        variant = _variant(played_by)
        # what the plies that are one row share: the position they led to, what chance chose, the rule set
        one = (ply, variant) if after is None else (folded, played_by.chance(ply), variant)
        found = growing[parent].get(one)
        if found is None:
            rules, position = parents[parent]
            found = growing[parent][one] = _Growing(rules.turn(position), rules, variant)
        found.add(ply, played_by, after, key, counts)
    return {parent: [found.node(player is not None) for found in nodes.values()] for parent, nodes in growing.items()}


def _frames(
    parents: dict[int, tuple[Game, Position]], symmetric: bool
) -> tuple[dict[str, list[tuple[int, Callable[[str], str]]]], list[list]]:
    """The positions searched for `parents` (with `symmetric`, each one's images): by token, each
    parent it stands for and how a ply played there is played from that parent; and the search terms
    of each token once."""
    frames: dict[str, list[tuple[int, Callable[[str], str]]]] = {}  # token -> (parent, how a ply played there
    # is played from it)
    wanted: list[list] = []
    images: list[tuple[int, Callable[[str], str], Game, Position]] = [  # the parent, the ply turned back, the image
        (parent, back, rules, image)
        for parent, (rules, position) in parents.items()
        for image, back in (rules.symmetric(position) if symmetric else [(position, str)])
    ]
    for (parent, back, _, _), terms in zip(images, _per_rules(all_search_terms, [image[2:] for image in images])):
        token = terms[SEARCH_TERMS.index("token")]
        if token not in frames:
            wanted.append(terms)
        if all(known != parent for known, _ in frames.setdefault(token, [])):
            frames[token].append((parent, back))
    return frames, wanted


def _counted(
    conn: sqlite3.Connection,
    wanted: list[list],
    only: tuple[str, list] | None,
    variations: bool,
    player: tuple[str, list] | None,
    summed: tuple[str, list] | None,
) -> list:
    """The rows of the plies played from the positions `wanted` (their search terms) with their
    counts: from the archive's sums (`summed`: the condition they are read under) where it keeps
    them, else from the games; in one order whichever way read."""
    rows: list = []
    if summed is not None:  # the positions the archive sums up: their sums, the others from their games
        rows, wanted = _from_sums(conn, wanted, summed)
    if wanted:
        rows += _from_games(conn, wanted, only, variations, player)
    rows.sort(key=lambda row: tuple(value or "" for value in row[:5]))  # the same order whichever way read
    return rows


def _from_sums(conn: sqlite3.Connection, wanted: list[list], summed: tuple[str, list]) -> tuple[list, list[list]]:
    """The rows of the positions `wanted` that the archive sums up, read from their sums under the
    condition `summed`, and the other positions wanted."""
    summed_up = set(
        json.loads(
            conn.execute(
                f"SELECT json_group_array(value) FROM ({SUMMED_UP})", [json.dumps([terms[0] for terms in wanted])]
            ).fetchone()[0]
        )
    )
    read = [[terms[0], terms[SEARCH_TERMS.index("token")]] for terms in wanted if terms[0] in summed_up]
    rows = []
    if read:
        rows = conn.execute(
            SUMMED.format(where=f" WHERE {summed[0]}" if summed[0] else ""), [json.dumps(read), *summed[1]]
        ).fetchall()
    return rows, [terms for terms in wanted if terms[0] not in summed_up]


def _from_games(
    conn: sqlite3.Connection,
    wanted: list[list],
    only: tuple[str, list] | None,
    variations: bool,
    player: tuple[str, list] | None,
) -> list:
    """The rows of the positions `wanted` counted from their games (those `only` selects, when
    given; with `variations`, their variations' plies too; with `player`, its results: won, lost)."""
    won = lost = "NULL"
    params: list = [json.dumps(wanted)]
    if player:
        won, lost = (
            f"count(DISTINCT CASE WHEN {player[0]} THEN (CASE r.result WHEN '{a}' THEN f.doc END) "
            f"ELSE (CASE r.result WHEN '{b}' THEN f.doc END) END)"
            for a, b in ((WHITE_WON, BLACK_WON), (BLACK_WON, WHITE_WON))
        )
        params += player[1] * 2
    sql = LEVEL.format(
        variations=VARIATIONS if variations else "",
        won=won,
        lost=lost,
        only=f" WHERE +f.doc IN ({only[0]})" if only else "",
    )
    return conn.execute(sql, params + (only[1] if only else [])).fetchall()


def _played(
    conn: sqlite3.Connection,
    rows: list,
    frames: dict[str, list[tuple[int, Callable[[str], str]]]],
    parents: dict[int, tuple[Game, Position]],
) -> list[tuple[int, str, Game, Position | None, list]]:
    """Each ply of `rows` played from each parent its position stands for (`frames`): the parent,
    the ply, its rules, the position it led to (None: not from there) and its counts."""
    codes = json.dumps(sorted({row[1] for row in rows if not row[1].startswith(" ")}))
    texts = dict(conn.execute("SELECT code, text FROM moves WHERE code IN (SELECT value FROM json_each(?))", [codes]))
    played: list[tuple[int, str, Game, Position | None, list]] = []
    for token, move, game, variant, rule_tags, *counts in rows:
        played_by = _rules(game, variant, rule_tags)
        if played_by is None:
            continue
        for parent, back in frames[token]:
            ply = back(move[1:] if move.startswith(" ") else texts[move])
            try:
                after: Position | None = played_by.play(parents[parent][1], ply).position
            except Illegal:  # not from this position under these rules: a row of its own, no further
                after = None
            played.append((parent, ply, played_by, after, counts))
    return played


def _keys(played: list[tuple[int, str, Game, Position | None, list]], symmetric: bool) -> list[tuple[int, int]]:
    """For each ply `played` (as `_next_plies` lists them), the key of the position it led to (0
    for none) and the key of what it is one row by: that position, or with `symmetric` the image
    its images share (`Game.canonical`)."""
    reached = [(rules, after) for _, _, rules, after, _ in played if after is not None]
    keys = _per_rules(keys_of, reached)
    folded = (
        _per_rules(lambda rules, positions: keys_of(rules, [rules.canonical(p) for p in positions]), reached)
        if symmetric
        else keys
    )
    pairs = iter(zip(keys, folded))
    return [(0, 0) if after is None else next(pairs) for _, _, _, after, _ in played]


def _per_rules(function: Callable[[Game, list[Position]], list], pairs: list[tuple[Game, Position]]) -> list:
    """`function(rules, positions)`, which gives a value a position, for each (rules, position) of
    `pairs`: called once for the positions of each rule set (keys and boards are made faster so)."""
    groups: dict[int, list[int]] = {}  # the rules (their id) -> the pairs of those rules (their index)
    for index, (rules, _) in enumerate(pairs):
        groups.setdefault(id(rules), []).append(index)
    found: list = [None] * len(pairs)
    for group in groups.values():
        for index, value in zip(group, function(pairs[group[0]][0], [pairs[index][1] for index in group])):
            found[index] = value
    return found


# a node of a tree's level, its rules, its position, and the positions of its line
_Grown = tuple[Node, Game, Position | None, frozenset[int]]


def tree(
    conn: sqlite3.Connection,
    starts: list[tuple[Game, Position]],
    depth: int = 1,
    only: tuple[str, list] | None = None,
    variations: bool = False,
    symmetric: bool = False,
    player: tuple[str, list] | None = None,
    sort: str = "games",
    min_games: int = 1,
    summed: tuple[str, list] | None = None,
) -> list[Node]:
    """The next plies from the position `starts` (one position may be read by several games: its
    rules and position in each), `depth` plies deep; `only`: SQL that selects the ids of the
    records to count, with its parameters; `variations`: the plies of variations count too (a
    game counts once for a ply however many of its lines play it); `symmetric`: positions that
    are one up to the board's symmetries are one; `player`: SQL over `r` (records) that holds when
    White is the player whose results (won, lost, score) the nodes count; `sort`: the most
    played first, or the best score; `min_games`: plies played in fewer games are left out;
    `summed`: conditions over `n` (a row of `next_plies`) that select the same records as `only`,
    when they can (archive/query.py, `summable`): the positions the archive sums up are then
    read from their sums, which give the same rows as their games."""
    order = _order(sort)
    level: list[_Grown] = [
        (node, rules, position, frozenset([node.position]))
        for rules, position in starts
        for node in [Node("", position_key(rules, position))]
    ]
    roots = [node for node, _, _, _ in level]
    known: dict[int, list[tuple[Node, Game, Position | None]]] = {}
    used: set[int] = set()  # positions whose next plies are nodes of the tree already: another gets copies
    for grown in range(depth):
        if not level:
            break  # the tree ends before `depth`
        wanted = {
            node.position: (rules, position)
            for node, rules, position, _ in level
            if position is not None and node.position not in known
        }
        if wanted:
            known.update(_next_plies(conn, wanted, only, variations, symmetric, player, summed))
        level = _grown(level, known, used, min_games, order, roots=not grown)
    return sorted((child for root in roots for child in root.children), key=order)


def _order(sort: str) -> Callable[[Node], tuple]:
    """The sort key of the nodes of a tree sorted by `sort`: the most played first (`games`), or
    the best score, then the most played; then by ply."""
    if sort == "games":
        return lambda n: (-n.games, n.ply)
    return lambda n: (n.score is None, -(n.score or 0), -n.games, n.ply)


def _grown(
    level: list[_Grown],
    known: dict[int, list[tuple[Node, Game, Position | None]]],
    used: set[int],
    min_games: int,
    order: Callable[[Node], tuple],
    roots: bool,
) -> list[_Grown]:
    """The next level of a tree: the children of each node of `level`, its position's next plies
    (`known`) played in at least `min_games` games under the node's rule set (any, from the `roots`),
    sorted by `order`; those of a position already grown (`used`, which the positions of `level` join: a
    transposition within the tree) as copies without their children. A child back at a position of its line (a
    repetition) ends it: its line is not grown again, lap after lap (h83b: a game back at its start grew its four
    plies again down to `--depth`, and two such games doubled the tree at each lap, 10 GB)."""
    following = []
    for node, _, position, line in level:
        grown = [
            found
            for found in (known[node.position] if position is not None else [])
            if found[0].games >= min_games and (roots or found[0].variant == node.variant)
        ]
        if node.position in used:  # a transposition within the tree
            grown = [(replace(child, children=[]), rules, after) for child, rules, after in grown]
        used.add(node.position)
        grown.sort(key=lambda found: order(found[0]))
        node.children = [child for child, _, _ in grown]
        following += [
            (child, rules, after, line | {child.position})
            for child, rules, after in grown
            if child.position not in line
        ]
    return following
