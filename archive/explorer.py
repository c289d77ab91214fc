"""The opening explorer page (docs/archive.md, "The explorer"), served by lusoria's Datasette
plugin (archive/datasette_plugin.py): the board of a position reached by a line of plies from a
game's start, the next plies with how their games went (the move tree at depth 1), the games
that reach it, and filters; each view is a URL (its state in the query string), so the browser's
back and forward buttons, reloading and links work. Its JSON endpoints write what `lusoria tree
--format json` and `lusoria query --format json` write for the same filters: the same calls
(Archive.tree, Archive.iter_query) and the same writers (lusoria/output.py).

Every function here takes the request's query parameters (a mapping of name to values) and
returns the body, or raises BadRequest: nothing a URL holds reaches SQL but as a parameter,
and every text it holds is escaped in the page."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable, Mapping
from contextlib import closing
from dataclasses import dataclass, replace
from functools import cache, lru_cache, partial
from html import escape
from typing import NamedTuple, Protocol
from urllib.parse import urlencode

from lusoria import output
from lusoria.archive.commands import NO_GAME_TO_START, Archive, Naming, NoGameToStart, variant_filters
from lusoria.archive.players import MAX_SQL_INTEGER, RESULTS
from lusoria.archive.query import LISTED, ORDERS, FilterError, Filters, board_size
from lusoria.archive.stored import STORED_TEXT, stored_record
from lusoria.archive.tree import SORTS, Node
from lusoria.bounds import MAX_COUNT, bounded_number
from lusoria.errors import LusoriaError
from lusoria.notation.numbers import whole_number
from lusoria.notation.sources import InputError
from lusoria.svg import position_svg
from lusoria.validator.base import WHITE, Game, Illegal, NotAPly, Position, sides_glossed
from lusoria.validator.games import GAMES, looked_up, rules_from_tags, variant_as_game, variants_named
from lusoria.validator.replay import Diagnostic, Moves, line_moves
from lusoria.variants import VariantOfOtherGames, game_tags, unknown_variant
from lusoria.words import out_of_bounds, plural, quoted

MAX_TEXT = 200  # characters of a parameter's value
MAX_LINE = 200  # plies of a line
MAX_DEPTH = 2  # of the tree's JSON (the page reads depth 1; the Python work of a deeper tree is not bounded by
# the statements' time)
GAMES_SHOWN, MAX_GAMES = 50, 500  # games listed by default, and at most
TIMEOUT = 10.0  # seconds each statement may run
MAX_GAMES_LISTED = 400  # the archive's games and variants the form's list looks at, the most recorded first:
# lusoria knows some 200, and checking a name costs up to 2.5 ms
SIDES = ("", "white", "black")  # the player's side: either, White, Black
TEXT_FILTERS = (
    *("game", "variant", "board", "player", "white", "black", "event", "date_from", "date_to", "result"),
    "order",  # of the games listed (the tree's counts are the same in any)
)


class Params(Protocol):
    """A request's query parameters (Datasette's MultiParams)."""

    def get(self, name: str, default: str | None = None) -> str | None: ...

    def getlist(self, name: str) -> list[str]: ...

    def keys(self) -> Iterable[str]: ...


@dataclass
class Query:
    """Query parameters as the page's form sends them: `game_variant` (`GAME/VARIANT`) stands for
    `game` and `variant`."""

    values: dict[str, list[str]]

    @classmethod
    def of(cls, params: Params) -> Query:
        values = {name: params.getlist(name) for name in params.keys()}
        game, _, variant = (values.pop("game_variant", None) or [""])[0].partition("/")
        if game:
            values.update(game=[game], variant=[variant])
        return cls(values)

    def get(self, name: str, default: str | None = None) -> str | None:
        return self.values.get(name, [default])[0]

    def getlist(self, name: str) -> list[str]:
        return self.values.get(name, [])

    def keys(self) -> Iterable[str]:
        return self.values.keys()


class BadRequest(LusoriaError):
    """A URL that asks for something the explorer cannot answer; `status`: the HTTP status; `back`: where its
    error page links first besides the explorer's start (`Answer.back`), if anywhere."""

    def __init__(self, message: str, status: int = 400, back: tuple[str, str] | None = None):
        super().__init__(message)
        self.status, self.back = status, back


