"""A self-contained HTML page that replays a record: inline SVG and script, no network.

Boards are stored compactly: every board's SVG (as `lusoria show --format svg` draws it)
is cut before each tag into pieces, each distinct piece is stored once, and a board is
the runs of piece numbers that make it ("0-37,812,39-80"); the page's script joins the
pieces of the board it shows. A ply changes a few pieces, so each adds tens of bytes."""

from __future__ import annotations

import json
import os
import re
from bisect import bisect_right
from dataclasses import dataclass, replace
from html import escape, unescape
from pathlib import PurePath
from typing import TypedDict
from urllib.parse import quote, unquote

from lusoria.formats import FORMATS
from lusoria.notation.model import Line, Ply, Record
from lusoria.notation.plies import SUFFIX_NAGS
from lusoria.notation.reader import RecordText
from lusoria.notation.syntax import Undecodable
from lusoria.notation.visitor import PlyKey, Visitor, walk
from lusoria.notation.writer import tag_order
from lusoria.svg import diagram_svg
from lusoria.validator.base import SIDE_NAMES, sides_glossed
from lusoria.validator.replay import Diagnostic, Moves, Report, move_number, resaid
from lusoria.words import PAGE

STYLE = """
body{font-family:sans-serif;margin:1.5em;color:#2e2a26;background:#fbf8f1;max-width:72em}
h1{font-size:1.3em;margin:0 0 .4em}
.layout{display:flex;gap:2em;flex-wrap:wrap;align-items:flex-start}
.board{position:sticky;top:0;background:#fbf8f1;padding-top:.3em;max-width:100%}
#board svg{display:block;width:auto;height:auto;max-width:100%;max-height:calc(100vh - 8em)}
@media (max-width:40em){#board svg{max-height:45vh}}
.record{flex:1 1 22em;min-width:0}
.index{margin:0 0 .6em;font-size:.9em}
.tags{border-collapse:collapse;font-size:.9em;margin-bottom:1em}.tags td{padding:.1em .6em .1em 0}
.tags td:first-child{color:#7a6a55;white-space:nowrap}.tags td+td,.comment{overflow-wrap:anywhere}
.controls button{font-size:1.1em;margin-right:.3em;min-width:2.4em}
.moves{line-height:1.9;max-width:34em}.written{white-space:pre-wrap;overflow-wrap:anywhere;line-height:1.4}
.ply{cursor:pointer;padding:.1em .25em;border-radius:3px;white-space:nowrap}
.ply.current{background:#f3d34a}
.ply.illegal{color:#fff;background:#c0392b}.ply.illegal.current{outline:3px solid #f3d34a}
.ply.warned{text-decoration:underline wavy #d68910}
.variation{color:#6b5d4b}.variation .ply:not([data-board]){cursor:default}
.result{font-weight:bold;white-space:nowrap}
.comment{color:#4c7a4c;font-style:italic}.nag{color:#7a6a55}.comment.note{color:#7a6a55;font-style:normal;font-size:.85em}
.diagnostic{margin:.4em 0;padding:.4em .6em;border-left:4px solid #c0392b;background:#fdecea;overflow-wrap:anywhere}
.diagnostic.warning{border-color:#d68910;background:#fef5e7}
.whole{white-space:nowrap}#status{margin:.6em 0;min-height:1.4em;width:0;min-width:100%;overflow-wrap:anywhere}#board:empty~#status{width:auto}
"""

ADDRESS = """
function addressed(search, hash, last) {  // the ply an address opens (#ply=N, a shared ?ply=N) and what it says of it
  const value = [hash, search].map(part => (new URLSearchParams(part.slice(1)).get('ply') || '').trim()).find(Boolean);
  if (!value) return {ply: 0, note: ''};
  if (!/^[0-9]+$/.test(value)) return {ply: 0, note: 'no ply ' + value + ': the plies are numbered 0 to ' + last};
  const ply = Number(value);
  return ply > last ? {ply: last, note: 'no ply ' + value + ': it has ' + last} : {ply: ply, note: ''};
}
"""  # (apart from SCRIPT: tests/test_html.py runs it in node, where there is no page)

_HYPHENED = re.compile(r"(?<!\S)(?=\S*-)\S{1,24}(?!\S)")  # a word of 24 characters at most that holds a hyphen: a ply

