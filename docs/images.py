"""The diagrams the docs show, drawn by lusoria from the samples.

python docs/images.py        # rewrite docs/images/*.svg (a test checks they are current)
"""

from pathlib import Path

from lusoria.api import board
from lusoria.formats.sources import read_sources

ROOT = Path(__file__).resolve().parent.parent
IMAGES = {  # file: (sample, record, ply)
    "tablut.svg": ("samples/tablut/escape.lgn", 0, 7),
    "tablut-capture.svg": ("samples/tablut/king-captured.lgn", 0, 60),
    "latrunculi-seneca.svg": ("samples/latrunculi/seneca.lgn", 0, 757),
    "latrunculi-dux.svg": ("samples/latrunculi/dux.lgn", 0, 30),
    "laquet.svg": ("samples/laquet/whole-game.lgn", 0, 12),
}


def drawing(name: str) -> str:
    sample, record, ply = IMAGES[name]
    source = list(read_sources(str(ROOT / sample)))[record]
    return board(source, ply).svg() + "\n"


if __name__ == "__main__":
    for name in IMAGES:
        (ROOT / "docs" / "images" / name).write_text(drawing(name), "utf-8")