class Answer(NamedTuple):
    """What `answer` answers: the body, the HTTP status and, for an error, where its page links first (the
    link's words and the explorer's query: a line that cannot be played, the line as far as it plays)."""

    body: str
    status: int
    back: tuple[str, str] | None = None


def _text(params: Params, name: str) -> str | None:
    value = (params.get(name) or "").strip()
    if len(value) > MAX_TEXT:
        raise BadRequest(f"the parameter {name} is longer than {MAX_TEXT} characters")
    return value or None


def _number(params: Params, name: str, default: int, low: int, high: int) -> int:
    written = _text(params, name)
    if written is None:
        return default
    value = bounded_number(written, low, high)
    if value is None:
        raise BadRequest(f"the parameter {name}: {out_of_bounds(written, low, high)}")
    return value


def _flag(params: Params, name: str) -> bool | None:
    written = _text(params, name)
    if written not in (None, "0", "1"):
        raise BadRequest(f"the parameter {name} is 1 or 0, not {quoted(written)}")
    return None if written is None else written == "1"


def filters_of(params: Params) -> Filters:
    """The filters a URL asks for, named as `lusoria query`'s options (`date_from` for
    --date-from; `valid` and `symmetric` 1 or 0); `side` (white or black) makes `player` that
    side's name."""
    given = {name: _text(params, name) for name in TEXT_FILTERS}
    for name, choices in (("result", RESULTS), ("order", ORDERS)):
        if given[name] not in (None, *choices):
            raise BadRequest(f"the parameter {name} is one of {', '.join(choices)}")
    side = _text(params, "side") or ""
    if side not in SIDES:
        raise BadRequest("the parameter side is white or black")
    if side and given["player"]:
        given[side], given["player"] = given["player"], None
    filters = Filters(valid=_flag(params, "valid"), symmetric=bool(_flag(params, "symmetric")))
    for name, value in given.items():
        setattr(filters, name, value)
    return filters


@lru_cache(maxsize=16)
def _archive(path: str) -> Archive:
    """The archive at `path`; what it chooses (the variant of a game named alone) the page shows, and
    is not warned (ChosenWarning) into the server's log. One a path, whose check of its file holds from
    request to request while the file stands as it was (Archive._existing)."""
    return Archive(path, timeout=TIMEOUT, notes=lambda chosen: None, naming=URL_NAMING)


def tree_json(path: str, params: Params) -> str:
    """`lusoria tree POSITION --format json` with the URL's filters, `depth` (up to MAX_DEPTH),
    `sort` and `min_games`; without `position`, from the start of `game` and `variant`, as `lusoria
    tree --game` (a game's variant of most records when no variant is given; naming no game, the game
    and variant of most records, as `lusoria tree` and the page open: each node names its game), or
    after the line of `ply`s from it, as the page's next plies."""
    position, filters = _text(params, "position"), filters_of(params)
    sort = _text(params, "sort") or "games"
    if sort not in SORTS:
        raise BadRequest(f"the parameter sort is {' or '.join(SORTS)}")
    depth, min_games = _number(params, "depth", 1, 1, MAX_DEPTH), _number(params, "min_games", 1, 1, MAX_COUNT)
    if position is None and params.get("ply") is not None:
        view = _view(path, params)
        filters = view.filters(params)
        nodes = _archive(path).tree_from(view.rules, view.positions[-1], filters, depth, sort=sort, min_games=min_games)
    else:
        if position is None and filters.game and filters.variant:  # (one named as a game said as the page says it)
            _held_rules(path, filters.game, filters.variant)
        elif position is None and filters.game:  # (a variant named as the game: the parameters that name it)
            _game_named(filters.game)
        elif position is None:
            _game_as_variant(filters.variant)
        else:
            _variant_as_game(filters.game)
        nodes = _archive(path).tree(position, filters=filters, depth=depth, sort=sort, min_games=min_games)
    _held(path, nodes, filters.game, filters.variant)  # (the URL's variant, not the page's: review75)
    return output.tree_text(nodes, "json")


