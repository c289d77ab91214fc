"""SVG diagrams: what each holds, snapshots, and the docs' images kept current."""

import importlib.util
import xml.etree.ElementTree as ElementTree

import pytest
from conftest import ROOT

from lusoria.api import board
from lusoria.formats.sources import read_sources
from lusoria.validator.games import game_class

spec = importlib.util.spec_from_file_location("images", ROOT / "docs" / "images.py")
images = importlib.util.module_from_spec(spec)
spec.loader.exec_module(images)

NS = {"svg": "http://www.w3.org/2000/svg"}


def drawn(sample: str, ply: int) -> ElementTree.Element:
    svg = board(next(iter(read_sources(str(ROOT / "samples" / sample)))), ply).svg()
    assert "<script" not in svg and "href" not in svg  # self-contained: no scripts, no links
    return ElementTree.fromstring(svg)


def classes(root, name: str) -> list[str]:
    return [e.get("data-square") or e.get("data-point") for e in root.iter() if name in (e.get("class") or "").split()]


def test_tablut_diagram():
    root = drawn("tablut/escape.lgn", 7)
    assert classes(root, "king") == ["c5"] and len(classes(root, "soldier")) == 8 + 16
    assert classes(root, "from") == ["e5"] and classes(root, "to") == ["c5"]
    assert [t.text for t in root.iter(f"{{{NS['svg']}}}text")][:9] == list("aabbccdde")


def test_latrunculi_diagram_marks_inciti_dux_and_captures():
    root = drawn("latrunculi/seneca.lgn", 757)
    assert "d3" in classes(root, "incitus") and "d3" in classes(root, "captured")
    dux = drawn("latrunculi/dux.lgn", 1)
    assert sorted(classes(dux, "dux")) == ["d7", "e2"]


def test_a_latrunculi_board_in_its_placement_phase_says_the_pieces_in_hand_under_it():
    """The text board said the pieces in hand, the SVG (and the replay page's board) did not: a reader could not
    tell whether the placement phase was over (h69c)."""
    text = '[Game "latrunculi"]\n1. @d4 @e5 2. @c4 *\n'
    root = ElementTree.fromstring(board(text, 3).svg())
    [caption] = [e for e in root.iter() if e.get("class") == "caption"]
    assert caption.text == "in hand: White 14, Black 15" in board(text, 3).text().splitlines()
    assert root.get("viewBox") == "0 0 364 384"  # (8 × 40 and the margins, and the caption's band)
    placed = ElementTree.fromstring(board('[Game "latrunculi"]\n[Position "8/8/8/8/8/8/8/P6p w"]\n*\n').svg())
    assert not [e for e in placed.iter() if e.get("class") == "caption"] and placed.get("viewBox") == "0 0 364 364"


def test_a_latrunculi_removal_is_marked_over_the_square_it_empties():
    """h83a: the incitus a ply removes is marked `removed` (over `to`: a2, removed before the move, is where
    a1 went), which no diagram showed."""
    text = '[Game "latrunculi"]\n[Rules "removal=before-move"]\n[Position "8/8/8/8/8/8/I6p/Pp4pP w"]\n\n1. a1-a2~a2 *\n'
    root = ElementTree.fromstring(board(text, 1).svg())
    assert (classes(root, "from"), classes(root, "to"), set(classes(root, "removed"))) == (["a1"], [], {"a2"})


def test_laquet_diagram_has_points_dice_and_the_unused_quadrant():
    root = drawn("laquet/whole-game.lgn", 12)
    assert len(classes(root, "point")) == 24 and len(classes(root, "die")) == 2
    assert len([e for e in root.iter() if e.get("class") == "unused"]) == 1
    assert classes(root, "from") == ["9"] and set(classes(root, "to")) == {"13", "14"}


@pytest.mark.parametrize("name", sorted(images.IMAGES))
def test_the_docs_images_are_current_and_snapshotted(name, snapshot):
    drawing = images.drawing(name)
    assert (ROOT / "docs" / "images" / name).read_text() == drawing, "run: python docs/images.py"
    assert drawing == snapshot