SCRIPT = (
    ADDRESS
    + f"const WHOLE = {json.dumps(_HYPHENED.pattern)};  // a word kept whole (_HYPHENED)\n"
    + """const stored = JSON.parse(document.getElementById('boards').textContent);
const boards = stored.boards;
function drawn(n) {
  return boards[n].split(',').map(run => {
    const [a, b] = run.split('-').map(Number);
    return b === undefined ? stored.pieces[a] : stored.pieces.slice(a, b + 1).join('');
  }).join('');
}
const plies = document.querySelectorAll('.moves .ply[data-ply]');
const last = plies.length;
let current = 0;  // the main-line ply shown (0: the start), or the one before the variation shown
let shown = null;  // the ply shown, of the main line or of a variation (null: the start)
function show(n) {  // the main line's ply n
  current = Math.max(0, Math.min(last, n));
  const here = document.querySelector('.ply[data-ply="' + current + '"]');
  const counted = 'ply ' + current + ' of ' + last;
  const move = here && here.dataset.move ? here.dataset.move + ': ' + here.textContent + ' (' + counted + ')' : counted;
  shows(here, Math.min(current, stored.main - 1), !boards.length ? 'not replayed: its diagnostics say why'
    : (current === 0 ? 'start' : move)
    + (current >= stored.main ? ' (not replayed: the line stopped at an illegal ply)' : ''));
  history.replaceState(null, '', '#ply=' + current);
}
function shown_variation(ply) {  // a variation's ply, replayed
  shows(ply, Number(ply.dataset.board), 'variation, ' + ply.dataset.move + ': ' + ply.textContent);
}
function shows(here, board, said) {  // the board numbered `board`, the ply `here` marked and said in the status line
  shown = here;
  document.getElementById('board').innerHTML = boards.length ? drawn(board) : '';
  document.querySelectorAll('.moves .ply.current').forEach(p => p.classList.remove('current'));
  if (here) here.classList.add('current');
  const notes = here ? here.dataset.diagnostics : '';
  unbroken(document.getElementById('status'), said + (notes ? ' \\u2014 ' + notes : ''));
  if (here) revealed(here);
}
function stepped(by) {  // the ply `by` plies on along the line shown; back from a variation's first, the ply before it
  if (!shown || shown.dataset.ply) return show(current + by);
  const line = shown.dataset.key.split('-')[0];
  const same = Array.from(document.querySelectorAll('.moves .ply[data-board][data-key^="' + line + '-"]'));
  const at = same.indexOf(shown) + by;
  if (at >= same.length) return;  // (its last ply replayed)
  if (at >= 0) return shown_variation(same[at]);
  const back = same[0].dataset.back;
  if (/^[0-9]+$/.test(back)) return show(Number(back));
  shown_variation(document.querySelector('.ply[data-key="' + back + '"]'));
}
function unbroken(element, text) {  // `text` in `element`, its short words that hold a hyphen (a4-b4) kept whole
  element.replaceChildren(...text.split(new RegExp('(' + WHOLE + ')')).map((part, n) => {
    if (n % 2 === 0) return part;
    const word = document.createElement('span');
    word.className = 'whole';
    word.textContent = part;
    return word;
  }));
}
function revealed(ply) {  // the current ply scrolled into view, clear of the board when the board stands above the moves
  const box = ply.getBoundingClientRect(), board = document.querySelector('.board').getBoundingClientRect();
  const top = board.left < box.right && box.left < board.right ? Math.max(0, board.bottom) : 0;
  if (box.top < top) window.scrollBy(0, box.top - top - 8);
  else if (box.bottom > window.innerHeight) window.scrollBy(0, box.bottom - window.innerHeight + 8);
}
document.querySelector('.controls').hidden = !boards.length;
document.getElementById('first').onclick = () => show(0);
document.getElementById('back').onclick = () => stepped(-1);
document.getElementById('forward').onclick = () => stepped(1);
document.getElementById('end').onclick = () => show(last);
plies.forEach(p => p.onclick = () => show(Number(p.dataset.ply)));
document.querySelectorAll('.moves .ply[data-board]').forEach(p => p.onclick = () => shown_variation(p));
const keys = {ArrowLeft: () => stepped(-1), ArrowRight: () => stepped(1), Home: () => show(0), End: () => show(last)};
document.addEventListener('keydown', e => {
  if (keys[e.key] && boards.length) { e.preventDefault(); keys[e.key](); }
});
function opened() {  // the ply the address names, as the page opens and when its address changes (a link, Back)
  const asked = addressed(location.search, location.hash, last);
  show(asked.ply);
  if (asked.note) {
    const status = document.getElementById('status');
    unbroken(status, asked.note + '; ' + status.textContent);
  }
}
window.addEventListener('hashchange', opened);
opened();
"""
)