def games_json(path: str, params: Params) -> str:
    """`lusoria query --position POSITION --limit N --format json` with the URL's filters (N:
    `limit`, GAMES_SHOWN by default, at most MAX_GAMES); without `position`, the games the page lists:
    those that reach the start of `game` and `variant`, or the end of the line of `ply`s from it (the
    game and variant of most records when none is named, as the page opens)."""
    position, filters = _text(params, "position"), filters_of(params)
    if position is None:
        view = _view(path, params)
        position, filters = view.rules.format_position(view.positions[-1]), view.filters(params)
    else:
        _variant_as_game(_text(params, "game"))
    games = _games(path, position, filters, _number(params, "limit", GAMES_SHOWN, 0, MAX_GAMES))
    _held(path, games, filters.game, filters.variant)
    return output.render(games, "json", [*LISTED, "ply"])


def _games(path: str, position: str, filters: Filters, limit: int) -> list[dict]:
    filters.position, filters.limit = position, limit
    return list(_archive(path).iter_query(filters))


@dataclass
class View:
    """What the page shows: the rules, the line of plies from their start and the positions it
    reached, the filters."""

    rules: Game
    game: str
    variant: str | None
    line: list[str]
    positions: list[Position]
    params: dict[str, str]  # the filters as the URL gives them (without the line)
    moves: Moves  # the line's numbering (`line_moves`)

    def move(self, ply: int) -> str:
        """Ply `ply` from the game's start as its players read it: "move 4, Muscovites" (the sides
        named as the game names them, `Game.sides`, as the replay page names them); ply 0, "the start"."""
        return self.moves.said(ply, sides=self.rules.sides) if ply else "the start"

    def filters(self, params: Params) -> Filters:
        """The URL's filters, of the game and variant the page shows where the URL names none (the archive's
        choice: h75b, the page that `serve` opens counted a record of another variant, as `apply` did not)."""
        given = filters_of(params)
        if given.variant:  # (a variant the URL names: its records, of whichever game, none held or not: review75)
            return given
        return replace(given, game=self.game, variant=self.variant)

    def url(self, line: list[str], **changed: str) -> str:
        """The page's URL for another line (and other parameters)."""
        params = {**self.params, **changed}
        return "?" + urlencode(
            [*((name, value) for name, value in params.items() if value), *(("ply", ply) for ply in line)]
        )


def _view(path: str, params: Params) -> View:
    """The game (the one of most records when none is asked for: of those the filters select, when
    they select some), its rules and the line; the variant of most records of a game whose boards
    are its variants when none is asked for (of those on `board` when the archive holds some there)."""
    game, variant, board = _text(params, "game"), _text(params, "variant"), _text(params, "board")
    size = board_size(board) if board else None
    if game is None:
        _game_as_variant(variant)  # (not a filter of the game of most records: the page is `lusoria tree`'s)
        selected = _archive(path).most_selected(filters_of(params))
        found = selected or _archive(path).most_recorded()
        if found is None:
            raise NoGameToStart(NO_GAME_TO_START)
        game, variant = found[0], variant if selected and variant else found[1]  # (a variant the URL names, of
        # the records it selects: of a catalogue's entry, its rules, `saami-tablut-w`'s White first, which their own
        # variant, aage, does not say; of none selected, the page opens on the game of most records, as before)
    elif variant is None:
        variant = _archive(path).variant_to_open(game, size)
    rules = _held_rules(path, game, variant)
    line = params.getlist("ply")
    if len(line) > MAX_LINE or any(len(ply) > MAX_TEXT for ply in line):
        raise BadRequest(f"a line is at most {MAX_LINE} plies of at most {MAX_TEXT} characters")
    kept = {
        name: value
        for name in (*TEXT_FILTERS, "side", "valid", "symmetric")
        if (value := _text(params, name)) is not None
    }
    kept.update(game=game, variant=variant or "")
    view = View(rules, game, variant, line, [rules.initial()], kept, line_moves(rules, line))
    for number, ply in enumerate(line, 1):
        try:
            view.positions.append(rules.play(view.positions[-1], ply).position)
        except (Illegal, NotAPly) as error:
            why = f"cannot be played: {error}" if isinstance(error, Illegal) else f"is not a ply of {rules.name}"
            move = view.moves.said(number, sides=sides_glossed(rules.sides))  # as the replay page says a diagnostic's
            back = (f"the line as far as it plays ({plural(number - 1, 'ply', 'plies')})", view.url(line[: number - 1]))
            raise BadRequest(f"the line's {move}: {ply} {why}", back=back) from None
    return view


