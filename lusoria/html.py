"""A self-contained HTML page that replays a record: inline SVG and script, no network."""

from __future__ import annotations

import json
from html import escape

from lusoria.notation.model import Line
from lusoria.notation.reader import RecordText
from lusoria.svg import position_svg
from lusoria.validator.replay import Diagnostic, check, move_number
from lusoria.validator.base import BLACK

STYLE = """
body{font-family:sans-serif;margin:1.5em;color:#2e2a26;background:#fbf8f1;max-width:72em}
h1{font-size:1.3em;margin:0 0 .4em}
.layout{display:flex;gap:2em;flex-wrap:wrap;align-items:flex-start}
.tags{border-collapse:collapse;font-size:.9em;margin-bottom:1em}.tags td{padding:.1em .6em .1em 0}
.tags td:first-child{color:#7a6a55}
.controls button{font-size:1.1em;margin-right:.3em;min-width:2.4em}
.moves{line-height:1.9;max-width:34em}
.ply{cursor:pointer;padding:.1em .25em;border-radius:3px}
.ply.current{background:#f3d34a}
.ply.illegal{color:#fff;background:#c0392b}.ply.illegal.current{outline:3px solid #f3d34a}
.ply.warned{text-decoration:underline wavy #d68910}
.variation{color:#6b5d4b}.variation .ply{cursor:default}
.comment{color:#4c7a4c;font-style:italic}.nag{color:#7a6a55}
.diagnostic{margin:.4em 0;padding:.4em .6em;border-left:4px solid #c0392b;background:#fdecea}
.diagnostic.warning{border-color:#d68910;background:#fef5e7}
#status{margin:.6em 0;min-height:1.4em}
"""

SCRIPT = """
const boards = JSON.parse(document.getElementById('boards').textContent);
const plies = document.querySelectorAll('.moves .ply[data-ply]');
const last = plies.length;
let current = 0;
function show(n) {
  current = Math.max(0, Math.min(last, n));
  document.getElementById('board').innerHTML = boards[Math.min(current, boards.length - 1)];
  plies.forEach(p => p.classList.toggle('current', Number(p.dataset.ply) === current));
  const here = document.querySelector('.ply[data-ply="' + current + '"]');
  const notes = here ? here.dataset.diagnostics : '';
  document.getElementById('status').textContent = (current === 0 ? 'start' : 'ply ' + current + ' of ' + last)
    + (current >= boards.length ? ' (not replayed: the line stopped at an illegal ply)' : '')
    + (notes ? ' \\u2014 ' + notes : '');
  history.replaceState(null, '', '#ply=' + current);
}
document.getElementById('first').onclick = () => show(0);
document.getElementById('back').onclick = () => show(current - 1);
document.getElementById('forward').onclick = () => show(current + 1);
document.getElementById('end').onclick = () => show(last);
plies.forEach(p => p.onclick = () => show(Number(p.dataset.ply)));
const keys = {ArrowLeft: () => current - 1, ArrowRight: () => current + 1, Home: () => 0, End: () => last};
document.addEventListener('keydown', e => {
  if (keys[e.key]) { e.preventDefault(); show(keys[e.key]()); }
});
const asked = /ply=(\\d+)/.exec(location.hash);
show(asked ? Number(asked[1]) : 0);
"""


def replay_page(source: RecordText | str) -> str:
    """The page for one record (`lusoria html`)."""
    report = check(source)
    record = report.record
    tags = record.tags if record else report.tags
    title = " – ".join(filter(None, [tags.get("White"), tags.get("Black")])) or "lusoria replay"
    by_place: dict[tuple[int, int], list[Diagnostic]] = {}
    loose = []
    for diagnostic in report.diagnostics:
        if diagnostic.ply is None:
            loose.append(diagnostic)
        else:
            by_place.setdefault((diagnostic.line, diagnostic.column), []).append(diagnostic)
    boards = []
    if report.rules:
        plies = record.main.plies
        for index, position in enumerate(report.positions):
            last = report.canonical.get(id(plies[index - 1])) if index else None
            boards.append(position_svg(report.rules, position, last))
    black_starts = bool(report.positions) and report.rules.turn(report.positions[0]) == BLACK
    moves = _moves(record.main, black_starts, by_place) if record else ""
    rows = "".join(f"<tr><td>{escape(k)}</td><td>{escape(v)}</td></tr>" for k, v in tags.items())
    notes = "".join(_note(d) for d in loose)
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{escape(title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><style>{STYLE}</style></head>
<body><h1>{escape(title)}</h1>
<div class="layout"><div><div id="board" aria-live="polite"></div>
<div class="controls"><button id="first" title="start (Home)">|&#x25C0;</button><button id="back" title="back (&#x2190;)">&#x25C0;</button><button id="forward" title="forward (&#x2192;)">&#x25B6;</button><button id="end" title="end (End)">&#x25B6;|</button></div>
<div id="status"></div></div>
<div><table class="tags">{rows}</table>{notes}<div class="moves">{moves}</div></div></div>
<script type="application/json" id="boards">{_json(boards)}</script>
<script>{SCRIPT}</script></body></html>
"""


def _json(value) -> str:
    """JSON that is safe inside a script element."""
    return json.dumps(value).replace("</", "<\\/")


def _note(diagnostic: Diagnostic) -> str:
    return (f'<div class="diagnostic {diagnostic.severity}">{diagnostic.severity}[{escape(diagnostic.rule)}]: '
            f'{escape(diagnostic.message)}</div>')


def _moves(main: Line, black_starts: bool, by_place: dict) -> str:
    """The move list as HTML: main-line plies numbered for stepping, variations nested
    (an explicit stack, as in the writer)."""
    out: list[str] = []
    stack: list[tuple[Line, int, int]] = [(main, 1, 0)]
    while stack:
        line, first, index = stack.pop()
        if index == 0:
            if line is not main:
                out.append('<span class="variation">(')
            out += [f'<span class="comment">{{{escape(c)}}}</span> ' for c in line.comments]
        if index == len(line.plies):
            if line is not main:
                out.append(")</span> ")
            continue
        ply, number = line.plies[index], first + index
        found = by_place.get((ply.line, ply.column), [])
        classes = "ply" + (" illegal" if any(d.severity == "error" for d in found) else
                           " warned" if found else "")
        notes = "; ".join(f"{d.severity}[{d.rule}]: {d.message}" for d in found)
        step = f' data-ply="{number}"' if line is main else ""
        shown = move_number(number, black_starts)
        if shown.endswith("...") and index and not (line.plies[index - 1].comments or
                                                      line.plies[index - 1].variations):
            shown = ""
        out.append(f'{escape(shown)} <span class="{classes}"{step} data-diagnostics="{escape(notes)}" '
                   f'title="{escape(notes)}">{escape(ply.text)}</span> ')
        out += [f'<span class="nag">${n}</span> ' for n in ply.nags]
        out += [f'<span class="comment">{{{escape(c)}}}</span> ' for c in ply.comments]
        out += [_note(d) for d in found if d.severity == "error"]
        stack.append((line, first, index + 1))
        stack.extend((variation, number, 0) for variation in reversed(ply.variations))
    return "".join(out)