def test_any_description_is_drawn_without_a_game():
    from lusoria.svg import diagram_svg
    from lusoria.validator.diagram import TO, Diagram, Piece, Points

    table = Points(labels={0: "home"})  # no unused quarter
    root = ElementTree.fromstring(
        diagram_svg(Diagram("a table", table, {3: Piece(1, "checker", 7)}, {3: TO}, off=(2, 0), dice=(5,)))
    )
    assert [e.get("class") for e in root.iter() if e.get("data-point") == "3"] == [
        "point to",
        "checker black",
        "checker black",
        "checker black",
        "checker black",
        "checker black",
        "count",
    ]
    assert not [e for e in root.iter() if e.get("class") == "unused"]
    assert [e.get("data-value") for e in root.iter() if e.get("class") == "die"] == ["5"]
    assert len([e for e in root.iter() if e.get("class") == "off white"]) == 2
    assert "home" in [t.text for t in root.iter(f"{{{NS['svg']}}}text")]


def test_a_description_leaving_out_the_checkers_off_and_a_count_draws_none_off_and_one_checker():
    """h83a: `Diagram.off` is (0, 0) and `Piece.count` 1 unless said (a plug-in's table that bears off nothing)."""
    from lusoria.svg import diagram_svg
    from lusoria.validator.diagram import Diagram, Piece, Points

    root = ElementTree.fromstring(diagram_svg(Diagram("a table", Points(), {3: Piece(0, "checker")})))
    assert [e.get("class") for e in root.iter() if e.get("data-point") == "3"] == ["point ", "checker white"]
    assert [e.text for e in root.iter() if e.get("class") == "off-count"] == ["0", "0"]
    assert not [e for e in root.iter() if (e.get("class") or "").startswith("off ")]


def test_a_mercenary_bears_a_disc_of_the_other_sides_colour():
    from lusoria.svg import DARK, LIGHT, diagram_svg
    from lusoria.validator.diagram import Diagram, Piece, Squares

    squares = Squares(2, 1, ("a1", "b1"))
    rules = game_class("hnefatafl")()
    glyphs = rules.diagram(rules.initial()).glyphs  # tafl's
    pieces = {0: Piece(0, "mercenary"), 1: Piece(1, "mercenary")}
    root = ElementTree.fromstring(diagram_svg(Diagram("two", squares, pieces, {}, glyphs=glyphs)))
    pieces = [e for e in root.iter(f"{{{NS['svg']}}}g") if "mercenary" in e.get("class", "").split()]
    assert [e.get("class") for e in pieces] == ["piece white mercenary", "piece black mercenary"]
    assert [[c.get("fill") for c in piece] for piece in pieces] == [[LIGHT, DARK], [DARK, LIGHT]]


def test_each_die_shows_its_pips_inside_it_as_a_die_does():
    """As many pips as the die's value, on a 3x3 grid inside its square, the same when turned half round."""
    from lusoria.svg import diagram_svg
    from lusoria.validator.diagram import Diagram, Points

    root = ElementTree.fromstring(diagram_svg(Diagram("dice", Points(), {}, {}, dice=(1, 2, 3, 4, 5, 6))))
    dice = [e for e in root.iter() if e.get("class") == "die"]
    assert [die.get("data-value") for die in dice] == list("123456")
    for value, die in enumerate(dice, 1):
        square, *pips = die
        x, y, size = float(square.get("x")), float(square.get("y")), float(square.get("width"))
        middle = (x + size / 2, y + size / 2)
        steps = {((float(p.get("cx")) - middle[0]) / 7, (float(p.get("cy")) - middle[1]) / 7) for p in pips}
        assert len(pips) == len(steps) == value
        assert steps <= {(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)}
        assert steps == {(-dx, -dy) for dx, dy in steps}