def _held_rules(path: str, game: str, variant: str | None) -> Game:
    """`_rules_named`; of a variant lusoria does not know whose records the archive holds, the
    error says it may be one of a user's own catalogue, as `lusoria tree --variant` says it."""
    try:
        return _rules_named(game, variant)
    except BadRequest as error:
        hint = _archive(path).users_variant_hint(game, variant, "the archive") if variant else ""
        raise BadRequest(f"{error}; {hint}" if hint else str(error), error.status, error.back) from None


def _rules_named(game: str, variant: str | None) -> Game:
    """The rules of the game and variant a URL names, the variant by any name `lusoria explain`
    knows, as `lusoria tree --variant` takes it (`game_tags`); a variant named as a game is said
    in the URL's words, its error page linking to that game's explorer."""
    rules = _game_named(game)
    try:
        return rules_from_tags(rules, game_tags(game, variant.lower() if variant else None), GAME_IN_URL)
    except VariantOfOtherGames as error:
        raise BadRequest(f"the parameter variant names {variant}, {error.games}") from None
    except LusoriaError as error:
        raise BadRequest(str(error), back=_explorer_of(variant or "")) from None


GAME_IN_URL = "name it as the game (?game={0})"  # a game named as a variant: how a URL does (`game_named`)


def _game_named(game: str) -> type[Game]:
    """The game a URL names; BadRequest in the registry's words, as `lusoria tree --game` says them, a
    variant's name with the URL's parameters that name it (`?game=tablut&variant=linnaeus`), its error
    page linking there."""
    try:
        return GAMES[game]
    except KeyError as unknown:
        url = partial(variant_filters, game, written=URL_NAMING.filters)
        named = variants_named(game)  # (its error page links to the explorer of the first it names)
        back = (f"the explorer of {game}", url(named[0])) if named else None
        raise BadRequest(unknown.args[0] + variant_as_game(game, url), back=back) from None


def _game_as_variant(variant: str | None) -> None:
    """BadRequest for a game's name given as the variant where no game is (`?variant=tablut`): name it
    as the game, as `lusoria tree --variant tablut` says `--game tablut` (the page and tree.json alike)."""
    if variant and looked_up(variant) in GAMES:
        raise BadRequest(unknown_variant(variant, naming=GAME_IN_URL), back=_explorer_of(variant))


def _variant_as_game(game: str | None) -> None:
    """BadRequest for a variant's name given as the game beside a position (`?position=…&game=linnaeus`):
    the URL's parameters that name it, as without a position (`_game_named`), not the options the
    archive's filter says (`Archive.lacking`: `--game tablut --variant linnaeus`)."""
    if game and looked_up(game) not in GAMES and variant_as_game(game):
        _game_named(game)


def _parameters(tags: Mapping[str, str]) -> str:
    """Tags as the URL's parameters that give them: `?game=tablut&variant=linnaeus`."""
    return f"?{urlencode({tag.lower(): value for tag, value in tags.items()})}"


URL_NAMING = Naming(GAME_IN_URL, "leave the variant out (?game={0})", _parameters)  # the archive's words, a URL's


def _explorer_of(name: str) -> tuple[str, str] | None:
    """The link back to the explorer of the game `name` names; None for a name of no game."""
    named = looked_up(name)
    return (f"the explorer of {named}", _parameters({"Game": named})) if named in GAMES else None


@cache  # (read for each of the game list's rows on every page: the rules of a name do not change)
def _known(game: str, variant: str | None) -> bool:
    try:
        _rules_named(game, variant)
    except LusoriaError:
        return False
    return True


def _held(path: str, found: list, game: str | None, variant: str | None) -> None:
    """A 404 where nothing is `found` of a game or variant the archive holds no record of, said as `lusoria tree`
    says it (`Archive.lacking`): the page, tree.json and games.json alike (h83b: the JSON answered `[]`, 200, which a
    client cannot tell from no ply played yet)."""
    if not found and (lacking := _archive(path).lacking(game, variant)):
        raise BadRequest(lacking, 404)