def report_page(report: Report, index: str | None = None) -> str:
    """The page for one record as `check` reported it (`lusoria.api.Replay.page`); `index`: the
    address of the index of the pages it is published among (`lusoria html --output-dir`), linked."""
    record = report.record
    tags = report.tags
    title = _title(report)
    by_place: dict[tuple[int, int], list[Diagnostic]] = {}
    loose = []
    for diagnostic in named(report):
        if diagnostic.ply is None:
            loose.append(diagnostic)
        else:
            by_place.setdefault((diagnostic.line, diagnostic.column), []).append(diagnostic)
    rules = report.rules
    diagrams = [
        rules.diagram(position, report.canonical.get((0, index - 1)) if index else None)
        for index, position in enumerate(report.positions)
        if rules is not None
    ]
    main_line = len(diagrams)  # (the main line's boards first, by ply number; then each variation ply's)
    boards: dict[PlyKey, int] = {}
    if rules is not None:  # (a replay kept them, by its rules)
        for at, positions in sorted(report.variation_positions.items()):
            for ply, position in enumerate(positions[1:]):
                boards[at, ply] = len(diagrams)
                diagrams.append(rules.diagram(position, report.canonical.get((at, ply))))
    banded = any(diagram.caption for diagram in diagrams)  # (one height: Latrunculi's pieces in hand, then none)
    svgs = [diagram_svg(diagram, banded) for diagram in diagrams]
    sides = rules.sides if rules else SIDE_NAMES  # (said only of a record its rules replayed)
    moves = (
        _moves(record, by_place, report.result_written, report.moves(), sides, boards) if record else _written(report)
    )
    rows = "".join(f"<tr><td>{escape(k)}</td><td>{escape(tags[k])}</td></tr>" for k in tag_order(tags))
    notes = "".join(_note(d) for d in loose)
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{escape(title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><style>{STYLE}</style></head>
<body><h1>{escape(title)}</h1>
<div class="layout"><div class="board"><div id="board" aria-live="polite"></div>
<div class="controls"><button id="first" title="start (Home)">|&#x25C0;</button><button id="back" title="back (&#x2190;)">&#x25C0;</button><button id="forward" title="forward (&#x2192;)">&#x25B6;</button><button id="end" title="end (End)">&#x25B6;|</button></div>
<div id="status"></div></div>
<div class="record">{_index_link(index)}<table class="tags">{rows}</table>{notes}<div class="moves">{moves}</div></div></div>
<script type="application/json" id="boards">{_json({**stored_boards(svgs), "main": main_line})}</script>
<script>{SCRIPT}</script></body></html>
"""


def _index_link(index: str | None) -> str:
    """The link to the index of the pages a page is published among (none for a page alone)."""
    return f'<p class="index"><a href="{escape(quote(index))}">all games</a></p>' if index else ""


@dataclass(frozen=True)
class PublishedPage:
    """A record's replay page among the pages of many (`lusoria.api.replay_pages`, `lusoria html
    --output-dir`): the page, the name of its file below their folder (as `convert --output-dir`
    names a record's file), what the index of the pages says of it (`index_page`), and what one-record
    `lusoria html` says of it on stderr: why it cannot be replayed at all, or what it lacks though
    replayed (`Board.unread`: its result marker)."""

    source: RecordText
    page: str
    file_name: str
    players: str
    result: str
    verdict: str  # "valid", or the first error and where it is
    unreplayable: Diagnostic | None = None
    unread: tuple[Diagnostic, ...] = ()
    game: str = ""  # its rules as `lusoria explain` names them (`listed_as`)
    date: str = ""  # its Date tag, when it says something of the date
    event: str = ""  # its Event tag, when known


INDEX_COLUMNS = ("file", "record", "game", "event", "date", "players", "result", "verdict", "link")
OLDER_COLUMNS = ("file", "record", "players", "result", "verdict", "link")  # an index of sessions 40 to 75 listed these


def index_row(page: PublishedPage) -> dict[str, str]:
    """What the index says of `page`: its file as the messages show it (its path, shown so already:
    `shown_path`), record number, game, event, date, players, result, verdict and link."""
    cells = (page.source.path, str(page.source.index), page.game, page.event, page.date, page.players, page.result)
    return dict(zip(INDEX_COLUMNS, (*cells, page.verdict, PurePath(page.file_name).as_posix()), strict=True))


def index_page(rows: list[dict[str, str]]) -> str:
    """The page that lists the games of `rows` (`index_row`; `index.html` beside their pages): a row
    a game (a file's path may break after each `/`, its names never), and the rows again as JSON, which
    `rows_written` reads when a later run adds its pages. A column that no row fills (the event, the
    date…) is left out; the event of every row, the same, is said in the title instead. On a screen too narrow for
    the table's words (file names break after a `/` alone), the table scrolls, not the page."""
    events = {row["event"] for row in rows}
    shared = next(iter(events)) if len(events) == 1 else ""
    shown = [  # (the link: a cell of its own, `replay`)
        column
        for column in INDEX_COLUMNS[:-1]
        if any(row[column] for row in rows) and not (column == "event" and shared)
    ]
    cells = "".join(
        "<tr>"
        + "".join(_index_cell(column, row[column]) for column in shown)
        + f'<td><a href="{escape(quote(row["link"]))}">replay</a></td></tr>'
        for row in rows
    )
    counted = f"{len(rows)} game{'s' if len(rows) != 1 else ''}"
    title = escape(f"{shared}: {counted}" if shared else counted)
    head = "".join(f"<th>{column}</th>" for column in shown)
    listed = json.dumps(rows).replace("<", "\\u003c")  # (no tag in a script element)
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><style>{STYLE}{INDEX_STYLE}</style></head>
<body><h1>{title}</h1>
<div class="wide"><table class="games"><thead><tr>{head}<th></th></tr></thead>
<tbody>{cells}</tbody></table></div>
<script type="application/json" id="games">{listed}</script></body></html>
"""


def _index_cell(column: str, value: str) -> str:
    """A cell of the index, of its column's class (a verdict's: valid or invalid too); a file's path may break after each `/`."""
    said = escape(value).replace("/", "/<wbr>") if column == "file" else escape(value)
    kind = f"verdict {'valid' if value == 'valid' else 'invalid'}" if column == "verdict" else column
    return f'<td class="{kind}">{said}</td>'


_LISTED = re.compile(r'<script type="application/json" id="games">(.*?)</script></body></html>\n\Z', re.S)


def rows_written(path: str) -> list[dict[str, str]] | None:
    """The rows of the index at `path` that `index_page` wrote ([] when there is none), or an older
    lusoria wrote (`_older_rows`, `OLDER_COLUMNS`: their game, event and date left empty); None when it is
    another file (or a symbolic link to one, or cannot be read)."""
    if not os.path.lexists(path):
        return []
    try:
        with open(path, encoding="utf-8") as index:
            text = "" if os.path.islink(path) else index.read()
        listed = _LISTED.search(text)
        rows = json.loads(listed[1]) if listed else _older_rows(text)
    except (OSError, ValueError):  # (UnicodeDecodeError too)
        return None
    if not isinstance(rows, list) or not all(_is_row(row) for row in rows):
        return None
    return [{column: row.get(column, "") for column in INDEX_COLUMNS} for row in rows]  # (an older row: no game,
    # event or date)


_OLDER_INDEX = re.compile(
    r'<table class="games"><thead><tr><th>file</th>.*</thead>\n<tbody>(.*)</tbody></table></body></html>\n\Z', re.S
)
_OLDER_ROW = re.compile(
    r"<tr><td>([^<]*)</td><td>([^<]*)</td><td>([^<]*)</td><td>([^<]*)</td>"
    r'<td class="(?:valid|invalid)">([^<]*)</td><td><a href="([^"<]*)">replay</a></td></tr>'
)


def _older_rows(text: str) -> list[dict[str, str]] | None:
    """The rows of an index that a lusoria of before session 40 wrote, which kept no list of them
    (`index_page`'s table alone, each cell escaped, its link quoted then escaped), read from its table;
    None for any other text, one of whose rows is not as it wrote them too."""
    table = _OLDER_INDEX.search(text)
    if table is None or _OLDER_ROW.sub("", table[1]):
        return None
    return [
        dict(zip(OLDER_COLUMNS, (*map(unescape, cells[:5]), unquote(unescape(cells[5]))), strict=True))
        for cells in _OLDER_ROW.findall(table[1])
    ]


def _is_row(row: object) -> bool:
    """Whether `row` is one of `index_row`'s, or of an older lusoria's (`OLDER_COLUMNS`): a string for each column."""
    return (
        isinstance(row, dict)
        and row.keys() in (set(INDEX_COLUMNS), set(OLDER_COLUMNS))
        and all(isinstance(v, str) for v in row.values())
    )


INDEX_STYLE = """
.wide{overflow-x:auto}.games{border-collapse:collapse}.games th{text-align:left;color:#7a6a55}
.games td,.games th{padding:.2em .8em .2em 0;vertical-align:top}.games td{overflow-wrap:break-word}
.games .players{overflow-wrap:anywhere;min-width:8em}.games .verdict{overflow-wrap:anywhere}
.games .date{overflow-wrap:anywhere}.games td:last-child{white-space:nowrap}.games .invalid{color:#c0392b}
"""


# NAGs shown as symbols (PGN's suffixes, then the usual symbols of annotated games); `$n` otherwise
NAG_SYMBOLS = {number: suffix for suffix, number in SUFFIX_NAGS.items()} | {
    7: "□",
    10: "=",
    13: "∞",
    14: "+=",  # (⩲ and ⩱, U+2A72/1, are in no font Debian's Chromium has: a box, h75b)
    15: "=+",
    16: "±",
    17: "∓",
    18: "+−",
    19: "−+",
    22: "⨀",
    23: "⨀",
    32: "⟳",
    33: "⟳",
    36: "→",
    37: "→",
    40: "↑",
    41: "↑",
    132: "⇆",
    133: "⇆",
    138: "⊕",
    139: "⊕",
    140: "∆",
    146: "N",
}

_TAG_START = re.compile(r"(?=<(?!/))")


def stored_boards(svgs: list[str]) -> dict:
    """The boards as distinct pieces of SVG and, per board, the runs of piece numbers
    that make it (`a-b` for pieces a to b, `a` for one), comma-separated."""
    numbers: dict[str, int] = {}
    boards = []
    for svg in svgs:
        runs: list[list[int]] = []
        for piece in _TAG_START.split(svg):
            number = numbers.setdefault(piece, len(numbers))
            if runs and runs[-1][1] + 1 == number:
                runs[-1][1] = number
            else:
                runs.append([number, number])
        boards.append(",".join(f"{a}-{b}" if b > a else str(a) for a, b in runs))
    return {"pieces": list(numbers), "boards": boards}


def _json(value) -> str:
    """JSON that is safe inside a script element."""
    return json.dumps(value).replace("</", "<\\/")


def _note(diagnostic: Diagnostic) -> str:
    """A diagnostic, of no ply (syntax, tags) or a ply's error, with what its slip meant (did you mean 31:?)."""
    return f'<div class="diagnostic {diagnostic.severity}">{_unbroken(diagnostic.said(to=PAGE))}</div>'


def _unbroken(text: str) -> str:
    """`text` escaped, its short words that hold a hyphen (a ply: `did you mean a4-b4?`) kept whole, as the
    page's script keeps them in its status line (`unbroken`): h75b, `a4-` / `b4?`."""
    return _HYPHENED.sub(lambda word: f'<span class="whole">{word[0]}</span>', escape(text))


def players(report: Report) -> str:
    """White – Black as `Report.players` names them (validate --json's white and black), `?` for a
    side not named: a CSV game's and a move list's are `? – ?` unless their file's header says
    `WHITE vs BLACK`."""
    return " – ".join(name or "?" for name in report.players)


def _title(report: Report) -> str:
    """The players; for a record that names neither (a CSV game without a header `WHITE vs BLACK`),
    its file's name and line, its game (and variant) and its event, those it has."""
    if any(report.players):
        return players(report)
    source, tags = report.source, report.tags
    place = f"{os.path.basename(source.path)}:{source.line}" if source.path else ""
    return " – ".join(filter(None, [place, _game_written(tags), _event(tags)])) or "lusoria replay"


def _event(tags: dict[str, str]) -> str:
    """A record's Event tag when it names one: not `?`, PGN's unknown (review76: `Club?` kept its `?`)."""
    event = tags.get("Event", "").strip()
    return event if event.strip("?") else ""


def _game_written(tags: dict[str, str]) -> str:
    """A record's Game and Variant tags, as `game/variant`, those it has."""
    return "/".join(filter(None, [tags.get("Game"), tags.get("Variant")]))


class ListedAs(TypedDict):
    """What `listed_as` says of a record (`PublishedPage`'s fields of those names)."""

    game: str
    event: str
    date: str


def listed_as(report: Report) -> ListedAs:
    """What the index of pages says of a record besides its file, players, result and verdict
    (`PublishedPage`): its game, the rules it was replayed by as `lusoria explain` names them (the
    title of the catalogue's entry they play, `Historical Hnefatafl 9×9 (Saami Tablut-w)`, else of
    their variant, with the tags besides Variant that change them), or its Game and Variant tags
    when it has no rules; its event and date, when they say something."""
    from lusoria.archive.rule_sets import named_variant, rule_tags_of  # here, not at start-up
    from lusoria.variants import variants

    rules, tags = report.rules, report.tags
    game = _game_written(tags)
    if rules is not None:
        named = named_variant(rules.name, rules.variant, rule_tags_of(rules)) or rules.variant
        notes = variants().get(rules.name, {}).get(named)
        changed = [f'[{tag} "{value}"]' for tag, value in rules.extra_tags().items()] if named == rules.variant else []
        game = " ".join([notes.title if notes else f"{rules.name}/{rules.variant}", *changed])
    date = tags.get("Date", "")
    return ListedAs(
        game=game,
        event=_event(tags),
        date=date if any(character.isdigit() for character in date) else "",
    )


def _moves(
    record: Record,
    by_place: dict[tuple[int, int], list[Diagnostic]],
    result_written: bool,
    said: Moves | None,
    sides: tuple[str, str],
    boards: dict[PlyKey, int],
) -> str:
    """The move list as HTML, numbered as validate numbers the record (`said`, when the rules replayed
    the record: as its game's players do, or White-first where the record is so written; a ply that
    continues a turn, with the ply before it; else White-first, two plies a move, none continuing a turn):
    main-line plies numbered for stepping, each with its move as validate says it and its side as the game
    names it (`sides`, `Game.sides`, as the explorer names it: the page's status line), variations nested,
    each of their plies replayed with its board's number (`boards`) and its key (`1-0`: line 1's first ply),
    a variation's first with the stop before it (`data-back`: a main-line ply number, 0 the start, or a
    variation ply's key), and the result marker last where the record writes one (`*` too, never one assumed)."""
    moves = _Moves(by_place, result_written, said, sides, boards)
    walk(record, moves)
    return "".join(moves.out)


class _Moves(Visitor):
    def __init__(
        self,
        by_place: dict[tuple[int, int], list[Diagnostic]],
        result_written: bool,
        said: Moves | None,
        sides: tuple[str, str],
        boards: dict[PlyKey, int],
    ) -> None:
        self.by_place, self.result_written, self.said, self.sides = by_place, result_written, said, sides
        self.boards = boards
        self.lines: list[int] = []  # the lines begun, the innermost last
        self.before: dict[int, str] = {}  # per line, the stop before its next ply (`data-back`)
        self.replaced: dict[int, str] = {}  # per line, the stop before its ply visited last (a variation replaces it)
        self.places = sorted(by_place)  # (a diagnostic before a ply, at its move number, is that ply's)
        self.passed = (0, 0)  # the place of the ply visited last
        self.out: list[str] = []
        self.after_break = True  # a move's second ply is numbered: first of a line, after comments or variations

    def begin_line(self, line: Line, number: int) -> None:
        self.before[number] = self.replaced[self.lines[-1]] if number else "0"
        self.lines.append(number)
        if number:
            self.out.append('<span class="variation">(')
        self.out += [_comment(c) for c in line.comments]
        self.after_break = True

    def visit_ply(self, ply: Ply, number: int, key: PlyKey) -> None:
        here = (ply.line, ply.column)  # its diagnostics: at it, and at its move number (newcomer-57a: `3.` for `2.`)
        after, until = bisect_right(self.places, self.passed), bisect_right(self.places, here)
        found = [d for place in self.places[after:until] for d in self.by_place[place]]
        self.passed = here
        classes = "ply" + (" illegal" if any(d.severity == "error" for d in found) else " warned" if found else "")
        notes = "; ".join(d.said(to=PAGE) for d in found)
        line, index = key
        self.replaced[line], self.before[line] = self.before[line], str(number) if line == 0 else f"{line}-{index}"
        if line == 0:
            step = f' data-ply="{number}"'
        elif key in self.boards:
            back = f' data-back="{self.replaced[line]}"' if index == 0 else ""
            step = f' data-key="{line}-{index}" data-board="{self.boards[key]}"{back}'
        else:
            step = ""
        if step and self.said is not None:
            step += f' data-move="{escape(self.said.said(number, key, self.sides))}"'
        shown = self.said.number(number, key) if self.said is not None else move_number(number, 0)
        continues = self.said is not None and self.said.continues(key)
        numbered = self.after_break or self.said is not None and self.said.follows_pass(key)
        if not numbered and (shown.endswith("...") or continues):
            shown = ""
        held = f"{escape(shown)}\N{NO-BREAK SPACE}" if shown else ""  # a number held to its ply: no line ends with `8.`
        self.out.append(
            f'{held}<span class="{classes}"{step} data-diagnostics="{escape(notes)}" '
            f'title="{escape(notes)}">{escape(ply.text)}</span> '
        )
        if ply.nags:  # glued to the ply: "e3-c3!?"
            self.out[-1] = (
                self.out[-1].rstrip()
                + "".join(
                    f'<span class="nag" title="${n}">{escape(NAG_SYMBOLS.get(n, f"${n}"))}</span>' for n in ply.nags
                )
                + " "
            )
        self.out += [_comment(c) for c in ply.comments]
        self.out += [_note(d) for d in found if d.severity == "error"]
        self.after_break = bool(ply.comments or ply.variations)

    def end_line(self, line: Line, number: int) -> None:
        self.lines.pop()
        if number:
            self.out.append(")</span> ")
            self.after_break = True

    def visit_result(self, result: str) -> None:
        if self.result_written:
            self.out.append(f'<span class="result">{escape(result)}</span>')


def named(report: Report) -> list[Diagnostic]:
    """The diagnostics of `report` as its page and the index of pages say them: each move of one at a ply, its own
    and those its message names, its side named as the status line beside it names it (`Game.sides`), then, where
    that name is not the notation's, by the notation's, which the rules' messages use (`move 2, Muscovites
    (Black): the piece on e4 is White's, and Black is to move`, `c4 is occupied (by move 1, Muscovites (Black):
    a4-c4)`; validate says `move 2, Black`, `by move 1, Black`)."""
    if report.rules is None:
        return report.diagnostics
    sides = sides_glossed(report.rules.sides)
    return [
        replace(d, move=resaid(d.move, sides), message=resaid(d.message, sides)) if d.move else d
        for d in report.diagnostics
    ]


def _written(report: Report) -> str:
    """The text of a record that does not parse (a syntax error, no Game tag), as written, for its
    reader to mend: its page showed its tags and its error alone, and none of its moves. None of a file
    its encoding does not decode (`Undecodable`): it is mended by reading it in another encoding, and its
    text, a binary file's too, is the bytes misread."""
    if isinstance(report.source.parsed, Undecodable):
        return ""
    return f'<pre class="written">{escape(report.source.text.strip())}</pre>'


def _comment(comment: str) -> str:
    """A comment; a note of the reader of another format (`formats.common.reader_note`), lusoria's and not
    the annotator's, shown apart."""
    reader, separator, _ = comment.partition(" reader: ")
    if separator and reader in FORMATS:
        return f'<span class="comment note" title="a note of lusoria\'s reader, not of the record">{{{escape(comment)}}}</span> '
    return f'<span class="comment">{{{escape(comment)}}}</span> '