def test_a_piece_is_drawn_by_its_games_glyph_or_as_a_disc():
    """svg.py drew six games' kinds of piece by name; a game's diagram now gives the glyph of each kind,
    and svg draws any, moved to the piece's square: a kind with none is a plain disc."""
    from lusoria.svg import DARK, diagram_svg
    from lusoria.validator.diagram import INK, Diagram, Mark, Piece, Squares

    squares = Squares(2, 1, ("a1", "b1"))
    glyphs = {"man": (Mark("M-5 0H5", stroke=INK, width=2),)}
    root = ElementTree.fromstring(
        diagram_svg(Diagram("two", squares, {0: Piece(0, "man"), 1: Piece(1, "horse")}, {}, glyphs=glyphs))
    )
    man, horse = [e for e in root.iter(f"{{{NS['svg']}}}g") if "piece" in e.get("class", "").split()]
    assert [(c.tag.split("}")[1], c.attrib) for c in man] == [
        ("path", {"d": "M37 42H47", "stroke": "#8a6d1f", "stroke-width": "2"})
    ]
    assert [(c.tag.split("}")[1], c.get("r"), c.get("fill")) for c in horse] == [("circle", "14.4", DARK)]


def test_a_tafl_boards_corners_are_framed_as_its_throne_is():
    """h82a: Fetlar's four corners, hostile squares as the throne is, carry the throne's thick frame and cross."""
    root = ElementTree.fromstring(board('[Game "hnefatafl"]\n[Variant "fetlar-hnefatafl-11x11"]\n\n*\n', 0).svg())
    squares = {
        (int(e.get("x")) + 2, int(e.get("y")) + 2): e.get("data-square")
        for e in root.iter()
        if "square" in (e.get("class") or "").split()
    }
    framed = [
        e for e in root.iter(f"{{{NS['svg']}}}rect") if e.get("stroke-width") == "2.5" and e.get("fill") == "none"
    ]
    assert sorted(squares[int(e.get("x")), int(e.get("y"))] for e in framed) == ["a1", "a11", "f6", "k1", "k11"]


def test_a_board_wider_than_shown_is_shown_at_the_largest_width_its_height_in_proportion():
    """h82a: a board of 16 files and 1 rank (684 × 84) is shown 600 wide, as a 19×19 tafl board is:
    its larger side, not its smaller one, is brought within SHOWN."""
    from lusoria.svg import SHOWN, diagram_svg
    from lusoria.validator.diagram import Diagram, Squares

    names = tuple(f"{chr(ord('a') + file)}1" for file in range(16))
    root = ElementTree.fromstring(diagram_svg(Diagram("a row", Squares(16, 1, names), {}, {})))
    assert root.get("viewBox") == "0 0 684 84"
    assert (float(root.get("width")), float(root.get("height"))) == (SHOWN, pytest.approx(84 * SHOWN / 684))


def test_a_board_of_a_replay_with_captions_keeps_their_band_without_one_its_ground_under_it():
    """h82a: a replay page's boards are of one height when one has a caption (Latrunculi's pieces in hand,
    then none): a board drawn `banded` keeps the caption's band, and the ground covers the band, as it does
    under a caption."""
    from lusoria.svg import diagram_svg
    from lusoria.validator.diagram import Diagram, Squares

    squares = Squares(2, 1, ("a1", "b1"))
    for diagram, banded in (
        (Diagram("two", squares, {}, {}), True),
        (Diagram("two", squares, {}, {}, caption="x"), False),
    ):
        root = ElementTree.fromstring(diagram_svg(diagram, banded))
        ground = next(root.iter(f"{{{NS['svg']}}}rect"))
        assert root.get("viewBox") == "0 0 124 104" and (ground.get("width"), ground.get("height")) == ("124", "104")
    assert ElementTree.fromstring(diagram_svg(Diagram("two", squares, {}, {}))).get("viewBox") == "0 0 124 84"


def test_the_tray_counts_each_sides_checkers_borne_off():
    """h82a: the tray says under each side's name how many of its checkers are off (Black above, White below)."""
    from lusoria.svg import diagram_svg
    from lusoria.validator.diagram import Diagram, Points

    root = ElementTree.fromstring(diagram_svg(Diagram("a table", Points(), {}, {}, off=(2, 0))))
    assert [e.text for e in root.iter() if e.get("class") == "off-count"] == ["0", "2"]
    assert len([e for e in root.iter() if e.get("class") == "off white"]) == 2
    assert not [e for e in root.iter() if e.get("class") == "off black"]