def page(path: str, params: Params, record_url: Callable[[int], str]) -> str:
    """The explorer's page for the URL's view; `record_url`: the URL of a record's replay page. A 404
    for a game or variant the archive holds no record of, said as `lusoria tree` says it (`Archive.lacking`)."""
    view = _view(path, params)
    filters = view.filters(params)
    position = view.rules.format_position(view.positions[-1])
    nodes = _archive(path).tree_from(view.rules, view.positions[-1], filters=filters)
    _held(path, nodes, view.game, view.variant)
    try:
        games = _games(path, position, view.filters(params), _number(params, "limit", GAMES_SHOWN, 0, MAX_GAMES))
        listed = _games_table(games, record_url, view)
    except ValueError as error:  # a position string that `query --position` cannot read
        games, listed = [], '<p class="none">The games cannot be listed: ' + escape(str(error)) + "</p>"
    mover = view.rules.turn(view.positions[-1])
    board = position_svg(view.rules, view.positions[-1], view.line[-1] if view.line else None)
    return PAGE.format(
        title=escape(f"{view.game} explorer"),
        style=STYLE,
        script=SCRIPT,
        crumbs=_crumbs(view),
        board=board,
        position=escape(position, quote=True),
        form=_form(view, path),
        table=_table(view, nodes, filters.player is not None, mover),
        games=listed,
        count=len(games),
    )


def _crumbs(view: View) -> str:
    links = [f'<a href="{escape(view.url([]))}" data-ply="0">start</a>']
    links += [
        f'<a href="{escape(view.url(view.line[:n]))}" data-ply="{n}">{escape(ply)}</a>'
        for n, ply in enumerate(view.line, 1)
    ]
    return " › ".join(links)


def _games_listed(path: str) -> list[str]:
    """`GAME/VARIANT` of each game and variant of the archive that lusoria plays (a variant it does not
    know is not offered: no tree is played from its rules, as from samples/errors/tags.lgn's
    `tablut/copenhagen`, Copenhagen being a game), among the MAX_GAMES_LISTED most recorded: more than the catalogue holds; a
    catalogue's entry that records of a variant with other tags play by its name (`named_variant`). Records
    of no variant, whose rules could not be read, are in no tree: they offered `GAME/`, shown as the
    game alone beside `GAME/seed`, which leads to the game's records of every variant."""
    from lusoria.archive.rule_sets import named_variant  # (the games' rules: loaded when listed)

    rows = _archive(path).iter_sql(
        "SELECT game, variant, rule_tags FROM records WHERE game IS NOT NULL AND variant IS NOT NULL"
        " GROUP BY game, variant, rule_tags"
        f" ORDER BY count(*) DESC LIMIT {MAX_GAMES_LISTED}",
        TIMEOUT,
    )
    with closing(rows):  # (left part-read when a variant's rules fail)
        listed = ((row["game"], named_variant(row["game"], row["variant"], row["rule_tags"])) for row in rows)
        return list(dict.fromkeys(f"{game}/{variant or ''}" for game, variant in listed if _known(game, variant)))


def _form(view: View, path: str) -> str:
    chosen = f"{view.game}/{view.variant or ''}"
    options = "".join(
        f'<option value="{escape(value, quote=True)}"{" selected" if value == chosen else ""}>'
        f"{escape(_label(value))}</option>"
        for value in sorted({*_games_listed(path), chosen})
    )
    value = lambda name: escape(view.params.get(name, ""), quote=True)
    side = view.params.get("side", "")
    result = view.params.get("result", "")
    order = view.params.get("order", "oldest")
    checked = lambda name: " checked" if view.params.get(name) == "1" else ""
    return FORM.format(
        games=options,
        player=value("player"),
        event=value("event"),
        date_from=value("date_from"),
        date_to=value("date_to"),
        valid=checked("valid"),
        symmetric=checked("symmetric"),
        sides="".join(
            f'<option value="{s}"{" selected" if s == side else ""}>{escape(label)}</option>'
            for s, label in zip(SIDES, ("either side", *view.rules.sides))
        ),
        results="".join(
            f'<option value="{escape(r)}"{" selected" if r == result else ""}>{escape(r) or "any"}</option>'
            for r in ("", *RESULTS)
        ),
        orders="".join(f'<option value="{o}"{" selected" if o == order else ""}>{o} first</option>' for o in ORDERS),
        line="".join(f'<input type="hidden" name="ply" value="{escape(ply, quote=True)}">' for ply in view.line),
    )


