"""Board diagrams as SVG: self-contained (shapes only, generic font families), legible
small, with the last ply highlighted and what it captured or removed marked.

    from lusoria.svg import position_svg
    position_svg(rules, position, last="e4-e3xd3")

It draws any game's description of a position (`Game.diagram`, validator/diagram.py):
a board of squares or a table of points; it knows no game.
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Mapping
from html import escape

from lusoria.validator.base import BLACK, WHITE, Game
from lusoria.validator.diagram import (
    CAMP,
    CAPTURED,
    CELL,
    CORNER,
    DISC,
    FACE,
    FAINT,
    FROM,
    INK,
    NONE,
    OTHER_FACE,
    OTHER_OUTLINE,
    OUTLINE,
    REMOVED,
    THRONE,
    TO,
    Diagram,
    Glyph,
    Mark,
    Piece,
    Points,
    Squares,
)

EDGE = 22  # the margin about a board of squares, where its coordinates stand
CAPTION = 20  # the band under a board of squares for its caption (Diagram.caption)
SHOWN = 600  # the largest a diagram is shown, in pixels: a larger board (tafl's 15×15 to 19×19) is shown smaller
LIGHT, DARK, LINE = "#f6efdc", "#2e2a26", "#3b3228"
BOARD, SQUARE_ALT, MOVED, CAPTURED_RED = "#e2cfa3", "#d6bf8c", "#f3d34a", "#c0392b"
CAMP_FILL = "#b9a27a"  # camps (Ashton Tablut's)
COLOURS = {  # a glyph's colours by role (validator/diagram.py), for a piece of each side
    side: {
        FACE: face,
        OUTLINE: outline,
        OTHER_FACE: other_face,
        OTHER_OUTLINE: other_outline,
        INK: ink,
        FAINT: faint,
        NONE: NONE,
    }
    for side, face, outline, other_face, other_outline, ink, faint in (
        ("white", LIGHT, LINE, DARK, "#000", "#8a6d1f", "#6b6b6b"),
        ("black", DARK, "#000", LIGHT, LINE, "#e8c766", "#bdbdbd"),
    )
}
_STEP = re.compile(r"([A-Za-z])([^A-Za-z]*)")  # a step of path data: its letter and numbers


def position_svg(rules: Game, position: Hashable, last: str | None = None) -> str:
    """The position drawn; `last` is the ply that led to it, in canonical form."""
    return diagram_svg(rules.diagram(position, last))


def diagram_svg(diagram: Diagram, banded: bool = False) -> str:
    """A description of a position drawn; `banded`: a board of squares keeps the band of a caption under it
    without one (the boards of a replay, all of one height when some have a caption)."""
    if isinstance(diagram.board, Points):
        return _table(diagram, diagram.board)
    return _square_board(diagram, diagram.board, banded)


def _svg(width: float, height: float, body: list[str], title: str) -> str:
    scale = min(1.0, SHOWN / max(width, height))
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:g} {height:g}" width="{width * scale:g}" '
        f'height="{height * scale:g}" font-family="sans-serif" role="img"><title>{escape(title)}</title>'
        + "".join(body)
        + "</svg>"
    )


# -- square boards ------------------------------------------------------------------------------


def _grid(board: Squares, marks: Mapping[int, str], below: int = 0) -> list[str]:
    """The board, its coordinates, and its coloured squares (the last ply's, the camps) and thrones; its
    ground `below` it too (a caption's band)."""
    files, ranks = board.files, board.ranks
    body = [
        f'<rect x="0" y="0" width="{files * CELL + 2 * EDGE}" height="{ranks * CELL + 2 * EDGE + below}" fill="#f9f5ea"/>'
    ]
    for index, name in enumerate(board.names):
        x, y = _xy(index, files, ranks)
        mark, camp = marks.get(index, ""), board.roles.get(index) == CAMP
        fill = (
            MOVED
            if mark in (FROM, TO)
            else CAMP_FILL
            if camp
            else BOARD
            if (index // files + index) % 2
            else SQUARE_ALT
        )
        role = " ".join(filter(None, (mark, CAMP if camp else "")))
        body.append(
            f'<rect class="square {role}" data-square="{name}" x="{x}" y="{y}" '
            f'width="{CELL}" height="{CELL}" fill="{fill}" stroke="{LINE}" stroke-width="0.5"/>'
        )
        if board.roles.get(index) in (THRONE, CORNER):  # a thick frame and a cross
            body.append(
                f'<rect x="{x + 2}" y="{y + 2}" width="{CELL - 4}" height="{CELL - 4}" fill="none" '
                f'stroke="{LINE}" stroke-width="2.5"/><path d="M{x + 2} {y + 2}L{x + CELL - 2} {y + CELL - 2}'
                f'M{x + CELL - 2} {y + 2}L{x + 2} {y + CELL - 2}" stroke="{LINE}" stroke-width="0.8"/>'
            )
    for file in range(files):
        middle = EDGE + file * CELL + CELL / 2
        letter = board.names[file].rstrip("0123456789")  # (the first rank's squares name the files)
        for baseline in (EDGE - 7, EDGE + ranks * CELL + 16):
            body.append(
                f'<text x="{middle:g}" y="{baseline}" font-size="12" text-anchor="middle" fill="{LINE}">{letter}</text>'
            )
    for rank in range(ranks):
        level = EDGE + (ranks - 1 - rank) * CELL + CELL / 2 + 4
        for margin in (EDGE / 2, EDGE + files * CELL + EDGE / 2):
            body.append(
                f'<text x="{margin:g}" y="{level:g}" font-size="12" text-anchor="middle" fill="{LINE}">'
                f"{rank + 1}</text>"
            )
    return body


def _xy(index: int, files: int, ranks: int) -> tuple[int, int]:
    return EDGE + (index % files) * CELL, EDGE + (ranks - 1 - index // files) * CELL


def _piece_shape(x: float, y: float, piece: Piece, name: str, glyphs: Mapping[str, Glyph]) -> str:
    """A piece drawn by its kind's glyph (its game's: `Diagram.glyphs`), a DISC for a kind with none."""
    side = "white" if piece.side == WHITE else "black"
    shape = "".join(_mark(mark, x + CELL / 2, y + CELL / 2, COLOURS[side]) for mark in glyphs.get(piece.kind, (DISC,)))
    return f'<g class="piece {side} {piece.kind}" data-square="{name}">{shape}</g>'


def _mark(mark: Mark, cx: float, cy: float, colours: Mapping[str, str]) -> str:
    """A mark of a glyph drawn about the centre (cx, cy), in its side's colours."""
    if mark.path:
        shape = f'<path d="{_moved(mark.path, cx, cy)}"'
    elif len(mark.radii) == 1:
        shape = f'<circle cx="{cx:g}" cy="{cy:g}" r="{mark.radii[0]:g}"'
    else:
        shape = f'<ellipse cx="{cx:g}" cy="{cy:g}" rx="{mark.radii[0]:g}" ry="{mark.radii[1]:g}"'
    paint = (
        ("fill", colours.get(mark.fill, "")),
        ("stroke", colours.get(mark.stroke, "")),
        ("stroke-width", f"{mark.width:g}" if mark.width else ""),
        ("stroke-dasharray", mark.dashes),
        ("stroke-linejoin", mark.join),
    )
    return shape + "".join(f' {name}="{value}"' for name, value in paint if value) + "/>"


def _moved(path: str, cx: float, cy: float) -> str:
    """Path data about 0 0 moved to (cx, cy): each step's numbers are x, y, x, … (H: x alone)."""
    return "".join(
        step + " ".join(f"{float(number) + (cx, cy)[i % 2]:g}" for i, number in enumerate(numbers.split()))
        for step, numbers in _STEP.findall(path)
    )


def _cross(x: float, y: float, name: str, what: str, gone: bool) -> str:
    """A captured or removed piece: a red ring, and a cross where the piece has gone."""
    cross = (
        (
            f'<path d="M{x + 10} {y + 10}L{x + CELL - 10} {y + CELL - 10}M{x + CELL - 10} {y + 10}'
            f'L{x + 10} {y + CELL - 10}" stroke="{CAPTURED_RED}" stroke-width="3"/>'
        )
        if gone
        else ""
    )
    return (
        f'<g class="{what}" data-square="{name}"><circle cx="{x + CELL / 2:g}" cy="{y + CELL / 2:g}" '
        f'r="{CELL * 0.44:g}" fill="none" stroke="{CAPTURED_RED}" stroke-width="2.5" stroke-dasharray="4 3"/>'
        f"{cross}</g>"
    )


def _square_board(diagram: Diagram, board: Squares, banded: bool) -> str:
    files, ranks, names = board.files, board.ranks, board.names
    below = CAPTION if diagram.caption or banded else 0
    body = _grid(board, diagram.marks, below)
    for index, piece in diagram.pieces.items():
        x, y = _xy(index, files, ranks)
        body.append(_piece_shape(x, y, piece, names[index], diagram.glyphs))
    for index, what in diagram.marks.items():
        if what in (CAPTURED, REMOVED):
            x, y = _xy(index, files, ranks)
            body.append(_cross(x, y, names[index], what, index not in diagram.pieces))
    height = ranks * CELL + 2 * EDGE
    if diagram.caption:  # a line under the board (the pieces in hand)
        body.append(
            f'<text class="caption" x="{EDGE}" y="{height + 8}" font-size="13" fill="{LINE}">'
            f"{escape(diagram.caption)}</text>"
        )
    return _svg(files * CELL + 2 * EDGE, height + below, body, diagram.title)


# -- tables of points ------------------------------------------------------------------------------

POINT_W, POINT_H, BAR, TRAY = 34, 150, 40, 56


def _table(diagram: Diagram, table: Points) -> str:
    half = 6 * POINT_W
    width, height = 2 * EDGE + 2 * half + BAR + TRAY, 2 * EDGE + 2 * POINT_H + 70
    body = [
        f'<rect x="0" y="0" width="{width}" height="{height}" fill="#f9f5ea"/>',
        f'<rect x="{EDGE}" y="{EDGE}" width="{2 * half + BAR}" height="{height - 2 * EDGE}" fill="{BOARD}" '
        f'stroke="{LINE}" stroke-width="2"/>',
        f'<rect x="{EDGE + half}" y="{EDGE}" width="{BAR}" height="{height - 2 * EDGE}" fill="#b89b62"/>',
    ]
    for point in range(1, 25):
        body += _point(point, diagram.pieces.get(point), diagram.marks.get(point), height)
    bottom = height - EDGE - POINT_H
    for quarter, (caption, note) in table.unused.items():
        x, top = _quarter_place(quarter, height)
        body += [
            f'<rect class="unused" x="{x}" y="{top}" width="{half}" height="{POINT_H}" fill="#7d7468" opacity="0.55"/>',
            f'<text x="{x + half / 2:g}" y="{top + POINT_H / 2:g}" font-size="14" text-anchor="middle" '
            f'fill="#fff">{escape(caption)}</text>',
            f'<text x="{x + half / 2:g}" y="{top + POINT_H / 2 + 16:g}" font-size="11" text-anchor="middle" '
            f'fill="#fff">{escape(note)}</text>',
        ]
    for quarter, label in table.labels.items():
        x, top = _quarter_place(quarter, height)
        y = EDGE + POINT_H + 28 if top == EDGE else bottom - 18
        body.append(
            f'<text x="{x + half / 2:g}" y="{y:g}" font-size="12" font-weight="bold" text-anchor="middle" '
            f'fill="{LINE}">{escape(label)}</text>'
        )
    body += _tray(diagram.off, width, height) + _dice(diagram.dice, EDGE + half + BAR / 2, height / 2)
    return _svg(width, height, body, diagram.title)


def _quarter_place(quarter: int, height: int) -> tuple[int, int]:
    """The left and top edges of a quarter of the table (0: points 1–6, lower right, …)."""
    left = EDGE + (6 * POINT_W + BAR if quarter in (0, 1) else 0)
    return left, EDGE if quarter in (1, 2) else height - EDGE - POINT_H


def _point_place(point: int) -> tuple[float, bool]:
    """The left edge of a point's triangle, and whether it hangs from the top."""
    half = 6 * POINT_W
    if 13 <= point <= 18:
        return EDGE + (18 - point) * POINT_W, True
    if 7 <= point <= 12:
        return EDGE + half + BAR + (12 - point) * POINT_W, True
    if 19 <= point <= 24:
        return EDGE + (point - 19) * POINT_W, False
    return EDGE + half + BAR + (point - 1) * POINT_W, False


def _point(point: int, checkers: Piece | None, role: str | None, height: int) -> list[str]:
    x, top = _point_place(point)
    base, tip = (EDGE, EDGE + POINT_H - 8) if top else (height - EDGE, height - EDGE - POINT_H + 8)
    fill = MOVED if role else ("#8c5a3c" if point % 2 else "#e9dcc0")
    shapes = [
        f'<path class="point {role or ""}" data-point="{point}" d="M{x + 1} {base}L{x + POINT_W / 2:g} {tip}'
        f'L{x + POINT_W - 1} {base}Z" fill="{fill}" stroke="{LINE}" stroke-width="0.6"/>'
    ]
    label_y = EDGE + POINT_H + 10 if top else height - EDGE - POINT_H - 2
    shapes.append(
        f'<text x="{x + POINT_W / 2:g}" y="{label_y}" font-size="9" text-anchor="middle" fill="{LINE}">{point}</text>'
    )
    if checkers:
        white, n = checkers.side == WHITE, checkers.count
        fill, stroke = (LIGHT, LINE) if white else (DARK, "#000")
        for k in range(min(n, 5)):
            cy = base + (1 if top else -1) * (POINT_W / 2 + k * (POINT_W - 4))
            shapes.append(
                f'<circle class="checker {"white" if white else "black"}" data-point="{point}" '
                f'cx="{x + POINT_W / 2:g}" cy="{cy:g}" r="{POINT_W / 2 - 2:g}" fill="{fill}" '
                f'stroke="{stroke}" stroke-width="1.2"/>'
            )
        if n > 1:
            cy = base + (1 if top else -1) * (POINT_W / 2 + (min(n, 5) - 1) * (POINT_W - 4)) + 4
            shapes.append(
                f'<text class="count" data-point="{point}" x="{x + POINT_W / 2:g}" y="{cy:g}" '
                f'font-size="12" font-weight="bold" text-anchor="middle" '
                f'fill="{LINE if white else LIGHT}">{n}</text>'
            )
    return shapes


def _tray(off: tuple[int, int], width: int, height: int) -> list[str]:
    x = width - TRAY + 8
    body = [
        f'<text x="{x + (TRAY - 16) / 2:g}" y="{EDGE - 6}" font-size="11" text-anchor="middle" fill="{LINE}">off</text>'
    ]
    for side, white, y0 in ((BLACK, False, EDGE), (WHITE, True, height / 2 + 4)):
        fill, stroke = (LIGHT, LINE) if white else (DARK, "#000")
        body.append(
            f'<rect x="{x}" y="{y0:g}" width="{TRAY - 16}" height="{height / 2 - EDGE - 4:g}" '
            f'fill="#efe4c8" stroke="{LINE}"/>'
        )
        for k in range(off[side]):
            body.append(
                f'<rect class="off {"white" if white else "black"}" x="{x + 4}" y="{y0 + 4 + k * 8:g}" '
                f'width="{TRAY - 24}" height="6" fill="{fill}" stroke="{stroke}" stroke-width="0.8"/>'
            )
        body.append(
            f'<text x="{x + (TRAY - 16) / 2:g}" y="{y0 + height / 2 - EDGE - 26:g}" font-size="10" '
            f'text-anchor="middle" fill="{LINE}">{"White" if white else "Black"}</text>'
            f'<text class="off-count" x="{x + (TRAY - 16) / 2:g}" y="{y0 + height / 2 - EDGE - 12:g}" '
            f'font-size="12" text-anchor="middle" fill="{LINE}">{off[side]}</text>'
        )
    return body


PIPS = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
}


def _dice(dice: tuple[int, ...], cx: float, cy: float) -> list[str]:
    body = []
    for k, die in enumerate(dice):
        y = cy - 30 + k * 34
        body.append(
            f'<g class="die" data-value="{die}"><rect x="{cx - 13:g}" y="{y:g}" width="26" height="26" '
            f'rx="4" fill="#fffdf5" stroke="{LINE}" stroke-width="1.2"/>'
            + "".join(
                f'<circle cx="{cx + dx * 7:g}" cy="{y + 13 + dy * 7:g}" r="2.6" fill="{LINE}"/>' for dx, dy in PIPS[die]
            )
            + "</g>"
        )
    return body