def _label(game_variant: str) -> str:
    """How the game list shows `GAME/VARIANT`; a game named alone (`tablut/`, `?game=tablut`), whose
    tree and games are those of every variant, as `tablut (all variants)`."""
    game, _, variant = game_variant.partition("/")
    return game_variant if variant else f"{game} (all variants)"


def _percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}" if whole else ""


def _bar(first: int, draws: int, second: int, names: tuple[str, str, str]) -> str:
    """The shares of the finished games as a bar, each part's title its name (`names`: of the
    first, draws and second) and share."""
    finished = first + draws + second
    if not finished:
        return '<div class="bar empty"></div>'
    return (
        '<div class="bar">'
        + "".join(
            f'<span class="{kind}" style="width:{100 * count / finished:.2f}%" '
            f'title="{escape(name, quote=True)} {_percent(count, finished)}%"></span>'
            for kind, name, count in zip(("white", "draws", "black"), names, (first, draws, second))
            if count
        )
        + "</div>"
    )


def _table(view: View, nodes: list[Node], player: bool, mover: int) -> str:
    """The next plies, and a row of totals; each side named as the game names it (`Game.sides`)."""
    white, black = view.rules.sides
    names = ("won", "drawn", "lost") if player else (white, "draws", black)
    total = sum(node.games for node in nodes)
    rows = []
    for node in nodes:
        first, second = (node.won or 0, node.lost or 0) if player else (node.white, node.black)
        rows.append(
            f'<tr data-ply="{escape(node.ply, quote=True)}"><td data-value="{escape(node.ply, quote=True)}">'
            f'<a href="{escape(view.url([*view.line, node.ply]))}">{escape(node.ply)}</a></td>'
            f'<td data-value="{node.games}">{node.games}</td><td data-value="{node.games}">{_percent(node.games, total)}%</td>'
            f'<td data-value="{_percent(first, first + node.draws + second) or -1}">{_bar(first, node.draws, second, names)}</td>'
            f'<td data-value="{-1 if node.score is None else node.score}">{"" if node.score is None else f"{node.score:.1f}%"}</td>'
            f'<td data-value="{node.average_ply}">{node.average_ply:.1f}</td>'
            f'<td data-value="{escape(node.first or "")}">{escape(node.first or "")}</td>'
            f'<td data-value="{escape(node.last or "")}">{escape(node.last or "")}</td></tr>'
        )
    if not nodes:
        return '<p class="none">No ply was played from this position in these games.</p>'
    counts = [
        sum((n.won or 0) if player else n.white for n in nodes),
        sum(n.draws for n in nodes),
        sum((n.lost or 0) if player else n.black for n in nodes),
    ]
    ours = counts[0] if player or mover == WHITE else counts[2]
    finished = sum(counts)
    score = f"{100 * (ours + counts[1] / 2) / finished:.1f}%" if finished else ""
    dates = [n.first for n in nodes if n.first], [n.last for n in nodes if n.last]
    totals = (
        f'<tr class="totals"><td>all {len(nodes)}</td><td>{total}</td><td>100%</td><td>{_bar(counts[0], counts[1], counts[2], names)}</td>'
        f"<td>{score}</td><td></td><td>{min(dates[0], default='')}</td><td>{max(dates[1], default='')}</td></tr>"
    )
    return TABLE.format(sides=escape(" / ".join(names)), rows="".join(rows), totals=totals)


def _games_table(games: list[dict], record_url: Callable[[int], str], view: View) -> str:
    """The games that reach the position, their players headed by the names of their sides (`Game.sides`), each
    linked to its replay page at the ply that reached it, said as a move (`View.move`)."""
    if not games:
        return '<p class="none">No game reaches this position.</p>'
    rows = "".join(
        f"<tr><td>{escape(str(game['white'] or '?'))}</td><td>{escape(str(game['black'] or '?'))}</td>"
        f"<td>{escape(str(game['date'] or ''))}</td><td>{escape(str(game['result'] or ''))}</td>"
        f'<td>{escape(str(game["event"] or ""))}</td><td><a class="replay" href="{escape(record_url(game["id"]))}'
        f'#ply={game["ply"]}">replay at {escape(view.move(game["ply"]))}</a></td></tr>'
        for game in games
    )
    sides = view.rules.sides
    return (
        f'<table class="games"><thead><tr><th>{escape(sides[0])}</th><th>{escape(sides[1])}</th><th>date</th><th>result</th><th>event</th>'
        f"<th></th></tr></thead><tbody>{rows}</tbody></table>"
    )


# A record's text and the format it is kept in (archive/stored.py), and its source file and first
# diagnostic (its place is the file's), said as validate says it (`output.diagnostic_head`)
_STORED_RECORD = (
    f"SELECT {STORED_TEXT}, records.path, first.severity, first.rule, first.message, first.line, first.column "
    "FROM records LEFT JOIN diagnostics AS first ON first.record_id = records.id AND first.number = "
    "(SELECT min(number) FROM diagnostics WHERE record_id = records.id) WHERE records.id = ?"
)


def replay(path: str, written: str) -> str:
    """lusoria's replay page of a record of the archive, its id `written` (lusoria/html.py; `#ply=N`
    opens it at ply N), read as its import read it: one kept as written in another format, in that
    format. A 404 for an id no record has, said as `lusoria query --id` says it (`Archive.id_lacking`);
    a line (422) for one its format cannot read without its file (an unparsable CSV row,
    whose game its file's name said: archive/stored.py), with its first diagnostic at its file's place."""
    from lusoria.api import replay_page

    record = whole_number(written, 0, MAX_SQL_INTEGER)
    found = [] if record is None else list(_archive(path).iter_sql(_STORED_RECORD, TIMEOUT, [record]))
    if not found:  # an id no record has said as `lusoria query --id` says it: with the ids it holds, or the nearest
        raise BadRequest(_archive(path).id_lacking(record) or f"the archive has no record {quoted(written)}", 404)
    stored = found[0]
    try:
        return replay_page(stored_record(stored["text"], stored["written_in"], stored["read_with"]))
    except InputError:
        parts = ("severity", "rule", "message", "line", "column")
        first = Diagnostic(**{part: stored[part] for part in parts})
        raise BadRequest(
            f"record {record} is kept as written in {stored['written_in']}, which cannot be replayed without its "
            f"file: {output.diagnostic_head(stored['path'], first)}",
            422,
        ) from None


def answer(action: Callable[[], str]) -> Answer:
    """The body and status of an answer: a BadRequest, a filter that cannot work, a statement
    that ran too long, an archive that cannot be read are said in a line, never a traceback; so is a
    plug-in's game that fails, naming it (`GAMES.failed_plug_in`: its bug)."""
    try:
        return Answer(action(), 200)
    except BadRequest as error:
        return Answer(str(error), error.status, error.back)
    except NoGameToStart:  # (the page and tree.json alike: nothing to show, as for a game the archive lacks)
        return Answer(NO_GAME_TO_START, 404)
    except FilterError as error:  # in the words of the page's parameters (the CLI says --variant)
        return Answer(f"the parameter {error.filter} {error.problem}", 400)
    except (LusoriaError, ValueError) as error:  # NotAnArchive, ReadOnlyError (time), a position
        return Answer(str(error), 503 if getattr(error, "parameter", None) == "timeout" else 400)
    except sqlite3.Error as error:
        return Answer(f"the archive could not answer: {error}", 503)
    except Exception as error:  # a page must never show a traceback: a line, and the kind of failure
        return Answer(GAMES.failed_plug_in(error) or f"the explorer failed ({type(error).__name__})", 500)


def error_page(message: str, status: int, links: dict[str, str]) -> str:
    """A page that says why a page cannot be shown (`answer`'s line) and links the way back (`links`: each
    link's words and URL): a reader who followed an old link or mistyped a record's id is not left stranded."""
    back = " · ".join(f'<a href="{escape(url, quote=True)}">{escape(words)}</a>' for words, url in links.items())
    return ERROR_PAGE.format(status=status, message=escape(message), style=STYLE, links=back)


STYLE = """
body{font-family:sans-serif;margin:1.2em;color:#2e2a26;background:#fbf8f1}
h1{font-size:1.3em;margin:0 0 .4em}
.layout{display:flex;gap:1.5em;flex-wrap:wrap;align-items:flex-start}
#board svg{width:min(22em,90vw);height:auto}
.crumbs{margin:.4em 0 .8em}.crumbs a{padding:0 .2em}
form.filters{display:flex;flex-wrap:wrap;gap:.4em 1em;margin-bottom:1em;font-size:.9em}
table{border-collapse:collapse;font-size:.92em}th,td{padding:.2em .6em;text-align:right}
th{cursor:pointer;border-bottom:2px solid #c9b88f;user-select:none}td:first-child,th:first-child{text-align:left}
tr.totals td{border-top:2px solid #c9b88f;font-weight:bold}
.bar{display:flex;width:9em;height:1em;border:1px solid #777;background:#eee}.bar span{display:block;height:100%}
.bar .white{background:#fff}.bar .draws{background:#aaa}.bar .black{background:#333}
table.games td,table.games th{text-align:left}.none{color:#7a6a55}
"""

SCRIPT = """
const table = document.querySelector('table.plies');
if (table) table.querySelectorAll('th').forEach((th, column) => th.addEventListener('click', () => {
  const body = table.tBodies[0], down = th.dataset.order !== 'down';
  const rows = [...body.rows];
  const key = row => row.cells[column].dataset.value;
  rows.sort((a, b) => {
    const x = key(a), y = key(b), nx = Number(x), ny = Number(y);
    const order = isNaN(nx) || isNaN(ny) || x === '' || y === '' ? x.localeCompare(y) : nx - ny;
    return down ? -order : order;
  });
  rows.forEach(row => body.appendChild(row));
  table.querySelectorAll('th').forEach(other => delete other.dataset.order);
  th.dataset.order = down ? 'down' : 'up';
}));
document.addEventListener('keydown', event => {
  if (event.target.closest && event.target.closest('input, select, textarea')) return;
  const crumbs = document.querySelectorAll('.crumbs a');
  if (event.key === 'ArrowLeft' && crumbs.length > 1) location.href = crumbs[crumbs.length - 2].href;
  if (event.key === 'ArrowRight') {
    const next = document.querySelector('table.plies tbody tr a');
    if (next) location.href = next.href;
  }
});
"""

FORM = """<form class="filters" method="get">
<label>game <select name="game_variant">{games}</select></label>
<label>player <input name="player" value="{player}" size="16"></label>
<label>side <select name="side">{sides}</select></label>
<label>from <input name="date_from" value="{date_from}" size="10" placeholder="YYYY.MM.DD"></label>
<label>to <input name="date_to" value="{date_to}" size="10"></label>
<label>result <select name="result">{results}</select></label>
<label>event <input name="event" value="{event}" size="14"></label>
<label>games <select name="order">{orders}</select></label>
<label><input type="checkbox" name="valid" value="1"{valid}> valid only</label>
<label><input type="checkbox" name="symmetric" value="1"{symmetric}> symmetric</label>
{line}<button type="submit">apply</button></form>"""

TABLE = """<table class="plies"><thead><tr><th>ply</th><th>games</th><th>share</th><th>{sides}</th><th>score</th>
<th>average ply</th><th>first</th><th>last</th></tr></thead><tbody>{rows}</tbody><tfoot>{totals}</tfoot></table>"""

PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><style>{style}</style></head>
<body><h1>{title}</h1>
{form}
<nav class="crumbs">{crumbs}</nav>
<div class="layout"><div id="board" data-position="{position}">{board}</div>
<div><h2>Next plies</h2>{table}</div></div>
<h2>Games reaching this position ({count} shown)</h2>
{games}
<script>{script}</script></body></html>
"""

ERROR_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Error {status}</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><style>{style}</style></head>
<body><h1>Error {status}</h1>
<p class="error">{message}</p>
<nav class="back">Back to {links}</nav></body></html>
"""
